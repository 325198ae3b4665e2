import * as tf from "@tensorflow/tfjs";
import type { RankerModel } from "./model.js";
import type { PreparedSide } from "../core/scorer.js";
import type { PairScores } from "../nn/evaluate.js";

export interface SideScore {
  /** The side's score y (0 when the sentence has no pronoun: every slot is padding). */
  y: number;
  /** Per-pronoun scores u, in sentence order. */
  u: number[];
  /** Attention of each pronoun over the side's tokens (attention head; only when asked for). */
  attention?: number[][];
}

export interface ScoreOptions {
  /** Sides per forward batch. */
  batchSize?: number;
  withAttention?: boolean;
  /** Called after each batch with the number of sides done. */
  onBatch?: (done: number) => void;
}

/**
 * Scores many sides. Sides are sorted by length and batched so padding stays small; results come
 * back in input order. Scores do not depend on batch composition (padding is fully masked).
 */
export async function scoreSides(model: RankerModel, sides: PreparedSide[], opts: ScoreOptions = {}): Promise<SideScore[]> {
  const bs = opts.batchSize ?? 64;
  const order = sides.map((_, i) => i).sort((a, b) => sides[a]!.tokens.length - sides[b]!.tokens.length);
  const out: SideScore[] = new Array(sides.length);
  let done = 0;
  for (let k = 0; k < order.length; k += bs) {
    const idx = order.slice(k, k + bs);
    const batch = await model.makeBatch(idx.map((i) => sides[i]!));
    const [y, u, attn] = tf.tidy(() => {
      const f = model.forward(batch, false);
      return [f.y, f.u, opts.withAttention ? f.attn : undefined] as const;
    });
    // Read asynchronously: a GPU backend may have no synchronous read.
    const yv = await y.data();
    const uv = await u.data();
    const av = await attn?.data();
    const { S, T } = batch;
    idx.forEach((i, b) => {
      const s = sides[i]!;
      const n = s.pronounPos.length;
      const r: SideScore = { y: yv[b]!, u: Array.from(uv.subarray(b * S, b * S + n)) };
      if (av) {
        r.attention = [];
        for (let p = 0; p < n; p++) r.attention.push(Array.from(av.subarray((b * S + p) * T, (b * S + p) * T + s.tokens.length)));
      }
      out[i] = r;
    });
    tf.dispose([y, u]);
    if (attn) attn.dispose();
    model.disposeBatch(batch);
    done += idx.length;
    opts.onBatch?.(done);
  }
  return out;
}

/** Ranker scores y of the two sides of each pair (pairs' positives, then negatives, scored in one run). */
export async function scorePairs(model: RankerModel, pos: PreparedSide[], neg: PreparedSide[], onBatch?: (done: number) => void): Promise<PairScores> {
  const all = await scoreSides(model, pos.concat(neg), { onBatch });
  const n = pos.length;
  return { pos: Float32Array.from(all.slice(0, n), (s) => s.y), neg: Float32Array.from(all.slice(n), (s) => s.y) };
}
