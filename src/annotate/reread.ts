/**
 * Re-reading a tagged line with the verb lexicon (src/annotate/verb-lexicons.ts): passes over the tagger's labels
 * that every language with a verb lexicon runs (`LanguageRules.labelPasses`), held to the language's own word
 * lists by its rules (src/annotate/lang/<lang>.ts). The treebanks the tagger learned from are news, mostly in the
 * third person, so subtitle lines such as "Entiendo." or "Ci credo." come out with their verb tagged NOUN.
 */
import type { HomographReading, LabelPass, LanguageRules, TaggerView } from "./language-rules.js";

/** Tags under which verbOnlyForms looks for verb forms (NOUN_TAGS where the verb source lists verbs only). */
const VERB_HIDING_TAGS: ReadonlySet<string> = new Set(["NOUN", "ADJ", "ADV", "PRON", "DET", "X", "INTJ"]);
const NOUN_TAGS: ReadonlySet<string> = new Set(["NOUN"]);

/** Whether the token before an article homograph at `k` makes it the object clitic (`LanguageRules.beforeClitic`). */
function cliticContext(rules: LanguageRules, lower: readonly string[], pos: readonly string[], k: number): boolean {
  const set = rules.beforeClitic;
  return set !== undefined && k > 0 && set.has(lower[k - 1]!) && pos[k - 1] !== "DET" && pos[k - 1] !== "ADP";
}

const NO_READING: HomographReading = {};

/**
 * A word tagged NOUN (or PROPN at the start of a sentence) that the verb lexicon lists as a finite
 * verb form or infinitive, and that neither the noun lexicon nor the verb source's own word list knows
 * as a noun, not right after a determiner (but after an object-clitic homograph: in verb-less lines,
 * and where the language's `homographVerb` says so in lines with a verb), and after a preposition or verb
 * only when it is an infinitive (not a capitalised word inside the sentence where nouns are capitalised),
 * is re-tagged with its label restricted to VERB readings ("Entiendo." / "Ci credo." came out NOUN); in
 * verb-less lines of a language whose verb source lists the other words (es) also ADJ/ADV/PRON/DET/X/INTJ;
 * a NOUN/ADJ right after a word only a verb can follow (`verbAfter`: fr "tu veux/ADJ"); and a word tagged AUX
 * that is a form of no auxiliary. The other words keep their labels. Measured on UD test and CTXPRO recall in
 * docs/lab/annotate.md ("Verb lexicons").
 */
export const verbOnlyForms: LabelPass = (t: TaggerView, words, lower, labels) => {
  const lex = t.verbs;
  if (!lex) return;
  const rules = t.rules;
  const pos = labels.map((l, k) => t.effectiveUpos(lower[k]!, l));
  const hasVerb = pos.some((u) => u === "VERB" || u === "AUX");
  // Which tags may hide a verb: in a line without a verb, where the verb source also lists the other
  // words (es), any open-class tag; otherwise nouns only (the noun lexicon is the only check against
  // "presto", "solo"; in lines with a verb the wider set misfired on UD: "intermedias", "las demandas").
  const open = lex.otherWord && !hasVerb ? VERB_HIDING_TAGS : NOUN_TAGS;
  const at = new Set<number>();
  const auxLemmas = rules.auxLemmas;
  for (let i = 0; i < words.length; i++) {
    const u = pos[i]!;
    // A word tagged AUX that is a form of no auxiliary verb ("je ne dirai rien": dirai AUX).
    if (u === "AUX" && auxLemmas && !t.table.has(lower[i]!)) {
      const ls = lex.lemmas(lower[i]!);
      // Neither the lexicon nor our lemmatiser (es "era": the lexicon knows only "erar") says auxiliary.
      if (ls && !ls.some((l) => auxLemmas.has(l)) && !auxLemmas.has(t.lemma(words[i]!, "AUX").toLowerCase())) at.add(i);
      continue;
    }
    const initial = i === 0 || pos[i - 1] === "PUNCT";
    // Right after a word only a verb can follow (fr: a subject pronoun, "ne" or an unambiguous object clitic:
    // "tu veux/ADJ", "je garde/NOUN"), the noun check is skipped and ADJ counts too.
    if (rules.verbAfter && i > 0 && rules.verbAfter.has(lower[i - 1]!) && (u === "NOUN" || u === "ADJ") && lex.finite(lower[i]!)) {
      at.add(i);
      continue;
    }
    // Where nouns are capitalised (de), a capitalised word inside the line is a noun.
    if (rules.capitalisedNouns && i > 0 && words[i]![0] !== lower[i]![0]) continue;
    const prev = i > 0 ? pos[i - 1]! : "";
    // Right after an object clitic's article homograph tagged DET ("la he visto", "lo ascolti/ADJ"),
    // any open-class tag may hide the verb ...
    const afterClitic = prev === "DET" && rules.articleClitics === true && t.pronounLabels(lower[i - 1]!) !== undefined;
    // ... unless a preposition, verb or determiner comes before it ("di la pubblica", "era la sola").
    const before = i > 1 ? pos[i - 2]! : "";
    const clear = afterClitic && before !== "ADP" && before !== "VERB" && before !== "AUX" && before !== "DET";
    if (!open.has(u) && !(u === "PROPN" && initial) && !(clear && VERB_HIDING_TAGS.has(u))) continue;
    if (t.table.has(lower[i]!)) continue;
    let strong = false;
    // Not after an article, unless it is an object clitic's homograph ("La tengo."): in a verb-less line, or
    // where the language reads it so in a line with a verb too (`homographVerb`). Where the word before rules
    // out an article (a negation, a non-article clitic, a subject or wh- pronoun: `beforeClitic`), the next
    // word is the verb whatever the word lists say ("te la di", "yo la presto", "non lo usi").
    if (prev === "DET") {
      if (!afterClitic) continue;
      const context = clear && cliticContext(rules, lower, pos, i - 1);
      const reading = rules.homographVerb?.({ lower, i, clear, hasVerb, context, lemmas: lex.lemmas(lower[i]!) ?? [] }) ?? NO_READING;
      if (hasVerb && !reading.inVerbLine) continue;
      strong = context || (clear && reading.strong === true);
      if (reading.always) {
        at.add(i);
        continue;
      }
      if (reading.skip) continue;
    }
    const lemmas = lex.lemmas(lower[i]!);
    if (!lemmas || !lex.finite(lower[i]!)) continue;
    // After a preposition or a verb only an infinitive ("per capire", "voglio andare"; not "vedrò presto").
    if ((prev === "ADP" || prev === "VERB" || prev === "AUX" || at.has(i - 1)) && !lemmas.includes(lower[i]!)) continue;
    if (!strong && (lex.otherWord ? lex.otherWord(lower[i]!) : t.nouns?.lookup(words[i]!, lower[i]!) !== undefined)) continue;
    at.add(i);
  }
  if (!at.size) return;
  // Only those words change; every other label stays (a fresh tagging undid earlier decisions).
  const verbIds = t.labelIds("VERB");
  const keep = labels.map((l) => t.labelIndex(l));
  const forced = t.tag(words, (k) => (at.has(k) ? verbIds : [keep[k]!]));
  for (const k of at) labels[k] = forced[k]!;
};

/**
 * A word tagged VERB that the verb lexicon knows as no verb form at all (finite, infinitive or
 * participle) but the noun lexicon (it, fr, de, ru) or the verb source's own word list (es, `wordListNouns`)
 * knows, is re-tagged with its label restricted to NOUN readings ("el dinero/VERB", "la parola/VERB"); only
 * right after a determiner, where a verb cannot stand.
 */
export const nounOnlyForms: LabelPass = (t: TaggerView, words, lower, labels) => {
  const lex = t.verbs;
  if (!lex) return;
  const at: number[] = [];
  for (let i = 1; i < words.length; i++) {
    if (t.effectiveUpos(lower[i]!, labels[i]!) !== "VERB" || t.table.has(lower[i]!)) continue;
    if (t.effectiveUpos(lower[i - 1]!, labels[i - 1]!) !== "DET") continue;
    if (lex.lemmas(lower[i]!)) continue;
    const noun = t.rules.wordListNouns ? lex.otherWord?.(lower[i]!) === true : t.nouns?.lookup(words[i]!, lower[i]!) !== undefined;
    if (noun) at.push(i);
  }
  if (!at.length) return;
  const keep = labels.map((l) => t.labelIndex(l));
  const forced = t.tag(words, (k) => (at.includes(k) ? t.labelIds("NOUN") : [keep[k]!]));
  for (const k of at) labels[k] = forced[k]!;
};
