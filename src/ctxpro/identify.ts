/**
 * `ctxpro identify`: parallel documents (TSV: docid, English, other language; the layout of
 * `sacrebleu --echo docid src ref`) -> annotated documents -> CTXPRO items per rule set.
 */
import { join } from "node:path";
import { InputError } from "../io/errors.js";
import { streamTable } from "../io/table.js";
import { writeFilesAtomic } from "../io/atomic.js";
import { wordLanguageIndex } from "../text/language.js";
import type { AnnotatedParallelDoc, Annotators, CorpusPair } from "../annotate/types.js";
import { matchDocument, type EngineOptions } from "./engine.js";
import type { CtxproItem } from "./items.js";
import type { RuleSet } from "./rules.js";
import { ExpectedForm, words } from "./score.js";

export type { Annotators } from "../annotate/types.js";

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
const WORD_LANG = wordLanguageIndex(FUNCTION_WORDS);

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
  ann.beforeDocument?.(doc);
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
  const retagged = ann.retag ? ann.retag({ en, tgt, alignment }) : tgt;
  const coref = ann.coref.resolve(en);
  return { id: doc.id, lang, en, tgt: retagged, alignment, coref };
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
  /**
   * Receives each document's items per rule set, in input order, instead of the returned map (whose lists then
   * stay empty): a writer that streams them out keeps memory flat however many items a corpus yields.
   */
  onItems?: (set: string, items: CtxproItem[]) => void;
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
  const sink = opts.onItems ?? ((name: string, items: CtxproItem[]) => all.get(name)!.push(...items));
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
      if (items.length) sink(name, items);
    }
    pairs += d.en.length;
    onDoc?.(++done, pairs);
  }
  return all;
}

export type IdentifyPhase = "tokenise" | "train" | "count" | "identify";

/** One part of a corpus: shard `index` (1-based) of `count`. */
export interface ShardSpec {
  index: number;
  count: number;
}

/**
 * Parses `--shard I/N` (1 <= I <= N). Shards split the input on document boundaries by segment pairs: the
 * document whose first row is row r (0-based) of P rows belongs to shard floor(r * N / P) + 1, so the shards
 * are consecutive runs of documents of nearly equal size, and shard 1's items, then shard 2's, ... are the
 * items of one run over the whole input, in its order.
 */
export function parseShardSpec(spec: string): ShardSpec {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(spec);
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!m || !Number.isSafeInteger(index) || !Number.isSafeInteger(count) || count < 1 || index < 1 || index > count) {
    throw new InputError(`--shard must be I/N with 1 <= I <= N (shard I of N, e.g. 1/8), got '${spec}'`);
  }
  return { index, count };
}

/** Shard (1-based) of the document that starts at row `row` of `total`. */
export function shardOfRow(row: number, total: number, count: number): number {
  return Math.floor((row * count) / total) + 1;
}

export interface IdentifyFilesOptions extends IdentifyOptions {
  /** Warnings about the input (one line each, without a trailing newline). */
  warn?: (message: string) => void;
  /** Progress: segment pairs done in a phase, out of `total` when known. */
  progress?: (phase: IdentifyPhase, done: number, total?: number) => void;
  /** Input checks (script, language); default on. */
  check?: boolean | InputCheckOptions;
  /** The TSV quotes its cells (see TsvReadOptions). */
  quoted?: boolean;
  /** Only this shard of the input's documents (see parseShardSpec). */
  shard?: ShardSpec;
}

export interface IdentifyStats {
  /** Documents and segment pairs identified (the shard's, with a shard). */
  docs: number;
  pairs: number;
  /** Documents and segment pairs of the whole input (known when it was read whole: prepared on, or sharded). */
  inputDocs?: number;
  inputPairs?: number;
  /** First and last document identified. */
  firstDoc?: string;
  lastDoc?: string;
  /** Seconds per phase (tokenise and train only with a corpus-trained aligner, count only with a shard). */
  seconds: Record<IdentifyPhase, number>;
}

function checkedRows(rows: AsyncIterable<TsvRow>, c: InputChecker | undefined): AsyncGenerator<TsvRow> {
  return (async function* () {
    let last: TsvRow | undefined;
    for await (const r of rows) {
      c?.check(r);
      last = r;
      yield r;
    }
    c?.finish(last ? `${last.file}:${last.line}` : undefined);
  })();
}

/** Rows and documents of TSV files, and an input checker when checks are on. */
export interface PrepareResult {
  /** Whether the annotators' prepare read every row (it did not when they were ready, e.g. a saved aligner). */
  readAll: boolean;
  pairs: number;
  docs: number;
  seconds: { tokenise: number; train: number };
}

/**
 * The first pass: hands every segment pair to `ann.prepare` (the built-in annotators tokenise the corpus and
 * train their aligner on it), checking the input as it goes. Annotators without `prepare` read nothing.
 */
export async function prepareFiles(
  files: string[],
  lang: string,
  ann: Annotators,
  opts: Pick<IdentifyFilesOptions, "warn" | "progress" | "check" | "quoted"> = {},
): Promise<PrepareResult> {
  const warn = opts.warn ?? ((m: string) => process.stderr.write(m + "\n"));
  const checkOpts = opts.check === false ? undefined : opts.check === true || opts.check === undefined ? {} : opts.check;
  const result: PrepareResult = { readAll: false, pairs: 0, docs: 0, seconds: { tokenise: 0, train: 0 } };
  if (!ann.prepare) return result;
  const t0 = performance.now();
  let trainFrom: number | undefined;
  let lastDoc: string | undefined;
  const rows = checkedRows(streamTsvRows(files, { quoted: opts.quoted }), checkOpts ? new InputChecker(lang, warn, checkOpts) : undefined);
  const pairs = async function* (): AsyncGenerator<CorpusPair> {
    for await (const r of rows) {
      if (r.doc !== lastDoc) {
        result.docs++;
        lastDoc = r.doc;
      }
      yield { en: r.en, other: r.other };
      opts.progress?.("tokenise", ++result.pairs);
    }
    result.readAll = true;
  };
  await ann.prepare(pairs(), (phase) => {
    if (phase !== "train" || trainFrom !== undefined) return;
    trainFrom = performance.now();
    opts.progress?.("train", 0);
  });
  const t1 = performance.now();
  result.seconds.tokenise = ((trainFrom ?? t1) - t0) / 1000;
  result.seconds.train = (t1 - (trainFrom ?? t1)) / 1000;
  return result;
}

/** Counts the rows and documents of TSV files (checking their structure, as streamTsvRows does). */
export async function countTsv(files: string[], opts: TsvReadOptions & { progress?: (rows: number) => void } = {}): Promise<{ pairs: number; docs: number }> {
  let pairs = 0;
  let docs = 0;
  let last: string | undefined;
  for await (const r of streamTsvRows(files, opts)) {
    if (r.doc !== last) {
      docs++;
      last = r.doc;
    }
    if (++pairs % 10000 === 0) opts.progress?.(pairs);
  }
  return { pairs, docs };
}

/** The rows of the documents of one shard (reading stops after its last document). */
async function* shardRows(rows: AsyncIterable<TsvRow>, shard: ShardSpec, total: number): AsyncGenerator<TsvRow> {
  let row = 0;
  let last: string | undefined;
  let inShard = false;
  for await (const r of rows) {
    if (r.doc !== last) {
      last = r.doc;
      const s = shardOfRow(row, total, shard.count);
      if (s > shard.index) return;
      inShard = s === shard.index;
    }
    row++;
    if (inShard) yield r;
  }
}

/**
 * identify over TSV files, streaming. With annotators that prepare on the corpus (`Annotators.prepare`: the
 * built-in ones train their aligner) the input is read twice: first for `prepare` (and to check the input),
 * then to annotate and match one document at a time; only what the annotators keep of the first pass (the
 * aligner's integer corpus) and the items found stay in memory (not even the items with `onItems`). With a
 * shard and annotators that are ready (a saved aligner), the first pass only counts the rows, and the second
 * annotates the shard's documents only.
 */
export async function identifyFiles(
  files: string[],
  lang: string,
  sets: RuleSet[],
  ann: Annotators,
  opts: IdentifyFilesOptions = {},
): Promise<{ found: Map<string, CtxproItem[]>; stats: IdentifyStats }> {
  const warn = opts.warn ?? ((m: string) => process.stderr.write(m + "\n"));
  const seconds: Record<IdentifyPhase, number> = { tokenise: 0, train: 0, count: 0, identify: 0 };
  const checkOpts = opts.check === false ? undefined : opts.check === true || opts.check === undefined ? {} : opts.check;
  const prep = await prepareFiles(files, lang, ann, opts);
  seconds.tokenise = prep.seconds.tokenise;
  seconds.train = prep.seconds.train;
  let inputPairs = prep.readAll ? prep.pairs : undefined;
  let inputDocs = prep.readAll ? prep.docs : undefined;
  if (opts.shard && inputPairs === undefined) {
    if (files.includes("-")) throw new InputError("--shard reads the input twice (to count its rows, then its shard); give a file, not standard input");
    const t0 = performance.now();
    opts.progress?.("count", 0);
    const c = await countTsv(files, { quoted: opts.quoted, progress: (n) => opts.progress?.("count", n) });
    inputPairs = c.pairs;
    inputDocs = c.docs;
    seconds.count = (performance.now() - t0) / 1000;
  }
  // Checked once when prepare read every row (the whole input); otherwise here, on the rows identified.
  const checker = checkOpts && !prep.readAll ? new InputChecker(lang, warn, checkOpts) : undefined;
  let rows: AsyncIterable<TsvRow> = streamTsvRows(files, { quoted: opts.quoted });
  if (opts.shard) rows = shardRows(rows, opts.shard, inputPairs!);
  const total = opts.shard ? undefined : inputPairs;
  const t0 = performance.now();
  let docs = 0;
  let pairs = 0;
  let firstDoc: string | undefined;
  let lastDoc: string | undefined;
  const named = async function* (ds: AsyncIterable<TsvDoc>): AsyncGenerator<TsvDoc> {
    for await (const d of ds) {
      firstDoc ??= d.id;
      lastDoc = d.id;
      yield d;
    }
  };
  const found = await identify(named(streamTsvDocs(checkedRows(rows, checker))), lang, sets, ann, opts, (d, p) => {
    docs = d;
    pairs = p;
    opts.progress?.("identify", p, total);
  });
  seconds.identify = (performance.now() - t0) / 1000;
  return { found, stats: { docs, pairs, inputDocs, inputPairs, firstDoc, lastDoc, seconds } };
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
