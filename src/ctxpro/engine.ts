/**
 * The CTXPRO matching engine (Wicks & Post 2023, Sec. 3): for every segment of an annotated parallel
 * document and every rule, find T_s (English token), T_t (aligned target token), C_s (English context
 * token) and C_t (its aligned target token), and check each against the rule:
 *
 *  1. aligned pairs (T_s, T_t) of the segment;  2./3. T_s and T_t meet the rule (form, POS, case);
 *  4. a contextual solver finds C_s;  5. C_s meets the rule;  6. C_t by alignment;  7. C_t meets the rule.
 *
 * Per phenomenon: GENDER uses English coreference (C_s = head of the most recent noun-headed antecedent
 * mention, C_t = its aligned noun, which must carry the rule's gender and number; when the resolver gives
 * no noun, or one whose aligned noun clashes, the one agreeing noun in reach: EngineOptions.fallbackAntecedent); FORMALITY stops after
 * step 3; AUXILIARY finds C_t as the most recent previous occurrence of T_t's lemma and C_s by alignment;
 * INFLECTION takes a verb-less segment and the most recent noun in T_t's case. ANIMACY runs the gender
 * check and reverses the item. The windowing (the segment plus up to window-1 previous sentences) and
 * the details of each check follow rewicks/ctxpro (ctxpro/checkers.py); differences are documented in
 * docs/ctxpro.md.
 */
import { InputError } from "../io/errors.js";
import type { AnnSentence, AnnToken, AnnotatedParallelDoc, Mention, SentenceAlignment } from "../annotate/types.js";
import type { AuxiliaryRule, InflectionRule, PronounRule, RuleSet } from "./rules.js";
import { auxiliaryFormula, freeRelativeArticle, italianSelaIdiom, numberAgrees, propositionalClitic, sameSentence } from "./consistency.js";
import { KEY_ORDER, ordered, reverseGenderItem, type CtxproItem } from "./items.js";

/** How the fallback antecedent (EngineOptions.fallbackAntecedent) picks its noun. */
export type FallbackMode = "off" | "nearest" | "unique";
export const FALLBACK_MODES: readonly FallbackMode[] = ["off", "nearest", "unique"];

export interface EngineOptions {
  /** Sentences visible to a rule: the segment and up to windowSize-1 before it (CTXPRO default 10). */
  windowSize?: number;
  /**
   * INFLECTION matching. "paper" (default): T_t, T_s and C_t are nominal heads, as Sec. 3 describes
   * (nouns; read as the head of a noun phrase: also pronouns and adjectives, determiners or numerals
   * used as nouns, see `nominalHead`).
   * "ctxpro": the released code's behaviour: any case-bearing target token, the segment's case-bearing
   * tokens must all be in the rule's case, C_t the first case-bearing token of the nearest sentence.
   */
  inflection?: "paper" | "ctxpro";
  /**
   * GENDER/ANIMACY when the resolver gives the pronoun no noun antecedent (it abstained, or its chain
   * holds only pronouns), or one whose aligned target noun has another gender or number: the most recent English noun of the pronoun's sentence (before it) or of the
   * sentence before, agreeing with the pronoun in number, whose aligned target noun agrees with the
   * target pronoun (the rule's gender and number).
   * "unique" (the default since lever 21; `ctxpro identify --fallback-antecedent unique`): only where the
   * choice is unambiguous: exactly one English noun of the reach can be the antecedent (agrees with the
   * pronoun in number, is no person for *it*, no noun of time, stands in no position levers 16b/17c/18c
   * refuse) and has an aligned target noun of the rule's gender and number, and every other such noun is
   * aligned to a target noun whose gender and number are known and clash; not for an expletive *it*,
   * subject *they*, or after an earlier object *it* or *them* in reach (`uniqueFallback`).
   * `true` or "nearest" (lever 14b, `--fallback-antecedent` alone): the nearest such noun; more items,
   * right less often than the resolver's (docs/annotate.md, lever 14b and "Probe").
   * `false` or "off": no fallback.
   */
  fallbackAntecedent?: boolean | FallbackMode;
  /** English common-noun lemmas that name a person: never a fallback antecedent of *it* (identify passes the resolver's). */
  personNoun?: (lemma: string) => boolean;
  /**
   * ANIMACY: a target pronoun tagged only in cases its set has no rule for takes the set's one rule for
   * its form (lever 14c). Default off since lever 16a: a wrong case label (pl genitive *jej* given DAT)
   * makes the item questionable.
   */
  uncoveredCase?: boolean;
}

/** Verbs whose object *it* mostly stands for an event or a proposition, not a thing. */
const PROPOSITIONAL_VERBS = new Set(["do", "get", "make", "buy", "mean", "know", "say", "forget", "believe", "think", "mind", "take"]);

/** Whether English token `e` is the object of (or follows "about" after) a verb of PROPOSITIONAL_VERBS. */
function propositionalObject(en: readonly AnnToken[], e: number): boolean {
  for (let k = e - 1; k >= Math.max(0, e - 2); k--) {
    const t = en[k];
    if (t.upos === "VERB" || t.upos === "AUX") return PROPOSITIONAL_VERBS.has(t.lemma.toLowerCase());
    if (t.upos !== "ADP" && t.upos !== "PART") return false;
  }
  return false;
}

/** Tags that may stand between a copula and its predicate noun phrase ("is a very old", "was never my"). */
const PREDICATE_PRE = new Set(["DET", "ADJ", "ADV", "NUM"]);
/** Tags that may stand between a clause's subject and the verb whose object the pronoun is ("has never wanted to sell"). */
const VERB_GROUP = new Set(["VERB", "AUX", "ADV", "PART"]);

/**
 * Whether mention `m`, earlier in the same English sentence as the object pronoun at `e`, cannot be its
 * antecedent (lever 16b): `m` is the predicate noun of *be* and no comma or coordinator stands between
 * it and the pronoun ("It would be a shame if you cooked it", "it's love that makes it precious"), or
 * `m` is the subject of the verb the pronoun follows, with only verbs, adverbs and particles between
 * ("Love makes it precious", "the dog wants to eat it": a non-reflexive object pronoun is not bound by
 * its own clause's subject) and is not itself the object of a verb or adposition.
 */
export function ownClauseAntecedent(en: readonly AnnToken[], m: { start: number; end: number; head: number }, e: number): boolean {
  if (m.end > e || e === 0) return false;
  const between = en.slice(m.end, e);
  let k = m.start - 1;
  while (k >= 0 && (PREDICATE_PRE.has(en[k].upos) || en[k].feats.Poss === "Yes")) k--;
  if (k >= 0 && VERBS.has(en[k].upos) && en[k].lemma.toLowerCase() === "be" && !between.some((t) => t.upos === "PUNCT" || t.upos === "CCONJ")) return true;
  // A subject: not the object of a verb or adposition before it ("taking orders, not giving them", "made the salad, left it").
  const before = m.start > 0 ? en[m.start - 1].upos : "";
  if (VERBS.has(before) || before === "ADP") return false;
  return en[e - 1].upos === "VERB" && between.length > 0 && between.every((t) => VERB_GROUP.has(t.upos));
}

/**
 * Whether mention `m`, earlier in the same English sentence as the object pronoun at `e`, is the
 * subject of a coordinated verb phrase the pronoun is the object of (lever 18c), as in
 * 16b a non-reflexive object pronoun is not bound by its own clause's subject: `m` stands as a subject
 * (not after a verb or adposition) and a verb group follows it; the pronoun's verb group (verbs,
 * auxiliaries, adverbs, particles right before the pronoun, ending with a verb) comes right after a
 * comma or a coordinator, with no subordinator, relative pronoun, other subject pronoun or sentence
 * end between ("This cat drags in a mouse, drops it at his feet", "When a bank buys a bond and takes it");
 * after a subordinator, or before a participle, only a coordinator joins ("seeing that the money is
 * counterfeit, just leaves it", "When the paper comes, throw it away", "received messages, warning them": no).
 */
export function sharedSubject(en: readonly AnnToken[], m: { start: number; end: number }, e: number): boolean {
  if (m.end >= e || e === 0) return false;
  const before = m.start > 0 ? en[m.start - 1].upos : "";
  if (VERBS.has(before) || before === "ADP") return false;
  // A verb group right after the subject.
  let k = m.end;
  while (k < e && VERB_GROUP.has(en[k].upos) && !VERBS.has(en[k].upos)) k++;
  if (k >= e || !VERBS.has(en[k].upos)) return false;
  // The pronoun's own verb group, right after a comma or coordinator.
  if (en[e - 1].upos !== "VERB") return false;
  let j = e - 1;
  while (j > k && VERB_GROUP.has(en[j].upos)) j--;
  if (j <= k) return false;
  const joint = en[j];
  if (!(joint.upos === "CCONJ" || joint.text === ",")) return false;
  if (joint.upos !== "CCONJ") {
    // In a subordinate clause ("When the paper comes, throw it away", "seeing that the money is counterfeit,
    // just leaves it"), a comma may close the clause: only a coordinator joins a verb phrase of the same subject.
    const w = m.start > 0 ? en[m.start - 1] : undefined;
    if (w && (w.upos === "SCONJ" || RELATIVIZERS.has(w.text.toLowerCase()) || SUBORDINATORS.has(w.text.toLowerCase()))) return false;
    // A participle after a comma may belong to the object ("received messages, warning them not to vote").
    const v = en[e - 1];
    if (/ing$|ed$/i.test(v.text) || v.feats.VerbForm === "Ger" || v.feats.VerbForm === "Part") return false;
  }
  for (let t = m.end; t < j; t++) {
    const w = en[t];
    if (w.upos === "SCONJ" || RELATIVIZERS.has(w.text.toLowerCase()) || /^[.!?;:]+$/.test(w.text)) return false;
    if (w.upos === "PRON" && w.feats.Case === "Nom") return false;
  }
  return true;
}

/** Words that open an English adverbial clause, whatever their tag ("When the paper comes, ...", "Once it's in ..."). */
const SUBORDINATORS = new Set(["when", "whenever", "where", "wherever", "while", "whilst", "if", "unless", "once", "as", "because", "since", "before", "after", "until", "till", "though", "although", "whether"]);

/** Words opening an English relative clause after its head noun ("the book that I read", "the man who ..."). */
const RELATIVIZERS = new Set(["that", "which", "who", "whom"]);

/**
 * Whether mention `m`, earlier in the same English sentence as the object pronoun at `e`, is the head
 * noun of a relative clause the pronoun stands in (lever 17c): right after `m` comes a relativizer
 * (*that, which, who, whom*), then only words that are no punctuation or conjunction up to the pronoun,
 * among them a verb ("a place that will nurture it", "the owners who make them mean"): the pronoun is an
 * object inside the clause, and the clause's head is its subject or a gap, not the pronoun. Contact
 * clauses ("the way you're living it") are not taken: a noun followed by a subject pronoun is as often a
 * clause boundary without a comma ("When they get the stuff they'll send it") or a dislocation.
 */
export function relativeClauseHead(en: readonly AnnToken[], m: { end: number }, e: number): boolean {
  if (m.end >= e) return false;
  const first = en[m.end].text.toLowerCase();
  if (!RELATIVIZERS.has(first)) return false;
  const between = en.slice(m.end + 1, e);
  if (between.some((t) => t.upos === "PUNCT" || t.upos === "CCONJ" || t.upos === "SCONJ")) return false;
  return between.some((t) => VERBS.has(t.upos));
}

/** Tags that may stand between a copula and its predicate noun's head, besides determiners, adjectives and numerals ("is not a", "isn't just my"). */
const PREDICATE_SKIP = new Set(["DET", "ADJ", "ADV", "NUM", "PART"]);

/**
 * The English noun phrase a mention starts right after, when that phrase ends with a noun: its start,
 * over determiners, adjectives, numerals, nouns and possessives (as the resolver's candidates), and its
 * head (the last noun); undefined when the token before `end` is no noun.
 */
function nounPhraseEndingAt(en: readonly AnnToken[], end: number): { start: number; head: number } | undefined {
  const head = end - 1;
  if (head < 0 || !NOUNS.has(en[head].upos)) return undefined;
  let start = head;
  while (start > 0 && (NP_PRE.has(en[start - 1].upos) || (en[start - 1].upos === "PRON" && en[start - 1].feats.Poss === "Yes") || en[start - 1].text === "'s" || en[start - 1].text === "’s")) start--;
  return { start, head };
}

/**
 * The subject of the copula whose predicate noun mention `m` is (lever 18a): before `m`, across
 * determiners, adjectives, adverbs, numerals, possessives and *not*, a form of *be*, and right before
 * it a noun phrase headed by a noun that is not the object of a preposition ("The wisp isn't a toy",
 * "Your music is a story", "If this ring is a tracking device", "Water's the earth's blood"). The
 * predicate noun describes what the subject names; the subject is the referent a later pronoun
 * stands for. Undefined when `m` is no such predicate noun ("attack on my father is an attack",
 * "There was a roach", "It is the cause": no noun subject).
 */
export function copulaSubject(en: readonly AnnToken[], m: { start: number }): { start: number; end: number; head: number } | undefined {
  let k = m.start - 1;
  while (k >= 0 && (PREDICATE_SKIP.has(en[k].upos) || en[k].feats.Poss === "Yes")) k--;
  if (k < 1 || !VERBS.has(en[k].upos) || en[k].lemma.toLowerCase() !== "be") return undefined;
  const np = nounPhraseEndingAt(en, k);
  if (!np) return undefined;
  if (np.start > 0 && en[np.start - 1].upos === "ADP") return undefined;
  return { start: np.start, end: np.head + 1, head: np.head };
}

/** Nouns whose *on* complement is their topic ("information on", "a report on", "a recall on"). */
const TOPIC_NOUNS = new Set(["information", "info", "intel", "data", "report", "file", "update", "article", "book", "story", "research", "study", "paper", "notes", "recall", "ruling", "decision", "opinion", "view", "views", "advice", "word", "news", "details", "lead", "dirt", "record", "records", "background", "feedback", "comment", "statement", "documentary", "lecture", "seminar", "essay", "thesis", "expert", "authority"]);

/** Prepositions of a noun's complement or location other than *of* ("the key to her house", "a flask in his pocket", "an antidote for that poison"). */
const HOST_ADPS = new Set(["in", "on", "at", "to", "for", "from", "inside", "into", "onto", "under", "over", "behind", "near", "beside"]);

/**
 * The noun phrase whose prepositional complement mention `m` is (lever 18b): right before `m` a
 * preposition of HOST_ADPS, and right before that a noun phrase ("a flask in his pocket", "that whistle
 * in her apartment", "a key to her house"). Not *of*, whose complement is as often what a pronoun
 * refers to ("memories of this house ... burned it down", "two-thirds of the ocean ... use it").
 */
export function prepositionHost(en: readonly AnnToken[], m: { start: number }): { start: number; end: number; head: number } | undefined {
  const p = m.start - 1;
  if (p < 1 || en[p].upos !== "ADP" || !HOST_ADPS.has(en[p].text.toLowerCase())) return undefined;
  const np = nounPhraseEndingAt(en, p);
  if (!np) return undefined;
  // *on* after a noun of information is "about" ("the information on that property ... financed it"):
  // the complement is the topic, as likely the referent as the host.
  if (en[p].text.toLowerCase() === "on" && TOPIC_NOUNS.has((en[np.head].lemma || en[np.head].text).toLowerCase())) return undefined;
  return { start: np.start, end: np.head + 1, head: np.head };
}

/** English subject pronouns that stand for people (not *it*, and not *they*, which as often names things: "they're nice shoes"). */
const PERSON_SUBJECTS = new Set(["i", "you", "he", "she", "we"]);

/** Forms of *be* that agree with each person subject pronoun ("you is this stuff": *you* is an object there). */
const BE_AGREES: Record<string, readonly string[]> = {
  i: ["am", "'m", "’m", "was"],
  you: ["are", "'re", "’re", "were"],
  we: ["are", "'re", "’re", "were"],
  they: ["are", "'re", "’re", "were"],
  he: ["is", "'s", "’s", "was"],
  she: ["is", "'s", "’s", "was"],
};
/** Words that open a prepositional phrase, whatever their tag ("you're in exactly the place"). */
const PREPOSITION_WORDS = new Set([...HOST_ADPS, "of", "with", "about", "like", "through", "across", "around"]);

/**
 * Whether mention `m` is the predicate noun of a copula whose subject is a personal pronoun for people
 * (lever 23a): right before `m`, across adverbs and *not* (no preposition), a form of *be* that agrees with
 * the pronoun right before it, *I, you, he, she, we* ("I'm glad you're a believer ... unless I see it",
 * "he's a genius"), or, for *it* (`form`), *they* when the predicate noun names a person (`personNoun`);
 * the pronoun not after a verb or preposition ("All I can tell you is this stuff": an object). Not where an
 * adjective of the mention comes before a determiner or possessive ("I'm sure your ship is ready": a
 * predicate adjective, then another phrase). Such a noun denotes the person the pronoun names, which *it*
 * does not pick up, nor *them* (a plural predicate of *you* or *we* is the speaker or addressee; *they*
 * may be the people *them* stands for: "They're businessmen and you insulted them"). The complement of lever
 * 18a, which moves only to a noun-phrase subject: here there is no noun to move to, so the antecedent is
 * refused.
 */
export function personPredicate(en: readonly AnnToken[], m: { start: number; head: number }, personNoun?: (lemma: string) => boolean, form = "it"): boolean {
  if (form !== "it" && form !== "them") return false;
  let adj = false;
  for (let j = m.start; j < m.head; j++) {
    if (en[j].upos === "ADJ") adj = true;
    else if (adj && (en[j].upos === "DET" || en[j].feats.Poss === "Yes")) return false;
  }
  let k = m.start - 1;
  while (k >= 0 && (en[k].upos === "ADV" || en[k].upos === "PART") && !PREPOSITION_WORDS.has(en[k].text.toLowerCase())) k--;
  if (k < 1 || !VERBS.has(en[k].upos) || en[k].lemma.toLowerCase() !== "be") return false;
  const subj = en[k - 1];
  if (subj.upos !== "PRON") return false;
  const w = subj.text.toLowerCase();
  if (!BE_AGREES[w]?.includes(en[k].text.toLowerCase())) return false;
  const before = en[k - 2];
  if (before && (VERBS.has(before.upos) || before.upos === "ADP")) return false;
  if (PERSON_SUBJECTS.has(w)) return true;
  return form === "it" && w === "they" && !!personNoun?.(en[m.head].lemma || en[m.head].text);
}

/**
 * The English token that heads a mention whose stored head is a noun right before a word the tagger called
 * an adjective (lever 23b): "teach rubber ducky to dive" (*ducky* tagged ADJ), where the mention stops at the
 * modifier noun. Taken only when that word ends the phrase (no noun or adjective after it) and is aligned
 * to the target token `k` that the mention's head aligns to (the target noun renders the whole compound),
 * or is aligned to nothing and no verb follows it (*ducky* is unaligned: "kaczuszkę" went to *rubber*). A
 * real predicative or postposed adjective has a target word of its own ("the system more secure" ->
 * *sicuro*) or a verb after it ("violence best serves"). Undefined otherwise.
 */
export function compoundHeadAfter(en: readonly AnnToken[], head: number, alignedOfNext: readonly number[], k: number): number | undefined {
  const next = en[head + 1];
  if (!next || next.upos !== "ADJ" || !NOUNS.has(en[head].upos)) return undefined;
  const after = en[head + 2];
  if (after && (NOUNS.has(after.upos) || after.upos === "ADJ")) return undefined;
  if (alignedOfNext.includes(k)) return head + 1;
  // Unaligned, and no verb after it (a verb would make it an adverb or a predicate: "violence best serves").
  return alignedOfNext.length === 0 && !(after && VERBS.has(after.upos)) ? head + 1 : undefined;
}

/** Sentences before the pronoun's own that the fallback antecedent may come from. */
const FALLBACK_SENTENCES = 1;
/** Tags that may stand inside an English noun phrase before its head. */
const NP_PRE = new Set(["DET", "ADJ", "NUM", "NOUN", "PROPN"]);

const NOUNS = new Set(["NOUN", "PROPN"]);
const VERBS = new Set(["VERB", "AUX"]);
const PRONOUN_POS = new Set(["PRON", "NOUN"]);
/** Words that may head a noun phrase without a noun (substantivised: ru *Больной*, pl *Innymi?*, *Ze mną*). */
const SUBSTANTIVISED = new Set(["ADJ", "DET", "NUM", "PRON"]);
/** English tags a mis-tagged target verb of a verb-less line may be aligned to (inflection, paper mode). */
const NOMINAL_EN = new Set(["NOUN", "PROPN", "ADJ", "NUM", "PRON"]);
/** Tags that end the run of words a modifier can belong to. */
const PHRASE_BREAK = new Set(["PUNCT", "ADP", "CCONJ", "SCONJ", "INTJ", "PART", "ADV", "X", "SYM", "VERB", "AUX"]);

/**
 * Whether token j heads a noun phrase: a noun or proper noun; an adjective, determiner or numeral with
 * no noun or pronoun after it and no noun before it in its run of words between punctuation, adpositions,
 * conjunctions, particles, adverbs and verbs (ru "Со всеми." yes; "Idealną, zdrową nerkę", "все это" no);
 * a pronoun with no noun before it in that run that is not a possessive or determiner of the next word
 * (pl "Ze mną?" yes, "jego kolegi" no).
 */
export function nominalHead(toks: readonly AnnToken[], j: number): boolean {
  const u = toks[j]!.upos;
  if (NOUNS.has(u)) return true;
  if (!SUBSTANTIVISED.has(u)) return false;
  if (u === "PRON") {
    // A pronoun right before a noun, adjective or determiner of its own case, or a genitive one there, is
    // a possessive or determiner ("do jego serca", "z moim dziełem"); "нам кучу денег", "Мне нужен врач" head.
    const next = toks[j + 1];
    if (next && (NOUNS.has(next.upos) || next.upos === "ADJ" || next.upos === "DET")) {
      const own = values(toks[j]!, "Case");
      if (own.includes("Gen") || values(next, "Case").some((c) => own.includes(c))) return false;
    }
  } else {
    for (let k = j + 1; k < toks.length && !PHRASE_BREAK.has(toks[k]!.upos); k++) {
      if (NOUNS.has(toks[k]!.upos) || toks[k]!.upos === "PRON") return false;
    }
  }
  for (let k = j - 1; k >= 0 && !PHRASE_BREAK.has(toks[k]!.upos); k--) {
    if (NOUNS.has(toks[k]!.upos)) return false;
  }
  return true;
}

function values(tok: AnnToken, feat: string): string[] {
  const v = tok.feats[feat];
  return v ? v.split(",") : [];
}

/** FEATS in UD order (sorted by name, case-insensitively), as spaCy prints a token's morphology. */
export function morphoString(tok: AnnToken): string {
  return Object.keys(tok.feats)
    .sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()))
    .map((k) => `${k}=${tok.feats[k]}`)
    .join("|");
}

/** Text of tokens [start, end) of a sentence: from the character offsets when known, else joined by spaces. */
export function spanText(s: AnnSentence, start: number, end: number): string {
  const first = s.tokens[start];
  const last = s.tokens[end - 1];
  if (first?.start !== undefined && last?.end !== undefined && last.end >= first.start) return s.text.slice(first.start, last.end);
  return s.tokens
    .slice(start, end)
    .map((t) => t.text)
    .join(" ");
}

/** "*" any; "X" must have case X; "-X" must not have case X (a token without Case passes "-X"). */
export function matchesCase(tok: AnnToken, constraint: string): boolean {
  if (constraint === "*") return true;
  const cases = values(tok, "Case");
  if (constraint.startsWith("-")) return !cases.includes(constraint.slice(1));
  return cases.includes(constraint);
}

/** Checks that a document's annotations are internally consistent; errors name the document and sentence. */
export function validateDoc(doc: AnnotatedParallelDoc): void {
  const at = (s?: number) => `document '${doc.id}'${s === undefined ? "" : `, sentence ${s + 1}`}`;
  if (doc.en.length !== doc.tgt.length) {
    throw new InputError(`${at()}: ${doc.en.length} English sentences but ${doc.tgt.length} ${doc.lang} sentences`);
  }
  if (doc.alignment.length !== doc.en.length) {
    throw new InputError(`${at()}: ${doc.alignment.length} alignments for ${doc.en.length} sentence pairs`);
  }
  doc.alignment.forEach((links, s) => {
    const ne = doc.en[s].tokens.length;
    const nt = doc.tgt[s].tokens.length;
    for (const [e, t] of links) {
      if (!Number.isInteger(e) || !Number.isInteger(t) || e < 0 || t < 0 || e >= ne || t >= nt) {
        throw new InputError(`${at(s)}: alignment link ${e}-${t} is out of range (${ne} English, ${nt} ${doc.lang} tokens)`);
      }
    }
  });
  doc.coref.forEach((c, ci) => {
    for (const m of c.mentions) {
      const sent = doc.en[m.sent];
      const ok =
        sent !== undefined &&
        Number.isInteger(m.start) && Number.isInteger(m.end) && Number.isInteger(m.head) &&
        m.start >= 0 && m.end > m.start && m.end <= sent.tokens.length && m.head >= m.start && m.head < m.end;
      if (!ok) {
        throw new InputError(`${at()}: coreference cluster ${ci + 1} has an invalid mention {sent: ${m.sent}, start: ${m.start}, end: ${m.end}, head: ${m.head}}`);
      }
    }
  });
}

interface IndexedMention extends Mention {
  cluster: number;
}

/** Document-level lookups shared by all rules. */
class DocIndex {
  /** Alignment links of each sentence, sorted (English index, then target index). */
  readonly links: Array<Array<[number, number]>>;
  /** Mentions of each cluster in document order. */
  readonly clusters: IndexedMention[][];
  /** Mentions by sentence, in cluster order, to find the mention of a pronoun. */
  private readonly bySent: IndexedMention[][];

  constructor(readonly doc: AnnotatedParallelDoc) {
    this.links = doc.alignment.map((l) => [...l].sort((a, b) => a[0] - b[0] || a[1] - b[1]));
    this.clusters = doc.coref.map((c, ci) =>
      c.mentions.map((m) => ({ ...m, cluster: ci })).sort((a, b) => a.sent - b.sent || a.start - b.start || a.end - b.end),
    );
    this.bySent = doc.en.map(() => []);
    for (const c of this.clusters) for (const m of c) this.bySent[m.sent].push(m);
  }

  /** The first (in cluster order) mention containing English token `tok` of sentence `sent`. */
  mentionOf(sent: number, tok: number): IndexedMention | undefined {
    return this.bySent[sent].find((m) => m.start <= tok && tok < m.end);
  }

  /** Target tokens aligned to English token `e` of sentence `s`. */
  alignedTgt(s: number, e: number): number[] {
    return this.links[s].filter((l) => l[0] === e).map((l) => l[1]);
  }
}

/** Longest run of consecutive target indices (ties: the first), as [start, end). */
function longestRun(indices: number[]): [number, number] {
  const sorted = [...new Set(indices)].sort((a, b) => a - b);
  let best: [number, number] = [sorted[0], sorted[0] + 1];
  let start = sorted[0];
  for (let k = 1; k <= sorted.length; k++) {
    if (k < sorted.length && sorted[k] === sorted[k - 1] + 1) continue;
    const run: [number, number] = [start, sorted[k - 1] + 1];
    if (run[1] - run[0] > best[1] - best[0]) best = run;
    if (k < sorted.length) start = sorted[k];
  }
  return best;
}

/**
 * Whether a rule mapping singular English *it* to a plural target pronoun (label number PLUR) has a
 * plural target antecedent C_t; other rules always pass (lever 17a).
 */
export function pluralItAgrees(rule: Pick<PronounRule, "englishForm" | "label">, ct: AnnToken): boolean {
  if (rule.englishForm !== "it" || !/\.PLUR(\.|$)/.test(rule.label)) return true;
  return values(ct, "Number").includes("Plur");
}

/**
 * Whether a Polish rule's aligned pronoun can stand for its antecedent (lever 18f): *je* is the accusative
 * of a neuter singular or a non-virile plural noun, never of a masculine or feminine singular one (that is
 * *go / niego*, *ją / nią*; genitive *jego / go / niego*, *jej / niej*). CTXPRO's pl rules ACC.MASC.SING and
 * GEN.MASC.SING pair *it* with *je* and a masculine singular antecedent; their items have a mis-tagged
 * antecedent or a *je* for another, plural or neuter, referent ("muszą je oddać" = the billions), so no item
 * comes from them (a deliberate difference from the released rules, like 17a). Other rules always pass.
 */
export function polishPronounAgrees(lang: string, rule: Pick<PronounRule, "alignedForm" | "alignedCorefGender" | "alignedCorefNumber">): boolean {
  if (lang !== "pl" || rule.alignedForm !== "je") return true;
  return !(rule.alignedCorefNumber === "Sing" && (rule.alignedCorefGender === "Masc" || rule.alignedCorefGender === "Fem"));
}

/** Romance prepositions (and their contractions with the article) that link a noun to its noun complement. */
const OF_ADPS = new Set(["de", "di", "do", "da", "del", "della", "dello", "dell'", "dei", "degli", "delle", "dos", "das"]);

/**
 * The noun whose *de / di* complement target token k is (lever 17d): before k, across determiners,
 * adjectives and possessives, a preposition of OF_ADPS, and right before it (across adjectives) a noun;
 * undefined otherwise.
 */
export function genitiveHost(ts: readonly AnnToken[], k: number): number | undefined {
  let j = k - 1;
  while (j >= 0 && (ts[j].upos === "DET" || ts[j].upos === "ADJ" || (ts[j].upos === "PRON" && ts[j].feats.Poss === "Yes"))) j--;
  if (j < 0 || ts[j].upos !== "ADP" || !OF_ADPS.has(ts[j].text.toLowerCase())) return undefined;
  j--;
  while (j >= 0 && ts[j].upos === "ADJ") j--;
  return j >= 0 && ts[j].upos === "NOUN" ? j : undefined;
}

/** Possessive adjectives (es/it/pt), adjectives whatever the tagger says ("La herencia es tuya"). */
const POSSESSIVE_ADJ = new Set([
  "mío", "mía", "míos", "mías", "tuyo", "tuya", "tuyos", "tuyas", "suyo", "suya", "suyos", "suyas", "nuestro", "nuestra", "nuestros", "nuestras", "vuestro", "vuestra", "vuestros", "vuestras",
  "mio", "mia", "miei", "mie", "tuo", "tua", "tuoi", "tue", "suo", "sua", "suoi", "sue", "nostro", "nostri", "nostre", "vostro", "vostri", "vostre",
  "meu", "minha", "meus", "minhas", "teu", "teus", "tuas", "seu", "seus", "nosso", "nossa", "nossos", "nossas",
]);
/** Past-participle endings (es/pt -ado/-ido, it -ato/-ito and their inflections): adjectives when they follow a noun. */
const PARTICIPLE = /(?:ad|id|at|it)[oaie]s?$/;

/**
 * Whether target token k, stored as the antecedent's head, is an adjective rather than the noun (lever 23d):
 * a possessive adjective ("La herencia es tuya") or a past-participle form ("la carne contrassegnata",
 * "tecnologia nuclear clasificada") not right after a determiner or pronoun (then it heads its own phrase:
 * "la llamada", "tu vida"). Returns the index of the noun it belongs to, the head to take instead, when
 * that noun carries the token's gender and number: for a possessive, first the noun after it across
 * numerals and adjectives ("le nostre due figlie"); then the first noun before it, up to three words back
 * across adjectives (and adverbs, for a possessive or a participle tagged ADJ; a possessive also across its
 * copula: "La herencia es tuya"); for a participle the tagger called an adjective, also an agreeing word
 * tagged otherwise, with a mis-tagged word between and no determiner before it ("tecnologia/DET
 * nuclear/VERB clasificada/ADJ"). -1 when there is none and the token is a possessive (the antecedent is
 * refused); undefined otherwise. `tagged`: the token's tag before lever 14f/17b read an adjective as a noun.
 */
export function adjectiveHead(lang: string, ts: readonly AnnToken[], k: number, tagged: string): number | undefined {
  const w = ts[k].text.toLowerCase();
  // Lever 35b: a word tagged NOUN with an adjective's ending right after a noun it agrees with in gender and
  // number is that noun's adjective ("dispositivo cortical", "sieć energetyczną"): the noun is the head.
  // The word before must be a noun, not a mis-tagged prenominal word ("esas/NOUN chicas", "le mie/NOUN
  // credenziali", "gran/NOUN final") nor a word with an adjective's ending itself ("el auténtico/NOUN motivo").
  if (tagged === "NOUN" && ADJ_ENDING[lang]?.test(w) && k > 0 && ts[k - 1].upos === "NOUN" && agreesWith(ts[k], ts[k - 1])) {
    const p = ts[k - 1].text.toLowerCase();
    if (!ADJ_ENDING[lang].test(p) && !POSSESSIVE_ADJ.has(p) && !PRENOMINAL.has(p)) return k - 1;
  }
  if (lang !== "es" && lang !== "it" && lang !== "pt") return undefined;
  const possessive = POSSESSIVE_ADJ.has(w);
  if (!possessive && (!PARTICIPLE.test(w) || k === 0 || ts[k - 1].upos === "DET" || ts[k - 1].upos === "PRON")) return undefined;
  const g = values(ts[k], "Gender");
  const n = values(ts[k], "Number");
  const agrees = (t: AnnToken) => values(t, "Gender").some((x) => g.includes(x)) && values(t, "Number").some((x) => n.includes(x));
  // A possessive before its noun ("le nostre due figlie", "ai miei amici"), across numerals and adjectives
  // (the last word of the run may be a noun tagged ADJ).
  if (possessive) {
    for (let j = k + 1; j < Math.min(ts.length, k + 4); j++) {
      const t = ts[j];
      // The last word of the run, tagged ADJ, is the noun ("ai miei amici/ADJ che").
      const last = !ts[j + 1] || !(ts[j + 1].upos === "NOUN" || ts[j + 1].upos === "ADJ" || ts[j + 1].upos === "NUM");
      if ((t.upos === "NOUN" || (t.upos === "ADJ" && last)) && agrees(t)) return j;
      if (t.upos === "NUM" || t.upos === "ADJ") continue;
      break;
    }
  }
  let copula = possessive;
  for (let j = k - 1; j >= Math.max(0, k - 3); j--) {
    const t = ts[j];
    if (t.upos === "NOUN") {
      if (agrees(t)) return j;
      break;
    }
    // Across adjectives, and adverbs before a possessive or an adjective-tagged participle ("muy clasificada"),
    // not before a participle tagged NOUN, mostly a noun itself ("te des cuenta tu/ADV vida").
    if (t.upos === "ADJ" || (t.upos === "ADV" && (possessive || tagged === "ADJ"))) continue;
    if (t.upos === "AUX" && copula) {
      copula = false;
      continue;
    }
    // A mis-tagged noun before a participle the tagger called an adjective, across a mis-tagged word.
    if (!possessive && tagged === "ADJ" && j < k - 1 && agrees(t) && !["PUNCT", "ADP", "CCONJ", "SCONJ", "AUX", "PRON"].includes(t.upos) && (j === 0 || ts[j - 1].upos !== "DET")) return j;
    if (!possessive && tagged === "ADJ" && j === k - 1 && t.upos === "VERB") continue;
    break;
  }
  return possessive ? -1 : undefined;
}

/** Adjective endings (lever 35b): es/pt -al/-ico/-ica/-ivo/-iva, it -ale/-ico/-ica/-ivo/-iva (and plurals), pl -ny/-na/-ną/-ne/-owy/-owa/-ową/-ski/-ska/-ską. */
const ADJ_ENDING: Record<string, RegExp> = {
  es: /(?:al|ales|ico|icos|ica|icas|ivo|ivos|iva|ivas)$/,
  pt: /(?:al|ais|ico|icos|ica|icas|ivo|ivos|iva|ivas)$/,
  it: /(?:ale|ali|ico|ici|ica|iche|ivo|ivi|iva|ive)$/,
  pl: /(?:ny|na|ną|ne|owy|owa|ową|ski|ska|ską)$/,
};
/**
 * Lever 35c: target token k, stored as the antecedent's head, is also aligned to an English adjective before
 * the English head (`adjLinks`: the target tokens each such adjective is aligned to), so it is that adjective's
 * translation ("cortical array" / "dispositivo cortical"). Returns the word right before it when that word is a
 * noun or an adjective-tagged word that agrees with it in gender and number and is no prenominal word, possessive
 * or determiner; undefined otherwise.
 */
export function adjectiveLinkedHead(ts: readonly AnnToken[], k: number, adjLinks: readonly (readonly number[])[]): number | undefined {
  if (k === 0 || !adjLinks.some((l) => l.includes(k))) return undefined;
  const p = ts[k - 1];
  const w = p.text.toLowerCase();
  if (p.upos !== "NOUN" && p.upos !== "ADJ") return undefined;
  if (POSSESSIVE_ADJ.has(w) || PRENOMINAL.has(w) || !agreesWith(ts[k], p)) return undefined;
  return k - 1;
}

/** es/it/pt words that stand before a noun (demonstratives, quantifiers, common prenominal adjectives), which the tagger may call nouns (lever 35b). */
const PRENOMINAL = new Set([
  "este", "esta", "estos", "estas", "ese", "esa", "esos", "esas", "aquel", "aquella", "aquellos", "aquellas", "gran", "grande", "grandes", "buen", "buena", "buenos", "buenas",
  "mal", "mala", "primer", "primera", "último", "última", "nuevo", "nueva", "viejo", "vieja", "mismo", "misma", "otro", "otra", "otros", "otras", "todo", "toda", "todos", "todas", "cada",
  "questo", "questa", "questi", "queste", "quel", "quella", "quei", "quelle", "quegli", "quello", "bel", "bella", "buon", "buono", "nuovo", "nuova", "vecchio", "vecchia", "ultimo",
  "ultima", "primo", "prima", "stesso", "stessa", "altro", "altra", "altri", "altre", "tutto", "tutta", "tutti", "tutte", "ogni",
  "estes", "esse", "essa", "esses", "essas", "aquele", "aquela", "aqueles", "aquelas", "bom", "boa", "novo", "primeiro", "primeira", "mesmo", "mesma", "outro", "outra", "outros", "outras", // pt toda/todo: as es
]);
/** Whether two tokens share a gender and a number value (both must carry them). */
function agreesWith(a: AnnToken, b: AnnToken): boolean {
  const g = values(a, "Gender");
  const n = values(a, "Number");
  return g.length > 0 && n.length > 0 && values(b, "Gender").some((x) => g.includes(x)) && values(b, "Number").some((x) => n.includes(x));
}

/** Tags skipped when looking for the noun or verb an adjective belongs to ("coisa tão importante", "è molto bella"). */
const ADJ_RUN = new Set(["ADJ", "ADV"]);

/**
 * A target token tagged ADJ that carries gender and number and stands as a noun: no noun or proper noun
 * beside it, nor across adjectives and adverbs ("uma coisa tão importante", "pensieri notturni", lever 17b).
 */
export function standsAsNoun(ts: readonly AnnToken[], k: number): boolean {
  if (!ts[k].feats.Gender || !ts[k].feats.Number) return false;
  let j = k - 1;
  while (j >= 0 && ADJ_RUN.has(ts[j].upos)) j--;
  if (j >= 0 && NOUNS.has(ts[j].upos)) return false;
  j = k + 1;
  while (j < ts.length && ADJ_RUN.has(ts[j].upos)) j++;
  return !(j < ts.length && NOUNS.has(ts[j].upos));
}

/**
 * The noun a determiner run announces (lever 38): the English head noun has no link, and the target words the
 * mention's links reach, [a, b), end with a determiner, possibly followed by adjectives ("Esa tabla" for "that
 * piece", "il congegno" for "the device", "un nuovo disegno" for "a new piece", pl "tą kartką" for "the note"):
 * the noun right after them (across unaligned adjectives) that no English word is linked to. Undefined otherwise.
 */
export function determinedNoun(ts: readonly AnnToken[], a: number, b: number, links: SentenceAlignment): number | undefined {
  let d = b - 1;
  while (d >= a && ts[d].upos === "ADJ") d--;
  if (d < a || ts[d].upos !== "DET") return undefined;
  let c = b;
  while (c < ts.length && ts[c].upos === "ADJ" && !links.some((l) => l[1] === c)) c++;
  if (c >= ts.length || !NOUNS.has(ts[c].upos) || links.some((l) => l[1] === c)) return undefined;
  return c;
}

/**
 * C_t of an antecedent mention (steps 6-7), or undefined when its alignment or morphology fails the rule;
 * `clash` is set when it fails because C_t is a noun of another gender or number than the rule's.
 */
function alignedHead(rule: PronounRule, idx: DocIndex, ante: Mention, clash?: { noun: boolean; known?: boolean }, adjAsNoun = true): { ct: AnnToken; a: number; b: number; k: number; tagged: string } | undefined {
  const { doc } = idx;
  // Step 6: C_t is the target token aligned to the antecedent's head; when the head is unaligned,
  // the single noun of the target span aligned to the mention.
  const spanTgt = idx.links[ante.sent].filter((l) => l[0] >= ante.start && l[0] < ante.end).map((l) => l[1]);
  if (spanTgt.length === 0) return undefined;
  const [a, b] = longestRun(spanTgt);
  const ts = doc.tgt[ante.sent].tokens;
  let cands = [...new Set(idx.alignedTgt(ante.sent, ante.head))];
  if (cands.length > 1) cands = cands.filter((c) => ts[c].upos === rule.alignedCorefPos);
  if (cands.length === 0) {
    cands = [];
    for (let c = a; c < b; c++) if (ts[c].upos === rule.alignedCorefPos) cands.push(c);
    if (cands.length === 0) {
      const n = determinedNoun(ts, a, b, idx.links[ante.sent]);
      if (n !== undefined && ts[n].upos === rule.alignedCorefPos) cands.push(n);
    }
  }
  if (cands.length !== 1) return undefined;
  // An English noun compound ("wedding ring", "birth certificate", "model rocket") whose head was aligned
  // to the complement of a *de / di* phrase that renders the modifier ("alianza de boda", "acta de
  // nacimiento", "modellino di razzo"): C_t is the noun the phrase modifies (lever 17d). Not for a
  // single-noun mention, whose translation may add a head of its own ("need love" = "bisogno d'amore").
  const enToks = doc.en[ante.sent].tokens;
  if (ante.head > ante.start && NOUNS.has(enToks[ante.head - 1].upos)) {
    const outer = genitiveHost(ts, cands[0]);
    if (outer !== undefined) cands = [outer];
  }
  let ct = ts[cands[0]];
  // A noun the target tagger called an adjective ("los reporteros/ADJ", "i nervi/ADJ"): the one token
  // aligned to the English noun head, tagged ADJ with gender and number, with no noun beside it, is
  // taken as the noun (lever 14f); its gender is the noun phrase's either way.
  // Not for fallback antecedents, which must be nouns on both sides.
  if (adjAsNoun && ct.upos === "ADJ" && rule.alignedCorefPos === "NOUN" && standsAsNoun(ts, cands[0])) ct = { ...ct, upos: "NOUN" };
  // Step 7: C_t's POS, gender and number.
  if (ct.upos !== rule.alignedCorefPos) return undefined;
  const agrees =
    (rule.alignedCorefGender === "*" || values(ct, "Gender").includes(rule.alignedCorefGender)) &&
    (rule.alignedCorefNumber === "*" || values(ct, "Number").includes(rule.alignedCorefNumber));
  if (!agrees) {
    if (clash) {
      clash.noun = true;
      // The clash is real only where C_t carries the features the rule tests (a noun with no gender is unknown, not other).
      clash.known = (rule.alignedCorefGender === "*" || values(ct, "Gender").length > 0) && (rule.alignedCorefNumber === "*" || values(ct, "Number").length > 0);
    }
    return undefined;
  }
  return { ct, a, b, k: cands[0], tagged: ts[cands[0]].upos };
}

/**
 * Fallback antecedents (EngineOptions.fallbackAntecedent): English nouns heading a noun phrase (the last
 * of a run of nouns), most recent first, in the pronoun's sentence before it and in up to
 * FALLBACK_SENTENCES sentences before, within the window.
 */
function fallbackMentions(rule: PronounRule, idx: DocIndex, i: number, e: number, lo: number): Mention[] {
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
 * Animacy sets keep only some of the gender rules (no GEN, NEUT, DISJ or plural labels), so a syncretic
 * pronoun the tagger puts in a dropped case has no rule left (pl *jej* Gen/Dat, *niego* Acc/Gen: "Potrzebuję
 * jej" came out Gen, the set has only DAT.FEM.SING for *jej*). For a rule whose aligned form no other rule
 * of the set has, the cases the set's rules cover for that form: a target pronoun tagged only in other
 * cases still takes the rule, since the item tests the English form, not the case (lever 14c; only with
 * EngineOptions.uncoveredCase since lever 16a, since most such *jej* are genitives and the DAT label is wrong).
 */
function uncoveredCaseRules(set: RuleSet): Map<PronounRule, Set<string>> {
  const out = new Map<PronounRule, Set<string>>();
  if (!set.reversed) return out;
  const byForm = new Map<string, PronounRule[]>();
  for (const r of set.rules) if (r.type === "pronoun") byForm.set(r.alignedForm, [...(byForm.get(r.alignedForm) ?? []), r]);
  for (const rules of byForm.values()) {
    if (rules.length !== 1 || rules[0].alignedCase === "*" || rules[0].alignedCase.startsWith("-")) continue;
    out.set(rules[0], new Set([rules[0].alignedCase]));
  }
  return out;
}

/** Rule labels of object pronouns (accusative, dative). */
const OBJECT_LABEL = /^(ACC|DAT)\./;

/**
 * Whether noun mention `m`, in the sentence of object pronoun `e`, stands where the pronoun cannot take it
 * as antecedent: its own clause's subject or a copula's predicate noun before it (lever 16b), the subject of a
 * coordinated verb phrase it stands in (18c), the head noun of a relative
 * clause it stands in (17c). For the resolver's antecedent and the unique fallback's candidates alike.
 */
function refusedObjectPosition(en: readonly AnnToken[], m: Mention, e: number): boolean {
  return ownClauseAntecedent(en, m, e) || sharedSubject(en, m, e) || relativeClauseHead(en, m, e);
}

/**
 * The unique fallback antecedent (lever 21, EngineOptions.fallbackAntecedent "unique"): over the English
 * noun heads of the fallback's reach (the pronoun's sentence before it and the sentence before), those
 * that could be the pronoun's antecedent (21a: agreeing with it in number, no person noun for *it*; 21b:
 * for an object pronoun, not in a position of its own sentence that levers 16b, 17c and 18c refuse: its
 * clause's subject or a copula's predicate, the subject of a coordinated verb phrase it stands in, the head
 * of a relative clause it stands in), the one whose aligned target noun has the rule's gender and number,
 * when it is the only one and every other is aligned to a target noun whose gender and number are known
 * and clash with the rule's. A noun unaligned, aligned to a non-noun, or to a noun without gender leaves
 * the choice open, and nothing is returned.
 */
function uniqueFallback(rule: PronounRule, idx: DocIndex, i: number, e: number, lo: number, personNoun?: (lemma: string) => boolean): { m: Mention; f: { ct: AnnToken; a: number; b: number } } | undefined {
  const en = idx.doc.en[i].tokens;
  const te = en[e];
  // 21c: an expletive or identificational *it* names no thing ("It's wonderful for a family to ...", "Who is it?").
  if (expletiveIt(en, e)) return undefined;
  // 21c: an earlier object pronoun of the same number in reach that the resolver tied to no noun: the
  // pronoun most likely continues its referent, which the reach does not name ("A dog chased him up it ...
  // chucked it on the roof", "I'll play it for you ... put it on the front").
  if (earlierObjectPronoun(idx, i, e, lo, te)) return undefined;
  // 21c: subject *they* is as often people in general or a group no noun names ("they said", "they thought
  // you were ...") as the plural noun before it ("their ankles ... they end up" = the lions).
  if (te.text.toLowerCase() === "they") return undefined;
  const object = OBJECT_LABEL.test(rule.label) && te.feats.Poss !== "Yes";
  let match: { m: Mention; f: { ct: AnnToken; a: number; b: number } } | undefined;
  for (const m of fallbackMentions(rule, idx, i, e, lo)) {
    const head = idx.doc.en[m.sent].tokens[m.head];
    if (!numberAgrees(te, head)) continue;
    // 21c: nouns of time ("Tuesday night", "the day") are not the thing an *it* of the next clause stands for.
    if (TIME_NOUNS.has((head.lemma || head.text).toLowerCase())) continue;
    if (rule.englishForm.startsWith("it") && personNoun?.(head.lemma || head.text)) continue;
    if (object && m.sent === i && refusedObjectPosition(en, m, e)) continue;
    // 23a: the predicate noun of "you're a believer" names a person, which *it* / *them* do not pick up.
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

/** English nouns of time: points and stretches of time, days of the week, months, seasons. */
const TIME_NOUNS = new Set([
  "time", "day", "night", "morning", "evening", "afternoon", "noon", "midnight", "week", "weekend", "month", "year", "hour", "minute",
  "second", "moment", "today", "tonight", "tomorrow", "yesterday", "decade", "century", "monday", "tuesday", "wednesday", "thursday",
  "friday", "saturday", "sunday", "january", "february", "march", "april", "june", "july", "august", "september", "october",
  "november", "december", "spring", "summer", "autumn", "winter",
]);

/**
 * Whether mention m's head is a noun of time after *at, in, on, during*, across determiners, adjectives,
 * numerals and possessives ("at night", "in the morning", "on that Tuesday"; lever 35a): an adverbial time phrase. A time noun elsewhere may be a real antecedent ("I'll never forget that night. It was ...").
 */
export function adverbialTime(en: readonly AnnToken[], m: { head: number }): boolean {
  const h = en[m.head];
  if (!TIME_NOUNS.has((h.lemma || h.text).toLowerCase())) return false;
  let j = m.head - 1;
  while (j >= 0 && (en[j].upos === "DET" || en[j].upos === "ADJ" || en[j].upos === "NUM" || (en[j].upos === "PRON" && en[j].feats.Poss === "Yes"))) j--;
  if (j >= 0 && en[j].upos === "ADP" && TIME_ADPS.has(en[j].text.toLowerCase())) return true;
  // 35d: *last, next, every* + a noun of time, with no determiner or possessive before ("every time I look at
  // it", "last night"; not "our last hour ... spend it"). A bare *today* may be a subject ("today started as a
  // nice outing ... ruin it") and is not refused.
  const before = m.head > 1 ? en[m.head - 2] : undefined;
  const determined = !!before && (before.upos === "DET" || (before.upos === "PRON" && before.feats.Poss === "Yes"));
  if (m.head > 0 && TIME_DETERMINERS.has(en[m.head - 1].text.toLowerCase()) && !determined) return true;
  // 35e: fixed adverbial time phrases with no preposition: "the other day", "all day", "some night",
  // "tomorrow morning", and "this time" opening its sentence ("This time you're going to tell me where it is").
  const p1 = m.head > 0 ? en[m.head - 1].text.toLowerCase() : "";
  const p2 = m.head > 1 ? en[m.head - 2].text.toLowerCase() : "";
  if ((p1 === "other" && p2 === "the") || p1 === "all" || (p1 === "some" && h.feats.Number !== "Plur")) return true;
  if (["tomorrow", "yesterday", "tonight", "today"].includes(p1)) return true;
  return (p1 === "this" || p1 === "that") && m.head === 1;
}
const TIME_DETERMINERS = new Set(["last", "next", "every"]);
/** Prepositions that make a time adverbial of a noun of time; not *for, about, of* ("asked me for one night
 * and I gave it to you", "waited for this moment, and now it has arrived": arguments, real antecedents). */
const TIME_ADPS = new Set(["at", "in", "on", "during"]);

/**
 * Whether English *it* at `e` is expletive or identificational (lever 21c): *who* or *what* + a form of
 * *be* right before it ("Who is it?", "What's it?"), or a form of *be* after it (across *not* and
 * adverbs), then an adjective or a participle and, within a few words, *to, that, for, if, whether, how*
 * (extraposition: "It's wonderful for a whole family to love each other", "it is clear that").
 */
export function expletiveIt(en: readonly AnnToken[], e: number): boolean {
  if (en[e].text.toLowerCase() !== "it") return false;
  const isBe = (t: AnnToken | undefined) => !!t && VERBS.has(t.upos) && t.lemma.toLowerCase() === "be";
  if (e >= 2 && isBe(en[e - 1]) && /^(who|what)$/i.test(en[e - 2].text)) return true;
  let k = e + 1;
  if (!isBe(en[k])) return false;
  k++;
  while (k < en.length && (en[k].upos === "ADV" || en[k].upos === "PART")) k++;
  if (k >= en.length || !(en[k].upos === "ADJ" || en[k].upos === "VERB")) return false;
  for (let j = k + 1; j < Math.min(en.length, k + 5); j++) {
    const w = en[j].text.toLowerCase();
    if (w === "to" || w === "that" || w === "for" || w === "if" || w === "whether" || w === "how") return true;
    if (en[j].upos === "PUNCT") return false;
  }
  return false;
}

/**
 * Whether the fallback's reach holds, before the pronoun at `e`, an English object pronoun of its number
 * (*it* tagged Acc for a singular pronoun, *them* for a plural one) other than the pronoun itself (lever 21c).
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

function pronounItem(rule: PronounRule, idx: DocIndex, i: number, lo: number, fallback: FallbackMode, covered?: Set<string>, personNoun?: (lemma: string) => boolean): CtxproItem | undefined {
  const { doc } = idx;
  const en = doc.en[i].tokens;
  const tgt = doc.tgt[i].tokens;
  const objectRule = OBJECT_LABEL.test(rule.label);
  // Steps 1-3: aligned pronoun pairs with the rule's forms, POS and case.
  for (const [e, t] of idx.links[i]) {
    const te = en[e];
    const tt = tgt[t];
    if (te.text.toLowerCase() !== rule.englishForm || tt.text.toLowerCase() !== rule.alignedForm) continue;
    if (!PRONOUN_POS.has(te.upos) || !PRONOUN_POS.has(tt.upos)) continue;
    if (!matchesCase(te, rule.englishCase)) continue;
    if (!matchesCase(tt, rule.alignedCase)) {
      const cases = values(tt, "Case");
      if (!covered || cases.length === 0 || cases.some((c) => covered.has(c))) continue;
    }
    if (!rule.requiresCoref) {
      return {
        "src pronoun": rule.englishForm,
        expected: rule.expected,
        "ref segment": doc.tgt[i].text,
        "src segment": doc.en[i].text,
      };
    }
    // A Polish *je* cannot stand for a masculine or feminine singular antecedent (lever 18f).
    if (!polishPronounAgrees(doc.lang, rule)) return undefined;
    // Consistency checks beyond the released rules (./consistency.ts): the pronoun link stays within
    // one sentence of the line.
    if (!sameSentence(en, tgt, idx.links[i], e, t)) continue;
    // ... and an object clitic is not the propositional object of *do* ("se não o fizermos", "ce la faccio"),
    // nor the article of a free relative ("lo que queda", "o que o torna"; lever 18d), nor the *la* of an
    // Italian -sela idiom ("se la vedranno loro", "se la cava": it stands for nothing; lever 25).
    if (objectRule && (propositionalClitic(doc.lang, tgt, t, en, e) || freeRelativeArticle(doc.lang, tgt, t) || italianSelaIdiom(doc.lang, tgt, t))) continue;
    // Step 4: the antecedent is the most recent earlier mention of the pronoun's cluster, within the
    // window, whose head is a noun (step 5); an antecedent that is itself a pronoun does not count.
    const own = idx.mentionOf(i, e);
    let ante: Mention | undefined;
    if (own) {
      const cluster = idx.clusters[own.cluster];
      const pos = cluster.indexOf(own);
      for (let k = pos - 1; k >= 0; k--) {
        const m = cluster[k];
        if (m.sent < lo) break;
        if (doc.en[m.sent].tokens[m.head].upos === rule.englishCorefPos) {
          ante = m;
          break;
        }
      }
    }
    // ... nor, for an object pronoun, a noun of its own sentence in a position it cannot take (16b, 18c, 17c).
    if (ante && ante.sent === i && objectRule && te.feats.Poss !== "Yes" && refusedObjectPosition(en, ante, e)) continue;
    // ... nor, for *it* / *them*, the predicate noun of a copula with a person pronoun subject (lever 23a):
    // the pronoun then has no resolver antecedent (the fallback, where on, may find one).
    if (ante && personPredicate(doc.en[ante.sent].tokens, ante, personNoun, rule.englishForm)) ante = undefined;
    // ... nor the noun of an adverbial time phrase, a preposition + a noun of time ("at night", "in the
    // morning", "on Tuesday"; lever 35a, as 21c for the fallback): it sets the time, it is not the thing.
    if (ante && adverbialTime(doc.en[ante.sent].tokens, ante)) ante = undefined;
    // The resolver's antecedent is a copula's predicate noun or a prepositional complement of another
    // noun: the subject (lever 18a) or the host noun (18b) is taken instead when its aligned target
    // noun agrees with the target pronoun and it agrees with the English pronoun in number. Only for an
    // antecedent that gives an item itself (its aligned noun agrees): where it does not, the moved one would
    // add items, right less often (74 % of 34 read) than the pool.
    if (ante && alignedHead(rule, idx, ante)) {
      const aen = doc.en[ante.sent].tokens;
      for (const alt of [copulaSubject(aen, ante), prepositionHost(aen, ante)]) {
        if (!alt || aen[alt.head].upos !== rule.englishCorefPos || !numberAgrees(te, aen[alt.head])) continue;
        if (ante.sent === i && alt.end > e) continue;
        if (rule.englishForm.startsWith("it") && personNoun?.(aen[alt.head].lemma || aen[alt.head].text)) continue;
        const m = { sent: ante.sent, ...alt };
        if (alignedHead(rule, idx, m)) {
          ante = m;
          break;
        }
      }
    }
    const clash = { noun: false };
    // k, tagged: the target head's index and its tag before 14f/17b (lever 23; a fallback antecedent has none).
    let found: { ct: AnnToken; a: number; b: number; k?: number; tagged?: string } | undefined = ante && alignedHead(rule, idx, ante, clash);
    let csNoun = false;
    if (ante) {
      const aen = doc.en[ante.sent].tokens;
      const ts = doc.tgt[ante.sent].tokens;
      // The English head is the modifier noun of a compound whose head the tagger called an adjective (lever 23b).
      const h = found?.k !== undefined ? compoundHeadAfter(aen, ante.head, idx.alignedTgt(ante.sent, ante.head + 1), found.k) : undefined;
      if (found && h !== undefined) {
        ante = { ...ante, end: h + 1, head: h };
        csNoun = true;
      }
      // The target head is an adjective: the noun it agrees with, or no antecedent (lever 23d).
      const j = found?.k !== undefined ? adjectiveHead(doc.lang, ts, found.k, found.tagged ?? "") : undefined;
      if (found && j !== undefined) {
        found = j < 0 ? undefined : { ct: { ...ts[j], upos: "NOUN" }, a: Math.min(found.a, j), b: Math.max(found.b, j + 1), k: j, tagged: ts[j].upos };
      }
      // The target head is also aligned to an English adjective of the mention (lever 35c): the agreeing
      // word before it is the noun ("her cortical array" / "seu dispositivo/ADJ cortical/NOUN").
      const k = found && j === undefined ? found.k : undefined;
      if (found && k !== undefined) {
        const adjLinks: number[][] = [];
        for (let x = ante.start; x < ante.head; x++) if (aen[x].upos === "ADJ") adjLinks.push(idx.alignedTgt(ante.sent, x));
        const n = adjectiveLinkedHead(ts, k, adjLinks);
        if (n !== undefined) found = { ct: { ...ts[n], upos: "NOUN" }, a: Math.min(found.a, n), b: Math.max(found.b, n + 1), k: n, tagged: ts[n].upos };
      }
    }
    // No noun antecedent from the resolver, or one whose aligned noun has another gender or number
    // than the target pronoun (the resolver's choice is then contradicted by the translation): the one
    // candidate noun of the reach ("unique", lever 21) or the nearest agreeing noun ("nearest", lever 14b;
    // EngineOptions.fallbackAntecedent). An antecedent that merely failed to
    // align to a noun is not replaced (the resolver may be right and the alignment wrong).
    if ((!ante || clash.noun) && fallback !== "off") {
      ante = undefined;
      found = undefined;
      // Not for the object of a verb that mostly takes an event or a proposition ("did it", "get it",
      // "bought it" = believed), nor a person noun for *it* (lever 14i).
      if (fallback === "unique") {
        const u = propositionalObject(en, e) ? undefined : uniqueFallback(rule, idx, i, e, lo, personNoun);
        if (u) {
          ante = u.m;
          found = u.f;
        }
      } else if (!propositionalObject(en, e)) {
        const ok: Array<{ m: Mention; f: { ct: AnnToken; a: number; b: number } }> = [];
        for (const m of fallbackMentions(rule, idx, i, e, lo)) {
          const head = doc.en[m.sent].tokens[m.head];
          if (!numberAgrees(te, head)) continue;
          if (rule.englishForm.startsWith("it") && personNoun?.(head.lemma || head.text)) continue;
          const f = alignedHead(rule, idx, m, undefined, false);
          if (f) ok.push({ m, f });
        }
        if (ok.length) {
          ante = ok[0].m;
          found = ok[0].f;
        }
      }
    }
    if (!ante || !found) continue;
    const { ct, a, b } = found;
    // A plural target pronoun for singular English *it* needs a plural antecedent (lever 17a): CTXPRO's es
    // rules ACC.MASC.PLUR / ACC.FEM.PLUR (*it* -> *los* / *las*, singular antecedent) are not applied as
    // released, since *las* for "the letter" (*la carta*) disagrees with the antecedent it names.
    if (!pluralItAgrees(rule, ct)) continue;
    let cs = doc.en[ante.sent].tokens[ante.head];
    if (csNoun) cs = { ...cs, upos: "NOUN" };
    // The English pronoun and the English head agree in number (plural *they* ≠ "my brother" of "my brother and sister").
    if (!numberAgrees(te, cs)) continue;
    return {
      "src pronoun": rule.englishForm,
      expected: rule.expected,
      "ante distance": i - ante.sent,
      intrasegmental: ante.sent === i,
      "ref ante head": ct.text,
      "ref ante head gender": rule.alignedCorefGender,
      "ref ante head lemma": ct.lemma,
      "ref ante head morpho": morphoString(ct),
      "ref ante head pos": rule.alignedCorefPos,
      "ref ante head number": rule.alignedCorefNumber,
      "ref ante phrase": spanText(doc.tgt[ante.sent], a, b),
      "ref segment": doc.tgt[i].text,
      "ref ante segment": doc.tgt[ante.sent].text,
      "src ante head": cs.text,
      "src ante head gender": values(cs, "Gender").join(","),
      "src ante head lemma": cs.lemma,
      "src ante head morpho": morphoString(cs),
      "src ante head pos": cs.upos,
      "src ante head number": values(cs, "Number").join(","),
      "src ante phrase": spanText(doc.en[ante.sent], ante.start, ante.end),
      "src segment": doc.en[i].text,
      "src ante segment": doc.en[ante.sent].text,
    };
  }
  return undefined;
}

function auxiliaryItem(rule: AuxiliaryRule, idx: DocIndex, i: number, lo: number): CtxproItem | undefined {
  const { doc } = idx;
  const en = doc.en[i].tokens;
  const lemma = (t: AnnToken) => t.lemma.toLowerCase();
  // Step 2: the auxiliary is the segment's only verb.
  const e = en.findIndex((t) => lemma(t) === rule.englishLemma);
  if (e < 0) return undefined;
  // Not a set phrase whose *do* is the main verb ("How do you do?"; ./consistency.ts).
  if (auxiliaryFormula(doc.en[i].text)) return undefined;
  if (en.some((t) => lemma(t) !== rule.englishLemma && VERBS.has(t.upos))) return undefined;
  // Steps 1 and 3: its aligned target verb, which is not a direct translation.
  const tIdx = idx.alignedTgt(i, e).find((t) => doc.tgt[i].tokens[t].upos === "VERB");
  if (tIdx === undefined) return undefined;
  const tv = doc.tgt[i].tokens[tIdx];
  const disallowed = new Set(rule.disallowedAlignedLemmas.map((l) => l.toLowerCase()));
  if (disallowed.has(lemma(tv))) return undefined;
  // Steps 4-7, reversed: C_t is the most recent earlier occurrence of the same target lemma whose
  // aligned English token is a verb other than the auxiliary itself (that verb is C_s).
  for (let s = i - 1; s >= lo; s--) {
    const ts = doc.tgt[s].tokens;
    for (let j = ts.length - 1; j >= 0; j--) {
      if (lemma(ts[j]) !== lemma(tv)) continue;
      const link = idx.links[s].find((l) => l[1] === j && doc.en[s].tokens[l[0]].upos === "VERB");
      if (!link) continue;
      const cs = doc.en[s].tokens[link[0]];
      if (lemma(cs) === rule.englishLemma) continue;
      return {
        "src verb": en[e].text,
        expected: tv.text,
        "ante distance": i - s,
        "ref verb lemma": tv.lemma,
        "ref segment": doc.tgt[i].text,
        "ref ante segment": doc.tgt[s].text,
        "src verb lemma": en[e].lemma,
        "src segment": doc.en[i].text,
        "src ante segment": doc.en[s].text,
        "src ante verb lemma": cs.lemma,
      };
    }
  }
  return undefined;
}

function inflectionItem(rule: InflectionRule, idx: DocIndex, i: number, lo: number, mode: "paper" | "ctxpro"): CtxproItem | undefined {
  const { doc } = idx;
  const en = doc.en[i].tokens;
  const tgt = doc.tgt[i].tokens;
  // Step 2/3 precondition: no verb on either side, so nothing in the segment fixes the case. In paper
  // mode a target word tagged VERB/AUX whose every link goes to an English noun, proper noun, adjective,
  // numeral or pronoun of the verb-less English line is taken for a mis-tagged nominal (pl "Idealną/VERB,
  // zdrową nerkę" for "A perfect, healthy kidney"; "Małego/VERB pistoletu"), not a verb.
  if (en.some((t) => VERBS.has(t.upos))) return undefined;
  for (let j = 0; j < tgt.length; j++) {
    if (!VERBS.has(tgt[j].upos)) continue;
    const links = idx.links[i].filter((l) => l[1] === j);
    if (mode === "ctxpro") return undefined;
    // Lever 19i: no verb either, a token without letters (pl "MAC/VERB :/AUX") or an English interjection
    // copied into the target line and linked to itself ("Oh/VERB, Charlie", "Whoa/VERB").
    if (!/\p{L}/u.test(tgt[j].text)) continue;
    if (links.length && links.every((l) => en[l[0]].upos === "INTJ" && en[l[0]].text.toLowerCase() === tgt[j].text.toLowerCase())) continue;
    if (!links.length || !links.every((l) => NOMINAL_EN.has(en[l[0]].upos))) return undefined;
  }
  const hasCase = (t: AnnToken) => values(t, "Case").includes(rule.case);
  let tIdx = -1;
  let eIdx = -1;
  if (mode === "ctxpro") {
    for (let j = 0; j < tgt.length; j++) {
      const cases = values(tgt[j], "Case");
      if (cases.some((c) => c !== rule.case)) return undefined;
      if (cases.length) tIdx = j;
    }
    if (tIdx < 0) return undefined;
  } else {
    // The last nominal head in the rule's case whose aligned English token is a nominal head.
    for (let j = tgt.length - 1; j >= 0 && tIdx < 0; j--) {
      if (!hasCase(tgt[j]) || !nominalHead(tgt, j)) continue;
      const e = idx.links[i].find((l) => l[1] === j && nominalHead(en, l[0]));
      if (e) {
        tIdx = j;
        eIdx = e[0];
      }
    }
    if (tIdx < 0) return undefined;
  }
  // Step 4: C_t, the most recent earlier token (paper: nominal head) in the same case.
  let ante: { s: number; j: number } | undefined;
  for (let s = i - 1; s >= lo && !ante; s--) {
    const ts = doc.tgt[s].tokens;
    if (mode === "ctxpro") {
      const j = ts.findIndex(hasCase);
      if (j >= 0) ante = { s, j };
    } else {
      for (let j = ts.length - 1; j >= 0; j--) {
        if (!hasCase(ts[j]) || !nominalHead(ts, j)) continue;
        // Step 6: C_s by alignment of C_t.
        if (idx.links[s].some((l) => l[1] === j)) {
          ante = { s, j };
          break;
        }
      }
    }
  }
  if (!ante) return undefined;
  if (mode === "ctxpro") {
    const e = idx.links[i].find((l) => l[1] === tIdx);
    if (!e) return undefined;
    eIdx = e[0];
  }
  const ts = en[eIdx];
  const csLink = idx.links[ante.s].find((l) => l[1] === ante.j);
  const anteCase = mode === "ctxpro" ? values(ts, "Case") : csLink ? values(doc.en[ante.s].tokens[csLink[0]], "Case") : [];
  return {
    "src noun": ts.text,
    expected: tgt[tIdx].text,
    "ante distance": i - ante.s,
    "ref noun case": values(tgt[tIdx], "Case").join(","),
    "ref segment": doc.tgt[i].text,
    "ref ante segment": doc.tgt[ante.s].text,
    "src segment": doc.en[i].text,
    "src ante segment": doc.en[ante.s].text,
    "src ante noun case": anteCase.join(","),
  };
}

/** The layout an item of this rule set is written in. */
function layoutOf(set: RuleSet, rule: PronounRule | AuxiliaryRule | InflectionRule): readonly string[] {
  if (set.reversed) return KEY_ORDER.animacy;
  if (rule.type === "auxiliary") return KEY_ORDER.auxiliary;
  if (rule.type === "inflection") return KEY_ORDER.inflection;
  return rule.requiresCoref ? KEY_ORDER.gender : KEY_ORDER.formality;
}

/**
 * Runs rule sets over one annotated document. Returns, per rule set name, the items found in
 * document order (within a segment, in rule order); each rule yields at most one item per segment.
 */
export function matchDocument(doc: AnnotatedParallelDoc, sets: RuleSet[], opts: EngineOptions = {}): Map<string, CtxproItem[]> {
  const windowSize = opts.windowSize ?? 10;
  if (!Number.isInteger(windowSize) || windowSize < 1) throw new InputError(`window size must be an integer >= 1, got ${windowSize}`);
  const mode = opts.inflection ?? "paper";
  validateDoc(doc);
  const idx = new DocIndex(doc);
  const out = new Map<string, CtxproItem[]>();
  for (const set of sets) out.set(set.name, []);
  const uncovered = new Map(sets.map((set) => [set, uncoveredCaseRules(set)]));
  const fb = opts.fallbackAntecedent;
  const fallback: FallbackMode = fb === undefined ? "unique" : fb === true ? "nearest" : fb === false ? "off" : fb;
  if (!FALLBACK_MODES.includes(fallback)) throw new InputError(`fallback antecedent mode must be one of ${FALLBACK_MODES.join(", ")}, got '${fallback}'`);
  for (let i = 0; i < doc.en.length; i++) {
    const lo = Math.max(0, i - windowSize + 1);
    for (const set of sets) {
      const items = out.get(set.name)!;
      for (const rule of set.rules) {
        let item: CtxproItem | undefined;
        if (rule.type === "pronoun") item = pronounItem(rule, idx, i, lo, fallback, opts.uncoveredCase ? uncovered.get(set)!.get(rule) : undefined, opts.personNoun);
        else if (rule.type === "auxiliary") item = auxiliaryItem(rule, idx, i, lo);
        else item = inflectionItem(rule, idx, i, lo, mode);
        if (!item) continue;
        item["segment id"] = i + 1;
        item["document id"] = doc.id;
        item.rule = rule.label;
        items.push(set.reversed ? reverseGenderItem(item) : ordered(item, layoutOf(set, rule)));
      }
    }
  }
  return out;
}
