import { describe, it, expect, beforeAll } from "vitest";
import { mkdtempSync, writeFileSync, readFileSync, mkdirSync, cpSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as tf from "@tensorflow/tfjs";
import { selectBackend } from "../src/nn/backend.js";
import { GloveBiLstmEncoder } from "../src/nn/encoder.js";
import { RankerModel } from "../src/ranker/model.js";
import { saveCheckpoint } from "../src/ranker/checkpoint.js";
import { loadScorer } from "../src/metric/load.js";
import { scoreSidesWith } from "../src/core/scorer.js";
import { signature } from "../src/metric/testset.js";
import { Rng } from "../src/core/prng.js";
import type { EmbeddingTable } from "../src/nn/glove.js";
import { PronounLm } from "../src/pretrain/model.js";
import { savePronounLm } from "../src/pretrain/checkpoint.js";
import { loadZeroShotScorer } from "../src/pretrain/scorer.js";
import { buildEnsemble, fitEnsembleWeight, pairAccuracy, EnsembleScorer, type EnsembleConfig } from "../src/metric/ensemble.js";
import { registerEval } from "../src/cli/eval.js";
import { registerEnsemble } from "../src/cli/ensemble.js";
import { runCli } from "./cli-helper.js";

const WORDS = ["i", "he", "it", "she", "they", "her", "him", "them", "we", "you", "the", "house", "saw", "walked", "to", "sister", "."];
const PREP = { contextSentences: 2, maxLen: 128 };
const root = mkdtempSync(join(tmpdir(), "proneval-ensemble-"));
const rankerDir = join(root, "ckpt", "ranker");
const lmDir = join(root, "ckpt", "lm");
const pairsFile = join(root, "pairs.jsonl");

function table(seed: number): EmbeddingTable {
  const rng = new Rng(seed);
  const dim = 6;
  const v = new Float32Array((WORDS.length + 2) * dim);
  for (let i = dim; i < v.length; i++) v[i] = rng.next() - 0.5;
  return { dim, words: WORDS, vectors: v, source: "test" };
}

/** Tiny random weights scaled up so that scores differ visibly between sides. */
function scaleUp(vars: Iterable<tf.Variable>, seed: number): void {
  for (const p of vars) p.assign(tf.tidy(() => tf.add(tf.mul(p, 3), tf.randomUniform(p.shape, -0.5, 0.5, "float32", seed))));
}

function pair(i: number, pos: string, neg: string, kind: string): string {
  return JSON.stringify({ id: `p${i}`, lang: "de", context: ["the sister saw him ."], positive: pos, negative: neg, kind, ref_pronoun: "he", sys_pronoun: "she", origin: "t", split: "train", context_mode: "crc" });
}

beforeAll(async () => {
  await selectBackend("cpu");
  const rng = new Rng(5);
  const model = new RankerModel(new GloveBiLstmEncoder(table(1), { hidden: 6, dropout: 0 }, rng), { head: "attention", slots: 4 }, rng);
  scaleUp(model.allParams().values() as Iterable<tf.Variable>, 2);
  saveCheckpoint(rankerDir, model, { contextMode: "crc", prepare: PREP, data: {}, training: {} });
  model.dispose();
  const lm = new PronounLm(table(2), 5, 0, new Rng(9));
  scaleUp(lm.allParams().values(), 4);
  lm.logPrior = Float32Array.from({ length: 42 }, (_, k) => -2 - k / 20);
  mkdirSync(lmDir, { recursive: true });
  savePronounLm(lmDir, lm, { prepare: PREP, training: {} });
  lm.dispose();
  writeFileSync(
    pairsFile,
    [
      pair(1, "he saw her .", "she saw her .", "noisy"),
      pair(2, "they saw the house .", "it saw the house .", "system"),
      pair(3, "it walked to them .", "it walked to him .", "noisy"),
      pair(4, "she walked to the house .", "he walked to the house .", "system"),
      pair(5, "we saw it .", "we saw them .", "system"),
    ].join("\n") + "\n",
  );
});

describe("ensemble weight fit", () => {
  it("the accuracy sweep finds the best a of a fine grid; logistic and equal spread are sane", () => {
    const rng = new Rng(3);
    const n = 400;
    const dr = Float64Array.from({ length: n }, () => rng.normal() + 0.3);
    const dz = Float64Array.from({ length: n }, () => 4 * rng.normal() + 1);
    const fit = fitEnsembleWeight(dr, dz);
    let gridBest = 0;
    for (let a = 0; a <= 3; a += 0.0005) gridBest = Math.max(gridBest, pairAccuracy(dr, dz, a));
    expect(fit.trainAccuracy.accuracy).toBeGreaterThanOrEqual(gridBest);
    expect(pairAccuracy(dr, dz, fit.trainAccuracy.a)).toBeCloseTo(fit.trainAccuracy.accuracy, 12);
    expect(fit.rankerAccuracy).toBeCloseTo(pairAccuracy(dr, dz, 0), 12);
    expect(fit.equalSpread.a).toBeGreaterThan(0.15);
    expect(fit.equalSpread.a).toBeLessThan(0.35);
    expect(fit.logistic.wRanker).toBeGreaterThan(0);
    expect(fit.logistic.a).toBeGreaterThan(0);
    // A useless second score gets (almost) no weight.
    const noise = Float64Array.from({ length: n }, () => rng.normal());
    expect(fitEnsembleWeight(dr, noise).logistic.a).toBeLessThan(0.2);
  });
});

describe("ensemble checkpoint", () => {
  const ensDir = join(root, "ckpt", "ens");

  it("proneval ensemble writes a config with relative paths, the fit and the data signature", async () => {
    const r = await runCli(registerEnsemble, "ensemble", ["--ranker", rankerDir, "--lm", lmDir, "--train", pairsFile, "-o", ensDir, "--method", "equal-spread", "--backend", "cpu", "--threads", "1", "--quiet"]);
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/chosen \(equal-spread\): a = /);
    const cfg = JSON.parse(readFileSync(join(ensDir, "config.json"), "utf8")) as EnsembleConfig;
    expect(cfg.kind).toBe("ensemble");
    expect(cfg.ranker.path).toBe("../ranker");
    expect(cfg.lm.path).toBe("../lm");
    expect(cfg.weight).toBe(cfg.choice.candidates.equalSpread.a);
    expect(cfg.weight).toBeGreaterThan(0);
    expect(cfg.data.train).toMatch(/^pairs\.jsonl:[0-9a-f]{16}:5$/);
    expect(r.out).not.toMatch(/signature/);
    // Without -q the accuracies come with a signature naming both components, the fit and the data.
    const again = await runCli(registerEnsemble, "ensemble", ["--ranker", rankerDir, "--lm", lmDir, "--train", pairsFile, "-o", ensDir, "--force", "--method", "equal-spread", "--backend", "cpu", "--threads", "1"]);
    expect(again.code).toBe(0);
    expect(again.out).toMatch(/\nsignature: proneval-ensemble\|ranker:@[0-9a-f]{8}\|lm:pronoun-lm-pmi@[0-9a-f]{8}\|method:equal-spread\|a:\S+\|train:pairs\.jsonl:[0-9a-f]{16}:5\|backend:\w+\|version:\S+\n$/);
  });

  it("loadScorer gives ranker score + a * zero-shot PMI, with the ranker's pronoun scores and the LM's per pronoun", async () => {
    const ens = await loadScorer(ensDir, { backend: "cpu" });
    expect(ens).toBeInstanceOf(EnsembleScorer);
    const a = (ens as EnsembleScorer).weight;
    const ranker = await loadScorer(rankerDir, { backend: "cpu" });
    const zs = await loadZeroShotScorer(lmDir, { backend: "cpu", aggregate: "pmi" });
    const sides = [
      { context: ["the sister saw him ."], sentence: "he saw her ." },
      { context: [], sentence: "the house ." },
      { context: ["she walked to the house ."], sentence: "they walked to it" },
    ];
    const [e, r, z] = await Promise.all([scoreSidesWith(ens, sides, { withAttention: true }), scoreSidesWith(ranker, sides, { withAttention: true }), scoreSidesWith(zs, sides)]);
    sides.forEach((_, i) => {
      expect(e[i]!.score).toBeCloseTo(r[i]!.score + a * z[i]!.score, 5);
      expect(e[i]!.pronouns.map((p) => p.score)).toEqual(r[i]!.pronouns.map((p) => p.score));
      e[i]!.pronouns.forEach((p, j) => {
        expect(p.attention).toEqual(r[i]!.pronouns[j]!.attention);
        expect(p.parts!.lmPmi).toBeCloseTo(z[i]!.pronouns[j]!.score, 5);
        expect(p.contribution).toBeCloseTo(r[i]!.pronouns[j]!.contribution + a * z[i]!.pronouns[j]!.contribution, 5);
      });
    });
    expect(Math.abs(z[0]!.score)).toBeGreaterThan(1e-3); // the LM term is not trivially 0
    expect(e[1]!.score).toBe(0);
    expect(signature(ens)).toMatch(/model:ensemble\(glove-bilstm-attention-crc@[0-9a-f]{8}\+[0-9.e-]+\*pronoun-lm-pmi@[0-9a-f]{8}\)\|ctx:crc/);
    for (const s of [ens, ranker, zs]) s.dispose();
  });

  it("eval -c ENSEMBLE end to end equals the accuracy of ranker + a * PMI", async () => {
    const r = await runCli(registerEval, "eval", ["--pairs", pairsFile, "-c", ensDir, "--backend", "cpu", "--threads", "1", "--quiet", "--json", "--aggregate", "sum"]);
    expect(r.code).toBe(0);
    const rep = JSON.parse(r.out);
    expect(rep.signature).toMatch(/model:ensemble/);
    expect(rep.pairs).toBe(5);
    // The same from the two components scored separately.
    const ranker = await loadScorer(rankerDir, { backend: "cpu" });
    const zs = await loadZeroShotScorer(lmDir, { backend: "cpu", aggregate: "pmi" });
    const a = JSON.parse(readFileSync(join(ensDir, "config.json"), "utf8")).weight as number;
    const lines = readFileSync(pairsFile, "utf8").trim().split("\n").map((l) => JSON.parse(l));
    let correct = 0;
    for (const p of lines) {
      const sides = [{ context: p.context, sentence: p.positive }, { context: p.context, sentence: p.negative }];
      const [rs, zz] = [await scoreSidesWith(ranker, sides), await scoreSidesWith(zs, sides)];
      if (rs[0]!.score + a * zz[0]!.score > rs[1]!.score + a * zz[1]!.score) correct++;
    }
    expect(rep.overall.correct).toBe(correct);
    ranker.dispose();
    zs.dispose();
  });

  it("refuses a missing component, naming its path, and a retrained one", async () => {
    const moved = join(root, "moved");
    mkdirSync(moved, { recursive: true });
    cpSync(join(ensDir, "config.json"), join(moved, "config.json"));
    await expect(loadScorer(moved, { backend: "cpu" })).rejects.toThrow(new RegExp(`component 'ranker' not found: ${join(root, "ranker").replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
    const r = await runCli(registerEval, "eval", ["--pairs", pairsFile, "-c", moved, "--backend", "cpu", "--quiet"]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/component 'ranker' not found/);
    // A component whose weights changed since the fit.
    const cfg = JSON.parse(readFileSync(join(ensDir, "config.json"), "utf8"));
    cfg.lm.weightsSha256 = "0".repeat(64);
    const stale = join(root, "ckpt", "stale");
    mkdirSync(stale, { recursive: true });
    writeFileSync(join(stale, "config.json"), JSON.stringify(cfg));
    await expect(loadScorer(stale, { backend: "cpu" })).rejects.toThrow(/not the one this ensemble's weight was fitted for/);
    rmSync(stale, { recursive: true });
  });
});
