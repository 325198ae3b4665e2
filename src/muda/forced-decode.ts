/**
 * Forced decoding of a reference with a local ONNX sequence-to-sequence model (e.g. an OPUS-MT
 * Marian model exported with Optimum), run through @xenova/transformers' ONNX Runtime: the
 * log-probability of every reference token given the tokens before it, once with the source
 * sentence alone and once with the previous sentences of the document as context (P-CXMI,
 * src/muda/cxmi.ts). Local files only: no model hub.
 *
 * Context, as in the concatenation models of the paper's setup: the previous `contextSize` source
 * sentences are put before the source sentence, and the previous reference sentences before the
 * reference as a forced prefix of the decoder, each followed by the separator; only the current
 * sentence's tokens (and its end of sentence) are scored.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync, statSync, createReadStream } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { InputError } from "../io/errors.js";
import { EOS_TOKEN, type ScoredSegment } from "./cxmi-formats.js";

/** The files @xenova/transformers needs for a sequence-to-sequence model (AutoModelForSeq2SeqLM). */
export const SEQ2SEQ_FILES = ["config.json", "tokenizer.json", "tokenizer_config.json", "onnx/encoder_model.onnx", "onnx/decoder_model_merged.onnx"] as const;

export interface Seq2SeqDir {
  path: string;
  /** The ONNX files are the `_quantized` variants (only those are present). */
  quantized: boolean;
  encoder: string;
  decoder: string;
}

/** Checks a model directory before loading anything: every missing file is named. */
export function checkSeq2SeqDir(dir: string): Seq2SeqDir {
  const path = resolve(dir);
  if (!existsSync(path)) throw new InputError("no such model directory", dir);
  if (!statSync(path).isDirectory()) throw new InputError("is not a directory (--model-dir takes the model's directory)", dir);
  const has = (f: string) => existsSync(join(path, f));
  const plain = has("onnx/encoder_model.onnx") && has("onnx/decoder_model_merged.onnx");
  const quant = !plain && has("onnx/encoder_model_quantized.onnx") && has("onnx/decoder_model_merged_quantized.onnx");
  const missing = SEQ2SEQ_FILES.filter((f) => !has(f) && !(f.startsWith("onnx/") && quant));
  if (missing.length) {
    throw new InputError(
      `not a sequence-to-sequence model @xenova/transformers can load: missing ${missing.join(", ")} ` +
        `(it needs ${SEQ2SEQ_FILES.join(", ")}, or the _quantized ONNX pair; an OPUS-MT model exported with Optimum has them)`,
      dir,
    );
  }
  let config: Record<string, unknown>;
  try {
    config = JSON.parse(readFileSync(join(path, "config.json"), "utf8")) as Record<string, unknown>;
  } catch (e) {
    throw new InputError(`config.json is not valid JSON (${(e as Error).message})`, dir);
  }
  if (config.is_encoder_decoder !== true) throw new InputError("config.json: not an encoder-decoder model (is_encoder_decoder is not true)", dir);
  const sfx = quant ? "_quantized" : "";
  return { path, quantized: quant, encoder: join(path, `onnx/encoder_model${sfx}.onnx`), decoder: join(path, `onnx/decoder_model_merged${sfx}.onnx`) };
}

interface OrtTensor {
  data: Float32Array | BigInt64Array;
  dims: number[];
}
interface OrtSession {
  inputNames: string[];
  outputNames: string[];
  run(feeds: Record<string, unknown>): Promise<Record<string, OrtTensor>>;
}
interface Seq2SeqLike {
  config: Record<string, unknown>;
  session: OrtSession;
  decoder_merged_session: OrtSession;
  dispose(): Promise<unknown>;
}
interface TokenizerLike {
  encode(text: string, pair: null, opts: { add_special_tokens: boolean }): number[];
  model: { convert_ids_to_tokens(ids: number[]): string[]; tokens_to_ids: Map<string, number> };
}
type TensorCtor = new (type: string, data: unknown, dims: number[]) => unknown;

async function sha256File(path: string): Promise<string> {
  const h = createHash("sha256");
  for await (const chunk of createReadStream(path)) h.update(chunk as Buffer);
  return h.digest("hex");
}

export class ForcedDecoder {
  /** Special tokens the tokenizer puts around a source sentence (Marian: none before, `</s>` after). */
  private readonly srcPrefix: number[];
  private readonly srcSuffix: number[];

  private constructor(
    readonly dir: Seq2SeqDir,
    private readonly tokenizer: TokenizerLike,
    private readonly model: Seq2SeqLike,
    private readonly Tensor: TensorCtor,
    /** sha256 of the encoder and decoder files together. */
    readonly onnxSha256: string,
  ) {
    const bare = tokenizer.encode("a", null, { add_special_tokens: false });
    const full = tokenizer.encode("a", null, { add_special_tokens: true });
    let at = -1;
    for (let i = 0; i + bare.length <= full.length && at < 0; i++) if (bare.every((x, j) => full[i + j] === x)) at = i;
    this.srcPrefix = at >= 0 ? full.slice(0, at) : [];
    this.srcSuffix = at >= 0 ? full.slice(at + bare.length) : [this.eosId];
  }

  get config(): Record<string, unknown> {
    return this.model.config;
  }

  get eosId(): number {
    const e = this.model.config.eos_token_id;
    return Number(Array.isArray(e) ? e[0] : e);
  }

  /** The decoder's first input (Marian: the pad token). */
  get startId(): number {
    const c = this.model.config;
    return Number(c.decoder_start_token_id ?? c.pad_token_id ?? c.bos_token_id ?? this.eosId);
  }

  /** Longest sequence the model takes (positions), on either side. */
  get maxPositions(): number {
    const n = Number(this.model.config.max_position_embeddings ?? this.model.config.n_positions);
    return Number.isFinite(n) && n > 0 ? n : Infinity;
  }

  /** Loads the model from a local directory (never from a hub). */
  static async load(modelDir: string): Promise<ForcedDecoder> {
    const dir = checkSeq2SeqDir(modelDir);
    const tx = await import("@xenova/transformers");
    const { env } = tx;
    env.allowLocalModels = true;
    env.allowRemoteModels = false;
    // transformers.js joins localModelPath and the name; its file cache is keyed by the name alone: off.
    env.localModelPath = dirname(dir.path);
    env.useFSCache = false;
    const id = basename(dir.path);
    const warn = console.warn;
    let tokenizer: TokenizerLike;
    let model: Seq2SeqLike;
    try {
      // transformers.js warns on every MarianTokenizer that the fast tokenizers lack it: not the user's concern.
      console.warn = (...a: unknown[]) => {
        if (!String(a[0]).includes("MarianTokenizer")) warn(...a);
      };
      tokenizer = (await tx.AutoTokenizer.from_pretrained(id, { local_files_only: true })) as unknown as TokenizerLike;
      model = (await tx.AutoModelForSeq2SeqLM.from_pretrained(id, { quantized: dir.quantized, local_files_only: true })) as unknown as Seq2SeqLike;
    } catch (e) {
      throw new InputError(`the model could not be loaded: ${(e as Error).message}`, modelDir);
    } finally {
      console.warn = warn;
    }
    if (!model.decoder_merged_session || !model.session) {
      await model.dispose();
      throw new InputError(`config.json model_type '${String(model.config?.model_type)}' is not a sequence-to-sequence model transformers.js knows`, modelDir);
    }
    const h = createHash("sha256");
    h.update(await sha256File(dir.encoder));
    h.update(await sha256File(dir.decoder));
    return new ForcedDecoder(dir, tokenizer, model, tx.Tensor as unknown as TensorCtor, h.digest("hex"));
  }

  /** Token ids of a text, no special tokens. */
  encode(text: string): number[] {
    return this.tokenizer.encode(text, null, { add_special_tokens: false });
  }

  tokens(ids: number[]): string[] {
    return this.tokenizer.model.convert_ids_to_tokens(ids);
  }

  /** The ids of a separator: nothing for whitespace, the token itself where the vocabulary has it whole (`</s>`, `<brk>`), else its pieces. */
  separatorIds(sep: string): number[] {
    if (sep.trim() === "") return [];
    const whole = this.tokenizer.model.tokens_to_ids.get(sep.trim());
    return whole !== undefined ? [whole] : this.encode(sep);
  }

  /** Source ids as the model takes them: the tokenizer's special tokens around the pieces. */
  sourceIds(pieces: number[]): number[] {
    return [...this.srcPrefix, ...pieces, ...this.srcSuffix];
  }

  private int64(ids: number[]): unknown {
    return new this.Tensor("int64", BigInt64Array.from(ids.map((x) => BigInt(x))), [1, ids.length]);
  }

  /**
   * Natural-log probability of each `target` id (end of sentence included, as the caller gives it)
   * after the decoder start token and the forced `prefix`, given the source ids: one encoder and one
   * decoder call (teacher forcing; the decoder's causal mask keeps each position from seeing later ones).
   */
  async logprobs(source: number[], prefix: number[], target: number[]): Promise<number[]> {
    if (target.length === 0) return [];
    const enc = this.model.session;
    const feeds: Record<string, unknown> = {};
    const ones = (n: number) => this.int64(Array.from({ length: n }, () => 1));
    for (const name of enc.inputNames) {
      if (name === "input_ids") feeds[name] = this.int64(source);
      else if (name === "attention_mask") feeds[name] = ones(source.length);
      else if (name === "token_type_ids") feeds[name] = this.int64(source.map(() => 0));
      else throw new InputError(`the encoder takes an input '${name}' that forced decoding does not provide`, this.dir.path);
    }
    const encOut = await enc.run(feeds);
    const hidden = encOut.last_hidden_state ?? encOut[enc.outputNames[0]!]!;
    const dec = this.model.decoder_merged_session;
    const seq = [this.startId, ...prefix, ...target.slice(0, -1)];
    const dfeeds: Record<string, unknown> = {};
    for (const name of dec.inputNames) {
      if (name === "input_ids") dfeeds[name] = this.int64(seq);
      else if (name === "encoder_hidden_states") dfeeds[name] = hidden;
      else if (name === "encoder_attention_mask" || name === "attention_mask") dfeeds[name] = ones(source.length);
      else if (name === "use_cache_branch") dfeeds[name] = new this.Tensor("bool", [false], [1]);
      else if (name.startsWith("past_key_values.")) dfeeds[name] = new this.Tensor("float32", new Float32Array(0), this.pastDims(name));
      else throw new InputError(`the decoder takes an input '${name}' that forced decoding does not provide`, this.dir.path);
    }
    const out = await dec.run(dfeeds);
    const logits = out.logits;
    if (!logits) throw new InputError("the decoder has no 'logits' output", this.dir.path);
    const [, T, V] = logits.dims as [number, number, number];
    if (T !== seq.length) throw new InputError(`the decoder gave ${T} positions for ${seq.length} inputs`, this.dir.path);
    const data = logits.data as Float32Array;
    const lp: number[] = [];
    for (let i = 0; i < target.length; i++) lp.push(logSoftmaxAt(data, (prefix.length + i) * V, V, target[i]!));
    return lp;
  }

  /** Empty past key/value tensors, as transformers.js feeds a merged decoder on its first step. */
  private pastDims(name: string): number[] {
    const c = this.model.config;
    const d = Number(c.d_model ?? c.hidden_size);
    const encoderSide = name.includes(".encoder.");
    const heads = Number((encoderSide ? c.encoder_attention_heads : c.decoder_attention_heads) ?? c.num_heads ?? c.num_attention_heads);
    const dkv = Number(c.d_kv ?? d / heads);
    return [1, heads, 0, dkv];
  }

  async dispose(): Promise<void> {
    await this.model.dispose();
  }
}

/** log softmax(row)[k] of one row of logits, in float64. */
export function logSoftmaxAt(data: ArrayLike<number>, offset: number, n: number, k: number): number {
  let max = -Infinity;
  for (let j = 0; j < n; j++) if (data[offset + j]! > max) max = data[offset + j]!;
  let sum = 0;
  for (let j = 0; j < n; j++) sum += Math.exp(data[offset + j]! - max);
  return data[offset + k]! - max - Math.log(sum);
}

export interface ContextDoc {
  id: string;
  src: string[];
  tgt: string[];
}

export interface ForcedScores {
  without: ScoredSegment[];
  with: ScoredSegment[];
  /** Segments whose context was cut to fit the model's positions (fewer sentences than asked). */
  shortened: number;
}

/**
 * Scores every reference segment twice: alone, and after the previous `contextSize` source and
 * reference sentences of its document, each followed by the separator. Both runs score the same
 * target ids (the segment tokenised on its own, then the end of sentence), so their tokens always
 * match. A context too long for the model loses its oldest sentences first.
 */
export async function scoreWithContext(
  dec: ForcedDecoder,
  docs: readonly ContextDoc[],
  opts: { contextSize: number; separator: string; onSegment?: (done: number, total: number) => void },
): Promise<ForcedScores> {
  const sep = dec.separatorIds(opts.separator);
  const max = dec.maxPositions;
  const without: ScoredSegment[] = [];
  const withCtx: ScoredSegment[] = [];
  const total = docs.reduce((a, d) => a + d.src.length, 0);
  let shortened = 0;
  let line = 0;
  for (const doc of docs) {
    if (doc.tgt.length !== doc.src.length) throw new InputError(`document ${doc.id}: ${doc.tgt.length} reference segments but ${doc.src.length} source segments`);
    const srcIds = doc.src.map((s) => dec.encode(s));
    const tgtIds = doc.tgt.map((s) => dec.encode(s));
    for (let k = 0; k < doc.src.length; k++) {
      line++;
      const target = [...tgtIds[k]!, dec.eosId];
      const source = dec.sourceIds(srcIds[k]!);
      if (source.length > max || target.length > max) {
        throw new InputError(`document ${doc.id}, segment ${k + 1} (line ${line}): ${Math.max(source.length, target.length)} tokens, more than the model's ${max} positions`);
      }
      let n = Math.min(opts.contextSize, k);
      const build = (m: number) => {
        const s: number[] = [];
        const t: number[] = [];
        for (let j = k - m; j < k; j++) {
          s.push(...srcIds[j]!, ...sep);
          t.push(...tgtIds[j]!, ...sep);
        }
        return { s: dec.sourceIds([...s, ...srcIds[k]!]), t };
      };
      let ctx = build(n);
      const asked = n;
      while (n > 0 && (ctx.s.length > max || ctx.t.length + target.length > max)) ctx = build(--n);
      if (n < asked) shortened++;
      const tokens = dec.tokens(target);
      tokens[tokens.length - 1] = EOS_TOKEN;
      const base = await dec.logprobs(source, [], target);
      const withC = await dec.logprobs(ctx.s, ctx.t, target);
      const id = `${doc.id}:${k + 1}`;
      without.push({ tokens, logprobs: base, id, doc: doc.id, source: doc.src[k]!, line });
      withCtx.push({ tokens: [...tokens], logprobs: withC, id, doc: doc.id, source: doc.src[k]!, line });
      opts.onSegment?.(line, total);
    }
  }
  return { without, with: withCtx, shortened };
}
