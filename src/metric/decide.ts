// How two scored sides of the same segment are compared (a = reference or system A, b = the other).
//
// "sum" (the paper's y, Eq. 4): sum of the pronouns' contributions; a side with more pronouns gets a
// different score for that reason alone (pronoun-count bias).
// "mean": mean contribution per pronoun; equally good pronouns give the same score at any count.
// "min": the side's worst pronoun (an error is one bad pronoun); not count-free: an appended clause with a
// worse pronoun than any of a side's own makes both sides equal (docs/meta-eval.md).
// "pronoun" (default): per-pronoun decisions. The two sentences are aligned token by token (longest
// common subsequence of lowercased tokens); a pronoun matched to the same pronoun carries no
// information about pronoun choice and is left out; in each stretch between matched tokens the
// pronouns of a and of b are paired in order, and each pair whose words differ is one decision:
// contribution in b minus contribution in a. The segment value is the mean of its decisions; pronouns
// left unpaired (one side has a pronoun the other has not) are not decisions. So neither the number
// of pronouns both sides share nor an extra clause appended to both moves the value.
import type { ScoredSide } from "../core/scorer.js";

export type Aggregate = "pronoun" | "mean" | "sum" | "min";
/**
 * "sentence": the scorer reads the system output; "aligned": reference-aligned with fast_align,
 * "aligned-lcs": reference-aligned with the monolingual LCS; "hybrid": the reference with the system's
 * LCS-paired pronouns substituted, else the system sentence, compared as in sentence mode (src/metric/ref-aligned.ts).
 */
export type CompareMode = "sentence" | "aligned" | "aligned-lcs" | "hybrid";
export const COMPARE_MODES: readonly CompareMode[] = ["sentence", "aligned", "aligned-lcs", "hybrid"];
/**
 * The default mode of score, compare, eval and meta-eval: hybrid agrees with people on real system outputs
 * where sentence mode is near pronoun identity, and equals sentence mode on pairs that differ only in pronouns
 * (docs/results.md, "Which mode").
 */
export const DEFAULT_MODE: CompareMode = "hybrid";
/** The reference aligner of a reference-aligned mode (per-substitution decisions), null for sentence and hybrid mode. */
export function refAlignerOf(mode: CompareMode): "fast_align" | "lcs" | null {
  return mode === "aligned" ? "fast_align" : mode === "aligned-lcs" ? "lcs" : null;
}
export const AGGREGATES: readonly Aggregate[] = ["pronoun", "mean", "sum", "min"];

export interface PronounDecision {
  /** Sentence token index of the pronoun in a and in b. */
  aIndex: number;
  bIndex: number;
  aToken: string;
  bToken: string;
  /** contribution in b - contribution in a (> 0: b's pronoun preferred). */
  diff: number;
}

export interface SideComparison {
  /** b - a under the aggregate; null when there is nothing to compare (no pronoun, or no decision). */
  value: number | null;
  decisions: PronounDecision[];
}

/** Indices of matched token pairs of the longest common subsequence (ties: earliest in a). */
export function lcsPairs(a: readonly string[], b: readonly string[]): Array<[number, number]> {
  const n = a.length;
  const m = b.length;
  const w = m + 1;
  const dp = new Int32Array((n + 1) * w);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      dp[i * w + j] = a[i] === b[j] ? dp[(i + 1) * w + j + 1]! + 1 : Math.max(dp[(i + 1) * w + j]!, dp[i * w + j + 1]!);
    }
  }
  const out: Array<[number, number]> = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      out.push([i, j]);
      i++;
      j++;
    } else if (dp[(i + 1) * w + j]! >= dp[i * w + j + 1]!) i++;
    else j++;
  }
  return out;
}

function sentenceTokens(s: ScoredSide): string[] {
  return s.tokens.slice(s.sentStart).map((t) => t.toLowerCase());
}

/**
 * Token links of two sentences: the LCS anchors, plus, in each stretch between anchors, the pronouns of a
 * paired in order with those of b (`isPronA(i)`, `isPronB(j)` say which tokens are pronouns). Shared by
 * the per-pronoun decisions below and the reference-aligned mode's LCS aligner (ref-aligned.ts).
 */
export function lcsLinks(a: readonly string[], b: readonly string[], isPronA: (i: number) => boolean, isPronB: (j: number) => boolean): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  const gap = (a0: number, a1: number, b0: number, b1: number): void => {
    const xs: number[] = [];
    const ys: number[] = [];
    for (let i = a0; i < a1; i++) if (isPronA(i)) xs.push(i);
    for (let j = b0; j < b1; j++) if (isPronB(j)) ys.push(j);
    for (let k = 0; k < Math.min(xs.length, ys.length); k++) out.push([xs[k]!, ys[k]!]);
  };
  let pi = 0;
  let pj = 0;
  for (const [i, j] of lcsPairs(a, b)) {
    gap(pi, i, pj, j);
    out.push([i, j]);
    pi = i + 1;
    pj = j + 1;
  }
  gap(pi, a.length, pj, b.length);
  return out;
}

/** Per-pronoun decisions between two sides (see the header). */
export function pronounDecisions(a: ScoredSide, b: ScoredSide): PronounDecision[] {
  const pa = new Map(a.pronouns.map((p) => [p.index, p]));
  const pb = new Map(b.pronouns.map((p) => [p.index, p]));
  const out: PronounDecision[] = [];
  // Anchors are identical tokens, so a pronoun anchored to a pronoun is the same word and no decision.
  for (const [i, j] of lcsLinks(sentenceTokens(a), sentenceTokens(b), (i) => pa.has(i), (j) => pb.has(j))) {
    const x = pa.get(i);
    const y = pb.get(j);
    if (!x || !y || x.token.toLowerCase() === y.token.toLowerCase()) continue;
    out.push({ aIndex: x.index, bIndex: y.index, aToken: x.token, bToken: y.token, diff: y.contribution - x.contribution });
  }
  return out;
}

function mean(xs: readonly number[]): number {
  return xs.reduce((s, x) => s + x, 0) / xs.length;
}

/** Compares side b with side a under an aggregate. */
export function compareSides(a: ScoredSide, b: ScoredSide, agg: Aggregate): SideComparison {
  if (agg === "pronoun") {
    const decisions = pronounDecisions(a, b);
    return { value: decisions.length ? mean(decisions.map((d) => d.diff)) : null, decisions };
  }
  if (a.pronouns.length === 0 && b.pronouns.length === 0) return { value: null, decisions: [] };
  if (agg === "sum") return { value: b.score - a.score, decisions: [] };
  const m = (s: ScoredSide): number => (s.pronouns.length ? (agg === "min" ? Math.min(...s.pronouns.map((p) => p.contribution)) : mean(s.pronouns.map((p) => p.contribution))) : 0);
  // A side without pronouns has nothing to get wrong: it compares as 0 (neutral) under the mean.
  return { value: m(b) - m(a), decisions: [] };
}
