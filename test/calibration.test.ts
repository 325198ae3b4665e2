/**
 * Per-pronoun calibration of zero-shot scores: the fit removes a prior planted in synthetic pairs, and
 * `proneval calibrate` + `--zero-shot-aggregate calibrated` use it end to end, named in the signature.
 */
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Rng } from "../src/core/prng.js";
import { pronouns } from "../src/text/pronouns.js";
import { fitPronounBias, syntheticAccuracy, type CalibrationSample } from "../src/pretrain/calibration.js";
import { N_PRONOUNS, PronounLm } from "../src/pretrain/model.js";
import { savePronounLm, loadPronounLm } from "../src/pretrain/checkpoint.js";
import { selectBackend } from "../src/nn/backend.js";
import { decodeHalf, encodeHalf } from "../src/nn/fp16.js";
import type { EmbeddingTable } from "../src/nn/glove.js";
import { prepareSide } from "../src/nn/inputs.js";
import { zeroShotScores } from "../src/pretrain/zeroshot.js";
import { registerCalibrate } from "../src/cli/calibrate.js";
import { registerScore } from "../src/cli/score.js";
import { registerMetaEval } from "../src/cli/meta-eval.js";
import { runCli } from "./cli-helper.js";

const inv = pronouns();
const SET = ["he", "she", "it", "they"].map((p) => inv.indexOf(p));
/** Planted log-prior of each pronoun of SET: the "model" prefers `it` and shuns `she` whatever the context. */
const PLANTED = [0, -1.5, 2, 0.5];

/** n slots per pronoun of SET: the true pronoun gets +1.5 on top of the planted prior and unit noise. */
function plantedSamples(n: number, seed: number): CalibrationSample[] {
  const rng = new Rng(seed);
  const out: CalibrationSample[] = [];
  SET.forEach((label) => {
    for (let k = 0; k < n; k++) {
      const logits = new Float64Array(N_PRONOUNS).fill(-30);
      SET.forEach((c, j) => (logits[c] = (c === label ? 1.5 : 0) + PLANTED[j]! + rng.normal()));
      const z = Math.log(logits.reduce((a, v) => a + Math.exp(v), 0));
      out.push({ label, logDist: Float32Array.from(logits, (v) => v - z) });
    }
  });
  return out;
}

const confusable = inv.list.map((_, i) => (SET.includes(i) ? SET.filter((j) => j !== i) : []));
const directionGap = (acc: ReturnType<typeof syntheticAccuracy>): number => {
  let worst = 0;
  for (const [k, c] of acc.byPair) {
    const [x, y] = k.split(">");
    const r = acc.byPair.get(`${y}>${x}`)!;
    worst = Math.max(worst, Math.abs(c.correct / c.n - r.correct / r.n));
  }
  return worst;
};

describe("fitting the per-pronoun biases", () => {
  it("removes a prior planted in synthetic pairs: biases recover it, both directions of every pair balance", () => {
    const samples = plantedSamples(400, 7);
    const raw = syntheticAccuracy(samples, confusable, null);
    // The planted prior decides: she>it (she right) is almost always lost, it>she almost always won.
    expect(raw.byPair.get("she>it")!.correct / raw.byPair.get("she>it")!.n).toBeLessThan(0.1);
    expect(directionGap(raw)).toBeGreaterThan(0.8);
    const fit = fitPronounBias(samples, { confusable, start: new Float32Array(N_PRONOUNS), lambda: 0.01 });
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const b = SET.map((c) => fit.bias[c]!);
    const centred = (xs: number[]) => xs.map((x) => x - mean(xs));
    centred(b).forEach((v, j) => expect(Math.abs(v - centred(PLANTED)[j]!)).toBeLessThan(0.25));
    const cal = syntheticAccuracy(samples, confusable, fit.bias);
    expect(directionGap(cal)).toBeLessThan(0.1);
    expect(cal.balanced).toBeGreaterThan(raw.balanced + 0.1);
    expect(fit.orderedPairs).toBe(12);
    // Pronouns outside every sampled pair keep their start value.
    expect(fit.bias[inv.indexOf("which")]).toBe(0);
  });

  it("is deterministic and does not move a prior that is already balanced", () => {
    const samples = plantedSamples(200, 3);
    const start = new Float32Array(N_PRONOUNS);
    SET.forEach((c, j) => (start[c] = PLANTED[j]!));
    const a = fitPronounBias(samples, { confusable, start, lambda: 0.1 });
    const b = fitPronounBias(samples, { confusable, start, lambda: 0.1 });
    expect(Array.from(a.bias)).toEqual(Array.from(b.bias));
    SET.forEach((c, j) => expect(Math.abs(a.bias[c]! - PLANTED[j]!)).toBeLessThan(0.3));
  });
});

describe("proneval calibrate and the calibrated aggregate", () => {
  let dir: string;
  const words = ["the", "woman", "man", "car", "came", "saw", "home", "late", "was", "red", ".", ",", ...["he", "she", "it", "they", "his", "her", "its", "their", "him", "them"]];
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "proneval-cal-"));
    await selectBackend("cpu");
    const rng = new Rng(5);
    const dim = 8;
    const v = new Float32Array((words.length + 2) * dim);
    for (let i = dim; i < v.length; i++) v[i] = rng.next() - 0.5;
    const table: EmbeddingTable = { dim, words, vectors: decodeHalf(encodeHalf(v)), source: "test" };
    const lm = new PronounLm(table, 6, 0, new Rng(2));
    lm.logPrior = Float32Array.from({ length: N_PRONOUNS }, (_, i) => -1 - 0.1 * i);
    savePronounLm(join(dir, "lm"), lm, { prepare: { contextSentences: 2, maxLen: 64 }, training: {} });
    lm.dispose();
    const docs = Array.from({ length: 30 }, (_, d) => ({
      id: `d${d}`,
      source: "test",
      sents: ["the woman came home .", d % 2 ? "she saw his car ." : "he saw her car .", "it was late , they came .", "the man saw them and him ."],
    }));
    writeFileSync(join(dir, "corpus.jsonl"), docs.map((x) => JSON.stringify(x)).join("\n") + "\n");
    writeFileSync(join(dir, "ref.txt"), "The woman came home.\nShe saw his car.\nIt was late.\n");
    writeFileSync(join(dir, "hyp.txt"), "The woman came home.\nHe saw her car.\nThey was late.\n");
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const calibrate = (...extra: string[]) => runCli(registerCalibrate, "calibrate", ["-c", join(dir, "lm"), "--corpus", join(dir, "corpus.jsonl"), "--backend", "cpu", "--per-pronoun", "10", ...extra]);
  const score = (...extra: string[]) => runCli(registerScore, "score", ["-r", join(dir, "ref.txt"), "-t", join(dir, "hyp.txt"), "--backend", "cpu", "--zero-shot", join(dir, "lm"), ...extra]);

  it("refuses the calibrated aggregate before a calibration is fitted, naming the command that fits one", async () => {
    const r = await score("--zero-shot-aggregate", "calibrated");
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/no calibration\.json in the model directory: fit one with 'proneval calibrate -c /);
  });

  it("fits on the corpus with a seed (same seed, same file), refuses to replace it without --force", async () => {
    const r = await calibrate();
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^corpus: 30 documents, 180 pronoun slots; \d+ slots sampled \(at most 10 per pronoun\), \d+ ordered pronoun pairs\n/);
    expect(r.out).toMatch(/\nsignature: proneval-calibrate\|model:pronoun-lm@[0-9a-f]{8}\|corpus:corpus\.jsonl:[0-9a-f]{16}:30\|per-pronoun:10\|lambda:0\.1\|seed:1\|version:/);
    const file = join(dir, "lm", "calibration.json");
    const first = readFileSync(file, "utf8");
    const cal = JSON.parse(first);
    expect(cal.bias).toHaveLength(N_PRONOUNS);
    expect(cal.weightsSha256).toBe(loadPronounLm(join(dir, "lm")).config.files.weights.sha256);
    expect((await calibrate()).code).toBe(2);
    expect((await calibrate("--force")).code).toBe(0);
    expect(readFileSync(file, "utf8")).toBe(first);
    const other = await calibrate("--force", "--seed", "9", "-o", "-");
    expect(JSON.parse(other.out).fit.seed).toBe(9);
    expect(readFileSync(file, "utf8")).toBe(first);
  });

  it("scores log P minus the fitted bias, and the signature names the calibration", async () => {
    const cal = JSON.parse(readFileSync(join(dir, "lm", "calibration.json"), "utf8"));
    const r = await score("--zero-shot-aggregate", "calibrated", "--segments", "--json", "-q");
    expect(r.code, r.err).toBe(0);
    const out = JSON.parse(r.out);
    expect(out.signature).toMatch(/\|model:pronoun-lm-zeroshot-calibrated@[0-9a-f]{8}\+cal@[0-9a-f]{8}\|/);
    const { lm, config } = loadPronounLm(join(dir, "lm"));
    const side = prepareSide({ context: ["The woman came home."], sentence: "She saw his car." }, config.prepare);
    const [z] = zeroShotScores(lm, [side]);
    lm.dispose();
    const expected = z!.logProbs.reduce((a, lp, k) => a + lp - cal.bias[z!.labels[k]!]!, 0);
    const seg = out.systems[0].segments[1];
    expect(seg.ref).toBeCloseTo(expected, 4);
    const pmi = JSON.parse((await score("--segments", "--json", "-q")).out);
    expect(pmi.systems[0].segments[1].ref).not.toBeCloseTo(expected, 4);
  });

  it("meta-eval compares one model under two aggregates, paired (one aggregate per -c)", async () => {
    const pair = (id: string, positive: string, negative: string, ref: string, sys: string) => ({ id, lang: "de", context: ["The woman came home ."], positive, negative, kind: "noisy", ref_pronoun: ref, sys_pronoun: sys, origin: "t/de-en/d/1/x" });
    writeFileSync(join(dir, "pairs.jsonl"), [pair("a", "she saw his car .", "he saw his car .", "she", "he"), pair("b", "he saw her car .", "he saw its car .", "her", "its")].map((x) => JSON.stringify(x)).join("\n") + "\n");
    const lm = join(dir, "lm");
    const args = ["--pairs", join(dir, "pairs.jsonl"), "--backend", "cpu", "--bootstrap", "20", "--probe-limit", "1", "-q", "--json"];
    const r = await runCli(registerMetaEval, "meta-eval", ["-c", lm, lm, "--zero-shot-aggregate", "pmi", "calibrated", ...args]);
    expect(r.code, r.err).toBe(0);
    const out = JSON.parse(r.out);
    expect(out.reports.map((x: { name: string }) => x.name)).toEqual([`${lm}:pmi`, `${lm}:calibrated`]);
    expect(out.reports[1].signature).toMatch(/zeroshot-calibrated@[0-9a-f]{8}\+cal@/);
    expect(out.significance.baseline).toBe(`${lm}:pmi`);
    const bad = await runCli(registerMetaEval, "meta-eval", ["-c", lm, lm, "--zero-shot-aggregate", "pmi", "sum", "margin", ...args]);
    expect(bad.code).toBe(2);
    expect(bad.err).toBe("proneval: error: --zero-shot-aggregate takes one value, or one per -c (2), got 3\n");
  });

  it("refuses a calibration fitted for other weights", async () => {
    const file = join(dir, "lm", "calibration.json");
    const cal = JSON.parse(readFileSync(file, "utf8"));
    writeFileSync(file, JSON.stringify({ ...cal, weightsSha256: "0".repeat(64) }));
    const r = await score("--zero-shot-aggregate", "calibrated");
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/calibration\.json: fitted for other weights \(sha256 00000000, the model's are [0-9a-f]{8}\)/);
    expect(existsSync(file)).toBe(true);
  });
});
