/**
 * The contract between the shared morphological tagger (src/annotate/morph.ts) and the rules of one language
 * (src/annotate/lang/<lang>.ts): what the tagger asks a language (`LanguageRules`) and what a language's rules
 * may read and do of the tagger (`TaggerView`). The tagger looks the rules up once, when it is built.
 */
import type { AnnSentence, SentenceAlignment } from "./types.js";
import type { ClosedClassTable } from "./closed-class.js";
import type { NounLexicon } from "./noun-lexicon.js";
import type { VerbLexicon } from "./verb-lexicons.js";

/** One tagged syntactic word. */
export interface Tagged {
  upos: string;
  lemma: string;
  feats: Record<string, string>;
}

/** A dictionary's test on (UPOS, Case) for a word's labels, or undefined where the dictionary does not know the word. */
export type LabelTest = (word: string) => ((upos: string, kase: string | undefined) => boolean) | undefined;

/**
 * The cases of a singular noun label that an ending leaves, for labels of the given parts of speech and
 * genders (`anyNumber`: for labels of any number).
 */
export interface SingularCases {
  upos: readonly string[];
  genders: readonly string[];
  cases: readonly string[];
  anyNumber?: boolean;
}

/**
 * The cases an open-class word's ending leaves (UD Case values). `adjectival`: only adjective, determiner,
 * numeral and pronoun labels are restricted; `notAdj`: adjective labels are not; `noVerb`: no verb or auxiliary
 * label either; `sing`: the cases left to singular labels of some genders; `noCase`: the word takes no case
 * (adverb, particle, interjection or conjunction labels only).
 */
export interface EndingCases {
  cases: readonly string[];
  adjectival?: boolean;
  notAdj?: boolean;
  noVerb?: boolean;
  sing?: readonly SingularCases[];
  noCase?: boolean;
}

/** Re-tagging a sentence with what the caller knows of some words (the re-reading after alignment). */
export interface RetagOptions {
  /** Words that head or modify a noun phrase: nominal labels only. */
  nominal?: ReadonlySet<number>;
  /** Names in their base form: PROPN in the nominative. */
  names?: ReadonlySet<number>;
  /** Singular nouns whose ending leaves the dative, locative or vocative: NOUN/PROPN singular masculine or feminine labels in the dative or vocative. */
  oblique?: ReadonlySet<number>;
  /** Words the alignment renders as an English common noun and the noun lexicon knows as nouns: NOUN labels only. */
  nouns?: ReadonlySet<number>;
  /**
   * Article homographs of object clitics that the word alignment reads as the clitic: PRON labels in the
   * accusative; the next word, when the verb lexicon knows it as a verb, VERB/AUX labels.
   */
  clitics?: ReadonlySet<number>;
}

/** What a language's rules may read and do of the tagger (MorphTagger implements it). */
export interface TaggerView {
  readonly lang: string;
  readonly rules: LanguageRules;
  /** The closed-class table: lowercase form -> its analyses. */
  readonly table: ClosedClassTable;
  readonly nouns: NounLexicon | undefined;
  readonly verbs: VerbLexicon | undefined;
  /** The dictionary restricting open-class labels, where it is attached (Russian: az). */
  readonly labelTest: LabelTest | undefined;
  /** The cases each preposition governs, where attached (Polish, Russian). */
  readonly prepositionCases: ReadonlyMap<string, readonly string[]> | undefined;
  /** The cases an open-class word's ending leaves, where attached (Polish). */
  readonly endingCases: ((lower: string, name?: boolean) => EndingCases | undefined) | undefined;
  /** The tagger's joint labels ("NOUN|Gender=Fem|Number=Sing"), by index. */
  readonly labels: readonly string[];
  /** The index of a label. */
  labelIndex(label: string): number;
  /** A label's part of speech and features (the features a fresh copy). */
  parseLabel(label: string): { upos: string; feats: Record<string, string> };
  /** The label indices the closed-class table allows a lowercase form, undefined for a form not in it. */
  tableLabels(form: string): readonly number[] | undefined;
  /** Indices of the labels whose part of speech is one of `upos`. */
  labelIds(...upos: string[]): number[];
  /** Tags words, word i held to the labels `allowed(i)` (undefined: any). */
  tag(words: readonly string[], allowed: (i: number) => readonly number[] | undefined): string[];
  /** The part of speech a word will come out with: a closed-class form's own, else its label's. */
  effectiveUpos(lowerForm: string, label: string): string;
  /** The lemmatiser's lemma of a word read with a part of speech. */
  lemma(word: string, upos: string): string;
  /** The PRON labels of a form the table lists as both DET and PRON (an article homograph of a clitic). */
  pronounLabels(form: string): number[] | undefined;
  /** The PRON labels of a closed-class form in the accusative (all its PRON labels if none is). */
  accusativeClitic(form: string): readonly number[] | undefined;
  /**
   * `ids` (all when undefined) less the labels an ending's cases rule out (`rule`, undefined: none), when a
   * case-bearing one is left; a word with no case keeps its adverb, particle, interjection and conjunction labels.
   */
  byEnding(rule: EndingCases | undefined, ids: readonly number[] | undefined): readonly number[] | undefined;
  /** `ids` (all when undefined) less the NOUN/PROPN labels whose case is not in `cases`, when a noun label with a case is left. */
  nounCases(ids: readonly number[] | undefined, cases: readonly string[]): readonly number[] | undefined;
  /** `ids` (all when undefined) less VERB and AUX labels (unchanged if nothing else is left). */
  withoutVerbLabels(ids: readonly number[] | undefined): readonly number[] | undefined;
}

/** A pass over the labels of a tagged line (words, their lowercase forms, the labels, changed in place). */
export type LabelPass = (t: TaggerView, words: readonly string[], lower: readonly string[], labels: string[]) => void;

/** A pass over a line's tagged words (lowercase forms, the words, changed in place). */
export type WordPass = (t: TaggerView, words: readonly string[], lower: readonly string[], out: Tagged[]) => void;

/** Where a word stands after an object clitic's article homograph tagged DET (`HomographVerb`). */
export interface HomographContext {
  /** Lowercase forms of the line. */
  lower: readonly string[];
  /** Index of the word after the homograph. */
  i: number;
  /** The homograph stands where an article cannot: after no preposition, verb or determiner. */
  clear: boolean;
  /** The line has a verb. */
  hasVerb: boolean;
  /** The homograph is clear and the word before it rules out an article (`LanguageRules.beforeClitic`). */
  context: boolean;
  /** The verb lexicon's lemmas of the word (empty when it has none). */
  lemmas: readonly string[];
}

/**
 * How a language reads a word after an object clitic's article homograph tagged DET (`LanguageRules.homographVerb`):
 * `inVerbLine`, re-read in a line that has a verb too; `strong`, a verb whatever the word lists say; `always`, a
 * verb without the verb lexicon's finite-form check either; `skip`, not re-read.
 */
export interface HomographReading {
  inVerbLine?: boolean;
  strong?: boolean;
  always?: boolean;
  skip?: boolean;
}

/** A target sentence after alignment, re-read by `AlignmentPass`es. */
export interface AlignedDoc {
  en: readonly AnnSentence[];
  /** The target sentences, replaced in place by re-tagged ones. */
  tgt: AnnSentence[];
  alignment: readonly SentenceAlignment[];
  /** Whether an English common noun names a person (the resolver's lexicons), where known. */
  person?: (lemma: string) => boolean;
}

/** What the re-reading after alignment may do of the target tagger. */
export interface RetaggingTagger {
  readonly lang: string;
  readonly nouns: NounLexicon | undefined;
  readonly prepositionCases: ReadonlyMap<string, readonly string[]> | undefined;
  annotate(sentence: string, opts?: RetagOptions): AnnSentence;
  /** Whether a word of three letters or more outside the closed-class table can be a common noun by the language's lexicons. */
  knownNoun(word: string): boolean;
  /** Whether the verb lexicon knows the word as a participle and as no other verb form. */
  participleOnly(word: string): boolean;
  /** Whether a word is known only as a finite verb form or infinitive. */
  verbOnlyForm(word: string): boolean;
}

/** A pass of the re-reading after alignment over a whole document's target sentences. */
export type AlignmentPass = (t: RetaggingTagger, doc: AlignedDoc) => void;

/** The rules of one language; every field is optional but `lang` and `labelPasses`. */
export interface LanguageRules {
  readonly lang: string;

  // --- what loadDefaultMorph attaches
  /** The noun lexicon decides the gender of every noun ("all") or only where no determiner marks one ("unmarked"). */
  readonly nounLexicon?: "all" | "unmarked";
  /** The cases each preposition governs (restricting the next word's labels). */
  readonly prepositionCases?: ReadonlyMap<string, readonly string[]>;
  /** A dictionary that restricts open-class labels; the preposition cases apply only with it (Russian: az). */
  readonly labelTest?: LabelTest;
  /** Whether the preposition cases hold only where the dictionary is attached. */
  readonly prepositionCasesNeedDictionary?: boolean;

  // --- the labels a word may take
  /** Labels of a word fixed before any other restriction (`ids`, undefined for any), or undefined to go on. */
  fixedLabels?(t: TaggerView, words: readonly string[], lower: readonly string[], i: number): { ids: readonly number[] | undefined } | undefined;
  /** Whether the word right after a preposition may be a verb or interjection (default: yes). */
  verbAfterPreposition?(preposition: string): boolean;
  /** The cases an open-class word's ending leaves (`name`: a capitalised word inside the line). */
  endingCases?(lower: string, name?: boolean): EndingCases | undefined;
  /** The labels left to an open-class word the closed-class table does not list and no dictionary covers, by its ending and neighbours. */
  openClassLabels?(t: TaggerView, words: readonly string[], lower: readonly string[], i: number, ids: readonly number[] | undefined): readonly number[] | undefined;

  // --- re-reading with the lexicons (src/annotate/reread.ts)
  /** Object clitic pronouns, after which a line with no verb has its verb. */
  readonly objectClitics?: ReadonlySet<string>;
  /** The noun lexicon tells an article homograph + noun from a clitic + verb where nothing else does. */
  readonly nounLexiconTellsArticle?: boolean;
  /** Object clitics are homographs of articles (le, la, lo, o, a). */
  readonly articleClitics?: boolean;
  /** Lemmas the treebanks tag AUX; a word tagged AUX whose lemmas are none of them is re-read as VERB. */
  readonly auxLemmas?: ReadonlySet<string>;
  /** Words only a verb (or another clitic) can follow: a NOUN/ADJ after them that is a finite verb form is the verb. */
  readonly verbAfter?: ReadonlySet<string>;
  /** Nouns are capitalised: a capitalised word inside the line is not re-read as a verb. */
  readonly capitalisedNouns?: boolean;
  /** Words right before which an article homograph is the object clitic. */
  readonly beforeClitic?: ReadonlySet<string>;
  /** How a word after an object clitic's article homograph tagged DET is read (default: only in lines without a verb). */
  homographVerb?(c: HomographContext): HomographReading;
  /** The verb source's own word list, not the noun lexicon, tells a noun after a determiner. */
  readonly wordListNouns?: boolean;

  // --- the passes, in order
  /** Passes over the labels after the first tagging. */
  readonly labelPasses: readonly LabelPass[];
  /** Features of a noun the noun lexicon left alone (es *el arma*: feminine). */
  nounFeats?(lemma: string, feats: Record<string, string>): void;
  /** Passes over the tagged words at the end. */
  readonly wordPasses?: readonly WordPass[];

  // --- the re-reading after alignment (src/annotate/aligned-retag.ts)
  /** Whether a word can be a common noun by the language's lexicons (the tagger checks the closed-class table and length first). */
  knownNoun?(t: TaggerView, lower: string): boolean;
  /** Whether a word is only a finite verb form, for a language without a verb lexicon. */
  verbOnlyWithoutLexicon?(t: TaggerView, word: string, lower: string): boolean;
  /** Passes over a document's target sentences after alignment, in order. */
  readonly alignmentPasses?: readonly AlignmentPass[];
}

/** The part of speech of a joint tagger label ("NOUN|Gender=Fem|Number=Sing" -> "NOUN"). */
export function labelUpos(label: string): string {
  const k = label.indexOf("|");
  return k < 0 ? label : label.slice(0, k);
}
