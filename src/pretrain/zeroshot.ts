import type { PairRecord, ContextMode } from "../core/pair-format.js";
import { pronouns } from "../text/pronouns.js";
import type { PreparedSide } from "../core/scorer.js";
import { Vocab } from "../nn/glove.js";
import { preparePairs, accuracyReport, type EvalReport } from "../nn/evaluate.js";
import type { MaskedWindow, PronounLm } from "./model.js";
import { singlePassLogDists, type MultiMaskWindow } from "./single-pass.js";
import { N_PRONOUNS } from "./model.js";

export interface ZeroShotSide {
  /** Sum over the sentence's pronouns of log P(pronoun | window with it masked); 0 without pronouns. */
  score: number;
  /** Per pronoun, in sentence order. */
  logProbs: number[];
  /** Sum over the pronouns of log P(p | window) - log P(p) (corpus prior); equals score without a prior. */
  pmi: number;
  /** Pronoun classes (0..41), parallel to logProbs. */
  labels: number[];
  /**
   * Per pronoun, the best log-probability among the pronouns that could stand there instead
   * (PronounInventory.confusable); altPmi the same for log P - log prior.
   */
  altLogProbs?: number[];
  altPmi?: number[];
}

export type ZeroShotMethod = "single-pass" | "masked";

/** Padded tokens of one forward batch of a Transformer on the masked path (its activations must fit wasm's memory). */
const MASKED_BATCH_TOKENS = 8192;

/**
 * Zero-shot score of prepared sides (context + sentence tokens, as the ranker prepares them):
 * each sentence pronoun is masked in turn and the model's log-probability of the pronoun that is
 * really there is summed. `single-pass` (default; single-pass.ts) gets every pronoun of a side from
 * one pass per direction, `masked` runs one full pass per masked pronoun (the reference
 * implementation; same values up to float rounding); a model that single-pass does not fit (a
 * stacked BiLSTM, a Transformer: PronounLm.singlePass) always takes the masked path. `masked` sorts windows by length into
 * batches of `batchSize`; `single-pass` processes chunks of 32 * batchSize sides. A value does not
 * depend on its batch or chunk (padding is never read), so scores are independent of batching.
 */
export function zeroShotScores(
  lm: PronounLm,
  sides: PreparedSide[],
  batchSize = 128,
  onBatch?: (done: number, total: number) => void,
  method: ZeroShotMethod = "single-pass",
): ZeroShotSide[] {
  const inv = pronouns();
  const vocab = new Vocab(lm.table.words);
  const out: ZeroShotSide[] = sides.map((s) => ({ score: 0, pmi: 0, logProbs: new Array<number>(s.pronounPos.length).fill(0), labels: s.pronounPos.map((p) => inv.indexOf(s.tokens[p]!)) }));
  const alts = inv.list.map((_, i) => inv.confusable(i));
  // Single-pass is exact for a one-layer BiLSTM only; other encoders take the masked path.
  if (method === "single-pass" && lm.singlePass) {
    const jobs: Array<{ side: number; w: MultiMaskWindow }> = [];
    sides.forEach((s, i) => {
      if (s.pronounPos.length === 0) return;
      jobs.push({ side: i, w: { rows: Int32Array.from(s.tokens, (t) => vocab.row(t)), masks: s.pronounPos, labels: out[i]!.labels } });
    });
    // Lexicographic order puts windows sharing a prefix (same context) into the same chunk, where
    // single-pass computes the prefix once; chunks of 32 batches bound memory and pace progress.
    jobs.sort((a, b) => compareRows(a.w.rows, b.w.rows));
    const chunk = 32 * batchSize;
    for (let b = 0; b < jobs.length; b += chunk) {
      const part = jobs.slice(b, b + chunk);
      const dist = singlePassLogDists(lm, part.map((j) => j.w));
      part.forEach((j, q) => {
        const d = dist[q]!;
        const o = out[j.side]!;
        o.logProbs = o.labels.map((l, k) => d[k * N_PRONOUNS + l]!);
        o.altLogProbs = o.labels.map((l, k) => bestOf(d, k * N_PRONOUNS, alts[l]!, null));
        o.altPmi = o.labels.map((l, k) => bestOf(d, k * N_PRONOUNS, alts[l]!, lm.logPrior));
      });
      onBatch?.(Math.min(b + chunk, jobs.length), jobs.length);
    }
  } else {
    const jobs: Array<{ side: number; k: number; w: MaskedWindow }> = [];
    sides.forEach((s, i) => {
      if (s.pronounPos.length === 0) return;
      const rows = Int32Array.from(s.tokens, (t) => vocab.row(t));
      s.pronounPos.forEach((p, k) => jobs.push({ side: i, k, w: { rows, mask: p, label: inv.indexOf(s.tokens[p]!) } }));
    });
    jobs.sort((a, b) => a.w.rows.length - b.w.rows.length);
    // A Transformer's activations grow with windows x length: cap a batch's padded tokens too (jobs are length-sorted).
    const tokenCap = lm.arch.kind === "glove-transformer" ? MASKED_BATCH_TOKENS : Infinity;
    for (let b = 0, e = 0; b < jobs.length; b = e) {
      e = b + 1;
      while (e < jobs.length && e - b < batchSize && (e - b + 1) * jobs[e]!.w.rows.length <= tokenCap) e++;
      const part = jobs.slice(b, e);
      const dist = lm.distributions(part.map((j) => j.w));
      part.forEach((j, q) => {
        const o = out[j.side]!;
        const l = o.labels[j.k]!;
        o.logProbs[j.k] = dist[q * N_PRONOUNS + l]!;
        (o.altLogProbs ??= new Array<number>(o.labels.length).fill(0))[j.k] = bestOf(dist, q * N_PRONOUNS, alts[l]!, null);
        (o.altPmi ??= new Array<number>(o.labels.length).fill(0))[j.k] = bestOf(dist, q * N_PRONOUNS, alts[l]!, lm.logPrior);
      });
      onBatch?.(e, jobs.length);
    }
  }
  const prior = lm.logPrior;
  for (const o of out) {
    o.score = o.logProbs.reduce((a, x) => a + x, 0);
    o.pmi = o.logProbs.reduce((a, x, k) => a + x - (prior ? prior[o.labels[k]!]! : 0), 0);
  }
  return out;
}

/** Best log P (minus the prior when given) among the classes `alts` of a distribution row at `at`. */
function bestOf(d: Float32Array, at: number, alts: number[], prior: Float32Array | null): number {
  let best = -Infinity;
  for (const q of alts) {
    const v = d[at + q]! - (prior ? prior[q]! : 0);
    if (v > best) best = v;
  }
  return best;
}

function compareRows(a: Int32Array, b: Int32Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/** Zero-shot accuracy on a pair file's pairs (positive strictly above negative), by kind etc. */
export function zeroShotEval(lm: PronounLm, pairs: PairRecord[], mode: ContextMode, prep: { contextSentences: number; maxLen: number }, onBatch?: (done: number, total: number) => void): Record<"sum" | "pmi", EvalReport> {
  const { pos, neg } = preparePairs(pairs, mode, prep);
  const s = zeroShotScores(lm, pos.concat(neg), 128, onBatch);
  const n = pairs.length;
  const rep = (f: (x: ZeroShotSide) => number): EvalReport => accuracyReport(pairs, { pos: Float32Array.from(s.slice(0, n), f), neg: Float32Array.from(s.slice(n), f) }, mode);
  return { sum: rep((x) => x.score), pmi: rep((x) => x.pmi) };
}

/** Add-one smoothed log relative frequencies of the 42 pronoun classes. */
export function logPriorFromLabels(labels: ArrayLike<number>, classes = 42): Float32Array {
  const c = new Float64Array(classes).fill(1);
  for (let i = 0; i < labels.length; i++) c[labels[i]!]!++;
  const tot = c.reduce((a, x) => a + x, 0);
  return Float32Array.from(c, (x) => Math.log(x / tot));
}
