/**
 * `ctxpro identify`: parallel documents (TSV: docid, English, other language; the layout of
 * `sacrebleu --echo docid src ref`) -> annotated documents -> CTXPRO items per rule set.
 */
import { join } from "node:path";
import { InputError } from "../io/errors.js";
import { streamTable } from "../io/table.js";
import { writeFilesAtomic } from "../io/atomic.js";
import type { AnnSentence, AnnToken, AnnotatedParallelDoc, CorefResolver, MorphAnnotator, SentenceAlignment, WordAligner } from "../annotate/types.js";
import { MorphTagger } from "../annotate/morph.js";
import type { NounLexicon } from "../annotate/lexicons.js";
import { plObliqueSingular, plPersonU } from "../annotate/polish.js";
import { matchDocument, type EngineOptions } from "./engine.js";
import type { CtxproItem } from "./items.js";
import type { RuleSet } from "./rules.js";
import { isBuiltin } from "./annotators.js";
import { ExpectedForm, words } from "./score.js";

/** What identify needs: morphology of both sides, a word aligner and English coreference. */
export interface Annotators {
  morph: { en: MorphAnnotator; tgt: MorphAnnotator };
  aligner: WordAligner;
  coref: CorefResolver;
}

export interface TsvDoc {
  id: string;
  en: string[];
  other: string[];
  /** "file:line" of each row, for messages. */
  where: string[];
}

/** One TSV row: docid, English, other language. */
export interface TsvRow {
  doc: string;
  en: string;
  other: string;
  file: string;
  line: number;
}

/** How the input TSV is read. */
export interface TsvReadOptions {
  /**
   * Cells may be quoted ("...", "" for a quote), as proneval's own --format tsv writes them, so a
   * sentence may hold a tab or newline. Off by default: `sacrebleu --echo` writes bare quotes.
   */
  quoted?: boolean;
}

/**
 * Streams the rows of TSV files (`docid \t English \t other`, read through fast-csv), checking their
 * structure: an empty line, a row with other than 3 fields, an empty document id, or a document whose
 * rows are not consecutive (segment ids would be ambiguous) is an InputError naming file and line.
 */
export async function* streamTsvRows(files: string[], opts: TsvReadOptions = {}): AsyncGenerator<TsvRow> {
  const seen = new Map<string, string>();
  let last: string | undefined;
  for (const file of files) {
    let rows = 0;
    for await (const { cells: fields, line: lineNo } of streamTable(file, { quoted: opts.quoted })) {
      rows++;
      if (fields.length === 0 || (fields.length === 1 && fields[0]!.trim() === "")) {
        throw new InputError("empty line; every row needs docid, English and other-language text separated by tabs", file, lineNo);
      }
      if (fields.length !== 3) {
        const hint = !opts.quoted && fields.length > 3 ? "; a tab inside a sentence needs --quoted input" : "";
        throw new InputError(`expected 3 tab-separated fields (docid, English, other language), found ${fields.length}${hint}`, file, lineNo);
      }
      const [id, en, other] = fields as [string, string, string];
      if (id.trim() === "") throw new InputError("empty document id", file, lineNo);
      if (id !== last) {
        if (seen.has(id)) {
          throw new InputError(`document '${id}' appears again after other documents (first at ${seen.get(id)}); a document's rows must be consecutive`, file, lineNo);
        }
        seen.set(id, `${file}:${lineNo}`);
        last = id;
      }
      yield { doc: id, en: en.trim(), other: other.trim(), file, line: lineNo };
    }
    if (rows === 0) throw new InputError("the input file is empty", file);
  }
}

/** Groups streamed rows into documents (a document is complete when the next one starts). */
export async function* streamTsvDocs(rows: AsyncIterable<TsvRow>): AsyncGenerator<TsvDoc> {
  let cur: TsvDoc | undefined;
  for await (const r of rows) {
    if (!cur || cur.id !== r.doc) {
      if (cur) yield cur;
      cur = { id: r.doc, en: [], other: [], where: [] };
    }
    cur.en.push(r.en);
    cur.other.push(r.other);
    cur.where.push(`${r.file}:${r.line}`);
  }
  if (cur) yield cur;
}

/** Reads TSV files of `docid \t English \t other` rows into documents (see streamTsvRows). */
export async function readTsvDocs(files: string[], opts: TsvReadOptions = {}): Promise<TsvDoc[]> {
  const docs: TsvDoc[] = [];
  for await (const d of streamTsvDocs(streamTsvRows(files, opts))) docs.push(d);
  return docs;
}

// ---------------------------------------------------------------------------------------------
// Input checks: script and language of each column

const LATIN = /\p{Script=Latin}/gu;
const CYRILLIC = /\p{Script=Cyrillic}/gu;
const LETTER = /\p{L}/gu;

/** Script the text of a language is written in. */
export function scriptOf(lang: string): "Cyrillic" | "Latin" {
  return lang === "ru" ? "Cyrillic" : "Latin";
}

function count(re: RegExp, s: string): number {
  re.lastIndex = 0;
  let n = 0;
  while (re.exec(s)) n++;
  return n;
}

/**
 * Share of a text's letters in the script of `lang`, or undefined when it has too few letters to
 * judge (numbers, names, one-word lines).
 */
export function scriptShare(text: string, lang: string, minLetters = 4): number | undefined {
  // URLs, e-mail addresses, @handles and #tags are Latin in every language: not evidence.
  const t = text.replace(/\b(?:https?:\/\/|www\.)\S+|\S+@\S+\.\S+|[@#][\p{L}\p{N}_]+/gu, " ");
  const letters = count(LETTER, t);
  if (letters < minLetters) return undefined;
  return count(scriptOf(lang) === "Cyrillic" ? CYRILLIC : LATIN, t) / letters;
}

/**
 * Frequent function words of each language (only words no other list has), to tell a column in
 * the wrong Latin-script language (swapped columns, a wrong -l) from the right one.
 */
const FUNCTION_WORDS: Record<string, readonly string[]> = {
  en: ["the", "and", "of", "to", "is", "that", "it", "with", "was", "you", "this", "are", "have", "for", "not"],
  de: ["der", "die", "und", "das", "ist", "nicht", "ich", "mit", "ein", "eine", "den", "auf", "zu", "sich", "auch"],
  es: ["el", "los", "las", "y", "por", "pero", "muy", "está", "yo", "usted", "también", "como", "sus", "hay", "esto"],
  fr: ["le", "les", "et", "des", "est", "pas", "je", "vous", "il", "dans", "du", "pour", "qui", "une", "sur"],
  it: ["il", "che", "di", "è", "gli", "della", "sono", "ho", "mi", "anche", "questo", "perché", "nel", "alla", "molto"],
  pl: ["nie", "się", "jest", "że", "na", "w", "z", "jak", "ale", "tak", "mnie", "jestem", "już", "tylko", "dla"],
  pt: ["os", "não", "em", "você", "isso", "uma", "um", "eu", "ele", "mais", "muito", "são", "foi", "também", "às"],
  ru: ["и", "в", "не", "на", "что", "я", "с", "он", "как", "это", "по", "но", "она", "так", "все"],
};
const WORD_LANG: Map<string, string> = (() => {
  const m = new Map<string, string>();
  const dup = new Set<string>();
  for (const [l, ws] of Object.entries(FUNCTION_WORDS))
    for (const w of ws) {
      if (m.has(w) && m.get(w) !== l) dup.add(w);
      m.set(w, l);
    }
  for (const w of dup) m.delete(w);
  return m;
})();

/** Counts of function words per language in a text. */
export function functionWordHits(text: string, into: Map<string, number> = new Map()): Map<string, number> {
  for (const w of text.toLowerCase().split(/[^\p{L}]+/u)) {
    const l = WORD_LANG.get(w);
    if (l) into.set(l, (into.get(l) ?? 0) + 1);
  }
  return into;
}

const LANG_NAMES: Record<string, string> = {
  en: "English", de: "German", es: "Spanish", fr: "French", it: "Italian", pl: "Polish", pt: "Portuguese", ru: "Russian",
};

interface ColumnStats {
  lang: string;
  name: string;
  checked: number;
  wrong: number;
  firstWrong?: string;
  words: Map<string, number>;
  /** Where the function-word counts come from (first rows). */
  wordsFrom: string;
}

export interface InputCheckOptions {
  /** Rows after which a column mostly in the wrong script or language is an error (default 200). */
  decideAfter?: number;
  /** Lines warned about one by one before a summary (default 10). */
  maxWarnings?: number;
}

/**
 * Checks rows as they stream by: empty English or other-language text and lines in the wrong script
 * are warnings naming the line; a column that is mostly in the wrong script, or whose function words
 * are mostly another language's (columns swapped, wrong -l), is an InputError once `decideAfter` rows
 * have been seen (or at the end), so that no run ends in a silently empty result.
 */
export class InputChecker {
  private readonly cols: [ColumnStats, ColumnStats];
  private rows = 0;
  private warned = 0;
  private suppressed = 0;
  private decided = false;
  private readonly decideAfter: number;
  private readonly maxWarnings: number;

  constructor(
    readonly lang: string,
    private readonly warn: (message: string) => void,
    opts: InputCheckOptions = {},
  ) {
    this.decideAfter = opts.decideAfter ?? 200;
    this.maxWarnings = opts.maxWarnings ?? 10;
    const col = (l: string, name: string): ColumnStats => ({ lang: l, name, checked: 0, wrong: 0, words: new Map(), wordsFrom: "" });
    this.cols = [col("en", "English (2nd)"), col(lang, `${LANG_NAMES[lang] ?? lang} (3rd)`)];
  }

  private note(where: string, message: string): void {
    if (this.warned < this.maxWarnings) {
      this.warned++;
      this.warn(`${where}: warning: ${message}`);
    } else this.suppressed++;
  }

  check(row: TsvRow): void {
    this.rows++;
    const where = `${row.file}:${row.line}`;
    const texts = [row.en, row.other];
    this.cols.forEach((c, k) => {
      const text = texts[k]!;
      if (text === "") {
        this.note(where, `empty ${c.name} column; the segment pair is kept but can yield no item`);
        return;
      }
      const share = scriptShare(text, c.lang);
      if (share !== undefined) {
        c.checked++;
        if (share < 0.5) {
          c.wrong++;
          c.firstWrong ??= where;
          this.note(where, `the ${c.name} column is not in ${scriptOf(c.lang)} script (${Math.round(100 * share)}% of its letters): "${text.slice(0, 60)}"`);
        }
      }
      if (!this.decided) functionWordHits(text, c.words);
    });
    if (!this.decided && this.rows >= this.decideAfter) this.decide(where);
  }

  private decide(upTo: string): void {
    this.decided = true;
    for (const c of this.cols) {
      if (c.checked > 0 && c.wrong / c.checked > 0.5) {
        throw new InputError(
          `${c.wrong} of the first ${c.checked} checked rows have the ${c.name} column in another script than ${scriptOf(c.lang)} ` +
            `(first at ${c.firstWrong}); is -l ${this.lang} right, and are the columns docid, English, ${LANG_NAMES[this.lang] ?? this.lang}?`,
        );
      }
      const total = [...c.words.values()].reduce((a, b) => a + b, 0);
      const own = c.words.get(c.lang) ?? 0;
      const [top, topN] = [...c.words.entries()].sort((a, b) => b[1] - a[1])[0] ?? ["", 0];
      if (total >= 30 && top !== c.lang && topN / total > 0.5 && own / total < 0.2) {
        throw new InputError(
          `the ${c.name} column reads like ${LANG_NAMES[top] ?? top}, not ${LANG_NAMES[c.lang] ?? c.lang} ` +
            `(function words in the rows up to ${upTo}: ${topN} ${top}, ${own} ${c.lang}); is -l ${this.lang} right, and are the columns docid, English, ${LANG_NAMES[this.lang] ?? this.lang}?`,
        );
      }
    }
  }

  /** Call after the last row: decides for short inputs and summarises suppressed warnings. */
  finish(lastWhere = "the end"): void {
    if (!this.decided) this.decide(lastWhere);
    if (this.suppressed > 0) this.warn(`warning: ${this.suppressed} more lines with empty or wrong-script text (not listed)`);
  }
}

// ---------------------------------------------------------------------------------------------
// Annotation and matching

/** Annotates one TSV document with the given annotators. */
export async function annotateDoc(doc: TsvDoc, lang: string, ann: Annotators): Promise<AnnotatedParallelDoc> {
  const en = doc.en.map((s, k) => {
    try {
      return ann.morph.en.annotate(s);
    } catch (e) {
      if (e instanceof InputError) throw new InputError(`${doc.where[k]}: ${e.message}`);
      throw e;
    }
  });
  const tgt = doc.other.map((s, k) => {
    try {
      return ann.morph.tgt.annotate(s);
    } catch (e) {
      if (e instanceof InputError) throw new InputError(`${doc.where[k]}: ${e.message}`);
      throw e;
    }
  });
  const alignment = await ann.aligner.align(
    en.map((s) => s.tokens.map((t) => t.text)),
    tgt.map((s) => s.tokens.map((t) => t.text)),
    { en, other: tgt },
  );
  if (NOMINAL_RETAG_LANGS.has(lang) && ann.morph.tgt instanceof MorphTagger) {
    const person = ann.coref.isPerson?.bind(ann.coref);
    for (let i = 0; i < tgt.length; i++) {
      const at = misTaggedNominals(en[i]!.tokens, tgt[i]!.tokens, alignment[i]!);
      const names = copiedNames(en[i]!.tokens, tgt[i]!.tokens, alignment[i]!, ann.morph.tgt.prepositionCases);
      if (at.size || names.size) tgt[i] = ann.morph.tgt.annotate(doc.other[i]!, { nominal: at, names });
      const oblique = obliqueNouns(en[i]!.tokens, tgt[i]!.tokens, alignment[i]!, names, person);
      if (oblique.size) tgt[i] = ann.morph.tgt.annotate(doc.other[i]!, { nominal: at, names, oblique });
    }
  }
  const cliticForms = ALIGNED_CLITICS[lang];
  if (cliticForms && ann.morph.tgt instanceof MorphTagger) {
    const morph = ann.morph.tgt;
    const verbOnly = (w: string) => morph.verbOnlyForm(w);
    for (let i = 0; i < tgt.length; i++) {
      const clitics = alignedClitics(en[i]!.tokens, tgt[i]!.tokens, alignment[i]!, cliticForms, PREPOSITION_HOMOGRAPHS[lang], verbOnly);
      if (clitics.size) tgt[i] = ann.morph.tgt.annotate(doc.other[i]!, { clitics });
    }
  }
  // After the clitic re-read, which re-tags whole lines: lever 29 replaces only its own words' tags.
  if (ALIGNED_NOUN_LANGS.has(lang) && ann.morph.tgt instanceof MorphTagger) retagAlignedNouns(doc, en, tgt, alignment, ann.morph.tgt);
  const numbers = ALIGNED_NUMBER_LANGS.has(lang) && ann.morph.tgt instanceof MorphTagger ? ann.morph.tgt.nouns : undefined;
  if (numbers) for (let i = 0; i < tgt.length; i++) tgt[i] = { ...tgt[i]!, tokens: alignedNumbers(en[i]!.tokens, tgt[i]!.tokens, alignment[i]!, numbers) };
  const coref = ann.coref.resolve(en);
  return { id: doc.id, lang, en, tgt, alignment, coref };
}

/**
 * Languages whose noun lexicon lets identify re-read words aligned to English nouns as nouns (lever 29; pl
 * only where Debian's Apertium analyser is installed, lever 37b: without a lexicon knownNoun is false there).
 */
const ALIGNED_NOUN_LANGS = new Set(["es", "it", "pt", "pl"]);
/**
 * Portuguese has no noun lexicon here (MorphTagger.knownNoun only checks the word's shape), so only words
 * the tagger put in an open nominal class are re-read: adjectives ("bicicleta/ADJ", "barba/ADJ"), a proper
 * noun that is the line's first word ("Dinheiro/PROPN", "Lei/PROPN"), numerals and foreign words; not verbs
 * ("encherei", "trabalhar" for "shovel", "trunk"), determiners ("outra"), adverbs or prepositions.
 */
const SHAPE_ONLY_TAGS: Record<string, ReadonlySet<string>> = { pt: new Set(["ADJ", "PROPN", "NUM", "X"]) };

/** Languages whose noun lexicon lists the numbers of a form that is both (lever 37c: the Apertium analyser, pl). */
const ALIGNED_NUMBER_LANGS = new Set(["pl"]);

/**
 * Nouns whose form the lexicon knows in both numbers (pl *twarzy*, *krwi*, *korony*, *sukienki*: genitive singular
 * and a plural case) take the number of the English nouns every link of theirs goes to, where those agree: the
 * tagger guessed the plural for "she cut it (his face, *twarzy*) in half" (lever 37c). Other words are returned as
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

/** Re-tags, line by line, the words alignedNouns finds (lever 29). */
function retagAlignedNouns(doc: TsvDoc, en: readonly AnnSentence[], tgt: AnnSentence[], alignment: readonly SentenceAlignment[], tagger: MorphTagger): void {
  const known = (w: string) => tagger.knownNoun(w);
  const participle = (w: string) => tagger.participleOnly(w);
  for (let i = 0; i < tgt.length; i++) {
    const at = alignedNouns(en[i]!.tokens, tgt[i]!.tokens, alignment[i]!, known, tagger.lang, participle);
    if (!at.size) continue;
    // Only those words take the new tags: re-tagging the whole line moves others too ("Consumía cocaína. La
    // consumía", where *La* became an article), which costs as many items as it wins.
    const retagged = tagger.annotate(doc.other[i]!, { nouns: at }).tokens;
    tgt[i] = { ...tgt[i]!, tokens: tgt[i]!.tokens.map((t, k) => (at.has(k) ? retagged[k]! : t)) };
  }
}

/**
 * Target words the tagger did not call a noun although every link of theirs goes to an English common
 * noun and the language's lexicon knows them as nouns (`known`: MorphTagger.knownNoun, which also leaves
 * out closed-class words): it "le uova/DET", "la parola/VERB", "i maschi/ADJ", es "las chicas/ADJ",
 * "la bebida/VERB", "el sándwich/CCONJ". Without a noun tag the antecedent gives no gender (lever 29).
 * Left alone: a word beside a noun the lexicon knows, mostly that noun's modifier where the English noun's own link is
 * missing ("el momento adecuado" for "the right time" with *time*–*adecuado*); a word right after an
 * auxiliary tagged VERB that the verb lexicon knows only as a participle (`participle`; a noun after a
 * copula, "c'erano facce", stays) or an auxiliary itself; a link to an abbreviation ("No."); for es, pt a word without
 * a final *-s* linked to an English plural. Alignment errors onto verbs ("sapevano" for "tracks") fail the
 * lexicon check.
 */
export function alignedNouns(
  en: readonly AnnToken[],
  tgt: readonly AnnToken[],
  links: SentenceAlignment,
  known: (word: string) => boolean,
  lang: string,
  participle: (word: string) => boolean = () => true,
): Set<number> {
  const at = new Set<number>();
  tgt.forEach((t, j) => {
    if (t.upos === "NOUN" || t.upos === "PUNCT" || t.upos === "SYM" || t.upos === "AUX" || !/\p{L}/u.test(t.text)) return;
    const shape = SHAPE_ONLY_TAGS[lang];
    if (shape && (!shape.has(t.upos) || (t.upos === "PROPN" && tgt.slice(0, j).some((x) => x.upos !== "PUNCT")))) return;
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
    if ((lang === "es" || lang === "pt") && ls.some((l) => en[l[0]]!.feats.Number === "Plur") && !/s$/i.test(t.text)) return;
    if (known(t.text)) at.add(j);
  });
  return at;
}

/**
 * Target words of a verb-less English line written exactly as the English proper noun every link of theirs
 * goes to (pl "Oh, Charlie/PRON.", "Cześć, Ed/PROPN|Gen", "Jerry/NUM"): a name left in its base form,
 * which for a Polish name is the nominative (any other case adds an ending: *Eda, Edowi*) and for a foreign
 * name that Polish does not decline is its one form; the tagger, which has seen few foreign names, reads
 * them as pronouns, numerals or genitives. Re-tagged PROPN in the nominative (lever 19j); not right after a
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

/**
 * Polish words of a verb-less English line's target whose every link goes to an English singular noun or
 * proper noun and whose *-ie* ending rules out their label (plObliqueSingular: *Obamie/ADJ|Nom* for "Obama",
 * *Marcie/DET|Nom* for "Marta", *Rodionie/NOUN|Plur|Nom* for "Rodion"), and words in consonant + *-u* read in
 * another case than Dat, Loc, Voc whose every link goes to an English singular person noun (plPersonU: *Skrzypku*
 * GEN for "Fiddler!"; `person`, the resolver's lexicons): re-tagged as singular masculine or feminine nouns in the
 * dative or vocative (lever 22a; the locative these endings also leave needs a preposition). Not the names 19j
 * keeps in the nominative (*Annie* for "Annie"), nor words right after a preposition, whose case it restricts.
 */
export function obliqueNouns(
  en: readonly AnnToken[],
  tgt: readonly AnnToken[],
  links: SentenceAlignment,
  names: ReadonlySet<number> = new Set(),
  person?: (lemma: string) => boolean,
): Set<number> {
  const at = new Set<number>();
  if (en.some((t) => VERB_TAGS.has(t.upos))) return at;
  tgt.forEach((t, j) => {
    if (names.has(j) || (j > 0 && tgt[j - 1]!.upos === "ADP")) return;
    const ls = links.filter((l) => l[1] === j);
    if (!ls.length) return;
    const lower = t.text.toLowerCase();
    const singular = (upos: readonly string[]) => ls.every((l) => upos.includes(en[l[0]]!.upos) && en[l[0]]!.feats.Number !== "Plur");
    if (plObliqueSingular(lower, t.upos, t.feats) && singular(["NOUN", "PROPN"])) at.add(j);
    // A masculine noun in consonant + *-u* that renders an English person noun: not its genitive (*-a* for
    // persons: *skrzypka*) nor nominative, accusative or instrumental, but its dative or vocative (*panu,
    // Skrzypku!*); UD Polish-LFG: 24 personal masculine nouns so ending, none genitive.
    else if (person && plPersonU(lower, t.upos, t.feats) && singular(["NOUN", "PROPN"]) && ls.every((l) => person((en[l[0]]!.lemma || en[l[0]]!.text).toLowerCase()))) at.add(j);
  });
  return at;
}

/** English object pronouns a Romance accusative clitic renders. */
const EN_OBJECT_PRONOUNS = ["it", "them", "him", "her"];
/**
 * Per language, the article (or preposition) homographs of its accusative object clitics that alignedClitics
 * re-reads (lever 28); Italian *le* is also the feminine dative *to her*, so there only as *them*.
 */
export const ALIGNED_CLITICS: Record<string, ReadonlyMap<string, ReadonlySet<string>>> = {
  es: objectForms(["la", "lo", "las", "los"]),
  it: objectForms(["la", "lo", "li", "l'", "l’"], [["le", ["them"]]]),
  pt: objectForms(["a", "o", "as", "os"]),
};
function objectForms(forms: string[], limited: [string, string[]][] = []): Map<string, ReadonlySet<string>> {
  return new Map<string, ReadonlySet<string>>([...forms.map((f): [string, ReadonlySet<string>] => [f, new Set(EN_OBJECT_PRONOUNS)]), ...limited.map(([f, en]): [string, ReadonlySet<string>] => [f, new Set(en)])]);
}
/**
 * Homographs that are also prepositions (pt *a*: "está a juntar", "começou a ler"): before an infinitive they are
 * the clitic only right after a preposition ("de a ver", "para a ler"); the first pt read (lever 28) took
 * *estar a* + infinitive for the clitic.
 */
export const PREPOSITION_HOMOGRAPHS: Record<string, ReadonlySet<string>> = { pt: new Set(["a"]) };
const INFINITIVE_SHAPE = /\p{L}[aeiô]r$/u;
const PT_PREPOSITIONS = new Set(["de", "para", "por", "sem", "até", "após"]);

/** English tags of the words a noun phrase's article would sit before: an article's next word does not render them. */
const EN_NOMINAL_TAGS = new Set(["NOUN", "PROPN", "ADJ", "NUM"]);
/**
 * English tags of a verb's particle or adverb, which the aligner may link the target verb to; and of its subject
 * pronoun or an interjection (lever 33: a pro-drop verb carries its subject, pt "Até a tinha" - "He ... carried it",
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
 * a present, subjunctive or infinitive as a noun, reads the article (lever 28). Not a word split off a
 * contraction (pt *na* -> *em a*). `forms`: homograph -> the
 * English pronouns it may render (ALIGNED_CLITICS); `prepositionHomographs`: those also prepositions (PREPOSITION_HOMOGRAPHS);
 * `verbOnly`: whether a word is known only as a verb (MorphTagger.verbOnlyForm), which lets a next word linked only to
 * English particles or adverbs count.
 */
export function alignedClitics(en: readonly AnnToken[], tgt: readonly AnnToken[], links: SentenceAlignment, forms: ReadonlyMap<string, ReadonlySet<string>>,
  prepositionHomographs?: ReadonlySet<string>,
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
    if (prepositionHomographs?.has(lower) && INFINITIVE_SHAPE.test(next.text.toLowerCase())) {
      const prev = tgt[j - 1];
      if (!prev || !(prev.upos === "ADP" || PT_PREPOSITIONS.has(prev.text.toLowerCase()))) return;
    }
    const nls = links.filter((l) => l[1] === j + 1);
    if (nls.some((l) => EN_NOMINAL_TAGS.has(en[l[0]]!.upos))) return;
    if (nls.some((l) => VERB_TAGS.has(en[l[0]]!.upos)) || (!nls.length && VERB_LIKE_TAGS.has(next.upos))) at.add(j);
    // A verb the aligner linked to its English particle, adverb or subject pronoun ("tomé" - "either", "recoges" - "up",
    // "saqué" - "out"): where the verb lexicon knows the word only as a verb (lever 28c; pt: ptFiniteVerb, lever 33).
    else if (nls.every((l) => EN_PARTICLE_TAGS.has(en[l[0]]!.upos)) && verbOnly?.(next.text)) at.add(j);
  });
  return at;
}

/** Languages whose target lines identify re-tags where misTaggedNominals finds words (lever 19a: Polish, no dictionary). */
const NOMINAL_RETAG_LANGS = new Set(["pl"]);
const VERB_TAGS = new Set(["VERB", "AUX"]);
const NOMINAL_EN_TAGS = new Set(["NOUN", "PROPN", "ADJ", "NUM", "PRON"]);

/**
 * Target words of a verb-less English line that the tagger calls a verb although every link of theirs goes
 * to an English noun, proper noun, adjective, numeral or pronoun (pl "Boginią/VERB?" for "A deity?",
 * "Przyjaciółmi/VERB?" for "Friends?", "Maxowi/VERB?" for "Max?"): the Polish tagger reads the first
 * word of a verb-less fragment as a verb. Unaligned words and words linked to an interjection or
 * adverb ("Ojć" for "Oops") are left alone. The engine's inflection rule (paper mode) lets the same words
 * pass its verb check (lever 15e); re-tagged (lever 19a) they also get a case.
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

export interface IdentifyOptions extends EngineOptions {
  /**
   * Keep items whose expected form is not a whole word of the reference segment. Our tokenizer splits
   * enclitics and contractions into UD words (es verlo -> ver lo, de zum -> zu dem), so such an item's
   * expected form ("lo", "dem") never occurs as a word and `ctxpro score` could not credit even the
   * reference; by default they are dropped (and counted in `dropped`).
   */
  keepUnscorable?: boolean;
  /** Filled with the number of items dropped per rule set. */
  dropped?: Map<string, number>;
}

/** Whether an item's expected form occurs as a whole word of its reference segment (the scorer's test). */
export function scorableWithReference(item: CtxproItem): boolean {
  const ref = String(item["ref segment"] ?? "");
  return new ExpectedForm(String(item.expected ?? "")).foundIn(words(ref), ref);
}

/** Runs the rule sets over every document. */
export async function identify(
  docs: Iterable<TsvDoc> | AsyncIterable<TsvDoc>,
  lang: string,
  sets: RuleSet[],
  ann: Annotators,
  opts: IdentifyOptions = {},
  onDoc?: (done: number, pairs: number) => void,
): Promise<Map<string, CtxproItem[]>> {
  const all = new Map<string, CtxproItem[]>(sets.map((s) => [s.name, []]));
  let done = 0;
  let pairs = 0;
  // The resolver's person lexicon keeps the engine's fallback antecedent of *it* off person nouns.
  const person = ann.coref.isPerson?.bind(ann.coref);
  const engineOpts = person && !opts.personNoun ? { ...opts, personNoun: person } : opts;
  for await (const d of docs) {
    const annotated = await annotateDoc(d, lang, ann);
    for (const [name, found] of matchDocument(annotated, sets, engineOpts)) {
      const items = opts.keepUnscorable ? found : found.filter(scorableWithReference);
      if (opts.dropped && items.length < found.length) opts.dropped.set(name, (opts.dropped.get(name) ?? 0) + found.length - items.length);
      all.get(name)!.push(...items);
    }
    pairs += d.en.length;
    onDoc?.(++done, pairs);
  }
  return all;
}

export type IdentifyPhase = "tokenise" | "train" | "identify";

export interface IdentifyFilesOptions extends IdentifyOptions {
  /** Warnings about the input (one line each, without a trailing newline). */
  warn?: (message: string) => void;
  /** Progress: segment pairs done in a phase, out of `total` when known. */
  progress?: (phase: IdentifyPhase, done: number, total?: number) => void;
  /** Input checks (script, language); default on. */
  check?: boolean | InputCheckOptions;
  /** The TSV quotes its cells (see TsvReadOptions). */
  quoted?: boolean;
}

export interface IdentifyStats {
  docs: number;
  pairs: number;
  /** Seconds per phase (tokenise and train only with a corpus-trained aligner). */
  seconds: Record<IdentifyPhase, number>;
}

/**
 * identify over TSV files, streaming. With the built-in annotators the input is read twice: first
 * to tokenise every pair for the aligner's training (and check the input), then to annotate and match
 * one document at a time; only the aligner's integer corpus and the items found stay in memory.
 */
export async function identifyFiles(
  files: string[],
  lang: string,
  sets: RuleSet[],
  ann: Annotators,
  opts: IdentifyFilesOptions = {},
): Promise<{ found: Map<string, CtxproItem[]>; stats: IdentifyStats }> {
  const warn = opts.warn ?? ((m: string) => process.stderr.write(m + "\n"));
  const seconds: Record<IdentifyPhase, number> = { tokenise: 0, train: 0, identify: 0 };
  const checkOpts = opts.check === false ? undefined : opts.check === true || opts.check === undefined ? {} : opts.check;
  let checker = checkOpts ? new InputChecker(lang, warn, checkOpts) : undefined;
  const checked = async function* (rows: AsyncIterable<TsvRow>, c: InputChecker | undefined): AsyncGenerator<TsvRow> {
    let last: TsvRow | undefined;
    for await (const r of rows) {
      c?.check(r);
      last = r;
      yield r;
    }
    c?.finish(last ? `${last.file}:${last.line}` : undefined);
  };
  let total: number | undefined;
  if (isBuiltin(ann) && !ann.aligner.trained) {
    let t0 = performance.now();
    let n = 0;
    for await (const r of checked(streamTsvRows(files, { quoted: opts.quoted }), checker)) {
      ann.aligner.add(ann.tokenize.en(r.en), ann.tokenize.tgt(r.other));
      opts.progress?.("tokenise", ++n);
    }
    checker = undefined; // checked once
    total = n;
    seconds.tokenise = (performance.now() - t0) / 1000;
    opts.progress?.("train", 0);
    t0 = performance.now();
    await ann.aligner.train();
    seconds.train = (performance.now() - t0) / 1000;
  }
  const t0 = performance.now();
  let docs = 0;
  let pairs = 0;
  const found = await identify(streamTsvDocs(checked(streamTsvRows(files, { quoted: opts.quoted }), checker)), lang, sets, ann, opts, (d, p) => {
    docs = d;
    pairs = p;
    opts.progress?.("identify", p, total);
  });
  seconds.identify = (performance.now() - t0) / 1000;
  return { found, stats: { docs, pairs, seconds } };
}

/** Output file name of a rule set: <phenomenon>.<src>-<tgt>.json (animacy is <lang>-en). */
export function outputName(set: RuleSet, gzip: boolean): string {
  const pair = set.reversed ? `${set.lang}-en` : `en-${set.lang}`;
  const stem = set.phenomenon === "custom" ? set.name : set.phenomenon;
  return `${stem}.${pair}.json${gzip ? ".gz" : ""}`;
}

/** Writes one JSON array per rule set into `dir` (each file atomically); returns the paths. */
export function writeIdentified(dir: string, sets: RuleSet[], found: Map<string, CtxproItem[]>, gzip = false): string[] {
  const names = sets.map((s) => outputName(s, gzip));
  const dup = names.find((n, k) => names.indexOf(n) !== k);
  if (dup) throw new InputError(`two rule sets would both be written to ${dup}; pass each rule set once`);
  // One file per rule set, all of them or none.
  const files: Array<[string, string]> = sets.map((s, k) => [join(dir, names[k]!), JSON.stringify(found.get(s.name) ?? [], null, 2) + "\n"]);
  writeFilesAtomic(files);
  return files.map(([p]) => p);
}
