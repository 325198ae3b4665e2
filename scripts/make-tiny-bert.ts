/**
 * Writes a tiny BERT-shaped encoder with random (seeded) weights, in the layout transformers.js
 * loads (config.json, tokenizer.json, tokenizer_config.json, onnx/model.onnx), for the tests of the
 * transformers:<model> encoder. The ONNX protobuf is written directly (scripts/onnx-writer.ts), so
 * no Python and no protobuf library is needed; the same seed gives the same bytes.
 *
 * Graph: word + position + token-type embeddings, LayerNorm, 2 post-LN transformer layers
 * (4-head self-attention with the attention mask, GELU feed-forward). Outputs: last_hidden_state
 * and hidden_states.0 (embeddings) .. hidden_states.2, the per-layer states the encoder mixes.
 *
 * Usage: node dist/scripts/make-tiny-bert.js test/fixtures/tiny-bert [SEED] [tiny|base]
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../src/io/atomic.js";
import { FLOAT, Graph, INT64, Pb, valueInfo, normal } from "./onnx-writer.js";
import { Rng } from "../src/core/prng.js";
import { parseArgs } from "./args.js";

const { args } = parseArgs({
  name: "make-tiny-bert",
  summary: "Writes a tiny BERT-shaped encoder with random (seeded) weights, in the layout transformers.js loads.",
  options: {},
  positionals: [
    { name: "OUT_DIR", description: "the model folder to write" },
    { name: "SEED", description: "weight seed", optional: true, kind: "int", defaultText: "20190711" },
    { name: "tiny|base", description: "tiny: the test fixture; base: BERT-base's layer sizes, for speed measurements", optional: true, defaultText: "tiny" },
  ],
});

// ---- the model ----

interface Dims {
  vocab: number;
  hidden: number;
  heads: number;
  ffn: number;
  layers: number;
  maxPos: number;
}

function buildModel(d: Dims, seed: number): Uint8Array {
  const g = new Graph(new Rng(seed));
  const H = d.hidden;
  const hd = H / d.heads;
  g.ints("axes_12", [1, 2]);
  g.scalar("eps", 1e-12);
  g.scalar("one", 1);
  g.scalar("neg_big", -10000);
  g.scalar("half", 0.5);
  g.scalar("inv_sqrt2", Math.SQRT1_2);
  g.scalar("inv_sqrt_hd", 1 / Math.sqrt(hd));
  g.ints("heads_shape", [0, 0, d.heads, hd]);
  g.ints("merge_shape", [0, 0, H]);
  g.ints("i0", [0]);
  g.ints("i1", [1]);
  g.ints("i2", [2]);


  // Embeddings: positions 0..S-1 sliced from the position table (S = the input's length).
  const seqLen = g.op("Slice", [g.op("Shape", ["input_ids"]), "i1", "i2"]);
  const pos = g.op("Slice", [g.floats("embeddings.position_embeddings.weight", [d.maxPos, H], normal(0.5)), "i0", seqLen, "i0"]);
  const words = g.op("Gather", [g.floats("embeddings.word_embeddings.weight", [d.vocab, H], normal(1)), "input_ids"]);
  const types = g.op("Gather", [g.floats("embeddings.token_type_embeddings.weight", [2, H], normal(0.5)), "token_type_ids"]);
  let x = g.layerNorm(g.op("Add", [g.op("Add", [words, pos]), types]), "embeddings.LayerNorm", H);
  x = g.op("Identity", [x], [], "hidden_states.0");

  // Additive mask [B,1,1,S]: 0 for real tokens, -10000 for padding (as BERT does).
  const maskF = g.op("Cast", ["attention_mask"], [{ name: "to", i: FLOAT }]);
  const bias = g.op("Unsqueeze", [g.op("Mul", [g.op("Sub", ["one", maskF]), "neg_big"]), "axes_12"]);

  for (let l = 0; l < d.layers; l++) {
    const p = `encoder.layer.${l}`;
    const split = (t: string, perm: number[]): string => g.op("Transpose", [g.op("Reshape", [t, "heads_shape"])], [{ name: "perm", ints: perm }]);
    const q = split(g.linear(x, `${p}.attention.self.query`, H, H), [0, 2, 1, 3]); // [B,h,S,hd]
    const k = split(g.linear(x, `${p}.attention.self.key`, H, H), [0, 2, 3, 1]); // [B,h,hd,S]
    const v = split(g.linear(x, `${p}.attention.self.value`, H, H), [0, 2, 1, 3]);
    const scores = g.op("Add", [g.op("Mul", [g.op("MatMul", [q, k]), "inv_sqrt_hd"]), bias]);
    const probs = g.op("Softmax", [scores], [{ name: "axis", i: -1 }]);
    const ctx = g.op("Reshape", [g.op("Transpose", [g.op("MatMul", [probs, v])], [{ name: "perm", ints: [0, 2, 1, 3] }]), "merge_shape"]);
    const att = g.layerNorm(g.op("Add", [g.linear(ctx, `${p}.attention.output.dense`, H, H), x]), `${p}.attention.output.LayerNorm`, H);
    const h = g.linear(att, `${p}.intermediate.dense`, H, d.ffn);
    const gelu = g.op("Mul", [g.op("Mul", [h, "half"]), g.op("Add", ["one", g.op("Erf", [g.op("Mul", [h, "inv_sqrt2"])])])]);
    x = g.layerNorm(g.op("Add", [g.linear(gelu, `${p}.output.dense`, d.ffn, H), att]), `${p}.output.LayerNorm`, H);
    x = g.op("Identity", [x], [], `hidden_states.${l + 1}`);
  }
  g.op("Identity", [x], [], "last_hidden_state");

  const graph = new Pb();
  for (const n of g.nodes) graph.msg(1, n);
  graph.str(2, "tiny-bert");
  for (const t of g.inits) graph.msg(5, t);
  for (const name of ["input_ids", "attention_mask", "token_type_ids"]) graph.msg(11, valueInfo(name, INT64, ["batch_size", "sequence_length"]));
  graph.msg(12, valueInfo("last_hidden_state", FLOAT, ["batch_size", "sequence_length", H]));
  for (let l = 0; l <= d.layers; l++) graph.msg(12, valueInfo(`hidden_states.${l}`, FLOAT, ["batch_size", "sequence_length", H]));
  return new Pb()
    .int(1, 8) // ir_version
    .str(2, "proneval make-tiny-bert")
    .msg(8, new Pb().str(1, "").int(2, 13)) // opset ai.onnx 13
    .msg(7, graph)
    .finish();
}

// ---- tokenizer: a WordPiece vocabulary that covers any text through single-character pieces ----

const SPECIALS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"];
const WORDS = (
  "the a an and of to in is was it he she they we you i me him her them us his hers its their our your my " +
  "this that who said says not do does did be been have has had will would can could there here what when " +
  "It He She They We You I The This That There"
).split(" ");

function vocabulary(): string[] {
  const chars = [..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"];
  const punct = [...".,;:!?'\"()[]-_/&%$#@*+=<>`~"];
  // Enough ## pieces that frequent words split into a few pieces (the pooling tests need that).
  const suffixes = ["##s", "##ed", "##ing", "##er", "##ly"];
  const v = new Set<string>([...SPECIALS, ...punct, ...chars, ...chars.map((c) => `##${c}`), ...suffixes, ...WORDS]);
  return [...v];
}

function tokenizerJson(vocab: string[], maxPos: number): unknown {
  const ids = Object.fromEntries(vocab.map((w, i) => [w, i]));
  const special = (t: string) => ({ id: ids[t], content: t, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true });
  return {
    version: "1.0",
    truncation: null,
    padding: null,
    added_tokens: SPECIALS.map(special),
    normalizer: { type: "BertNormalizer", clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: false },
    pre_tokenizer: { type: "BertPreTokenizer" },
    post_processor: {
      type: "TemplateProcessing",
      single: [{ SpecialToken: { id: "[CLS]", type_id: 0 } }, { Sequence: { id: "A", type_id: 0 } }, { SpecialToken: { id: "[SEP]", type_id: 0 } }],
      pair: [
        { SpecialToken: { id: "[CLS]", type_id: 0 } },
        { Sequence: { id: "A", type_id: 0 } },
        { SpecialToken: { id: "[SEP]", type_id: 0 } },
        { Sequence: { id: "B", type_id: 1 } },
        { SpecialToken: { id: "[SEP]", type_id: 1 } },
      ],
      special_tokens: Object.fromEntries(["[CLS]", "[SEP]"].map((t) => [t, { id: t, ids: [ids[t]], tokens: [t] }])),
    },
    decoder: { type: "WordPiece", prefix: "##", cleanup: true },
    model: { type: "WordPiece", unk_token: "[UNK]", continuing_subword_prefix: "##", max_input_chars_per_word: maxPos * 4, vocab: ids },
  };
}

const [outDir, seedArg = "20190711", size = "tiny"] = args;
if (!outDir || (size !== "tiny" && size !== "base")) {
  process.stderr.write("usage: make-tiny-bert OUT_DIR [SEED] [tiny|base]\n");
  process.exit(2);
}
const vocab = vocabulary();
// tiny: the test fixture; max positions kept small so the tests exercise inputs longer than the
// model accepts. base: BERT-base's layer sizes (not its vocabulary), for speed measurements only.
const dims: Dims =
  size === "tiny"
    ? { vocab: vocab.length, hidden: 32, heads: 4, ffn: 64, layers: 2, maxPos: 64 }
    : { vocab: vocab.length, hidden: 768, heads: 12, ffn: 3072, layers: 12, maxPos: 512 };
const config = {
  _name_or_path: "proneval/tiny-bert-random",
  architectures: ["BertModel"],
  model_type: "bert",
  hidden_size: dims.hidden,
  num_attention_heads: dims.heads,
  num_hidden_layers: dims.layers,
  intermediate_size: dims.ffn,
  max_position_embeddings: dims.maxPos,
  type_vocab_size: 2,
  vocab_size: dims.vocab,
  hidden_act: "gelu",
  layer_norm_eps: 1e-12,
  pad_token_id: 0,
};
const tokCfg = { tokenizer_class: "BertTokenizer", do_lower_case: false, model_max_length: dims.maxPos, unk_token: "[UNK]", sep_token: "[SEP]", pad_token: "[PAD]", cls_token: "[CLS]", mask_token: "[MASK]" };
mkdirSync(join(outDir, "onnx"), { recursive: true });
const onnx = buildModel(dims, Number(seedArg));
writeFileAtomic(join(outDir, "onnx", "model.onnx"), onnx);
writeFileAtomic(join(outDir, "config.json"), JSON.stringify(config, null, 2) + "\n");
writeFileAtomic(join(outDir, "tokenizer.json"), JSON.stringify(tokenizerJson(vocab, dims.maxPos)) + "\n");
writeFileAtomic(join(outDir, "tokenizer_config.json"), JSON.stringify(tokCfg, null, 2) + "\n");
process.stderr.write(`wrote ${outDir}: vocabulary ${vocab.length}, hidden ${dims.hidden}, ${dims.layers} layers, max positions ${dims.maxPos}, model.onnx ${onnx.length} bytes\n`);
