/**
 * The paper's contextual (ELMo/BERT) setting: a frozen pretrained encoder run by
 * @xenova/transformers (ONNX Runtime), its word pieces pooled back to our words, and an ELMo-style
 * learned scalar mix of its last layers (the only trainable part). See docs/transformers.md.
 */
import { createHash } from "node:crypto";
import { createReadStream, existsSync, readFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import * as tf from "@tensorflow/tfjs";
import { InputError } from "../io/errors.js";
import type { Encoder } from "../nn/encoder.js";
import type { PreparedSide } from "../core/scorer.js";

/** Layers mixed at most (the last ones): ELMo mixes its 3, BERT feature extraction commonly uses the last 4. */
export const MAX_MIX_LAYERS = 4;
/** Windows (rows) per ONNX run: bounds memory and padding on long batches. */
const ROWS_PER_RUN = 32;
/** Names of per-layer outputs mixed when a graph exposes them (hidden_states.0 = embeddings). */
const LAYER_OUTPUT_RE = /^hidden_states[._](\d+)$/;

export interface TransformersSpec {
  kind: string;
  dropout?: number;
  /** Filled in from the model at first load; checked on every later load (checkpoints). */
  onnxFile?: string;
  onnxSha256?: string;
  dim?: number;
  layerOutputs?: string[];
  maxPositions?: number;
  /** Where the model was found when the checkpoint was written (searched last, a hint only). */
  modelPath?: string;
}

export interface TransformersLoadOptions {
  /** --model-dir: holds <dir>/<model>, or is itself a model directory. */
  modelDir?: string;
  /** Let @xenova/transformers download a model missing locally from the Hugging Face hub into its cache (default: no; train --allow-hub). */
  allowHub?: boolean;
}

interface TokenizerLike {
  encode(text: string, pair?: string | null, opts?: { add_special_tokens?: boolean }): number[];
  pad_token_id?: number;
  unk_token_id?: number;
}

interface OrtLikeTensor {
  data: Float32Array;
  dims: number[];
}

interface ModelLike {
  (inputs: Record<string, unknown>): Promise<Record<string, OrtLikeTensor>>;
  session: { inputNames: string[]; outputNames: string[] };
  dispose(): Promise<unknown>;
}

/** Feature tensor of one batch: the K mixed layers, already pooled to words. */
export interface TransformersFeatures {
  /** [K, B*T*dim] */
  layers: tf.Tensor2D;
  B: number;
  T: number;
}

export function modelNameOf(kind: string): string {
  const name = kind.slice("transformers:".length);
  if (!kind.startsWith("transformers:") || !name) throw new InputError(`encoder '${kind}' must be transformers:<model>, e.g. transformers:Xenova/bert-base-cased`);
  return name;
}

function isModelDir(dir: string): string | null {
  if (!existsSync(join(dir, "config.json")) || !existsSync(join(dir, "tokenizer.json"))) return null;
  for (const f of ["onnx/model.onnx", "onnx/model_quantized.onnx"]) if (existsSync(join(dir, f))) return f;
  return null;
}

function why(dir: string): string {
  if (!existsSync(dir)) return "does not exist";
  const missing = ["config.json", "tokenizer.json"].filter((f) => !existsSync(join(dir, f)));
  if (!existsSync(join(dir, "onnx/model.onnx")) && !existsSync(join(dir, "onnx/model_quantized.onnx"))) missing.push("onnx/model.onnx");
  return `no ${missing.join(", ")}`;
}

/** The directory of the hub cache of @xenova/transformers (models downloaded earlier). */
async function hubCacheDir(): Promise<string | null> {
  const { env } = await import("@xenova/transformers");
  return env.cacheDir ? resolve(env.cacheDir) : null;
}

/**
 * Directories searched for a model, in order: <model-dir>/<model>, <model-dir> itself, the
 * directory recorded in the checkpoint, <hub cache>/<model>.
 */
export async function modelSearchPath(model: string, opts: TransformersLoadOptions, recorded?: string): Promise<string[]> {
  const dirs: string[] = [];
  if (opts.modelDir) dirs.push(resolve(opts.modelDir, model), resolve(opts.modelDir));
  if (recorded) dirs.push(resolve(recorded));
  const cache = await hubCacheDir();
  if (cache) dirs.push(join(cache, model));
  return [...new Set(dirs)];
}

async function sha256File(path: string): Promise<string> {
  const h = createHash("sha256");
  for await (const chunk of createReadStream(path)) h.update(chunk as Buffer);
  return h.digest("hex");
}

function readJson(path: string): Record<string, unknown> {
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch (e) {
    throw new InputError(`invalid JSON (${(e as Error).message})`, path);
  }
}

/** One window: a run of consecutive words of one side, encoded as one ONNX row. */
interface Window {
  side: number;
  /** Position of the window's first word in the side. */
  first: number;
  /** Piece ids (with the special tokens) and, per word of the window, its [start, end) pieces. */
  ids: number[];
  spans: Array<[number, number]>;
}

/**
 * Frozen transformer + word-piece pooling + scalar mix. Each word is tokenized on its own (with a
 * leading space after the first, so byte-level BPE gets its in-context pieces) and its vector is
 * the mean of its pieces' vectors in each layer; out = gamma * sum_k softmax(s)_k * layer_k.
 */
export class TransformersEncoder implements Encoder<TransformersFeatures> {
  readonly kind: string;
  readonly dim: number;
  readonly params = new Map<string, tf.Variable>();
  private readonly pieceCache = new Map<string, number[]>();
  private readonly prefix: number[];
  private readonly suffix: number[];
  private readonly padId: number;
  private readonly unkId: number;
  private readonly needsTypeIds: boolean;

  private constructor(
    readonly model: string,
    readonly path: string,
    private readonly tokenizer: TokenizerLike,
    private readonly net: ModelLike,
    private readonly Tensor: new (type: string, data: BigInt64Array, dims: number[]) => unknown,
    readonly spec: Required<Omit<TransformersSpec, "modelPath">> & { modelPath: string },
  ) {
    this.kind = spec.kind;
    this.dim = spec.dim;
    const K = spec.layerOutputs.length;
    // ELMo's initialisation: equal layer weights, unit scale.
    this.params.set("mix/s", tf.variable(tf.zeros([K])));
    this.params.set("mix/gamma", tf.variable(tf.ones([1])));
    // Special tokens around a sequence, found by encoding a probe word with and without them.
    const bare = tokenizer.encode("a", null, { add_special_tokens: false });
    const full = tokenizer.encode("a", null, { add_special_tokens: true });
    let at = -1;
    for (let i = 0; i + bare.length <= full.length && at < 0; i++) if (bare.every((x, j) => full[i + j] === x)) at = i;
    this.prefix = at >= 0 ? full.slice(0, at) : [];
    this.suffix = at >= 0 ? full.slice(at + bare.length) : [];
    this.unkId = tokenizer.unk_token_id ?? 0;
    this.padId = tokenizer.pad_token_id ?? 0;
    this.needsTypeIds = net.session.inputNames.includes("token_type_ids");
  }

  /**
   * Finds and loads the model. A spec from a checkpoint carries the ONNX file's sha256, layer
   * outputs and size: a model that differs is refused (its scores would be meaningless).
   */
  static async load(spec: TransformersSpec, opts: TransformersLoadOptions = {}): Promise<TransformersEncoder> {
    const model = modelNameOf(spec.kind);
    const allowHub = opts.allowHub ?? false;
    const searched = await modelSearchPath(model, opts, spec.modelPath);
    let path = searched.find((d) => isModelDir(d));
    const tx = await import("@xenova/transformers");
    const { env } = tx;
    env.allowLocalModels = true;
    env.allowRemoteModels = allowHub;
    if (!path) {
      if (!allowHub)
        throw new InputError(
          `transformers model '${model}' not found; searched: ${searched.map((d) => `${d} (${why(d)})`).join("; ")}. ` +
            `Pass --model-dir DIR with DIR/${model}/{config.json,tokenizer.json,onnx/model.onnx} (see docs/transformers.md), or train with --allow-hub to download it from the Hugging Face hub into the transformers.js cache, where later loads find it`,
        );
      // Downloaded into the hub cache (transformers.js FileCache: <cacheDir>/<model>/<file>).
      const cache = (await hubCacheDir()) ?? resolve(".cache");
      env.cacheDir = cache;
      env.localModelPath = cache;
      env.useFSCache = true;
      try {
        await tx.AutoTokenizer.from_pretrained(model);
        await tx.AutoModel.from_pretrained(model, { quantized: false });
      } catch (e) {
        throw new InputError(`transformers model '${model}' could not be downloaded from the hub: ${(e as Error).message}; searched locally: ${searched.join("; ")}`);
      }
      path = join(cache, model);
      if (!isModelDir(path)) throw new InputError(`transformers model '${model}': downloaded files not found in ${path}`);
    }
    const onnxFile = isModelDir(path)!;
    const config = readJson(join(path, "config.json"));
    const tokCfgPath = join(path, "tokenizer_config.json");
    const tokCfg = existsSync(tokCfgPath) ? readJson(tokCfgPath) : {};
    const onnxSha256 = await sha256File(join(path, onnxFile));
    if (spec.onnxSha256 && spec.onnxSha256 !== onnxSha256)
      throw new InputError(
        `transformers model '${model}' found here differs from the one the checkpoint was trained with (${spec.onnxFile} sha256 ${onnxSha256.slice(0, 12)}..., expected ${spec.onnxSha256.slice(0, 12)}...)`,
        join(path, onnxFile),
      );
    // The directory is named <root>/<model>; transformers.js joins localModelPath and the name.
    // Its file cache is keyed by the name alone: off, so the files hashed above are the ones loaded.
    env.localModelPath = dirname(path);
    env.useFSCache = false;
    const id = basename(path);
    let tokenizer: TokenizerLike;
    let net: ModelLike;
    try {
      tokenizer = (await tx.AutoTokenizer.from_pretrained(id)) as unknown as TokenizerLike;
      net = (await tx.AutoModel.from_pretrained(id, { quantized: onnxFile.endsWith("_quantized.onnx") })) as unknown as ModelLike;
    } catch (e) {
      throw new InputError(`transformers model '${model}' could not be loaded: ${(e as Error).message}`, path);
    }
    const outputs = net.session.outputNames;
    const layered = outputs
      .map((n) => ({ n, m: LAYER_OUTPUT_RE.exec(n) }))
      .filter((x) => x.m)
      .sort((a, b) => Number(a.m![1]) - Number(b.m![1]))
      .map((x) => x.n);
    const last = outputs.includes("last_hidden_state") ? "last_hidden_state" : outputs[0];
    const layerOutputs = layered.length ? layered.slice(-MAX_MIX_LAYERS) : [last!];
    const dim = Number(config.hidden_size ?? config.d_model ?? config.dim);
    const maxPos = Math.min(...[config.max_position_embeddings, tokCfg.model_max_length].map(Number).filter((x) => Number.isFinite(x) && x > 2));
    const fail = (msg: string): never => {
      void net.dispose();
      throw new InputError(`transformers model '${model}': ${msg}`, path);
    };
    if (!(dim > 0)) fail("config.json has no hidden_size");
    if (!Number.isFinite(maxPos)) fail("neither config.json max_position_embeddings nor tokenizer_config.json model_max_length");
    if (spec.layerOutputs && spec.layerOutputs.join(",") !== layerOutputs.join(","))
      fail(`mixes outputs ${layerOutputs.join(", ")} but the checkpoint was trained on ${spec.layerOutputs.join(", ")}`);
    if (spec.dim !== undefined && spec.dim !== dim) fail(`hidden size ${dim}, the checkpoint expects ${spec.dim}`);
    return new TransformersEncoder(model, path, tokenizer, net, tx.Tensor as never, {
      kind: spec.kind,
      dropout: Number(spec.dropout ?? 0),
      onnxFile,
      onnxSha256,
      dim,
      layerOutputs,
      maxPositions: maxPos,
      modelPath: path,
    });
  }

  /** Piece ids of one word (never empty: an unknown word is the unknown token). */
  private pieces(word: string, first: boolean): number[] {
    const key = (first ? "\u0001" : "") + word;
    let p = this.pieceCache.get(key);
    if (!p) {
      p = this.tokenizer.encode(first ? word : ` ${word}`, null, { add_special_tokens: false });
      if (p.length === 0) p = [this.unkId];
      // A single word longer than a window keeps its first pieces (its vector is their mean).
      const room = this.spec.maxPositions - this.prefix.length - this.suffix.length;
      if (p.length > room) p = p.slice(0, room);
      if (this.pieceCache.size > 200_000) this.pieceCache.clear();
      this.pieceCache.set(key, p);
    }
    return p;
  }

  /** Word pieces the model sees for a side's words (without special tokens). */
  countPieces(side: PreparedSide): number {
    return side.tokens.reduce((a, w, t) => a + this.pieces(w, t === 0).length, 0);
  }

  /**
   * Splits a side into windows that fit the model's positions. The last window (target sentence
   * plus as much preceding context as fits) is cut first, from the end, and earlier words go to
   * earlier windows: every word, so every pronoun of the sentence, gets a vector. Inputs that fit
   * (the usual case) are one window.
   */
  private windows(side: PreparedSide, b: number): Window[] {
    const room = this.spec.maxPositions - this.prefix.length - this.suffix.length;
    const words = side.tokens;
    const out: Window[] = [];
    let end = words.length;
    while (end > 0) {
      let start = end;
      let used = 0;
      while (start > 0) {
        const n = this.pieces(words[start - 1]!, start - 1 === 0).length;
        if (used + n > room) break;
        used += n;
        start--;
      }
      const ids = [...this.prefix];
      const spans: Array<[number, number]> = [];
      for (let t = start; t < end; t++) {
        const p = this.pieces(words[t]!, t === 0);
        spans.push([ids.length, ids.length + p.length]);
        ids.push(...p);
      }
      ids.push(...this.suffix);
      out.unshift({ side: b, first: start, ids, spans });
      end = start;
    }
    return out;
  }

  async featurize(sides: PreparedSide[], T: number): Promise<TransformersFeatures> {
    const B = sides.length;
    const D = this.dim;
    const K = this.spec.layerOutputs.length;
    const out = new Float32Array(K * B * T * D);
    const wins = sides.flatMap((s, b) => this.windows(s, b));
    // Similar lengths together: less padding per run (results do not depend on it: attention mask).
    wins.sort((a, b) => a.ids.length - b.ids.length);
    for (let r = 0; r < wins.length; r += ROWS_PER_RUN) {
      const run = wins.slice(r, r + ROWS_PER_RUN);
      const L = Math.max(...run.map((w) => w.ids.length));
      const ids = new BigInt64Array(run.length * L).fill(BigInt(this.padId));
      const mask = new BigInt64Array(run.length * L);
      run.forEach((w, i) => {
        w.ids.forEach((id, j) => (ids[i * L + j] = BigInt(id)));
        mask.fill(1n, i * L, i * L + w.ids.length);
      });
      const feeds: Record<string, unknown> = {
        input_ids: new this.Tensor("int64", ids, [run.length, L]),
        attention_mask: new this.Tensor("int64", mask, [run.length, L]),
      };
      if (this.needsTypeIds) feeds.token_type_ids = new this.Tensor("int64", new BigInt64Array(run.length * L), [run.length, L]);
      let res: Record<string, OrtLikeTensor>;
      try {
        res = await this.net(feeds);
      } catch (e) {
        throw new InputError(`transformers model '${this.model}' failed on a batch: ${(e as Error).message}`, this.path);
      }
      this.spec.layerOutputs.forEach((name, k) => {
        const h = res[name]!;
        if (h.dims.length !== 3 || h.dims[2] !== D) throw new InputError(`transformers model '${this.model}': output ${name} has shape [${h.dims}], expected [*, *, ${D}]`, this.path);
        run.forEach((w, i) => {
          w.spans.forEach(([a, e], j) => {
            const dst = ((k * B + w.side) * T + w.first + j) * D;
            for (let p = a; p < e; p++) {
              const src = (i * L + p) * D;
              for (let x = 0; x < D; x++) out[dst + x]! += h.data[src + x]!;
            }
            const inv = 1 / (e - a);
            for (let x = 0; x < D; x++) out[dst + x]! *= inv;
          });
        });
      });
    }
    return { layers: tf.tensor2d(out, [K, B * T * D]), B, T };
  }

  forward(f: TransformersFeatures, training: boolean, dropoutSeed?: number): tf.Tensor3D {
    const K = this.spec.layerOutputs.length;
    const w = tf.softmax(this.params.get("mix/s")!).reshape([1, K]);
    let out = tf.mul(tf.matMul(w, f.layers), this.params.get("mix/gamma")!).reshape([f.B, f.T, this.dim]) as tf.Tensor3D;
    const p = this.spec.dropout;
    if (training && p > 0) out = tf.dropout(out, p, undefined, dropoutSeed ?? 0) as tf.Tensor3D;
    return out;
  }

  /** The current mix: softmax-normalised layer weights and gamma (for docs and logs). */
  mix(): { layers: string[]; weights: number[]; gamma: number } {
    const s = tf.tidy(() => tf.softmax(this.params.get("mix/s")!).arraySync() as number[]);
    return { layers: this.spec.layerOutputs, weights: s, gamma: (this.params.get("mix/gamma")!.arraySync() as number[])[0]! };
  }

  disposeFeatures(f: TransformersFeatures): void {
    f.layers.dispose();
  }

  config(): Record<string, unknown> {
    return { ...this.spec, model: this.model, layersMixed: this.spec.layerOutputs.length };
  }

  dispose(): void {
    for (const v of this.params.values()) v.dispose();
    void this.net.dispose();
  }
}
