import { describe, it, expect, beforeAll } from "vitest";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { decodeEmbeddingTable, encodeEmbeddingTable, type EmbeddingTable } from "../src/nn/glove.js";
import { encodeHalf, decodeHalf } from "../src/nn/fp16.js";
import { sha256 } from "../src/nn/sha256.js";
import { readCheckpointEmbeddings, shareVectors, type EmbeddingsEntry } from "../src/nn/shared-vectors.js";
import { Rng } from "../src/core/prng.js";

/** A table whose vector for a word depends on the word only (as GloVe's do), with its own unknown row. */
function table(words: string[], unkSeed: number): EmbeddingTable {
  const dim = 6;
  const v = new Float32Array((words.length + 2) * dim);
  const unk = new Rng(unkSeed);
  for (let k = 0; k < dim; k++) v[dim + k] = unk.next() - 0.5;
  words.forEach((w, i) => {
    const rng = new Rng([...w].reduce((h, c) => h * 31 + c.charCodeAt(0), 7) >>> 0);
    for (let k = 0; k < dim; k++) v[(i + 2) * dim + k] = rng.next() - 0.5;
  });
  return { dim, words, vectors: decodeHalf(encodeHalf(v)), source: "test" };
}

function checkpoint(dir: string, t: EmbeddingTable): Buffer {
  mkdirSync(dir, { recursive: true });
  const emb = encodeEmbeddingTable(t);
  writeFileSync(join(dir, "embeddings.bin"), emb);
  writeFileSync(join(dir, "config.json"), JSON.stringify({ format: "test", files: { embeddings: { file: "embeddings.bin", sha256: sha256(emb), vocabSize: t.words.length } } }));
  return emb;
}

const entry = (dir: string): EmbeddingsEntry => JSON.parse(readFileSync(join(dir, "config.json"), "utf8")).files.embeddings;

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "proneval-shared-vectors-"));
});

describe("shared vector store", () => {
  it("rebuilds each checkpoint's embeddings.bin byte for byte from one store", () => {
    const parent = join(root, "ckpts");
    const a = checkpoint(join(parent, "a"), table(["he", "she", "the", "report"], 1));
    const b = checkpoint(join(parent, "b"), table(["she", "it", "he", "city", "they"], 2));
    const r = shareVectors(parent);
    expect(r.words).toBe(7);
    expect(readdirSync(join(parent, "vectors"))).toEqual([`${sha256(readFileSync(r.store))}.bin`]);
    for (const d of ["a", "b"]) expect(existsSync(join(parent, d, "embeddings.bin"))).toBe(false);
    expect(readCheckpointEmbeddings(join(parent, "a"), entry(join(parent, "a"))).equals(a)).toBe(true);
    expect(readCheckpointEmbeddings(join(parent, "b"), entry(join(parent, "b"))).equals(b)).toBe(true);
    // Idempotent: a second run keeps the same store and the same tables.
    expect(shareVectors(parent).store).toBe(r.store);
    expect(readCheckpointEmbeddings(join(parent, "b"), entry(join(parent, "b"))).equals(b)).toBe(true);
  });

  it("prefers a local embeddings.bin and refuses a store that is not the one named", () => {
    const parent = join(root, "ckpts");
    const copy = join(root, "mine", "b");
    cpSync(join(parent, "b"), copy, { recursive: true });
    // A user's own directory: no store beside it, but its own embeddings.bin.
    const own = readCheckpointEmbeddings(join(parent, "b"), entry(join(parent, "b")));
    expect(() => readCheckpointEmbeddings(copy, entry(copy))).toThrow(/shared vector store missing/);
    writeFileSync(join(copy, "embeddings.bin"), own);
    expect(readCheckpointEmbeddings(copy, entry(copy)).equals(own)).toBe(true);
    // A store that changed is refused, naming it.
    const store = join(parent, "vectors", readdirSync(join(parent, "vectors"))[0]!);
    const saved = readFileSync(store);
    const bad = Buffer.from(saved);
    bad[bad.length - 1] ^= 1;
    writeFileSync(store, bad);
    expect(() => readCheckpointEmbeddings(join(parent, "a"), entry(join(parent, "a")))).toThrow(/vectors.*checksum mismatch/);
    writeFileSync(store, saved);
  });

  it("refuses tables whose common words have different vectors", () => {
    const parent = join(root, "mixed");
    checkpoint(join(parent, "a"), table(["he", "she"], 1));
    const t = table(["he", "it"], 2);
    t.vectors[2 * t.dim] = 0.25;
    checkpoint(join(parent, "b"), t);
    expect(() => shareVectors(parent)).toThrow(/"he" has another vector/);
    expect(existsSync(join(parent, "b", "embeddings.bin"))).toBe(true);
    rmSync(parent, { recursive: true });
  });

  it("the shipped checkpoints rebuild the tables their config.json names", () => {
    for (const name of ["default", "pronoun-lm", "pronoun-lm-news", "pronoun-lm-modern"]) {
      const dir = join("checkpoints", name);
      const e = entry(dir);
      expect(e.shared).toBeDefined();
      const buf = readCheckpointEmbeddings(dir, e);
      expect(sha256(buf)).toBe(e.sha256);
      expect(decodeEmbeddingTable(buf, dir).words.length).toBe(e.vocabSize);
    }
  });
});
