/**
 * Scoring speed of a scorer: one WMT system against its reference, CRC context, on the shipped
 * checkpoint (or --checkpoint DIR), in the default mode (or --mode). Prints segments/s, wall time, the time
 * extrapolated to 3000 segments (target: < 5 s on 2 cores), and peak RSS; in a mode other than sentence it also
 * times sentence mode in the same process and prints the ratio.
 *   node dist/scripts/bench-score.js [--ref FILE --hyp FILE] [--checkpoint DIR] [--mode M] [--backend wasm] [--threads auto|N] [--repeat N]
 * With 2 threads the CPU seconds are summed over both (process.cpuUsage covers worker threads).
 */
import { loadScorer } from "../src/metric/load.js";
import { readScoringInput, scoreTestSet } from "../src/metric/testset.js";
import { segmentCount } from "../src/io/model.js";
import { COMPARE_MODES, DEFAULT_MODE, type CompareMode } from "../src/metric/decide.js";
import { int, oneOf, parseArgs, str } from "./args.js";

const D = "../shared/data/wmt/wmt22/txt";
const { opts } = parseArgs({
  name: "bench-score",
  summary: "Scoring speed of a scorer: one WMT system against its reference, CRC context; other modes than sentence are also timed against sentence mode.",
  options: {
    ref: str("reference file", `${D}/references/generaltest2022.ru-en.ref.A.en`, { value: "FILE" }),
    hyp: str("system output file", `${D}/system-outputs/generaltest2022.ru-en.hyp.Online-A.en`, { value: "FILE" }),
    checkpoint: str("scorer directory (ranker, ensemble or masked-pronoun model)", undefined, { value: "DIR", defaultText: "the shipped default" }),
    mode: oneOf("how the output is read (score --mode)", COMPARE_MODES, DEFAULT_MODE),
    backend: str("tfjs backend", "auto", { value: "NAME" }),
    threads: str("scoring threads", "auto", { value: "auto|N" }),
    repeat: int("timed runs (the best is kept)", 1),
  },
});
const ref = opts.ref;
const hyp = opts.hyp;
const repeat = opts.repeat;

const t0 = performance.now();
const threadsArg = opts.threads;
const scorer = await loadScorer(opts.checkpoint, { backend: opts.backend, threads: threadsArg === "auto" ? "auto" : Number(threadsArg) });
const tLoad = (performance.now() - t0) / 1000;
const input = await readScoringInput(ref, [hyp], { format: "text" });
const segs = segmentCount(input.testSet);
console.log(`${scorer.backendLine}; scoring threads: ${threadsArg}`);
console.log(`checkpoint ${scorer.dir} (${scorer.modelSignature()}, ${scorer.contextMode})`);
/** Best wall and CPU seconds of `repeat` runs in one mode. */
async function time(mode: CompareMode): Promise<{ best: number; bestCpu: number }> {
  let best = Infinity;
  let bestCpu = Infinity;
  for (let r = 0; r < repeat; r++) {
    const t = performance.now();
    const c0 = process.cpuUsage();
    const [res] = await scoreTestSet(scorer, input.testSet, input.systems, { context: "crc", mode });
    best = Math.min(best, (performance.now() - t) / 1000);
    const cu = process.cpuUsage(c0);
    // CPU time of this process: on a shared, loaded machine it is the better estimate of the unloaded wall time.
    bestCpu = Math.min(bestCpu, (cu.user + cu.system) / 1e6);
    if (r === 0) console.log(`${mode}: system score ${res!.summary.score.toFixed(2)} over ${res!.summary.pronounSegments} pronoun segments (${res!.summary.noPronounSegments} without)`);
  }
  return { best, bestCpu };
}
const { best, bestCpu } = await time(opts.mode);
const reference = opts.mode === "sentence" ? undefined : await time("sentence");
console.log(
  JSON.stringify({
    mode: opts.mode,
    segments: segs,
    loadSeconds: +tLoad.toFixed(2),
    scoreSeconds: +best.toFixed(2),
    scoreCpuSeconds: +bestCpu.toFixed(2),
    segmentsPerSec: +(segs / best).toFixed(1),
    segmentsPerCpuSec: +(segs / bestCpu).toFixed(1),
    extrapolatedSecondsFor3000Segments: +((3000 * best) / segs).toFixed(1),
    extrapolatedCpuSecondsFor3000Segments: +((3000 * bestCpu) / segs).toFixed(1),
    ...(reference ? { sentenceScoreSeconds: +reference.best.toFixed(2), sentenceScoreCpuSeconds: +reference.bestCpu.toFixed(2), cpuRatioToSentence: +(bestCpu / reference.bestCpu).toFixed(2) } : {}),
    peakRssMB: Math.round(process.resourceUsage().maxRSS / 1024),
  }),
);
scorer.dispose();
