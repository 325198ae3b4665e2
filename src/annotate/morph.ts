/**
 * The morphological annotator: tokenizer + joint UPOS/FEATS tagger + lemmatiser + closed-class tables,
 * trained on UD treebanks (scripts/train-morph.ts, src/annotate/morph-model.ts) and shipped as
 * data/models/morph-<lang>.json.gz. The tagger is shared by all languages; what is particular to one (its
 * clitics, its case rules, the passes that re-read a line with its lexicons) is in its rules,
 * src/annotate/lang/<lang>.ts, looked up once when the tagger is built.
 */
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { AnnSentence, AnnToken, MorphAnnotator, SentenceAlignment } from "./types.js";
import { InputError } from "../io/errors.js";
import { closedClassTable, type Analysis, type ClosedClassTable } from "./closed-class.js";
import { Lemmatizer } from "./lemmatizer.js";
import { makeLabel, splitLabel, Tagger, TAG_FEATS } from "./tagger.js";
import { TenseTagger } from "./tense.js";
import { isSupportedLang, tokenize, type Lang, type Token, type TokenizerLexicon } from "./tokenize.js";
import { applyNounLexicon, nounLexicon, unmarkedNounLexicon, type NounLexicon } from "./lexicons.js";
import { VERB_LEXICON_LANGS, verbLexicon, type VerbLexicon } from "./verb-lexicons.js";
import { loadMorphModel, MORPH_FORMAT, type MorphModel } from "./morph-model.js";
import { labelUpos, type EndingCases, type LabelTest, type LanguageRules, type RetaggingTagger, type RetagOptions, type TaggerView, type Tagged } from "./language-rules.js";
import { languageRules } from "./lang/index.js";

export { MORPH_FORMAT, learnTokenizerLexicon, trainingWords, trainMorph, serializeMorph, loadMorphModel, type MorphModel, type MorphTrainOptions } from "./morph-model.js";
export type { RetagOptions, Tagged } from "./language-rules.js";

/** Parts of speech whose case an adjectival ending decides (plEndingCases' `adjectival`). */
const ADJECTIVAL_UPOS = new Set(["ADJ", "DET", "NUM", "PRON"]);
/** Parts of speech of a noun phrase's words (MorphTagger.tagWords' `nominal`). */
const NOMINAL_UPOS = new Set(["NOUN", "PROPN", "PRON", "ADJ", "DET", "NUM"]);
/** Parts of speech of a word with no case (plEndingCases' `noCase`). */
const NO_CASE_UPOS = new Set(["ADV", "PART", "INTJ", "CCONJ", "SCONJ"]);

export class MorphTagger implements MorphAnnotator, TaggerView, RetaggingTagger {
  readonly lang: string;
  /** The language's rules (src/annotate/lang/<lang>.ts), looked up once. */
  readonly rules: LanguageRules;
  private readonly tagger: Tagger;
  private readonly tense: TenseTagger | undefined;
  private readonly lemmatizer: Lemmatizer;
  /** The closed-class table: lowercase form -> its analyses. */
  readonly table: ClosedClassTable;
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
   * numerals) shows one (Spanish): the tagger reads the gender off *el / la / un / esta*, and is
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
  labelTest: LabelTest | undefined;
  /**
   * Cases a preposition governs (Polish, Russian: the language's `prepositionCases`), applied to the word right
   * after it or, with labelTest, after one modifier the dictionary knows as an adjective/determiner ("о вашей
   * машине"); set by loadDefaultMorph.
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
    const fixed = this.rules.fixedLabels?.(this, words, lower, i);
    if (fixed) return fixed.ids;
    const own = this.allowed.get(lower[i]!);
    // Without a dictionary (Polish), a preposition alone restricts the next word's case-bearing labels, and
    // the language's endings and neighbours those of an open-class word.
    if (own || !this.labelTest) {
      const ids = this.prepositionOnly(words, lower, i, own);
      if (own || !this.endingCases) return ids;
      const byEnding = this.byEnding(this.endingCases(lower[i]!, i > 0 && /^\p{Lu}/u.test(words[i]!)), ids);
      return this.rules.openClassLabels ? this.rules.openClassLabels(this, words, lower, i, byEnding) : byEnding;
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

  /** The cases an open-class word's ending leaves (Polish: plEndingCases); set by loadDefaultMorph. */
  endingCases: ((lower: string, name?: boolean) => EndingCases | undefined) | undefined;
  private readonly endingCache = new WeakMap<readonly number[], Map<string, readonly number[] | null>>();
  /**
   * `ids` (all labels when undefined) less the case-bearing labels whose Case a word's ending rules out (`rule`:
   * the cases it leaves), when a case-bearing one is left. A word with no case keeps its adverb, particle,
   * interjection and conjunction labels (`ids` unchanged if none is left).
   */
  byEnding(rule: EndingCases | undefined, ids: readonly number[] | undefined): readonly number[] | undefined {
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
        // A singular noun label of a gender the ending restricts keeps only the cases it leaves (pl *Obamie*: Dat, Loc, Voc).
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
  nounCases(ids: readonly number[] | undefined, cases: readonly string[]): readonly number[] | undefined {
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
  withoutVerbLabels(ids: readonly number[] | undefined): readonly number[] | undefined {
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
    // No verb or interjection right after a preposition either, where the language says so (pl:
    // "Bez nadziei/INTJ", "z morale/VERB"; verbal nouns, *do zobaczenia*, are NOUN in UD).
    const noVerb = this.rules.verbAfterPreposition !== undefined && !this.rules.verbAfterPreposition(lower[i - 1]!);
    const key = `${gov.join(",")}\t${own ? lower[i] : ""}\t${noVerb ? "" : "v"}`;
    let ids = this.govCache.get(key);
    if (ids === undefined) {
      const from = own ?? this.tagger.labels.map((_, k) => k);
      const cased = from.filter((k) => {
        const c = this.parseLabel(this.tagger.labels[k]!).feats.Case;
        return c !== undefined && gov.includes(c);
      });
      const caseless = (k: number) => this.parseLabel(this.tagger.labels[k]!).feats.Case === undefined && !(noVerb && /^(VERB|AUX|INTJ)(\||$)/.test(this.tagger.labels[k]!));
      ids = cased.length ? from.filter((k) => caseless(k) || cased.includes(k)) : null;
      this.govCache.set(key, ids);
    }
    return ids ?? own;
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
  private readonly labelIndices: Map<string, number>;

  constructor(readonly model: MorphModel) {
    if (model.format !== MORPH_FORMAT) throw new InputError(`not a ${MORPH_FORMAT} model (format '${model.format}')`);
    if (!isSupportedLang(model.lang)) throw new InputError(`unsupported language '${model.lang}'`);
    this.lang = model.lang;
    this.rules = languageRules(model.lang);
    this.tagger = new Tagger(model.tagger);
    this.labelIndices = new Map(this.tagger.labels.map((l, i) => [l, i]));
    this.tense = model.tense ? new TenseTagger(model.tense, this.tagger.labels) : undefined;
    this.lemmatizer = new Lemmatizer(model.lemmatizer, model.lang);
    this.table = closedClassTable(model.lang);
    this.lexicon = {
      contractions: new Map(Object.entries(model.tokenizer.contractions)),
      plain: new Set(model.tokenizer.plain),
      verbs: new Set(model.tokenizer.verbs),
    };
    const index = this.labelIndices;
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
    for (const pass of this.rules.labelPasses) pass(this, words, lower, labels);
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
      if (upos === "NOUN") this.rules.nounFeats?.(lemma, feats);
      return { upos, feats, lemma };
    });
    for (const pass of this.rules.wordPasses ?? []) pass(this, words, lower, out);
    return out;
  }

  /** splitLabel, parsed once per label; the feats are a fresh copy (callers change them). */
  parseLabel(label: string): { upos: string; feats: Record<string, string> } {
    let p = this.parsedLabels.get(label);
    if (p === undefined) this.parsedLabels.set(label, (p = splitLabel(label)));
    return { upos: p.upos, feats: { ...p.feats } };
  }
  private readonly parsedLabels = new Map<string, { upos: string; feats: Record<string, string> }>();

  /**
   * The part of speech a word will come out with: a closed-class table form's own (the tagger may say
   * VERB for "me", which the table then turns into PRON), else the label's.
   */
  effectiveUpos(lowerForm: string, label: string): string {
    const u = labelUpos(label);
    const analyses = this.table.get(lowerForm);
    if (!analyses || analyses.some((a) => a.upos === u)) return u;
    return analyses[0]!.upos;
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
   * locative, the third case these endings leave, needs a preposition, and RetagOptions.oblique words have none before them.
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
   * no verb lexicon, ptFiniteVerb (*teve, tinha, entreguei*). For alignedClitics after alignment.
   */
  verbOnlyForm(word: string): boolean {
    const lex = this.verbs;
    const lower = word.toLowerCase();
    // A language without a verb lexicon may know its verb-only forms otherwise (pt: its irregular verbs' forms).
    if (!lex) return this.rules.verbOnlyWithoutLexicon?.(this, word, lower) ?? false;
    if (this.table.has(lower) || !lex.lemmas(lower) || !lex.finite(lower)) return false;
    return !(lex.otherWord ? lex.otherWord(lower) : this.nouns?.lookup(word, lower) !== undefined);
  }

  /** The PRON labels of a closed-class form in the accusative (all its PRON labels if none is; undefined if it has none). */
  accusativeClitic(form: string): readonly number[] | undefined {
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
   * For a word of `nominal` (a word the caller knows heads or modifies a noun phrase: the re-reading after alignment of
   * a verb-less line), the labels of `ids` (all when undefined) of a noun, proper noun, pronoun,
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
  labelIds(...upos: string[]): number[] {
    const key = upos.join(",");
    let ids = this.idsByUpos.get(key);
    if (!ids) this.idsByUpos.set(key, (ids = this.tagger.labels.map((l, k) => (upos.includes(labelUpos(l)) ? k : -1)).filter((k) => k >= 0)));
    return ids;
  }

  /**
   * Whether a word of three letters or more outside the closed-class table can be a common noun by the
   * language's own lexicons (`LanguageRules.knownNoun`: Italian, italian-words-dict knows the form or its plural;
   * Spanish, dictionary-es lists it with its plural or gender flag; Portuguese, by shape only); false for a
   * language without. Shorter words are mostly function words that the lexicons also list as nouns (it *no*, es *en*).
   */
  knownNoun(word: string): boolean {
    const low = word.toLowerCase();
    if (this.table.has(low) || [...low].length < 3) return false;
    return this.rules.knownNoun?.(this, low) ?? false;
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

  /** Whether the verb lexicon knows the word as a participle and as no other verb form. */
  participleOnly(word: string): boolean {
    const lex = this.verbs;
    return lex?.lemmas(word.toLowerCase()) !== undefined && !lex.finite(word.toLowerCase());
  }

  /** Label indices of the PRON analyses of a form that the table lists as both DET and PRON. */
  pronounLabels(form: string): number[] | undefined {
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

  // --- what the language's rules use of the tagger (TaggerView)

  /** The tagger's joint labels, by index. */
  get labels(): readonly string[] {
    return this.tagger.labels;
  }
  labelIndex(label: string): number {
    return this.labelIndices.get(label)!;
  }
  tableLabels(form: string): readonly number[] | undefined {
    return this.allowed.get(form);
  }
  tag(words: readonly string[], allowed: (i: number) => readonly number[] | undefined): string[] {
    return this.tagger.tag(words, allowed);
  }
  lemma(word: string, upos: string): string {
    return this.lemmatizer.lemma(word, upos);
  }

  /**
   * Re-reads a document's target sentences (tagged by this tagger) with what their alignment to the English ones
   * says, by the language's `alignmentPasses` (src/annotate/aligned-retag.ts); `person`: whether an English common
   * noun names a person (the resolver's lexicons). Returns the sentences, re-tagged where a pass changed them.
   */
  retagAligned(doc: { en: readonly AnnSentence[]; tgt: readonly AnnSentence[]; alignment: readonly SentenceAlignment[] }, person?: (lemma: string) => boolean): AnnSentence[] {
    const tgt = [...doc.tgt];
    for (const pass of this.rules.alignmentPasses ?? []) pass(this, { en: doc.en, tgt, alignment: doc.alignment, person });
    return tgt;
  }
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
 * Loads the shipped tagger of `lang` (data/models/morph-<lang>.json.gz), with what its rules attach
 * (src/annotate/lang/<lang>.ts): its noun lexicon (`lexicon: false` leaves it off, `true` forces any that
 * exists), its verb lexicon where VERB_LEXICON_LANGS has one (`verbs` says otherwise), the cases its
 * prepositions govern, its ending cases, and its dictionary's label restriction (Russian az; `lexiconTags:
 * false` leaves it off, and with it the preposition cases that need it).
 */
export function loadDefaultMorph(lang: string, modelDir = defaultModelDir(), opts: { lexicon?: boolean; verbs?: boolean; lexiconTags?: boolean } = {}): MorphTagger {
  if (!isSupportedLang(lang)) throw new InputError(`unsupported language '${lang}' (supported: en, de, es, fr, it, pl, pt, ru)`);
  const path = join(modelDir, `morph-${lang}.json.gz`);
  if (!existsSync(path)) throw new InputError(`no morphology model for '${lang}' at ${path} (train it with scripts/train-morph.ts)`);
  const tagger = new MorphTagger(loadMorphModel(path));
  const rules = tagger.rules;
  if (opts.lexicon ?? rules.nounLexicon === "all") tagger.lazyNouns(() => nounLexicon(lang));
  else if (opts.lexicon === undefined && rules.nounLexicon === "unmarked") {
    tagger.lazyNouns(() => unmarkedNounLexicon(lang));
    tagger.lexiconWhereUnmarked = true;
  }
  if (opts.verbs ?? VERB_LEXICON_LANGS.has(lang)) tagger.lazyVerbs(() => verbLexicon(lang));
  const dictionary = rules.labelTest !== undefined && (opts.lexiconTags ?? true);
  if (dictionary) tagger.labelTest = rules.labelTest;
  if (dictionary || !rules.prepositionCasesNeedDictionary) tagger.prepositionCases = rules.prepositionCases;
  tagger.endingCases = rules.endingCases;
  return tagger;
}
