// Data-parallel training on several threads: each worker thread holds a replica of the model on its
// own tfjs backend (tfjs-wasm runs one thread per instance under Node), computes the gradient of its
// shard of the global batch, and writes it into shared memory; the main thread computes its own
// shard meanwhile, averages the shards (weighted by their sizes, so the result is the gradient of the
// global batch's mean loss), applies the optimizer once and publishes the new weights, which every
// worker reads before its next shard. All replicas therefore hold the same weights at every step.
import * as tf from "@tensorflow/tfjs";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Worker, parentPort, workerData } from "node:worker_threads";
import { PACKAGE_ROOT } from "../version.js";

/** node's flag under which each thread collects its own garbage (src/cli/single-threaded-gc.ts). */
export const SINGLE_THREADED_GC = "--single-threaded-gc";

/**
 * How V8 collects garbage in this process, for the data-parallel log line: with its concurrent
 * collector, helper threads compete with the shards for the cores (the proneval command starts
 * itself with --single-threaded-gc for --workers > 1).
 */
export function gcDescription(execArgv: readonly string[] = process.execArgv): string {
  return execArgv.includes(SINGLE_THREADED_GC) ? "V8 GC single-threaded" : "V8 GC concurrent (node --single-threaded-gc is faster on few cores)";
}

/** The log line of a data-parallel run: threads, how a batch of `batchSize` `unit` is split, and the collector. */
export function dataParallelLine(workers: number, batchSize: number, unit: string): string {
  return `data parallel: ${workers} threads (this one and ${workers - 1} worker thread${workers > 2 ? "s" : ""}), ${batchSize} ${unit} a step split ${shardBatch(Array.from({ length: batchSize }), workers).map((x) => x.length).join("/")}; ${gcDescription()}`;
}

/** Where each parameter sits in a flat float32 vector (the order of the model's parameter map). */
export interface ParamLayout {
  names: string[];
  shapes: number[][];
  offsets: number[];
  size: number;
}

export function paramLayout(params: Map<string, tf.Tensor>): ParamLayout {
  const names: string[] = [];
  const shapes: number[][] = [];
  const offsets: number[] = [];
  let size = 0;
  for (const [k, v] of params) {
    names.push(k);
    shapes.push(v.shape.slice());
    offsets.push(size);
    size += v.size;
  }
  return { names, shapes, offsets, size };
}

/** The parameters' values into a flat vector (read asynchronously: a GPU backend may have no synchronous read). */
export async function readParams(params: Map<string, tf.Tensor>, layout: ParamLayout, into: Float32Array): Promise<void> {
  for (const [i, k] of layout.names.entries()) into.set((await params.get(k)!.data()) as Float32Array, layout.offsets[i]);
}

/** Assigns a flat vector to the parameters (the replica of a worker). */
export function assignParams(params: Map<string, tf.Variable>, layout: ParamLayout, from: Float32Array): void {
  layout.names.forEach((k, i) => {
    const v = params.get(k)!;
    tf.tidy(() => v.assign(tf.tensor(from.subarray(layout.offsets[i]!, layout.offsets[i]! + v.size), layout.shapes[i]!)));
  });
}

/** Gradients by parameter name into a flat vector (a parameter without a gradient gets zeros). */
export async function gradsToFlat(grads: Map<string, tf.Tensor>, layout: ParamLayout, into: Float32Array): Promise<void> {
  for (const [i, k] of layout.names.entries()) {
    const g = grads.get(k);
    const o = layout.offsets[i]!;
    if (g) into.set((await g.data()) as Float32Array, o);
    else into.fill(0, o, o + layout.shapes[i]!.reduce((a, b) => a * b, 1));
  }
}

/** A flat gradient vector as tensors by parameter name (the caller disposes them). */
export function flatToGrads(layout: ParamLayout, flat: Float32Array): Map<string, tf.Tensor> {
  return new Map(layout.names.map((k, i) => {
    const n = layout.shapes[i]!.reduce((a, b) => a * b, 1);
    return [k, tf.tensor(flat.subarray(layout.offsets[i]!, layout.offsets[i]! + n), layout.shapes[i]!)] as [string, tf.Tensor];
  }));
}

/**
 * The gradient of the global batch's mean loss from its shards' mean-loss gradients: sum of
 * (n_k / n) g_k, accumulated in float64 in shard order (so the result does not depend on timing).
 */
export function averageShards(parts: Array<{ n: number; flat: Float32Array }>, into: Float32Array): void {
  const n = parts.reduce((a, p) => a + p.n, 0);
  const acc = new Float64Array(into.length);
  for (const p of parts) {
    if (p.n === 0) continue;
    const w = p.n / n;
    const f = p.flat;
    for (let i = 0; i < acc.length; i++) acc[i] += w * f[i]!;
  }
  for (let i = 0; i < acc.length; i++) into[i] = acc[i]!;
}

/**
 * Shard k of a global batch: items k, k+W, k+2W, ... A batch is length-sorted, so every shard gets
 * about the same number of tokens and stays sorted (the BiLSTM skips finished rows of a sorted batch).
 */
export function shardBatch<T>(items: T[], shards: number): T[][] {
  return Array.from({ length: shards }, (_, k) => items.filter((_, i) => i % shards === k));
}

/** Dropout seed of shard k (shard 0 keeps the step's own seed). */
export function shardSeed(dropSeed: number, k: number): number {
  return k === 0 ? dropSeed : (dropSeed + Math.imul(k, 0x9e3779b1)) >>> 0;
}

/** Mean loss of the global batch from the shards' mean losses. */
export function averageLoss(parts: Array<{ n: number; loss: number }>): number {
  const n = parts.reduce((a, p) => a + p.n, 0);
  return parts.reduce((a, p) => a + (p.n ? (p.n / n) * p.loss : 0), 0);
}

/** A worker thread ended (crashed, ran out of memory, was killed) while the run needed it. */
export class WorkerDiedError extends Error {
  constructor(
    readonly worker: number,
    readonly reason: string,
  ) {
    super(`worker ${worker} died (${reason})`);
    this.name = "WorkerDiedError";
  }
}

/** What every shard worker receives; `init` is the model-specific part. */
export interface ShardWorkerData<I> {
  index: number;
  layout: ParamLayout;
  /** Weights published by the main thread (layout.size floats) and their version (Int32 at 0). */
  paramBuf: SharedArrayBuffer;
  versionBuf: SharedArrayBuffer;
  /** This worker's gradient (layout.size floats). */
  gradBuf: SharedArrayBuffer;
  init: I;
}

/** One shard's mean loss, its size and the gradients of its mean loss by parameter name (none when empty). */
export interface ShardResult {
  loss: number;
  n: number;
  grads: Map<string, tf.Tensor>;
}

type Reply = { ready: true } | { ok: true; loss: number; n: number } | { ok: false; error: string };

/** A compiled worker script of src/<folder>/, or undefined (running from sources without a build). */
export function compiledScript(folder: string, name: string, from: string): URL | undefined {
  const here = new URL(`./${name}`, from);
  if (here.protocol === "file:" && existsSync(fileURLToPath(here))) return here;
  const dist = join(PACKAGE_ROOT, "dist", "src", folder, name);
  return existsSync(dist) ? pathToFileURL(dist) : undefined;
}

/** The main thread's side: worker threads 1..n-1 (the main thread is shard 0). */
export class ShardPool {
  readonly params: Float32Array;
  private readonly version: Int32Array;
  readonly grads: Float32Array[];
  private readonly own: Float32Array;
  private readonly avg: Float32Array;
  private closing = false;
  private failure: WorkerDiedError | null = null;
  private pending: Array<{ resolve: (r: Reply) => void; reject: (e: Error) => void } | null>;

  private constructor(
    private readonly workers: Worker[],
    readonly layout: ParamLayout,
    paramBuf: SharedArrayBuffer,
    versionBuf: SharedArrayBuffer,
    gradBufs: SharedArrayBuffer[],
  ) {
    this.params = new Float32Array(paramBuf);
    this.version = new Int32Array(versionBuf);
    this.grads = gradBufs.map((b) => new Float32Array(b));
    this.own = new Float32Array(layout.size);
    this.avg = new Float32Array(layout.size);
    this.pending = workers.map(() => null);
  }

  /**
   * Starts `threads` workers of `script` (numbered 1..threads), waits until each has built its replica
   * and publishes the weights of `params` (their first).
   */
  static async start<I>(script: URL, threads: number, params: Map<string, tf.Tensor>, init: I): Promise<ShardPool> {
    const layout = paramLayout(params);
    const paramBuf = new SharedArrayBuffer(layout.size * 4);
    const versionBuf = new SharedArrayBuffer(4);
    const gradBufs = Array.from({ length: threads }, () => new SharedArrayBuffer(layout.size * 4));
    const workers = gradBufs.map((gradBuf, k) => new Worker(script, { workerData: { index: k + 1, layout, paramBuf, versionBuf, gradBuf, init } satisfies ShardWorkerData<I> }));
    const pool = new ShardPool(workers, layout, paramBuf, versionBuf, gradBufs);
    workers.forEach((w, k) => {
      w.on("message", (r: Reply) => {
        const p = pool.pending[k];
        pool.pending[k] = null;
        if (!p) return;
        if ("ok" in r && !r.ok) p.reject(new WorkerDiedError(k + 1, r.error));
        else p.resolve(r);
      });
      const died = (reason: string): void => {
        if (pool.closing) return;
        pool.failure ??= new WorkerDiedError(k + 1, reason);
        const p = pool.pending[k];
        pool.pending[k] = null;
        p?.reject(pool.failure);
      };
      w.on("error", (e) => died(e?.message ?? String(e)));
      w.on("exit", (code) => died(`exit code ${code}`));
    });
    try {
      await Promise.all(workers.map((_, k) => pool.call(k, null)));
      await pool.publish(params);
    } catch (e) {
      await pool.close();
      throw e;
    }
    return pool;
  }

  private call(k: number, req: unknown): Promise<Reply> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.pending[k] = { resolve, reject };
      if (req !== null) this.workers[k]!.postMessage(req);
    });
  }

  /** Publishes new weights (read by each worker before its next shard). */
  async publish(params: Map<string, tf.Tensor>): Promise<void> {
    await readParams(params, this.layout, this.params);
    Atomics.add(this.version, 0, 1);
  }

  /** Sends request k to worker k+1 and returns its shard's loss and size (gradient in grads[k]). */
  dispatch(requests: unknown[]): Promise<Array<{ loss: number; n: number }>> {
    return Promise.all(requests.map((r, k) => this.call(k, r).then((x) => x as { loss: number; n: number })));
  }

  /**
   * One data-parallel step: request k goes to worker k+1 while `own` computes shard 0 on this thread;
   * `apply` (the optimizer) gets the size-weighted mean gradient once, then the new weights of
   * `params` are published. Returns the global batch's mean loss. A worker that dies rejects with
   * WorkerDiedError before anything is applied.
   */
  async step(requests: unknown[], own: () => Promise<ShardResult>, apply: (grads: Map<string, tf.Tensor>) => void, params: Map<string, tf.Tensor>): Promise<number> {
    const replies = this.dispatch(requests);
    replies.catch(() => {}); // awaited below; a worker may die while this thread computes its shard
    const mine = await own();
    await gradsToFlat(mine.grads, this.layout, this.own);
    tf.dispose([...mine.grads.values()]);
    const rs = await replies;
    const parts = [{ n: mine.n, loss: mine.loss, flat: this.own }, ...rs.map((r, k) => ({ n: r.n, loss: r.loss, flat: this.grads[k]! }))];
    averageShards(parts, this.avg);
    const g = flatToGrads(this.layout, this.avg);
    try {
      apply(g);
    } finally {
      tf.dispose([...g.values()]);
    }
    await this.publish(params);
    return averageLoss(parts);
  }

  /** Ends every worker (waits for them). */
  async close(): Promise<void> {
    this.closing = true;
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}

/**
 * The worker thread's side: `setup` builds the replica from `init` and returns the parameters and a
 * function computing one request's shard (mean loss, shard size, gradients by name). Weights are
 * re-read from the shared buffer whenever their version changed.
 */
export async function serveShards<I>(setup: (init: I, index: number) => Promise<{ params: Map<string, tf.Variable>; shard: (req: unknown) => ShardResult | Promise<ShardResult> }>): Promise<void> {
  const port = parentPort!;
  const d = workerData as ShardWorkerData<I>;
  const weights = new Float32Array(d.paramBuf);
  const version = new Int32Array(d.versionBuf);
  const grads = new Float32Array(d.gradBuf);
  try {
    const { params, shard } = await setup(d.init, d.index);
    const mine = paramLayout(params);
    if (JSON.stringify(mine) !== JSON.stringify(d.layout)) throw new Error("the replica's parameters differ from the main thread's");
    let seen = -1;
    // One request at a time: the main thread sends the next only after this one's reply.
    port.on("message", async (req: unknown) => {
      try {
        const v = Atomics.load(version, 0);
        if (v !== seen) {
          assignParams(params, d.layout, weights);
          seen = v;
        }
        const r = await shard(req);
        await gradsToFlat(r.grads, d.layout, grads);
        tf.dispose([...r.grads.values()]);
        port.postMessage({ ok: true, loss: r.loss, n: r.n } satisfies Reply);
      } catch (e) {
        port.postMessage({ ok: false, error: (e as Error).message } satisfies Reply);
      }
    });
    port.postMessage({ ready: true } satisfies Reply);
  } catch (e) {
    port.postMessage({ ok: false, error: (e as Error).message } satisfies Reply);
  }
}
