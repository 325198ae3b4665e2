/**
 * The morphological annotator: tokenizer + joint UPOS/FEATS tagger + lemmatiser + closed-class tables,
 * trained on UD treebanks (scripts/train-morph.ts) and shipped as data/models/morph-<lang>.json.gz.
 */
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { AnnSentence, AnnToken, MorphAnnotator } from "./types.js";
import { InputError } from "../io/errors.js";
import { readText } from "../io/lines.js";
import { surfaceTokens, type UdSentence, type UdWord } from "./conllu.js";
import { closedClassTable, type Analysis, type ClosedClassTable } from "./closed-class.js";
import { Lemmatizer, trainLemmatizer, type LemmatizerModel } from "./lemmatizer.js";
import { makeLabel, splitLabel, Tagger, TAG_FEATS, trainTagger, type TaggerModel, type TrainOptions, type TrainSentence } from "./tagger.js";
import { TenseTagger, trainTense, type TenseModel } from "./tense.js";
import { ptFiniteVerb, ptNumberClash, ptVerbEnding } from "./pt-verbs.js";
import { isSupportedLang, splitEnclitics, tokenize, type Lang, type Token, type TokenizerLexicon } from "./tokenize.js";
import { applyNounLexicon, ES_STRESSED_A_FEMININE, nounLexicon, spanishNominalForms, unmarkedNounLexicon, type NounLexicon } from "./lexicons.js";
import { germanVerbCells, VERB_LEXICON_LANGS, verbLexicon, type VerbLexicon } from "./verb-lexicons.js";
import { azLabelTest, RU_PREPOSITION_CASES } from "./russian-az.js";
import { PL_PREPOSITION_CASES, plDativeVerb, plEndingCases, type PlEnding } from "./polish.js";

/** Parts of speech after a possessive *jej* (its noun phrase). */
const PL_POSSESSED = new Set(["NOUN", "PROPN", "ADJ", "NUM", "DET"]);
/** Polish dative-only personal pronouns (with one of them in the clause, *jej* is not the dative object). */
const PL_DATIVE_PRONOUNS = new Set(["mi", "mu", "ci", "nam", "wam", "im", "jemu", "tobie", "sobie", "niemu"]);

export const MORPH_FORMAT = "proneval-morph/1";

const GERMAN_NOM_PRONOUNS: ReadonlySet<string> = new Set(["ich", "du", "er", "wir"]);
/**
 * Spanish words after which *la, lo, las, los* before a word that only the verb lexicon knows are object
 * clitics: negation and a few adverbs, "si", subject pronouns.
 */
const ES_BEFORE_CLITIC: ReadonlySet<string> = new Set(
  "no nunca jamás ya también tampoco si yo tú él ella usted nosotros nosotras vosotros vosotras ellos ellas ustedes".split(" "),
);
/** Spanish future and conditional endings, and the forms of *haber*: only verbs end so (lever 13g). */
const ES_VERB_ONLY = /^(?:.{2,}(?:ré|rás|rá|remos|réis|rán|ría|rías|ríamos|rían)|he|has|ha|hemos|han|había|habías|habíamos|habían|haya|hayas|hayamos|hayan|hubiera|hubieras|hubieran)$/;
/**
 * Spanish (issue 24, lever 20a): whether the article's own agreement rules out reading an object-clitic
 * homograph (*la, lo, las, los*) as the article of the word after it, which the verb lexicon knows as a
 * finite form (`lemmas`). "plural": *los, las* before a form without a final -s, which no noun phrase
 * has ("los dejo", "las avise", "que los arreste"); "shape": a form whose ending only verbs have for that
 * lemma: the present subjunctive (-ar verbs *-e, -en*: "que la ayude", "la acompañe"; -er/-ir verbs
 * *-a, -an*: "que la proteja", "la vea"), the imperfect subjunctive *-ara, -aran, -ase, -asen* ("que la
 * ayudara"), a third person plural (*-n*: nouns pluralise with -s) and, after *la, lo*, the first person
 * singular present (*-o*: "la felicito", "la desposo"; nouns after *la* are feminine). Left out: the
 * third person singular present indicative ("la reforma", "la demanda", "la parte"), which deverbal
 * nouns share and dictionary-es's word list often lacks; the caller still applies the noun check to "shape".
 */
function esAgreementClitic(article: string, form: string, lemmas: readonly string[]): "plural" | "shape" | undefined {
  if (article !== "la" && article !== "lo" && article !== "las" && article !== "los") return undefined;
  if (form.length < 3) return undefined;
  if ((article === "las" || article === "los") && !form.endsWith("s")) return "plural";
  if (/(?:ara|aran|ase|asen)$/.test(form) && lemmas.some((l) => l.endsWith("ar"))) return "shape";
  if (/n$/.test(form)) return "shape";
  if (/e$/.test(form) && lemmas.some((l) => l.endsWith("ar"))) return "shape";
  if (/a$/.test(form) && lemmas.some((l) => l.endsWith("er") || l.endsWith("ir") || l.endsWith("ír"))) return "shape";
  if (/o$/.test(form) && (article === "la" || article === "lo")) return "shape";
  return undefined;
}
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
/** German prepositions that govern only the dative, or only the accusative (two-way ones left out). */
const GERMAN_DAT_PREPS: ReadonlySet<string> = new Set(["mit", "von", "zu", "bei", "aus", "nach", "seit", "gegenüber", "außer", "entgegen"]);
const GERMAN_ACC_PREPS: ReadonlySet<string> = new Set(["für", "durch", "gegen", "ohne", "um", "wider"]);
/**
 * German verbs whose personal object is a dative (intransitive *helfen, danken, glauben, ...*, and the person
 * of the common ditransitives *geben, sagen, zeigen, erzählen, ...*); verbs that take either (*bringen, schicken,
 * machen*) are left out. Lemmas as our lemmatiser gives them.
 */
const GERMAN_DAT_VERBS: ReadonlySet<string> = new Set(
  ("helfen danken sagen geben zeigen erzählen glauben gefallen folgen gehören vertrauen antworten versprechen erklären " +
    "schreiben passieren geschehen fehlen gratulieren begegnen drohen schmecken wünschen empfehlen raten verzeihen " +
    "schulden leihen schenken anbieten mitteilen erlauben verbieten gelingen nützen schaden zuhören zusehen zuschauen " +
    "widersprechen beibringen verraten tun wehtun gönnen ausrichten bieten besorgen vergeben versichern dienen gewähren " +
    "ersparen vorlesen gehen").split(" "),
);

/** Object clitic pronouns, which are followed by a finite verb (see MorphTagger.verbAfterClitic). */
const OBJECT_CLITICS: Record<string, ReadonlySet<string>> = {
  es: new Set(["me", "te", "se", "nos", "os", "lo", "la", "le", "los", "las", "les"]),
  it: new Set(["mi", "ti", "ci", "vi", "si", "lo", "la", "li", "le", "gli", "ne", "me", "te", "glielo", "gliela"]),
  fr: new Set(["me", "te", "se", "le", "la", "les", "lui", "leur", "y", "en", "m'", "t'", "s'", "l'"]),
  pt: new Set(["me", "te", "se", "o", "a", "os", "as", "lhe", "lhes", "nos", "vos"]),
};

/** Words after which an article homograph (le, la, lo, o, a) is the object clitic: negations, French subject pronouns. */
const BEFORE_CLITIC: ReadonlySet<string> = new Set(["no", "non", "não", "ne", "n'", "nao", "je", "j'", "tu", "il", "elle", "on", "nous", "vous", "ils", "elles"]);

/** Tags under which verbOnlyForms looks for verb forms (NOUN_TAGS where the verb source lists verbs only). */
const VERB_HIDING_TAGS: ReadonlySet<string> = new Set(["NOUN", "ADJ", "ADV", "PRON", "DET", "X", "INTJ"]);
const NOUN_TAGS: ReadonlySet<string> = new Set(["NOUN"]);

/**
 * Lemmas the treebanks tag AUX (UD guidelines: tense/voice auxiliaries, copulas and, in these
 * treebanks, modals); a word tagged AUX whose verb-lexicon lemmas are none of them is re-read as VERB.
 */
const AUX_LEMMAS: Record<string, ReadonlySet<string>> = {
  es: new Set(["ser", "estar", "haber", "poder", "deber", "soler", "ir", "tener", "querer"]),
  it: new Set(["essere", "avere", "stare", "potere", "dovere", "volere", "venire", "andare", "sapere"]),
  fr: new Set(["être", "avoir", "pouvoir", "devoir", "faire", "aller", "venir", "vouloir", "savoir"]),
  de: new Set(["sein", "haben", "werden", "können", "müssen", "sollen", "wollen", "dürfen", "mögen", "lassen"]),
  ru: new Set(["быть"]),
};

/** French words only a verb (or another clitic) can follow: subject pronouns, "ne", non-article clitics. */
const FR_BEFORE_VERB: ReadonlySet<string> = new Set(["je", "j'", "tu", "il", "elle", "on", "nous", "vous", "ils", "elles", "ne", "n'", "me", "m'", "te", "t'", "se", "s'", "lui", "leur", "y"]);

/**
 * Spanish endings of finite verbs that nouns hardly have (preterite, future, conditional, imperfect, 1st
 * person plural; a form must also be a verb form by the verb lexicon): after an object clitic's article homograph they mark the verb ("la abriré", "la
 * mantuvo", "la cargaste", "la daría"); the 1st/3rd singular present ("la reforma", "la demanda") is
 * shared with deverbal nouns and is left out (lever 14).
 */
const SPANISH_VERB_ENDING = /(?:[éó]|uvo|ijo|izo|upo|aste|iste|asteis|isteis|amos|emos|imos|aron|ieron|rás|rá|rán|réis|ría|rías|rían|ríamos|ríais|aba|abas|aban|ábamos|ías|ían|ieras|ieran|iera|iese|iesen)$/;
/** Present forms of *haber*: after a clitic homograph always the auxiliary ("no la he visto", "la has leído"). */
const HABER_FORMS: ReadonlySet<string> = new Set(["he", "has", "ha", "hemos", "habéis", "han", "haya", "hayas", "hayan", "había", "habías", "habían", "habría"]);
/**
 * Words right before which an article homograph is the object clitic: negations, non-article clitics
 * (the first of a cluster: "te la di", "me la ricordo"), subject and wh- pronouns ("yo la presto",
 * "quién la hizo", "che tu lo ascolti").
 */
const BEFORE_CLITIC_STRONG: Record<string, ReadonlySet<string>> = {
  es: new Set(["no", "nunca", "jamás", "me", "te", "se", "nos", "os", "yo", "tú", "él", "ella", "usted", "nosotros", "vosotros", "ellos", "ellas", "ustedes", "quién", "quien", "quiénes", "alguien", "nadie"]),
  it: new Set(["non", "me", "te", "ce", "ve", "glie", "io", "tu", "lui", "noi", "voi", "chi", "qualcuno", "nessuno"]),
};

/** Whether the token before an article homograph at `k` makes it the object clitic (BEFORE_CLITIC_STRONG). */
function cliticContext(lang: string, lower: readonly string[], pos: readonly string[], k: number): boolean {
  const set = BEFORE_CLITIC_STRONG[lang];
  return set !== undefined && k > 0 && set.has(lower[k - 1]!) && pos[k - 1] !== "DET" && pos[k - 1] !== "ADP";
}

/** The part of speech of a joint tagger label ("NOUN|Gender=Fem|Number=Sing" -> "NOUN"). */
function labelUpos(label: string): string {
  const k = label.indexOf("|");
  return k < 0 ? label : label.slice(0, k);
}

/** Portuguese object clitics that are also articles or the preposition *a* (MorphTagger.portugueseClitics). */
const PT_CLITIC_HOMOGRAPHS: ReadonlySet<string> = new Set(["o", "a", "os", "as"]);
/**
 * Prepositions, negations and the conjunctions of the future subjunctive (which has the infinitive's shape: "assim que o
 * conseguires") after which *o, a, os, as* before an infinitive-shaped verb is the clitic ("para os divulgar"; lever 34).
 */
const PT_BEFORE_INFINITIVE_CLITIC: ReadonlySet<string> = new Set(["para", "de", "sem", "por", "até", "após", "não", "nunca", "que", "se", "quando"]);
/** Words after which a Portuguese article homograph is the clitic: negations and subject pronouns. */
const PT_BEFORE_CLITIC: ReadonlySet<string> = new Set(["não", "nunca", "jamais", "eu", "tu", "ele", "ela", "nós", "vós", "eles", "elas", "você", "vocês"]);

/**
 * English *it* (Nom or Acc by form) tagged Nom right after a lexical verb or a preposition and not
 * followed by a verb is the object: Acc ("your brother had/VERB it?", "loves it so", "bite it off",
 * "looked after it but"); before a verb it may be an embedded subject and keeps its tag ("I think it
 * is"); after an auxiliary it is the inverted subject ("Is it?"). The tagger, trained on news, put many
 * such objects in Nom (lever 14h: the CTXPRO Italian and Spanish ACC rules require English Acc).
 */
const EN_AFTER_OBJECT = new Set(["VERB", "ADP", "SCONJ"]);
const EN_VERBAL = new Set(["VERB", "AUX"]);
function englishItCase(lower: readonly string[], out: Tagged[]): void {
  for (let i = 1; i < out.length; i++) {
    if (lower[i] !== "it" || out[i]!.upos !== "PRON" || out[i]!.feats.Case !== "Nom") continue;
    if (!EN_AFTER_OBJECT.has(out[i - 1]!.upos)) continue;
    if (i + 1 < out.length && EN_VERBAL.has(out[i + 1]!.upos)) continue;
    out[i] = { ...out[i]!, feats: { ...out[i]!.feats, Case: "Acc" } };
  }
}

/** Languages whose object clitics are homographs of articles (see MorphTagger.redecideClitics). */
const CLITIC_LANGS = new Set(["es", "it", "pt", "fr"]);

export interface MorphModel {
  format: string;
  lang: string;
  /** Where the model came from (treebanks, token count), for the record. */
  trainedOn: string;
  tagger: TaggerModel;
  /** Tense of VERB/AUX words (src/annotate/tense.ts); absent in models trained before it existed. */
  tense?: TenseModel;
  lemmatizer: LemmatizerModel;
  tokenizer: { contractions: Record<string, string[]>; plain: string[]; verbs: string[] };
}

/** One tagged syntactic word. */
interface Tagged {
  upos: string;
  lemma: string;
  feats: Record<string, string>;
}

/** Forms of Polish *być* (be) that a predicate noun or adjective follows. */
const PL_BYC = new Set(["być", "jest", "są", "jestem", "jesteś", "jesteśmy", "jesteście", "był", "była", "było", "byli", "były", "byłem", "byłam", "byłeś", "byłaś", "byliśmy", "byłyśmy", "byliście", "byłyście", "będzie", "będą", "będę", "będziesz", "będziemy", "będziecie", "bądź", "bądźcie", "byłby", "byłaby", "byłoby", "byliby", "byłyby", "zostać", "został", "została", "zostanie", "zostaniesz"]);

const PL_YM_CASES: readonly string[] = ["Ins", "Loc", "Dat"];
/** Words in *-ym, -im* that are no adjective form: the conjunction *zanim* and nouns whose nominative ends so. */
const PL_YM_NOT = new Set(["zanim", "pielgrzym", "olbrzym", "synonim", "antonim", "homonim", "pseudonim", "anonim", "akronim", "toponim", "reżim"]);
/**
 * Polish: whether word k is an adjectival modifier in *-ym, -im* (4 letters or more: *jakim, twoim, nowym,
 * wielkim*; not *tym, nim*), whose noun right after it agrees in the instrumental, locative or dative (lever
 * 22d: "Jakim planie?" Loc, not *planie/NOUN|Neut|Acc*). Not a capitalised word after the line's first word
 * (names: *Joachim*, *Hakim*), not *zanim* nor a noun in *-ym, -im* (*pseudonim, pielgrzym*; PL_YM_NOT), not an
 * active participle in *-ącym, -ącim*, which takes its own object (*otaczającym fort*, *niosącym pomoc*). UD
 * Polish-LFG dev+test: 122 nouns after a word in *-ym, -im*, 4 in another case, 3 of them after *-ącym*; without
 * those, 1 of 109 (*w lutym emisje*, the noun *luty*).
 */
function plYmModifier(words: readonly string[], lower: readonly string[], k: number): boolean {
  const w = lower[k]!;
  if (!/^\p{Ll}{2,}[yi]m$/u.test(w) || /ąc[yi]m$/.test(w) || PL_YM_NOT.has(w)) return false;
  return !/^\p{Lu}/u.test(words[k]!) || !words.slice(0, k).some((x) => /\p{L}/u.test(x));
}

/** Re-tagging a sentence with what the caller knows of some words (identify, lever 19). */
export interface RetagOptions {
  /** Words that head or modify a noun phrase: nominal labels only (lever 19a). */
  nominal?: ReadonlySet<number>;
  /** Names in their base form: PROPN in the nominative (lever 19j). */
  names?: ReadonlySet<number>;
  /**
   * Singular nouns whose ending leaves the dative, locative or vocative (lever 22a, identify's obliqueNouns):
   * NOUN/PROPN singular masculine or feminine labels in the dative or vocative.
   */
  oblique?: ReadonlySet<number>;
  /**
   * Words the alignment renders as an English common noun and the noun lexicon knows as nouns (lever 29,
   * identify's alignedNouns): NOUN labels only.
   */
  nouns?: ReadonlySet<number>;
  /**
   * Article homographs of object clitics that the word alignment reads as the clitic (lever 28, identify's
   * alignedClitics): PRON labels in the accusative; the next word, when the verb lexicon knows it as a verb,
   * VERB/AUX labels.
   */
  clitics?: ReadonlySet<number>;
}

/** Parts of speech whose case an adjectival ending decides (plEndingCases' `adjectival`). */
const ADJECTIVAL_UPOS = new Set(["ADJ", "DET", "NUM", "PRON"]);
/** Parts of speech of a noun phrase's words (MorphTagger.tagWords' `nominal`). */
const NOMINAL_UPOS = new Set(["NOUN", "PROPN", "PRON", "ADJ", "DET", "NUM"]);
/** Parts of speech of a word with no case (plEndingCases' `noCase`, lever 22b). */
const NO_CASE_UPOS = new Set(["ADV", "PART", "INTJ", "CCONJ", "SCONJ"]);

export class MorphTagger implements MorphAnnotator {
  readonly lang: string;
  private readonly tagger: Tagger;
  private readonly tense: TenseTagger | undefined;
  private readonly lemmatizer: Lemmatizer;
  private readonly table: ClosedClassTable;
  /** The tokenizer's learned lexicon (contractions, unsplittable words, verb forms). */
  readonly lexicon: TokenizerLexicon;
  /** lowercase closed-class form -> label indices of its analyses present in the label set. */
  private readonly allowed = new Map<string, number[]>();
  /** Noun lexicon correcting the Gender (German also Number, Case) of tokens tagged NOUN. */
  private nounLexicon: NounLexicon | undefined;
  /** Loads the lexicon on first use (German: 0.8 s, 100 MB; see loadNouns). */
  private nounLoader: (() => NounLexicon | undefined) | undefined;
  get nouns(): NounLexicon | undefined {
    if (this.nounLoader) {
      this.nounLexicon = this.nounLoader();
      this.nounLoader = undefined;
    }
    return this.nounLexicon;
  }
  set nouns(lex: NounLexicon | undefined) {
    this.nounLexicon = lex;
    this.nounLoader = undefined;
  }
  /**
   * The noun lexicon decides a noun's gender only where no determiner before it (across adjectives and
   * numerals) shows one (lever 31, Spanish): the tagger reads the gender off *el / la / un / esta*, and is
   * mostly right there, but guesses it after *su, mi*, a preposition or nothing ("su coche/Fem", "Mi
   * pene/Fem"), where the ending usually settles it (lexicons.ts spanishGenderByEnding).
   */
  lexiconWhereUnmarked = false;
  private genderMarked(labels: readonly string[], i: number): boolean {
    for (let j = i - 1; j >= 0; j--) {
      const { upos, feats } = this.parseLabel(labels[j]!);
      if (upos === "ADJ" || upos === "NUM") continue;
      return upos === "DET" && feats.Gender !== undefined;
    }
    return false;
  }
  /** Sets a lexicon to load on first use. */
  lazyNouns(load: () => NounLexicon | undefined): void {
    this.nounLoader = load;
  }
  /** Hands a corpus's words to a noun lexicon that analyses them in one batch (Apertium), if it is one. */
  prefetchNouns(words: Iterable<string>): void {
    this.nouns?.prefetch?.(words);
  }
  /** Loads pending lexicons (nouns and verbs) now (identify calls it while the aligner trains). */
  loadNouns(): void {
    void this.nouns;
    void this.verbs;
  }
  /**
   * A dictionary's word -> test on (UPOS, Case) that restricts the tagger's labels for words outside the
   * closed-class table (Russian: az, see russian-az.ts azLabelTest); set by loadDefaultMorph.
   */
  labelTest: ((word: string) => ((upos: string, kase: string | undefined) => boolean) | undefined) | undefined;
  /**
   * Cases a preposition governs (Russian: RU_PREPOSITION_CASES), applied with labelTest to the word right
   * after it or after one modifier the dictionary knows as an adjective/determiner ("о вашей машине").
   */
  prepositionCases: ReadonlyMap<string, readonly string[]> | undefined;
  private readonly lexiconAllowedCache = new Map<string, number[] | null>();
  /**
   * The locative (Russian prepositional, Polish miejscownik) occurs only after a preposition that governs
   * it, except where the preposition itself is elided in a verb-less fragment (pl "Albo wujkach." after
   * "o lepszych rodzicach": the inflection phenomenon itself). So in a line tagged with a verb, a word
   * tagged Loc with none of those prepositions among the four words before it (not across punctuation)
   * makes the line be tagged again without Loc labels there, when a case-bearing one is left
   * (ru "Мне нравится" Dat, not Loc). Only where prepositionCases is set.
   */
  private strayLocative(lower: readonly string[], labels: readonly string[]): boolean {
    let verb = false;
    let stray = false;
    labels.forEach((l, i) => {
      const { upos, feats } = this.parseLabel(l);
      if (upos === "VERB" || upos === "AUX") verb = true;
      if (feats.Case === "Loc" && !this.locativePreposition(lower, i)) stray = true;
    });
    return verb && stray;
  }
  private locativePreposition(lower: readonly string[], i: number): boolean {
    for (let k = i - 1; k >= 0 && k >= i - 4; k--) {
      const w = lower[k]!;
      if (!/[\p{L}\p{N}]/u.test(w)) break;
      if (this.prepositionCases!.get(w)?.includes("Loc")) return true;
    }
    return false;
  }
  private locIds: { loc: Set<number>; cased: Set<number> } | undefined;
  private noLocative(lower: readonly string[], i: number, ids: readonly number[] | undefined): readonly number[] | undefined {
    if (this.locativePreposition(lower, i)) return ids;
    if (!this.locIds) {
      const loc = new Set<number>();
      const cased = new Set<number>();
      this.tagger.labels.forEach((l, k) => {
        const c = this.parseLabel(l).feats.Case;
        if (c !== undefined) cased.add(k);
        if (c === "Loc") loc.add(k);
      });
      this.locIds = { loc, cased };
    }
    const { loc, cased } = this.locIds;
    const from = ids ?? this.allLabelIds();
    if (!from.some((k) => loc.has(k))) return ids;
    const kept = from.filter((k) => !loc.has(k));
    return kept.some((k) => cased.has(k)) || !ids ? kept : ids;
  }
  private allIds: number[] | undefined;
  private allLabelIds(): number[] {
    this.allIds ??= this.tagger.labels.map((_, k) => k);
    return this.allIds;
  }
  /** Label indices the closed-class table or else the dictionary (labelTest) allows for word i. */
  private allowedFor(words: readonly string[], lower: readonly string[], i: number): readonly number[] | undefined {
    if (this.lang === "ru" && this.labelTest && lower[i] === "нет" && answerNo(words, i)) return this.particleLabels();
    const own = this.allowed.get(lower[i]!);
    // Without a dictionary (Polish), a preposition alone restricts the next word's case-bearing labels.
    if (own || !this.labelTest) {
      const ids = this.prepositionOnly(words, lower, i, own);
      if (own || !this.endingCases) return ids;
      let byEnding = this.byEnding(lower[i]!, ids, i > 0 && /^\p{Lu}/u.test(words[i]!));
      if (i > 0 && plYmModifier(words, lower, i - 1)) byEnding = this.nounCases(byEnding, PL_YM_CASES);
      // Polish: a word in *-ą* right after a form of *być* is the predicate's instrumental (or accusative),
      // not a third-person plural verb ("jesteście drużyną/VERB", "być ofiarą/VERB"; lever 19m).
      return i > 0 && PL_BYC.has(lower[i - 1]!) && /\p{Ll}{3,}ą$/u.test(lower[i]!) ? this.withoutVerbLabels(byEnding) : byEnding;
    }
    const word = words[i]!;
    const gov = this.governingCases(words, lower, i);
    const key = gov ? `${gov.join(",")}\t${word}` : word;
    let ids = this.lexiconAllowedCache.get(key);
    if (ids === undefined) {
      const test = this.labelTest(word);
      ids = null;
      if (test || gov) {
        const fits = (ok: (upos: string, kase: string | undefined) => boolean) =>
          this.tagger.labels.map((l, k) => {
            const { upos, feats } = this.parseLabel(l);
            return ok(upos, feats.Case) ? k : -1;
          }).filter((k) => k >= 0);
        const inDict = (u: string, c: string | undefined) => !test || test(u, c);
        let ok = fits((u, c) => inDict(u, c) && (!gov || c === undefined || gov.includes(c)));
        // No reading with a case left although the dictionary has some ("на берегу": az knows
        // *берегу* as dative only, and the verb would win): the dictionary alone.
        if (gov && !ok.some((k) => this.parseLabel(this.tagger.labels[k]!).feats.Case !== undefined)) ok = fits(inDict);
        if (ok.length) ids = ok;
      }
      if (this.lexiconAllowedCache.size > 100_000) this.lexiconAllowedCache.clear();
      this.lexiconAllowedCache.set(key, ids);
    }
    return ids ?? undefined;
  }

  /**
   * The cases an open-class word's ending leaves (Polish: plEndingCases, lever 19b); undefined: none known.
   * Set by loadDefaultMorph.
   */
  endingCases: ((lower: string, name?: boolean) => PlEnding | undefined) | undefined;
  private readonly endingCache = new WeakMap<readonly number[], Map<string, readonly number[] | null>>();
  /**
   * `ids` (all labels when undefined) less the case-bearing labels whose Case the word's ending rules out, when a
   * case-bearing one is left; `name`: a capitalised word inside the line. A word with no case (lever 22b) keeps
   * its adverb, particle, interjection and conjunction labels (`ids` unchanged if none is left).
   */
  private byEnding(lower: string, ids: readonly number[] | undefined, name = false): readonly number[] | undefined {
    const rule = this.endingCases!(lower, name);
    if (!rule) return ids;
    const { cases, adjectival, notAdj, noVerb, sing, noCase } = rule;
    const from = ids ?? this.allLabelIds();
    let byCases = this.endingCache.get(from);
    if (!byCases) this.endingCache.set(from, (byCases = new Map()));
    const singKey = sing?.map((r) => `${r.upos.join(",")}/${r.genders.join(",")}/${r.cases.join(",")}/${r.anyNumber ? "n" : ""}`).join(";") ?? "";
    const key = `${cases.join(",")}${adjectival ? "\tadj" : ""}${notAdj ? "\tnotadj" : ""}${noVerb ? "\tnoverb" : ""}\t${singKey}${noCase ? "\tnocase" : ""}`;
    let out = byCases.get(key);
    if (out === undefined) {
      if (noCase) {
        const kept = from.filter((k) => NO_CASE_UPOS.has(this.parseLabel(this.tagger.labels[k]!).upos));
        out = kept.length ? kept : null;
      } else {
        const caseOf = (k: number) => this.parseLabel(this.tagger.labels[k]!).feats.Case;
        const scoped = (k: number) => {
          const u = this.parseLabel(this.tagger.labels[k]!).upos;
          return adjectival ? ADJECTIVAL_UPOS.has(u) : notAdj ? u !== "ADJ" : true;
        };
        // Lever 22a: a singular noun label of a gender the ending restricts keeps only the cases it leaves.
        const singOk = (k: number) => {
          if (!sing) return true;
          const { upos, feats } = this.parseLabel(this.tagger.labels[k]!);
          if (feats.Case === undefined) return true;
          const sg = feats.Number === "Sing";
          return sing.every((r) => !(sg || r.anyNumber) || !r.upos.includes(upos) || !r.genders.includes(feats.Gender ?? "") || r.cases.includes(feats.Case!));
        };
        const verb = (k: number) => /^(VERB|AUX)(\||$)/.test(this.tagger.labels[k]!);
        const kept = from.filter((k) => (caseOf(k) === undefined ? !(noVerb && verb(k)) : (!scoped(k) || cases.includes(caseOf(k)!)) && singOk(k)));
        out = kept.some((k) => caseOf(k) !== undefined) ? kept : null;
      }
      byCases.set(key, out);
    }
    return out ?? ids;
  }

  private readonly nounCaseCache = new WeakMap<readonly number[], Map<string, readonly number[] | null>>();
  /** `ids` (all labels when undefined) less the NOUN/PROPN labels whose Case is not in `cases`, when a NOUN/PROPN label with a case is left. */
  private nounCases(ids: readonly number[] | undefined, cases: readonly string[]): readonly number[] | undefined {
    const from = ids ?? this.allLabelIds();
    let byKey = this.nounCaseCache.get(from);
    if (!byKey) this.nounCaseCache.set(from, (byKey = new Map()));
    const key = cases.join(",");
    let out = byKey.get(key);
    if (out === undefined) {
      const noun = (k: number) => {
        const { upos, feats } = this.parseLabel(this.tagger.labels[k]!);
        return (upos === "NOUN" || upos === "PROPN") && feats.Case !== undefined ? feats.Case : undefined;
      };
      const kept = from.filter((k) => {
        const c = noun(k);
        return c === undefined || cases.includes(c);
      });
      out = kept.some((k) => noun(k) !== undefined) ? kept : null;
      byKey.set(key, out);
    }
    return out ?? ids;
  }

  private readonly noVerbCache = new WeakMap<readonly number[], readonly number[]>();
  /** `ids` (all labels when undefined) less VERB and AUX labels (unchanged if nothing else is left). */
  private withoutVerbLabels(ids: readonly number[] | undefined): readonly number[] | undefined {
    const from = ids ?? this.allLabelIds();
    let out = this.noVerbCache.get(from);
    if (!out) {
      out = from.filter((k) => !/^(VERB|AUX)(\||$)/.test(this.tagger.labels[k]!));
      this.noVerbCache.set(from, out);
    }
    return out.length ? out : ids;
  }

  private readonly govCache = new Map<string, number[] | null>();
  /**
   * The labels (the closed-class table's, or all) whose Case a governing preposition allows, plus those
   * without a case, when some case-bearing one is left; else `own` unchanged. Only where a language sets
   * prepositionCases and the word is a closed-class word or has no dictionary (labelTest): "od niego" Gen,
   * "у меня" Gen.
   */
  private prepositionOnly(words: readonly string[], lower: readonly string[], i: number, own: readonly number[] | undefined): readonly number[] | undefined {
    const gov = this.governingCases(words, lower, i);
    if (!gov) return own;
    const key = `${gov.join(",")}\t${own ? lower[i] : ""}\t${this.lang === "pl" && lower[i - 1] === "ze" ? "ze" : ""}`;
    let ids = this.govCache.get(key);
    if (ids === undefined) {
      const from = own ?? this.tagger.labels.map((_, k) => k);
      const cased = from.filter((k) => {
        const c = this.parseLabel(this.tagger.labels[k]!).feats.Case;
        return c !== undefined && gov.includes(c);
      });
      // Polish: no verb or interjection right after a preposition either (lever 19f: "Bez nadziei/INTJ",
      // "z morale/VERB"); verbal nouns (*do zobaczenia*) are NOUN in UD. Not after *ze*, which subtitles
      // written without diacritics use for *że* ("Chyba ze przejdzie").
      const noVerb = this.lang === "pl" && lower[i - 1] !== "ze";
      const caseless = (k: number) => this.parseLabel(this.tagger.labels[k]!).feats.Case === undefined && !(noVerb && /^(VERB|AUX|INTJ)(\||$)/.test(this.tagger.labels[k]!));
      ids = cased.length ? from.filter((k) => caseless(k) || cased.includes(k)) : null;
      this.govCache.set(key, ids);
    }
    return ids ?? own;
  }

  private partIds: number[] | undefined;
  private particleLabels(): number[] | undefined {
    this.partIds ??= this.tagger.labels.map((l, k) => (l === "PART" || l.startsWith("PART|") ? k : -1)).filter((k) => k >= 0);
    return this.partIds.length ? this.partIds : undefined;
  }

  private governingCases(words: readonly string[], lower: readonly string[], i: number): readonly string[] | undefined {
    const preps = this.prepositionCases;
    // Words without letters (digits: "по 3") keep the tagger's own choice.
    if (!preps || i === 0 || !/\p{L}/u.test(words[i]!)) return undefined;
    const direct = preps.get(lower[i - 1]!);
    if (direct) return direct;
    if (i < 2) return undefined;
    const before = preps.get(lower[i - 2]!);
    if (!before) return undefined;
    const mod = this.labelTest?.(words[i - 1]!);
    return mod && (mod("ADJ", undefined) || mod("DET", undefined)) ? before : undefined;
  }
  /** Verb lexicon (form -> infinitives) for lemmatising verb forms the lemmatiser has no exception for. */
  private verbLexicon: VerbLexicon | undefined;
  private verbLoader: (() => VerbLexicon | undefined) | undefined;
  get verbs(): VerbLexicon | undefined {
    if (this.verbLoader) {
      this.verbLexicon = this.verbLoader();
      this.verbLoader = undefined;
    }
    return this.verbLexicon;
  }
  set verbs(lex: VerbLexicon | undefined) {
    this.verbLexicon = lex;
    this.verbLoader = undefined;
  }
  /** Sets a verb lexicon to build on first use. */
  lazyVerbs(load: () => VerbLexicon | undefined): void {
    this.verbLoader = load;
  }

  /** label -> its index in the tagger's label list. */
  private readonly labelIndex: Map<string, number>;

  constructor(readonly model: MorphModel) {
    if (model.format !== MORPH_FORMAT) throw new InputError(`not a ${MORPH_FORMAT} model (format '${model.format}')`);
    if (!isSupportedLang(model.lang)) throw new InputError(`unsupported language '${model.lang}'`);
    this.lang = model.lang;
    this.tagger = new Tagger(model.tagger);
    this.labelIndex = new Map(this.tagger.labels.map((l, i) => [l, i]));
    this.tense = model.tense ? new TenseTagger(model.tense, this.tagger.labels) : undefined;
    this.lemmatizer = new Lemmatizer(model.lemmatizer, model.lang);
    this.table = closedClassTable(model.lang);
    this.lexicon = {
      contractions: new Map(Object.entries(model.tokenizer.contractions)),
      plain: new Set(model.tokenizer.plain),
      verbs: new Set(model.tokenizer.verbs),
    };
    const index = this.labelIndex;
    // A table form is held to its analyses for the parts of speech the table lists; other parts of
    // speech stay open (German "ihr" as a possessive determiner is not in the pronoun table).
    for (const [form, analyses] of this.table) {
      const ids = analyses.map((a) => index.get(makeLabel(a.upos, a.feats))).filter((x): x is number => x !== undefined);
      if (!ids.length) continue;
      const listed = new Set(analyses.map((a) => a.upos));
      this.tagger.labels.forEach((l, i) => {
        if (!listed.has(labelUpos(l))) ids.push(i);
      });
      this.allowed.set(form, [...new Set(ids)]);
    }
  }

  /** The FEATS this model predicts: the joint label's, plus Tense when it has a tense model. */
  get predictedFeats(): ReadonlySet<string> {
    return new Set<string>([...TAG_FEATS, ...(this.tense ? ["Tense"] : [])]);
  }

  tokenize(sentence: string): Token[] {
    return tokenize(sentence, this.lang as Lang, this.lexicon);
  }

  annotate(sentence: string, opts: RetagOptions = {}): AnnSentence {
    const toks = this.tokenize(sentence);
    const tagged = this.tagWords(toks.map((t) => t.text), opts);
    const tokens: AnnToken[] = toks.map((t, i) => ({ text: t.text, start: t.start, end: t.end, ...tagged[i]! }));
    return { text: sentence, tokens };
  }

  /** Tags already tokenised words (used for evaluation on gold tokenisation). */
  tagWords(words: readonly string[], opts: RetagOptions = {}): Tagged[] {
    const lower = words.map((w) => w.toLowerCase());
    const nominal = opts.nominal?.size ? opts.nominal : undefined;
    const names = opts.names?.size ? opts.names : undefined;
    const oblique = opts.oblique?.size ? opts.oblique : undefined;
    const nouns = opts.nouns?.size ? opts.nouns : undefined;
    const clitics = opts.clitics?.size ? opts.clitics : undefined;
    const allowed = (i: number) => {
      const ids = this.allowedFor(words, lower, i);
      if (clitics?.has(i)) return this.accusativeClitic(lower[i]!) ?? ids;
      if (clitics?.has(i - 1) && this.verbs?.lemmas(lower[i]!)) return this.verbOrAux() ?? ids;
      if (nouns?.has(i)) return this.genderedNounLabels();
      if (names?.has(i)) return this.nominativeNames();
      if (oblique?.has(i)) return this.obliqueNouns() ?? ids;
      return nominal ? this.nominalOnly(i, nominal, ids) : ids;
    };
    let labels = this.tagger.tag(words, allowed);
    if (this.prepositionCases && this.strayLocative(lower, labels)) {
      labels = this.tagger.tag(words, (i) => this.noLocative(lower, i, allowed(i)));
    }
    this.verbAfterClitic(words, lower, labels);
    this.verbOnlyForms(words, lower, labels);
    this.portugueseClitics(words, lower, labels);
    this.nounOnlyForms(words, lower, labels);
    this.redecideClitics(words, lower, labels);
    this.portugueseAccusative(words, lower, labels);
    const tenses = this.tense?.tag(words, labels);
    const out = labels.map((label, i) => {
      const { upos, feats } = this.parseLabel(label);
      const analyses = this.table.get(lower[i]!);
      const a = analyses ? bestAnalysis(analyses, upos, feats) : undefined;
      if (a) return { upos: a.upos, feats: { ...a.feats }, lemma: this.tableLemma(words[i]!, a) };
      if (tenses?.[i] !== undefined) feats.Tense = tenses[i]!;
      let lemma = this.lemmatizer.lemma(words[i]!, upos);
      if ((upos === "VERB" || upos === "AUX") && this.verbs) lemma = this.verbLemma(words[i]!, upos, lemma);
      if (upos === "NOUN" && this.nouns && !(this.lexiconWhereUnmarked && this.genderMarked(labels, i))) return { upos, feats: applyNounLexicon(this.nouns, words[i]!, lemma, feats), lemma };
      // *el arma, el alma, el hambre*: the article makes the tagger read these feminine nouns masculine.
      if (upos === "NOUN" && this.lang === "es" && ES_STRESSED_A_FEMININE.has(lemma.toLowerCase())) feats.Gender = "Fem";
      return { upos, feats, lemma };
    });
    if (this.lang === "en") this.englishYouCase(lower, out);
    if (this.lang === "de") {
      this.germanSieCase(words, lower, out);
      this.germanIhrCase(lower, out);
      this.germanEuchCase(lower, out);
    }
    if (this.lang === "en") englishItCase(lower, out);
    if (this.lang === "pl") this.polishJejCase(lower, out);
    return out;
  }

  /** splitLabel, parsed once per label; the feats are a fresh copy (callers change them). */
  private parseLabel(label: string): { upos: string; feats: Record<string, string> } {
    let p = this.parsedLabels.get(label);
    if (p === undefined) this.parsedLabels.set(label, (p = splitLabel(label)));
    return { upos: p.upos, feats: { ...p.feats } };
  }
  private readonly parsedLabels = new Map<string, { upos: string; feats: Record<string, string> }>();

  /**
   * English "you" is Nom or Acc by form; CTXPRO's rules (es, fr, it, ru formality) take its case from
   * spaCy, which follows the dependency: the subject is Nom, an object or a preposition's complement Acc.
   * Our tagger, without a parser, says Nom after prepositions and many verbs ("about you", "have I given
   * you"). By position (issue 24, lever 13c): Nom when a verb follows, after "all", "two", "guys" at most
   * ("I hope you may", "said you were", "you two know")
   * or "to" + verb after a verb of wanting or "for" ("I want you to go", "for you to quit": the subject of the
   * infinitive, as in ClearNLP's dependencies); otherwise Acc right after a preposition or a verb ("about
   * you", "given you", "asked you to come"), or standing alone before punctuation ("You?", "Just you.",
   * "You, sir!"); but clause-initial before a comma with a verb later in the sentence Nom ("You, take him",
   * "And you, by coming here, have crossed"; lever 20d).
   */
  private englishYouCase(lower: readonly string[], out: Tagged[]): void {
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
      // lever 20d: clause-initial "you" before a comma with a verb later in the sentence is its subject or a vocative
      // that spaCy parses as one ("You, take him to county", "And you, by coming here, have crossed"); "You, sir!" stays Acc
      else if (lower[j] === "," && (!prev || ["PUNCT", "CCONJ", "INTJ"].includes(prev.upos)) && verbLater(lower, out, j)) c = "Nom";
      else if ((!next || next.upos === "PUNCT") && (!prev || ["PUNCT", "CCONJ", "INTJ", "ADV"].includes(prev.upos))) c = "Acc";
      if (!c || t.feats.Case === c) continue;
      const a = (this.table.get("you") ?? []).find((x) => x.upos === "PRON" && x.feats.Case === c);
      if (a) out[i] = { upos: a.upos, feats: { ...a.feats }, lemma: t.lemma };
    }
  }

  /**
   * German "Sie"/"sie" is Nom or Acc by form; the tagger, trained on 12k words, says Nom too often
   * ("Ich bringe Sie hinaus"). Within its clause (back to punctuation or a subordinating conjunction),
   * "sie" right after a preposition, or after an unambiguous nominative pronoun (ich, du, er, wir), is
   * the object: Acc. Measured on UD test and CTXPRO formality recall in docs/annotate.md.
   * Lever 13b adds agreement (`germanClauseVerbs`): a clause whose finite verbs all cannot agree with it
   * (formal "Sie" inside the line: third person plural; "sie" or a line-initial "Sie": third person singular or
   * plural) has another subject, so "Sie" is the object ("Wer hat Sie geschickt?", "Gott segne Sie"); and a
   * clause with a *zu*-infinitive and no finite verb has no subject ("Schön, Sie kennenzulernen").
   */
  private germanSieCase(words: readonly string[], lower: readonly string[], out: Tagged[]): void {
    for (let i = 0; i < out.length; i++) {
      const t = out[i]!;
      if (lower[i] !== "sie" || t.upos !== "PRON" || t.feats.Case !== "Nom") continue;
      let acc = i > 0 && out[i - 1]!.upos === "ADP";
      for (let k = i - 1; k >= 0 && !acc; k--) {
        const u = out[k]!.upos;
        if (u === "PUNCT" || u === "SCONJ") break;
        if (GERMAN_NOM_PRONOUNS.has(lower[k]!)) acc = true;
      }
      if (!acc) {
        const v = germanClauseVerbs(lower, out, i);
        if (!v.unknown && v.finite.size === 0) acc = v.zuInfinitive;
        else if (!v.unknown) {
          const initial = out.slice(0, i).every((x) => x.upos === "PUNCT");
          const formal = words[i] === "Sie" && !initial;
          acc = !v.finite.has("P3") && (formal || !v.finite.has("S3"));
        }
      }
      if (!acc) continue;
      // The table's analysis that differs only in Case (person, number, gender, politeness kept).
      const same = (a: Analysis) => {
        const keys = new Set([...Object.keys(a.feats), ...Object.keys(t.feats)]);
        return [...keys].every((k) => (k === "Case" ? a.feats[k] === "Acc" : a.feats[k] === t.feats[k]));
      };
      const a = (this.table.get("sie") ?? []).find((x) => x.upos === "PRON" && same(x));
      if (a) out[i] = { upos: a.upos, feats: { ...a.feats }, lemma: t.lemma };
    }
  }

  /**
   * German "ihr" is the nominative of the second person plural or the dative of "sie" (she); the tagger
   * leans to the dative. By agreement (`germanClauseVerbs`), lever 13b: Nom when a finite verb of its clause
   * is second person plural and not third singular ("Seid ihr ...", "Habt ihr ...", "Könnt ihr ..."), or is
   * either ("macht", "braucht") and "ihr" stands where the subject does: first in its clause (after a relative
   * or interrogative pronoun or adverbs at most: "wenn ihr ... übergebt", "die ihr hören werdet", "falls/ADV ihr"), or right after that
   * finite verb with no noun or nominative pronoun before it ("Was macht ihr?", not "Er sagt ihr").
   * Never right after a preposition ("mit ihr"); there, and in a clause whose known finite verbs none can be
   * second person plural ("Ich habe ihr gesagt"), a Nom from the tagger becomes the dative.
   */
  private germanIhrCase(lower: readonly string[], out: Tagged[]): void {
    let nomIhrClause = -1;
    for (let i = 0; i < out.length; i++) {
      const t = out[i]!;
      if (lower[i] !== "ihr" || t.upos !== "PRON") continue;
      const v = germanClauseVerbs(lower, out, i);
      if (t.feats.Case === "Nom") {
        // and back: after a preposition, or in a clause whose known finite verbs none is second person
        // plural ("Ich habe ihr gesagt"), the dative of "sie"
        const prepOrNoAgreement = (i > 0 && out[i - 1]!.upos === "ADP") || (!v.unknown && v.finite.size > 0 && !v.finite.has("P2"));
        const d = prepOrNoAgreement && (this.table.get("ihr") ?? []).find((x) => x.upos === "PRON" && x.feats.Case === "Dat");
        if (d) out[i] = { upos: d.upos, feats: { ...d.feats }, lemma: d.lemma };
        else nomIhrClause = v.lo;
        continue;
      }
      if ((i > 0 && out[i - 1]!.upos === "ADP") || nomIhrClause === v.lo) continue;
      if (!v.p2.length) continue;
      let nom = v.p2.some((k) => !germanCellsOf(lower, k)?.has("S3"));
      if (!nom) {
        const before = out.slice(v.lo, i);
        // before the finite verb only a relative/interrogative pronoun or a subordinator the tagger calls ADV
        // ("falls", "sobald"): in a main clause the verb would stand second
        const first = before.every((x) => x.upos === "ADV" || (x.upos === "PRON" && (x.feats.PronType === "Rel" || x.feats.PronType === "Int")));
        const afterVerb =
          v.p2.includes(i - 1) &&
          out.slice(v.lo, i - 1).every((x) => !(x.upos === "NOUN" || x.upos === "PROPN" || (x.upos === "PRON" && x.feats.Case === "Nom" && x.feats.Person !== undefined)));
        nom = first || afterVerb;
      }
      if (!nom) continue;
      const a = (this.table.get("ihr") ?? []).find((x) => x.upos === "PRON" && x.feats.Case === "Nom");
      if (a) {
        out[i] = { upos: a.upos, feats: { ...a.feats }, lemma: a.lemma };
        nomIhrClause = v.lo;
      }
    }
  }

  /**
   * German "euch" is Acc or Dat by form, and the tagger leans to Dat (of the en-de formality dev items with
   * *euch*, CTXPRO's accusative ones mostly came out Dat). Right after a preposition that governs one case,
   * that case; else, when its clause (between punctuation, subordinating or coordinating conjunctions) has a
   * verb, Dat if one of the clause's verbs is in `GERMAN_DAT_VERBS` ("Ich danke euch", "Darf ich euch
   * zeigen ..."), otherwise Acc ("Ich sehe euch"). Issue 24, lever 12c.
   */
  /**
   * Polish *jej* (Gen or Dat of *ona*) as the object of a verb that governs the dative (plDativeVerb: *pomóc
   * jej*, *Ufam jej*, *Pozwól jej się gotować*, *udało jej się*) is Dat (lever 19c): in its clause (between
   * punctuation and conjunctions), not after a preposition, not before a noun, adjective, numeral or
   * determiner (the possessive *jej nazwę*), and with no other dative pronoun there (*mi jej dać*: then
   * *jej* is the thing given). A *jej* with a verb in its clause that governs no dative is Gen; other *jej*
   * keep the tagger's case.
   */
  private polishJejCase(lower: readonly string[], out: Tagged[]): void {
    for (let i = 0; i < out.length; i++) {
      const t = out[i]!;
      if (lower[i] !== "jej" || t.upos !== "PRON" || t.feats.Poss === "Yes") continue;
      if (i > 0 && out[i - 1]!.upos === "ADP") continue;
      const next = out[i + 1];
      if (next && PL_POSSESSED.has(next.upos)) continue;
      const bound = (u: string) => u === "PUNCT" || u === "SCONJ" || u === "CCONJ";
      let lo = i;
      while (lo > 0 && !bound(out[lo - 1]!.upos)) lo--;
      let hi = i;
      while (hi + 1 < out.length && !bound(out[hi + 1]!.upos)) hi++;
      const clause = lower.slice(lo, hi + 1);
      if (clause.some((w) => PL_DATIVE_PRONOUNS.has(w))) continue;
      const sie = clause.includes("się");
      let dat = false;
      let verb = false;
      for (let k = lo; k <= hi && !dat; k++) {
        const u = out[k]!.upos;
        if (u !== "VERB" && u !== "AUX") continue;
        verb = true;
        if (plDativeVerb(lower[k]!, out[k]!.lemma, sie)) dat = true;
      }
      // The object of any other verb is genitive (negation, genitive verbs: *Nie możesz jej dotknąć*,
      // *szukać jej*); the tagger reads such *jej* Gen or Dat about at random.
      const c = dat ? "Dat" : verb ? "Gen" : undefined;
      if (!c || t.feats.Case === c) continue;
      const a = (this.table.get("jej") ?? []).find((x) => x.upos === "PRON" && x.feats.Case === c && x.feats.Poss !== "Yes");
      if (a) out[i] = { upos: a.upos, feats: { ...a.feats }, lemma: t.lemma };
    }
  }

  private germanEuchCase(lower: readonly string[], out: Tagged[]): void {
    for (let i = 0; i < out.length; i++) {
      const t = out[i]!;
      if (lower[i] !== "euch" || t.upos !== "PRON") continue;
      let c: string | undefined;
      const prev = i > 0 ? out[i - 1]! : undefined;
      if (prev?.upos === "ADP") {
        if (GERMAN_DAT_PREPS.has(lower[i - 1]!)) c = "Dat";
        else if (GERMAN_ACC_PREPS.has(lower[i - 1]!)) c = "Acc";
        else continue;
      } else {
        const bound = (u: string) => u === "PUNCT" || u === "SCONJ" || u === "CCONJ";
        let verb = false;
        let dat = false;
        for (const dir of [-1, 1]) {
          for (let k = i + dir; k >= 0 && k < out.length && !bound(out[k]!.upos); k += dir) {
            if (out[k]!.upos !== "VERB") continue;
            verb = true;
            if (GERMAN_DAT_VERBS.has(out[k]!.lemma.toLowerCase())) dat = true;
          }
        }
        if (!verb) continue;
        c = dat ? "Dat" : "Acc";
      }
      if (t.feats.Case === c) continue;
      const a = (this.table.get("euch") ?? []).find((x) => x.upos === "PRON" && x.feats.Case === c);
      if (a) out[i] = { upos: a.upos, feats: { ...a.feats }, lemma: t.lemma };
    }
  }

  /**
   * Romance object clitics that are also articles (es/it/pt/fr la, lo, le, los, las, li, l'): the greedy
   * tagger, trained on a few thousand such tokens, reads most of them as articles, and CTXPRO's gender
   * rules hinge on them. An article is never directly followed by a verb, so a token tagged DET whose next
   * word is tagged VERB or AUX is re-read as the clitic (its best pronoun analysis). Measured on the UD
   * test files in docs/annotate.md.
   */
  private redecideClitics(words: readonly string[], lower: readonly string[], labels: string[]): void {
    if (!CLITIC_LANGS.has(this.lang)) return;
    for (let i = 0; i + 1 < words.length; i++) {
      if (labelUpos(labels[i]!) !== "DET") continue;
      const pron = this.pronounLabels(lower[i]!);
      if (!pron) continue;
      // The tagger's own reading of the next word decides (even after a DET tag it often sees the verb).
      const next = labelUpos(labels[i + 1]!);
      if (next === "VERB" || next === "AUX") {
        const forced = this.tagger.tag(words, (k) => (k === i ? pron : this.allowed.get(lower[k]!)));
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
   * Measured on UD test and CTXPRO recall in docs/annotate.md ("verb after clitic").
   */
  private verbAfterClitic(words: readonly string[], lower: readonly string[], labels: string[]): void {
    const clitics = OBJECT_CLITICS[this.lang];
    if (!clitics) return;
    if (labels.some((l) => labelUpos(l) === "VERB" || labelUpos(l) === "AUX")) return;
    for (let i = 0; i + 1 < words.length; i++) {
      if (!clitics.has(lower[i]!)) continue;
      // The tagger's or the table's pronoun reading, or an article homograph after a negation, subject pronoun or noun.
      const analyses = this.table.get(lower[i]!);
      const pron = labelUpos(labels[i]!) === "PRON" || (analyses !== undefined && analyses.every((a) => a.upos === "PRON"));
      const next = labelUpos(labels[i + 1]!);
      if (next !== "NOUN" && next !== "ADJ" && next !== "PROPN") continue;
      // Otherwise an article homograph ("Lo voglio." / "La casa."): a verb only if the noun lexicon
      // (fr, it) does not know the next word as a noun.
      // An article right after a noun or name (its subject: "El Señor los unirá.") is also the clitic.
      const afterNoun = i > 0 && (labelUpos(labels[i - 1]!) === "NOUN" || labelUpos(labels[i - 1]!) === "PROPN");
      if (!pron && !afterNoun && !(i > 0 && BEFORE_CLITIC.has(lower[i - 1]!))) {
        const lex = this.lang === "fr" || this.lang === "it" ? this.nouns : undefined;
        if (!lex || lex.lookup(words[i + 1]!, lower[i + 1]!) !== undefined) continue;
      }
      const verbIds = this.verbLabels();
      const keep = labels.map((l) => this.labelIndex.get(l)!);
      const forced = this.tagger.tag(words, (k) => (k === i + 1 ? verbIds : k < i + 1 ? [keep[k]!] : this.allowed.get(lower[k]!)));
      for (let k = i + 1; k < labels.length; k++) labels[k] = forced[k]!;
      return;
    }
  }

  /**
   * A word tagged NOUN (or PROPN at the start of a sentence) that the verb lexicon lists as a finite
   * verb form or infinitive, and that neither the noun lexicon nor the verb source's own word list knows
   * as a noun, not right after a determiner (but after an object-clitic homograph: in verb-less lines,
   * Italian in all), and after a preposition or verb only when it is an infinitive (German: not
   * capitalised inside the sentence), is re-tagged with its label restricted to VERB readings
   * ("Entiendo." / "Ci credo." came out NOUN); in verb-less lines of a language whose verb source lists
   * the other words (es) also ADJ/ADV/PRON/DET/X/INTJ; in French a NOUN/ADJ right after a subject
   * pronoun, "ne" or a non-article clitic; and a word tagged AUX that is a form of no auxiliary. The
   * other words keep their labels. Measured on UD test and CTXPRO recall in
   * docs/annotate.md ("Verb lexicons", lever 7).
   */
  private verbOnlyForms(words: readonly string[], lower: readonly string[], labels: string[]): void {
    const lex = this.verbs;
    if (!lex) return;
    const pos = labels.map((l, k) => this.effectiveUpos(lower[k]!, l));
    const hasVerb = pos.some((u) => u === "VERB" || u === "AUX");
    // Which tags may hide a verb: in a line without a verb, where the verb source also lists the other
    // words (es), any open-class tag; otherwise nouns only (the noun lexicon is the only check against
    // "presto", "solo"; in lines with a verb the wider set misfired on UD: "intermedias", "las demandas").
    const open = lex.otherWord && !hasVerb ? VERB_HIDING_TAGS : NOUN_TAGS;
    const at = new Set<number>();
    const auxLemmas = AUX_LEMMAS[this.lang];
    for (let i = 0; i < words.length; i++) {
      const u = pos[i]!;
      // A word tagged AUX that is a form of no auxiliary verb ("je ne dirai rien": dirai AUX).
      if (u === "AUX" && auxLemmas && !this.table.has(lower[i]!)) {
        const ls = lex.lemmas(lower[i]!);
        // Neither the lexicon nor our lemmatiser (es "era": the lexicon knows only "erar") says auxiliary.
        if (ls && !ls.some((l) => auxLemmas.has(l)) && !auxLemmas.has(this.lemmatizer.lemma(words[i]!, "AUX").toLowerCase())) at.add(i);
        continue;
      }
      const initial = i === 0 || pos[i - 1] === "PUNCT";
      // French: right after a subject pronoun, "ne" or an unambiguous object clitic only a verb can
      // follow ("tu veux/ADJ", "je garde/NOUN"), so there the noun check is skipped and ADJ counts too.
      if (this.lang === "fr" && i > 0 && FR_BEFORE_VERB.has(lower[i - 1]!) && (u === "NOUN" || u === "ADJ") && lex.finite(lower[i]!)) {
        at.add(i);
        continue;
      }
      if (this.lang === "de" && i > 0 && words[i]![0] !== lower[i]![0]) continue;
      const prev = i > 0 ? pos[i - 1]! : "";
      // Right after an object clitic's article homograph tagged DET ("la he visto", "lo ascolti/ADJ"),
      // any open-class tag may hide the verb (issue 24, lever 14).
      const afterClitic = prev === "DET" && CLITIC_LANGS.has(this.lang) && this.pronounLabels(lower[i - 1]!) !== undefined;
      // ... unless a preposition, verb or determiner comes before it ("di la pubblica", "era la sola").
      const before = i > 1 ? pos[i - 2]! : "";
      const clear = afterClitic && before !== "ADP" && before !== "VERB" && before !== "AUX" && before !== "DET";
      if (!open.has(u) && !(u === "PROPN" && initial) && !(clear && VERB_HIDING_TAGS.has(u))) continue;
      if (this.table.has(lower[i]!)) continue;
      // Not after an article, unless it is an object clitic's homograph ("La tengo."): in a verb-less
      // line, or in any line for Italian, whose noun lexicon lists the nouns that are also verb forms
      // (French's lacks "garde", "manque"); Spanish in any line since lever 14 (its Hunspell word
      // list is the noun check).
      // Spanish (lever 13d, 13g): also where the homograph follows a word before which only a clitic stands,
      // not an article ("no la traicionará", "yo la llevaré", "si los acompañamos"; not after "que": "que la
      // policía" cost UD Case 0.3), or where the word is a future or conditional, or a form of *haber*, which
      // no noun shares ("que la echaré de menos", "la habría dejado").
      const esAgree = this.lang === "es" && clear ? esAgreementClitic(lower[i - 1]!, lower[i]!, lex.lemmas(lower[i]!) ?? []) : undefined;
      const esClitic = this.lang === "es" && ((i >= 2 && ES_BEFORE_CLITIC.has(lower[i - 2]!)) || ES_VERB_ONLY.test(lower[i]!) || esAgree !== undefined);
      if (prev === "DET" && ((hasVerb && this.lang !== "it" && !(clear && this.lang === "es") && !esClitic) || !afterClitic)) continue;
      // Where the word before rules out an article (a negation, a non-article clitic, a subject or wh-
      // pronoun: BEFORE_CLITIC_STRONG), the next word is the verb whatever the word lists say ("te la
      // di", "yo la presto", "non lo usi"); Spanish *haber* always ("la he leído"). Spanish, whose word
      // list lacks many deverbal nouns ("la reforma", "las demandas", "la presencia"), re-reads in a
      // line with a verb only there or before a verb-only ending ("la abriré", "la mantuvo", "la cargaste").
      const strong = clear && (cliticContext(this.lang, lower, pos, i - 1) || esAgree === "plural");
      if (clear && this.lang === "es" && HABER_FORMS.has(lower[i]!)) {
        at.add(i);
        continue;
      }
      if (clear && hasVerb && this.lang === "es" && !strong && !esClitic && !SPANISH_VERB_ENDING.test(lower[i]!)) continue;
      const lemmas = lex.lemmas(lower[i]!);
      if (!lemmas || !lex.finite(lower[i]!)) continue;
      // After a preposition or a verb only an infinitive ("per capire", "voglio andare"; not "vedrò presto").
      if ((prev === "ADP" || prev === "VERB" || prev === "AUX" || at.has(i - 1)) && !lemmas.includes(lower[i]!)) continue;
      if (!strong && (lex.otherWord ? lex.otherWord(lower[i]!) : this.nouns?.lookup(words[i]!, lower[i]!) !== undefined)) continue;
      at.add(i);
    }
    if (!at.size) return;
    // Only those words change; every other label stays (a fresh tagging undid earlier decisions).
    const verbIds = this.verbLabels();
    const keep = labels.map((l) => this.labelIndex.get(l)!);
    const forced = this.tagger.tag(words, (k) => (at.has(k) ? verbIds : [keep[k]!]));
    for (const k of at) labels[k] = forced[k]!;
  }

  /**
   * Portuguese, which has no verb lexicon: an article/preposition homograph of an object clitic (*o, a,
   * os, as*) tagged DET, ADP or SCONJ is the clitic, and the word after it the verb, when the word before
   * rules out an article ("não a quero", "eu o protejo") and the tagger calls the next word a finite
   * verb, or when the next word has an ending only finite verbs have (ptVerbEnding: "a usarei", "que
   * o levei", "a roubou"; lever 14d) or is another finite form no noun shares (ptFiniteVerb: "a tinha", "o fez",
   * "que a comprasse"; lever 33). Infinitives after a
   * preposition ("de o ler") are left alone: "o jantar", "o lugar" share their ending.
   */
  private portugueseClitics(words: readonly string[], lower: readonly string[], labels: string[]): void {
    if (this.lang !== "pt") return;
    for (let i = 0; i + 1 < words.length; i++) {
      if (!PT_CLITIC_HOMOGRAPHS.has(lower[i]!) || !["DET", "ADP", "SCONJ"].includes(labelUpos(labels[i]!))) continue;
      const pron = (this.allowed.get(lower[i]!) ?? []).filter((k) => this.tagger.labels[k]!.startsWith("PRON"));
      if (!pron.length) continue;
      const next = labelUpos(labels[i + 1]!);
      if (next === "PUNCT" || next === "DET" || next === "ADP" || next === "NUM" || next === "CCONJ" || next === "SCONJ") continue;
      if (this.table.has(lower[i + 1]!) && next !== "VERB" && next !== "AUX") continue;
      const prevWord = i > 0 ? lower[i - 1]! : "";
      // After a negation or subject pronoun, a word the tagger already calls a verb (not an infinitive:
      // "eu a pensar" has the preposition).
      const strong = PT_BEFORE_CLITIC.has(prevWord) && (next === "VERB" || next === "AUX") && !/[aeiô]r$/.test(lower[i + 1]!);
      // Or a finite form no noun shares (lever 33: "até a tinha", "como o fez", "que a comprasse"), not capitalised (a name).
      const finite = ptFiniteVerb(lower[i + 1]!) && words[i + 1] === lower[i + 1];
      // Or a next word whose number the article's rules out for a noun (lever 34: "os usa", "o compartilhas").
      const clash = (next === "NOUN" || next === "ADJ" || next === "VERB" || next === "AUX" || next === "X") && ptNumberClash(lower[i]!, words[i + 1]!, prevWord);
      if (!strong && !finite && !clash && !ptVerbEnding(lower[i + 1]!)) continue;
      const keep = labels.map((l) => this.labelIndex.get(l)!);
      const verbIds = this.verbLabels();
      const forced = this.tagger.tag(words, (k) => (k === i ? pron : k === i + 1 && next !== "VERB" && next !== "AUX" ? verbIds : [keep[k]!]));
      labels[i] = forced[i]!;
      labels[i + 1] = forced[i + 1]!;
    }
  }

  /**
   * Portuguese: an article homograph (*o, a, os, as*) tagged PRON right before a verb is the accusative clitic, not the
   * demonstrative of "o que", "a de" (UD Bosque: 165 Case=Acc PronType=Prs, 11 PronType=Dem before VERB/AUX). The tagger,
   * and redecideClitics, which may choose among all PRON labels, often give it the demonstrative's label, which has no
   * case ("e a/PRON interpretaram", "para a isolarmos"; lever 34). Runs last, after redecideClitics.
   */
  private portugueseAccusative(words: readonly string[], lower: readonly string[], labels: string[]): void {
    if (this.lang !== "pt") return;
    // Position -> the clitic's accusative label ids, kept for the forced re-tag below.
    const at = new Map<number, readonly number[]>();
    for (let i = 0; i + 1 < words.length; i++) {
      if (!PT_CLITIC_HOMOGRAPHS.has(lower[i]!) || labelUpos(labels[i]!) !== "PRON" || /Case=Acc/.test(labels[i]!)) continue;
      const next = labelUpos(labels[i + 1]!);
      if (next !== "VERB" && next !== "AUX") continue;
      const prev = i > 0 ? lower[i - 1]! : "";
      // Not a word split off a contraction (ao = a o, no = em o: the article), nor before a participle, which takes no
      // clitic ("O referido relatório", "com os conhecidos"), or a capitalised word (a name); before an infinitive only after a preposition, since an
      // article also nominalises it ("deifica o saber" vs "para os divulgar", "antes de o conhecerem").
      if (prev === "a" || prev === "em" || /(?:ad|id)[oa]s?$/.test(lower[i + 1]!) || words[i + 1] !== lower[i + 1]) continue;
      // After de, por (do, pelo) also the irregular participles: "de o previsto", "de as compostas".
      if ((prev === "de" || prev === "por") && /(?:st|it|ert)[oa]s?$/.test(lower[i + 1]!)) continue;
      if (/[aeiô]r(?:em|es|mos)?$/.test(lower[i + 1]!) && !ptFiniteVerb(lower[i + 1]!) && !PT_BEFORE_INFINITIVE_CLITIC.has(prev)) continue;
      const acc = this.accusativeClitic(lower[i]!);
      if (acc?.some((k) => /Case=Acc/.test(this.tagger.labels[k]!))) at.set(i, acc);
    }
    if (!at.size) return;
    const keep = labels.map((l) => this.labelIndex.get(l)!);
    const forced = this.tagger.tag(words, (k) => at.get(k) ?? [keep[k]!]);
    for (const k of at.keys()) labels[k] = forced[k]!;
  }

  /**
   * The part of speech a word will come out with: a closed-class table form's own (the tagger may say
   * VERB for "me", which the table then turns into PRON), else the label's.
   */
  private effectiveUpos(lowerForm: string, label: string): string {
    const u = labelUpos(label);
    const analyses = this.table.get(lowerForm);
    if (!analyses || analyses.some((a) => a.upos === u)) return u;
    return analyses[0]!.upos;
  }

  /**
   * A word tagged VERB that the verb lexicon knows as no verb form at all (finite, infinitive or
   * participle) but the noun lexicon (it, fr, de, ru) or, for Spanish, dictionary-es's word list knows,
   * is re-tagged with its label restricted to NOUN readings ("el dinero/VERB", "la parola/VERB"); only
   * right after a determiner, where a verb cannot stand (lever 14g).
   */
  private nounOnlyForms(words: readonly string[], lower: readonly string[], labels: string[]): void {
    const lex = this.verbs;
    if (!lex) return;
    const at: number[] = [];
    for (let i = 1; i < words.length; i++) {
      if (this.effectiveUpos(lower[i]!, labels[i]!) !== "VERB" || this.table.has(lower[i]!)) continue;
      if (this.effectiveUpos(lower[i - 1]!, labels[i - 1]!) !== "DET") continue;
      if (lex.lemmas(lower[i]!)) continue;
      const noun = this.lang === "es" ? lex.otherWord?.(lower[i]!) === true : this.nouns?.lookup(words[i]!, lower[i]!) !== undefined;
      if (noun) at.push(i);
    }
    if (!at.length) return;
    const keep = labels.map((l) => this.labelIndex.get(l)!);
    const forced = this.tagger.tag(words, (k) => (at.includes(k) ? this.nounLabels() : [keep[k]!]));
    for (const k of at) labels[k] = forced[k]!;
  }

  private nameIds: number[] | undefined;
  /** PROPN labels in the nominative (all PROPN labels if the model has none; undefined if it has no PROPN label). */
  private nominativeNames(): readonly number[] | undefined {
    if (!this.nameIds) {
      const propn = this.tagger.labels.map((l, k) => (this.parseLabel(l).upos === "PROPN" ? k : -1)).filter((k) => k >= 0);
      const nom = propn.filter((k) => this.parseLabel(this.tagger.labels[k]!).feats.Case === "Nom");
      this.nameIds = nom.length ? nom : propn;
    }
    return this.nameIds.length ? this.nameIds : undefined;
  }

  private obliqueIds: number[] | undefined;
  /**
   * NOUN/PROPN singular masculine or feminine labels in the dative or vocative (undefined if the model has none): the
   * locative, the third case these endings leave, needs a preposition, and identify's `oblique` words have none before them.
   */
  private obliqueNouns(): readonly number[] | undefined {
    this.obliqueIds ??= this.tagger.labels
      .map((l, k) => {
        const { upos, feats } = this.parseLabel(l);
        const ok = (upos === "NOUN" || upos === "PROPN") && feats.Number === "Sing" && (feats.Gender === "Masc" || feats.Gender === "Fem") && ["Dat", "Voc"].includes(feats.Case ?? "");
        return ok ? k : -1;
      })
      .filter((k) => k >= 0);
    return this.obliqueIds.length ? this.obliqueIds : undefined;
  }

  /**
   * Whether the verb lexicon knows a word as a finite verb form or infinitive and neither the Spanish word
   * list nor the noun lexicon knows it as another word (es *tomé, recoges*, not *borda*); for Portuguese, which has
   * no verb lexicon, ptFiniteVerb (*teve, tinha, entreguei*; lever 33). For identify's alignedClitics (lever 28c).
   */
  verbOnlyForm(word: string): boolean {
    const lex = this.verbs;
    const lower = word.toLowerCase();
    // Portuguese has no verb lexicon: its irregular verbs' forms and verb-only endings (lever 33).
    // A capitalised word is taken for a name (Faria, Moscou, Irão).
    if (!lex) return this.lang === "pt" && word === lower && !this.table.has(lower) && ptFiniteVerb(lower);
    if (this.table.has(lower) || !lex.lemmas(lower) || !lex.finite(lower)) return false;
    return !(lex.otherWord ? lex.otherWord(lower) : this.nouns?.lookup(word, lower) !== undefined);
  }

  /** The PRON labels of a closed-class form in the accusative (all its PRON labels if none is; undefined if it has none). */
  private accusativeClitic(form: string): readonly number[] | undefined {
    const pron = (this.allowed.get(form) ?? []).filter((k) => this.parseLabel(this.tagger.labels[k]!).upos === "PRON");
    const acc = pron.filter((k) => this.parseLabel(this.tagger.labels[k]!).feats.Case === "Acc");
    return acc.length ? acc : pron.length ? pron : undefined;
  }

  private verbOrAux(): readonly number[] | undefined {
    const ids = this.labelIds("VERB", "AUX");
    return ids.length ? ids : undefined;
  }

  private nominalIds: Set<number> | undefined;
  /**
   * For a word of `nominal` (a word the caller knows heads or modifies a noun phrase: identify's re-read of
   * a verb-less line, lever 19a), the labels of `ids` (all when undefined) of a noun, proper noun, pronoun,
   * adjective, determiner or numeral; `ids` unchanged where none is left or the word is not in the set.
   */
  private nominalOnly(i: number, nominal: ReadonlySet<number>, ids: readonly number[] | undefined): readonly number[] | undefined {
    if (!nominal.has(i)) return ids;
    this.nominalIds ??= new Set(this.tagger.labels.map((l, k) => (NOMINAL_UPOS.has(this.parseLabel(l).upos) ? k : -1)).filter((k) => k >= 0));
    const kept = (ids ?? this.allLabelIds()).filter((k) => this.nominalIds!.has(k));
    return kept.length ? kept : ids;
  }

  private nounLabels(): number[] {
    return this.labelIds("NOUN");
  }
  private readonly idsByUpos = new Map<string, number[]>();
  /** Indices of the labels whose part of speech is one of `upos`, computed once per set. */
  private labelIds(...upos: string[]): number[] {
    const key = upos.join(",");
    let ids = this.idsByUpos.get(key);
    if (!ids) this.idsByUpos.set(key, (ids = this.tagger.labels.map((l, k) => (upos.includes(labelUpos(l)) ? k : -1)).filter((k) => k >= 0)));
    return ids;
  }

  /**
   * Whether a word of three letters or more outside the closed-class table can be a common noun by the
   * language's own lexicons (lever 29): Italian, italian-words-dict knows the form or its plural; Spanish,
   * dictionary-es lists it with its plural or gender flag (nouns and adjectives, spanishNominalForms);
   * Portuguese, by shape only (see identify's SHAPE_ONLY_TAGS); false for other languages. Shorter words are mostly function words
   * that the lexicons also list as nouns (it *no*, es *en*).
   */
  knownNoun(word: string): boolean {
    const low = word.toLowerCase();
    if (this.table.has(low) || [...low].length < 3) return false;
    if (this.lang === "es") return spanishNominalForms().has(low);
    if (this.lang === "it" || this.lang === "pl") return this.nouns?.lookup(low, low) !== undefined;
    // Portuguese: no lexicon; a word of letters that is no -mente adverb (identify's alignedNouns also
    // restricts the tags it re-reads there).
    if (this.lang === "pt") return /^\p{L}+$/u.test(low) && !low.endsWith("mente");
    return false;
  }
  private genderedNounIds: number[] | undefined;
  /**
   * NOUN labels with a Gender and a Number (all NOUN labels where the model has none): a word re-read as a
   * noun for its gender must get both, and for Spanish no noun lexicon adds gender (es "cocaína" got
   * NOUN|Number=Sing), for Italian none adds the singular (it "sangue" got NOUN|Gender=Masc).
   */
  private genderedNounLabels(): number[] {
    if (!this.genderedNounIds) {
      const full = (k: number) => {
        const f = this.parseLabel(this.tagger.labels[k]!).feats;
        return f.Gender !== undefined && f.Number !== undefined;
      };
      const g = this.nounLabels().filter(full);
      this.genderedNounIds = g.length ? g : this.nounLabels();
    }
    return this.genderedNounIds;
  }

  /** Whether the verb lexicon knows the word as a participle and as no other verb form (lever 29). */
  participleOnly(word: string): boolean {
    const lex = this.verbs;
    return lex?.lemmas(word.toLowerCase()) !== undefined && !lex.finite(word.toLowerCase());
  }
  private verbLabels(): number[] {
    return this.labelIds("VERB");
  }

  /** Label indices of the PRON analyses of a form that the table lists as both DET and PRON. */
  private pronounLabels(form: string): number[] | undefined {
    const analyses = this.table.get(form);
    if (!analyses || !analyses.some((a) => a.upos === "DET") || !analyses.some((a) => a.upos === "PRON")) return undefined;
    const ids = (this.allowed.get(form) ?? []).filter((i) => this.tagger.labels[i]!.startsWith("PRON"));
    return ids.length ? ids : undefined;
  }

  /**
   * The lemma of a word tagged VERB/AUX: the lemmatiser's when training stored the form as an
   * exception (seen, and the rules were wrong) or when the verb lexicon agrees; otherwise the verb
   * lexicon's infinitive (the one sharing the longest prefix with the form when there are several:
   * "porta" -> portare rather than porgere). Unknown forms keep the rules' lemma.
   */
  private verbLemma(word: string, upos: string, ruleLemma: string): string {
    if (this.lemmatizer.isException(word, upos)) return ruleLemma;
    const cands = this.verbs?.lemmas(word);
    if (!cands || cands.includes(ruleLemma)) return ruleLemma;
    const low = word.toLowerCase();
    const shared = (l: string) => {
      let p = 0;
      while (p < l.length && p < low.length && l[p] === low[p]) p++;
      return p;
    };
    let best = cands[0]!;
    for (const c of cands) if (shared(c) > shared(best)) best = c;
    return best;
  }

  private tableLemma(word: string, a: Analysis): string {
    // The treebank's own lemma convention (from the lexicon) wins over the table's when it has one.
    const learned = this.lemmatizer.lemma(word, a.upos);
    return learned === word.toLowerCase() || learned === word ? a.lemma : learned;
  }
}

const PUNCT_ONLY = /^[\p{P}\p{S}]+$/u;
/**
 * Russian "нет" as the answer "no" (a particle), not the existential verb ("Денег нет."): the first word of
 * the line (after punctuation only) followed by punctuation or nothing ("Нет, вам!", "- Нет."), or a tag
 * question after a comma (", нет?").
 */
function answerNo(words: readonly string[], i: number): boolean {
  const next = words[i + 1];
  const endsHere = next === undefined || PUNCT_ONLY.test(next);
  if (!endsHere) return false;
  if (words.slice(0, i).every((w) => PUNCT_ONLY.test(w))) return true;
  return i > 0 && words[i - 1] === "," && (next === undefined || next === "?");
}

/** The analysis agreeing best with the tagger's guess (same UPOS first, then most shared features). */
function bestAnalysis(analyses: readonly Analysis[], upos: string, feats: Record<string, string>): Analysis | undefined {
  let best: Analysis | undefined;
  let bestScore = -Infinity;
  for (const a of analyses) {
    let s = a.upos === upos ? 100 : 0;
    for (const k of TAG_FEATS) {
      if (a.feats[k] !== undefined && a.feats[k] === feats[k]) s += 1;
      else if (a.feats[k] !== undefined && feats[k] !== undefined) s -= 1;
    }
    if (s > bestScore) {
      bestScore = s;
      best = a;
    }
  }
  // A form whose analyses are all of another part of speech (e.g. "that" as SCONJ missing) keeps the tagger's.
  return best && (best.upos === upos || !analyses.some((a) => a.upos === upos)) ? best : undefined;
}

// ---------------------------------------------------------------------------------------------
// Training

export interface MorphTrainOptions extends TrainOptions {
  trainedOn?: string;
}

/** Tokenizer lexicon learned from treebank surface tokens. */
export function learnTokenizerLexicon(sents: readonly UdSentence[], lang: Lang): MorphModel["tokenizer"] {
  const asMwt = new Map<string, Map<string, number>>();
  const asPlain = new Map<string, number>();
  const verbs = new Set<string>();
  for (const s of sents) {
    for (const st of surfaceTokens(s)) {
      const lf = st.form.toLowerCase();
      if (st.words.length > 1) {
        const key = st.words.map((w) => w.form.toLowerCase()).join(" ");
        let m = asMwt.get(lf);
        if (!m) asMwt.set(lf, (m = new Map()));
        m.set(key, (m.get(key) ?? 0) + 1);
      } else asPlain.set(lf, (asPlain.get(lf) ?? 0) + 1);
      for (const w of st.words) if ((w.upos === "VERB" || w.upos === "AUX") && /(r|ndo)$/.test(w.form.toLowerCase())) verbs.add(w.form.toLowerCase());
    }
  }
  const contractions: Record<string, string[]> = {};
  const base: TokenizerLexicon = { verbs };
  for (const [lf, m] of asMwt) {
    const [split, n] = [...m.entries()].sort((a, b) => b[1] - a[1])[0]!;
    const total = [...m.values()].reduce((a, b) => a + b, 0) + (asPlain.get(lf) ?? 0);
    const pieces = split.split(" ");
    const ours = tokenize(lf, lang, base).map((t) => t.text.toLowerCase());
    if (ours.join(" ") === split) continue; // the rules already do it
    if (n >= 2 && n / total >= 0.9) contractions[lf] = pieces;
  }
  // Plain words our rules would wrongly split (aujourd'hui, muerte): never split them.
  const plain: string[] = [];
  const lex: TokenizerLexicon = { verbs, contractions: new Map(Object.entries(contractions)) };
  for (const lf of asPlain.keys()) {
    if (asMwt.has(lf) || /\s/.test(lf)) continue;
    if (tokenize(lf, lang, lex).length > 1 || splitEnclitics(lf, lang, verbs)) plain.push(lf);
  }
  const usedVerbs = lang === "es" || lang === "it" ? [...verbs].sort() : [];
  return { contractions, plain: plain.sort(), verbs: usedVerbs };
}

/** The words a runtime tokenizer would produce for a treebank sentence, with their gold analyses. */
export function trainingWords(s: UdSentence, lang: Lang, lex: TokenizerLexicon): UdWord[] {
  const out: UdWord[] = [];
  for (const st of surfaceTokens(s)) {
    if (st.words.length === 1) {
      out.push(st.words[0]!);
      continue;
    }
    const pieces = tokenize(st.form, lang, lex);
    if (pieces.length === st.words.length) {
      st.words.forEach((w, i) => out.push({ ...w, form: pieces[i]!.text }));
      continue;
    }
    // Not split at runtime: one token carrying its content word's analysis.
    const content = st.words.find((w) => ["VERB", "AUX", "NOUN", "ADJ", "PROPN", "PRON"].includes(w.upos)) ?? st.words[0]!;
    out.push({ ...content, form: st.form });
  }
  return out;
}

export function trainMorph(lang: Lang, sents: readonly UdSentence[], opts: MorphTrainOptions = {}): MorphModel {
  const tokLex = learnTokenizerLexicon(sents, lang);
  const lex: TokenizerLexicon = {
    contractions: new Map(Object.entries(tokLex.contractions)),
    plain: new Set(tokLex.plain),
    verbs: new Set(tokLex.verbs),
  };
  const train: TrainSentence[] = [];
  const lemmaItems: { form: string; upos: string; lemma: string }[] = [];
  const tenseGold: (string | undefined)[][] = [];
  for (const s of sents) {
    const words = trainingWords(s, lang, lex);
    train.push({ words: words.map((w) => w.form), labels: words.map((w) => makeLabel(w.upos, w.feats)) });
    tenseGold.push(words.map((w) => w.feats.Tense));
    for (const w of words) lemmaItems.push({ form: w.form, upos: w.upos, lemma: w.lemma });
  }
  const suffixLen = opts.suffixLen ?? (lang === "pl" || lang === "ru" ? 5 : 4);
  const tagger = trainTagger(train, { ...opts, suffixLen });
  const tense = trainTense(
    train.map((t, k) => ({ ...t, tenses: tenseGold[k]! })),
    { epochs: opts.epochs, seed: opts.seed, suffixLen, minWeight: opts.minWeight, log: opts.log },
  );
  const lemmatizer = trainLemmatizer(lemmaItems, lang);
  return { format: MORPH_FORMAT, lang, trainedOn: opts.trainedOn ?? "", tagger, ...(tense ? { tense } : {}), lemmatizer, tokenizer: tokLex };
}

/** JSON text of a model (writeFileAtomic gzips it when the path ends in .gz). */
export function serializeMorph(model: MorphModel): string {
  return JSON.stringify(model);
}

export function loadMorphModel(path: string): MorphModel {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readText(path));
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw new InputError(`not a JSON morphology model (${(e as Error).message})`, path);
  }
  const m = parsed as MorphModel;
  if (!m || m.format !== MORPH_FORMAT) throw new InputError(`not a ${MORPH_FORMAT} model`, path);
  return m;
}

/** data/models of the installed package (works from src/ under vitest and from dist/src/). */
export function defaultModelDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    const cand = join(dir, "data", "models");
    if (existsSync(cand)) return cand;
    dir = dirname(dir);
  }
  return join(dirname(fileURLToPath(import.meta.url)), "..", "..", "data", "models");
}

/**
 * Languages whose noun lexicon is attached by default: those where it raised UD test noun gender
 * (docs/annotate.md, "Noun lexicons").
 */
export const LEXICON_LANGS: ReadonlySet<string> = new Set(["de", "fr", "it", "ru", "pl"]);
/** Languages whose noun lexicon decides the gender of nouns no determiner marks (MorphTagger.lexiconWhereUnmarked). */
export const UNMARKED_LEXICON_LANGS: ReadonlySet<string> = new Set(["es"]);

/**
 * Person-number cells of the German verb at `k` (see `germanVerbCells`): {INF} after *zu*; for a form the
 * dictionary lacks, a guess by its ending (-en P1/P3/INF, -st S2, -t S3/P2/PA2); undefined when none fits.
 */
function germanCellsOf(lower: readonly string[], k: number): ReadonlySet<string> | undefined {
  if (k > 0 && lower[k - 1] === "zu") return new Set(["INF"]);
  const w = lower[k]!;
  const known = germanVerbCells().get(w);
  if (known) return known;
  if (/en$/.test(w)) return new Set(["P1", "P3", "INF"]);
  if (/st$/.test(w)) return new Set(["S2"]);
  if (/t$/.test(w)) return new Set(["S3", "P2", "PA2"]);
  return undefined;
}

const FINITE_CELLS = new Set(["S1", "S2", "S3", "P1", "P2", "P3"]);

/**
 * The verbs (VERB/AUX) of the clause of token `i` (between punctuation, subordinating and coordinating
 * conjunctions): `lo` its first token, `finite` the person-number cells their forms allow, `p2` the verbs
 * that may be second person plural, `zuInfinitive` whether one is a *zu*-infinitive, `unknown` whether one
 * has no reading at all.
 */
function germanClauseVerbs(lower: readonly string[], out: readonly Tagged[], i: number): { lo: number; finite: Set<string>; p2: number[]; zuInfinitive: boolean; unknown: boolean } {
  const bound = (u: string) => u === "PUNCT" || u === "SCONJ" || u === "CCONJ";
  let lo = i;
  while (lo > 0 && !bound(out[lo - 1]!.upos)) lo--;
  let hi = i + 1;
  while (hi < out.length && !bound(out[hi]!.upos)) hi++;
  const r = { lo, finite: new Set<string>(), p2: [] as number[], zuInfinitive: false, unknown: false };
  for (let k = lo; k < hi; k++) {
    if (out[k]!.upos !== "VERB" && out[k]!.upos !== "AUX") {
      // a form that can only be second person plural counts whatever its tag ("Seid/ADP ihr", "ihr müsst/ADV")
      const c = germanVerbCells().get(lower[k]!);
      if (c?.has("P2") && !c.has("S3") && !c.has("INF")) {
        r.finite.add("P2");
        r.p2.push(k);
      }
      continue;
    }
    const cells = germanCellsOf(lower, k);
    if (!cells) {
      r.unknown = true;
      continue;
    }
    if ((k > 0 && lower[k - 1] === "zu") || cells.has("EIZ")) r.zuInfinitive = true;
    for (const c of cells) if (FINITE_CELLS.has(c)) r.finite.add(c);
    if (cells.has("P2")) r.p2.push(k);
  }
  return r;
}

/**
 * Loads the shipped tagger of `lang` (data/models/morph-<lang>.json.gz), with its noun lexicon where
 * LEXICON_LANGS has one (`lexicon: false` leaves it off, `true` forces any that exists), its verb lexicon
 * where VERB_LEXICON_LANGS has one (`verbs` says otherwise), the Polish and Russian preposition cases, the
 * Polish ending cases and the Russian az label restriction (`lexiconTags: false` leaves it off).
 */
export function loadDefaultMorph(lang: string, modelDir = defaultModelDir(), opts: { lexicon?: boolean; verbs?: boolean; lexiconTags?: boolean } = {}): MorphTagger {
  if (!isSupportedLang(lang)) throw new InputError(`unsupported language '${lang}' (supported: en, de, es, fr, it, pl, pt, ru)`);
  const path = join(modelDir, `morph-${lang}.json.gz`);
  if (!existsSync(path)) throw new InputError(`no morphology model for '${lang}' at ${path} (train it with scripts/train-morph.ts)`);
  const tagger = new MorphTagger(loadMorphModel(path));
  if (opts.lexicon ?? LEXICON_LANGS.has(lang)) tagger.lazyNouns(() => nounLexicon(lang));
  else if (opts.lexicon === undefined && UNMARKED_LEXICON_LANGS.has(lang)) {
    tagger.lazyNouns(() => unmarkedNounLexicon(lang));
    tagger.lexiconWhereUnmarked = true;
  }
  if (opts.verbs ?? VERB_LEXICON_LANGS.has(lang)) tagger.lazyVerbs(() => verbLexicon(lang));
  if (lang === "pl") tagger.prepositionCases = PL_PREPOSITION_CASES;
  if (lang === "pl") tagger.endingCases = plEndingCases;
  if (lang === "ru" && (opts.lexiconTags ?? true)) {
    tagger.labelTest = azLabelTest;
    tagger.prepositionCases = RU_PREPOSITION_CASES;
  }
  return tagger;
}
