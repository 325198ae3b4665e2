import * as tf from "@tensorflow/tfjs";
import type { PreparedSide } from "../core/scorer.js";
import { PAD_ROW, Vocab, type EmbeddingTable } from "./glove.js";
import { Rng } from "../core/prng.js";
import { gloveFeatures, lookupRows, uniformInit, type Encoder, type GloveFeatures } from "./encoder.js";
import { mm, bmm } from "./matmul.js";

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

/** Layer normalisation over the last axis of [N, w]. */
function layerNorm(x: tf.Tensor2D, g: tf.Tensor, b: tf.Tensor): tf.Tensor2D {
  const mean = tf.mean(x, 1, true);
  const xc = tf.sub(x, mean);
  const variance = tf.mean(tf.square(xc), 1, true);
  return tf.add(tf.mul(tf.mul(xc, tf.rsqrt(tf.add(variance, 1e-5))), g), b) as tf.Tensor2D;
}

/** GELU, tanh approximation (same on every backend). */
function gelu(x: tf.Tensor): tf.Tensor {
  // x^3 as products: tf.pow's gradient goes through log and is several times slower.
  const inner = tf.mul(tf.add(x, tf.mul(tf.mul(tf.mul(x, x), x), 0.044715)), Math.sqrt(2 / Math.PI));
  return tf.mul(tf.mul(x, 0.5), tf.add(tf.tanh(inner), 1));
}

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
