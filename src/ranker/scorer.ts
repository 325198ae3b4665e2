import { availableParallelism } from "node:os";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import type { ContextMode } from "../core/pair-format.js";
import { dedupePrepared, type LoadScorerOptions, type PronounScorer, type ScoredSide, type ScoreOptions } from "../core/scorer.js";
import { defaultModelDir } from "../version.js";
import { describeBackend, selectBackend, type BackendInfo } from "../nn/backend.js";
import { loadCheckpoint, type CheckpointConfig } from "./checkpoint.js";
import { prepareSide } from "../nn/inputs.js";
import type { PreparedSide, Side } from "../core/scorer.js";
import type { RankerModel } from "./model.js";
import { scoreSides } from "./run-model.js";

/** The shipped default scorer's directory (src/version.ts names it; kept here for the library API). */
export function defaultCheckpointDir(): string {
  return defaultModelDir();
}

/** A loaded ranker checkpoint ready to score (a PronounScorer; load any scorer with src/metric/load.ts). */
export class RankerScorer implements PronounScorer {
  readonly kind = "ranker";
  /** Slot weights w of the attention head (a pronoun's contribution is u * w of its slot). */
  private readonly slotWeights: Float32Array | undefined;

  constructor(
    readonly dir: string,
    readonly config: CheckpointConfig,
    readonly model: RankerModel,
    readonly backend: BackendInfo,
    /** Threads used by score() for large inputs (1 = this thread only); see scoreParallel. */
    readonly threads = 1,
    private readonly loadOpts: LoadScorerOptions = {},
  ) {
    const w = model.params.get("head/w");
    this.slotWeights = w ? Float32Array.from(w.dataSync()) : undefined;
  }

  get backendLine(): string {
    return describeBackend(this.backend);
  }

  /**
   * Scores sides on `threads` threads: this one plus worker threads that load the same checkpoint.
   * Sides are length-sorted and dealt round-robin, so every shard batches well. Scores do not
   * depend on batch composition (masking), so the result equals single-threaded scoring up to float
   * rounding in the matrix products (~1e-7, far inside the tie tolerance).
   */
  private async scoreParallel(sides: PreparedSide[], batchSize: number, onBatch?: (done: number) => void): Promise<Array<{ y: number; u: number[] }>> {
    const n = this.threads;
    const order = sides.map((_, i) => i).sort((a, b) => sides[a]!.tokens.length - sides[b]!.tokens.length);
    const shards: number[][] = Array.from({ length: n }, () => []);
    order.forEach((i, k) => shards[k % n]!.push(i));
    const workerUrl = new URL("./score-worker.js", import.meta.url);
    const runWorker = (idx: number[]): Promise<Array<{ y: number; u: number[] }>> =>
      new Promise((resolve, reject) => {
        const w = new Worker(workerUrl, { workerData: { dir: this.dir, backend: this.backend.requested, modelDir: this.loadOpts.modelDir, batchSize } });
        w.on("message", (m: { ready?: boolean; ok?: boolean; error?: string; y?: Float32Array; u?: number[][] }) => {
          if (m.ready) w.postMessage(idx.map((i) => sides[i]!));
          else if (m.ok) resolve(Array.from(m.y!, (y, k) => ({ y, u: m.u![k]! })));
          else reject(new Error(`scoring worker failed: ${m.error}`));
        });
        w.on("error", reject);
        w.on("exit", (code) => {
          if (code !== 0) reject(new Error(`scoring worker exited with code ${code}`));
        });
      });
    const pending = shards.slice(1).map(runWorker);
    // Keep the worker promises handled while this thread scores its own shard synchronously.
    const settled = Promise.allSettled(pending);
    const mine = await scoreSides(this.model, shards[0]!.map((i) => sides[i]!), { batchSize, onBatch: onBatch ? (d) => onBatch(Math.min(sides.length, d * n)) : undefined });
    const results = await settled;
    const out: Array<{ y: number; u: number[] }> = new Array(sides.length);
    shards[0]!.forEach((i, k) => (out[i] = { y: mine[k]!.y, u: mine[k]!.u }));
    results.forEach((r, w) => {
      if (r.status === "rejected") throw r.reason;
      shards[w + 1]!.forEach((i, k) => (out[i] = r.value[k]!));
    });
    onBatch?.(sides.length);
    return out;
  }

  get contextMode(): ContextMode {
    return this.config.contextMode;
  }

  /** The model part of the signature. */
  modelSignature(): string {
    const w = this.config.files.weights.sha256.slice(0, 8);
    return `model:${this.config.encoder.kind}-${this.config.head.head}-${this.config.contextMode}@${w}`;
  }

  get maxKeys(): number {
    return this.config.prepare.maxLen;
  }

  /** Contribution of the k-th pronoun of a side to its score y (Eq. 4: y = sum_k u_k w_slot(k)). */
  private contribution(u: number[], k: number, y: number): number {
    const w = this.slotWeights;
    if (!w) return y / u.length; // baseline head: y comes from the mean vector, split evenly
    return u[k]! * w[Math.min(k, w.length - 1)]!;
  }

  prepare(side: Side): PreparedSide {
    return prepareSide(side, this.config.prepare);
  }

  /** Scores prepared sides: score, per-pronoun scores and (optionally) attention weights. */
  async scorePrepared(prepared: PreparedSide[], opts: ScoreOptions = {}): Promise<ScoredSide[]> {
    const { unique: uniqueSides, slot } = dedupePrepared(prepared);
    const batchSize = opts.batchSize ?? 128;
    const parallel = this.threads > 1 && !opts.withAttention && uniqueSides.length >= 256 * this.threads;
    const res: Array<{ y: number; u: number[]; attention?: number[][] }> = parallel
      ? await this.scoreParallel(uniqueSides, batchSize, opts.onBatch)
      : await scoreSides(this.model, uniqueSides, { batchSize, withAttention: opts.withAttention, onBatch: opts.onBatch });
    return prepared.map((p, k) => {
      const r = res[slot[k]!]!;
      return {
        score: r.y,
        pronouns: p.pronounPos.map((pos, j) => ({
          token: p.tokens[pos]!,
          index: pos - p.sentStart,
          score: r.u[j]!,
          contribution: this.contribution(r.u, j, r.y),
          ...(r.attention ? { attention: r.attention[j] } : {}),
        })),
        tokens: p.tokens,
        sentStart: p.sentStart,
        truncatedContext: p.truncated,
      };
    });
  }

  dispose(): void {
    this.model.dispose();
  }
}

/** Loads a ranker checkpoint directory on a tfjs backend. */
export async function loadRankerScorer(dir: string, opts: LoadScorerOptions = {}): Promise<RankerScorer> {
  const backend = await selectBackend(opts.backend ?? "auto");
  const { config, model } = await loadCheckpoint(dir, opts.modelDir);
  // ONNX Runtime (transformers encoders) already uses every core: a second worker would only oversubscribe them.
  const oneThread = backend.backend === "tensorflow" || config.encoder.kind.startsWith("transformers:");
  const threads = opts.threads === "auto" ? (oneThread ? 1 : Math.min(2, availableParallelism())) : Math.max(1, opts.threads ?? 1);
  return new RankerScorer(dir, config, model, backend, threads, opts);
}
