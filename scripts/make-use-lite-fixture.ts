/**
 * Writes test/fixtures/use-lite-tiny: a tfjs graph model shaped like the Universal Sentence Encoder lite at its
 * interface (inputs `indices` [n, 2] and `values` [n] of a sparse [rows, pieces] batch of piece ids, output node
 * named as USE lite's last-layer states) with a 4-d random embedding and one contextual step: each piece's state
 * is its embedding plus 0.1 x the sum of its row's embeddings (so a word's vector depends on the row it is in,
 * as in a transformer), plus a small SentencePiece vocabulary. Padding reads row 1, which is all zeros.
 * Usage: node dist/scripts/make-use-lite-fixture.js [test/fixtures/use-lite-tiny]   (seed fixed: same bytes every time)
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { USE_LITE_STATES } from "../src/ranker/use-lite.js";
import { parseArgs } from "./args.js";

const { args } = parseArgs({
  name: "make-use-lite-fixture",
  summary: "Writes a tiny tfjs graph model shaped like the Universal Sentence Encoder lite at its interface (a test fixture).",
  options: {},
  positionals: [{ name: "DIR", description: "the fixture folder to write", optional: true, defaultText: "test/fixtures/use-lite-tiny" }],
});
const out = args[0] ?? "test/fixtures/use-lite-tiny";
const DIM = 4;

const vocab: Array<[string, number]> = [
  ["<unk>", 0],
  ["<s>", 0],
  ["</s>", 0],
  ["extra_token_id_1", 0],
  ["extra_token_id_2", 0],
  ["extra_token_id_3", 0],
  ["\u2581the", -2],
  ["\u2581he", -2.5],
  ["\u2581she", -3],
  ["\u2581it", -2.5],
  ["\u2581they", -3],
  ["\u2581ran", -3],
  ["\u2581dog", -3],
  ["\u2581.", -2],
  [".", -2.2],
  ["\u2581", -4],
  ["\u2581r", -5],
  ["an", -4],
  ["\u2581h", -5],
];
for (const c of "abcdefghijklmnopqrstuvwxyz") vocab.push([c, -6]);

let s = 20190711;
const rnd = (): number => {
  s = (s + 0x6d2b79f5) >>> 0;
  let t = s;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const emb = new Float32Array(vocab.length * DIM);
for (let i = 0; i < emb.length; i++) emb[i] = Math.round((rnd() * 2 - 1) * 1000) / 1000;
emb.fill(0, 1 * DIM, 2 * DIM); // row 1 (<s>) pads

const F = 1;
const I = 3;
const shape = (dims: number[]): { dim: Array<{ size: string }> } => ({ dim: dims.map((d) => ({ size: String(d) })) });
const konst = (name: string, dtype: number, dims: number[]): Record<string, unknown> => ({ name, op: "Const", input: [], attr: { value: { tensor: { dtype, tensorShape: shape(dims) } }, dtype: { type: dtype } } });
const nodes = [
  { name: "indices", op: "Placeholder", input: [], attr: { dtype: { type: I }, shape: { shape: shape([-1, 2]) } } },
  { name: "values", op: "Placeholder", input: [], attr: { dtype: { type: I }, shape: { shape: shape([-1]) } } },
  konst("axis0", I, []),
  konst("axis1", I, []),
  konst("ones", I, [2]),
  konst("pad_id", I, []),
  konst("embeddings", F, [vocab.length, DIM]),
  konst("mix", F, []),
  { name: "max", op: "Max", input: ["indices", "axis0"], attr: { Tidx: { type: I }, keep_dims: { b: false }, T: { type: I } } },
  { name: "dense_shape", op: "Add", input: ["max", "ones"], attr: { T: { type: I } } },
  { name: "ids", op: "SparseToDense", input: ["indices", "dense_shape", "values", "pad_id"], attr: { Tindices: { type: I }, validate_indices: { b: true }, T: { type: I } } },
  { name: "gathered", op: "GatherV2", input: ["embeddings", "ids", "axis0"], attr: { Taxis: { type: I }, Tindices: { type: I }, Tparams: { type: F } } },
  { name: "row_sum", op: "Sum", input: ["gathered", "axis1"], attr: { Tidx: { type: I }, keep_dims: { b: true }, T: { type: F } } },
  { name: "context", op: "Mul", input: ["row_sum", "mix"], attr: { T: { type: F } } },
  { name: USE_LITE_STATES, op: "Add", input: ["gathered", "context"], attr: { T: { type: F } } },
];
const weights: Array<{ name: string; shape: number[]; dtype: string; data: Int32Array | Float32Array }> = [
  { name: "axis0", shape: [], dtype: "int32", data: Int32Array.of(0) },
  { name: "axis1", shape: [], dtype: "int32", data: Int32Array.of(1) },
  { name: "ones", shape: [2], dtype: "int32", data: Int32Array.of(1, 1) },
  { name: "pad_id", shape: [], dtype: "int32", data: Int32Array.of(1) },
  { name: "embeddings", shape: [vocab.length, DIM], dtype: "float32", data: emb },
  { name: "mix", shape: [], dtype: "float32", data: Float32Array.of(0.1) },
];
const model = {
  format: "graph-model",
  generatedBy: "scripts/make-use-lite-fixture.ts",
  convertedBy: null,
  modelTopology: { node: nodes, library: {}, versions: {} },
  weightsManifest: [{ paths: ["group1-shard1of1"], weights: weights.map(({ name, shape, dtype }) => ({ name, shape, dtype })) }],
};
mkdirSync(out, { recursive: true });
writeFileSync(join(out, "model.json"), JSON.stringify(model, null, 1) + "\n");
writeFileSync(join(out, "group1-shard1of1"), Buffer.concat(weights.map((w) => Buffer.from(w.data.buffer, w.data.byteOffset, w.data.byteLength))));
writeFileSync(join(out, "vocab.json"), JSON.stringify(vocab) + "\n");
process.stderr.write(`wrote ${out}: ${vocab.length} pieces, ${DIM}-d states\n`);
