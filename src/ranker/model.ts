import * as tf from "@tensorflow/tfjs";
import type { Encoder } from "../nn/encoder.js";
import { uniformInit } from "../nn/encoder.js";
import type { PreparedSide } from "../core/scorer.js";
import { Rng } from "../core/prng.js";

export type HeadKind = "attention" | "baseline";

export interface HeadConfig {
  head: HeadKind;
  /** Number of pronoun slots of w; pronouns beyond the last slot share its weight (none is dropped). */
  slots: number;
}

/** Padded, masked tensors of one batch of sides. */
export interface SideBatch<F = unknown> {
  B: number;
  T: number;
  /** Pronoun slots in this batch (max pronouns of a side, at least 1). */
  S: number;
  features: F;
  keyMask: tf.Tensor2D; // [B, T] 1 = real token
  /** [B, S, T] one-hot selection of each slot's pronoun token (all-zero rows for padded slots). */
  pronSel: tf.Tensor3D;
  slotMask: tf.Tensor2D; // [B, S] 1 = real pronoun
  /** [S, slots] one-hot: which weight of w each slot uses. */
  slotW: tf.Tensor2D;
}

export interface ForwardOut {
  /** [B] one score per side. */
  y: tf.Tensor1D;
  /** [B, S] per-pronoun scores u (zero in padded slots). */
  u: tf.Tensor2D;
  /** [B, S, T] attention of each pronoun over the keys (attention head only). */
  attn?: tf.Tensor3D;
}

/**
 * Sec. 4 of Jwalapuram et al. (2019): the target sentence's pronouns P are queries over all
 * tokens K of context + sentence, B = LayerNorm(P + softmax(P K^T / sqrt(d)) K), u = B z per
 * pronoun (padded slots forced to 0), y = u^T w. The baseline replaces attention by the mean of
 * the pronoun vectors and a linear layer. Padded keys get -1e9 before the softmax (exp underflows
 * to exactly 0), padded slots are zeroed after the per-pronoun layer, so neither affects y.
 */
export class RankerModel {
  readonly params = new Map<string, tf.Variable>();

  constructor(
    readonly encoder: Encoder,
    readonly head: HeadConfig,
    rng: Rng,
  ) {
    const D = encoder.dim;
    this.params.set("head/z", tf.variable(uniformInit(rng, [D, 1], 1 / Math.sqrt(D))));
    if (head.head === "attention") {
      this.params.set("head/ln_gamma", tf.variable(tf.ones([D])));
      this.params.set("head/ln_beta", tf.variable(tf.zeros([D])));
      this.params.set("head/w", tf.variable(uniformInit(rng, [head.slots], 1 / Math.sqrt(head.slots)).add(0.5)));
    }
  }

  /** All trainable variables (encoder first), by name. */
  allParams(): Map<string, tf.Variable> {
    return new Map([...this.encoder.params, ...this.params]);
  }

  async makeBatch(sides: PreparedSide[]): Promise<SideBatch> {
    const B = sides.length;
    const T = Math.max(1, ...sides.map((s) => s.tokens.length));
    const S = Math.max(1, ...sides.map((s) => s.pronounPos.length));
    const keyMask = new Float32Array(B * T);
    // One-hot selections instead of gathers: gather's gradient (UnsortedSegmentSum) is missing on wasm.
    const pronSel = new Float32Array(B * S * T);
    const slotMask = new Float32Array(B * S);
    sides.forEach((s, b) => {
      keyMask.fill(1, b * T, b * T + s.tokens.length);
      s.pronounPos.forEach((p, k) => {
        pronSel[(b * S + k) * T + p] = 1;
        slotMask[b * S + k] = 1;
      });
    });
    const slotW = new Float32Array(S * this.head.slots);
    for (let k = 0; k < S; k++) slotW[k * this.head.slots + Math.min(k, this.head.slots - 1)] = 1;
    return {
      B,
      T,
      S,
      features: await this.encoder.featurize(sides, T),
      keyMask: tf.tensor2d(keyMask, [B, T]),
      pronSel: tf.tensor3d(pronSel, [B, S, T]),
      slotMask: tf.tensor2d(slotMask, [B, S]),
      slotW: tf.tensor2d(slotW, [S, this.head.slots]),
    };
  }

  disposeBatch(b: SideBatch): void {
    this.encoder.disposeFeatures(b.features);
    b.keyMask.dispose();
    b.pronSel.dispose();
    b.slotMask.dispose();
    b.slotW.dispose();
  }

  forward(batch: SideBatch, training: boolean, dropoutSeed?: number): ForwardOut {
    const { B, T, S } = batch;
    const H = this.encoder.forward(batch.features, training, dropoutSeed); // [B, T, D]
    const D = this.encoder.dim;
    const P = tf.matMul(batch.pronSel, H); // [B, S, D], zero rows for padded slots
    const z = this.params.get("head/z")!;
    if (this.head.head === "baseline") {
      const count = tf.maximum(batch.slotMask.sum(1, true), 1);
      const mean = tf.div(P.sum(1), count) as tf.Tensor2D; // [B, D]
      const y = tf.matMul(mean, z).reshape([B]) as tf.Tensor1D;
      // Per-pronoun contributions (P_k z / n), which sum to y like the attention head's u.
      const u = tf.div(tf.matMul(P.reshape([B * S, D]), z).reshape([B, S]), count) as tf.Tensor2D;
      return { y, u };
    }
    const scores = tf.div(tf.matMul(P, H, false, true), Math.sqrt(D)); // [B, S, T]
    const masked = tf.add(scores, tf.mul(tf.sub(batch.keyMask, 1), 1e9).expandDims(1));
    const attn = tf.softmax(masked) as tf.Tensor3D;
    const ctx = tf.matMul(attn, H); // [B, S, D]
    const x = tf.add(P, ctx);
    const { mean, variance } = tf.moments(x, 2, true);
    const normed = tf.add(tf.mul(tf.div(tf.sub(x, mean), tf.sqrt(tf.add(variance, 1e-5))), this.params.get("head/ln_gamma")!), this.params.get("head/ln_beta")!);
    const u = tf.mul(tf.matMul(normed.reshape([B * S, D]), z).reshape([B, S]), batch.slotMask) as tf.Tensor2D;
    const wEff = tf.matMul(batch.slotW, this.params.get("head/w")!.reshape([this.head.slots, 1])).reshape([S]); // [S]
    const y = tf.sum(tf.mul(u, wEff), 1) as tf.Tensor1D;
    return { y, u, attn };
  }

  config(): Record<string, unknown> {
    return { head: this.head.head, slots: this.head.slots };
  }

  dispose(): void {
    this.encoder.dispose();
    for (const v of this.params.values()) v.dispose();
  }
}

/** Pairwise ranking loss of the paper (Eq. 5), averaged over the batch. */
export function marginLoss(yPos: tf.Tensor1D, yNeg: tf.Tensor1D, margin = 0.1): tf.Scalar {
  return tf.mean(tf.relu(tf.add(tf.sub(yNeg, yPos), margin))) as tf.Scalar;
}
