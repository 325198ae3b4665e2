import type { PairRecord, ContextMode } from "../core/pair-format.js";
import type { PreparedSide } from "../core/scorer.js";
import { Vocab } from "../nn/glove.js";
import { preparePairs, accuracyReport, type EvalReport } from "../nn/evaluate.js";
import type { PronounLm } from "./model.js";

/**
 * Zero-shot score of a replaced-pronoun model: the sum over the sentence's pronouns of
 * log P(original | window), i.e. how sure the detector is that no pronoun was swapped. One pass per
 * side reads every pronoun position (nothing is masked). Sides are length-sorted into batches; padding
 * is never read, so a side's score does not depend on its batch.
 */
export function replacedScores(lm: PronounLm, sides: PreparedSide[], batchSize = 128, onBatch?: (done: number, total: number) => void): Array<{ score: number; logProbs: number[] }> {
  const vocab = new Vocab(lm.table.words);
  const out = sides.map((s) => ({ score: 0, logProbs: new Array<number>(s.pronounPos.length).fill(0) }));
  const jobs = sides.map((s, i) => i).filter((i) => sides[i]!.pronounPos.length > 0);
  jobs.sort((a, b) => sides[a]!.tokens.length - sides[b]!.tokens.length);
  for (let b = 0; b < jobs.length; b += batchSize) {
    const part = jobs.slice(b, b + batchSize);
    const lp = lm.originalLogProbs(
      part.map((i) => Int32Array.from(sides[i]!.tokens, (t) => vocab.row(t))),
      part.map((i) => sides[i]!.pronounPos),
    );
    part.forEach((i, q) => {
      out[i]!.logProbs = Array.from(lp[q]!);
      out[i]!.score = out[i]!.logProbs.reduce((x, y) => x + y, 0);
    });
    onBatch?.(Math.min(b + batchSize, jobs.length), jobs.length);
  }
  return out;
}

/** Accuracy of the replaced-pronoun zero-shot score on pairs (positive strictly above negative). */
export function replacedEval(lm: PronounLm, pairs: PairRecord[], mode: ContextMode, prep: { contextSentences: number; maxLen: number }): { sum: EvalReport; pmi?: EvalReport } {
  const { pos, neg } = preparePairs(pairs, mode, prep);
  const s = replacedScores(lm, pos.concat(neg));
  const n = pairs.length;
  return { sum: accuracyReport(pairs, { pos: Float32Array.from(s.slice(0, n), (x) => x.score), neg: Float32Array.from(s.slice(n), (x) => x.score) }, mode) };
}
