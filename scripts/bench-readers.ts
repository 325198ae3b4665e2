/**
 * Times loading every into-English test set of the given WMT year directories (default wmt21-23),
 * as discovery picks them (XML where a pair has it, else text), then the text layout of every pair.
 *
 *   node dist/scripts/bench-readers.js [YEAR_DIR ...]
 * Prints wall time, segments and system segments (hypothesis lines) per second, and peak RSS.
 */
import { join } from "node:path";
import { findTestSets, loadTestSet, type TestSetFilter } from "../src/io/discover.js";
import { segmentCount } from "../src/io/model.js";
import { parseArgs } from "./args.js";

const { args: yearDirs } = parseArgs({
  name: "bench-readers",
  summary: "Times loading every into-English test set of WMT year folders, XML and text layouts.",
  options: {},
  positionals: [{ name: "YEAR_DIR", description: "WMT year folders", optional: true, variadic: true, defaultText: "../shared/data/wmt/wmt21 .. wmt23" }],
});

async function run(dirs: string[], label: string, filter: TestSetFilter): Promise<void> {
  const t0 = performance.now();
  let sets = 0;
  let segs = 0;
  let hypSegs = 0;
  let bytes = 0;
  for (const dir of dirs) {
    for (const loc of findTestSets(dir, filter)) {
      const ts = await loadTestSet(loc);
      sets++;
      const n = segmentCount(ts);
      segs += n;
      hypSegs += n * ts.systems.length;
      for (const d of ts.docs) {
        for (const s of d.src ?? []) bytes += s.length;
        for (const r of Object.values(d.refs)) for (const s of r) bytes += s.length;
        for (const h of Object.values(d.hyps)) for (const s of h) bytes += s.length;
      }
    }
  }
  const sec = (performance.now() - t0) / 1000;
  console.log(
    `${label}: ${sets} test sets, ${segs} segments, ${hypSegs} system segments, ${(bytes / 1e6).toFixed(1)}M chars in ${sec.toFixed(2)} s ` +
      `(${Math.round(hypSegs / sec)} system segments/s)`,
  );
}

async function main(): Promise<void> {
  let dirs = yearDirs;
  if (dirs.length === 0) dirs = ["wmt21", "wmt22", "wmt23"].map((y) => join("..", "shared", "data", "wmt", y));
  await run(dirs, "into-English, XML preferred", { intoEnglish: true });
  await run(dirs, "into-English, XML only     ", { intoEnglish: true, format: "wmt-xml" });
  await run(dirs, "into-English, text only    ", { intoEnglish: true, format: "wmt-txt" });
  console.log(`peak RSS: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
}

void main();
