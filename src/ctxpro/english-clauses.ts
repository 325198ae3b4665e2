/**
 * English clause heuristics of the CTXPRO engine, read off the English tagger's parts of speech (no parser):
 * where a noun stands in its sentence decides whether an object pronoun can take it as antecedent (its own
 * clause's subject cannot: "Love makes it precious"), whether another noun is the referent instead (a copula's
 * subject, "The wisp isn't a toy"; a prepositional host, "a flask in his pocket"), and whether an *it* refers
 * at all ("Who is it?", "It's wonderful for a family to ...").
 */
import type { AnnToken, Mention } from "../annotate/types.js";
import { NOUNS, NP_PRE, VERBS } from "./tokens.js";

/** Verbs whose object *it* mostly stands for an event or a proposition, not a thing. */
const PROPOSITIONAL_VERBS = new Set(["do", "get", "make", "buy", "mean", "know", "say", "forget", "believe", "think", "mind", "take"]);

/** Whether English token `e` is the object of (or follows "about" after) a verb of PROPOSITIONAL_VERBS. */
export function propositionalObject(en: readonly AnnToken[], e: number): boolean {
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
 * antecedent: `m` is the predicate noun of *be* and no comma or coordinator stands between
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
 * subject of a coordinated verb phrase the pronoun is the object of (as in ownClauseAntecedent, a
 * non-reflexive object pronoun is not bound by its own clause's subject): `m` stands as a subject
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
 * noun of a relative clause the pronoun stands in: right after `m` comes a relativizer
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

/**
 * Whether noun mention `m`, in the sentence of object pronoun `e`, stands where the pronoun cannot take it
 * as antecedent: its own clause's subject or a copula's predicate noun before it, the subject of a
 * coordinated verb phrase it stands in, the head noun of a relative
 * clause it stands in. For the resolver's antecedent and the unique fallback's candidates alike.
 */
export function refusedObjectPosition(en: readonly AnnToken[], m: Mention, e: number): boolean {
  return ownClauseAntecedent(en, m, e) || sharedSubject(en, m, e) || relativeClauseHead(en, m, e);
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
 * The subject of the copula whose predicate noun mention `m` is: before `m`, across
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
 * The noun phrase whose prepositional complement mention `m` is: right before `m` a
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
 * Whether mention `m` is the predicate noun of a copula whose subject is a personal pronoun for people:
 * right before `m`, across adverbs and *not* (no preposition), a form of *be* that agrees with
 * the pronoun right before it, *I, you, he, she, we* ("I'm glad you're a believer ... unless I see it",
 * "he's a genius"), or, for *it* (`form`), *they* when the predicate noun names a person (`personNoun`);
 * the pronoun not after a verb or preposition ("All I can tell you is this stuff": an object). Not where an
 * adjective of the mention comes before a determiner or possessive ("I'm sure your ship is ready": a
 * predicate adjective, then another phrase). Such a noun denotes the person the pronoun names, which *it*
 * does not pick up, nor *them* (a plural predicate of *you* or *we* is the speaker or addressee; *they*
 * may be the people *them* stands for: "They're businessmen and you insulted them"). The complement of
 * `copulaSubject`, which moves only to a noun-phrase subject: here there is no noun to move to, so the
 * antecedent is refused.
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
 * an adjective: "teach rubber ducky to dive" (*ducky* tagged ADJ), where the mention stops at the
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

/** English nouns of time: points and stretches of time, days of the week, months, seasons. */
export const TIME_NOUNS = new Set([
  "time", "day", "night", "morning", "evening", "afternoon", "noon", "midnight", "week", "weekend", "month", "year", "hour", "minute",
  "second", "moment", "today", "tonight", "tomorrow", "yesterday", "decade", "century", "monday", "tuesday", "wednesday", "thursday",
  "friday", "saturday", "sunday", "january", "february", "march", "april", "june", "july", "august", "september", "october",
  "november", "december", "spring", "summer", "autumn", "winter",
]);

/**
 * Whether mention m's head is a noun of time after *at, in, on, during*, across determiners, adjectives,
 * numerals and possessives ("at night", "in the morning", "on that Tuesday"): an adverbial time phrase. A time noun elsewhere may be a real antecedent ("I'll never forget that night. It was ...").
 */
export function adverbialTime(en: readonly AnnToken[], m: { head: number }): boolean {
  const h = en[m.head];
  if (!TIME_NOUNS.has((h.lemma || h.text).toLowerCase())) return false;
  let j = m.head - 1;
  while (j >= 0 && (en[j].upos === "DET" || en[j].upos === "ADJ" || en[j].upos === "NUM" || (en[j].upos === "PRON" && en[j].feats.Poss === "Yes"))) j--;
  if (j >= 0 && en[j].upos === "ADP" && TIME_ADPS.has(en[j].text.toLowerCase())) return true;
  // *last, next, every* + a noun of time, with no determiner or possessive before ("every time I look at
  // it", "last night"; not "our last hour ... spend it"). A bare *today* may be a subject ("today started as a
  // nice outing ... ruin it") and is not refused.
  const before = m.head > 1 ? en[m.head - 2] : undefined;
  const determined = !!before && (before.upos === "DET" || (before.upos === "PRON" && before.feats.Poss === "Yes"));
  if (m.head > 0 && TIME_DETERMINERS.has(en[m.head - 1].text.toLowerCase()) && !determined) return true;
  // Fixed adverbial time phrases with no preposition: "the other day", "all day", "some night",
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
 * Whether English *it* at `e` is expletive or identificational: *who* or *what* + a form of
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
