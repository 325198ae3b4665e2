import * as tf from "@tensorflow/tfjs";
import { GloveBiLstmEncoder, uniformInit } from "../nn/encoder.js";
import { GloveTransformerEncoder } from "../nn/transformer.js";
import type { LmArch } from "./arch.js";
import { PAD_ROW, type EmbeddingTable } from "../nn/glove.js";
import { Rng } from "../core/prng.js";
import type { LstmImpl } from "../nn/bilstm-graph.js";

/** Number of pronoun classes (the inventory of data/pronouns.json). */
export const N_PRONOUNS = 42;

/**
 * `masked`: predict the pronoun at a masked position (42-way). `replaced`: the pronoun at the
 * position is visible and may have been swapped for a wrong one; predict whether it was (binary;
 * `MaskedWindow.label` is then 1 for swapped, 0 for original).
 */
export type PretrainObjective = "masked" | "replaced";

/**
 * One masked window: table rows of context + sentence tokens, the masked position and the index
 * (0..41) of the pronoun that was there.
 */
export interface MaskedWindow {
  rows: Int32Array;
  mask: number;
  label: number;
}

/**
 * The masked-pronoun language model: the ranker's glove-bilstm encoder (same parameter names
 * lstm/W{f,b}, lstm/U{f,b}, lstm/b{f,b}, so a ranker can start from its weights) plus a softmax
 * layer over the 42 pronouns read at the masked position. The mask is the all-zero input vector
 * at a real (counted) position: the embedding lookup writes zeros for PAD_ROW, and the BiLSTM,
 * which runs over `length` steps, still reads it as a token, so no new embedding row is needed.
 */
export class PronounLm {
  readonly encoder: GloveBiLstmEncoder | GloveTransformerEncoder;
  /** The encoder's shape (a one-layer BiLSTM of `hidden` units unless given). */
  readonly arch: LmArch;
  readonly params = new Map<string, tf.Variable>();
  /**
   * log relative frequency of each pronoun in the pretraining corpus (add-one smoothed), for the
   * PMI aggregation log P(p | window) - log P(p); null in a model saved without it.
   */
  logPrior: Float32Array | null = null;

  constructor(
    readonly table: EmbeddingTable,
    readonly hidden: number,
    readonly dropout: number,
    rng: Rng,
    readonly objective: PretrainObjective = "masked",
    lstmImpl?: LstmImpl,
    arch?: LmArch,
  ) {
    this.arch = arch ?? { kind: "glove-bilstm", hidden, layers: 1 };
    const a = this.arch;
    if (a.kind === "glove-bilstm") {
      if (a.hidden !== hidden) throw new Error(`PronounLm: hidden ${hidden} differs from the shape's ${a.hidden}`);
      this.encoder = new GloveBiLstmEncoder(table, { hidden, dropout, impl: lstmImpl, layers: a.layers }, rng);
    } else {
      this.encoder = new GloveTransformerEncoder(table, { ...a, dropout }, rng);
    }
    const D = this.encoder.dim;
    if (objective === "masked") {
      this.params.set("lm/W", tf.variable(uniformInit(rng, [D, N_PRONOUNS], 1 / Math.sqrt(D))));
      this.params.set("lm/b", tf.variable(tf.zeros([N_PRONOUNS])));
    } else {
      this.params.set("rd/W", tf.variable(uniformInit(rng, [D, 1], 1 / Math.sqrt(D))));
      this.params.set("rd/b", tf.variable(tf.zeros([1])));
    }
  }

  /**
   * Whether exact single-pass masked scoring (single-pass.ts) applies: only to a one-layer BiLSTM, whose
   * states on either side of a masked position do not depend on it. Other encoders score one pass per pronoun.
   */
  get singlePass(): boolean {
    return this.arch.kind === "glove-bilstm" && this.arch.layers === 1;
  }

  allParams(): Map<string, tf.Variable> {
    return new Map([...this.encoder.params, ...this.params]);
  }

  /**
   * [B, T, D] encoder states of the windows; with `zeroAtMask` the input at each window's `mask`
   * position is the all-zero vector (the masked objective), else the token itself is read.
   */
  private encode(ws: MaskedWindow[], training: boolean, dropoutSeed: number, zeroAtMask: boolean): { H: tf.Tensor3D; B: number; T: number } {
    const B = ws.length;
    const T = Math.max(1, ...ws.map((w) => w.rows.length));
    const rowsF = new Int32Array(B * T).fill(PAD_ROW);
    const rowsB = new Int32Array(B * T).fill(PAD_ROW);
    const lengths = new Int32Array(B);
    ws.forEach((w, b) => {
      const n = w.rows.length;
      lengths[b] = n;
      for (let t = 0; t < n; t++) {
        const r = zeroAtMask && t === w.mask ? PAD_ROW : w.rows[t]!;
        rowsF[t * B + b] = r;
        rowsB[(n - 1 - t) * B + b] = r;
      }
    });
    const feats = { B, T, lengths, rowsF, rowsB };
    return { H: this.encoder.forward(feats as Parameters<GloveBiLstmEncoder["forward"]>[0], training, dropoutSeed), B, T };
  }

  /** The state at each window's `mask` position, by a one-hot weighted sum (gather has no gradient on wasm). */
  private atMask(ws: MaskedWindow[], training: boolean, dropoutSeed: number, zeroAtMask: boolean): tf.Tensor2D {
    const { H, B, T } = this.encode(ws, training, dropoutSeed, zeroAtMask);
    const sel = new Float32Array(B * T);
    ws.forEach((w, b) => (sel[b * T + w.mask] = 1));
    return tf.sum(tf.mul(H, tf.tensor3d(sel, [B, T, 1])), 1) as tf.Tensor2D;
  }

  /** [B, 42] logits of the masked position of each window (masked objective). */
  logits(ws: MaskedWindow[], training: boolean, dropoutSeed = 0): tf.Tensor2D {
    if (this.objective !== "masked") throw new Error("logits() needs a masked-pronoun model");
    const h = this.atMask(ws, training, dropoutSeed, true);
    return tf.add(tf.matMul(h, this.params.get("lm/W")!), this.params.get("lm/b")!) as tf.Tensor2D;
  }

  /** [B] logit of "the pronoun at `mask` was swapped" (replaced objective). */
  detectLogits(ws: MaskedWindow[], training: boolean, dropoutSeed = 0): tf.Tensor1D {
    if (this.objective !== "replaced") throw new Error("detectLogits() needs a replaced-pronoun model");
    const h = this.atMask(ws, training, dropoutSeed, false);
    return tf.reshape(tf.add(tf.matMul(h, this.params.get("rd/W")!), this.params.get("rd/b")!), [ws.length]) as tf.Tensor1D;
  }

  /**
   * Replaced objective, scoring: log P(original) = -softplus(z) at every listed position of each
   * window, from one pass per window (nothing is masked, so one pass serves all positions).
   */
  originalLogProbs(rows: Int32Array[], positions: number[][]): Float32Array[] {
    const ws = rows.map((r) => ({ rows: r, mask: 0, label: 0 }));
    const t = tf.tidy(() => {
      const { H, B, T } = this.encode(ws, false, 0, false);
      const z = tf.reshape(tf.add(tf.matMul(tf.reshape(H, [B * T, this.encoder.dim]), this.params.get("rd/W")!), this.params.get("rd/b")!), [B, T]);
      return tf.neg(tf.softplus(z));
    });
    const v = t.dataSync() as Float32Array;
    const T = t.shape[1]!;
    t.dispose();
    return positions.map((ps, b) => Float32Array.from(ps, (p) => v[b * T + p]!));
  }

  /** Mean cross-entropy of the true pronouns (masked), or of swapped/original (replaced). */
  loss(ws: MaskedWindow[], training: boolean, dropoutSeed = 0): tf.Scalar {
    if (this.objective === "replaced") {
      const z = this.detectLogits(ws, training, dropoutSeed);
      const y = tf.tensor1d(Float32Array.from(ws, (w) => w.label));
      // Binary cross-entropy with logits: softplus(z) - y z.
      return tf.mean(tf.sub(tf.softplus(z), tf.mul(y, z))) as tf.Scalar;
    }
    const logits = this.logits(ws, training, dropoutSeed);
    const onehot = tf.oneHot(tf.tensor1d(Int32Array.from(ws.map((w) => w.label)), "int32"), N_PRONOUNS);
    return tf.neg(tf.mean(tf.sum(tf.mul(tf.logSoftmax(logits), onehot), 1))) as tf.Scalar;
  }

  /** log P(true pronoun) of each window (no dropout). */
  logProbs(ws: MaskedWindow[]): Float32Array {
    const t = this.logProbTensor(ws);
    const v = t.dataSync() as Float32Array;
    t.dispose();
    return Float32Array.from(v);
  }

  private logProbTensor(ws: MaskedWindow[]): tf.Tensor {
    return tf.tidy(() => {
      const lp = tf.logSoftmax(this.logits(ws, false));
      const onehot = tf.oneHot(tf.tensor1d(Int32Array.from(ws.map((w) => w.label)), "int32"), N_PRONOUNS);
      return tf.sum(tf.mul(lp, onehot), 1);
    });
  }

  /** logProbs, read asynchronously (for GPU backends, which cannot read synchronously under Node). */
  async logProbsAsync(ws: MaskedWindow[]): Promise<Float32Array> {
    const t = this.logProbTensor(ws);
    const v = (await t.data()) as Float32Array;
    t.dispose();
    return Float32Array.from(v);
  }

  /** Full log-distribution [B*42] over the pronouns at each masked position. */
  distributions(ws: MaskedWindow[]): Float32Array {
    const t = tf.tidy(() => tf.logSoftmax(this.logits(ws, false)));
    const v = Float32Array.from(t.dataSync() as Float32Array);
    t.dispose();
    return v;
  }

  dispose(): void {
    this.encoder.dispose();
    for (const v of this.params.values()) v.dispose();
  }
}
