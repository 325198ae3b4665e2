import type { PairRecord, ContextMode } from "../core/pair-format.js";
import { pairSides, prepareSide, type PrepareOptions } from "./inputs.js";
import type { PreparedSide } from "../core/scorer.js";

export interface AccuracyCell {
  n: number;
  correct: number;
  accuracy: number;
}

export interface EvalReport {
  pairs: number;
  overall: AccuracyCell;
  byKind: Record<string, AccuracyCell>;
  byLang: Record<string, AccuracyCell>;
  /** Key "ref>sys" pronouns (as in the pair file, lowercased). */
  byPronounPair: Record<string, AccuracyCell>;
  contextMode: ContextMode;
}

export interface PairScores {
  pos: Float32Array;
  neg: Float32Array;
}

export function preparePairs(pairs: PairRecord[], mode: ContextMode, prep: PrepareOptions): { pos: PreparedSide[]; neg: PreparedSide[] } {
  const pos: PreparedSide[] = [];
  const neg: PreparedSide[] = [];
  for (const p of pairs) {
    const s = pairSides(p, mode);
    pos.push(prepareSide(s.pos, prep));
    neg.push(prepareSide(s.neg, prep));
  }
  return { pos, neg };
}

function cell(): AccuracyCell {
  return { n: 0, correct: 0, accuracy: 0 };
}

/** Accuracy = share of pairs whose positive scores strictly above its negative (ties count as errors). */
export function accuracyReport(pairs: PairRecord[], scores: PairScores, mode: ContextMode): EvalReport {
  const overall = cell();
  const byKind: Record<string, AccuracyCell> = {};
  const byLang: Record<string, AccuracyCell> = {};
  const byPair: Record<string, AccuracyCell> = {};
  pairs.forEach((p, i) => {
    const ok = scores.pos[i]! > scores.neg[i]! ? 1 : 0;
    for (const c of [overall, (byKind[p.kind] ??= cell()), (byLang[p.lang] ??= cell()), (byPair[`${p.ref_pronoun}>${p.sys_pronoun}`] ??= cell())]) {
      c.n++;
      c.correct += ok;
    }
  });
  const fin = (r: Record<string, AccuracyCell>): Record<string, AccuracyCell> => {
    const keys = Object.keys(r).sort((a, b) => r[b]!.n - r[a]!.n || (a < b ? -1 : 1));
    const out: Record<string, AccuracyCell> = {};
    for (const k of keys) out[k] = { ...r[k]!, accuracy: r[k]!.correct / r[k]!.n };
    return out;
  };
  return { pairs: pairs.length, overall: { ...overall, accuracy: overall.n ? overall.correct / overall.n : 0 }, byKind: fin(byKind), byLang: fin(byLang), byPronounPair: fin(byPair), contextMode: mode };
}
