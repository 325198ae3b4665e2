import { describe, it, expect, beforeAll } from "vitest";
import * as tf from "@tensorflow/tfjs";
import { mkdtempSync, writeFileSync, readFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { selectBackend } from "../src/nn/backend.js";
import { trainRanker, TrainStoppedError, TRAIN_DEFAULTS, type TrainOptions } from "../src/ranker/train.js";
import { createModel } from "../src/ranker/checkpoint.js";
import { rankerShardGradients, rankerWorkerScript } from "../src/ranker/shard.js";
import { averageLoss, averageShards, gradsToFlat, paramLayout, shardBatch, shardSeed } from "../src/nn/data-parallel.js";
import { buildEmbeddingTable } from "../src/nn/glove.js";
import { readRankerPairs } from "../src/nn/data.js";
import { preparePairs } from "../src/nn/evaluate.js";
import { floatsOf } from "../src/nn/tensors.js";
import { registerTrain } from "../src/cli/train.js";
import { Rng } from "../src/core/prng.js";
import { runCli } from "./cli-helper.js";
import { VOCAB, toyPairs, writeTinyWink } from "./ranker-fixtures.js";

const dir = mkdtempSync(join(tmpdir(), "ranker-dp-"));
const wink = join(dir, "wink.json");
const train = join(dir, "train.jsonl");
const dev = join(dir, "dev.jsonl");

function opts(out: string, extra: Partial<TrainOptions> = {}): TrainOptions {
  return { ...TRAIN_DEFAULTS, train, dev, out, embeddingsSource: wink, hidden: 5, slots: 3, epochs: 1, batchSize: 8, lr: 0.02, dropout: 0, seed: 7, checkpointEvery: 2, backend: "cpu", vocabCap: 100, ...extra };
}

/** The tensors of a resume checkpoint (weights and Adam moments) as one float vector. */
function resumeFloats(out: string): Float32Array {
  const buf = readFileSync(join(out, "resume.ckpt"));
  return floatsOf(buf.subarray(4 + buf.readUInt32LE(0)));
}

function maxDiff(a: Float32Array, b: Float32Array): number {
  expect(a.length).toBe(b.length);
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m;
}

beforeAll(async () => {
  await selectBackend("cpu");
  writeTinyWink(wink);
  writeFileSync(train, toyPairs(40, 1));
  writeFileSync(dev, toyPairs(12, 2, "yy"));
});

describe("data-parallel ranker gradients", () => {
  it("the size-weighted mean of the shards' gradients is the gradient of the global batch's mean margin loss", async () => {
    const table = buildEmbeddingTable({ counts: new Map(VOCAB.map((w) => [w, 1])), required: [], cap: 100, source: wink });
    const model = await createModel({ encoder: { kind: "glove-bilstm", hidden: 4, dropout: 0 }, head: { head: "attention", slots: 3 } }, table, new Rng(3));
    const params = model.allParams();
    const layout = paramLayout(params);
    const pairs = await readRankerPairs(train, "crc");
    const tr = preparePairs(pairs.slice(0, 7), "crc", { contextSentences: 2, maxLen: 64 });
    const whole = await rankerShardGradients(model, params, tr.pos, tr.neg, 0.1, 1);
    const ref = new Float32Array(layout.size);
    await gradsToFlat(whole.grads, layout, ref);
    tf.dispose([...whole.grads.values()]);
    let scale = 0;
    for (const x of ref) scale = Math.max(scale, Math.abs(x));
    expect(scale).toBeGreaterThan(1e-3);
    for (const shards of [2, 3]) {
      const ps = shardBatch(tr.pos, shards);
      const ns = shardBatch(tr.neg, shards);
      const parts = [];
      for (let k = 0; k < shards; k++) {
        const r = await rankerShardGradients(model, params, ps[k]!, ns[k]!, 0.1, shardSeed(1, k));
        const flat = new Float32Array(layout.size);
        await gradsToFlat(r.grads, layout, flat);
        tf.dispose([...r.grads.values()]);
        parts.push({ n: r.n, loss: r.loss, flat });
      }
      expect(parts.map((p) => p.n)).toEqual(shards === 2 ? [4, 3] : [3, 2, 2]);
      const avg = new Float32Array(layout.size);
      averageShards(parts, avg);
      expect(averageLoss(parts)).toBeCloseTo(whole.loss, 5);
      expect(maxDiff(avg, ref)).toBeLessThan(1e-5 * scale);
    }
    model.dispose();
  });
});

describe.skipIf(!rankerWorkerScript())("train --workers 2 (worker threads; needs the compiled build)", () => {
  it("one step on two threads equals the one-thread step on the same global batch (also with the encoder frozen)", async () => {
    for (const [name, extra] of [["whole model", {}], ["frozen encoder", { encoderLr: 0 }]] as const) {
      const one = join(dir, `step-1-${Object.keys(extra).length}`);
      const two = join(dir, `step-2-${Object.keys(extra).length}`);
      // 7 pairs a step: shards of 4 and 3 pairs, so the shards' weights matter.
      await trainRanker(opts(one, { batchSize: 7, maxSteps: 1, evalAtStop: true, workers: 1, ...extra }));
      await trainRanker(opts(two, { batchSize: 7, maxSteps: 1, evalAtStop: true, workers: 2, ...extra }));
      const c1 = JSON.parse(readFileSync(join(one, "curve.json"), "utf8")).curve;
      const c2 = JSON.parse(readFileSync(join(two, "curve.json"), "utf8")).curve;
      expect(c2[0].trainLoss, name).toBeCloseTo(c1[0].trainLoss, 5);
      // Weights after the step and Adam's moments: equal up to float rounding in the gradient sums.
      expect(maxDiff(floatsOf(readFileSync(join(one, "weights.bin"))), floatsOf(readFileSync(join(two, "weights.bin")))), name).toBeLessThan(1e-5);
      expect(maxDiff(resumeFloats(one), resumeFloats(two)), name).toBeLessThan(1e-5);
      expect(JSON.parse(readFileSync(join(two, "config.json"), "utf8")).training.workers, name).toBe(2);
    }
  }, 60000);

  it("the CLI trains on two threads end to end, and a second identical run gives the same weights", async () => {
    const run = async (out: string) => {
      const r = await runCli(registerTrain, "train", ["--train", train, "--dev", dev, "-o", out, "--embeddings", wink, "--hidden", "5", "--slots", "3", "--epochs", "2", "--batch-size", "8", "--lr", "0.02", "--dropout", "0.1", "--seed", "7", "--backend", "cpu", "--workers", "2", "-q"]);
      expect(r.err).toBe("");
      expect(r.code).toBe(0);
    };
    await run(join(dir, "cli-a"));
    await run(join(dir, "cli-b"));
    expect(readFileSync(join(dir, "cli-a", "weights.bin")).equals(readFileSync(join(dir, "cli-b", "weights.bin")))).toBe(true);
    expect(resumeFloats(join(dir, "cli-a"))).toEqual(resumeFloats(join(dir, "cli-b")));
  }, 90000);

  it("a worker that dies stops the run naming the step, with a resume checkpoint that continues exactly", async () => {
    const a = join(dir, "die-a");
    const b = join(dir, "die-b");
    await trainRanker(opts(a, { workers: 2, epochs: 2 }));
    const err = await trainRanker(opts(b, { workers: 2, epochs: 2, faultWorkerExitAtStep: 6 })).catch((e) => e);
    expect(err).toBeInstanceOf(TrainStoppedError);
    expect(err.message).toMatch(/^train: worker 1 died \(exit code 3\) at step 7 of a 2-thread run; stopped, with .*resume\.ckpt written at step 6: continue with the same command and --resume$/);
    const r = await trainRanker(opts(b, { workers: 2, epochs: 2, resume: true }));
    expect(r.steps).toBe(10);
    expect(readFileSync(join(b, "weights.bin")).equals(readFileSync(join(a, "weights.bin")))).toBe(true);
  }, 90000);
});

describe("train --workers refuses bad values", () => {
  it("0, a fraction, a word or more workers than pairs in a batch: exit 2 with one line, nothing written", async () => {
    const cases: Array<[string, RegExp]> = [
      ["0", /^proneval: error: option --workers expects an integer >= 1, got '0'\n$/],
      ["1.5", /^proneval: error: option --workers expects an integer >= 1, got '1\.5'\n$/],
      ["two", /^proneval: error: option --workers expects an integer >= 1, got 'two'\n$/],
      ["9", /^proneval: error: --workers 9 is more than the 8 pairs of a batch \(--batch-size\)\n$/],
    ];
    for (const [w, msg] of cases) {
      const out = join(dir, `bad-${w}`);
      const r = await runCli(registerTrain, "train", ["--train", train, "-o", out, "--embeddings", wink, "--batch-size", "8", "--backend", "cpu", "--workers", w, "-q"]);
      expect(r.code, w).toBe(2);
      expect(r.err, w).toMatch(msg);
      expect(existsSync(out), w).toBe(false);
    }
    await expect(trainRanker(opts(join(dir, "bad-enc"), { encoder: "use-lite", workers: 2 }))).rejects.toThrow(/--workers > 1 trains the glove-bilstm encoder only \(got use-lite\)/);
  });
});
