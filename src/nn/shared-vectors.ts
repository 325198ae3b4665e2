import { existsSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { gunzipSync } from "node:zlib";
import { InputError } from "../io/errors.js";
import { writeFileAtomic } from "../io/atomic.js";
import { sha256 } from "./sha256.js";

/**
 * Checkpoints that ship together share one copy of their GloVe rows. A self-contained checkpoint holds
 * embeddings.bin (PNVEC001: magic, header with its vocabulary, fp16 rows). A shared one holds instead its
 * vocabulary and unknown-word row (vocab.json.gz) and names, by sha256, a vector store: a PNVEC001 file in
 * `<parent>/vectors/<sha256>.bin` holding every word of every checkpoint beside it. The loader rebuilds the
 * exact bytes of embeddings.bin from the two and checks them against the sha256 in config.json, so a shared
 * checkpoint scores byte for byte like the self-contained one it was made from. A local embeddings.bin, when
 * present, always wins (a user's own model directories keep working unchanged).
 */
export interface EmbeddingsEntry {
  file: string;
  sha256: string;
  vocabSize: number;
  /** Present in checkpoints that share their vectors: the store's sha256 and the vocabulary file. */
  shared?: { vectors: string; vocab: string };
}

const MAGIC = "PNVEC001";
export const VECTOR_STORE_DIR = "vectors";
const VOCAB_FILE = "vocab.json.gz";

interface RawTable {
  dim: number;
  source: string;
  words: string[];
  /** (words.length + 2) x dim fp16 bit patterns, row-major. */
  halves: Uint16Array;
}

function decodeRaw(buf: Buffer, file: string): RawTable {
  if (buf.length < 12 || buf.toString("latin1", 0, 8) !== MAGIC) throw new InputError("not a proneval embedding table (bad magic)", file);
  const hlen = buf.readUInt32LE(8);
  let h: { dim: number; rows: number; dtype: string; source: string; words: string[] };
  try {
    h = JSON.parse(buf.toString("utf8", 12, 12 + hlen));
  } catch {
    throw new InputError("corrupt embedding table header", file);
  }
  const n = h.rows * h.dim;
  if (h.dtype !== "float16" || h.rows !== h.words.length + 2 || buf.length !== 12 + hlen + 2 * n) throw new InputError("corrupt embedding table (size does not match its header)", file);
  const halves = new Uint16Array(n);
  Buffer.from(halves.buffer).set(buf.subarray(12 + hlen));
  return { dim: h.dim, source: h.source, words: h.words, halves };
}

/** The same bytes encodeEmbeddingTable (src/nn/glove.ts) writes for these rows. */
function encodeRaw(t: RawTable): Buffer {
  const header = Buffer.from(JSON.stringify({ dim: t.dim, rows: t.words.length + 2, dtype: "float16", source: t.source, words: t.words }), "utf8");
  const pad = (12 + header.length) % 2;
  const out = Buffer.alloc(12 + header.length + pad + t.halves.byteLength);
  out.write(MAGIC, 0, "latin1");
  out.writeUInt32LE(header.length + pad, 8);
  header.copy(out, 12);
  if (pad) out[12 + header.length] = 0x20;
  Buffer.from(t.halves.buffer, t.halves.byteOffset, t.halves.byteLength).copy(out, 12 + header.length + pad);
  return out;
}

/** Where a checkpoint directory's shared vector store lives. */
export function vectorStorePath(dir: string, hash: string): string {
  return join(dir, "..", VECTOR_STORE_DIR, `${hash}.bin`);
}

function readVerified(path: string, hash: string, what: string): Buffer {
  if (!existsSync(path)) throw new InputError(`${what} missing`, path);
  const buf = readFileSync(path);
  if (sha256(buf) !== hash) throw new InputError(`checksum mismatch: the file does not belong to this config.json (interrupted write or mixed checkpoints)`, path);
  return buf;
}

/**
 * The bytes of a checkpoint's embeddings.bin, checked against the sha256 in its config.json: the local file
 * when there is one, else rebuilt from the shared vector store.
 */
export function readCheckpointEmbeddings(dir: string, entry: EmbeddingsEntry): Buffer {
  const local = join(dir, entry.file);
  if (existsSync(local) || !entry.shared) return readVerified(local, entry.sha256, "checkpoint file");
  const storePath = vectorStorePath(dir, entry.shared.vectors);
  const store = decodeRaw(readVerified(storePath, entry.shared.vectors, "shared vector store"), storePath);
  const vocabPath = join(dir, entry.shared.vocab);
  if (!existsSync(vocabPath)) throw new InputError("checkpoint file missing", vocabPath);
  let vocab: { unk: string; words: string[] };
  try {
    vocab = JSON.parse(gunzipSync(readFileSync(vocabPath)).toString("utf8"));
  } catch (e) {
    throw new InputError(`unreadable vocabulary (${(e as Error).message})`, vocabPath);
  }
  const dim = store.dim;
  const unk = Buffer.from(vocab.unk ?? "", "base64");
  if (!Array.isArray(vocab.words) || unk.length !== 2 * dim) throw new InputError("vocabulary file lacks its words or unknown-word row", vocabPath);
  const rowOf = new Map(store.words.map((w, i) => [w, i + 2]));
  const halves = new Uint16Array((vocab.words.length + 2) * dim);
  for (let k = 0; k < dim; k++) halves[dim + k] = unk.readUInt16LE(2 * k);
  vocab.words.forEach((w, i) => {
    const r = rowOf.get(w);
    if (r === undefined) throw new InputError(`word ${JSON.stringify(w)} is not in the shared vector store ${basename(storePath)}`, vocabPath);
    halves.set(store.halves.subarray(r * dim, (r + 1) * dim), (i + 2) * dim);
  });
  const buf = encodeRaw({ dim, source: store.source, words: vocab.words, halves });
  if (sha256(buf) !== entry.sha256) throw new InputError("the shared vector store and vocabulary do not rebuild the table named in config.json", vocabPath);
  return buf;
}

export interface ShareReport {
  store: string;
  storeBytes: number;
  words: number;
  checkpoints: { dir: string; words: number; removedBytes: number }[];
}

/**
 * Makes every checkpoint directory under `parent` whose config.json names an embeddings table share one
 * vector store `parent/vectors/<sha256>.bin`: writes the store, each directory's vocab.json.gz and config.json
 * (config last, so an interruption leaves the old, still loadable state), then removes the local
 * embeddings.bin files and stores no checkpoint names any more. Idempotent; rerun after adding a checkpoint.
 */
export function shareVectors(parent: string): ShareReport {
  const dirs = readdirSync(parent)
    .filter((d) => d !== VECTOR_STORE_DIR && existsSync(join(parent, d, "config.json")))
    .map((d) => join(parent, d))
    .filter((d) => (JSON.parse(readFileSync(join(d, "config.json"), "utf8")) as { files?: { embeddings?: EmbeddingsEntry } }).files?.embeddings);
  if (dirs.length === 0) throw new InputError("no checkpoint with an embeddings table here", parent);
  const tables = dirs.map((d) => {
    const cfg = JSON.parse(readFileSync(join(d, "config.json"), "utf8"));
    const entry = cfg.files.embeddings as EmbeddingsEntry;
    return { dir: d, cfg, entry, raw: decodeRaw(readCheckpointEmbeddings(d, entry), join(d, entry.file)) };
  });
  const { dim, source } = tables[0]!.raw;
  // The store: every word once, in order of first appearance; its own unknown row stays zero (each
  // checkpoint keeps its own, computed from the words it left out).
  const words: string[] = [];
  const rowOf = new Map<string, number>();
  const rows: Uint16Array[] = [];
  for (const t of tables) {
    if (t.raw.dim !== dim || t.raw.source !== source) throw new InputError(`embedding table differs in dimension or source from ${tables[0]!.dir}'s`, join(t.dir, "config.json"));
    t.raw.words.forEach((w, i) => {
      const row = t.raw.halves.subarray((i + 2) * dim, (i + 3) * dim);
      const r = rowOf.get(w);
      if (r === undefined) {
        rowOf.set(w, words.length);
        words.push(w);
        rows.push(row);
      } else if (!Buffer.from(rows[r]!.buffer, rows[r]!.byteOffset, rows[r]!.byteLength).equals(Buffer.from(row.buffer, row.byteOffset, row.byteLength))) {
        throw new InputError(`word ${JSON.stringify(w)} has another vector than in ${tables[0]!.dir}; only tables from one source can share`, join(t.dir, "config.json"));
      }
    });
  }
  const halves = new Uint16Array((words.length + 2) * dim);
  rows.forEach((r, i) => halves.set(r, (i + 2) * dim));
  const store = encodeRaw({ dim, source, words, halves });
  const hash = sha256(store);
  const storePath = join(parent, VECTOR_STORE_DIR, `${hash}.bin`);
  if (!existsSync(storePath) || sha256(readFileSync(storePath)) !== hash) writeFileAtomic(storePath, store);
  const report: ShareReport = { store: storePath, storeBytes: store.length, words: words.length, checkpoints: [] };
  for (const t of tables) {
    const unk = Buffer.from(t.raw.halves.buffer, t.raw.halves.byteOffset + 2 * dim, 2 * dim).toString("base64");
    // writeFileAtomic gzips a .gz path.
    writeFileAtomic(join(t.dir, VOCAB_FILE), JSON.stringify({ unk, words: t.raw.words }));
    const entry: EmbeddingsEntry = { file: t.entry.file, sha256: t.entry.sha256, vocabSize: t.entry.vocabSize, shared: { vectors: hash, vocab: VOCAB_FILE } };
    t.cfg.files.embeddings = entry;
    writeFileAtomic(join(t.dir, "config.json"), JSON.stringify(t.cfg, null, 2) + "\n");
    const local = join(t.dir, t.entry.file);
    const removedBytes = existsSync(local) ? statSync(local).size : 0;
    // The local copy goes only when the shared form provably rebuilds it (it is put back otherwise).
    const kept = existsSync(local) ? readFileSync(local) : undefined;
    rmSync(local, { force: true });
    try {
      readCheckpointEmbeddings(t.dir, entry);
    } catch (e) {
      if (kept) writeFileAtomic(local, kept);
      throw new InputError(`shared form does not rebuild the table (${(e as Error).message})`, t.dir);
    }
    report.checkpoints.push({ dir: t.dir, words: t.raw.words.length, removedBytes });
  }
  for (const f of readdirSync(join(parent, VECTOR_STORE_DIR))) if (f.endsWith(".bin") && f !== `${hash}.bin`) rmSync(join(parent, VECTOR_STORE_DIR, f));
  return report;
}
