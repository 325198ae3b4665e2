import { describe, it, expect, beforeAll } from "vitest";
import { mkdtempSync, mkdirSync, readFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as tf from "@tensorflow/tfjs";
import { selectBackend } from "../src/nn/backend.js";
import { Rng } from "../src/core/prng.js";
import type { EmbeddingTable } from "../src/nn/glove.js";
import { PronounLm } from "../src/pretrain/model.js";
import { loadPronounLm, savePronounLm } from "../src/pretrain/checkpoint.js";
import { averagePronounLms, meanOf } from "../src/pretrain/average.js";

const WORDS = ["i", "he", "it", "she", "they", "the", "house", "saw", "."];
const PREP = { contextSentences: 2, maxLen: 128 };
const root = mkdtempSync(join(tmpdir(), "proneval-average-"));

function table(seed: number): EmbeddingTable {
  const rng = new Rng(seed);
  const dim = 4;
  const v = new Float32Array((WORDS.length + 2) * dim);
  for (let i = dim; i < v.length; i++) v[i] = rng.next() - 0.5;
  return { dim, words: WORDS, vectors: v, source: "test" };
}

/** Saves a tiny model whose weights are its initialisation (seed `seed`) on the embeddings of `tableSeed`. */
function saveModel(name: string, seed: number, tableSeed = 1, hidden = 3, priorShift = 0, corpus = "c"): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  const lm = new PronounLm(table(tableSeed), hidden, 0, new Rng(seed));
  lm.logPrior = Float32Array.from({ length: 42 }, (_, k) => -2 - k / 20 - priorShift * (k % 3));
  savePronounLm(dir, lm, { prepare: PREP, training: { step: seed * 100, seed: 1, corpus } });
  lm.dispose();
  return dir;
}

function weightsOf(dir: string): Map<string, Float32Array> {
  const { lm } = loadPronounLm(dir);
  const out = new Map<string, Float32Array>();
  for (const [k, v] of lm.allParams()) out.set(k, Float32Array.from(v.dataSync() as Float32Array));
  lm.dispose();
  return out;
}

beforeAll(async () => {
  await selectBackend("cpu");
});

describe("checkpoint averaging", () => {
  it("meanOf is the element-wise mean", () => {
    expect(Array.from(meanOf([Float32Array.from([1, 2, 3]), Float32Array.from([3, 2, -3])]))).toEqual([2, 2, 0]);
    expect(() => meanOf([Float32Array.from([1]), Float32Array.from([1, 2])])).toThrow(/lengths differ/);
  });

  it("averages every tensor of snapshots of one model and loads as a model", () => {
    const a = saveModel("a", 1);
    const b = saveModel("b", 2);
    const c = saveModel("c", 3);
    const out = join(root, "avg");
    const cfg = averagePronounLms([a, b, c], out);
    expect(cfg.training.averageOf).toHaveLength(3);
    const [wa, wb, wc, wo] = [a, b, c, out].map(weightsOf);
    expect(wo!.size).toBe(wa!.size);
    for (const [name, v] of wo!) {
      const x = wa!.get(name)!, y = wb!.get(name)!, z = wc!.get(name)!;
      for (let i = 0; i < v.length; i++) expect(v[i]).toBeCloseTo((x[i]! + y[i]! + z[i]!) / 3, 6);
    }
    // The prior and the embeddings are the snapshots' own.
    expect(readFileSync(join(out, "embeddings.bin")).equals(readFileSync(join(a, "embeddings.bin")))).toBe(true);
    const { config } = loadPronounLm(out);
    expect(config.pronounLogPrior).toEqual(loadPronounLm(a).config.pronounLogPrior);
    tf.disposeVariables();
  });

  it("refuses models that are not snapshots of one run, and an existing model, writing nothing", () => {
    const a = saveModel("d", 1);
    const otherEmb = saveModel("e", 2, 7);
    const wider = saveModel("f", 2, 1, 4);
    const out = join(root, "bad");
    expect(() => averagePronounLms([a, otherEmb], out)).toThrow(/e\/config.json.*not a snapshot of the same model/);
    expect(() => averagePronounLms([a, wider], out)).toThrow(/not a snapshot of the same model/);
    expect(() => averagePronounLms([a], out)).toThrow(/at least two/);
    expect(existsSync(out)).toBe(false);
    expect(() => averagePronounLms([a, a], join(root, "a"))).toThrow(/already holds a model/);
  });

  it("averages a model with its continuation on another corpus only when told whose prior to keep", () => {
    const base = saveModel("base", 1);
    const cont = saveModel("cont", 2, 1, 3, 0.5, "modern");
    const out = join(root, "lineage");
    expect(() => averagePronounLms([base, cont], out)).toThrow(/cont\/config.json.*pronoun prior differs.*--prior-of/);
    expect(existsSync(out)).toBe(false);
    expect(() => averagePronounLms([base, cont], out, { priorOf: 2 })).toThrow(/one of the 2 averaged/);
    const cfg = averagePronounLms([base, cont], out, { priorOf: 1 });
    const { config } = loadPronounLm(out);
    expect(config.pronounLogPrior).toEqual(loadPronounLm(cont).config.pronounLogPrior);
    expect(config.pronounLogPrior).not.toEqual(loadPronounLm(base).config.pronounLogPrior);
    expect(cfg.training.priorOf).toEqual({ dir: cont, corpus: "modern" });
    expect(cfg.training.corpus).toBe("modern");
    const [wb, wc, wo] = [base, cont, out].map(weightsOf);
    for (const [name, v] of wo!) {
      const x = wb!.get(name)!, y = wc!.get(name)!;
      for (let i = 0; i < v.length; i++) expect(v[i]).toBeCloseTo((x[i]! + y[i]!) / 2, 6);
    }
    // Another shape stays refused, prior named or not.
    const wider = saveModel("wider2", 2, 1, 4, 0.5);
    expect(() => averagePronounLms([base, wider], join(root, "lineage-bad"), { priorOf: 0 })).toThrow(/not a snapshot of the same model/);
    tf.disposeVariables();
  });
});
