/**
 * Line-based test sets: one segment a line, parallel files (source, references, hypotheses) and an
 * optional document-id file. Shared by the plain-text reader (user files) and the WMT text layout.
 */
import { basename } from "node:path";
import { InputError } from "./errors.js";
import { streamLines } from "./lines.js";
import { readTable } from "./table.js";
import type { Doc, TestSet } from "./model.js";

export interface ReadOptions {
  /** Accept empty (or whitespace-only) source and reference lines instead of rejecting them. */
  allowEmpty?: boolean;
}

/** One parallel file of a line-based test set. */
export interface LineFile {
  role: "src" | "ref" | "hyp";
  /** Reference or system name; ignored for the source. */
  name: string;
  path: string;
}

/** One line of a document-id file. */
export interface DocIdEntry {
  id: string;
  domain?: string;
}

export interface LineTestSetMeta {
  name: string;
  langPair: string;
  format: "wmt-txt" | "text";
}

/** All lines of a plain or gzipped file, read as a stream (strict UTF-8, line numbers in errors). */
export async function readAllLines(path: string): Promise<string[]> {
  const out: string[] = [];
  for await (const line of streamLines(path)) out.push(line);
  return out;
}

/** Splits "xx-yy" into its languages; anything else is the user's mistake. */
export function splitLangPair(langPair: string): [string, string] {
  const m = /^([A-Za-z]{2,8}(?:_[A-Za-z0-9]+)?)-([A-Za-z]{2,8}(?:_[A-Za-z0-9]+)?)$/.exec(langPair);
  if (!m) throw new InputError(`invalid language pair "${langPair}" (expected source-target, e.g. de-en)`);
  return [m[1]!, m[2]!];
}

/**
 * Parses a document-id file: one id a line, or "domain<TAB>docid" a line (WMT24 `.docs`).
 * An empty id or more than two tab-separated fields is an error naming the line.
 */
export async function readDocIdFile(path: string): Promise<DocIdEntry[]> {
  // fast-csv without quoting: ids are taken as written, quotes included.
  const rows = await readTable(path);
  return rows.map(({ cells, line }) => {
    const fields = (cells.length ? cells : [""]).map((f) => f.trim());
    if (fields.length > 2) {
      throw new InputError(`expected "docid" or "domain<TAB>docid", found ${fields.length} tab-separated fields`, path, line);
    }
    const id = fields[fields.length - 1]!;
    if (id === "") throw new InputError("empty document id", path, line);
    return fields.length === 2 && fields[0] !== "" ? { id, domain: fields[0]! } : { id };
  });
}

interface Block {
  id: string;
  domain?: string;
  start: number; // 0-based, inclusive
  end: number; // exclusive
}

/**
 * Consecutive lines with the same id form one document. An id that comes back after another
 * document is rejected: silently merging or splitting it would give wrong context.
 */
export function groupDocIds(entries: DocIdEntry[], docsPath: string): Block[] {
  const blocks: Block[] = [];
  const seen = new Map<string, number>();
  entries.forEach((e, i) => {
    const last = blocks[blocks.length - 1];
    if (last && last.id === e.id) {
      last.end = i + 1;
      return;
    }
    const prev = seen.get(e.id);
    if (prev !== undefined) {
      throw new InputError(
        `document "${e.id}" reappears after other documents (its first block ends at line ${prev}); a document's lines must be consecutive`,
        docsPath,
        i + 1,
      );
    }
    if (last) seen.set(last.id, last.end);
    blocks.push({ id: e.id, ...(e.domain !== undefined ? { domain: e.domain } : {}), start: i, end: i + 1 });
  });
  return blocks;
}

function isEmptyLine(s: string): boolean {
  return s.trim() === "";
}

/** Short, unique names for user files: the base name without `.gz`, the full path where base names clash. */
export function namesFromPaths(paths: string[]): string[] {
  const bases = paths.map((p) => (p === "-" ? "stdin" : basename(p).replace(/\.gz$/i, "")));
  return bases.map((b, i) => (bases.indexOf(b) !== bases.lastIndexOf(b) ? paths[i]! : b));
}

function checkUniqueNames(files: LineFile[], role: "ref" | "hyp"): void {
  const seen = new Map<string, string>();
  for (const f of files) {
    if (f.role !== role) continue;
    const other = seen.get(f.name);
    if (other !== undefined) {
      throw new InputError(`${role === "ref" ? "reference" : "system"} name "${f.name}" is also used by ${other}`, f.path);
    }
    seen.set(f.name, f.path);
  }
}

/**
 * Reads parallel line files into a TestSet. All files (and the doc-id file) must have the same number
 * of lines. Empty source/reference lines are an error unless allowEmpty; empty hypothesis lines are
 * kept (systems do output them) and reported in `warnings`.
 */
export async function readLineTestSet(
  meta: LineTestSetMeta,
  files: LineFile[],
  docsPath: string | undefined,
  opts: ReadOptions = {},
): Promise<TestSet> {
  const [srcLang, tgtLang] = splitLangPair(meta.langPair);
  if (files.filter((f) => f.role === "src").length > 1) throw new InputError("more than one source file given");
  if (!files.some((f) => f.role === "ref")) throw new InputError("no reference file given");
  checkUniqueNames(files, "ref");
  checkUniqueNames(files, "hyp");

  // Source first, then references, then systems: the first file is the yardstick for line counts.
  const ordered = [
    ...files.filter((f) => f.role === "src"),
    ...files.filter((f) => f.role === "ref"),
    ...files.filter((f) => f.role === "hyp"),
  ];
  const contents: string[][] = [];
  const warnings: string[] = [];
  for (const f of ordered) {
    const lines = await readAllLines(f.path);
    const first = ordered[0]!;
    if (contents.length === 0) {
      if (lines.length === 0) throw new InputError("file has no lines", f.path);
    } else if (lines.length !== contents[0]!.length) {
      throw new InputError(`has ${lines.length} lines, but ${first.path} has ${contents[0]!.length}`, f.path);
    }
    if (f.role === "hyp") {
      const empty: number[] = [];
      lines.forEach((l, i) => isEmptyLine(l) && empty.push(i + 1));
      if (empty.length > 0) {
        warnings.push(
          `system "${f.name}": ${empty.length} empty line(s) kept (${f.path}, line ${empty.slice(0, 5).join(", ")}${empty.length > 5 ? ", ..." : ""})`,
        );
      }
    } else if (!opts.allowEmpty) {
      const i = lines.findIndex(isEmptyLine);
      if (i >= 0) {
        const what = f.role === "src" ? "source" : "reference";
        throw new InputError(`empty ${what} line (use allowEmpty / --allow-empty to accept empty lines)`, f.path, i + 1);
      }
    }
    contents.push(lines);
  }
  const n = contents[0]!.length;

  let blocks: Block[];
  if (docsPath !== undefined) {
    const entries = await readDocIdFile(docsPath);
    if (entries.length !== n) {
      throw new InputError(`has ${entries.length} document ids, but ${ordered[0]!.path} has ${n} lines`, docsPath);
    }
    blocks = groupDocIds(entries, docsPath);
  } else {
    blocks = [{ id: "line-block-1", start: 0, end: n }];
  }

  const docs: Doc[] = blocks.map((b) => {
    const lineNos: number[] = [];
    for (let i = b.start; i < b.end; i++) lineNos.push(i + 1);
    const doc: Doc = {
      id: b.id,
      segIds: lineNos.map(String),
      lines: lineNos,
      refs: {},
      hyps: {},
    };
    if (b.domain !== undefined) doc.domain = b.domain;
    ordered.forEach((f, k) => {
      const seg = contents[k]!.slice(b.start, b.end);
      if (f.role === "src") doc.src = seg;
      else if (f.role === "ref") doc.refs[f.name] = seg;
      else doc.hyps[f.name] = seg;
    });
    return doc;
  });

  const ts: TestSet = {
    name: meta.name,
    langPair: meta.langPair,
    srcLang,
    tgtLang,
    references: ordered.filter((f) => f.role === "ref").map((f) => f.name),
    systems: ordered
      .filter((f) => f.role === "hyp")
      .map((f) => f.name)
      .sort(),
    documentIds: docsPath !== undefined ? "given" : "none",
    format: meta.format,
    files: [...ordered.map((f) => f.path), ...(docsPath !== undefined ? [docsPath] : [])],
    docs,
  };
  if (warnings.length > 0) ts.warnings = warnings;
  return ts;
}

export interface PlainTestSetInput {
  /** Reference files, the primary one first. */
  refs: string[];
  /** System output files (may be empty, e.g. to read references only). */
  hyps: string[];
  src?: string;
  /** Document-id file: one id a line, or "domain<TAB>docid". */
  docs?: string;
  /** Language pair "xx-yy"; "und-und" (undetermined) when not given. */
  langPair?: string;
  /** Test-set name; the first reference's base name when not given. */
  name?: string;
}

/**
 * Reads user-supplied plain-text files (plain or .gz). Reference and system names are the files' base
 * names. Without a doc-id file the whole input is one pseudo-document (documentIds "none"): a segment's
 * context is simply the previous lines.
 */
export async function readPlainTestSet(input: PlainTestSetInput, opts: ReadOptions = {}): Promise<TestSet> {
  if (input.refs.length === 0) throw new InputError("at least one reference file is required");
  const names = namesFromPaths([...input.refs, ...input.hyps]);
  const files: LineFile[] = [
    ...(input.src !== undefined ? [{ role: "src" as const, name: "src", path: input.src }] : []),
    ...input.refs.map((path, i) => ({ role: "ref" as const, name: names[i]!, path })),
    ...input.hyps.map((path, i) => ({ role: "hyp" as const, name: names[input.refs.length + i]!, path })),
  ];
  const name = input.name ?? basename(input.refs[0]!).replace(/\.gz$/i, "");
  return readLineTestSet({ name, langPair: input.langPair ?? "und-und", format: "text" }, files, input.docs, opts);
}
