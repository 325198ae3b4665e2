// One shard of a data-parallel pretraining step (src/nn/data-parallel.ts): the same computation in
// the main thread and in every worker thread.
import * as tf from "@tensorflow/tfjs";
import type { MaskedWindow, PretrainObjective, PronounLm } from "./model.js";
import type { LmArch } from "./arch.js";
import type { LstmImpl } from "../nn/lstm-impl.js";
import type { Adam } from "../nn/adam.js";
import { InputError } from "../io/errors.js";
import { ShardPool, compiledScript, shardBatch, shardSeed, type ShardResult } from "../nn/data-parallel.js";

export { shardBatch as shardWindows, shardSeed };

/** What a pretraining worker thread (train-worker.ts) is started with. */
export interface PretrainWorkerInit {
  backend: string;
  words: string[];
  vectors: Float32Array;
  dim: number;
  source: string;
  hidden: number;
  dropout: number;
  objective: PretrainObjective;
  lstmImpl?: LstmImpl;
  arch: LmArch;
  /** Tests only: the worker thread exits when asked for this step (a worker that dies). */
  exitAtStep?: number;
}

export interface PretrainShardRequest {
  step: number;
  dropSeed: number;
  windows: MaskedWindow[];
}

/**
 * Padded tokens (windows x longest window) of one forward/backward pass of a Transformer: a step's
 * activations (every [tokens, width] and [tokens, ffn] tensor of every layer, kept for the backward
 * pass) must fit wasm's 32-bit memory; 64 windows of ~70 tokens took 2.1 GB at 4 x 256.
 */
export const TRANSFORMER_MICRO_BATCH_TOKENS = 4096;

/**
 * Contiguous micro-batches of a length-sorted batch, each at most `budget` padded tokens (at least
 * one window each). Only Transformers are split; a BiLSTM batch is one micro-batch.
 */
export function microBatches(lm: PronounLm, ws: MaskedWindow[]): MaskedWindow[][] {
  if (lm.arch.kind !== "glove-transformer") return [ws];
  const out: MaskedWindow[][] = [];
  let cur: MaskedWindow[] = [];
  let longest = 0;
  for (const w of ws) {
    const l = Math.max(longest, w.rows.length);
    if (cur.length && l * (cur.length + 1) > TRANSFORMER_MICRO_BATCH_TOKENS) {
      out.push(cur);
      cur = [];
    }
    longest = cur.length ? Math.max(longest, w.rows.length) : w.rows.length;
    cur.push(w);
  }
  if (cur.length) out.push(cur);
  return out;
}

/**
 * Mean loss of a shard's windows and its gradients by parameter name (none for an empty shard). A
 * Transformer's shard runs in micro-batches (microBatches) whose mean-loss gradients are weighted by
 * their sizes: the gradient of the shard's mean loss, up to float rounding.
 */
export function shardGradients(lm: PronounLm, params: Map<string, tf.Variable>, ws: MaskedWindow[], dropSeed: number): ShardResult {
  if (ws.length === 0) return { loss: 0, n: 0, grads: new Map() };
  const parts = microBatches(lm, ws);
  let loss = 0;
  let sum: Map<string, tf.Tensor> | null = null;
  parts.forEach((part, i) => {
    const { value, grads } = tf.variableGrads(() => lm.loss(part, true, i === 0 ? dropSeed : shardSeed(dropSeed, 1000 + i)), [...params.values()]);
    const share = part.length / ws.length;
    loss += parts.length === 1 ? value.dataSync()[0]! : share * value.dataSync()[0]!;
    value.dispose();
    // variableGrads keys gradients by the variables' tfjs names, not by our parameter names.
    const named = new Map([...params].map(([k, v]) => [k, grads[v.name]!] as [string, tf.Tensor]));
    if (parts.length === 1) {
      sum = named;
      return;
    }
    const prev: Map<string, tf.Tensor> | null = sum;
    sum = new Map([...named].map(([k, g]) => [k, tf.tidy(() => (prev ? tf.add(prev.get(k)!, tf.mul(g, share)) : tf.mul(g, share)))] as [string, tf.Tensor]));
    tf.dispose([...named.values(), ...(prev ? [...prev.values()] : [])]);
  });
  return { loss, n: ws.length, grads: sum! };
}

/**
 * Data-parallel steps of a masked-pronoun model: this thread computes shard 0, `threads - 1` worker
 * threads (train-worker.ts) the others; the size-weighted mean gradient goes through Adam once here
 * and the new weights are published to the workers. Used by `pretrain --workers N` and the benchmark.
 */
export class DataParallelStepper {
  private constructor(
    private readonly lm: PronounLm,
    private readonly params: Map<string, tf.Variable>,
    private readonly adam: Adam,
    private readonly clip: number,
    private readonly pool: ShardPool,
    readonly threads: number,
  ) {}

  /** Starts the worker threads with replicas of `lm` (weights published from `params`). */
  static async start(lm: PronounLm, params: Map<string, tf.Variable>, adam: Adam, clip: number, threads: number, init: Omit<PretrainWorkerInit, "words" | "vectors" | "dim" | "source" | "arch">): Promise<DataParallelStepper> {
    const script = compiledScript("pretrain", "train-worker.js", import.meta.url);
    if (!script) throw new InputError("--workers > 1 needs the compiled build (npx tsc -p .): dist/src/pretrain/train-worker.js is missing");
    const t = lm.table;
    const pool = await ShardPool.start(script, threads - 1, params, { ...init, words: t.words, vectors: t.vectors, dim: t.dim, source: t.source, arch: lm.arch } satisfies PretrainWorkerInit);
    return new DataParallelStepper(lm, params, adam, clip, pool, threads);
  }

  /** One step on a global batch; returns its mean loss. A worker that dies rejects with WorkerDiedError (nothing applied). */
  async step(ws: MaskedWindow[], dropSeed: number, step: number): Promise<number> {
    const shards = shardBatch(ws, this.threads);
    const reqs: PretrainShardRequest[] = shards.slice(1).map((w, k) => ({ step, dropSeed: shardSeed(dropSeed, k + 1), windows: w }));
    return this.pool.step(reqs, async () => shardGradients(this.lm, this.params, shards[0]!, dropSeed), (g) => this.adam.apply(g, this.clip), this.params);
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
