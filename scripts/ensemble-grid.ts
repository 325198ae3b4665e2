/**
 * For information only (never used to choose the weight): accuracy of ranker + a * zero-shot PMI
 * on a pair file for a grid of a, overall and by kind, from one scoring of each component.
 *   node dist/scripts/ensemble-grid.js --pairs out/pairs/dev.jsonl.gz [--ranker checkpoints/default]
 *       [--lm checkpoints/pronoun-lm] [--grid 0,0.01,0.02] [--backend wasm]
 */
import { loadRankerScorer as loadScorer } from "../src/ranker/scorer.js";
import { readRankerPairs } from "../src/nn/data.js";
import { loadPronounLm } from "../src/pretrain/checkpoint.js";
import { componentDiffs, pairAccuracy } from "../src/metric/ensemble.js";
import { nums, parseArgs, str } from "./args.js";

const { opts } = parseArgs({
  name: "ensemble-grid",
  summary: "For information only: accuracy of ranker + a * zero-shot PMI on a pair file for a grid of a.",
  options: {
    pairs: str("pair file", undefined, { value: "FILE", required: true }),
    ranker: str("ranker checkpoint", "checkpoints/default", { value: "DIR" }),
    lm: str("masked-pronoun model", "checkpoints/pronoun-lm", { value: "DIR" }),
    grid: nums("weights a (1e9: the zero-shot scorer alone)", "0,0.005,0.01,0.01029,0.01435,0.02,0.03,0.04345,0.06,0.08,0.1,0.15,0.2,0.5,1e9"),
    backend: str("tfjs backend", "wasm", { value: "NAME" }),
  },
});
const pairsFile = opts.pairs;
const grid = opts.grid;
const ranker = await loadScorer(opts.ranker, { backend: opts.backend, threads: "auto" });
const { lm } = loadPronounLm(opts.lm);
const pairs = await readRankerPairs(pairsFile, ranker.contextMode);
const t0 = performance.now();
const { dr, dz } = await componentDiffs(ranker, lm, pairs, ranker.contextMode);
console.log(`${pairsFile}: ${pairs.length} pairs, both components scored in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
const kinds = [...new Set(pairs.map((p) => p.kind))].sort();
const pick = (k: string) => {
  const idx = pairs.map((p, i) => (p.kind === k ? i : -1)).filter((i) => i >= 0);
  return { r: Float64Array.from(idx, (i) => dr[i]!), z: Float64Array.from(idx, (i) => dz[i]!) };
};
const byKind = kinds.map((k) => [k, pick(k)] as const);
console.log(["a", "all", ...kinds].join("\t"));
for (const a of grid) {
  // a = 1e9 stands for the zero-shot scorer alone (the ranker only breaks exact ties).
  const cells = [pairAccuracy(dr, dz, a), ...byKind.map(([, s]) => pairAccuracy(s.r, s.z, a))].map((x) => (100 * x).toFixed(2));
  console.log([a >= 1e9 ? "inf" : String(a), ...cells].join("\t"));
}
ranker.dispose();
lm.dispose();
