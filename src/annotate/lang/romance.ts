/**
 * What Spanish, Italian, Portuguese and French share: object clitics that are homographs of articles (*la, lo,
 * le, los, las, li, l', o, a, os, as*), which a tagger trained on news reads as articles, and the verb after them,
 * which it reads as a noun ("No lo tengo.", "¿Lo sabes?", "Je le sais."). The passes here run for each of those
 * languages with its own word lists (src/annotate/lang/es.ts, it.ts, pt.ts, fr.ts).
 */
import type { AnnToken, SentenceAlignment } from "../types.js";
import { labelUpos, type AlignmentPass, type TaggerView } from "../language-rules.js";

/** Words after which an article homograph (le, la, lo, o, a) is the object clitic: negations, French subject pronouns. */
const BEFORE_CLITIC: ReadonlySet<string> = new Set(["no", "non", "não", "ne", "n'", "nao", "je", "j'", "tu", "il", "elle", "on", "nous", "vous", "ils", "elles"]);

/**
 * Romance object clitics that are also articles (es/it/pt/fr la, lo, le, los, las, li, l'): the greedy
 * tagger, trained on a few thousand such tokens, reads most of them as articles, and CTXPRO's gender
 * rules hinge on them. An article is never directly followed by a verb, so a token tagged DET whose next
 * word is tagged VERB or AUX is re-read as the clitic (its best pronoun analysis). Measured on the UD
 * test files in docs/lab/annotate.md.
 */
export function redecideClitics(tg: TaggerView, words: readonly string[], lower: readonly string[], labels: string[]): void {
  if (!tg.rules.articleClitics) return;
  for (let i = 0; i + 1 < words.length; i++) {
    if (labelUpos(labels[i]!) !== "DET") continue;
    const pron = tg.pronounLabels(lower[i]!);
    if (!pron) continue;
    // The tagger's own reading of the next word decides (even after a DET tag it often sees the verb).
    const next = labelUpos(labels[i + 1]!);
    if (next === "VERB" || next === "AUX") {
      const forced = tg.tag(words, (k) => (k === i ? pron : tg.tableLabels(lower[k]!)));
      labels[i] = forced[i]!;
      continue;
    }
  }
}

/**
 * Short subtitle lines ("No lo tengo.", "¿Lo sabes?", "Je le sais.") often come out with no verb at
 * all: the treebanks (news, mostly third person) rarely show first/second person verbs, so "tengo"
 * gets NOUN, "sabes" ADJ. In a line with no VERB/AUX, a word tagged NOUN/ADJ/PROPN right after a
 * token tagged as an object clitic pronoun is re-tagged with its label restricted to VERB readings.
 * Measured on UD test and CTXPRO recall in docs/lab/annotate.md ("verb after clitic").
 */
export function verbAfterClitic(tg: TaggerView, words: readonly string[], lower: readonly string[], labels: string[]): void {
  const clitics = tg.rules.objectClitics;
  if (!clitics) return;
  if (labels.some((l) => labelUpos(l) === "VERB" || labelUpos(l) === "AUX")) return;
  for (let i = 0; i + 1 < words.length; i++) {
    if (!clitics.has(lower[i]!)) continue;
    // The tagger's or the table's pronoun reading, or an article homograph after a negation, subject pronoun or noun.
    const analyses = tg.table.get(lower[i]!);
    const pron = labelUpos(labels[i]!) === "PRON" || (analyses !== undefined && analyses.every((a) => a.upos === "PRON"));
    const next = labelUpos(labels[i + 1]!);
    if (next !== "NOUN" && next !== "ADJ" && next !== "PROPN") continue;
    // Otherwise an article homograph ("Lo voglio." / "La casa."): a verb only if the noun lexicon
    // (fr, it) does not know the next word as a noun.
    // An article right after a noun or name (its subject: "El Señor los unirá.") is also the clitic.
    const afterNoun = i > 0 && (labelUpos(labels[i - 1]!) === "NOUN" || labelUpos(labels[i - 1]!) === "PROPN");
    if (!pron && !afterNoun && !(i > 0 && BEFORE_CLITIC.has(lower[i - 1]!))) {
      const lex = tg.rules.nounLexiconTellsArticle ? tg.nouns : undefined;
      if (!lex || lex.lookup(words[i + 1]!, lower[i + 1]!) !== undefined) continue;
    }
    const verbIds = tg.labelIds("VERB");
    const keep = labels.map((l) => tg.labelIndex(l));
    const forced = tg.tag(words, (k) => (k === i + 1 ? verbIds : k < i + 1 ? [keep[k]!] : tg.tableLabels(lower[k]!)));
    for (let k = i + 1; k < labels.length; k++) labels[k] = forced[k]!;
    return;
  }
}


/** English object pronouns a Romance accusative clitic renders. */
const EN_OBJECT_PRONOUNS = ["it", "them", "him", "her"];
/**
 * The article (or preposition) homographs of a language's accusative object clitics that alignedClitics re-reads,
 * each with the English object pronouns it may render (`limited`: forms that render only some of them).
 */
export function cliticForms(forms: string[], limited: [string, string[]][] = []): ReadonlyMap<string, ReadonlySet<string>> {
  return new Map<string, ReadonlySet<string>>([...forms.map((f): [string, ReadonlySet<string>] => [f, new Set(EN_OBJECT_PRONOUNS)]), ...limited.map(([f, en]): [string, ReadonlySet<string>] => [f, new Set(en)])]);
}

/**
 * Clitic homographs that are also prepositions (pt *a*: "está a juntar", "começou a ler"): before a word of
 * `infinitive` shape they are the clitic only right after a preposition (ADP, or one of `prepositions`).
 */
export interface PrepositionHomographs {
  forms: ReadonlySet<string>;
  infinitive: RegExp;
  prepositions: ReadonlySet<string>;
}

const VERB_TAGS = new Set(["VERB", "AUX"]);
/** English tags of the words a noun phrase's article would sit before: an article's next word does not render them. */
const EN_NOMINAL_TAGS = new Set(["NOUN", "PROPN", "ADJ", "NUM"]);
/**
 * English tags of a verb's particle or adverb, which the aligner may link the target verb to; and of its subject
 * pronoun or an interjection (a pro-drop verb carries its subject, pt "Até a tinha" - "He ... carried it",
 * "quando a recebesse" - "when she got it").
 */
const EN_PARTICLE_TAGS = new Set(["ADV", "ADP", "PART", "PRON", "INTJ"]);
/** Target tags under which an unlinked word after the homograph may be the clitic's verb. */
const VERB_LIKE_TAGS = new Set(["NOUN", "ADJ", "PROPN", "VERB", "AUX"]);

/**
 * Target article homographs of object clitics (es *la, lo, las, los*, it *la, lo, li, l'*, *le* for *them*,
 * pt *a, o, as, os*) that the tagger reads as anything but a pronoun although every link of theirs goes to
 * an English object pronoun (*it, them, him, her* tagged PRON, not nominative nor possessive) and the next
 * word is no noun the article could introduce: it is linked to an English verb, or unlinked and tagged as a
 * noun, adjective, name or verb, and linked to no English noun, name, adjective or numeral (es "y la/DET
 * mueve/NOUN" for "he scoops it", pt "para o/DET ligar/NOUN" for "to turn it on"): the tagger, which sees
 * a present, subjunctive or infinitive as a noun, reads the article. Not a word split off a
 * contraction (pt *na* -> *em a*). `forms`: homograph -> the English pronouns it may render (`cliticForms`);
 * `prepositionHomographs`: those also prepositions, and where they are the clitic before an infinitive;
 * `verbOnly`: whether a word is known only as a verb (MorphTagger.verbOnlyForm), which lets a next word linked only to
 * English particles or adverbs count.
 */
export function alignedClitics(en: readonly AnnToken[], tgt: readonly AnnToken[], links: SentenceAlignment, forms: ReadonlyMap<string, ReadonlySet<string>>,
  prepositionHomographs?: PrepositionHomographs,
  verbOnly?: (word: string) => boolean,
): Set<number> {
  const at = new Set<number>();
  tgt.forEach((t, j) => {
    const ens = forms.get(t.text.toLowerCase());
    if (!ens || t.upos === "PRON") return;
    // Part of a contraction the tokenizer split (pt "na" -> em a, it "nella" -> in la): an article.
    const written = (k: number) => tgt[k] !== undefined && tgt[k]!.start === t.start && tgt[k]!.end === t.end;
    if (written(j - 1) || written(j + 1)) return;
    const ls = links.filter((l) => l[1] === j);
    const objectPronoun = (e: AnnToken) => e.upos === "PRON" && ens.has(e.text.toLowerCase()) && e.feats.Case !== "Nom" && e.feats.Poss !== "Yes";
    if (!ls.length || !ls.every((l) => objectPronoun(en[l[0]]!))) return;
    const next = tgt[j + 1];
    if (!next) return;
    const lower = t.text.toLowerCase();
    if (prepositionHomographs?.forms.has(lower) && prepositionHomographs.infinitive.test(next.text.toLowerCase())) {
      const prev = tgt[j - 1];
      if (!prev || !(prev.upos === "ADP" || prepositionHomographs.prepositions.has(prev.text.toLowerCase()))) return;
    }
    const nls = links.filter((l) => l[1] === j + 1);
    if (nls.some((l) => EN_NOMINAL_TAGS.has(en[l[0]]!.upos))) return;
    if (nls.some((l) => VERB_TAGS.has(en[l[0]]!.upos)) || (!nls.length && VERB_LIKE_TAGS.has(next.upos))) at.add(j);
    // A verb the aligner linked to its English particle, adverb or subject pronoun ("tomé" - "either", "recoges" - "up",
    // "saqué" - "out"): where the verb lexicon knows the word only as a verb (pt: ptFiniteVerb).
    else if (nls.every((l) => EN_PARTICLE_TAGS.has(en[l[0]]!.upos)) && verbOnly?.(next.text)) at.add(j);
  });
  return at;
}

/** alignedClitics over every line: each line with such a homograph is tagged again with it held to the clitic. */
export function alignedCliticsPass(forms: ReadonlyMap<string, ReadonlySet<string>>, prepositionHomographs?: PrepositionHomographs): AlignmentPass {
  return (tagger, { en, tgt, alignment }) => {
    const verbOnly = (w: string) => tagger.verbOnlyForm(w);
    for (let i = 0; i < tgt.length; i++) {
      const clitics = alignedClitics(en[i]!.tokens, tgt[i]!.tokens, alignment[i]!, forms, prepositionHomographs, verbOnly);
      if (clitics.size) tgt[i] = tagger.annotate(tgt[i]!.text, { clitics });
    }
  };
}
