import { describe, it, expect, beforeAll, vi } from "vitest";
import * as tf from "@tensorflow/tfjs";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { selectBackend, describeBackend, type Importer } from "../src/nn/backend.js";
import { biLstm, type BiLstmInputs, type BiLstmParams } from "../src/nn/bilstm.js";
import { biLstmGraph, resolveLstmImpl } from "../src/nn/bilstm-graph.js";
import { GloveBiLstmEncoder } from "../src/nn/encoder.js";
import { RankerModel, marginLoss } from "../src/ranker/model.js";
import { saveCheckpoint, loadCheckpoint } from "../src/ranker/checkpoint.js";
import { scoreSides } from "../src/ranker/run-model.js";
import type { PreparedSide } from "../src/core/scorer.js";
import { Rng } from "../src/core/prng.js";
import { encodeHalf, decodeHalf } from "../src/nn/fp16.js";
import { InputError } from "../src/io/errors.js";
import { PronounLm, N_PRONOUNS, type MaskedWindow } from "../src/pretrain/model.js";
import { runCli } from "./cli-helper.js";
import { writeFileSync, readFileSync, mkdirSync } from "node:fs";
import { pretrain } from "../src/pretrain/train.js";
import { PRETRAIN_DEFAULTS } from "../src/pretrain/defaults.js";
import { writeEmbeddingTable } from "../src/nn/glove.js";
import { registerTrain } from "../src/cli/train.js";

/** An importer for which the GPU and native packages are absent, as on a machine without them. */
const absent: Importer = async (name) => {
  if (name === "webgpu" || name.startsWith("@tensorflow/tfjs-node") || name === "@tensorflow/tfjs-backend-webgpu") throw new Error(`Cannot find package '${name}'`);
  return import(name);
};

// Runs first, before any backend is chosen in this process (auto keeps an earlier choice).
describe("backend selection with the GPU packages absent", () => {
  it("auto falls back to wasm and says why each GPU/native choice was skipped", async () => {
    const b = await selectBackend("auto", 1, { importer: absent, gpuDevicePresent: () => true });
    expect(b.backend).toBe("wasm");
    expect(b.device).toBeNull();
    expect(b.skipped.map((s) => s.split(":")[0])).toEqual(["@tensorflow/tfjs-node-gpu", "webgpu", "@tensorflow/tfjs-node"]);
    expect(b.skipped[1]).toMatch(/package 'webgpu' \(Dawn\) is not installed/);
    expect(describeBackend(b)).toMatch(/^backend: wasm/);
  });
  it("a requested GPU backend that cannot run is an InputError naming what is missing", async () => {
    await expect(selectBackend("gpu", 1, { importer: absent })).rejects.toThrow(InputError);
    await expect(selectBackend("gpu", 1, { importer: absent })).rejects.toThrow(/backend 'gpu' is not available: @tensorflow\/tfjs-node-gpu: Cannot find package.*CUDA 11\.x and cuDNN 8/);
    await expect(selectBackend("webgpu", 1, { importer: absent })).rejects.toThrow(/backend 'webgpu' is not available: package 'webgpu' \(Dawn\) is not installed.*npm install webgpu/);
    await expect(selectBackend("node", 1, { importer: absent })).rejects.toThrow(/backend 'node' is not available/);
    await expect(selectBackend("tpu")).rejects.toThrow(/unknown backend 'tpu' \(expected one of: auto, gpu, webgpu, node, wasm, cpu\)/);
  });
});

/** Real Dawn (the optional `webgpu` package): on a machine with no adapter, a clear error; with one, webgpu runs. */
let webgpu: { ok: true } | { ok: false; message: string };
describe("webgpu on this machine", () => {
  beforeAll(async () => {
    try {
      await selectBackend("webgpu");
      webgpu = { ok: true };
    } catch (e) {
      webgpu = { ok: false, message: (e as Error).message };
    }
    await selectBackend("wasm");
  });
  it("either runs or fails with an InputError-style message that names the cause", () => {
    if (webgpu.ok) return;
    expect(webgpu.message).toMatch(/^backend 'webgpu' is not available: (Dawn found no WebGPU adapter|package 'webgpu' \(Dawn\) is not installed)/);
  });
  it("CLI: train --backend webgpu without an adapter exits 2 with that message", async (ctx) => {
    if (webgpu.ok) ctx.skip();
    const r = await runCli(registerTrain, "train", ["--train", "/nonexistent.jsonl", "-o", join(mkdtempSync(join(tmpdir(), "gpu-cli-")), "m"), "--backend", "webgpu", "--quiet"]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/proneval: error: backend 'webgpu' is not available/);
  });
  it("CLI: a bad --lstm-impl exits 2", async () => {
    const r = await runCli(registerTrain, "train", ["--train", "x", "-o", "y", "--lstm-impl", "cuda"]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--lstm-impl must be auto, js, graph, got 'cuda'/);
  });
});

function randn(rng: Rng, n: number, s = 0.5): Float32Array {
  return Float32Array.from({ length: n }, () => rng.normal() * s);
}

/** Random padded inputs (time-major, backward direction reversed within each length) and parameters. */
function randomLstm(seed: number, lengths: number[], d: number, h: number): { inp: BiLstmInputs; p: BiLstmParams; coef: tf.Tensor3D } {
  const rng = new Rng(seed);
  const B = lengths.length;
  const T = Math.max(...lengths);
  const xf = new Float32Array(T * B * d);
  const xb = new Float32Array(T * B * d);
  lengths.forEach((n, b) => {
    const s = randn(rng, n * d);
    for (let t = 0; t < n; t++) {
      xf.set(s.subarray(t * d, (t + 1) * d), (t * B + b) * d);
      xb.set(s.subarray(t * d, (t + 1) * d), ((n - 1 - t) * B + b) * d);
    }
  });
  const mk = (shape: number[]) => tf.variable(tf.tensor(randn(rng, shape.reduce((a, c) => a * c, 1)), shape));
  const p = { Wf: mk([d, 4 * h]), Uf: mk([h, 4 * h]), bf: mk([4 * h]), Wb: mk([d, 4 * h]), Ub: mk([h, 4 * h]), bb: mk([4 * h]) };
  return { inp: { B, T, d, lengths: Int32Array.from(lengths), xf, xb }, p, coef: tf.tensor3d(randn(rng, B * T * 2 * h), [B, T, 2 * h]) };
}

function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  expect(a.length).toBe(b.length);
  let m = 0;
  for (let k = 0; k < a.length; k++) m = Math.max(m, Math.abs(a[k]! - b[k]!));
  return m;
}

for (const backend of ["wasm", "cpu"] as const) {
  describe(`graph BiLSTM on ${backend}`, () => {
    it("forward and all six gradients equal the JS BiLSTM on random padded inputs", async () => {
      await selectBackend(backend);
      for (const [seed, lengths, d, h] of [[1, [7, 4, 1], 5, 3], [2, [9, 9, 2, 5], 6, 8]] as const) {
        const { inp, p, coef } = randomLstm(seed, [...lengths], d, h);
        const vars = Object.values(p);
        const run = (f: typeof biLstm) => {
          const out = tf.tidy(() => f(inp, p, h));
          const g = tf.variableGrads(() => tf.sum(tf.mul(f(inp, p, h), coef)) as tf.Scalar, vars);
          return { out: out.dataSync(), loss: g.value.dataSync()[0]!, grads: vars.map((v) => g.grads[v.name]!.dataSync()) };
        };
        const js = run(biLstm);
        const graph = run(biLstmGraph);
        expect(maxAbsDiff(graph.out, js.out)).toBeLessThan(1e-5);
        // padded positions are exactly zero in both
        const T = inp.T;
        for (let b = 0; b < inp.B; b++) for (let t = lengths[b]!; t < T; t++) for (let j = 0; j < 2 * h; j++) expect(graph.out[(b * T + t) * 2 * h + j] === 0).toBe(true);
        expect(Math.abs(graph.loss - js.loss)).toBeLessThan(1e-4);
        graph.grads.forEach((g, k) => expect(maxAbsDiff(g, js.grads[k]!)).toBeLessThan(1e-4));
        tf.dispose([...vars, coef]);
      }
    });
  });
}

const WORDS = ["he", "she", "it", "they", "his", "its", "the", "man", "car", "was", "fast", "said", "and", "woman", "her", "him", "them", "."];
const PRON = ["he", "she", "it", "they", "his", "its", "her", "him", "them"];

function side(rng: Rng): PreparedSide {
  const n = 3 + rng.int(10);
  const tokens = Array.from({ length: n }, () => WORDS[rng.int(WORDS.length)]!);
  tokens[n - 1 - rng.int(2)] = PRON[rng.int(PRON.length)]!;
  const pronounPos = tokens.map((w, i) => (PRON.includes(w) ? i : -1)).filter((i) => i >= 0);
  return { tokens, sentStart: 0, pronounPos, truncated: 0 };
}

function makeModel(impl: "js" | "graph"): RankerModel {
  const rng = new Rng(5);
  // fp16-representable vectors: checkpoints store the embedding table in fp16, as real tables are.
  const table = { dim: 8, words: WORDS, vectors: decodeHalf(encodeHalf(randn(rng, (WORDS.length + 2) * 8))), source: "test" };
  return new RankerModel(new GloveBiLstmEncoder(table, { hidden: 6, dropout: 0.2, impl }, rng), { head: "attention", slots: 3 }, rng);
}

describe("ranker and pronoun model with --lstm-impl graph", () => {
  it("a training step's loss and gradients (dropout on) equal the js implementation's on wasm", async () => {
    await selectBackend("wasm");
    const rng = new Rng(9);
    const sides = Array.from({ length: 12 }, () => side(rng));
    const grads = (impl: "js" | "graph") => {
      const m = makeModel(impl);
      const params = m.allParams();
      return m.makeBatch(sides).then((b) => {
        const { value, grads } = tf.variableGrads(() => {
          const { y } = m.forward(b, true, 17);
          return marginLoss(y.slice(0, 6), y.slice(6, 6));
        }, [...params.values()]);
        const r = { loss: value.dataSync()[0]!, g: [...params.values()].map((v) => grads[v.name]!.dataSync()) };
        m.disposeBatch(b);
        m.dispose();
        return r;
      });
    };
    const a = await grads("js");
    const b = await grads("graph");
    expect(a.loss).toBeGreaterThan(0); // the margin is active, so the gradients below are not all zero
    expect(Math.abs(a.loss - b.loss)).toBeLessThan(1e-5);
    a.g.forEach((g, k) => expect(maxAbsDiff(b.g[k]!, g)).toBeLessThan(1e-4));
  });

  it("the masked-pronoun model's loss and gradients equal the js implementation's", async () => {
    await selectBackend("wasm");
    const rng = new Rng(4);
    const table = { dim: 8, words: WORDS, vectors: randn(rng, (WORDS.length + 2) * 8), source: "test" };
    const ws: MaskedWindow[] = Array.from({ length: 5 }, (_, i) => {
      const n = 4 + i * 2;
      return { rows: Int32Array.from({ length: n }, () => 2 + rng.int(WORDS.length)), mask: rng.int(n), label: rng.int(N_PRONOUNS) };
    });
    const run = (impl: "js" | "graph") => {
      const lm = new PronounLm(table, 5, 0.1, new Rng(3), "masked", impl);
      const params = [...lm.allParams().values()];
      const { value, grads } = tf.variableGrads(() => lm.loss(ws, true, 11), params);
      const r = { loss: value.dataSync()[0]!, g: params.map((v) => grads[v.name]!.dataSync()) };
      lm.dispose();
      return r;
    };
    const a = run("js");
    const b = run("graph");
    expect(Math.abs(a.loss - b.loss)).toBeLessThan(1e-5);
    a.g.forEach((g, k) => expect(maxAbsDiff(b.g[k]!, g)).toBeLessThan(1e-4));
  });

  it("auto resolves to js on the CPU backends", async () => {
    await selectBackend("wasm");
    expect(resolveLstmImpl("auto")).toBe("js");
    expect(resolveLstmImpl(undefined)).toBe("js");
    expect(resolveLstmImpl("graph")).toBe("graph");
  });
});

describe("checkpoint across backends", () => {
  it("trained and saved on cpu with the graph BiLSTM, loaded on wasm (js BiLSTM): same scores within 1e-5", async () => {
    await selectBackend("cpu");
    const rng = new Rng(21);
    const m = makeModel("graph");
    const params = m.allParams();
    const opt = tf.train.adam(0.05);
    for (let s = 0; s < 5; s++) {
      const b = await m.makeBatch(Array.from({ length: 8 }, () => side(rng)));
      opt.minimize(() => {
        const { y } = m.forward(b, true, s);
        return marginLoss(y.slice(0, 4), y.slice(4, 4));
      }, false, [...params.values()]);
      m.disposeBatch(b);
    }
    opt.dispose();
    const test = Array.from({ length: 20 }, () => side(rng));
    const before = await scoreSides(m, test);
    const dir = mkdtempSync(join(tmpdir(), "gpu-ckpt-"));
    saveCheckpoint(dir, m, { contextMode: "crc", prepare: { maxLen: 64, contextSentences: 2 }, data: {}, training: { backend: "cpu" } });
    m.dispose();
    await selectBackend("wasm");
    const loaded = await loadCheckpoint(dir);
    expect(resolveLstmImpl((loaded.model.encoder as GloveBiLstmEncoder).cfg.impl)).toBe("js");
    const after = await scoreSides(loaded.model, test);
    loaded.model.dispose();
    // the 5 Adam steps moved the weights away from their initialisation, so scores vary across sides
    expect(new Set(before.map((s) => s.y.toFixed(3))).size).toBeGreaterThan(5);
    for (let i = 0; i < test.length; i++) {
      expect(Math.abs(after[i]!.y - before[i]!.y)).toBeLessThan(1e-5);
      expect(maxAbsDiff(after[i]!.u, before[i]!.u)).toBeLessThan(1e-5);
    }
  });
});

describe("the shipped checkpoint with either BiLSTM", () => {
  it("checkpoints/default scores the same with --lstm-impl graph as with js (its default on wasm)", async () => {
    await selectBackend("wasm");
    const { model } = await loadCheckpoint("checkpoints/default");
    const enc = model.encoder as GloveBiLstmEncoder;
    expect(enc.cfg.impl).toBeUndefined(); // saved configs carry no implementation: auto
    const rng = new Rng(8);
    const sides = Array.from({ length: 16 }, () => side(rng));
    const js = await scoreSides(model, sides);
    enc.cfg.impl = "graph";
    const graph = await scoreSides(model, sides);
    model.dispose();
    for (let i = 0; i < sides.length; i++) {
      expect(Math.abs(graph[i]!.y - js[i]!.y)).toBeLessThan(1e-5);
      expect(maxAbsDiff(graph[i]!.u, js[i]!.u)).toBeLessThan(1e-5);
    }
  });
});

describe("graph BiLSTM on webgpu (runs only where Dawn finds a GPU)", () => {
  it("forward and gradients on the GPU equal the js BiLSTM on wasm", async (ctx) => {
    if (!webgpu?.ok) ctx.skip();
    const run = async (backend: "webgpu" | "wasm", f: typeof biLstm) => {
      await selectBackend(backend);
      const { inp, p, coef } = randomLstm(3, [12, 7, 7, 1], 10, 16);
      const vars = Object.values(p);
      const out = tf.tidy(() => f(inp, p, 16));
      const g = tf.variableGrads(() => tf.sum(tf.mul(f(inp, p, 16), coef)) as tf.Scalar, vars);
      const r = { out: await out.data(), grads: await Promise.all(vars.map((v) => g.grads[v.name]!.data())) };
      tf.dispose([out, g.value, ...Object.values(g.grads), ...vars, coef]);
      return r;
    };
    const gpu = await run("webgpu", biLstmGraph);
    const cpu = await run("wasm", biLstm);
    expect(maxAbsDiff(gpu.out, cpu.out)).toBeLessThan(1e-4);
    gpu.grads.forEach((g, k) => expect(maxAbsDiff(g, cpu.grads[k]!)).toBeLessThan(1e-3));
  });
});

describe("pretrain --lstm-impl graph", () => {
  it("a short masked-pronoun pretraining run gives the js run's losses and weights up to float rounding", async () => {
    const dir = mkdtempSync(join(tmpdir(), "gpu-pretrain-"));
    const corpus = join(dir, "c.jsonl");
    const words = ["i", "he", "it", "she", "they", "her", "him", "them", "the", "house", "saw", "walked", "to", "sister", "."];
    const docs = Array.from({ length: 4 }, (_, d) => JSON.stringify({ id: `d${d}`, source: "t", sents: ["she walked to the house .", "the sister saw him .", "he saw her .", "they saw the house ."] }));
    writeFileSync(corpus, docs.join("\n") + "\n");
    const rng = new Rng(3);
    const table = { dim: 8, words, vectors: decodeHalf(encodeHalf(randn(rng, (words.length + 2) * 8))), source: "test" };
    const run = async (impl: "js" | "graph") => {
      const out = join(dir, impl);
      mkdirSync(out);
      writeEmbeddingTable(join(out, "embeddings.bin"), table);
      const r = await pretrain({ ...PRETRAIN_DEFAULTS, corpus, out, hidden: 6, dropout: 0.1, batchSize: 4, evalEvery: 2, maxSteps: 8, backend: "cpu", dev: undefined, lstmImpl: impl }, () => {});
      expect(JSON.parse(readFileSync(join(out, "config.json"), "utf8")).training.lstmImpl).toBe(impl);
      return { losses: r.curve.map((c) => c.loss).filter(Number.isFinite), weights: new Float32Array(readFileSync(join(out, "weights.bin")).buffer.slice(0)) };
    };
    const js = await run("js");
    const graph = await run("graph");
    expect(js.losses.length).toBe(4);
    js.losses.forEach((l, k) => expect(Math.abs(graph.losses[k]! - l)).toBeLessThan(1e-4));
    expect(maxAbsDiff(graph.weights, js.weights)).toBeLessThan(1e-5);
  });
});

// Last in the file: it loads a fresh copy of the src modules (vi.resetModules), after which classes
// such as InputError exist twice, which would confuse any test that came after it.
describe("auto on a GPU-less Linux machine", () => {
  it("auto on a Linux machine without a GPU device node does not ask Dawn", async () => {
    const seen: string[] = [];
    const spy: Importer = (name) => (seen.push(name), absent(name));
    // A fresh copy of the module: auto keeps the choice made above, and this must choose again.
    vi.resetModules();
    const fresh = await import("../src/nn/backend.js");
    const b = await fresh.selectBackend("auto", 1, { importer: spy, gpuDevicePresent: () => false });
    expect(b.backend).toBe("wasm");
    expect(seen).toEqual(["@tensorflow/tfjs-node-gpu", "@tensorflow/tfjs-node"]);
    expect(b.skipped[1]).toMatch(/^webgpu: not tried, no GPU device node/);
  });
});
