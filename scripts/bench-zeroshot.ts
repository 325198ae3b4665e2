/**
 * Zero-shot scoring speed, single-pass (one pass per direction + one step per pronoun) against the
 * reference masked path (one full pass per pronoun), in the same process on the same sides: one WMT
 * system with its reference, CRC context, masked-pronoun model (default checkpoints/pronoun-lm).
 * Prints segments/s both ways, the ratio, the largest |difference| of the per-pronoun
 * log-probabilities between the two, and peak RSS (after the single-pass runs, and at the end).
 *   node dist/scripts/bench-zeroshot.js [--ref FILE] [--hyp SYSTEM] [--lm DIR] [--backend wasm] [--max-segments N]
 */
import { readScoringInput } from "../src/metric/testset.js";
import { describeBackend } from "../src/nn/backend.js";
import { loadZeroShotScorer } from "../src/pretrain/scorer.js";
import { zeroShotScores, type ZeroShotMethod } from "../src/pretrain/zeroshot.js";
import type { PreparedSide } from "../src/core/scorer.js";
import { int, parseArgs, str } from "./args.js";

const { opts } = parseArgs({
  name: "bench-zeroshot",
  summary: "Zero-shot scoring speed, single-pass against the masked path, on one WMT system with its reference.",
  options: {
    ref: str("test set (WMT XML) or reference file", "../shared/data/wmt/wmt23/xml/wmttest2023.ru-en.all.xml.gz", { value: "FILE" }),
    hyp: str("system (a name in the test set, or a file)", "ONLINE-B", { value: "SYSTEM" }),
    lm: str("masked-pronoun model", undefined, { value: "DIR", defaultText: "checkpoints/pronoun-lm" }),
    backend: str("tfjs backend", "wasm", { value: "NAME" }),
    maxSegments: int("at most this many segments (0: all)", 0),
  },
});
const ref = opts.ref;
const hyp = opts.hyp;
const maxSegs = opts.maxSegments;

const scorer = await loadZeroShotScorer(opts.lm, { backend: opts.backend, aggregate: "pmi" });
const input = await readScoringInput(ref, [hyp]);
const refName = input.testSet.references[0]!;
const n = scorer.lmConfig.prepare.contextSentences;
// The sides `proneval score --zero-shot` scores: reference and system, CRC context (the reference's previous segments).
const sides: PreparedSide[] = [];
let segments = 0;
for (const d of input.testSet.docs) {
  const r = d.refs[refName]!;
  const s = d.hyps[hyp]!;
  for (let i = 0; i < r.length && (!maxSegs || segments < maxSegs); i++, segments++) {
    const ctx = r.slice(Math.max(0, i - n), i);
    sides.push(scorer.prepare({ context: ctx, sentence: r[i]! }), scorer.prepare({ context: ctx, sentence: s[i]! }));
  }
}
const pronounsN = sides.reduce((a, s) => a + s.pronounPos.length, 0);
console.log(`${describeBackend(scorer.backend)}; model ${scorer.dir}`);
console.log(`${ref} ${hyp}: ${segments} segments, ${sides.length} sides (CRC), ${pronounsN} sentence pronouns`);

const run = (m: ZeroShotMethod) => {
  const c0 = process.cpuUsage();
  const t = performance.now();
  const r = zeroShotScores(scorer.lm, sides, 128, undefined, m);
  const s = (performance.now() - t) / 1000;
  const cu = process.cpuUsage(c0);
  return { r, s, cpu: (cu.user + cu.system) / 1e6 };
};
run("single-pass"); // warm-up (kernel set-up, allocation)
const fast = run("single-pass");
const rssSinglePass = Math.round(process.resourceUsage().maxRSS / 1024);
const slow = run("masked");
let maxDiff = 0;
fast.r.forEach((f, i) => f.logProbs.forEach((x, k) => (maxDiff = Math.max(maxDiff, Math.abs(x - slow.r[i]!.logProbs[k]!)))));
const res = {
  segments,
  sides: sides.length,
  pronouns: pronounsN,
  singlePass: { seconds: +fast.s.toFixed(2), cpuSeconds: +fast.cpu.toFixed(2), segmentsPerSec: +(segments / fast.s).toFixed(1) },
  masked: { seconds: +slow.s.toFixed(2), cpuSeconds: +slow.cpu.toFixed(2), segmentsPerSec: +(segments / slow.s).toFixed(1) },
  speedupWall: +(slow.s / fast.s).toFixed(2),
  speedupCpu: +(slow.cpu / fast.cpu).toFixed(2),
  maxAbsLogProbDiff: +maxDiff.toExponential(2),
  peakRssMBAfterSinglePass: rssSinglePass,
  peakRssMB: Math.round(process.resourceUsage().maxRSS / 1024),
};
console.log(JSON.stringify(res));
scorer.dispose();
