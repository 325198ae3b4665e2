/**
 * Training throughput of the ranker per tfjs backend and BiLSTM implementation: pairs/s and
 * tokens/s of full optimizer steps (forward, backward, Adam) on synthetic CRC-sized pairs, scoring
 * sides/s (forward only), peak tensor memory of one step (tf.profile) and peak RSS, plus a 512x512
 * matMul GFLOP/s probe. Unless --reference none, the same measurement then runs on wasm in the same
 * process and every row gets its ratio to wasm with the js BiLSTM (today's default). Usage:
 *   node dist/scripts/bench-train.js [--backend wasm|cpu|webgpu|gpu|node|auto] [--impls js,graph]
 *     [--reference wasm|none] [--steps N] [--batch B] [--len T] [--hidden H]
 *
 * `--workers 1,2 [--rounds 2]`: data-parallel training (`train --workers N`) instead: pairs/s and
 * tokens/s of the trainer's own steps (shards, Adam, weight exchange) on the same global batches for
 * each thread count, wall and per CPU-second of the process (all its threads), peak RSS while each
 * configuration runs and the ratio to the first count. The configurations take turns (`--rounds`), so
 * a change in the machine's load hits them alike.
 */
import * as tf from "@tensorflow/tfjs";
import { loadavg } from "node:os";
import { selectBackend, describeBackend } from "../src/nn/backend.js";
import { GloveBiLstmEncoder } from "../src/nn/encoder.js";
import { RankerModel, marginLoss } from "../src/ranker/model.js";
import { createModel, type ModelSpec } from "../src/ranker/checkpoint.js";
import { RankerParallelStepper, rankerShardGradients } from "../src/ranker/shard.js";
import { Adam } from "../src/nn/adam.js";
import { gcDescription } from "../src/nn/data-parallel.js";
import { measureInTurns } from "./bench-turns.js";
import type { PreparedSide } from "../src/core/scorer.js";
import { Rng } from "../src/core/prng.js";
import { int, nums, parseArgs, str } from "./args.js";

const { opts } = parseArgs({
  name: "bench-train",
  summary: "Training throughput of the ranker per tfjs backend and BiLSTM implementation, or (--workers) of data-parallel training.",
  options: {
    backend: str("tfjs backend", "wasm", { value: "wasm|cpu|webgpu|gpu|node|auto" }),
    impls: str("BiLSTM implementations to measure", "js,graph", { value: "js,graph" }),
    reference: str("also measure wasm with the js BiLSTM in the same process, or not", "wasm", { value: "wasm|none" }),
    steps: int("timed steps per row (per round and configuration with --workers)", 5),
    batch: int("pairs per step", 32),
    len: int("mean side length in tokens", 80),
    hidden: int("BiLSTM hidden size", 64),
    workers: nums("data-parallel training with these thread counts instead", undefined, { defaultText: "1,2" }),
    rounds: int("with --workers: rounds (the configurations take turns)", 2),
  },
});
const steps = opts.steps;
const batch = opts.batch;
const len = opts.len;
const hidden = opts.hidden;
const impls = opts.impls.split(",") as Array<"js" | "graph">;
const V = 5000;

/** Random 100-dimensional vectors for V words w0, w1, ... */
function syntheticTable(rng: Rng): { dim: number; words: string[]; vectors: Float32Array; source: string } {
  return { dim: 100, words: Array.from({ length: V }, (_, i) => `w${i}`), vectors: Float32Array.from({ length: (V + 2) * 100 }, () => rng.normal() * 0.3), source: "random" };
}

/** A CRC-sized side of ~len tokens with three pronouns in its sentence. */
function syntheticSide(rng: Rng): PreparedSide {
  const n = len - 10 + rng.int(20);
  return { tokens: Array.from({ length: n }, () => `w${rng.int(V)}`), sentStart: n - 25, pronounPos: [n - 20, n - 10, n - 3], truncated: 0 };
}

function matmulProbe(backend: string): number {
  const a = tf.randomNormal([512, 512]);
  const b = tf.randomNormal([512, 512]);
  tf.matMul(a, b).dataSync();
  const t = performance.now();
  const reps = backend === "cpu" ? 3 : 20;
  for (let i = 0; i < reps; i++) {
    const c = tf.matMul(a, b);
    c.dataSync(); // not inside tf.tidy: tidy walks a returned TypedArray element by element
    c.dispose();
  }
  const s = (performance.now() - t) / 1000;
  tf.dispose([a, b]);
  return (2 * 512 ** 3 * reps) / s / 1e9;
}

interface Row {
  backend: string;
  device: string | null;
  impl: string;
  trainPairsPerSec: number;
  trainTokensPerSec: number;
  trainPairsPerCpuSec: number;
  scoreSidesPerSec: number;
  stepPeakTensorMB: number;
  ratioVsWasmJs?: number;
}

/** One impl on the current backend; the data depend only on the seed, so every run sees the same batches. */
async function measure(impl: "js" | "graph", backend: string, device: string | null): Promise<Row> {
  const rng = new Rng(7);
  const table = syntheticTable(rng);
  const model = new RankerModel(new GloveBiLstmEncoder(table, { hidden, dropout: 0.2, impl }, rng), { head: "attention", slots: 16 }, rng);
  const params = model.allParams();
  const mkSide = (): PreparedSide => syntheticSide(rng);
  const opt = tf.train.adam(1e-3); // tfjs Adam here; the trainer's own Adam does the same arithmetic
  const batches = Array.from({ length: steps + 2 }, () => Array.from({ length: 2 * batch }, mkSide));
  const runStep = async (sides: PreparedSide[]): Promise<void> => {
    const bt = await model.makeBatch(sides);
    const loss = opt.minimize(() => {
      const { y } = model.forward(bt, true, 1);
      return marginLoss(y.slice(0, batch), y.slice(batch, batch));
    }, true, [...params.values()]);
    loss!.dataSync(); // the one read-back per step, as in the trainer
    loss!.dispose();
    model.disposeBatch(bt);
  };
  await runStep(batches[0]!); // warm-up: kernel compilation (GPU shaders), allocation
  // Peak tensor bytes of one step, outside the timed loop (profiling adds its own synchronisation).
  const prof = await tf.profile(() => runStep(batches[1]!));
  const tokens = batches.slice(2).reduce((a, b) => a + b.reduce((x, s) => x + s.tokens.length, 0), 0);
  let t = performance.now();
  let c0 = process.cpuUsage();
  for (const b of batches.slice(2)) await runStep(b);
  const s = (performance.now() - t) / 1000;
  // CPU seconds of this process: the machine is shared, so wall time alone overstates the cost.
  const cu = process.cpuUsage(c0);
  const sCpu = (cu.user + cu.system) / 1e6;
  const fb = await model.makeBatch(Array.from({ length: 64 }, mkSide));
  tf.tidy(() => model.forward(fb, false).y.dataSync());
  t = performance.now();
  c0 = process.cpuUsage();
  for (let i = 0; i < steps; i++) {
    const y = tf.tidy(() => model.forward(fb, false).y);
    y.dataSync();
    y.dispose();
  }
  const fs = (performance.now() - t) / 1000;
  model.disposeBatch(fb);
  opt.dispose();
  model.dispose();
  return {
    backend,
    device,
    impl,
    trainPairsPerSec: +((steps * batch) / s).toFixed(1),
    trainTokensPerSec: Math.round(tokens / s),
    trainPairsPerCpuSec: +((steps * batch) / sCpu).toFixed(1),
    scoreSidesPerSec: +((steps * 64) / fs).toFixed(1),
    stepPeakTensorMB: +(prof.peakBytes / 2 ** 20).toFixed(1),
  };
}

async function runOn(name: string): Promise<Row[]> {
  const b = await selectBackend(name);
  console.log(describeBackend(b) + (b.skipped.length ? ` [skipped: ${b.skipped.join("; ")}]` : ""));
  console.log(`matmul 512x512 on ${b.backend}: ${matmulProbe(b.backend).toFixed(2)} GFLOP/s`);
  const rows: Row[] = [];
  for (const impl of impls) {
    const r = await measure(impl, b.backend, b.device);
    console.log(JSON.stringify(r));
    rows.push(r);
  }
  return rows;
}

async function workersMode(): Promise<void> {
  const counts = opts.workers ?? [1, 2];
  const rounds = opts.rounds;
  const b = await selectBackend(opts.backend);
  console.log(`${describeBackend(b)}; ${gcDescription()}`);
  console.log(`batch ${batch} pairs of ~${len} tokens a side, hidden ${hidden}, js BiLSTM; ${rounds} rounds x ${steps} steps per configuration; threads: ${counts.join(", ")}`);
  const rng = new Rng(7);
  const table = syntheticTable(rng);
  const spec: ModelSpec = { encoder: { kind: "glove-bilstm", hidden, dropout: 0, lstmImpl: "js" }, head: { head: "attention", slots: 16 } };
  const model = await createModel(spec, table, rng);
  const params = model.allParams();
  const adam = new Adam(params, 1e-3);
  const side = (): PreparedSide => syntheticSide(rng);
  // Pairs sorted by length, as the trainer's buckets are.
  const pairs = (): { pos: PreparedSide[]; neg: PreparedSide[] } => {
    const ps = Array.from({ length: batch }, () => [side(), side()] as const).sort((x, y) => Math.max(x[0].tokens.length, x[1].tokens.length) - Math.max(y[0].tokens.length, y[1].tokens.length));
    return { pos: ps.map((p) => p[0]), neg: ps.map((p) => p[1]) };
  };
  const steppers = new Map<number, RankerParallelStepper>();
  for (const w of counts) if (w > 1) steppers.set(w, await RankerParallelStepper.start(model, spec, table, params, adam, { clip: 5, margin: 0.1, threads: w, backend: b.backend }));
  let stepNo = 0;
  const runStep = async (w: number, x: { pos: PreparedSide[]; neg: PreparedSide[] }): Promise<void> => {
    const s = steppers.get(w);
    if (s) await s.step(x.pos, x.neg, 1, stepNo++);
    else {
      const r = await rankerShardGradients(model, params, x.pos, x.neg, 0.1, 1);
      adam.apply(r.grads, 5);
      tf.dispose([...r.grads.values()]);
    }
  };
  for (const w of counts) await runStep(w, pairs()); // warm-up: allocation, the workers' first weights
  const data = Array.from({ length: rounds * steps }, pairs);
  const load0 = loadavg()[0]!;
  const stats = await measureInTurns(counts, data, rounds, runStep, (x) => ({ items: x.pos.length, tokens: [...x.pos, ...x.neg].reduce((t, sd) => t + sd.tokens.length, 0) }));
  const load1 = loadavg()[0]!;
  for (const s of steppers.values()) await s.close();
  adam.dispose();
  model.dispose();
  const ref = stats.get(counts[0]!)!;
  for (const w of counts) {
    const st = stats.get(w)!;
    console.log(
      JSON.stringify({
        threads: w,
        trainPairsPerSec: +(st.items / st.wall).toFixed(1),
        trainTokensPerSec: Math.round(st.tokens / st.wall),
        trainPairsPerCpuSec: +(st.items / st.cpu).toFixed(1),
        seconds: +st.wall.toFixed(1),
        peakRssMB: Math.round(st.peakRss / 2 ** 20),
        [`ratioVs${counts[0]}`]: +(st.items / st.wall / (ref.items / ref.wall)).toFixed(2),
      }),
    );
  }
  console.log(`load average (1 min) ${load0.toFixed(2)} before, ${load1.toFixed(2)} after the measured rounds; peak RSS of the process ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`);
}

async function main(): Promise<void> {
  console.log(`batch ${batch} pairs (${2 * batch} sides) of ~${len} tokens, hidden ${hidden}, ${steps} timed steps per row`);
  const rows = await runOn(opts.backend);
  let ref = rows.find((r) => r.backend === "wasm" && r.impl === "js");
  if (!ref && opts.reference === "wasm") {
    // Same process, same batches: the ratio is not confounded by another run's machine load.
    const b = await selectBackend("wasm");
    console.log(`reference: ${describeBackend(b)}`);
    ref = await measure("js", b.backend, null);
    console.log(JSON.stringify(ref));
  }
  if (ref) {
    for (const r of rows) r.ratioVsWasmJs = +(r.trainPairsPerSec / ref.trainPairsPerSec).toFixed(2);
    console.log("train pairs/s relative to wasm + js BiLSTM (same process):");
    for (const r of rows) console.log(`  ${r.backend}${r.device ? ` (${r.device})` : ""} ${r.impl}: ${r.trainPairsPerSec} pairs/s, ${r.trainTokensPerSec} tokens/s, x${r.ratioVsWasmJs}`);
  }
  console.log(`peak RSS: ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`);
}

// Worker threads keep the event loop alive: exit once the report is printed.
await (opts.workers !== undefined ? workersMode() : main());
process.exit(0);
