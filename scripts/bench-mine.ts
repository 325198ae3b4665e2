/**
 * End-to-end mining benchmark: reads every into-English test set of the given WMT year directories,
 * aligns all reference/system pairs with fast_align (both directions, 2 worker threads) and writes the
 * mismatches, printing wall time per stage, throughput and peak memory.
 * Usage: node dist/scripts/bench-mine.js [DIR...]   (default: ../shared/data/wmt/wmt21 wmt22 wmt23)
 */
import { tmpdir } from "node:os";
import { join } from "node:path";
import { rmSync, mkdtempSync } from "node:fs";
import { runMine } from "../src/mine/run.js";
import { parseArgs } from "./args.js";

const { args: dirs } = parseArgs({
  name: "bench-mine",
  summary: "End-to-end mining benchmark: read, align and mine every into-English test set of the WMT year folders.",
  options: {},
  positionals: [{ name: "DIR", description: "WMT year folders", optional: true, variadic: true, defaultText: "../shared/data/wmt/wmt21 wmt22 wmt23" }],
});
const inputs = dirs.length ? dirs : ["wmt21", "wmt22", "wmt23"].map((y) => join("..", "shared", "data", "wmt", y));
const out = mkdtempSync(join(tmpdir(), "bench-mine-"));
const t0 = performance.now();
const marks: Array<[string, number]> = [];
const stats = await runMine(inputs, {
  output: join(out, "mm.jsonl.gz"),
  threads: 2,
  log: (m) => marks.push([m, performance.now() - t0]),
});
const total = (performance.now() - t0) / 1000;
const readDone = marks.find(([m]) => m.startsWith("aligning"))?.[1] ?? 0;
rmSync(out, { recursive: true, force: true });
const maxRssMb = process.resourceUsage().maxRSS / 1024;
console.log(`inputs: ${inputs.join(" ")}`);
console.log(`test sets: ${stats.testsets}, segment pairs: ${stats.segmentPairs}, mismatches: ${stats.mismatches}`);
console.log(`read + tokenise: ${(readDone / 1000).toFixed(1)} s; align + mine + write: ${(total - readDone / 1000).toFixed(1)} s`);
console.log(`end to end: ${total.toFixed(1)} s (${(stats.segmentPairs / total).toFixed(0)} segment pairs/s); target < 600 s`);
console.log(`peak memory (max RSS, main thread + workers): ${maxRssMb.toFixed(0)} MB; target < 4096 MB`);
