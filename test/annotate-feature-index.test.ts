import { describe, expect, it } from "vitest";
import { TaggerFeatureIndex } from "../src/annotate/feature-index.js";
import { PerceptronScorer, rng, type PerceptronModel } from "../src/annotate/perceptron.js";
import { join } from "node:path";
import { defaultModelDir, loadMorphModel } from "../src/annotate/morph.js";
import { features, Tagger } from "../src/annotate/tagger.js";
import { TenseTagger } from "../src/annotate/tense.js";

// Labels and words holding "|" and "=" (and the boundary strings), so composite keys split several ways.
const LABELS = ["NOUN", "NOUN|Gender=Fem", "PRON|Case=Nom", "X"];
const SENTS = [
  ["Die", "a|b", "Katze", "<s>", "x|y|z", "sie", "="],
  ["NOUN|Gender", "Fem|a", "ß", "İstanbul", "a"],
  ["Ok"],
];

/** A model with a weight for every feature string the sentences give, under every pair of previous labels. */
function model(suffixLen: number): PerceptronModel {
  const rand = rng(7);
  const weights: Record<string, number[]> = {};
  const prevs = [...LABELS, "<s>"];
  for (const words of SENTS) {
    const lower = words.map((w) => w.toLowerCase());
    for (let i = 0; i < words.length; i++)
      for (const p of prevs)
        for (const p2 of prevs)
          for (const f of features(words, lower, i, p, p2, suffixLen)) {
            if (weights[f] || rand() < 0.1) continue; // a few features absent from the model
            const row: number[] = [];
            LABELS.forEach((_, l) => rand() < 0.6 && row.push(l, Math.round((rand() - 0.5) * 1000) / 100));
            if (row.length) weights[f] = row;
          }
  }
  weights["T=VERB"] = [1, 0.5];
  return { labels: LABELS, weights };
}

describe("TaggerFeatureIndex", () => {
  it("gives bit-identical scores to PerceptronScorer over the feature strings", () => {
    for (const suffixLen of [4, 5]) {
      const m = model(suffixLen);
      const scorer = new PerceptronScorer(m);
      const index = new TaggerFeatureIndex(m, LABELS, suffixLen);
      const a = new Float64Array(LABELS.length);
      const b = new Float64Array(LABELS.length);
      let checked = 0;
      for (const words of SENTS) {
        const lower = words.map((w) => w.toLowerCase());
        const sent = index.sentence(words, lower);
        for (let i = 0; i < words.length; i++)
          for (let p = 0; p <= LABELS.length; p++)
            for (let p2 = 0; p2 <= LABELS.length; p2++) {
              const name = (k: number) => (k === LABELS.length ? "<s>" : LABELS[k]!);
              scorer.score(features(words, lower, i, name(p), name(p2), suffixLen), a);
              index.score(sent, i, p, p2, b);
              expect([...b]).toEqual([...a]);
              checked++;
            }
      }
      expect(checked).toBeGreaterThan(300);
      expect(index.prev("<s>")).toBe(index.bosPrev);
      const extra = new Float64Array(LABELS.length);
      index.addOther(["T=VERB", "T=NONE"], extra);
      expect([...extra]).toEqual([0, 0.5, 0, 0]);
    }
  });
});

describe("TenseTagger with the tagger's labels", () => {
  it("tags as the feature-string path does (shipped German model)", () => {
    const m = loadMorphModel(join(defaultModelDir(), "morph-de.json.gz"));
    const tagger = new Tagger(m.tagger);
    const slow = new TenseTagger(m.tense!);
    const fast = new TenseTagger(m.tense!, m.tagger.perceptron.labels);
    const text = [
      "Ich habe das Buch gelesen , das du mir gegeben hast .",
      "Sie wird morgen kommen und wir werden sehen .",
      "Er sagte , dass sie gestern angekommen seien .",
    ];
    let tensed = 0;
    for (const s of text) {
      const words = s.split(" ");
      const labels = tagger.tag(words);
      const expected = slow.tag(words, labels);
      expect(fast.tag(words, labels)).toEqual(expected);
      tensed += expected.filter(Boolean).length;
      // A label the tagger does not have falls back to the strings.
      const odd = labels.map((l, i) => (i === 0 ? "NOUN|Made=Up" : l));
      expect(fast.tag(words, odd)).toEqual(slow.tag(words, odd));
    }
    expect(tensed).toBeGreaterThan(4);
  });
});
