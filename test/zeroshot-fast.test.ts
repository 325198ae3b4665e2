import { describe, it, expect, beforeAll } from "vitest";
import * as tf from "@tensorflow/tfjs";
import { PronounLm, N_PRONOUNS } from "../src/pretrain/model.js";
import { singlePassLogDists, singlePassLogProbs } from "../src/pretrain/single-pass.js";
import { pronouns } from "../src/text/pronouns.js";
import { zeroShotScores } from "../src/pretrain/zeroshot.js";
import { prepareSide } from "../src/nn/inputs.js";
import { selectBackend } from "../src/nn/backend.js";
import { Rng } from "../src/core/prng.js";
import { Vocab, type EmbeddingTable } from "../src/nn/glove.js";

const words = ["i", "he", "it", "she", "they", "her", "him", "them", "we", "you", "the", "house", "saw", "walked", "to", "sister", "."];

function randomLm(seed: number, hidden: number): PronounLm {
  const rng = new Rng(seed);
  const dim = 6;
  const v = new Float32Array((words.length + 2) * dim);
  for (let i = dim; i < v.length; i++) v[i] = 2 * (rng.next() - 0.5);
  const table: EmbeddingTable = { dim, words, vectors: v, source: "test" };
  const lm = new PronounLm(table, hidden, 0, rng);
  // Larger weights than the init so that the states, and the masked outputs, differ visibly.
  for (const p of lm.allParams().values()) p.assign(tf.tidy(() => tf.add(tf.mul(p, 3), tf.randomUniform(p.shape, -0.5, 0.5, "float32", seed))));
  return lm;
}

describe("exact single-pass zero-shot scoring", () => {
  beforeAll(async () => {
    await selectBackend("cpu");
  });

  it("equals one masked pass per position, pronouns at the first and last positions included", () => {
    const lm = randomLm(7, 5);
    const rng = new Rng(11);
    const ws = Array.from({ length: 9 }, (_, k) => {
      const n = 1 + rng.int(12);
      const rows = Int32Array.from({ length: n }, () => 1 + rng.int(words.length + 1)); // UNK row 1 included
      const masks = new Set<number>([0, n - 1]);
      for (let j = 0; j < k % 4; j++) masks.add(rng.int(n));
      const m = [...masks];
      return { rows, masks: m, labels: m.map(() => rng.int(N_PRONOUNS)) };
    });
    ws.push({ rows: Int32Array.from([3, 4]), masks: [], labels: [] });
    // Shared prefixes and suffixes (one trie path serves several windows): a window, the same
    // tokens with other masks, a prefix of it, and one differing in a single middle token.
    const base = Int32Array.from([5, 9, 2, 14, 7, 3, 11, 6]);
    const alt = Int32Array.from(base);
    alt[4] = 12;
    ws.push({ rows: base, masks: [3, 7], labels: [1, 2] }, { rows: base, masks: [0, 5], labels: [4, 4] }, { rows: base.slice(0, 5), masks: [4, 2], labels: [3, 0] }, { rows: alt, masks: [4, 6], labels: [5, 1] });
    const fast = singlePassLogProbs(lm, ws);
    let checked = 0;
    ws.forEach((w, i) => {
      expect(fast[i]!.length).toBe(w.masks.length);
      if (w.masks.length === 0) return;
      const slow = lm.logProbs(w.masks.map((mask, k) => ({ rows: w.rows, mask, label: w.labels[k]! })));
      w.masks.forEach((_, k) => {
        expect(Math.abs(fast[i]![k]! - slow[k]!)).toBeLessThan(1e-4);
        checked++;
      });
    });
    expect(checked).toBeGreaterThan(20);
    // Not trivially equal: the values differ between positions of one window.
    expect(new Set(fast[3]!.map((x) => x.toFixed(3))).size).toBeGreaterThan(1);
    lm.dispose();
  });

  it("zeroShotScores: single-pass equals the masked path on windows with context, whatever the batching", () => {
    const lm = randomLm(3, 8);
    lm.logPrior = Float32Array.from({ length: N_PRONOUNS }, (_, k) => -1 - k / 10);
    const prep = { contextSentences: 2, maxLen: 128 };
    const sides = [
      prepareSide({ context: ["the sister saw him .", "she walked to the house ."], sentence: "he saw her ." }, prep),
      prepareSide({ context: [], sentence: "the house ." }, prep),
      // Same context as the first, one pronoun changed (a reference and a system output under CRC).
      prepareSide({ context: ["the sister saw him .", "she walked to the house ."], sentence: "she saw her ." }, prep),
      prepareSide({ context: ["the sister saw him .", "she walked to the house ."], sentence: "he saw her ." }, prep),
      prepareSide({ context: ["she walked to the house ."], sentence: "it walked to them" }, prep),
      prepareSide({ context: ["they saw it ."], sentence: "we" }, prep),
      prepareSide({ context: [], sentence: "you saw the sister , i walked to her house , they saw him ." }, prep),
      // Context cut from the left by maxLen.
      prepareSide({ context: ["the house the house the house the house the house the house ."], sentence: "she saw it ." }, { contextSentences: 2, maxLen: 8 }),
    ];
    const slow = zeroShotScores(lm, sides, 3, undefined, "masked");
    for (const bs of [1, 2, 128]) {
      const fast = zeroShotScores(lm, sides, bs);
      fast.forEach((f, i) => {
        expect(f.labels).toEqual(slow[i]!.labels);
        expect(f.logProbs.length).toBe(slow[i]!.logProbs.length);
        f.logProbs.forEach((x, k) => expect(Math.abs(x - slow[i]!.logProbs[k]!)).toBeLessThan(1e-4));
        expect(Math.abs(f.score - slow[i]!.score)).toBeLessThan(1e-4 * Math.max(1, f.logProbs.length));
        expect(Math.abs(f.pmi - slow[i]!.pmi)).toBeLessThan(1e-4 * Math.max(1, f.logProbs.length));
      });
    }
    expect(slow[1]!.score).toBe(0);
    expect(slow[6]!.logProbs.length).toBe(5);
    lm.dispose();
  });

  it("full distributions: normalised rows holding the labels' log-probabilities; each pronoun's best confusable alternative", () => {
    const lm = randomLm(5, 6);
    lm.logPrior = Float32Array.from({ length: N_PRONOUNS }, (_, k) => -1 - k / 10);
    const side = prepareSide({ context: ["the sister saw him ."], sentence: "she saw her , they walked to it ." }, { contextSentences: 2, maxLen: 128 });
    const [z] = zeroShotScores(lm, [side]);
    const vocab = new Vocab(lm.table.words);
    const rows = Int32Array.from(side.tokens, (t) => vocab.row(t));
    const ws = [{ rows, masks: side.pronounPos, labels: z!.labels }];
    const d = singlePassLogDists(lm, ws)[0]!;
    const lp = singlePassLogProbs(lm, ws)[0]!;
    expect(d.length).toBe(side.pronounPos.length * N_PRONOUNS);
    side.pronounPos.forEach((_, k) => {
      let total = 0;
      for (let q = 0; q < N_PRONOUNS; q++) total += Math.exp(d[k * N_PRONOUNS + q]!);
      expect(Math.abs(total - 1)).toBeLessThan(1e-4);
      expect(d[k * N_PRONOUNS + z!.labels[k]!]).toBeCloseTo(lp[k]!, 5);
    });
    const inv = pronouns();
    expect(inv.confusable(inv.indexOf("his"))).toContain(inv.indexOf("her"));
    expect(inv.confusable(inv.indexOf("his"))).not.toContain(inv.indexOf("he"));
    expect(inv.confusable(inv.indexOf("it"))).not.toContain(inv.indexOf("it"));
    // Against the reference implementation: one masked pass per alternative.
    z!.labels.forEach((l, k) => {
      const alts = inv.confusable(l);
      const slow = lm.logProbs(alts.map((q) => ({ rows, mask: side.pronounPos[k]!, label: q })));
      expect(z!.altPmi![k]).toBeCloseTo(Math.max(...alts.map((q, j) => slow[j]! - lm.logPrior![q]!)), 4);
      expect(z!.altLogProbs![k]).toBeCloseTo(Math.max(...slow), 4);
    });
    lm.dispose();
  });
});
