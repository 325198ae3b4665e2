/**
 * Readers for per-token log-probabilities of a reference translation, the input of P-CXMI
 * (src/muda/cxmi.ts): proneval's JSONL, fairseq-generate output (`--score-reference`: `S-`, `T-`,
 * `H-`, `D-`, `P-` lines) and a per-token TSV. Every reader returns natural-log probabilities and
 * checks each value (a number, finite, not positive), naming the file and line of a bad one.
 */
import { InputError } from "../io/errors.js";
import { readText } from "../io/lines.js";

/** The end-of-sentence token: scored like any token, but part of no word. */
export const EOS_TOKEN = "</s>";

export type CxmiInputFormat = "jsonl" | "fairseq" | "tsv";
export const CXMI_INPUT_FORMATS: readonly CxmiInputFormat[] = ["jsonl", "fairseq", "tsv"];

/** One segment of one scoring run: the reference's tokens as the model split them, with natural-log probabilities. */
export interface ScoredSegment {
  tokens: string[];
  logprobs: number[];
  /** The segment's id as the file gives it (JSONL `id`, TSV first column, fairseq sample id). */
  id?: string;
  /** JSONL `doc`: the document the segment belongs to. */
  doc?: string;
  /** The source sentence, where the file has it (JSONL `source`, fairseq `S-`). */
  source?: string;
  /** 1-based line of the file where the segment starts (for messages). */
  line: number;
}

export interface ScoredRun {
  path: string;
  format: CxmiInputFormat;
  segments: ScoredSegment[];
}

export interface ReadScoresOptions {
  format?: CxmiInputFormat;
  /** Base of the log-probabilities in JSONL and TSV files (fairseq-generate always writes base 2). */
  logBase?: number;
}

/** `e`, `2` or `10` (the bases in use) as a number. */
export function parseLogBase(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  if (v === "e") return Math.E;
  if (v === "2") return 2;
  if (v === "10") return 10;
  throw new InputError(`--log-base must be e, 2 or 10, got '${v}'`);
}

/** A log-probability read from a file: a finite number, not positive; converted to natural log. */
export function checkLogprob(raw: unknown, file: string, line: number, what: string, base = Math.E): number {
  const text = typeof raw === "string" ? raw.trim() : undefined;
  const v = text === undefined ? raw : /^[+-]?inf(inity)?$/i.test(text) ? (text.startsWith("-") ? -Infinity : Infinity) : text === "" ? NaN : Number(text);
  if (typeof v !== "number" || Number.isNaN(v)) throw new InputError(`${what}: log-probability '${String(raw)}' is not a number`, file, line);
  if (!Number.isFinite(v)) throw new InputError(`${what}: log-probability ${String(raw)} is not finite`, file, line);
  if (v > 0) throw new InputError(`${what}: log-probability ${String(raw)} is positive (a probability above 1)`, file, line);
  // -0 and 0 stay 0; other bases are scaled to nats.
  return base === Math.E || v === 0 ? v + 0 : v * Math.log(base);
}

const FAIRSEQ_LINE = /^[STHDPAIEW]-\d+\t/;

/** A file's lines (plain, gzipped, `-` or a pipe: read once), without line ends. */
export function fileLines(path: string): string[] {
  const text = readText(path);
  const lines = text.split("\n").map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l));
  if (lines.length && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** The format of scores from their first non-blank lines: JSON objects, fairseq-generate lines, or TSV. */
export function detectScoresFormat(lines: readonly string[], path: string): CxmiInputFormat {
  for (const line of lines) {
    if (!line.trim()) continue;
    if (line.trimStart().startsWith("{")) return "jsonl";
    if (FAIRSEQ_LINE.test(line)) return "fairseq";
    // fairseq-generate's own log lines (when stderr was captured too) come before its first sample.
    if (/\| INFO \||\| WARNING \||^Generate |^\d{4}-\d\d-\d\d /.test(line)) continue;
    return "tsv";
  }
  throw new InputError("no scored segments (the file is empty)", path);
}

/** Reads one run's scores, in the given format or the detected one. */
export async function readScores(path: string, opts: ReadScoresOptions = {}): Promise<ScoredRun> {
  const lines = fileLines(path);
  const format = opts.format ?? detectScoresFormat(lines, path);
  if (format === "fairseq" && opts.logBase !== undefined && opts.logBase !== 2) {
    throw new InputError("fairseq-generate writes base-2 scores; --log-base applies to JSONL and TSV only", path);
  }
  const segments = format === "jsonl" ? parseScoresJsonl(lines, path, opts.logBase) : format === "fairseq" ? parseFairseqScores(lines, path) : parseScoresTsv(lines, path, opts.logBase);
  if (segments.length === 0) throw new InputError("no scored segments", path);
  return { path, format, segments };
}

const optString = (v: unknown, key: string, file: string, line: number): string | undefined => {
  if (v === undefined || v === null) return undefined;
  if (typeof v === "string") return v;
  if (typeof v === "number" && key !== "source") return String(v);
  throw new InputError(`"${key}" must be a string`, file, line);
};

/**
 * JSONL, one segment a line: `{"tokens": [...], "logprobs": [...]}` with optional `id`, `doc` and
 * `source`; one log-probability per token, natural log unless `--log-base` says otherwise.
 */
export function parseScoresJsonl(lines: readonly string[], path: string, logBase = Math.E): ScoredSegment[] {
  const out: ScoredSegment[] = [];
  for (let n = 0; n < lines.length; n++) {
    const line = n + 1;
    if (!lines[n]!.trim()) continue;
    let value: unknown;
    try {
      value = JSON.parse(lines[n]!);
    } catch (e) {
      throw new InputError(`invalid JSON (${(e as Error).message})`, path, line);
    }
    if (!value || typeof value !== "object" || Array.isArray(value)) throw new InputError('expected a JSON object {"tokens": [...], "logprobs": [...]}', path, line);
    const o = value as Record<string, unknown>;
    const seg = `segment ${out.length + 1}`;
    if (!Array.isArray(o.tokens) || !o.tokens.every((t) => typeof t === "string")) throw new InputError(`${seg}: "tokens" must be an array of strings`, path, line);
    if (!Array.isArray(o.logprobs)) throw new InputError(`${seg}: "logprobs" must be an array of numbers`, path, line);
    const tokens = o.tokens as string[];
    if (tokens.length === 0) throw new InputError(`${seg}: no tokens`, path, line);
    if (o.logprobs.length !== tokens.length) throw new InputError(`${seg}: ${tokens.length} tokens but ${o.logprobs.length} log-probabilities`, path, line);
    const logprobs = o.logprobs.map((v, i) => {
      const what = `${seg}, token ${i + 1} ('${tokens[i]}')`;
      if (typeof v !== "number") throw new InputError(`${what}: log-probability ${JSON.stringify(v)} is not a number`, path, line);
      return checkLogprob(v, path, line, what, logBase);
    });
    const id = optString(o.id, "id", path, line);
    const doc = optString(o.doc, "doc", path, line);
    const source = optString(o.source, "source", path, line);
    out.push({ tokens, logprobs, line, ...(id !== undefined ? { id } : {}), ...(doc !== undefined ? { doc } : {}), ...(source !== undefined ? { source } : {}) });
  }
  return out;
}

/**
 * Per-token TSV: `segment<TAB>token<TAB>logprob` a line, a segment's tokens on consecutive lines
 * (blank lines ignored; an optional first line `segment<TAB>token<TAB>logprob` is a header).
 */
export function parseScoresTsv(lines: readonly string[], path: string, logBase = Math.E): ScoredSegment[] {
  const out: ScoredSegment[] = [];
  const closed = new Set<string>();
  let cur: ScoredSegment | undefined;
  let n = 0;
  for (const raw of lines) {
    n++;
    if (!raw.trim()) continue;
    const cells = raw.split("\t");
    if (n === 1 && cells.length === 3 && cells[0] === "segment" && cells[2] === "logprob") continue;
    if (cells.length !== 3) throw new InputError(`expected 3 tab-separated columns (segment, token, logprob), got ${cells.length}`, path, n);
    const [id, token, lp] = cells as [string, string, string];
    if (id === "") throw new InputError("empty segment id", path, n);
    if (token === "") throw new InputError("empty token", path, n);
    if (!cur || cur.id !== id) {
      if (closed.has(id)) throw new InputError(`segment '${id}' comes back after other segments; a segment's tokens must be on consecutive lines`, path, n);
      if (cur) closed.add(cur.id!);
      cur = { tokens: [], logprobs: [], id, line: n };
      out.push(cur);
    }
    cur.logprobs.push(checkLogprob(lp, path, n, `segment '${id}', token ${cur.tokens.length + 1} ('${token}')`, logBase));
    cur.tokens.push(token);
  }
  return out;
}

interface FairseqSample {
  id: number;
  source?: string;
  target?: string[];
  hyp?: { tokens: string[]; line: number };
  scores?: { values: string[]; line: number };
}

/** fairseq prints unknown words as `<<unk>>` in T- lines (escape_unk) and as `<unk>` in H- lines. */
const sameToken = (a: string, b: string) => a === b || (a === "<<unk>>" && b === "<unk>") || (a === "<unk>" && b === "<<unk>>");

/**
 * fairseq-generate output of a `--score-reference` run: per sample id, the `H-` line's tokens (the
 * reference as scored, subwords kept: no `--remove-bpe`/`--post-process`) and the `P-` line's
 * positional scores, which fairseq writes in base 2 (it divides the natural log by ln 2) with the
 * end-of-sentence token's score last. Samples come out in batch order: they are sorted by id, and
 * ids must run 0..N-1. With `--nbest` above 1 the first hypothesis of each sample is taken.
 */
export function parseFairseqScores(lines: readonly string[], path: string): ScoredSegment[] {
  const samples = new Map<number, FairseqSample>();
  let n = 0;
  for (const line of lines) {
    n++;
    const m = /^([STHDP])-(\d+)\t(.*)$/.exec(line);
    if (!m) continue; // log lines, A-/I-/E-/W- lines, the final "Generate ... BLEU" line
    const [, kind, idText, rest] = m as unknown as [string, string, string, string];
    const id = Number(idText);
    let s = samples.get(id);
    if (!s) samples.set(id, (s = { id }));
    if (kind === "S") s.source ??= rest;
    else if (kind === "T") s.target ??= splitTokens(rest);
    else if (kind === "H") {
      if (s.hyp) continue; // n-best: the first is the top one
      const tab = rest.indexOf("\t");
      if (tab < 0) throw new InputError(`H-${id}: expected 'H-ID<TAB>score<TAB>tokens'`, path, n);
      s.hyp = { tokens: splitTokens(rest.slice(tab + 1)), line: n };
    } else if (kind === "P") {
      if (s.scores) continue;
      s.scores = { values: rest.trim() === "" ? [] : rest.trim().split(/\s+/), line: n };
    }
  }
  const ids = [...samples.keys()].sort((a, b) => a - b);
  const out: ScoredSegment[] = [];
  ids.forEach((id, k) => {
    const s = samples.get(id)!;
    if (id !== k) throw new InputError(`no sample ${k} (sample ids must run 0..${ids.length - 1}; the next one is ${id})`, path);
    if (!s.hyp) throw new InputError(`sample ${id} has no H- line`, path);
    if (!s.scores) throw new InputError(`sample ${id} has no P- line (its H- line is at line ${s.hyp.line})`, path);
    const tokens = s.hyp.tokens;
    const line = s.scores.line;
    if (s.target && (s.target.length !== tokens.length || !s.target.every((t, i) => sameToken(t, tokens[i]!)))) {
      throw new InputError(`sample ${id}: the H- tokens are not the reference (T-): run fairseq-generate with --score-reference`, path, s.hyp.line);
    }
    const v = s.scores.values;
    let withEos: string[];
    if (v.length === tokens.length + 1) withEos = [...tokens, EOS_TOKEN];
    else if (v.length === tokens.length) withEos = tokens;
    else {
      throw new InputError(
        `sample ${id}: ${v.length} positional scores for ${tokens.length} H- tokens (expected one per token plus end of sentence); ` +
          "run fairseq-generate without --remove-bpe/--post-process so H- lines keep the scored subword tokens",
        path,
        line,
      );
    }
    const logprobs = v.map((x, i) => checkLogprob(x, path, line, `sample ${id}, token ${i + 1} ('${withEos[i]}')`, 2));
    out.push({ tokens: withEos, logprobs, id: String(id), line, ...(s.source !== undefined ? { source: s.source } : {}) });
  });
  return out;
}

/** fairseq-generate output of a file (see parseFairseqScores). */
export function readFairseqScores(path: string): ScoredSegment[] {
  return parseFairseqScores(fileLines(path), path);
}

function splitTokens(s: string): string[] {
  const t = s.trim();
  return t === "" ? [] : t.split(/ +/);
}
