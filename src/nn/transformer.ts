import * as tf from "@tensorflow/tfjs";
import type { PreparedSide } from "../core/scorer.js";
import { PAD_ROW, Vocab, type EmbeddingTable } from "./glove.js";
import { Rng } from "../core/prng.js";
import { gloveFeatures, lookupRows, uniformInit, type Encoder, type GloveFeatures } from "./encoder.js";
import { mm, bmm } from "./matmul.js";
import { fastTanh } from "./bilstm.js";

/** Shape of a Transformer encoder over frozen GloVe vectors. */
export interface GloveTransformerConfig {
  layers: number;
  /** Model width (the projected input and every layer's output). */
  width: number;
  heads: number;
  /** Inner size of each feed-forward block. */
  ffn: number;
  /** Learned position vectors (`maxPositions` of them, trained) or fixed sinusoids. */
  positions: "learned" | "sinusoidal";
  /** Number of learned positions (the longest training window); later positions share the last one. */
  maxPositions: number;
  dropout: number;
}

/** sin/cos position vectors of Vaswani et al. (2017), [P, width]. */
export function sinusoidalPositions(P: number, width: number): Float32Array {
  const out = new Float32Array(P * width);
  for (let p = 0; p < P; p++)
    for (let i = 0; i < width; i += 2) {
      const a = p / Math.pow(10000, i / width);
      out[p * width + i] = Math.sin(a);
      if (i + 1 < width) out[p * width + i + 1] = Math.cos(a);
    }
  return out;
}

// LayerNorm and GELU as single ops with hand-written gradients: built from tfjs primitives, every
// intermediate of their element-wise chains stays alive until the backward pass (GELU alone kept ~10
// copies of the [B*T, ffn] activations, which exhausted wasm's memory at batch 64); here the forward
// intermediates are freed at once and the backward recomputes what it needs from the saved input.

/** Layer normalisation over the last axis of [N, w]: (x - mean) / sqrt(var + 1e-5) * g + b. */
const layerNorm = tf.customGrad(((x: tf.Tensor2D, g: tf.Tensor1D, b: tf.Tensor1D, save: (ts: tf.Tensor[]) => void) => {
  save([x, g]);
  const norm = (t: tf.Tensor2D): { xhat: tf.Tensor2D; rstd: tf.Tensor2D } => {
    const mean = tf.mean(t, 1, true);
    const xc = tf.sub(t, mean);
    const rstd = tf.rsqrt(tf.add(tf.mean(tf.square(xc), 1, true), 1e-5)) as tf.Tensor2D;
    return { xhat: tf.mul(xc, rstd) as tf.Tensor2D, rstd };
  };
  const value = tf.tidy(() => tf.add(tf.mul(norm(x).xhat, g), b));
  return {
    value,
    gradFunc: (dy: tf.Tensor2D, saved: tf.Tensor[]) =>
      tf.tidy(() => {
        const [xs, gs] = saved as [tf.Tensor2D, tf.Tensor1D];
        const { xhat, rstd } = norm(xs);
        const dxhat = tf.mul(dy, gs);
        // dx = rstd * (dxhat - mean(dxhat) - xhat * mean(dxhat * xhat)), means over the row.
        const dx = tf.mul(rstd, tf.sub(tf.sub(dxhat, tf.mean(dxhat, 1, true)), tf.mul(xhat, tf.mean(tf.mul(dxhat, xhat), 1, true))));
        return [dx, tf.sum(tf.mul(dy, xhat), 0), tf.sum(dy, 0)];
      }),
  };
}) as unknown as Parameters<typeof tf.customGrad>[0]) as unknown as (x: tf.Tensor, g: tf.Tensor, b: tf.Tensor) => tf.Tensor2D;

const GELU_C = Math.sqrt(2 / Math.PI);
const GELU_A = 0.044715;

/**
 * GELU, tanh approximation: 0.5 x (1 + tanh(c (x + a x^3))), computed in plain JS with the BiLSTM's
 * float32-exact rational tanh (wasm's Tanh kernel was the third most expensive op of a step). The
 * backward pass recomputes tanh from the saved input: d/dx = 0.5 (1 + t) + 0.5 x (1 - t^2) c (1 + 3 a x^2).
 */
const gelu = tf.customGrad(((x: tf.Tensor, save: (ts: tf.Tensor[]) => void) => {
  save([x]);
  const xv = x.dataSync() as Float32Array;
  const out = new Float32Array(xv.length);
  for (let i = 0; i < xv.length; i++) {
    const v = xv[i]!;
    out[i] = 0.5 * v * (1 + fastTanh(GELU_C * (v + GELU_A * v * v * v)));
  }
  return {
    value: tf.tensor(out, x.shape),
    gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => {
      const xs = saved[0]!.dataSync() as Float32Array;
      const g = dy.dataSync() as Float32Array;
      const dx = new Float32Array(xs.length);
      for (let i = 0; i < xs.length; i++) {
        const v = xs[i]!;
        const t = fastTanh(GELU_C * (v + GELU_A * v * v * v));
        dx[i] = g[i]! * (0.5 * (1 + t) + 0.5 * v * (1 - t * t) * GELU_C * (1 + 3 * GELU_A * v * v));
      }
      return [tf.tensor(dx, dy.shape)];
    },
  };
}) as unknown as Parameters<typeof tf.customGrad>[0]) as unknown as (x: tf.Tensor) => tf.Tensor;

/**
 * A small Transformer encoder over the same inputs as the BiLSTM (frozen GloVe rows, a masked
 * token being the all-zero vector): the vectors projected to the width, plus positions, then
 * pre-LN blocks (x + MHA(LN(x)) with a padding mask on the keys, x + FFN(LN(x)) with GELU), and a
 * final LN. Output [B, T, width], zero at padded positions. Parameters `tf/...`.
 */
export class GloveTransformerEncoder implements Encoder<GloveFeatures> {
  readonly kind = "glove-transformer";
  readonly dim: number;
  readonly params = new Map<string, tf.Variable>();
  readonly vocab: Vocab;
  private readonly fixedPositions: tf.Tensor2D | null;

  constructor(
    readonly table: EmbeddingTable,
    readonly cfg: GloveTransformerConfig,
    rng: Rng,
  ) {
    const { width: w, layers, heads, ffn } = cfg;
    if (!(w > 0 && heads > 0 && w % heads === 0)) throw new Error(`Transformer width ${w} must be a multiple of its ${heads} heads`);
    if (!(layers >= 1 && ffn >= 1 && cfg.maxPositions >= 1)) throw new Error("Transformer layers, ffn and maxPositions must be positive");
    this.vocab = new Vocab(table.words);
    this.dim = w;
    const d = table.dim;
    const lin = (name: string, fanIn: number, fanOut: number): void => {
      this.params.set(`${name}/W`, tf.variable(uniformInit(rng, [fanIn, fanOut], 1 / Math.sqrt(fanIn))));
      this.params.set(`${name}/b`, tf.variable(tf.zeros([fanOut])));
    };
    const norm = (name: string): void => {
      this.params.set(`${name}/g`, tf.variable(tf.ones([w])));
      this.params.set(`${name}/b`, tf.variable(tf.zeros([w])));
    };
    lin("tf/in", d, w);
    if (cfg.positions === "learned") this.params.set("tf/pos", tf.variable(uniformInit(rng, [cfg.maxPositions, w], 1 / Math.sqrt(w))));
    this.fixedPositions = cfg.positions === "sinusoidal" ? tf.tensor2d(sinusoidalPositions(cfg.maxPositions, w), [cfg.maxPositions, w]) : null;
    for (let l = 1; l <= layers; l++) {
      norm(`tf/${l}/ln1`);
      lin(`tf/${l}/qkv`, w, 3 * w);
      lin(`tf/${l}/out`, w, w);
      norm(`tf/${l}/ln2`);
      lin(`tf/${l}/ff1`, w, ffn);
      lin(`tf/${l}/ff2`, ffn, w);
    }
    norm("tf/lnf");
  }

  async featurize(sides: PreparedSide[], T: number): Promise<GloveFeatures> {
    return gloveFeatures(this.vocab, sides, T);
  }

  forward(f: GloveFeatures, training: boolean, dropoutSeed?: number): tf.Tensor3D {
    const { B, T, lengths } = f;
    const { width: w, heads, layers } = this.cfg;
    const dh = w / heads;
    const dropout = training && this.cfg.dropout > 0 ? this.cfg.dropout : 0;
    const seed = dropoutSeed ?? 0;
    const p = (k: string): tf.Variable => this.params.get(k)!;
    // Batch-major rows (the features are time-major for the BiLSTM).
    const rows = new Int32Array(B * T).fill(PAD_ROW);
    const keep = new Float32Array(B * T);
    const keyBias = new Float32Array(B * heads * T);
    for (let b = 0; b < B; b++) {
      const n = lengths[b]!;
      for (let t = 0; t < n; t++) rows[b * T + t] = f.rowsF[t * B + b]!;
      keep.fill(1, b * T, b * T + n);
      for (let hd = 0; hd < heads; hd++) keyBias.fill(-1e9, (b * heads + hd) * T + n, (b * heads + hd + 1) * T);
    }
    const x = lookupRows(this.table, rows, dropout, dropout ? new Rng(seed) : null);
    const drop = (t: tf.Tensor, k: number): tf.Tensor => (dropout ? tf.dropout(t, dropout, undefined, seed + k) : t);
    let h = tf.add(mm(tf.tensor2d(x, [B * T, this.table.dim]), p("tf/in/W")), p("tf/in/b")) as tf.Tensor2D;
    h = tf.reshape(tf.add(tf.reshape(h, [B, T, w]), this.positions(T)), [B * T, w]) as tf.Tensor2D;
    const bias = tf.tensor3d(keyBias, [B * heads, 1, T]);
    // [B*T, w] -> [B*heads, T, dh] and back.
    const split = (t: tf.Tensor): tf.Tensor3D => tf.reshape(tf.transpose(tf.reshape(t, [B, T, heads, dh]), [0, 2, 1, 3]), [B * heads, T, dh]) as tf.Tensor3D;
    const merge = (t: tf.Tensor): tf.Tensor2D => tf.reshape(tf.transpose(tf.reshape(t, [B, heads, T, dh]), [0, 2, 1, 3]), [B * T, w]) as tf.Tensor2D;
    for (let l = 1; l <= layers; l++) {
      const a = layerNorm(h, p(`tf/${l}/ln1/g`), p(`tf/${l}/ln1/b`));
      // One [w, 3w] parameter; its column blocks are sliced (small) rather than the [B*T, 3w] product (SplitV is slow on wasm).
      const [q, k, v] = [0, 1, 2].map((j) => tf.add(mm(a, tf.slice(p(`tf/${l}/qkv/W`), [0, j * w], [w, w])), tf.slice(p(`tf/${l}/qkv/b`), [j * w], [w])));
      const scores = tf.add(tf.mul(bmm(split(q!), tf.transpose(split(k!), [0, 2, 1])), 1 / Math.sqrt(dh)), bias);
      const ctx = merge(bmm(tf.softmax(scores), split(v!)));
      h = tf.add(h, drop(tf.add(mm(ctx, p(`tf/${l}/out/W`)), p(`tf/${l}/out/b`)), 10 * l + 1)) as tf.Tensor2D;
      const a2 = layerNorm(h, p(`tf/${l}/ln2/g`), p(`tf/${l}/ln2/b`));
      const inner = gelu(tf.add(mm(a2, p(`tf/${l}/ff1/W`)), p(`tf/${l}/ff1/b`)));
      h = tf.add(h, drop(tf.add(mm(inner, p(`tf/${l}/ff2/W`)), p(`tf/${l}/ff2/b`)), 10 * l + 2)) as tf.Tensor2D;
    }
    const out = layerNorm(h, p("tf/lnf/g"), p("tf/lnf/b"));
    return tf.mul(tf.reshape(out, [B, T, w]), tf.tensor3d(keep, [B, T, 1])) as tf.Tensor3D;
  }

  /**
   * [T, width] position vectors. Training windows are at most maxPositions long, but a side to score
   * may be longer (a sentence over the limit, an appended clause): learned positions past the last
   * one reuse the last vector; sinusoids extend.
   */
  private positions(T: number): tf.Tensor2D {
    const P = this.cfg.maxPositions;
    const w = this.cfg.width;
    if (this.fixedPositions) return T <= P ? (tf.slice(this.fixedPositions, [0, 0], [T, w]) as tf.Tensor2D) : tf.tensor2d(sinusoidalPositions(T, w), [T, w]);
    const pos = this.params.get("tf/pos")!;
    if (T <= P) return tf.slice(pos, [0, 0], [T, w]) as tf.Tensor2D;
    return tf.concat([pos, tf.tile(tf.slice(pos, [P - 1, 0], [1, w]), [T - P, 1])], 0) as tf.Tensor2D;
  }

  disposeFeatures(): void {
    /* features are plain arrays */
  }

  config(): Record<string, unknown> {
    const { layers, width, heads, ffn, positions, maxPositions, dropout } = this.cfg;
    return { kind: this.kind, layers, width, heads, ffn, positions, maxPositions, dropout, embeddingDim: this.table.dim, vocabSize: this.table.words.length, embeddingSource: this.table.source };
  }

  dispose(): void {
    for (const v of this.params.values()) v.dispose();
    this.fixedPositions?.dispose();
  }
}
