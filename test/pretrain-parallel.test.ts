import { describe, it, expect, beforeAll } from "vitest";
import * as tf from "@tensorflow/tfjs";
import { mkdtempSync, writeFileSync, readFileSync, mkdirSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pretrain, PretrainStoppedError } from "../src/pretrain/train.js";
import { PRETRAIN_DEFAULTS } from "../src/pretrain/defaults.js";
import { PronounLm, N_PRONOUNS, type MaskedWindow } from "../src/pretrain/model.js";
import type { LmArch } from "../src/pretrain/arch.js";
import { shardGradients, shardWindows, shardSeed, microBatches, TRANSFORMER_MICRO_BATCH_TOKENS } from "../src/pretrain/shard.js";
import { averageShards, averageLoss, gradsToFlat, paramLayout, compiledScript, gcDescription } from "../src/nn/data-parallel.js";
import { registerPretrain } from "../src/cli/pretrain.js";
import { runCli } from "./cli-helper.js";
import { wantsSingleThreadedGc } from "../src/cli/single-threaded-gc.js";
import { spawn, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { writeEmbeddingTable, type EmbeddingTable } from "../src/nn/glove.js";
import { selectBackend } from "../src/nn/backend.js";
import { Rng } from "../src/core/prng.js";
import { decodeHalf, encodeHalf } from "../src/nn/fp16.js";
import { floatsOf } from "../src/nn/tensors.js";

const words = ["i", "he", "it", "she", "they", "her", "him", "them", "we", "you", "the", "house", "saw", "walked", "to", "sister", "."];
const dir = mkdtempSync(join(tmpdir(), "proneval-dp-"));
const corpus = join(dir, "train.jsonl");

function tinyTable(): EmbeddingTable {
  const rng = new Rng(3);
  const dim = 8;
  const v = new Float32Array((words.length + 2) * dim);
  for (let i = dim; i < v.length; i++) v[i] = rng.next() - 0.5;
  return { dim, words, vectors: decodeHalf(encodeHalf(v)), source: "test" };
}

const ARCHS: Array<[string, LmArch]> = [
  ["BiLSTM", { kind: "glove-bilstm", hidden: 6, layers: 1 }],
  ["two-layer BiLSTM", { kind: "glove-bilstm", hidden: 5, layers: 2 }],
  ["Transformer", { kind: "glove-transformer", layers: 2, width: 8, heads: 2, ffn: 16, positions: "learned", maxPositions: 128 }],
];

beforeAll(async () => {
  await selectBackend("cpu");
  const lines: string[] = [];
  for (let d = 0; d < 6; d++) lines.push(JSON.stringify({ id: `d${d}`, source: "t", sents: ["she walked to the house .", "the sister saw him .", "he saw her .", "they saw the house .", "it walked to them ."] }));
  writeFileSync(corpus, lines.join("\n") + "\n");
});

describe("data-parallel gradients", () => {
  for (const [name, arch] of ARCHS) {
    it(`${name}: the size-weighted mean of the shards' gradients is the global batch's gradient`, async () => {
      const lm = new PronounLm(tinyTable(), arch.kind === "glove-bilstm" ? arch.hidden : arch.width, 0, new Rng(4), "masked", "js", arch);
      const params = lm.allParams();
      const layout = paramLayout(params);
      const rng = new Rng(9);
      const ws: MaskedWindow[] = Array.from({ length: 7 }, () => {
        const n = 2 + rng.int(9);
        return { rows: Int32Array.from({ length: n }, () => 2 + rng.int(words.length)), mask: rng.int(n), label: rng.int(N_PRONOUNS) };
      }).sort((a, b) => a.rows.length - b.rows.length);
      const whole = shardGradients(lm, params, ws, 1);
      const ref = new Float32Array(layout.size);
      await gradsToFlat(whole.grads, layout, ref);
      tf.dispose([...whole.grads.values()]);
      for (const shards of [2, 3]) {
        const parts = await Promise.all(shardWindows(ws, shards).map(async (s, k) => {
          const r = shardGradients(lm, params, s, shardSeed(1, k));
          const flat = new Float32Array(layout.size);
          await gradsToFlat(r.grads, layout, flat);
          tf.dispose([...r.grads.values()]);
          return { n: r.n, loss: r.loss, flat };
        }));
        expect(parts.map((p) => p.n)).toEqual(shards === 2 ? [4, 3] : [3, 2, 2]);
        const avg = new Float32Array(layout.size);
        averageShards(parts, avg);
        expect(averageLoss(parts)).toBeCloseTo(whole.loss, 5);
        let scale = 0;
        for (const x of ref) scale = Math.max(scale, Math.abs(x));
        expect(scale).toBeGreaterThan(1e-3);
        for (let i = 0; i < ref.length; i++) expect(Math.abs(avg[i]! - ref[i]!)).toBeLessThan(1e-5 * scale + 1e-7);
      }
      lm.dispose();
    });
  }
});

describe("Transformer micro-batches", () => {
  it("a batch over the token budget runs in micro-batches whose size-weighted gradients are the whole batch's", () => {
    const arch: LmArch = { kind: "glove-transformer", layers: 1, width: 8, heads: 2, ffn: 8, positions: "learned", maxPositions: 128 };
    const lm = new PronounLm(tinyTable(), 8, 0, new Rng(4), "masked", "js", arch);
    const params = lm.allParams();
    const rng = new Rng(2);
    const ws: MaskedWindow[] = Array.from({ length: 45 }, () => {
      const n = 90 + rng.int(38);
      return { rows: Int32Array.from({ length: n }, () => 2 + rng.int(words.length)), mask: rng.int(n), label: rng.int(N_PRONOUNS) };
    }).sort((a, b) => a.rows.length - b.rows.length);
    const parts = microBatches(lm, ws);
    expect(parts.length).toBeGreaterThan(1);
    expect(parts.flat()).toEqual(ws);
    for (const p of parts) expect(p.length * Math.max(...p.map((w) => w.rows.length))).toBeLessThanOrEqual(TRANSFORMER_MICRO_BATCH_TOKENS);
    const split = shardGradients(lm, params, ws, 1);
    const { value, grads } = tf.variableGrads(() => lm.loss(ws, true, 1), [...params.values()]);
    expect(split.loss).toBeCloseTo(value.dataSync()[0]!, 5);
    for (const [k, v] of params) {
      const a = split.grads.get(k)!.dataSync();
      const b = grads[v.name]!.dataSync();
      let scale = 1e-6;
      for (const x of b) scale = Math.max(scale, Math.abs(x));
      for (let i = 0; i < a.length; i++) expect(Math.abs(a[i]! - b[i]!), k).toBeLessThan(1e-5 * scale + 1e-7);
    }
    tf.dispose([value, ...Object.values(grads), ...split.grads.values()]);
    lm.dispose();
  });
});

describe.skipIf(!compiledScript("pretrain", "train-worker.js", new URL("../src/pretrain/x.js", import.meta.url).href))("pretrain --workers 2 (worker threads; needs the compiled build)", () => {
  const run = async (out: string, o: Partial<Parameters<typeof pretrain>[0]>) => {
    mkdirSync(out, { recursive: true });
    if (!existsSync(join(out, "embeddings.bin"))) writeEmbeddingTable(join(out, "embeddings.bin"), tinyTable());
    return pretrain({ ...PRETRAIN_DEFAULTS, corpus, out, hidden: 6, batchSize: 6, checkpointEvery: 2, evalEvery: 1000, backend: "cpu", dev: undefined, quiet: true, ...o }, () => {});
  };
  const weights = (d: string): Float32Array => floatsOf(readFileSync(join(d, "weights.bin")));

  it("one data-parallel step equals the one-thread step on the same global batch; reruns are bit-identical", async () => {
    for (const [name, arch] of ARCHS) {
      const hidden = arch.kind === "glove-bilstm" ? arch.hidden : arch.width;
      const one = join(dir, `one-${name}`);
      const two = join(dir, `two-${name}`);
      const again = join(dir, `again-${name}`);
      const r1 = await run(one, { arch, hidden, maxSteps: 1, workers: 1 });
      const r2 = await run(two, { arch, hidden, maxSteps: 1, workers: 2 });
      await run(again, { arch, hidden, maxSteps: 1, workers: 2 });
      expect(r2.curve[r2.curve.length - 1]!.loss).toBeCloseTo(r1.curve[r1.curve.length - 1]!.loss, 5);
      const a = weights(one);
      const b = weights(two);
      // Adam's first step moves each weight by lr * g / (|g| + eps): equal up to float rounding.
      let maxDiff = 0;
      for (let i = 0; i < a.length; i++) maxDiff = Math.max(maxDiff, Math.abs(a[i]! - b[i]!));
      expect(maxDiff, name).toBeLessThan(1e-5);
      expect(readFileSync(join(again, "weights.bin")).equals(readFileSync(join(two, "weights.bin"))), name).toBe(true);
    }
  }, 120000);

  it("two threads train like one over several steps, and a resumed two-thread run is bit-identical to an uninterrupted one", async () => {
    const a = join(dir, "p-a");
    const b = join(dir, "p-b");
    const c = join(dir, "p-c");
    const ra = await run(a, { maxSteps: 12, workers: 2 });
    await run(b, { maxSteps: 5, workers: 2 });
    await run(b, { maxSteps: 12, workers: 2, resume: true });
    expect(readFileSync(join(b, "weights.bin")).equals(readFileSync(join(a, "weights.bin")))).toBe(true);
    const rc = await run(c, { maxSteps: 12, workers: 1 });
    const la = ra.curve.filter((p) => Number.isFinite(p.loss)).map((p) => p.loss);
    const lc = rc.curve.filter((p) => Number.isFinite(p.loss)).map((p) => p.loss);
    la.forEach((x, i) => expect(x).toBeCloseTo(lc[i]!, 3));
    expect(JSON.parse(readFileSync(join(a, "config.json"), "utf8")).training.workers).toBe(2);
  }, 120000);

  it("a worker that dies ends the run with a message and a checkpoint that --resume continues exactly", async () => {
    const a = join(dir, "d-a");
    const b = join(dir, "d-b");
    await run(a, { maxSteps: 8, workers: 2 });
    const err = await run(b, { maxSteps: 8, workers: 2, faultWorkerExitAtStep: 5 }).catch((e) => e);
    expect(err).toBeInstanceOf(PretrainStoppedError);
    expect(err.message).toMatch(/worker 1 died \(exit code 3\) at step 6 of a 2-thread run; stopped, with .*resume\.ckpt and the model at step 5 written: continue with the same command and --resume/);
    expect(JSON.parse(readFileSync(join(b, "config.json"), "utf8")).training.step).toBe(5);
    const r = await run(b, { maxSteps: 8, workers: 2, resume: true });
    expect(r.steps).toBe(8);
    expect(readFileSync(join(b, "weights.bin")).equals(readFileSync(join(a, "weights.bin")))).toBe(true);
  }, 120000);
});

describe("training on several threads starts with single-threaded garbage collection", () => {
  const argv = (...a: string[]): string[] => ["/usr/bin/node", "/x/proneval", ...a];
  it("asks for it only for pretrain and train with --workers above 1, in a process without the flag", () => {
    expect(wantsSingleThreadedGc(argv("pretrain", "--corpus", "c", "--workers", "2"), [])).toBe(true);
    expect(wantsSingleThreadedGc(argv("train", "--workers=4", "--train", "t"), [])).toBe(true);
    expect(wantsSingleThreadedGc(argv("pretrain", "--workers", "2"), ["--single-threaded-gc"])).toBe(false);
    expect(wantsSingleThreadedGc(argv("pretrain", "--workers", "1"), [])).toBe(false);
    expect(wantsSingleThreadedGc(argv("pretrain", "--corpus", "c"), [])).toBe(false);
    expect(wantsSingleThreadedGc(argv("pretrain", "--workers", "two"), [])).toBe(false);
    expect(wantsSingleThreadedGc(argv("score", "--workers", "2"), [])).toBe(false);
    expect(wantsSingleThreadedGc(argv("pretrain", "--workers", "2", "--workers", "1"), [])).toBe(false);
    expect(wantsSingleThreadedGc(argv(), [])).toBe(false);
    expect(gcDescription([])).toMatch(/concurrent/);
    expect(gcDescription(["--single-threaded-gc"])).toBe("V8 GC single-threaded");
  });

  const cli = fileURLToPath(new URL("../dist/src/cli/index.js", import.meta.url));
  it.skipIf(!existsSync(cli) || !compiledScript("pretrain", "train-worker.js", new URL("../src/pretrain/x.js", import.meta.url).href))("the proneval command restarts itself with --single-threaded-gc and trains (needs the compiled build)", () => {
    const out = join(dir, "cli-gc");
    mkdirSync(out, { recursive: true });
    writeEmbeddingTable(join(out, "embeddings.bin"), tinyTable());
    const common = ["--corpus", corpus, "-o", out, "--hidden", "6", "--batch-size", "6", "--max-steps", "2", "--backend", "cpu", "--force"];
    const two = spawnSync(process.execPath, [cli, "pretrain", ...common, "--workers", "2"], { encoding: "utf8" });
    expect(two.status, two.stderr).toBe(0);
    expect(two.stderr).toMatch(/data parallel: 2 threads .*; V8 GC single-threaded/);
    expect(JSON.parse(readFileSync(join(out, "config.json"), "utf8")).training.step).toBe(2);
    // One thread: nothing to restart for.
    const one = spawnSync(process.execPath, [cli, "pretrain", ...common, "--workers", "1"], { encoding: "utf8" });
    expect(one.status, one.stderr).toBe(0);
    expect(one.stderr).not.toMatch(/data parallel/);
  }, 120000);

  it.skipIf(!existsSync(cli) || !compiledScript("pretrain", "train-worker.js", new URL("../src/pretrain/x.js", import.meta.url).href))("SIGTERM to the restarted command reaches the run, which stops with a resume checkpoint (needs the compiled build)", async () => {
    const out = join(dir, "cli-gc-signal");
    mkdirSync(out, { recursive: true });
    writeEmbeddingTable(join(out, "embeddings.bin"), tinyTable());
    const child = spawn(process.execPath, [cli, "pretrain", "--corpus", corpus, "-o", out, "--hidden", "6", "--batch-size", "6", "--checkpoint-every", "1000", "--backend", "cpu", "--force", "--workers", "2"], { stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    await new Promise<void>((resolve) => {
      child.stderr.on("data", (b: Buffer) => {
        stderr += b.toString();
        // Progress lines mean steps are being trained: the run (not only the restart) is under way.
        if (/step \d+ loss/.test(stderr)) resolve();
      });
    });
    child.kill("SIGTERM");
    const code = await exited;
    expect(stderr).toMatch(/stopped \(signal\) at step \d+/);
    expect(code).toBe(0);
    expect(existsSync(join(out, "resume.ckpt"))).toBe(true);
  }, 120000);
});

describe("pretrain refuses bad input", () => {
  it("--resume with another encoder shape names both shapes", async () => {
    const out = join(dir, "shape");
    mkdirSync(out, { recursive: true });
    writeEmbeddingTable(join(out, "embeddings.bin"), tinyTable());
    const base = { ...PRETRAIN_DEFAULTS, corpus, out, hidden: 6, batchSize: 6, checkpointEvery: 2, evalEvery: 1000, backend: "cpu", dev: undefined };
    await pretrain({ ...base, maxSteps: 2 }, () => {});
    const tf4: LmArch = { kind: "glove-transformer", layers: 4, width: 8, heads: 2, ffn: 16, positions: "learned", maxPositions: 128 };
    await expect(pretrain({ ...base, maxSteps: 4, resume: true, arch: tf4, hidden: 8 }, () => {})).rejects.toThrow(
      /cannot resume: the interrupted run trained a BiLSTM 1 x 6, this command asks for a Transformer 4 x 8 \(2 heads, FFN 16, learned positions up to 128\)/,
    );
    await expect(pretrain({ ...base, maxSteps: 4, resume: true, arch: { kind: "glove-bilstm", hidden: 6, layers: 2 } }, () => {})).rejects.toThrow(/BiLSTM 1 x 6, this command asks for a BiLSTM 2 x 6/);
    // Through the CLI: one line, exit 2.
    const cli = await runCli(registerPretrain, "pretrain", ["--corpus", corpus, "-o", out, "--resume", "--encoder", "transformer", "--layers", "4", "--model-width", "8", "--heads", "2", "--max-steps", "4", "--backend", "cpu", "-q"]);
    expect(cli.code).toBe(2);
    expect(cli.err).toMatch(/^proneval: error: .*resume\.ckpt: cannot resume: the interrupted run trained a BiLSTM 1 x 6, this command asks for a Transformer 4 x 8 .*\n$/);
  }, 60000);

  it("a corpus that is not UTF-8 text: one line naming file and line, exit 2, nothing written", async () => {
    const bad = join(dir, "bad.jsonl");
    const good = JSON.stringify({ id: "d", source: "t", sents: ["he saw her ."] });
    writeFileSync(bad, Buffer.concat([Buffer.from(good + "\n" + good + "\n"), Buffer.from('{"id": "x", "source": "t", "sents": ["she '), Buffer.from([0xc3, 0x28]), Buffer.from(' ."]}\n')]));
    const out = join(dir, "bad-out");
    const cli = await runCli(registerPretrain, "pretrain", ["--corpus", bad, "-o", out, "--max-steps", "1", "--backend", "cpu", "-q"]);
    expect(cli.code).toBe(2);
    expect(cli.err).toBe(`proneval: error: ${bad}:3: invalid UTF-8\n`);
    expect(existsSync(out)).toBe(false);
    // Binary data that happens to be valid UTF-8 is not a corpus document either.
    const bin = join(dir, "bin.jsonl");
    writeFileSync(bin, Buffer.concat([Buffer.from(good + "\n"), Buffer.from([0x00, 0x01, 0x02, 0x0a])]));
    const cli2 = await runCli(registerPretrain, "pretrain", ["--corpus", bin, "-o", out, "--max-steps", "1", "--backend", "cpu", "-q"]);
    expect(cli2.code).toBe(2);
    expect(cli2.err).toMatch(new RegExp(`^proneval: error: ${bin.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:2: invalid JSON .*\n$`));
    expect(existsSync(out)).toBe(false);
  });
});
