/**
 * Masked-pronoun pretraining throughput per tfjs backend and BiLSTM implementation: tokens/s of
 * full optimizer steps (BiLSTM forward and backward, softmax over the 42 pronouns, Adam) on
 * synthetic windows, wall and per CPU-second of this process, peak tensor memory of one step
 * (tf.profile), the ratio against the PyTorch prototype of issue 14 (3.3k tokens/s on one CPU
 * thread), and zero-shot forward windows/s. Unless --reference none, wasm with the js BiLSTM (the
 * default) is measured in the same process on the same batches and every row gets its ratio to it.
 * Usage:
 *   node dist/scripts/bench-pretrain.js [--backend wasm|cpu|webgpu|gpu|node|auto] [--impls js,graph]
 *     [--reference wasm|none] [--steps 20] [--batch 64] [--len 70] [--hidden 128]
 */
import * as tf from "@tensorflow/tfjs";
import { selectBackend, describeBackend } from "../src/nn/backend.js";
import { PronounLm, N_PRONOUNS, type MaskedWindow } from "../src/pretrain/model.js";
import { Adam } from "../src/nn/adam.js";
import { Rng } from "../src/core/prng.js";
import type { EmbeddingTable } from "../src/nn/glove.js";

const PROTOTYPE_TOKENS_PER_SEC = 3300;

function arg(name: string, def: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : def;
}

const steps = Number(arg("steps", "20"));
const batch = Number(arg("batch", "64"));
const len = Number(arg("len", "70"));
const hidden = Number(arg("hidden", "128"));
const impls = arg("impls", "js,graph").split(",") as Array<"js" | "graph">;

interface Row {
  backend: string;
  device: string | null;
  impl: string;
  tokensPerSec: number;
  tokensPerCpuSec: number;
  stepPeakTensorMB: number;
  zeroShotWindowsPerSec: number;
  ratioVsPrototype: number;
  ratioVsWasmJs?: number;
}

async function measure(impl: "js" | "graph", backend: string, device: string | null): Promise<Row> {
  const rng = new Rng(1);
  const V = 40000;
  const dim = 100;
  const vectors = new Float32Array((V + 2) * dim);
  for (let i = dim; i < vectors.length; i++) vectors[i] = rng.next() - 0.5;
  const table: EmbeddingTable = { dim, words: Array.from({ length: V }, (_, i) => `w${i}`), vectors, source: "synthetic" };
  const lm = new PronounLm(table, hidden, 0, rng, "masked", impl);
  const params = lm.allParams();
  const adam = new Adam(params, 2e-3);
  // Lengths spread +-30% around --len, length-sorted as the trainer's bucketing does.
  const makeBatch = (): MaskedWindow[] =>
    Array.from({ length: batch }, () => {
      const n = Math.max(4, Math.round(len * (0.7 + 0.6 * rng.next())));
      const rows = Int32Array.from({ length: n }, () => 2 + rng.int(V));
      return { rows, mask: rng.int(n), label: rng.int(N_PRONOUNS) };
    }).sort((a, b) => a.rows.length - b.rows.length);
  const step = (ws: MaskedWindow[]): void => {
    const { value, grads } = tf.variableGrads(() => lm.loss(ws, true), [...params.values()]);
    value.dataSync();
    value.dispose();
    adam.apply(new Map([...params].map(([k, v]) => [k, grads[v.name]!] as [string, tf.Tensor])), 5);
    tf.dispose(Object.values(grads));
  };
  step(makeBatch()); // warm-up (kernel compilation, allocation)
  const prof = await tf.profile(() => step(makeBatch()));
  const batches = Array.from({ length: steps }, makeBatch);
  const tokens = batches.reduce((a, b) => a + b.reduce((x, w) => x + w.rows.length, 0), 0);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (const b of batches) step(b);
  const wall = (performance.now() - t0) / 1000;
  const c = process.cpuUsage(cpu0);
  const cpu = (c.user + c.system) / 1e6;
  const evalBatches = Array.from({ length: Math.max(1, Math.floor(steps / 2)) }, makeBatch);
  const t1 = performance.now();
  let windows = 0;
  for (const b of evalBatches) {
    lm.logProbs(b);
    windows += b.length;
  }
  const ew = (performance.now() - t1) / 1000;
  adam.dispose();
  lm.dispose();
  return {
    backend,
    device,
    impl,
    tokensPerSec: Math.round(tokens / wall),
    tokensPerCpuSec: Math.round(tokens / cpu),
    stepPeakTensorMB: +(prof.peakBytes / 2 ** 20).toFixed(1),
    zeroShotWindowsPerSec: Math.round(windows / ew),
    ratioVsPrototype: +(tokens / wall / PROTOTYPE_TOKENS_PER_SEC).toFixed(2),
  };
}

async function main(): Promise<void> {
  console.log(`${steps} steps x ${batch} windows of ~${len} tokens, hidden ${hidden}`);
  const b = await selectBackend(arg("backend", "wasm"));
  console.log(describeBackend(b) + (b.skipped.length ? ` [skipped: ${b.skipped.join("; ")}]` : ""));
  const rows: Row[] = [];
  for (const impl of impls) {
    rows.push(await measure(impl, b.backend, b.device));
    console.log(JSON.stringify(rows[rows.length - 1]));
  }
  let ref = rows.find((r) => r.backend === "wasm" && r.impl === "js");
  if (!ref && arg("reference", "wasm") === "wasm") {
    const w = await selectBackend("wasm");
    console.log(`reference: ${describeBackend(w)}`);
    ref = await measure("js", w.backend, null);
    console.log(JSON.stringify(ref));
  }
  if (ref) {
    for (const r of rows) r.ratioVsWasmJs = +(r.tokensPerSec / ref.tokensPerSec).toFixed(2);
    console.log("pretraining tokens/s relative to wasm + js BiLSTM (same process):");
    for (const r of rows) console.log(`  ${r.backend}${r.device ? ` (${r.device})` : ""} ${r.impl}: ${r.tokensPerSec} tokens/s, x${r.ratioVsWasmJs}`);
  }
  console.log(`peak RSS: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
