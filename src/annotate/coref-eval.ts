/**
 * Scores the English pronoun resolver against gold coreference (scripts/eval-coref.ts,
 * scripts/coref-ablation.ts). A pronoun's link is the noun its chain leads to; it is correct when that
 * noun lies in the head run of an earlier gold mention of the pronoun's entity.
 */
import { ANAPHORS, type ResolveDecision } from "./coref.js";
import { hitsMention, pronounGold, type TaggedGoldDoc } from "./coref-corpora.js";

export interface CorefTally {
  sites: number;
  predicted: number;
  correct: number;
  gold: number;
  pleo: number;
  pleoNull: number;
  errNull: number;
  errWrong: number;
  errSpurious: number;
}

export const zeroTally = (): CorefTally => ({ sites: 0, predicted: 0, correct: 0, gold: 0, pleo: 0, pleoNull: 0, errNull: 0, errWrong: 0, errSpurious: 0 });

export function addTally(into: CorefTally, t: CorefTally): void {
  for (const k of Object.keys(into) as Array<keyof CorefTally>) into[k] += t[k];
}

/** Precision, recall, F1 (0-1) of a tally. */
export function prf(t: CorefTally): { p: number; r: number; f: number } {
  const p = t.predicted ? t.correct / t.predicted : 0;
  const r = t.gold ? t.correct / t.gold : 0;
  return { p, r, f: p + r ? (2 * p * r) / (p + r) : 0 };
}

/**
 * Tallies per pronoun group ("all", "he", "she", "it", "they", "possind"). `exhaustive`: every
 * detected pronoun is judged and "it" outside any gold mention counts as pleonastic (GUM); otherwise
 * only pronouns with a gold markable are judged (LitBank, ParCorFull).
 */
export function evaluateCoref(docs: readonly TaggedGoldDoc[], decide: (d: TaggedGoldDoc) => ResolveDecision[], exhaustive: boolean): Map<string, CorefTally> {
  const by = new Map<string, CorefTally>();
  const get = (k: string) => by.get(k) ?? (by.set(k, zeroTally()), by.get(k)!);
  for (const d of docs) {
    for (const dec of decide(d)) {
      const { sent, tok } = dec.pronoun;
      const w = d.sentences[sent]!.tokens[tok]!.text.toLowerCase();
      const g = pronounGold(d, sent, tok);
      const pleonastic = exhaustive ? !g.mention && w === "it" : g.mention?.entity === -1 && g.mention.etype === "pronoun:pleonastic";
      if (!exhaustive && !g.mention) continue;
      for (const key of ["all", ANAPHORS[w]!.group]) {
        const t = get(key);
        t.sites++;
        if (pleonastic) {
          t.pleo++;
          if (!dec.antecedent) t.pleoNull++;
        }
        const resolvable = g.nominal.length > 0;
        if (resolvable) t.gold++;
        if (dec.nominal) {
          t.predicted++;
          if (resolvable && hitsMention(d, dec.nominal.sent, dec.nominal.head, g.nominal)) t.correct++;
          else if (resolvable) t.errWrong++;
          else t.errSpurious++;
        } else if (resolvable) t.errNull++;
      }
    }
  }
  return by;
}
