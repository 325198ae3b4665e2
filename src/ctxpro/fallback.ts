/**
 * Fallback antecedents of the CTXPRO engine (EngineOptions.fallbackAntecedent): when the resolver gives a
 * pronoun no noun antecedent, or one whose aligned target noun has another gender or number than the target
 * pronoun, an English noun of the pronoun's sentence (before it) or of the sentence before may be taken
 * instead: the nearest one that agrees ("nearest"), or the one noun of that reach that can be the antecedent
 * while every other one clashes ("unique", the default).
 */
import type { AnnToken, Mention } from "../annotate/types.js";
import type { PronounRule } from "./rules.js";
import { numberAgrees } from "./consistency.js";
import { alignedHead, type DocIndex } from "./aligned-doc.js";
import { expletiveIt, personPredicate, refusedObjectPosition, TIME_NOUNS } from "./english-clauses.js";
import { NOUNS, NP_PRE, values } from "./tokens.js";

/** How the fallback antecedent (EngineOptions.fallbackAntecedent) picks its noun. */
export type FallbackMode = "off" | "nearest" | "unique";

export const FALLBACK_MODES: readonly FallbackMode[] = ["off", "nearest", "unique"];

/** Sentences before the pronoun's own that the fallback antecedent may come from. */
const FALLBACK_SENTENCES = 1;

/** Rule labels of object pronouns (accusative, dative). */
export const OBJECT_LABEL = /^(ACC|DAT)\./;

/**
 * Fallback antecedents (EngineOptions.fallbackAntecedent): English nouns heading a noun phrase (the last
 * of a run of nouns), most recent first, in the pronoun's sentence before it and in up to
 * FALLBACK_SENTENCES sentences before, within the window.
 */
export function fallbackMentions(rule: PronounRule, idx: DocIndex, i: number, e: number, lo: number): Mention[] {
  const out: Mention[] = [];
  for (let s = i; s >= Math.max(lo, i - FALLBACK_SENTENCES); s--) {
    const toks = idx.doc.en[s].tokens;
    for (let h = (s === i ? e : toks.length) - 1; h >= 0; h--) {
      if (toks[h].upos !== rule.englishCorefPos) continue;
      if (h + 1 < toks.length && NOUNS.has(toks[h + 1].upos) && !(s === i && h + 1 === e)) continue;
      let start = h;
      while (start > 0 && (NP_PRE.has(toks[start - 1].upos) || (toks[start - 1].upos === "PRON" && toks[start - 1].feats.Poss === "Yes"))) start--;
      out.push({ sent: s, start, end: h + 1, head: h });
    }
  }
  return out;
}

/**
 * The unique fallback antecedent (EngineOptions.fallbackAntecedent "unique"): over the English
 * noun heads of the fallback's reach (the pronoun's sentence before it and the sentence before), those
 * that could be the pronoun's antecedent (agreeing with it in number, no person noun for *it*; for an object
 * pronoun, not in a position of its own sentence that an object pronoun cannot take, `refusedObjectPosition`:
 * its clause's subject or a copula's predicate, the subject of a coordinated verb phrase it stands in, the head
 * of a relative clause it stands in), the one whose aligned target noun has the rule's gender and number,
 * when it is the only one and every other is aligned to a target noun whose gender and number are known
 * and clash with the rule's. A noun unaligned, aligned to a non-noun, or to a noun without gender leaves
 * the choice open, and nothing is returned.
 */
export function uniqueFallback(rule: PronounRule, idx: DocIndex, i: number, e: number, lo: number, personNoun?: (lemma: string) => boolean): { m: Mention; f: { ct: AnnToken; a: number; b: number } } | undefined {
  const en = idx.doc.en[i].tokens;
  const te = en[e];
  // An expletive or identificational *it* names no thing ("It's wonderful for a family to ...", "Who is it?").
  if (expletiveIt(en, e)) return undefined;
  // An earlier object pronoun of the same number in reach that the resolver tied to no noun: the
  // pronoun most likely continues its referent, which the reach does not name ("A dog chased him up it ...
  // chucked it on the roof", "I'll play it for you ... put it on the front").
  if (earlierObjectPronoun(idx, i, e, lo, te)) return undefined;
  // Subject *they* is as often people in general or a group no noun names ("they said", "they thought
  // you were ...") as the plural noun before it ("their ankles ... they end up" = the lions).
  if (te.text.toLowerCase() === "they") return undefined;
  const object = OBJECT_LABEL.test(rule.label) && te.feats.Poss !== "Yes";
  let match: { m: Mention; f: { ct: AnnToken; a: number; b: number } } | undefined;
  for (const m of fallbackMentions(rule, idx, i, e, lo)) {
    const head = idx.doc.en[m.sent].tokens[m.head];
    if (!numberAgrees(te, head)) continue;
    // Nouns of time ("Tuesday night", "the day") are not the thing an *it* of the next clause stands for.
    if (TIME_NOUNS.has((head.lemma || head.text).toLowerCase())) continue;
    if (rule.englishForm.startsWith("it") && personNoun?.(head.lemma || head.text)) continue;
    if (object && m.sent === i && refusedObjectPosition(en, m, e)) continue;
    // The predicate noun of "you're a believer" names a person, which *it* / *them* do not pick up.
    if (personPredicate(idx.doc.en[m.sent].tokens, m, personNoun, rule.englishForm)) continue;
    const clash: { noun: boolean; known?: boolean } = { noun: false };
    const f = alignedHead(rule, idx, m, clash, false);
    if (f) {
      if (match) return undefined;
      match = { m, f };
    } else if (!(clash.noun && clash.known)) return undefined;
  }
  return match;
}

/**
 * Whether the fallback's reach holds, before the pronoun at `e`, an English object pronoun of its number
 * (*it* tagged Acc for a singular pronoun, *them* for a plural one) other than the pronoun itself.
 */
function earlierObjectPronoun(idx: DocIndex, i: number, e: number, lo: number, te: AnnToken): boolean {
  const plural = values(te, "Number").includes("Plur") || /^(they|them|their|theirs)$/i.test(te.text);
  const form = plural ? "them" : "it";
  for (let s = i; s >= Math.max(lo, i - FALLBACK_SENTENCES); s--) {
    const toks = idx.doc.en[s].tokens;
    for (let h = (s === i ? e : toks.length) - 1; h >= 0; h--) {
      if (toks[h].text.toLowerCase() === form && toks[h].upos === "PRON" && values(toks[h], "Case").includes("Acc")) return true;
    }
  }
  return false;
}
