/**
 * Re-reading the target side after word alignment: what the English words a target word is linked to say about
 * it (a word linked only to an English common noun is a noun; a word of a verb-less English line linked only to
 * English nouns is no verb) decides labels the tagger got wrong. The passes here are shared; each language
 * composes its own in `LanguageRules.alignmentPasses` (src/annotate/lang/<lang>.ts), and the built-in annotators'
 * `Annotators.retag` hook runs them (`MorphTagger.retagAligned`).
 */
import type { AnnToken, SentenceAlignment } from "./types.js";
import type { NounLexicon } from "./noun-lexicon.js";
import type { AlignmentPass } from "./language-rules.js";

/** How a language's words are re-read as the nouns their links say (`alignedNouns`). */
export interface AlignedNounShape {
  /** Only words of these tags are re-read (a language whose knownNoun checks the shape only: pt). */
  tags?: ReadonlySet<string>;
  /** Plurals end in *-s*: a word without it linked to an English plural noun is no noun (es, pt). */
  pluralS?: boolean;
}

/**
 * Target words the tagger did not call a noun although every link of theirs goes to an English common
 * noun and the language's lexicon knows them as nouns (`known`: MorphTagger.knownNoun, which also leaves
 * out closed-class words): it "le uova/DET", "la parola/VERB", "i maschi/ADJ", es "las chicas/ADJ",
 * "la bebida/VERB", "el sándwich/CCONJ". Without a noun tag the antecedent gives no gender.
 * Left alone: a word beside a noun the lexicon knows, mostly that noun's modifier where the English noun's own link is
 * missing ("el momento adecuado" for "the right time" with *time*–*adecuado*); a word right after an
 * auxiliary tagged VERB that the verb lexicon knows only as a participle (`participle`; a noun after a
 * copula, "c'erano facce", stays) or an auxiliary itself; a link to an abbreviation ("No."); where plurals end in *-s*
 * (`shape.pluralS`: es, pt) a word without it linked to an English plural; where the language has no noun lexicon,
 * a word of a tag outside `shape.tags`. Alignment errors onto verbs ("sapevano" for "tracks") fail the
 * lexicon check.
 */
export function alignedNouns(
  en: readonly AnnToken[],
  tgt: readonly AnnToken[],
  links: SentenceAlignment,
  known: (word: string) => boolean,
  shape: AlignedNounShape = {},
  participle: (word: string) => boolean = () => true,
): Set<number> {
  const at = new Set<number>();
  tgt.forEach((t, j) => {
    if (t.upos === "NOUN" || t.upos === "PUNCT" || t.upos === "SYM" || t.upos === "AUX" || !/\p{L}/u.test(t.text)) return;
    const only = shape.tags;
    if (only && (!only.has(t.upos) || (t.upos === "PROPN" && tgt.slice(0, j).some((x) => x.upos !== "PUNCT")))) return;
    // Beside a noun the lexicon knows: that noun's modifier. Not beside an adjective or determiner the
    // tagger called a noun: one the lexicon does not know ("un bel/NOUN posto/VERB"), or, as the Spanish
    // list also holds adjectives, one linked only to English words that are no nouns ("esas/NOUN chicas/ADJ"
    // for "these ladies", "peligrosos/NOUN asesinos/ADJ" for "dangerous killers").
    const noun = (k: number) => {
      if (tgt[k]?.upos !== "NOUN" || !known(tgt[k]!.text)) return false;
      const own = links.filter((l) => l[1] === k);
      return !own.length || own.some((l) => en[l[0]]!.upos === "NOUN" || en[l[0]]!.upos === "PROPN");
    };
    if (noun(j - 1) || noun(j + 1)) return;
    // A participle after its auxiliary ("ha requisito il suo veicolo" for "commandeered his vehicle"; not
    // "Aveva/AUX potere/VERB", an infinitive).
    if (t.upos === "VERB" && tgt[j - 1]?.upos === "AUX" && participle(t.text)) return;
    const ls = links.filter((l) => l[1] === j);
    // English nouns written as words: not abbreviations ("No." for a number, which also reads *no*).
    if (!ls.length || !ls.every((l) => en[l[0]]!.upos === "NOUN" && /^\p{L}+(?:[-'’]\p{L}+)*$/u.test(en[l[0]]!.text))) return;
    if (shape.pluralS && ls.some((l) => en[l[0]]!.feats.Number === "Plur") && !/s$/i.test(t.text)) return;
    if (known(t.text)) at.add(j);
  });
  return at;
}

/**
 * Re-tags, line by line, the words alignedNouns finds: only those words take the new tags, since re-tagging the
 * whole line moves others too ("Consumía cocaína. La consumía", where *La* became an article), which costs as
 * many items as it wins. Run after a language's passes that re-tag whole lines.
 */
export function alignedNounsPass(shape: AlignedNounShape = {}): AlignmentPass {
  return (tagger, { en, tgt, alignment }) => {
    const known = (w: string) => tagger.knownNoun(w);
    const participle = (w: string) => tagger.participleOnly(w);
    for (let i = 0; i < tgt.length; i++) {
      const at = alignedNouns(en[i]!.tokens, tgt[i]!.tokens, alignment[i]!, known, shape, participle);
      if (!at.size) continue;
      const retagged = tagger.annotate(tgt[i]!.text, { nouns: at }).tokens;
      tgt[i] = { ...tgt[i]!, tokens: tgt[i]!.tokens.map((t, k) => (at.has(k) ? retagged[k]! : t)) };
    }
  };
}

/** alignedNumbers over every line, with the tagger's noun lexicon (none: nothing changes). */
export const alignedNumbersPass: AlignmentPass = (tagger, { en, tgt, alignment }) => {
  const lex = tagger.nouns;
  if (!lex) return;
  for (let i = 0; i < tgt.length; i++) tgt[i] = { ...tgt[i]!, tokens: alignedNumbers(en[i]!.tokens, tgt[i]!.tokens, alignment[i]!, lex) };
};

/**
 * Nouns whose form the lexicon knows in both numbers (pl *twarzy*, *krwi*, *korony*, *sukienki*: genitive singular
 * and a plural case) take the number of the English nouns every link of theirs goes to, where those agree: the
 * tagger guessed the plural for "she cut it (his face, *twarzy*) in half". Other words are returned as
 * they are.
 */
export function alignedNumbers(en: readonly AnnToken[], tgt: readonly AnnToken[], links: SentenceAlignment, lex: NounLexicon): AnnToken[] {
  return tgt.map((t, j) => {
    if (t.upos !== "NOUN") return t;
    const both = lex.lookup(t.text, t.lemma)?.numbers;
    if (!both) return t;
    const english = new Set(links.filter((l) => l[1] === j).map((l) => (en[l[0]]!.upos === "NOUN" ? en[l[0]]!.feats.Number : undefined)));
    const [n] = english;
    if (english.size !== 1 || (n !== "Sing" && n !== "Plur") || !both.includes(n) || t.feats.Number === n) return t;
    return { ...t, feats: { ...t.feats, Number: n } };
  });
}

const VERB_TAGS = new Set(["VERB", "AUX"]);

const NOMINAL_EN_TAGS = new Set(["NOUN", "PROPN", "ADJ", "NUM", "PRON"]);

/**
 * Target words of a verb-less English line that the tagger calls a verb although every link of theirs goes
 * to an English noun, proper noun, adjective, numeral or pronoun (pl "Boginią/VERB?" for "A deity?",
 * "Przyjaciółmi/VERB?" for "Friends?", "Maxowi/VERB?" for "Max?"): the Polish tagger reads the first
 * word of a verb-less fragment as a verb. Unaligned words and words linked to an interjection or
 * adverb ("Ojć" for "Oops") are left alone. The engine's inflection rule (paper mode) lets the same words
 * pass its verb check; re-tagged they also get a case.
 */
export function misTaggedNominals(en: readonly AnnToken[], tgt: readonly AnnToken[], links: SentenceAlignment): Set<number> {
  const at = new Set<number>();
  if (en.some((t) => VERB_TAGS.has(t.upos))) return at;
  tgt.forEach((t, j) => {
    if (!VERB_TAGS.has(t.upos)) return;
    const ls = links.filter((l) => l[1] === j);
    if (ls.length && ls.every((l) => NOMINAL_EN_TAGS.has(en[l[0]]!.upos))) at.add(j);
  });
  return at;
}

/**
 * Target words of a verb-less English line written exactly as the English proper noun every link of theirs
 * goes to (pl "Oh, Charlie/PRON.", "Cześć, Ed/PROPN|Gen", "Jerry/NUM"): a name left in its base form,
 * which for a Polish name is the nominative (any other case adds an ending: *Eda, Edowi*) and for a foreign
 * name that Polish does not decline is its one form; the tagger, which has seen few foreign names, reads
 * them as pronouns, numerals or genitives. Re-tagged PROPN in the nominative; not right after a
 * preposition, whose case an undeclined name takes ("Z Gennaro?", "Do Cleveland?").
 */
export function copiedNames(en: readonly AnnToken[], tgt: readonly AnnToken[], links: SentenceAlignment, prepositions?: ReadonlyMap<string, unknown>): Set<number> {
  const at = new Set<number>();
  if (en.some((t) => VERB_TAGS.has(t.upos))) return at;
  tgt.forEach((t, j) => {
    if (!/^\p{Lu}/u.test(t.text) || (t.upos === "PROPN" && t.feats.Case === "Nom")) return;
    // After a preposition an undeclined name takes the preposition's case ("Do Cleveland", "Z Gennaro").
    const prev = tgt[j - 1];
    if (prev && (prev.upos === "ADP" || prepositions?.has(prev.text.toLowerCase()))) return;
    const ls = links.filter((l) => l[1] === j);
    if (ls.length && ls.every((l) => en[l[0]]!.upos === "PROPN" && en[l[0]]!.text === t.text)) at.add(j);
  });
  return at;
}
