import { describe, it, expect, beforeAll } from "vitest";
import * as tf from "@tensorflow/tfjs";
import { selectBackend } from "../src/nn/backend.js";
import { biLstm } from "../src/nn/bilstm.js";
import { GloveBiLstmEncoder } from "../src/nn/encoder.js";
import { RankerModel, marginLoss } from "../src/ranker/model.js";
import { prepareSide } from "../src/nn/inputs.js";
import type { PreparedSide } from "../src/core/scorer.js";
import { scoreSides } from "../src/ranker/run-model.js";
import { Rng } from "../src/core/prng.js";
import { toHalf, fromHalf } from "../src/nn/fp16.js";
import type { EmbeddingTable } from "../src/nn/glove.js";

beforeAll(async () => {
  await selectBackend("cpu");
});

function randn(rng: Rng, n: number, s = 0.5): Float32Array {
  return Float32Array.from({ length: n }, () => rng.normal() * s);
}

/** Reference LSTM from tfjs primitives, one sequence at a time (no padding at all). */
function refLstm(x: tf.Tensor2D, W: tf.Tensor, U: tf.Tensor, b: tf.Tensor, h: number): tf.Tensor2D {
  let hs = tf.zeros([1, h]);
  let cs = tf.zeros([1, h]);
  const outs: tf.Tensor[] = [];
  for (let t = 0; t < x.shape[0]; t++) {
    const g = tf.add(tf.add(tf.matMul(x.slice([t, 0], [1, x.shape[1]]), W as tf.Tensor2D), tf.matMul(hs as tf.Tensor2D, U as tf.Tensor2D)), b);
    const [i, f, o, gg] = tf.split(g, 4, 1);
    cs = tf.add(tf.mul(tf.sigmoid(f!), cs), tf.mul(tf.sigmoid(i!), tf.tanh(gg!)));
    hs = tf.mul(tf.sigmoid(o!), tf.tanh(cs));
    outs.push(hs);
  }
  return tf.concat(outs, 0) as tf.Tensor2D;
}

describe("fused BiLSTM", () => {
  it("matches a primitive-op LSTM in values and gradients, with padding", () => {
    const rng = new Rng(3);
    const d = 5;
    const h = 4;
    const lengths = [6, 3, 1];
    const B = lengths.length;
    const T = 6;
    const seqs = lengths.map((n) => randn(rng, n * d));
    const xf = new Float32Array(T * B * d);
    const xb = new Float32Array(T * B * d);
    seqs.forEach((s, b) => {
      const n = lengths[b]!;
      for (let t = 0; t < n; t++) {
        xf.set(s.subarray(t * d, (t + 1) * d), (t * B + b) * d);
        xb.set(s.subarray(t * d, (t + 1) * d), ((n - 1 - t) * B + b) * d);
      }
    });
    const mk = (shape: number[]) => tf.variable(tf.tensor(randn(rng, shape.reduce((a, c) => a * c, 1)), shape));
    const p = { Wf: mk([d, 4 * h]), Uf: mk([h, 4 * h]), bf: mk([4 * h]), Wb: mk([d, 4 * h]), Ub: mk([h, 4 * h]), bb: mk([4 * h]) };
    const coef = tf.tensor(randn(rng, B * T * 2 * h), [B, T, 2 * h]);
    const vars = Object.values(p);
    const fused = tf.variableGrads(() => tf.sum(tf.mul(biLstm({ B, T, d, lengths: Int32Array.from(lengths), xf, xb }, p, h), coef)) as tf.Scalar, vars);
    const ref = tf.variableGrads(() => {
      let total = tf.scalar(0);
      seqs.forEach((s, b) => {
        const n = lengths[b]!;
        const x = tf.tensor2d(s, [n, d]);
        const fw = refLstm(x, p.Wf, p.Uf, p.bf, h);
        const bw = tf.reverse(refLstm(tf.reverse(x, 0) as tf.Tensor2D, p.Wb, p.Ub, p.bb, h), 0);
        const out = tf.concat([fw, bw], 1);
        total = tf.add(total, tf.sum(tf.mul(out, coef.slice([b, 0, 0], [1, n, 2 * h]).reshape([n, 2 * h]))));
      });
      return total as tf.Scalar;
    }, vars);
    expect(fused.value.dataSync()[0]).toBeCloseTo(ref.value.dataSync()[0]!, 4);
    for (const v of vars) {
      const a = fused.grads[v.name]!.dataSync();
      const r = ref.grads[v.name]!.dataSync();
      expect(a.length).toBe(r.length);
      for (let k = 0; k < a.length; k++) expect(Math.abs(a[k]! - r[k]!)).toBeLessThan(1e-4);
    }
  });
});

function tinyTable(rng: Rng, words: string[], dim = 8): EmbeddingTable {
  return { dim, words, vectors: randn(rng, (words.length + 2) * dim), source: "test" };
}

const WORDS = ["he", "she", "it", "they", "his", "its", "the", "man", "car", "was", "fast", "said", "and", "woman", "her", "him", "them", "."];

function side(tokens: string[], sentStart: number): PreparedSide {
  const pronounPos: number[] = [];
  tokens.forEach((w, i) => {
    if (i >= sentStart && ["he", "she", "it", "they", "his", "its", "her", "him", "them"].includes(w)) pronounPos.push(i);
  });
  return { tokens, sentStart, pronounPos, truncated: 0 };
}

function makeModel(head: "attention" | "baseline", seed = 1, slots = 4): RankerModel {
  const rng = new Rng(seed);
  const enc = new GloveBiLstmEncoder(tinyTable(rng, WORDS), { hidden: 6, dropout: 0 }, rng);
  return new RankerModel(enc, { head, slots }, rng);
}

describe("ranker model", () => {
  it("forward shapes: y [B], u [B,S], attention [B,S,T] rows summing to 1 over real keys only", async () => {
    const m = makeModel("attention");
    const sides = [side("the man said he was fast .".split(" "), 0), side("the car . it was fast and its".split(" "), 3)];
    const b = await m.makeBatch(sides);
    const out = m.forward(b, false);
    expect(out.y.shape).toEqual([2]);
    expect(out.u.shape).toEqual([2, 2]);
    expect(out.attn!.shape).toEqual([2, 2, 8]);
    const a = out.attn!.arraySync() as number[][][];
    // Side 0 has 7 tokens: key 7 is padding and gets exactly zero weight.
    expect(a[0]![0]![7]).toBe(0);
    expect(a[0]![0]!.reduce((x, y) => x + y, 0)).toBeCloseTo(1, 5);
    // Side 0 has one pronoun: its second slot is padding and its u is exactly 0.
    expect((out.u.arraySync() as number[][])[0]![1]).toBe(0);
    m.dispose();
  });

  for (const head of ["attention", "baseline"] as const) {
    it(`${head}: padded tokens and padded slots never change a score`, async () => {
      const m = makeModel(head);
      const a = side("the man said he was fast .".split(" "), 0);
      const long = side("the woman said . she said they and them and his car was fast and it was".split(" "), 4);
      const alone = await scoreSides(m, [a]);
      const together = await scoreSides(m, [a, long], { batchSize: 2 });
      expect(together[0]!.y).toBeCloseTo(alone[0]!.y, 5);
      expect(together[0]!.u).toHaveLength(1);
      expect(together[0]!.u[0]).toBeCloseTo(alone[0]!.u[0]!, 5);
      // A sentence without pronouns has only padding slots: score exactly 0.
      const none = await scoreSides(m, [side("the car was fast .".split(" "), 0), long], { batchSize: 2 });
      expect(none[0]!.y).toBe(0);
      m.dispose();
    });
  }

  it("pronouns beyond the last slot share its weight instead of being dropped", async () => {
    const m = makeModel("attention", 1, 2);
    const three = side("he and she and it".split(" "), 0);
    const two = side("he and she and the".split(" "), 0);
    const [s3, s2] = await scoreSides(m, [three, two]);
    expect(s3!.u).toHaveLength(3);
    expect(s3!.y).not.toBeCloseTo(s2!.y, 6);
    m.dispose();
  });

  it("margin loss is max(0, 0.1 - y_pos + y_neg)", () => {
    const l = marginLoss(tf.tensor1d([1, 0.05, 0]), tf.tensor1d([0, 0, 1]));
    expect(l.dataSync()[0]).toBeCloseTo((0 + 0.05 + 1.1) / 3, 6);
  });

  it("training steps move positive scores above negative ones on a toy set", async () => {
    const m = makeModel("attention", 5);
    // Toy rule: after "man", "he" is right and "it" wrong; after "car", "it" right and "he" wrong.
    const pos = [side("the man . he was fast".split(" "), 3), side("the car . it was fast".split(" "), 3)];
    const neg = [side("the man . it was fast".split(" "), 3), side("the car . he was fast".split(" "), 3)];
    const params = [...m.allParams().values()];
    const opt = tf.train.sgd(0.05);
    const margin = async (): Promise<number> => {
      const s = await scoreSides(m, pos.concat(neg));
      return Math.min(s[0]!.y - s[2]!.y, s[1]!.y - s[3]!.y);
    };
    const gap = async (): Promise<number> => {
      const s = await scoreSides(m, pos.concat(neg));
      return s[0]!.y - s[2]!.y + s[1]!.y - s[3]!.y;
    };
    const batch = await m.makeBatch(pos.concat(neg));
    const lossOf = (): tf.Scalar => {
      const { y } = m.forward(batch, true);
      return marginLoss(y.slice(0, 2), y.slice(2, 2));
    };
    const g0 = await gap();
    const l0 = tf.tidy(() => lossOf().dataSync()[0]!);
    expect(l0).toBeGreaterThan(0);
    opt.minimize(lossOf, false, params);
    // One plain gradient step: the summed positive-minus-negative gap grows and the loss falls.
    expect(await gap()).toBeGreaterThan(g0);
    expect(tf.tidy(() => lossOf().dataSync()[0]!)).toBeLessThan(l0);
    const adam = tf.train.adam(0.02);
    for (let i = 0; i < 60; i++) adam.minimize(lossOf, false, params);
    expect(await margin()).toBeGreaterThan(0);
    m.dispose();
  });
});

describe("inputs", () => {
  it("truncates context from the left, never the sentence, and finds only the sentence's pronouns", () => {
    const s = prepareSide({ context: ["He said it.", "They came and she left."], sentence: "It was his car , not hers ." }, { contextSentences: 2, maxLen: 10 });
    expect(s.tokens.slice(s.sentStart)).toEqual(["It", "was", "his", "car", ",", "not", "hers", "."]);
    expect(s.truncated).toBe(4 + 6 - 2);
    expect(s.pronounPos.map((p) => s.tokens[p])).toEqual(["It", "his", "hers"]);
    const long = prepareSide({ context: ["x y z"], sentence: Array(30).fill("it").join(" ") }, { contextSentences: 2, maxLen: 8 });
    expect(long.tokens).toHaveLength(30);
    expect(long.pronounPos).toHaveLength(30);
  });

  it("fp16 round trip", () => {
    for (const x of [0, 1, -2.5, 0.1234, 65504, 1e-6, -3.14159]) expect(Math.abs(fromHalf(toHalf(x)) - x)).toBeLessThanOrEqual(Math.abs(x) * 1e-3 + 1e-7);
  });
});
