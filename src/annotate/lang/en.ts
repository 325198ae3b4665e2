/**
 * English: the case of *you* and *it*, which are Nom or Acc by form. CTXPRO's rules take an English pronoun's
 * case from spaCy, which follows the dependency (the subject Nom, an object or a preposition's complement Acc);
 * our tagger, without a parser, reads it off the word's position.
 */
import type { LanguageRules, TaggerView, Tagged } from "../language-rules.js";
import { nounOnlyForms, verbOnlyForms } from "../reread.js";

/** English verbs whose "you to + verb" complement makes "you" the infinitive's subject (ClearNLP/spaCy). */
const EN_WANT_VERBS: ReadonlySet<string> = new Set(["want", "need", "like", "love", "hate", "prefer", "expect", "wish"]);
/** Words that may stand between "you" and its verb ("you two know", "I want you all to judge"). */
const EN_YOU_QUANT: ReadonlySet<string> = new Set(["all", "both", "two", "three", "four", "guys", "people"]);
/** Whether a verb or auxiliary follows position `j` before the sentence's end mark (. ! ? ...). */
function verbLater(lower: readonly string[], out: readonly Tagged[], j: number): boolean {
  for (let k = j + 1; k < out.length; k++) {
    if (/^[.!?…]+$/.test(lower[k]!)) return false;
    if (out[k]!.upos === "VERB" || out[k]!.upos === "AUX") return true;
  }
  return false;
}
/** English prepositions (the tagger calls some of them SCONJ or ADV before a pronoun: "for you", "about you"). */
const EN_PREPOSITIONS: ReadonlySet<string> = new Set(
  ("about above across after against along among around at before behind below beneath beside besides between beyond by " +
    "despite down during except for from in inside into like near of off on onto out outside over past since through " +
    "throughout till to toward towards under underneath until unto up upon with within without").split(" "),
);

/**
 * English "you" is Nom or Acc by form; CTXPRO's rules (es, fr, it, ru formality) take its case from
 * spaCy, which follows the dependency: the subject is Nom, an object or a preposition's complement Acc.
 * Our tagger, without a parser, says Nom after prepositions and many verbs ("about you", "have I given
 * you"). By position: Nom when a verb follows, after "all", "two", "guys" at most
 * ("I hope you may", "said you were", "you two know")
 * or "to" + verb after a verb of wanting or "for" ("I want you to go", "for you to quit": the subject of the
 * infinitive, as in ClearNLP's dependencies); otherwise Acc right after a preposition or a verb ("about
 * you", "given you", "asked you to come"), or standing alone before punctuation ("You?", "Just you.",
 * "You, sir!"); but clause-initial before a comma with a verb later in the sentence Nom ("You, take him",
 * "And you, by coming here, have crossed").
 */
export function englishYouCase(tg: TaggerView, _words: readonly string[], lower: readonly string[], out: Tagged[]): void {
  for (let i = 0; i < out.length; i++) {
    const t = out[i]!;
    if (lower[i] !== "you" || t.upos !== "PRON") continue;
    const prev = i > 0 ? out[i - 1]! : undefined;
    const pw = i > 0 ? lower[i - 1]! : "";
    // "you all", "you two", "you guys" + verb: the verb after the quantifier decides
    const j = EN_YOU_QUANT.has(lower[i + 1] ?? "") ? i + 2 : i + 1;
    const next = out[j];
    let c: string | undefined;
    if (next && (next.upos === "AUX" || (next.upos === "VERB" && !lower[j]!.endsWith("ing")))) c = "Nom";
    else if (lower[j] === "to" && out[j + 1]?.upos === "VERB" && (pw === "for" || (prev?.upos === "VERB" && EN_WANT_VERBS.has(prev.lemma.toLowerCase())))) c = "Nom";
    else if (prev && (prev.upos === "ADP" || EN_PREPOSITIONS.has(pw) || prev.upos === "VERB")) c = "Acc";
    // clause-initial "you" before a comma with a verb later in the sentence is its subject or a vocative
    // that spaCy parses as one ("You, take him to county", "And you, by coming here, have crossed"); "You, sir!" stays Acc
    else if (lower[j] === "," && (!prev || ["PUNCT", "CCONJ", "INTJ"].includes(prev.upos)) && verbLater(lower, out, j)) c = "Nom";
    else if ((!next || next.upos === "PUNCT") && (!prev || ["PUNCT", "CCONJ", "INTJ", "ADV"].includes(prev.upos))) c = "Acc";
    if (!c || t.feats.Case === c) continue;
    const a = (tg.table.get("you") ?? []).find((x) => x.upos === "PRON" && x.feats.Case === c);
    if (a) out[i] = { upos: a.upos, feats: { ...a.feats }, lemma: t.lemma };
  }
}


/**
 * English *it* (Nom or Acc by form) tagged Nom right after a lexical verb or a preposition and not
 * followed by a verb is the object: Acc ("your brother had/VERB it?", "loves it so", "bite it off",
 * "looked after it but"); before a verb it may be an embedded subject and keeps its tag ("I think it
 * is"); after an auxiliary it is the inverted subject ("Is it?"). The tagger, trained on news, put many
 * such objects in Nom (the CTXPRO Italian and Spanish ACC rules require English Acc).
 */
const EN_AFTER_OBJECT = new Set(["VERB", "ADP", "SCONJ"]);
const EN_VERBAL = new Set(["VERB", "AUX"]);
export function englishItCase(_tg: TaggerView, _words: readonly string[], lower: readonly string[], out: Tagged[]): void {
  for (let i = 1; i < out.length; i++) {
    if (lower[i] !== "it" || out[i]!.upos !== "PRON" || out[i]!.feats.Case !== "Nom") continue;
    if (!EN_AFTER_OBJECT.has(out[i - 1]!.upos)) continue;
    if (i + 1 < out.length && EN_VERBAL.has(out[i + 1]!.upos)) continue;
    out[i] = { ...out[i]!, feats: { ...out[i]!.feats, Case: "Acc" } };
  }
}

export const ENGLISH: LanguageRules = {
  lang: "en",
  labelPasses: [verbOnlyForms, nounOnlyForms],
  wordPasses: [englishYouCase, englishItCase],
};
