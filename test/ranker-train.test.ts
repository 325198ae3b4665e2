import { describe, it, expect, beforeAll } from "vitest";
import * as tf from "@tensorflow/tfjs";
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { spawnSync } from "node:child_process";
import { selectBackend } from "../src/nn/backend.js";
import { trainRanker, TRAIN_DEFAULTS, type TrainOptions } from "../src/ranker/train.js";
import { registerTrain } from "../src/cli/train.js";
import { runCli } from "./cli-helper.js";
import { loadCheckpoint, saveCheckpoint, createModel } from "../src/ranker/checkpoint.js";
import { loadScorer } from "../src/metric/load.js";
import { scoreSidesWith } from "../src/core/scorer.js";
import { compareToBaseline, readScoringInput, scoreTestSet, signature } from "../src/metric/testset.js";
import { readRankerPairs } from "../src/nn/data.js";
import { preparePairs, accuracyReport } from "../src/nn/evaluate.js";
import { buildEmbeddingTable } from "../src/nn/glove.js";
import { scoreSides, scorePairs } from "../src/ranker/run-model.js";
import { Rng } from "../src/core/prng.js";
import { InputError } from "../src/io/errors.js";
import { PronounLm } from "../src/pretrain/model.js";
import { savePronounLm, loadPretrainedEncoder } from "../src/pretrain/checkpoint.js";
import { VOCAB, toyPairs, writeTinyWink } from "./ranker-fixtures.js";
import { rankerWorkerScript } from "../src/ranker/shard.js";

const CLI = join(dirname(fileURLToPath(import.meta.url)), "..", "dist", "src", "cli", "index.js");
const dir = mkdtempSync(join(tmpdir(), "ranker-train-"));
const wink = join(dir, "wink.json");
const train = join(dir, "train.jsonl");
const dev = join(dir, "dev.jsonl");

function opts(out: string, extra: Partial<TrainOptions> = {}): TrainOptions {
  return { ...TRAIN_DEFAULTS, train, dev, out, embeddingsSource: wink, hidden: 5, slots: 3, epochs: 3, batchSize: 8, lr: 0.02, dropout: 0.1, seed: 7, checkpointEvery: 4, backend: "cpu", vocabCap: 100, ...extra };
}

beforeAll(async () => {
  await selectBackend("cpu");
  writeTinyWink(wink);
  writeFileSync(train, toyPairs(48, 1));
  writeFileSync(dev, toyPairs(24, 2, "yy"));
});

describe("GloVe cache", () => {
  it("keeps required words, then data words by frequency, within the cap; unknown words get the unk row", () => {
    const t = buildEmbeddingTable({ counts: new Map([["Car", 5], ["zebra", 9], ["dog", 1]]), required: ["he", "she"], cap: 4, source: wink });
    expect(t.words).toEqual(["he", "she", "car", "dog"]);
    expect(t.vectors.length).toBe(6 * t.dim);
    // Row 0 (padding) is zero; the vectors are the file's.
    expect(Array.from(t.vectors.subarray(0, t.dim))).toEqual(Array(t.dim).fill(0));
    const raw = JSON.parse(readFileSync(wink, "utf8")).vectors.car.slice(0, t.dim);
    // Stored as fp16: within half-precision rounding of the file's values.
    for (let k = 0; k < t.dim; k++) expect(Math.abs(t.vectors[4 * t.dim + k]! - raw[k])).toBeLessThan(1e-3);
  });
});

describe("training end to end", () => {
  it("train -> checkpoint -> load gives the same scores; dev accuracy beats chance on the toy rule", async () => {
    const out = join(dir, "run-a");
    const res = await trainRanker(opts(out));
    expect(res.epochsDone).toBe(3);
    for (const f of ["config.json", "weights.bin", "embeddings.bin", "resume.ckpt", "curve.json"]) expect(existsSync(join(out, f))).toBe(true);
    const curve = JSON.parse(readFileSync(join(out, "curve.json"), "utf8")).curve;
    expect(curve).toHaveLength(3);
    const cfg = JSON.parse(readFileSync(join(out, "config.json"), "utf8"));
    expect(cfg.encoder.kind).toBe("glove-bilstm");
    expect(cfg.contextMode).toBe("crc");
    expect(cfg.data.train).toMatch(/^train\.jsonl:[0-9a-f]{16}:48$/);
    // The loaded best checkpoint reproduces the dev accuracy recorded for it.
    const { model, config } = await loadCheckpoint(out);
    const pairs = await readRankerPairs(dev, "crc");
    const { pos, neg } = preparePairs(pairs, "crc", config.prepare);
    const rep = accuracyReport(pairs, await scorePairs(model, pos, neg), "crc");
    expect(rep.overall.accuracy).toBeCloseTo(res.best!.devAccuracy!, 10);
    expect(rep.overall.accuracy).toBeGreaterThan(0.6);
    expect(Object.keys(rep.byKind).sort()).toEqual(["noisy", "system"]);
    expect(rep.byLang.yy!.n).toBe(24);
    model.dispose();
  }, 60000);

  it("--init-from starts the BiLSTM from a pretrained masked-pronoun model (its hidden size and vocabulary)", async () => {
    const lmDir = join(dir, "lm");
    mkdirSync(lmDir, { recursive: true });
    const table = buildEmbeddingTable({ counts: new Map(VOCAB.map((w) => [w, 1])), required: [], cap: 100, source: wink });
    const lm = new PronounLm(table, 4, 0, new Rng(3));
    savePronounLm(lmDir, lm, { prepare: { contextSentences: 2, maxLen: 128 }, training: {} });
    const wf = Array.from(lm.encoder.params.get("lstm/Wf")!.dataSync());
    lm.dispose();
    const out = join(dir, "run-init");
    // lr 0: the saved encoder must be exactly the pretrained one.
    await trainRanker(opts(out, { initFrom: lmDir, epochs: 1, lr: 0 }), { loadInit: loadPretrainedEncoder });
    const cfg = JSON.parse(readFileSync(join(out, "config.json"), "utf8"));
    expect(cfg.encoder.hidden).toBe(4);
    expect(cfg.data.initFrom).toMatch(/^pronoun-lm@[0-9a-f]{16}$/);
    expect(readFileSync(join(out, "embeddings.bin")).equals(readFileSync(join(lmDir, "embeddings.bin")))).toBe(true);
    const { model } = await loadCheckpoint(out);
    expect(Array.from(model.encoder.params.get("lstm/Wf")!.dataSync())).toEqual(wf);
    model.dispose();
    await expect(trainRanker(opts(join(dir, "run-init-bad"), { initFrom: join(dir, "no-lm") }), { loadInit: loadPretrainedEncoder })).rejects.toThrow(/model directory not found/);
    expect(existsSync(join(dir, "run-init-bad"))).toBe(false);
  }, 60000);

  it("--encoder-lr 0 trains the head alone; a lower encoder rate moves the encoder less than the head's rate", async () => {
    const base = join(dir, "run-a-enc");
    await trainRanker(opts(base, { epochs: 1, lr: 0 }));
    const init = await loadCheckpoint(base);
    const w0 = (m: typeof init.model, k: string): number[] => Array.from((k.startsWith("lstm/") ? m.encoder.params : m.params).get(k)!.dataSync());
    const dist = (a: number[], b: number[]): number => Math.sqrt(a.reduce((s, x, i) => s + (x - b[i]!) ** 2, 0));
    const run = async (name: string, extra: Partial<TrainOptions>): Promise<{ wf: number; z: number }> => {
      await trainRanker(opts(join(dir, name), { epochs: 1, ...extra }));
      const { model, config } = await loadCheckpoint(join(dir, name));
      expect(config.training.encoderLr).toBe(extra.encoderLr);
      const r = { wf: dist(w0(model, "lstm/Wf"), w0(init.model, "lstm/Wf")), z: dist(w0(model, "head/z"), w0(init.model, "head/z")) };
      model.dispose();
      return r;
    };
    const frozen = await run("run-frozen", { encoderLr: 0 });
    expect(frozen.wf).toBe(0);
    expect(frozen.z).toBeGreaterThan(0);
    const slow = await run("run-slow", { encoderLr: 0.002 });
    const full = await run("run-full", { encoderLr: 0.02 });
    expect(slow.wf).toBeGreaterThan(0);
    expect(slow.wf).toBeLessThan(full.wf / 3);
    init.model.dispose();
    await expect(trainRanker(opts(join(dir, "run-neg"), { encoderLr: -1 }))).rejects.toThrow(/--encoder-lr must be 0/);
  }, 60000);

  it("an interrupted run resumed with --resume ends with exactly the same weights", async () => {
    const full = JSON.parse(readFileSync(join(dir, "run-a", "config.json"), "utf8"));
    const out = join(dir, "run-b");
    const part = await trainRanker(opts(out, { maxSteps: 5 }));
    expect(part.stoppedEarly).toBe(true);
    const rest = await trainRanker(opts(out, { resume: true }));
    expect(rest.steps).toBe(18);
    const resumed = JSON.parse(readFileSync(join(out, "config.json"), "utf8"));
    expect(resumed.files.weights.sha256).toBe(full.files.weights.sha256);
    // Resuming with different options is refused.
    await expect(trainRanker(opts(out, { resume: true, lr: 0.5 }))).rejects.toThrow(/cannot resume/);
  }, 60000);

  it("save -> load round trip gives identical scores (baseline head, NC)", async () => {
    const table = buildEmbeddingTable({ counts: new Map(), required: VOCAB, cap: 100, source: wink });
    const m = await createModel({ encoder: { kind: "glove-bilstm", hidden: 3, dropout: 0 }, head: { head: "baseline", slots: 2 } }, table, new Rng(5));
    const out = join(dir, "rt");
    saveCheckpoint(out, m, { contextMode: "nc", prepare: { contextSentences: 0, maxLen: 32 }, data: {}, training: {} });
    const sides = [
      { tokens: ["he", "came", "home"], sentStart: 0, pronounPos: [0], truncated: 0 },
      { tokens: ["the", "car", "was", "its", "red"], sentStart: 0, pronounPos: [3], truncated: 0 },
    ];
    const a = await scoreSides(m, sides);
    const { model } = await loadCheckpoint(out);
    const b = await scoreSides(model, sides);
    expect(b.map((s) => s.y)).toEqual(a.map((s) => s.y));
    m.dispose();
    model.dispose();
  });
});

describe("training on a backend without synchronous reads", () => {
  it("reads values only after bringing them to the host (as WebGPU under Node needs), with the same weights", async () => {
    // Emulated on cpu: a tensor's dataSync fails unless its current values were read with data() first.
    const onHost = new WeakSet<object>();
    const proto = tf.Tensor.prototype as unknown as { data: () => Promise<unknown>; dataSync: () => unknown; arraySync: () => unknown; dataId: object };
    const { data, dataSync, arraySync } = proto;
    const run = async (out: string, workers: number) => trainRanker(opts(out, { epochs: 2, lstmImpl: "graph", workers }));
    const counts = rankerWorkerScript() ? [1, 2] : [1];
    proto.data = async function (this: { dataId: object }) {
      const v = await data.call(this);
      onHost.add(this.dataId);
      return v;
    };
    proto.dataSync = function (this: { dataId: object }) {
      if (!onHost.has(this.dataId)) throw new Error("a synchronous read of values not on the host");
      return dataSync.call(this);
    };
    proto.arraySync = () => {
      throw new Error("a synchronous read");
    };
    try {
      for (const w of counts) await run(join(dir, `nosync-${w}`), w);
    } finally {
      Object.assign(proto, { data, dataSync, arraySync });
    }
    await run(join(dir, "sync-1"), 1);
    expect(readFileSync(join(dir, "nosync-1", "weights.bin")).equals(readFileSync(join(dir, "sync-1", "weights.bin")))).toBe(true);
  }, 60000);
});

describe("checkpoint validation", () => {
  it("fails clearly on a missing directory, another format version, and a tampered weights file", async () => {
    await expect(loadCheckpoint(join(dir, "nope"))).rejects.toThrow(/checkpoint directory not found/);
    const src = join(dir, "run-a");
    const bad = join(dir, "bad-version");
    const cfg = JSON.parse(readFileSync(join(src, "config.json"), "utf8"));
    mkdirSync(bad);
    for (const f of ["weights.bin", "embeddings.bin"]) writeFileSync(join(bad, f), readFileSync(join(src, f)), { flag: "w" });
    writeFileSync(join(bad, "config.json"), JSON.stringify({ ...cfg, formatVersion: 99 }));
    await expect(loadCheckpoint(bad)).rejects.toThrow(/format version 99.*cannot be read/);
    writeFileSync(join(bad, "config.json"), JSON.stringify({ ...cfg, proneval: "7.0.0" }));
    await expect(loadCheckpoint(bad)).rejects.toThrow(/proneval 7\.0\.0, incompatible/);
    writeFileSync(join(bad, "config.json"), JSON.stringify(cfg));
    const w = readFileSync(join(src, "weights.bin"));
    w[0] = w[0]! ^ 0xff;
    writeFileSync(join(bad, "weights.bin"), w);
    await expect(loadCheckpoint(bad)).rejects.toThrow(/checksum mismatch/);
  });
});

describe("pair-file and option errors", () => {
  it("names file and line for missing fields, empty sentences and positives without pronouns", async () => {
    const f = join(dir, "bad.jsonl");
    const good = toyPairs(1, 3).trim();
    writeFileSync(f, `${good}\n${JSON.stringify({ ...JSON.parse(good), positive: "the car was red ." })}\n`);
    await expect(readRankerPairs(f, "crc")).rejects.toThrow(/bad\.jsonl:2: positive sentence has no pronoun/);
    writeFileSync(f, `${good}\n\n${JSON.stringify({ ...JSON.parse(good), negative: " " })}\n`);
    await expect(readRankerPairs(f, "crc")).rejects.toThrow(/bad\.jsonl:3: field 'negative' is empty/);
    const { lang: _lang, ...noLang } = JSON.parse(good);
    writeFileSync(f, JSON.stringify(noLang) + "\n");
    await expect(readRankerPairs(f, "crc")).rejects.toThrow(/bad\.jsonl:1: field 'lang' is missing/);
    const sys = toyPairs(2, 3).trim().split("\n")[1]!;
    expect(JSON.parse(sys).kind).toBe("system");
    writeFileSync(f, sys + "\n");
    await expect(readRankerPairs(f, "rc")).rejects.toThrow(/negative_context/);
  });

  it("rejects an unknown backend", async () => {
    await expect(selectBackend("tpu")).rejects.toThrow(InputError);
  });
});

describe("scorer", () => {
  it("scores hand-built reference/system files: no-pronoun segments reported, identical segments tie, compare is consistent", async () => {
    const ref = join(dir, "ref.txt");
    const same = join(dir, "same.txt");
    const swapped = join(dir, "swapped.txt");
    writeFileSync(ref, "the man was old .\nhe came home late .\nthe car was red .\nthe dog was fast .\nit was sold .\n");
    writeFileSync(same, "the man was old .\nhe came home late .\nthe car was red .\nthe dog was fast .\nit was sold .\n");
    writeFileSync(swapped, "the man was old .\nshe came home late .\nthe car was red .\nthe dog was fast .\nhe was sold .\n");
    const scorer = await loadScorer(join(dir, "run-a"), { backend: "cpu" });
    const input = await readScoringInput(ref, [same, swapped], { format: "text" });
    const [a, b] = await scoreTestSet(scorer, input.testSet, input.systems, { aggregate: "sum" });
    expect(a!.segments.map((s) => s.status)).toEqual(["no-pronoun", "scored", "no-pronoun", "no-pronoun", "scored"]);
    expect(a!.segments[1]!.diff).toBe(0);
    expect(a!.summary).toMatchObject({ segments: 5, pronounSegments: 2, noPronounSegments: 3, notBelow: 1, score: 100 });
    // Per-pronoun decisions: identical outputs make no decision; the swapped pronouns make one each.
    const [pa, pb] = await scoreTestSet(scorer, input.testSet, input.systems, { aggregate: "pronoun" });
    expect(pa!.segments[1]!.diff).toBeNull();
    expect(pa!.summary.score).toBe(100);
    expect(pb!.segments[1]!.decisions!.map((d) => `${d.aToken}>${d.bToken}`)).toEqual(["he>she"]);
    expect(pb!.segments[4]!.decisions!.map((d) => `${d.aToken}>${d.bToken}`)).toEqual(["it>he"]);
    expect(b!.segments[1]!.sysPronouns).toEqual(["she"]);
    // The toy model learnt that "man" in the context wants "he", "car" wants "it".
    expect(b!.segments[1]!.sys!).toBeLessThan(b!.segments[1]!.ref!);
    const cmp = compareToBaseline(b!, a!, { samples: 200, seed: 1 });
    expect(cmp.pronounSegments).toBe(2);
    expect(cmp.score).toBe(100);
    expect(cmp.wins.baseline).toBe(0);
    expect(cmp.bootstrap!.p).toBeGreaterThan(0);
    expect(signature(scorer)).toMatch(/^proneval-pronoun\|model:glove-bilstm-attention-crc@[0-9a-f]{8}\|ctx:crc\|/);
    // Per-pronoun scores and attention come with the library API.
    const [side] = await scoreSidesWith(scorer, [{ context: ["the man was old ."], sentence: "he came home late ." }], { withAttention: true });
    expect(side!.pronouns).toHaveLength(1);
    expect(side!.pronouns[0]!.attention!.reduce((x, y) => x + y, 0)).toBeCloseTo(1, 5);
    scorer.dispose();
  });
});

describe("CLI", () => {
  it("train -q prints nothing on stderr (no progress, log lines or summary); without it the summary names the checkpoint and a signature", async () => {
    const args = (out: string) => ["--train", train, "--dev", dev, "-o", out, "--embeddings", wink, "--hidden", "5", "--slots", "3", "--epochs", "1", "--batch-size", "8", "--backend", "cpu", "--vocab-cap", "100"];
    const q = await runCli(registerTrain, "train", [...args(join(dir, "cli-q")), "-q"]);
    expect(q.code).toBe(0);
    expect(q.err).toBe("");
    const v = await runCli(registerTrain, "train", args(join(dir, "cli-v")));
    expect(v.code).toBe(0);
    expect(v.err).toMatch(/proneval train: done: .*checkpoint: .*cli-v\nproneval train: signature: proneval-train\|model:glove-bilstm-attention-crc@[0-9a-f]{8}\|train:.*\|epochs:1\|lr:[0-9.e-]+\|seed:\d+\|backend:cpu\|version:\S+\n$/);
  });


  it("score/eval/compare run on the tiny checkpoint; bad options exit 2 with one clear line", () => {
    if (!existsSync(CLI)) return; // built by `npm test` (tsc) before vitest
    const ck = join(dir, "run-a");
    const ref = join(dir, "ref.txt");
    const r1 = spawnSync("node", [CLI, "score", "-r", ref, "-t", join(dir, "swapped.txt"), "-c", ck, "--backend", "cpu", "--json", "-o", join(dir, "s.json")], { encoding: "utf8" });
    expect({ status: r1.status, stderr: r1.stderr }).toMatchObject({ status: 0 });
    expect(r1.stdout).toBe("");
    const r1t = spawnSync("node", [CLI, "score", "-r", ref, "-t", join(dir, "swapped.txt"), "-c", ck, "--backend", "cpu"], { encoding: "utf8" });
    expect(r1t.stdout).toMatch(/^system\tscore\tpronoun_segments\tsegments\n/);
    expect(r1t.stdout).toMatch(/\nsignature: proneval-pronoun\|.*\|ctx:crc-lines\|/);
    expect(JSON.parse(readFileSync(join(dir, "s.json"), "utf8")).systems[0].segments).toHaveLength(5);
    const r2 = spawnSync("node", [CLI, "eval", "--pairs", dev, "-c", ck, "--backend", "cpu", "--json"], { encoding: "utf8" });
    expect({ status: r2.status, stderr: r2.stderr }).toMatchObject({ status: 0 });
    expect(JSON.parse(r2.stdout).pairs).toBe(24);
    const r3 = spawnSync("node", [CLI, "score", "-r", ref, "-t", ref, "-c", ck, "--backend", "tpu"], { encoding: "utf8" });
    expect({ status: r3.status, stderr: r3.stderr }).toMatchObject({ status: 2 });
    expect(r3.stderr).toMatch(/proneval: error: unknown backend 'tpu'/);
    const r4 = spawnSync("node", [CLI, "score", "-r", ref, "-t", ref, "-c", join(dir, "missing")], { encoding: "utf8" });
    expect({ status: r4.status, stderr: r4.stderr }).toMatchObject({ status: 2 });
    expect(r4.stderr).toMatch(/checkpoint directory not found/);
    // Two scoring threads (worker) give the same numbers as one.
    const rng = new Rng(4);
    const words = ["the", "man", "woman", "car", "he", "she", "it", "came", "home", "late", "was", "red", "."];
    const lines = (k: number): string => Array.from({ length: 300 }, () => Array.from({ length: 3 + rng.int(k) }, () => words[rng.int(words.length)]).join(" ")).join("\n") + "\n";
    const bigRef = join(dir, "big-ref.txt");
    const bigHyp = join(dir, "big-hyp.txt");
    writeFileSync(bigRef, lines(9));
    writeFileSync(bigHyp, lines(9));
    const runT = (t: string) => {
      const r = spawnSync("node", [CLI, "score", "-r", bigRef, "-t", bigHyp, "-c", ck, "--backend", "wasm", "--threads", t, "--json"], { encoding: "utf8" });
      expect(r.stderr).not.toMatch(/error/);
      expect(r.status).toBe(0);
      return JSON.parse(r.stdout);
    };
    const one = runT("1").systems[0];
    const two = runT("2").systems[0];
    expect(two.summary.pronounSegments).toBe(one.summary.pronounSegments);
    expect(two.summary.notBelow).toBe(one.summary.notBelow);
    expect(two.summary.meanDiff).toBeCloseTo(one.summary.meanDiff, 6);
    one.segments.forEach((sg: { sys: number | null }, i: number) => {
      if (sg.sys !== null) expect(Math.abs(sg.sys - two.segments[i].sys)).toBeLessThan(1e-5);
    });
    const r5 = spawnSync("node", [CLI, "compare", "-r", ref, "-t", ref, "-c", ck], { encoding: "utf8" });
    expect({ status: r5.status, stderr: r5.stderr }).toMatchObject({ status: 2 });
    expect(r5.stderr).toMatch(/a baseline and at least one system/);
  }, 60000);
});
