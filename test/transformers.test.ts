import { describe, it, expect, beforeAll } from "vitest";
import { mkdtempSync, writeFileSync, readFileSync, cpSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import * as tf from "@tensorflow/tfjs";
import { AutoModel, AutoTokenizer, Tensor, env } from "@xenova/transformers";
import { selectBackend } from "../src/nn/backend.js";
import { TransformersEncoder } from "../src/ranker/transformers.js";
import { prepareSide } from "../src/nn/inputs.js";
import type { PreparedSide } from "../src/core/scorer.js";
import { createModel, loadCheckpoint, saveCheckpoint } from "../src/ranker/checkpoint.js";
import { trainRanker, TRAIN_DEFAULTS } from "../src/ranker/train.js";
import { readRankerPairs } from "../src/nn/data.js";
import { preparePairs, accuracyReport } from "../src/nn/evaluate.js";
import { scoreSides, scorePairs } from "../src/ranker/run-model.js";
import { Rng } from "../src/core/prng.js";
import { InputError } from "../src/io/errors.js";
import { registerScore } from "../src/cli/score.js";
import { runCli } from "./cli-helper.js";

// The fixture made by scripts/make-tiny-bert.ts: random weights, hidden 32, 2 layers, 64 positions.
const FIXTURES = resolve(dirname(fileURLToPath(import.meta.url)), "fixtures");
const KIND = "transformers:tiny-bert";
const dir = mkdtempSync(join(tmpdir(), "transformers-"));
const prep = { contextSentences: 2, maxLen: 128 };
const side = (context: string[], sentence: string): PreparedSide => prepareSide({ context, sentence }, prep);

let enc: TransformersEncoder;

beforeAll(async () => {
  await selectBackend("cpu");
  enc = await TransformersEncoder.load({ kind: KIND }, { modelDir: FIXTURES });
});

/** Layer k of the pooled features, as [B][T][D]. */
async function layer(sides: PreparedSide[], T: number, k: number): Promise<number[][][]> {
  const f = await enc.featurize(sides, T);
  const out = tf.tidy(() => f.layers.slice([k, 0], [1, -1]).reshape([sides.length, T, enc.dim]).arraySync() as number[][][]);
  enc.disposeFeatures(f);
  return out;
}

function maxDiff(a: number[], b: number[]): number {
  return Math.max(...a.map((x, i) => Math.abs(x - b[i]!)));
}

describe("transformers encoder on the tiny fixture", () => {
  it("loads the model, records its hash, and mixes its three layer outputs", () => {
    const cfg = enc.config();
    expect(cfg.kind).toBe(KIND);
    expect(cfg.onnxSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(cfg.layerOutputs).toEqual(["hidden_states.0", "hidden_states.1", "hidden_states.2"]);
    expect(cfg.maxPositions).toBe(64);
    expect(enc.dim).toBe(32);
    expect(enc.params.get("mix/s")!.shape).toEqual([3]);
    expect(enc.params.get("mix/gamma")!.shape).toEqual([1]);
  });

  it("gives [B, T, dim], one vector per word: the mean of the word's pieces, as the raw model computes them", async () => {
    const s = side([], "She found it unbelievable .");
    const f = await enc.featurize([s], 7);
    const h = enc.forward(f, false);
    expect(h.shape).toEqual([1, 7, 32]);
    h.dispose();
    enc.disposeFeatures(f);
    // Reference: run the same files through transformers.js directly, pieces of each word by hand.
    env.localModelPath = FIXTURES;
    const tok = await AutoTokenizer.from_pretrained("tiny-bert");
    const model = await AutoModel.from_pretrained("tiny-bert", { quantized: false });
    const pieces = s.tokens.map((w, i) => tok.encode(i ? ` ${w}` : w, null, { add_special_tokens: false }));
    expect(pieces[3]!.length).toBeGreaterThan(1); // "unbelievable" is split into several pieces
    const ids = [2, ...pieces.flat(), 3]; // [CLS] ... [SEP]
    const n = ids.length;
    const t = (v: number[]) => new Tensor("int64", BigInt64Array.from(v.map(BigInt)), [1, n]);
    const out = await model({ input_ids: t(ids), attention_mask: t(ids.map(() => 1)), token_type_ids: t(ids.map(() => 0)) });
    const mine = await layer([s], 7, 1);
    let at = 1;
    pieces.forEach((p, w) => {
      const mean = Array.from({ length: 32 }, (_, d) => p.reduce((a, _, j) => a + out["hidden_states.1"].data[(at + j) * 32 + d], 0) / p.length);
      expect(maxDiff(mine[0]![w]!, mean)).toBeLessThan(1e-5);
      at += p.length;
    });
    await model.dispose();
  });

  it("padding never changes a side's vectors or score: alone, or batched with a longer side", async () => {
    const short = side(["The doctor came ."], "She said it was n't hers .");
    const long = side(["The teachers were here early and they said so to everyone in the big room ."], "They gave him their unbelievable books .");
    const T = long.tokens.length;
    const alone = await layer([short], short.tokens.length, 2);
    const batched = await layer([short, long], T, 2);
    for (let t = 0; t < short.tokens.length; t++) expect(maxDiff(alone[0]![t]!, batched[0]![t]!)).toBeLessThan(1e-5);
    const model = await createModel({ encoder: { kind: KIND }, head: { head: "attention", slots: 3 } }, undefined, new Rng(3), FIXTURES);
    const [a] = await scoreSides(model, [short]);
    const both = await scoreSides(model, [long, short]);
    expect(Math.abs(a!.y - both[1]!.y)).toBeLessThan(1e-5);
    expect(a!.u).toHaveLength(3); // She, it, hers
    model.dispose();
  });

  it("inputs longer than the model's 64 positions are split into windows: every word, so every pronoun, gets a vector", async () => {
    const ctx = Array.from({ length: 12 }, (_, i) => `The manager number ${i} told everyone about the unbelievable plans .`);
    const s = prepareSide({ context: ctx, sentence: "She said he would bring it to them ." }, { contextSentences: 12, maxLen: 500 });
    expect(s.pronounPos).toHaveLength(4);
    const v = await layer([s], s.tokens.length, 2);
    for (const vec of v[0]!) {
      expect(vec.every(Number.isFinite)).toBe(true);
      expect(Math.hypot(...vec)).toBeGreaterThan(0.1);
    }
    // Expected windows: from the end, as many words as fit in 64 - [CLS] - [SEP] = 62 pieces.
    env.localModelPath = FIXTURES;
    const tok = await AutoTokenizer.from_pretrained("tiny-bert");
    const n = s.tokens.map((w, i) => tok.encode(i ? ` ${w}` : w, null, { add_special_tokens: false }).length);
    expect(n.reduce((a, b) => a + b, 0)).toBeGreaterThan(2 * 62);
    const starts: number[] = [];
    for (let end = s.tokens.length; end > 0; ) {
      let start = end;
      for (let used = 0; start > 0 && used + n[start - 1]! <= 62; start--) used += n[start - 1]!;
      starts.unshift(start);
      end = start;
    }
    expect(starts.length).toBeGreaterThanOrEqual(3);
    const last = starts[starts.length - 1]!;
    expect(last).toBeLessThanOrEqual(s.sentStart); // the sentence is whole in the last window, with context
    // Each window's vectors are those of its words encoded on their own.
    for (let w = 0; w < starts.length; w++) {
      const a = starts[w]!;
      const e = w + 1 < starts.length ? starts[w + 1]! : s.tokens.length;
      const part: PreparedSide = { tokens: s.tokens.slice(a, e), sentStart: 0, pronounPos: [], truncated: 0 };
      const alone = await layer([part], e - a, 2);
      for (let t = a; t < e; t++) expect(maxDiff(v[0]![t]!, alone[0]![t - a]!)).toBeLessThan(1e-5);
    }
  });

  it("a missing model is an InputError naming the model and every directory searched", async () => {
    const md = join(dir, "models");
    const err = await TransformersEncoder.load({ kind: "transformers:Xenova/bert-base-cased" }, { modelDir: md, allowHub: false }).catch((e) => e);
    expect(err).toBeInstanceOf(InputError);
    expect(err.message).toContain("'Xenova/bert-base-cased' not found");
    expect(err.message).toContain(join(md, "Xenova/bert-base-cased"));
    expect(err.message).toContain(`${md} (does not exist)`);
    expect(err.message).toContain("--allow-hub");
    await expect(TransformersEncoder.load({ kind: "transformers:" })).rejects.toThrow(/transformers:<model>/);
  });

  it("a model whose ONNX file differs from the checkpoint's is refused", async () => {
    await expect(TransformersEncoder.load({ kind: KIND, onnxFile: "onnx/model.onnx", onnxSha256: "0".repeat(64) }, { modelDir: FIXTURES })).rejects.toThrow(/differs from the one the checkpoint was trained with/);
    await expect(TransformersEncoder.load({ kind: KIND, layerOutputs: ["last_hidden_state"] }, { modelDir: FIXTURES })).rejects.toThrow(/mixes outputs/);
  });
});

/** Toy pairs: the antecedent in the context decides the right pronoun. */
function toyPairs(n: number, seed: number): string {
  const rng = new Rng(seed);
  const nouns: Record<string, [string, string]> = { man: ["he", "she"], woman: ["she", "he"], car: ["it", "he"] };
  return (
    Array.from({ length: n }, (_, i) => {
      const noun = Object.keys(nouns)[rng.int(3)]!;
      const [right, wrong] = nouns[noun]!;
      return JSON.stringify({ id: `p${i}`, lang: "xx", context: [`the ${noun} was ${rng.next() < 0.5 ? "red" : "old"} .`], positive: `${right} came home late .`, negative: `${wrong} came home late .`, kind: "system", ref_pronoun: right, sys_pronoun: wrong, origin: `toy/${i}` });
    }).join("\n") + "\n"
  );
}

describe("transformers encoder end to end", () => {
  it("training with a missing model fails before creating the output directory", async () => {
    const train = join(dir, "train-missing.jsonl");
    writeFileSync(train, toyPairs(4, 3));
    const out = join(dir, "never-created");
    await expect(trainRanker({ ...TRAIN_DEFAULTS, train, out, encoder: "transformers:no-such-model", modelDir: join(dir, "nowhere"), epochs: 1, batchSize: 4, backend: "cpu" })).rejects.toThrow(/'no-such-model' not found/);
    expect(existsSync(out)).toBe(false);
  });

  it("train -> checkpoint -> load gives the same scores; the scalar mix is trained and saved", async () => {
    const train = join(dir, "train.jsonl");
    const dev = join(dir, "dev.jsonl");
    writeFileSync(train, toyPairs(24, 1));
    writeFileSync(dev, toyPairs(12, 2));
    const out = join(dir, "run");
    const res = await trainRanker({ ...TRAIN_DEFAULTS, train, dev, out, encoder: KIND, modelDir: FIXTURES, slots: 2, epochs: 2, batchSize: 8, lr: 0.05, dropout: 0.1, seed: 7, checkpointEvery: 100, backend: "cpu" });
    expect(res.epochsDone).toBe(2);
    const cfg = JSON.parse(readFileSync(join(out, "config.json"), "utf8"));
    expect(cfg.encoder).toMatchObject({ kind: KIND, model: "tiny-bert", onnxFile: "onnx/model.onnx", onnxSha256: enc.config().onnxSha256, dim: 32, layersMixed: 3 });
    expect(cfg.dims.encoder).toBe(32);
    const { model, config } = await loadCheckpoint(out, FIXTURES);
    const pairs = await readRankerPairs(dev, "crc");
    const { pos, neg } = preparePairs(pairs, "crc", config.prepare);
    expect(accuracyReport(pairs, await scorePairs(model, pos, neg), "crc").overall.accuracy).toBeCloseTo(res.best!.devAccuracy!, 10);
    const s = model.encoder.params.get("mix/s")!.arraySync() as number[];
    expect(Math.max(...s.map(Math.abs))).toBeGreaterThan(0); // moved from ELMo's zero init
    model.dispose();

    // Save -> load round trip of a model with a non-trivial mix: identical scores.
    const m = await createModel({ encoder: { kind: KIND }, head: { head: "attention", slots: 2 } }, undefined, new Rng(5), FIXTURES);
    m.encoder.params.get("mix/s")!.assign(tf.tensor1d([0.5, -1, 2]));
    m.encoder.params.get("mix/gamma")!.assign(tf.tensor1d([1.7]));
    const rt = join(dir, "rt");
    saveCheckpoint(rt, m, { contextMode: "crc", prepare: prep, data: {}, training: {} });
    const sides = [side(["the man was red ."], "he came home late ."), side([], "it was hers , not his .")];
    const a = await scoreSides(m, sides);
    const { model: back } = await loadCheckpoint(rt, FIXTURES);
    expect((await scoreSides(back, sides)).map((x) => x.y)).toEqual(a.map((x) => x.y));
    m.dispose();
    back.dispose();

    // A checkpoint whose recorded model was moved: found through --model-dir, else a clear error.
    const moved = join(dir, "moved");
    cpSync(rt, moved, { recursive: true });
    const c = JSON.parse(readFileSync(join(moved, "config.json"), "utf8"));
    c.encoder.modelPath = join(dir, "gone", "tiny-bert");
    writeFileSync(join(moved, "config.json"), JSON.stringify(c));
    const ref = join(dir, "ref.txt");
    const hyp = join(dir, "hyp.txt");
    writeFileSync(ref, "the man was red .\nhe came home late .\n");
    writeFileSync(hyp, "the man was red .\nshe came home late .\n");
    const bad = await runCli(registerScore, "score", ["-r", ref, "-t", hyp, "-c", moved, "--backend", "cpu", "--quiet"]);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/transformers model 'tiny-bert' not found; searched: .*gone/);
    const ok = await runCli(registerScore, "score", ["-r", ref, "-t", hyp, "-c", moved, "--model-dir", FIXTURES, "--backend", "cpu", "--quiet", "--segments"]);
    expect({ code: ok.code, err: ok.err }).toMatchObject({ code: 0 });
    expect(ok.out).toMatch(/\tscored\t[-0-9.]+\t[-0-9.]+\t[-0-9.]+\the\tshe\t[^\n]*\n/);
  }, 60000);
});
