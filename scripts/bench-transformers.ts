/**
 * Speed of the transformers:<model> encoder: frozen feature extraction (ONNX Runtime through
 * @xenova/transformers) and the ranker on top, scoring and training, with CRC-sized inputs.
 *   node dist/scripts/bench-transformers.js --model-dir DIR --model NAME [--sides 256] [--pairs 32] [--backend wasm] [--lengths FILE]
 * Side lengths (in words) follow FILE's lines (default: a WMT22 reference; each side = 2 context
 * lines + 1 sentence, as CRC); the words are drawn from a fixed list that a BERT-cased WordPiece
 * vocabulary splits into 1.25 pieces per word on average (about what it does on English news),
 * so the figures carry over to a real model of the same size. Pieces/word are printed.
 * Weights do not change the speed: a random model with BERT-base's sizes is made by
 *   node dist/scripts/make-tiny-bert.js /tmp/models/bert-base-random 1 base
 */
import * as tf from "@tensorflow/tfjs";
import { existsSync } from "node:fs";
import { readLines } from "../src/io/lines.js";
import { selectBackend, describeBackend } from "../src/nn/backend.js";
import { TransformersEncoder } from "../src/ranker/transformers.js";
import { RankerModel, marginLoss } from "../src/ranker/model.js";
import { scoreSides } from "../src/ranker/run-model.js";
import { Adam } from "../src/nn/adam.js";
import { Rng } from "../src/core/prng.js";
import type { PreparedSide } from "../src/core/scorer.js";
import { int, parseArgs, str } from "./args.js";

const { opts } = parseArgs({
  name: "bench-transformers",
  summary: "Speed of the transformers:<model> encoder: frozen feature extraction and the ranker on top, scoring and training.",
  options: {
    modelDir: str("folder holding the model", undefined, { value: "DIR", required: true }),
    model: str("model name under --model-dir", undefined, { value: "NAME", required: true }),
    sides: int("sides to featurize and score", 256),
    pairs: int("pairs to train on", 32),
    backend: str("tfjs backend", "auto", { value: "NAME" }),
    lengths: str("side lengths follow this file's lines", "../shared/data/wmt/wmt22/txt/references/generaltest2022.ru-en.ref.A.en", { value: "FILE" }),
  },
});
const modelDir = opts.modelDir;
const modelName = opts.model;
const nSides = opts.sides;
const nPairs = opts.pairs;
const lengthsFile = opts.lengths;
const backend = await selectBackend(opts.backend);
const rng = new Rng(1);

// One piece each (in BERT-base-cased and in the fixture vocabulary), plus "<word>s" forms that split in two.
const ONE = "the a and of to in is was it he she they we you his her them their this that who said not do be have has had will would can could there here what when".split(" ");
const word = (): string => (rng.next() < 0.25 ? `${ONE[rng.int(ONE.length)]}s` : ONE[rng.int(ONE.length)]!);
const lineLengths = existsSync(lengthsFile) ? readLines(lengthsFile).map((l) => Math.max(1, l.split(/\s+/).filter(Boolean).length)) : [];
const len = (i: number): number => (lineLengths.length ? lineLengths[i % lineLengths.length]! : 25);
const makeSide = (i: number): PreparedSide => {
  const ctx = len(i) + len(i + 1);
  const n = ctx + len(i + 2);
  const tokens = Array.from({ length: n }, (_, k) => (k === ctx ? "he" : word()));
  return { tokens, sentStart: ctx, pronounPos: [ctx], truncated: 0 };
};
const sides = Array.from({ length: nSides }, (_, i) => makeSide(i * 3));
const words = sides.reduce((a, s) => a + s.tokens.length, 0);

const t0 = performance.now();
const enc = await TransformersEncoder.load({ kind: `transformers:${modelName}` }, { modelDir });
const loadSeconds = (performance.now() - t0) / 1000;
const cfg = enc.config();
console.log(`${describeBackend(backend)}; model ${String(cfg.modelPath)}: hidden ${enc.dim}, mixes ${(cfg.layerOutputs as string[]).join(", ")}, max positions ${String(cfg.maxPositions)}`);
const pieces = sides.reduce((a, s) => a + enc.countPieces(s), 0);

// 1. Frozen features only (CPU seconds too: on a shared, loaded machine wall time overstates).
let t = performance.now();
const c0 = process.cpuUsage();
for (let k = 0; k < sides.length; k += 64) {
  const part = sides.slice(k, k + 64);
  enc.disposeFeatures(await enc.featurize(part, Math.max(...part.map((s) => s.tokens.length))));
}
const featSeconds = (performance.now() - t) / 1000;
const cu = process.cpuUsage(c0);
const featCpuSeconds = (cu.user + cu.system) / 1e6;

// 2. Scoring with the ranker head (what `proneval score` does per unique side).
const model = new RankerModel(enc, { head: "attention", slots: 16 }, new Rng(2));
t = performance.now();
await scoreSides(model, sides, { batchSize: 64 });
const scoreSeconds = (performance.now() - t) / 1000;

// 3. Training steps: features + forward + backward + Adam on batches of 8 pairs (16 sides).
const params = model.allParams();
const adam = new Adam(params, 1e-3);
t = performance.now();
let trained = 0;
for (let k = 0; k + 16 <= Math.min(2 * nPairs, sides.length); k += 16) {
  const batch = await model.makeBatch(sides.slice(k, k + 16));
  const { value, grads } = tf.variableGrads(() => {
    const { y } = model.forward(batch, true, k);
    return marginLoss(y.slice(0, 8), y.slice(8, 8));
  }, [...params.values()]);
  const byName = new Map<string, tf.Tensor>();
  for (const [name, p] of params) if (grads[p.name]) byName.set(name, grads[p.name]!);
  adam.apply(byName, 5);
  tf.dispose([value, ...Object.values(grads)]);
  model.disposeBatch(batch);
  trained += 8;
}
const trainSeconds = (performance.now() - t) / 1000;
adam.dispose();
model.dispose();

console.log(
  JSON.stringify({
    sides: nSides,
    wordsPerSide: +(words / nSides).toFixed(1),
    piecesPerWord: +(pieces / words).toFixed(2),
    loadSeconds: +loadSeconds.toFixed(2),
    featurizeSidesPerSec: +(nSides / featSeconds).toFixed(1),
    featurizePiecesPerSec: Math.round(pieces / featSeconds),
    featurizeCpuSecondsPerSide: +(featCpuSeconds / nSides).toFixed(4),
    scoreSidesPerSec: +(nSides / scoreSeconds).toFixed(1),
    extrapolatedScoreSecondsFor3000Segments: +((2 * 3000) / (nSides / scoreSeconds)).toFixed(0),
    trainPairsPerSec: +(trained / trainSeconds).toFixed(2),
    peakRssMB: Math.round(process.resourceUsage().maxRSS / 1024),
  }),
);
