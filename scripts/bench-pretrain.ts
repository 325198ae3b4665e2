/**
 * Masked-pronoun pretraining throughput.
 *
 * Default: data-parallel threads (`pretrain --workers N`) compared on the same global batches:
 * tokens/s of full optimizer steps (encoder forward and backward, softmax over the 42 pronouns, Adam)
 * wall and per CPU-second of the process (all its threads), peak RSS while each configuration runs,
 * and each configuration's ratio to one thread, all in this process. The configurations take turns
 * (`--rounds`), so a change in the machine's load hits them alike. Synthetic windows: lengths spread
 * +-30% around --len, length-sorted like the trainer's buckets.
 *
 * For every thread count N > 1 the reference "N independent": N threads each computing the gradient
 * of a whole batch at once with nothing exchanged (and one Adam step on this thread), the most N
 * threads of this machine give at all. Data-parallel efficiency = the N-thread ratio / that ratio:
 * what is lost to the shards' exchange rather than to cores that slow each other (shared caches, a
 * hypervisor's scheduling). `--no-independent` leaves it out.
 *
 *   node dist/scripts/bench-pretrain.js [--encoder bilstm|transformer] [--hidden 128] [--layers N]
 *     [--width 256] [--heads N] [--ffn N] [--workers 1,2] [--steps 6] [--rounds 2] [--batch 64] [--len 70]
 *     [--backend wasm] [--pause-pid PID[,PID...]]
 *
 * --pause-pid stops those processes (SIGSTOP) during the measured rounds and continues them (SIGCONT)
 * right after, and on any exit of this script (error, Ctrl-C, SIGTERM), to measure on a machine
 * background jobs share; one that is already stopped is left alone.
 *
 * `--impls js,graph [--reference wasm|none]`, or a GPU backend: the comparison of BiLSTM
 * implementations per tfjs backend on one thread instead (BiLSTM only, --hidden 128 by default; 20 steps
 * by default), with zero-shot forward windows/s and the ratio to wasm with the js BiLSTM in the same process.
 */
import * as tf from "@tensorflow/tfjs";
import { loadavg } from "node:os";
import { readFileSync } from "node:fs";
import { selectBackend, describeBackend } from "../src/nn/backend.js";
import { PronounLm, N_PRONOUNS, type MaskedWindow } from "../src/pretrain/model.js";
import { archFromOptions, describeArch, type LmArch } from "../src/pretrain/arch.js";
import { DataParallelStepper, shardGradients, type PretrainShardRequest, type PretrainWorkerInit } from "../src/pretrain/shard.js";
import { ShardPool, compiledScript, gcDescription } from "../src/nn/data-parallel.js";
import { Adam } from "../src/nn/adam.js";
import { Rng } from "../src/core/prng.js";
import type { EmbeddingTable } from "../src/nn/glove.js";
import { measureInTurns, type TurnStats } from "./bench-turns.js";
import { flag, int, nums, parseArgs, str } from "./args.js";

const PROTOTYPE_TOKENS_PER_SEC = 3300;

const { opts } = parseArgs({
  name: "bench-pretrain",
  summary: "Masked-pronoun pretraining throughput: data-parallel threads compared on the same batches, or (--impls, or a GPU backend) the BiLSTM implementations per tfjs backend.",
  options: {
    encoder: str("encoder", "bilstm", { value: "bilstm|transformer" }),
    hidden: int("hidden size", undefined, { defaultText: "the encoder's; 128 with --impls" }),
    layers: int("encoder layers", undefined, { defaultText: "the encoder's" }),
    width: int("transformer width", undefined, { defaultText: "the encoder's" }),
    heads: int("transformer attention heads", undefined, { defaultText: "the encoder's" }),
    ffn: int("transformer feed-forward size", undefined, { defaultText: "the encoder's" }),
    workers: nums("thread counts to compare", "1,2"),
    steps: int("steps per round and configuration", undefined, { defaultText: "6; 20 with --impls or a GPU backend" }),
    rounds: int("rounds (the configurations take turns)", 2),
    batch: int("windows per step", 64),
    len: int("mean window length in tokens", 70),
    backend: str("tfjs backend", "wasm", { value: "NAME" }),
    noIndependent: flag("leave out the independent-threads reference"),
    pausePid: str("stop these processes (SIGSTOP) during the measured rounds", undefined, { value: "PID[,PID...]" }),
    impls: str("compare these BiLSTM implementations instead", undefined, { value: "js,graph", defaultText: "js,graph" }),
    reference: str("with --impls: also measure wasm with the js BiLSTM in the same process, or not", "wasm", { value: "wasm|none" }),
  },
});
const backendName = opts.backend;
const implsWanted = opts.impls !== undefined || !["wasm", "cpu"].includes(backendName);
const steps = opts.steps ?? (implsWanted ? 20 : 6);
const batch = opts.batch;
const len = opts.len;

function syntheticTable(rng: Rng): EmbeddingTable {
  const V = 40000;
  const dim = 100;
  const vectors = new Float32Array((V + 2) * dim);
  for (let i = dim; i < vectors.length; i++) vectors[i] = rng.next() - 0.5;
  return { dim, words: Array.from({ length: V }, (_, i) => `w${i}`), vectors, source: "synthetic" };
}

function makeBatch(rng: Rng, V: number): MaskedWindow[] {
  return Array.from({ length: batch }, () => {
    const n = Math.min(128, Math.max(4, Math.round(len * (0.7 + 0.6 * rng.next()))));
    const rows = Int32Array.from({ length: n }, () => 2 + rng.int(V));
    return { rows, mask: rng.int(n), label: rng.int(N_PRONOUNS) };
  }).sort((a, b) => a.rows.length - b.rows.length);
}

const mb = (bytes: number): number => Math.round(bytes / 2 ** 20);

/** The state letter of /proc/<pid>/stat (R, S, T, ...), or "?" where there is none. */
function processState(pid: number): string {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
  } catch {
    return "?";
  }
}

/** SIGSTOP/SIGCONT of background jobs around the measurement, continued on every way out. */
function pauser(pids: number[]): { pause(): void; resume(): void } {
  let paused: number[] = [];
  const resume = (): void => {
    for (const pid of paused) {
      try {
        process.kill(pid, "SIGCONT");
        console.log(`continued process ${pid} (SIGCONT)`);
      } catch (e) {
        console.error(`could not continue process ${pid}: ${(e as Error).message}`);
      }
    }
    paused = [];
  };
  if (pids.length === 0) return { pause() {}, resume };
  process.on("exit", resume);
  for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"] as const)
    process.on(sig, () => {
      resume();
      process.exit(130);
    });
  process.on("uncaughtException", (e) => {
    resume();
    console.error(e);
    process.exit(1);
  });
  return {
    pause() {
      for (const pid of pids) process.kill(pid, 0); // fails now, before anything is measured, if there is no such process
      for (const pid of pids) {
        // A process someone else has stopped stays as it is: continuing it afterwards is not ours to do.
        if (processState(pid) === "T") {
          console.log(`process ${pid} is already stopped: left as it is`);
          continue;
        }
        process.kill(pid, "SIGSTOP");
        paused.push(pid);
        console.log(`stopped process ${pid} (SIGSTOP) for the measurement`);
      }
    },
    resume,
  };
}

async function workersMode(): Promise<void> {
  const arch: LmArch = archFromOptions({ encoder: opts.encoder, hidden: opts.hidden, layers: opts.layers, width: opts.width, heads: opts.heads, ffn: opts.ffn, maxLen: 128 });
  const counts = opts.workers;
  const rounds = opts.rounds;
  const pids = opts.pausePid !== undefined ? opts.pausePid.split(",").map(Number) : [];
  if (pids.some((x) => !Number.isInteger(x) || x <= 1)) throw new Error(`--pause-pid expects process ids, got '${opts.pausePid}'`);
  const b = await selectBackend(backendName);
  console.log(`${describeBackend(b)}; ${gcDescription()}`);
  console.log(`${describeArch(arch)}; ${rounds} rounds x ${steps} steps x ${batch} windows of ~${len} tokens per configuration; threads: ${counts.join(", ")}`);
  const rng = new Rng(1);
  const table = syntheticTable(rng);
  const hidden = arch.kind === "glove-bilstm" ? arch.hidden : arch.width;
  const lm = new PronounLm(table, hidden, 0, rng, "masked", "js", arch);
  const params = lm.allParams();
  const adam = new Adam(params, 2e-3);
  console.log(`parameters: ${[...params.values()].reduce((a, p) => a + p.size, 0)}`);
  const steppers = new Map<number, DataParallelStepper>();
  const workerInit = { backend: backendName, hidden, dropout: 0, objective: "masked", lstmImpl: "js" } as const;
  for (const w of counts) if (w > 1) steppers.set(w, await DataParallelStepper.start(lm, params, adam, 5, w, workerInit));
  // The reference: N-1 worker threads and this one, each a whole batch's gradient, nothing exchanged.
  const pools = new Map<number, ShardPool>();
  if (!opts.noIndependent) {
    const script = compiledScript("pretrain", "train-worker.js", import.meta.url);
    if (!script) throw new Error("the independent-threads reference needs the compiled build (npx tsc -p .)");
    for (const w of counts) if (w > 1) pools.set(w, await ShardPool.start(script, w - 1, params, { ...workerInit, words: table.words, vectors: table.vectors, dim: table.dim, source: table.source, arch } satisfies PretrainWorkerInit));
  }
  type Config = { threads: number; independent: boolean };
  const configs: Config[] = counts.flatMap((w) => [{ threads: w, independent: false }, ...(pools.has(w) ? [{ threads: w, independent: true }] : [])]);
  let stepNo = 0;
  const oneThreadStep = (ws: MaskedWindow[]): void => {
    const r = shardGradients(lm, params, ws, 1);
    adam.apply(r.grads, 5);
    tf.dispose([...r.grads.values()]);
  };
  const runStep = async (c: Config, ws: MaskedWindow[]): Promise<void> => {
    const s = steppers.get(c.threads);
    const pool = pools.get(c.threads);
    if (c.independent && pool) {
      const req: PretrainShardRequest = { step: stepNo++, dropSeed: 1, windows: ws };
      const others = pool.dispatch(Array.from({ length: c.threads - 1 }, () => req));
      others.catch(() => {}); // awaited below
      oneThreadStep(ws);
      await others;
    } else if (s) await s.step(ws, 1, stepNo++);
    else oneThreadStep(ws);
  };
  // Warm-up (kernel compilation, allocation; the workers' first weights).
  for (const c of configs) await runStep(c, makeBatch(rng, table.words.length));
  const batches = Array.from({ length: rounds * steps }, () => makeBatch(rng, table.words.length));
  let stats: Map<Config, TurnStats>;
  const load0 = loadavg();
  const p = pauser(pids);
  p.pause();
  try {
    stats = await measureInTurns(configs, batches, rounds, runStep, (ws) => ({ items: ws.length, tokens: ws.reduce((x, win) => x + win.rows.length, 0) }));
  } finally {
    p.resume();
  }
  const load1 = loadavg();
  for (const s of steppers.values()) await s.close();
  for (const pool of pools.values()) await pool.close();
  adam.dispose();
  lm.dispose();
  // An independent configuration did N batches for each one counted.
  for (const c of configs) if (c.independent) stats.get(c)!.tokens *= c.threads;
  const tps = (c: Config): number => stats.get(c)!.tokens / stats.get(c)!.wall;
  const ref = tps(configs[0]!);
  for (const c of configs) {
    const st = stats.get(c)!;
    const indep = configs.find((x) => x.independent && x.threads === c.threads);
    console.log(
      JSON.stringify({
        encoder: describeArch(arch),
        threads: c.threads,
        ...(c.independent ? { mode: "independent" } : {}),
        tokensPerSec: Math.round(tps(c)),
        tokensPerCpuSec: Math.round(st.tokens / st.cpu),
        seconds: +st.wall.toFixed(1),
        peakRssMB: mb(st.peakRss),
        [`ratioVs${counts[0]}`]: +(tps(c) / ref).toFixed(2),
        ...(!c.independent && indep ? { efficiencyVsIndependent: +(tps(c) / tps(indep)).toFixed(2) } : {}),
      }),
    );
  }
  console.log(`load average (1 min) ${load0[0]!.toFixed(2)} before, ${load1[0]!.toFixed(2)} after the measured rounds; peak RSS of the process ${mb(process.resourceUsage().maxRSS * 1024)} MB`);
}

interface ImplRow {
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

async function measureImpl(impl: "js" | "graph", backend: string, device: string | null, hidden: number): Promise<ImplRow> {
  const rng = new Rng(1);
  const table = syntheticTable(rng);
  const lm = new PronounLm(table, hidden, 0, rng, "masked", impl);
  const params = lm.allParams();
  const adam = new Adam(params, 2e-3);
  // The loss is read asynchronously, as `pretrain` does: WebGPU under Node has no synchronous read.
  const step = async (ws: MaskedWindow[]): Promise<void> => {
    const { value, grads } = tf.variableGrads(() => lm.loss(ws, true), [...params.values()]);
    const loss = (await value.data())[0]!;
    value.dispose();
    // A backend that failed to run a kernel returns NaN at full speed: such a timing is no measurement.
    if (!Number.isFinite(loss)) throw new Error(`${backend} ${impl}: the loss is ${loss}; no timing is reported`);
    adam.apply(new Map([...params].map(([k, v]) => [k, grads[v.name]!] as [string, tf.Tensor])), 5);
    tf.dispose(Object.values(grads));
  };
  await step(makeBatch(rng, table.words.length)); // warm-up (kernel compilation, allocation)
  const prof = await tf.profile(async () => step(makeBatch(rng, table.words.length)));
  const batches = Array.from({ length: steps }, () => makeBatch(rng, table.words.length));
  const tokens = batches.reduce((a, b) => a + b.reduce((x, w) => x + w.rows.length, 0), 0);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (const b of batches) await step(b);
  const wall = (performance.now() - t0) / 1000;
  const c = process.cpuUsage(cpu0);
  const cpu = (c.user + c.system) / 1e6;
  const evalBatches = Array.from({ length: Math.max(1, Math.floor(steps / 2)) }, () => makeBatch(rng, table.words.length));
  const t1 = performance.now();
  let windows = 0;
  for (const b of evalBatches) {
    await lm.logProbsAsync(b);
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

async function implsMode(): Promise<void> {
  const hidden = opts.hidden ?? 128;
  const impls = (opts.impls ?? "js,graph").split(",") as Array<"js" | "graph">;
  console.log(`${steps} steps x ${batch} windows of ~${len} tokens, hidden ${hidden}`);
  const b = await selectBackend(backendName);
  console.log(describeBackend(b) + (b.skipped.length ? ` [skipped: ${b.skipped.join("; ")}]` : ""));
  const rows: ImplRow[] = [];
  for (const impl of impls) {
    rows.push(await measureImpl(impl, b.backend, b.device, hidden));
    console.log(JSON.stringify(rows[rows.length - 1]));
  }
  let ref = rows.find((r) => r.backend === "wasm" && r.impl === "js");
  if (!ref && opts.reference === "wasm") {
    const w = await selectBackend("wasm");
    console.log(`reference: ${describeBackend(w)}`);
    ref = await measureImpl("js", w.backend, null, hidden);
    console.log(JSON.stringify(ref));
  }
  if (ref) {
    for (const r of rows) r.ratioVsWasmJs = +(r.tokensPerSec / ref.tokensPerSec).toFixed(2);
    console.log("pretraining tokens/s relative to wasm + js BiLSTM (same process):");
    for (const r of rows) console.log(`  ${r.backend}${r.device ? ` (${r.device})` : ""} ${r.impl}: ${r.tokensPerSec} tokens/s, x${r.ratioVsWasmJs}`);
  }
  console.log(`peak RSS: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
}

// The implementation comparison also when a GPU backend is named (data-parallel threads are a CPU matter).
(implsWanted ? implsMode() : workersMode()).then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
