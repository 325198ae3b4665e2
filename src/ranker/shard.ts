// One shard of a ranker training step: the same computation on the main thread and in every worker
// thread of a data-parallel run (src/nn/data-parallel.ts).
import * as tf from "@tensorflow/tfjs";
import type { PreparedSide } from "../core/scorer.js";
import type { Adam } from "../nn/adam.js";
import type { EmbeddingTable } from "../nn/glove.js";
import { InputError } from "../io/errors.js";
import { ShardPool, compiledScript, shardBatch, shardSeed, type ShardResult } from "../nn/data-parallel.js";
import { marginLoss, type RankerModel } from "./model.js";
import type { ModelSpec } from "./checkpoint.js";

/** What a ranker worker thread (train-worker.ts) is started with. */
export interface RankerWorkerInit {
  backend: string;
  spec: ModelSpec;
  table: EmbeddingTable;
  /** Names of the parameters that train (the head alone when the encoder is frozen). */
  trainable: string[];
  margin: number;
  /** Tests only: the worker thread exits when asked for this step (a worker that dies). */
  exitAtStep?: number;
}

export interface RankerShardRequest {
  step: number;
  dropoutSeed: number;
  pos: PreparedSide[];
  neg: PreparedSide[];
}

/** The training script of a worker thread, or undefined when running from sources without a build. */
export function rankerWorkerScript(): URL | undefined {
  return compiledScript("ranker", "train-worker.js", import.meta.url);
}

/**
 * Mean margin loss of a shard's pairs (reference sides `pos`, system or noisy sides `neg`) and its
 * gradients by parameter name, for the parameters in `trainParams` (none for an empty shard). The
 * loss is read asynchronously: a WebGPU backend under Node has no synchronous read.
 */
export async function rankerShardGradients(model: RankerModel, trainParams: Map<string, tf.Variable>, pos: PreparedSide[], neg: PreparedSide[], margin: number, dropoutSeed: number): Promise<ShardResult> {
  const n = pos.length;
  if (n === 0) return { loss: 0, n: 0, grads: new Map() };
  const batch = await model.makeBatch(pos.concat(neg));
  try {
    const { value, grads } = tf.variableGrads(() => {
      const { y } = model.forward(batch, true, dropoutSeed);
      return marginLoss(y.slice(0, n), y.slice(n, n), margin);
    }, [...trainParams.values()]);
    // variableGrads keys gradients by the variables' tfjs names, not by our parameter names.
    const byName = new Map<string, tf.Tensor>();
    for (const [k, p] of trainParams) if (grads[p.name]) byName.set(k, grads[p.name]!);
    const loss = (await value.data())[0]!;
    value.dispose();
    return { loss, n, grads: byName };
  } finally {
    model.disposeBatch(batch);
  }
}

/**
 * Data-parallel ranker steps: the pairs of a global batch are split into `threads` shards; this
 * thread computes shard 0, worker threads (train-worker.ts) the others, Adam applies the
 * size-weighted mean gradient once here and the new weights go to the workers. Every replica holds
 * the whole model (`params`), the gradients cover `trainParams`.
 */
export class RankerParallelStepper {
  private constructor(
    private readonly model: RankerModel,
    private readonly params: Map<string, tf.Variable>,
    private readonly trainParams: Map<string, tf.Variable>,
    private readonly adam: Adam,
    private readonly clip: number,
    private readonly margin: number,
    private readonly pool: ShardPool,
    readonly threads: number,
  ) {}

  /** Starts `threads - 1` worker threads with replicas of `model` (glove-bilstm), weights published from its parameters. */
  static async start(model: RankerModel, spec: ModelSpec, table: EmbeddingTable, trainParams: Map<string, tf.Variable>, adam: Adam, opts: { clip: number; margin: number; threads: number; backend: string; exitAtStep?: number }): Promise<RankerParallelStepper> {
    const script = rankerWorkerScript();
    if (!script) throw new InputError("--workers > 1 needs the compiled build (npx tsc -p .): dist/src/ranker/train-worker.js is missing");
    const params = model.allParams();
    const init: RankerWorkerInit = { backend: opts.backend, spec, table, trainable: [...trainParams.keys()], margin: opts.margin, ...(opts.exitAtStep !== undefined ? { exitAtStep: opts.exitAtStep } : {}) };
    const pool = await ShardPool.start(script, opts.threads - 1, params, init);
    return new RankerParallelStepper(model, params, trainParams, adam, opts.clip, opts.margin, pool, opts.threads);
  }

  /** One step on a global batch of pairs; returns its mean loss. A worker that dies rejects with WorkerDiedError (nothing applied). */
  step(pos: PreparedSide[], neg: PreparedSide[], dropoutSeed: number, step: number): Promise<number> {
    const ps = shardBatch(pos, this.threads);
    const ns = shardBatch(neg, this.threads);
    const reqs: RankerShardRequest[] = ps.slice(1).map((p, k) => ({ step, dropoutSeed: shardSeed(dropoutSeed, k + 1), pos: p, neg: ns[k + 1]! }));
    const apply = (g: Map<string, tf.Tensor>): void => this.adam.apply(new Map([...g].filter(([k]) => this.trainParams.has(k))), this.clip);
    return this.pool.step(reqs, () => rankerShardGradients(this.model, this.trainParams, ps[0]!, ns[0]!, this.margin, dropoutSeed), apply, this.params);
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
