/**
 * Training throughput of the ranker per tfjs backend and BiLSTM implementation: pairs/s and
 * tokens/s of full optimizer steps (forward, backward, Adam) on synthetic CRC-sized pairs, scoring
 * sides/s (forward only), peak tensor memory of one step (tf.profile) and peak RSS, plus a 512x512
 * matMul GFLOP/s probe. Unless --reference none, the same measurement then runs on wasm in the same
 * process and every row gets its ratio to wasm with the js BiLSTM (today's default). Usage:
 *   node dist/scripts/bench-train.js [--backend wasm|cpu|webgpu|gpu|node|auto] [--impls js,graph]
 *     [--reference wasm|none] [--steps N] [--batch B] [--len T] [--hidden H]
 */
import * as tf from "@tensorflow/tfjs";
import { selectBackend, describeBackend } from "../src/nn/backend.js";
import { GloveBiLstmEncoder } from "../src/nn/encoder.js";
import { RankerModel, marginLoss } from "../src/ranker/model.js";
import type { PreparedSide } from "../src/core/scorer.js";
import { Rng } from "../src/core/prng.js";

function arg(name: string, def: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : def;
}

const steps = Number(arg("steps", "5"));
const batch = Number(arg("batch", "32"));
const len = Number(arg("len", "80"));
const hidden = Number(arg("hidden", "64"));
const impls = arg("impls", "js,graph").split(",") as Array<"js" | "graph">;

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
  const V = 5000;
  const table = { dim: 100, words: Array.from({ length: V }, (_, i) => `w${i}`), vectors: Float32Array.from({ length: (V + 2) * 100 }, () => rng.normal() * 0.3), source: "random" };
  const model = new RankerModel(new GloveBiLstmEncoder(table, { hidden, dropout: 0.2, impl }, rng), { head: "attention", slots: 16 }, rng);
  const params = model.allParams();
  const mkSide = (): PreparedSide => {
    const n = len - 10 + rng.int(20);
    const tokens = Array.from({ length: n }, () => `w${rng.int(V)}`);
    return { tokens, sentStart: n - 25, pronounPos: [n - 20, n - 10, n - 3], truncated: 0 };
  };
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

async function main(): Promise<void> {
  console.log(`batch ${batch} pairs (${2 * batch} sides) of ~${len} tokens, hidden ${hidden}, ${steps} timed steps per row`);
  const rows = await runOn(arg("backend", "wasm"));
  let ref = rows.find((r) => r.backend === "wasm" && r.impl === "js");
  if (!ref && arg("reference", "wasm") === "wasm") {
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

await main();
