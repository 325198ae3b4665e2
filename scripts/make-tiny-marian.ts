/**
 * Writes a tiny Marian-shaped translation model with random (seeded) weights, in the layout
 * @xenova/transformers loads with AutoModelForSeq2SeqLM (config.json, generation_config.json,
 * tokenizer.json, tokenizer_config.json, onnx/encoder_model.onnx, onnx/decoder_model_merged.onnx),
 * for the tests of forced decoding (`muda cxmi --model-dir`). Its numbers mean nothing: it has never
 * been trained. ONNX written by scripts/onnx-writer.ts; the same seed gives the same bytes.
 *
 * Graph (Marian's layout, post-LN): shared embeddings scaled by sqrt(d_model) plus sinusoidal
 * positions; encoder: self-attention with the attention mask, swish feed-forward; decoder: causal
 * self-attention, cross-attention to the encoder with its mask, feed-forward; logits from the
 * shared embeddings plus a bias. The decoder has the interface of an Optimum merged decoder
 * (`use_cache_branch`, `past_key_values.*` inputs) so it is fed the way real exports are, but it
 * always recomputes the whole prefix (the cache inputs are unused): call it without a cache.
 *
 * Usage: node dist/scripts/make-tiny-marian.js OUT_DIR [SEED] [MAX_POSITIONS]
 */
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { writeFileAtomic } from "../src/io/atomic.js";
import { BOOL, FLOAT, Graph, INT64, Pb, valueInfo, normal } from "./onnx-writer.js";
import { Rng } from "../src/core/prng.js";
import { parseArgs } from "./args.js";

export interface TinyMarianDims {
  vocab: number;
  d: number;
  heads: number;
  ffn: number;
  encoderLayers: number;
  decoderLayers: number;
  maxPos: number;
}

const SP = "\u2581";
const WORDS = (
  "the a and of to in is was it he she they we you i not that this there said do did have has had will " +
  "der die das und ist war sie er es wir ihr du ich nicht ein eine einen dem den hat haben wird Sie Ihr " +
  "doctor Ärztin Arzt came kam house Haus good gut bad schlecht yes ja no nein"
).split(" ");

/** SentencePiece-style pieces: whole words (▁word), and every character with and without ▁, so any text tokenises. */
export function tinyMarianVocabulary(): Array<[string, number]> {
  const chars = [..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZäöüßÄÖÜéè0123456789.,;:!?'\"()-"];
  const v = new Map<string, number>([
    ["</s>", 0],
    ["<unk>", 0],
  ]);
  for (const w of WORDS) v.set(SP + w, -3);
  for (const c of chars) v.set(SP + c, -9);
  for (const c of chars) v.set(c, -10);
  v.set("<pad>", 0);
  return [...v];
}

function sinusoids(maxPos: number, d: number): Float32Array {
  // Marian/HF MarianSinusoidalPositionalEmbedding: sines in the first half, cosines in the second.
  const out = new Float32Array(maxPos * d);
  const half = d / 2;
  for (let p = 0; p < maxPos; p++) {
    for (let j = 0; j < half; j++) {
      const a = p / Math.pow(10000, (2 * j) / d);
      out[p * d + j] = Math.fround(Math.sin(a));
      out[p * d + half + j] = Math.fround(Math.cos(a));
    }
  }
  return out;
}

/** Pieces shared by both graphs: embeddings, layer norm, linear layers, attention, feed-forward. */
function parts(g: Graph, dm: TinyMarianDims, shared: Float32Array) {
  const H = dm.d;
  const hd = H / dm.heads;
  g.scalar("eps", 1e-5);
  g.scalar("one", 1);
  g.scalar("neg_big", -1e9);
  g.scalar("embed_scale", Math.sqrt(H));
  g.scalar("inv_sqrt_hd", 1 / Math.sqrt(hd));
  g.ints("heads_shape", [0, 0, dm.heads, hd]);
  g.ints("merge_shape", [0, 0, H]);
  g.ints("i0", [0]);
  g.ints("i1", [1]);
  g.ints("i2", [2]);
  g.ints("axes_12", [1, 2]);
  g.constant("model.shared.weight", [dm.vocab, H], shared);
  g.constant("positions", [dm.maxPos, H], sinusoids(dm.maxPos, H));

  /** Embedded ids [B,S] -> [B,S,H]: scaled embeddings plus the positions 0..S-1. */
  const embed = (ids: string): string => {
    const len = g.op("Slice", [g.op("Shape", [ids]), "i1", "i2"]);
    const pos = g.op("Slice", ["positions", "i0", len, "i0"]);
    return g.op("Add", [g.op("Mul", [g.op("Gather", ["model.shared.weight", ids]), "embed_scale"]), pos]);
  };
  /** Multi-head attention of queries `q` over `kv`, with an additive bias broadcast to [B,h,Tq,Tk]. */
  const attention = (q: string, kv: string, bias: string, p: string): string => {
    const split = (t: string, perm: number[]): string => g.op("Transpose", [g.op("Reshape", [t, "heads_shape"])], [{ name: "perm", ints: perm }]);
    const Q = split(g.linear(q, `${p}.q_proj`, H, H), [0, 2, 1, 3]);
    const K = split(g.linear(kv, `${p}.k_proj`, H, H), [0, 2, 3, 1]);
    const V = split(g.linear(kv, `${p}.v_proj`, H, H), [0, 2, 1, 3]);
    const scores = g.op("Add", [g.op("Mul", [g.op("MatMul", [Q, K]), "inv_sqrt_hd"]), bias]);
    const probs = g.op("Softmax", [scores], [{ name: "axis", i: -1 }]);
    const ctx = g.op("Reshape", [g.op("Transpose", [g.op("MatMul", [probs, V])], [{ name: "perm", ints: [0, 2, 1, 3] }]), "merge_shape"]);
    return g.linear(ctx, `${p}.out_proj`, H, H);
  };
  const feedForward = (x: string, p: string): string => {
    const h = g.linear(x, `${p}.fc1`, H, dm.ffn);
    const swish = g.op("Mul", [h, g.op("Sigmoid", [h])]);
    return g.linear(swish, `${p}.fc2`, dm.ffn, H);
  };
  /** Additive mask [B,1,1,S] from a 0/1 attention mask: 0 to attend, a large negative number to ignore. */
  const maskBias = (mask: string): string => g.op("Unsqueeze", [g.op("Mul", [g.op("Sub", ["one", g.op("Cast", [mask], [{ name: "to", i: FLOAT }])]), "neg_big"]), "axes_12"]);
  const layerNorm = (x: string, p: string): string => g.layerNorm(x, p, H);
  return { layerNorm, embed, attention, feedForward, maskBias };
}

function modelProto(g: Graph, name: string, inputs: Pb[], outputs: Pb[]): Uint8Array {
  const graph = new Pb();
  for (const n of g.nodes) graph.msg(1, n);
  graph.str(2, name);
  for (const t of g.inits) graph.msg(5, t);
  for (const i of inputs) graph.msg(11, i);
  for (const o of outputs) graph.msg(12, o);
  return new Pb()
    .int(1, 8) // ir_version
    .str(2, "proneval make-tiny-marian")
    .msg(8, new Pb().str(1, "").int(2, 13)) // opset ai.onnx 13
    .msg(7, graph)
    .finish();
}

function buildEncoder(dm: TinyMarianDims, shared: Float32Array, seed: number): Uint8Array {
  const g = new Graph(new Rng(seed));
  const P = parts(g, dm, shared);
  const bias = P.maskBias("attention_mask");
  let x = P.embed("input_ids");
  for (let l = 0; l < dm.encoderLayers; l++) {
    const p = `model.encoder.layers.${l}`;
    x = P.layerNorm(g.op("Add", [x, P.attention(x, x, bias, `${p}.self_attn`)]), `${p}.self_attn_layer_norm`);
    x = P.layerNorm(g.op("Add", [x, P.feedForward(x, p)]), `${p}.final_layer_norm`);
  }
  g.op("Identity", [x], [], "last_hidden_state");
  return modelProto(
    g,
    "tiny-marian-encoder",
    ["input_ids", "attention_mask"].map((n) => valueInfo(n, INT64, ["batch_size", "encoder_sequence_length"])),
    [valueInfo("last_hidden_state", FLOAT, ["batch_size", "encoder_sequence_length", dm.d])],
  );
}

function buildDecoder(dm: TinyMarianDims, shared: Float32Array, seed: number): Uint8Array {
  const g = new Graph(new Rng(seed));
  const P = parts(g, dm, shared);
  // Causal bias [T,T]: a fixed [maxPos,maxPos] table (0 on and below the diagonal), cut to the input's length.
  const causal = new Float32Array(dm.maxPos * dm.maxPos);
  for (let i = 0; i < dm.maxPos; i++) for (let j = i + 1; j < dm.maxPos; j++) causal[i * dm.maxPos + j] = -1e9;
  g.constant("causal_table", [dm.maxPos, dm.maxPos], causal);
  const len = g.op("Slice", [g.op("Shape", ["input_ids"]), "i1", "i2"]);
  const ends = g.op("Concat", [len, len], [{ name: "axis", i: 0 }]);
  g.ints("zeros2", [0, 0]);
  g.ints("axes01", [0, 1]);
  const selfBias = g.op("Slice", ["causal_table", "zeros2", ends, "axes01"]);
  const crossBias = P.maskBias("encoder_attention_mask");
  let y = P.embed("input_ids");
  for (let l = 0; l < dm.decoderLayers; l++) {
    const p = `model.decoder.layers.${l}`;
    y = P.layerNorm(g.op("Add", [y, P.attention(y, y, selfBias, `${p}.self_attn`)]), `${p}.self_attn_layer_norm`);
    y = P.layerNorm(g.op("Add", [y, P.attention(y, "encoder_hidden_states", crossBias, `${p}.encoder_attn`)]), `${p}.encoder_attn_layer_norm`);
    y = P.layerNorm(g.op("Add", [y, P.feedForward(y, p)]), `${p}.final_layer_norm`);
  }
  const lmHead = g.op("Transpose", ["model.shared.weight"], [{ name: "perm", ints: [1, 0] }]);
  const bias = g.floats("final_logits_bias", [dm.vocab], (r) => r.normal() * 0.1);
  g.op("Add", [g.op("MatMul", [y, lmHead]), bias], [], "logits");
  const hd = dm.d / dm.heads;
  const inputs = [
    valueInfo("encoder_attention_mask", INT64, ["batch_size", "encoder_sequence_length"]),
    valueInfo("input_ids", INT64, ["batch_size", "decoder_sequence_length"]),
    valueInfo("encoder_hidden_states", FLOAT, ["batch_size", "encoder_sequence_length", dm.d]),
  ];
  for (let l = 0; l < dm.decoderLayers; l++) {
    for (const side of ["decoder", "encoder"]) {
      for (const kv of ["key", "value"]) inputs.push(valueInfo(`past_key_values.${l}.${side}.${kv}`, FLOAT, ["batch_size", dm.heads, `past_${side}_sequence_length`, hd]));
    }
  }
  inputs.push(valueInfo("use_cache_branch", BOOL, [1]));
  return modelProto(g, "tiny-marian-decoder", inputs, [valueInfo("logits", FLOAT, ["batch_size", "decoder_sequence_length", dm.vocab])]);
}

function tokenizerJson(vocab: Array<[string, number]>): unknown {
  const id = (t: string) => vocab.findIndex(([p]) => p === t);
  const special = (t: string) => ({ id: id(t), content: t, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true });
  return {
    version: "1.0",
    truncation: null,
    padding: null,
    added_tokens: ["</s>", "<unk>", "<pad>"].map(special),
    normalizer: null,
    pre_tokenizer: { type: "Metaspace", replacement: SP, add_prefix_space: true },
    post_processor: {
      type: "TemplateProcessing",
      single: [{ Sequence: { id: "A", type_id: 0 } }, { SpecialToken: { id: "</s>", type_id: 0 } }],
      pair: [{ Sequence: { id: "A", type_id: 0 } }, { Sequence: { id: "B", type_id: 0 } }, { SpecialToken: { id: "</s>", type_id: 0 } }],
      special_tokens: { "</s>": { id: "</s>", ids: [id("</s>")], tokens: ["</s>"] } },
    },
    decoder: { type: "Metaspace", replacement: SP, add_prefix_space: true },
    model: { type: "Unigram", unk_id: id("<unk>"), vocab },
  };
}

/** Writes the model into `outDir` (created if missing); returns its dimensions. */
export function writeTinyMarian(outDir: string, seed = 20230709, maxPos = 64): TinyMarianDims {
  const vocab = tinyMarianVocabulary();
  // 64 positions by default, so the tests reach the limit; more only to try the command on real text.
  const dm: TinyMarianDims = { vocab: vocab.length, d: 16, heads: 2, ffn: 32, encoderLayers: 1, decoderLayers: 2, maxPos };
  const rng = new Rng(seed);
  const shared = new Float32Array(dm.vocab * dm.d);
  for (let k = 0; k < shared.length; k++) shared[k] = Math.fround(rng.normal() * 0.5);
  const pad = dm.vocab - 1;
  const config = {
    _name_or_path: "proneval/tiny-marian-random",
    architectures: ["MarianMTModel"],
    model_type: "marian",
    activation_function: "swish",
    d_model: dm.d,
    encoder_layers: dm.encoderLayers,
    decoder_layers: dm.decoderLayers,
    encoder_attention_heads: dm.heads,
    decoder_attention_heads: dm.heads,
    encoder_ffn_dim: dm.ffn,
    decoder_ffn_dim: dm.ffn,
    max_position_embeddings: dm.maxPos,
    vocab_size: dm.vocab,
    pad_token_id: pad,
    eos_token_id: 0,
    decoder_start_token_id: pad,
    is_encoder_decoder: true,
    scale_embedding: true,
    share_encoder_decoder_embeddings: true,
    static_position_embeddings: true,
  };
  const generation = { bad_words_ids: [[pad]], decoder_start_token_id: pad, eos_token_id: 0, pad_token_id: pad, max_length: dm.maxPos, num_beams: 1 };
  const tokCfg = { tokenizer_class: "MarianTokenizer", eos_token: "</s>", unk_token: "<unk>", pad_token: "<pad>", model_max_length: dm.maxPos, source_lang: "en", target_lang: "de" };
  mkdirSync(join(outDir, "onnx"), { recursive: true });
  writeFileAtomic(join(outDir, "onnx", "encoder_model.onnx"), buildEncoder(dm, shared, seed + 1));
  writeFileAtomic(join(outDir, "onnx", "decoder_model_merged.onnx"), buildDecoder(dm, shared, seed + 2));
  writeFileAtomic(join(outDir, "config.json"), JSON.stringify(config, null, 2) + "\n");
  writeFileAtomic(join(outDir, "generation_config.json"), JSON.stringify(generation, null, 2) + "\n");
  writeFileAtomic(join(outDir, "tokenizer.json"), JSON.stringify(tokenizerJson(vocab)) + "\n");
  writeFileAtomic(join(outDir, "tokenizer_config.json"), JSON.stringify(tokCfg, null, 2) + "\n");
  return dm;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const { args } = parseArgs({
    name: "make-tiny-marian",
    summary: "Writes a tiny Marian-shaped translation model with random (seeded) weights, in the layout @xenova/transformers loads.",
    options: {},
    positionals: [
      { name: "OUT_DIR", description: "the model folder to write" },
      { name: "SEED", description: "weight seed", optional: true, kind: "int", defaultText: "20230709" },
      { name: "MAX_POSITIONS", description: "positions the model accepts", optional: true, kind: "int", defaultText: "64" },
    ],
  });
  const [outDir, seedArg, posArg] = args as [string, string?, string?];
  const dm = writeTinyMarian(outDir, seedArg === undefined ? undefined : Number(seedArg), posArg === undefined ? undefined : Number(posArg));
  process.stderr.write(`wrote ${outDir}: vocabulary ${dm.vocab}, d_model ${dm.d}, ${dm.encoderLayers}+${dm.decoderLayers} layers, max positions ${dm.maxPos} (random weights)\n`);
}
