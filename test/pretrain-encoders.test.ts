import { describe, it, expect, beforeAll } from "vitest";
import * as tf from "@tensorflow/tfjs";
import { mkdtempSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PronounLm, N_PRONOUNS, type MaskedWindow } from "../src/pretrain/model.js";
import type { LmArch } from "../src/pretrain/arch.js";
import { savePronounLm, loadPronounLm } from "../src/pretrain/checkpoint.js";
import { zeroShotScores } from "../src/pretrain/zeroshot.js";
import { loadZeroShotScorer } from "../src/pretrain/scorer.js";
import { scoreSidesWith } from "../src/core/scorer.js";
import { prepareSide } from "../src/nn/inputs.js";
import { selectBackend } from "../src/nn/backend.js";
import { Rng } from "../src/core/prng.js";
import type { EmbeddingTable } from "../src/nn/glove.js";
import { decodeHalf, encodeHalf } from "../src/nn/fp16.js";

const words = ["i", "he", "it", "she", "they", "her", "him", "them", "we", "you", "the", "house", "saw", "walked", "to", "sister", "."];
const TRANSFORMER: LmArch = { kind: "glove-transformer", layers: 2, width: 8, heads: 2, ffn: 12, positions: "learned", maxPositions: 16 };
const BILSTM2: LmArch = { kind: "glove-bilstm", hidden: 5, layers: 2 };

function table(seed: number): EmbeddingTable {
  const rng = new Rng(seed);
  const dim = 6;
  const v = new Float32Array((words.length + 2) * dim);
  for (let i = dim; i < v.length; i++) v[i] = 2 * (rng.next() - 0.5);
  return { dim, words, vectors: decodeHalf(encodeHalf(v)), source: "test" }; // as a saved table holds them
}

function lmOf(arch: LmArch, seed: number): PronounLm {
  const rng = new Rng(seed);
  const lm = new PronounLm(table(seed), arch.kind === "glove-bilstm" ? arch.hidden : arch.width, 0, rng, "masked", "js", arch);
  // Weights larger than the initialisation, so that every part of the function matters to the loss.
  for (const p of lm.allParams().values()) p.assign(tf.tidy(() => tf.add(tf.mul(p, 2), tf.randomUniform(p.shape, -0.3, 0.3, "float32", seed))));
  return lm;
}

function windows(seed: number, n: number): MaskedWindow[] {
  const rng = new Rng(seed);
  return Array.from({ length: n }, () => {
    const len = 2 + rng.int(8);
    return { rows: Int32Array.from({ length: len }, () => 1 + rng.int(words.length + 1)), mask: rng.int(len), label: rng.int(N_PRONOUNS) };
  }).sort((a, b) => a.rows.length - b.rows.length);
}

/**
 * Directional derivatives of the loss by central differences against the analytic gradient: along a
 * random direction over all parameters at once, and along each parameter's own gradient (where a
 * wrong gradient shows most). Returns the relative errors.
 */
function gradientErrors(lm: PronounLm, ws: MaskedWindow[], scaleOne?: string): { joint: number; perTensor: Map<string, number> } {
  const params = lm.allParams();
  const lossAt = (): number => tf.tidy(() => lm.loss(ws, false).dataSync()[0]!);
  const { value, grads } = tf.variableGrads(() => lm.loss(ws, false), [...params.values()]);
  value.dispose();
  const g = new Map([...params].map(([k, v]) => [k, Float32Array.from(grads[v.name]!.dataSync() as Float32Array)]));
  tf.dispose(Object.values(grads));
  if (scaleOne) g.set(scaleOne, g.get(scaleOne)!.map((x) => x * 1.1)); // a gradient 10% off, to show the check fails it
  const eps = 3e-3;
  const directional = (dirs: Map<string, Float32Array>): number => {
    const base = new Map([...dirs.keys()].map((k) => [k, Float32Array.from(params.get(k)!.dataSync() as Float32Array)]));
    const shift = (s: number): void => {
      for (const [k, d] of dirs) params.get(k)!.assign(tf.tensor(base.get(k)!.map((x, i) => x + s * eps * d[i]!), params.get(k)!.shape));
    };
    shift(1);
    const up = lossAt();
    shift(-1);
    const down = lossAt();
    shift(0);
    return (up - down) / (2 * eps);
  };
  const dot = (dirs: Map<string, Float32Array>): number => [...dirs].reduce((a, [k, d]) => a + d.reduce((s, x, i) => s + x * g.get(k)![i]!, 0), 0);
  const rng = new Rng(99);
  const rand = new Map([...g].map(([k, x]) => [k, x.map(() => 2 * rng.next() - 1)]));
  const norm = Math.sqrt([...rand.values()].reduce((a, d) => a + d.reduce((s, x) => s + x * x, 0), 0));
  for (const d of rand.values()) d.forEach((x, i) => (d[i] = x / norm));
  const an = dot(rand);
  const joint = Math.abs(directional(rand) - an) / Math.max(1e-3, Math.abs(an));
  const perTensor = new Map<string, number>();
  for (const [k, gk] of g) {
    const n = Math.sqrt(gk.reduce((s, x) => s + x * x, 0));
    if (n < 0.05) continue; // too flat to tell anything in float32
    const d = new Map([[k, gk.map((x) => x / n)]]);
    perTensor.set(k, Math.abs(directional(d) - n) / n);
  }
  return { joint, perTensor };
}

describe("larger encoders under the masked-pronoun head", () => {
  beforeAll(async () => {
    await selectBackend("cpu");
  });

  for (const [name, arch] of [
    ["Transformer (pre-LN, multi-head attention with a padding mask, GELU FFN)", TRANSFORMER],
    ["Transformer with sinusoidal positions", { ...TRANSFORMER, positions: "sinusoidal" } as LmArch],
    ["Transformer reading windows longer than its learned positions (later ones share the last)", { ...TRANSFORMER, maxPositions: 4 } as LmArch],
    ["two-layer BiLSTM (gradients pass through the upper layer to the lower one)", BILSTM2],
  ] as Array<[string, LmArch]>) {
    it(`${name}: analytic gradients match finite differences`, () => {
      const lm = lmOf(arch, 5);
      const ws = windows(8, 5);
      const { joint, perTensor } = gradientErrors(lm, ws);
      expect(joint).toBeLessThan(1e-2);
      expect(perTensor.size).toBeGreaterThan(arch.kind === "glove-bilstm" ? 10 : 20);
      for (const [k, e] of perTensor) expect(e, k).toBeLessThan(1e-2);
      // The same check on a gradient 10% off fails: the tolerance can tell a wrong gradient.
      const wrongKey = [...perTensor.keys()].find((k) => k.startsWith(arch.kind === "glove-bilstm" ? "lstm/W" : "tf/1/qkv/W"))!;
      expect(gradientErrors(lm, ws, wrongKey).perTensor.get(wrongKey)!).toBeGreaterThan(5e-2);
      lm.dispose();
    });
  }

  it("a side longer than the Transformer's learned positions is scored (sinusoids extend, learned positions reuse the last)", () => {
    for (const positions of ["learned", "sinusoidal"] as const) {
      const lm = lmOf({ ...TRANSFORMER, positions, maxPositions: 4 }, 3);
      const rows = Int32Array.from({ length: 11 }, (_, i) => 2 + (i % words.length));
      const [lp] = lm.logProbs([{ rows, mask: 9, label: 2 }]);
      expect(Number.isFinite(lp!)).toBe(true);
      lm.dispose();
    }
  });

  it("padding does not change a window's output (the Transformer masks padded keys)", () => {
    const lm = lmOf(TRANSFORMER, 3);
    const ws = windows(4, 6);
    const together = lm.logProbs(ws);
    const alone = ws.map((w) => lm.logProbs([w])[0]!);
    alone.forEach((x, i) => expect(together[i]).toBeCloseTo(x, 5));
    lm.dispose();
  });

  for (const arch of [TRANSFORMER, BILSTM2]) {
    it(`${arch.kind} x${arch.layers}: saved and loaded with its shape; zero-shot scores are the masked log-probabilities`, async () => {
      const dir = join(mkdtempSync(join(tmpdir(), "proneval-enc-")), "m");
      mkdirSync(dir);
      const lm = lmOf(arch, 11);
      lm.logPrior = Float32Array.from({ length: N_PRONOUNS }, (_, i) => -Math.log(N_PRONOUNS) + 0.01 * i);
      const cfg = savePronounLm(dir, lm, { prepare: { contextSentences: 2, maxLen: 16 }, training: {} });
      expect(cfg.encoder.kind).toBe(arch.kind);
      const { lm: back } = loadPronounLm(dir);
      expect(back.arch).toEqual(arch);
      expect(back.singlePass).toBe(false);
      const prep = { contextSentences: 2, maxLen: 16 };
      const sides = [prepareSide({ context: ["the sister saw him ."], sentence: "he saw her ." }, prep), prepareSide({ context: [], sentence: "the house ." }, prep)];
      const z = zeroShotScores(back, sides);
      // One window per pronoun, masked: "he" (position 5 after the 5-token context) and "her" (7).
      const rows = Int32Array.from(sides[0]!.tokens, (t) => back.encoder.vocab.row(t));
      const direct = back.logProbs([
        { rows, mask: 5, label: 1 },
        { rows, mask: 7, label: 18 },
      ]);
      expect(z[0]!.logProbs[0]).toBeCloseTo(direct[0]!, 5);
      expect(z[0]!.logProbs[1]).toBeCloseTo(direct[1]!, 5);
      expect(z[1]!.score).toBe(0);
      expect(z[0]!.altPmi!.length).toBe(2);
      const orig = lm.logProbs([{ rows, mask: 5, label: 1 }]);
      expect(direct[0]).toBeCloseTo(orig[0]!, 6);
      // The Scorer (score --zero-shot, eval, meta-eval) loads it and gives the same values (PMI and margin too).
      for (const aggregate of ["sum", "pmi", "margin"] as const) {
        const scorer = await loadZeroShotScorer(dir, { backend: "cpu", aggregate });
        const [r] = await scoreSidesWith(scorer, [{ context: ["the sister saw him ."], sentence: "he saw her ." }]);
        if (aggregate === "sum") expect(r!.score).toBeCloseTo(z[0]!.score, 5);
        if (aggregate === "pmi") expect(r!.score).toBeCloseTo(z[0]!.pmi, 5);
        expect(Number.isFinite(r!.score)).toBe(true);
        scorer.dispose();
      }
      lm.dispose();
      back.dispose();
    });
  }
});
