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

function arg(name: string, def?: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : def;
}

const pairsFile = arg("pairs")!;
if (!pairsFile) throw new Error("--pairs FILE is required");
const grid = arg("grid", "0,0.005,0.01,0.01029,0.01435,0.02,0.03,0.04345,0.06,0.08,0.1,0.15,0.2,0.5,1e9")!.split(",").map(Number);
const ranker = await loadScorer(arg("ranker", "checkpoints/default")!, { backend: arg("backend", "wasm"), threads: "auto" });
const { lm } = loadPronounLm(arg("lm", "checkpoints/pronoun-lm")!);
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
