/**
 * Tables in and out through fast-csv, so a cell holding a tab, quote or newline is quoted on output
 * and read back whole instead of breaking the row.
 */
import { Readable } from "node:stream";
import { writeToString, parseString, parse } from "fast-csv";
import { InputError } from "./errors.js";
import { readText, streamLines } from "./lines.js";

export type TableFormat = "tsv" | "csv" | "json";
export const TABLE_FORMATS: readonly TableFormat[] = ["tsv", "csv", "json"];

export function parseTableFormat(v: unknown): TableFormat {
  if (v === undefined) return "tsv";
  if (!TABLE_FORMATS.includes(v as TableFormat)) throw new InputError(`--format must be tsv, csv or json, got '${String(v)}'`);
  return v as TableFormat;
}

export type Cell = string | number | null | undefined;

/**
 * A header and rows as TSV/CSV (quoted only where a cell needs it) or as a JSON array of objects
 * keyed by the header (numbers stay numbers).
 */
export async function formatTable(header: string[], rows: Cell[][], format: TableFormat = "tsv"): Promise<string> {
  if (format === "json") {
    const objs = rows.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i] ?? null])));
    return JSON.stringify(objs, null, 1) + "\n";
  }
  const cells = [header, ...rows.map((r) => r.map((c) => (c === null || c === undefined ? "" : String(c))))];
  return writeToString(cells, { delimiter: format === "tsv" ? "\t" : ",", includeEndRowDelimiter: true });
}

/** One printed table; a title is printed before it as a `# ` line. */
export interface TableBlock {
  title?: string;
  header: string[];
  rows: Cell[][];
}

/**
 * A command's printed result as TSV or CSV, sacrebleu style: the tables (through fast-csv; several are
 * separated by a blank line), then comment lines (`# ` legend, notes) and `signature: ...`. `quiet`
 * keeps only the tables (and their titles when there are several, which tell them apart).
 */
export async function formatResult(
  tables: TableBlock[],
  format: Exclude<TableFormat, "json">,
  opts: { notes?: string[]; signature?: string | Array<[string, string]>; quiet?: boolean } = {},
): Promise<string> {
  const parts: string[] = [];
  for (const t of tables) {
    const title = t.title !== undefined && (!opts.quiet || tables.length > 1) ? `# ${t.title}\n` : "";
    parts.push(title + (await formatTable(t.header, t.rows, format)));
  }
  let text = parts.join("\n");
  if (!opts.quiet) {
    for (const n of opts.notes ?? []) text += `# ${n}\n`;
    // Several scorers (meta-eval): one `signature NAME: ...` line each.
    if (typeof opts.signature === "string") text += `signature: ${opts.signature}\n`;
    else for (const [name, sig] of opts.signature ?? []) text += `signature ${name}: ${sig}\n`;
  }
  return text;
}

export interface ReadTableOptions {
  delimiter?: string;
  /**
   * Honour "..." quoting (as formatTable writes it). Off by default: TSV from other tools (sacrebleu
   * --echo) has bare quotes inside sentences.
   */
  quoted?: boolean;
  /** Expected number of columns (a range): a row outside it is an error naming the line. */
  columns?: [number, number];
}

/** Rows of a TSV (or other delimited) file, plain, gzipped or `-`, each with its 1-based line number. */
export async function readTable(path: string, opts: ReadTableOptions = {}): Promise<Array<{ cells: string[]; line: number }>> {
  const text = readText(path);
  return parseTable(text, path, opts);
}

/** As readTable, for text already read. */
export function parseTable(text: string, path: string, opts: ReadTableOptions = {}): Promise<Array<{ cells: string[]; line: number }>> {
  const out: Array<{ cells: string[]; line: number }> = [];
  let line = 1;
  return new Promise((resolve, reject) => {
    parseString(text, { delimiter: opts.delimiter ?? "\t", quote: opts.quoted ? '"' : null, ignoreEmpty: false, trim: false })
      .on("error", (e: Error) => reject(new InputError(`cannot parse the table (${e.message})`, path, line)))
      .on("data", (row: string[]) => {
        const cells = row.map((c) => (c.endsWith("\r") ? c.slice(0, -1) : c));
        const isBlankLast = cells.length === 0 || (cells.length === 1 && cells[0] === "");
        if (!isBlankLast && opts.columns && (cells.length < opts.columns[0] || cells.length > opts.columns[1])) {
          const want = opts.columns[0] === opts.columns[1] ? `${opts.columns[0]}` : `${opts.columns[0]} to ${opts.columns[1]}`;
          reject(new InputError(`expected ${want} tab-separated columns, got ${cells.length}`, path, line));
        }
        out.push({ cells, line });
        // A quoted cell may span lines: count the newlines it held.
        line += 1 + row.reduce((a, c) => a + (c.match(/\n/g)?.length ?? 0), 0);
      })
      .on("end", () => resolve(out));
  });
}

/**
 * Streams the rows of a TSV (or other delimited) file, plain, gzipped or `-`, through fast-csv, each
 * with its 1-based line number; an empty line is a row with no cells. Lines are decoded strictly
 * (invalid UTF-8 names the line) before fast-csv sees them. Big inputs (ctxpro identify) are never
 * held whole.
 */
export async function* streamTable(path: string, opts: Omit<ReadTableOptions, "columns"> = {}): AsyncGenerator<{ cells: string[]; line: number }> {
  // Lines are batched into chunks: one stream chunk per line made reading ten times slower.
  async function* withNewlines(): AsyncGenerator<string> {
    let buf = "";
    for await (const l of streamLines(path)) {
      buf += l + "\n";
      if (buf.length > 1 << 16) {
        yield buf;
        buf = "";
      }
    }
    if (buf) yield buf;
  }
  const source = Readable.from(withNewlines(), { objectMode: false });
  const parser = parse({ delimiter: opts.delimiter ?? "\t", quote: opts.quoted ? '"' : null, ignoreEmpty: false, trim: false });
  // pipe() does not pass on the source's errors (an InputError for bad UTF-8): hand them to the parser.
  source.on("error", (e) => parser.destroy(e));
  source.pipe(parser);
  let line = 1;
  try {
    for await (const row of parser as AsyncIterable<string[]>) {
      yield { cells: row, line };
      line += 1 + row.reduce((a, c) => a + (c.match(/\n/g)?.length ?? 0), 0);
    }
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw new InputError(`cannot parse the table (${(e as Error).message})`, path, line);
  } finally {
    source.destroy();
  }
}
