/**
 * Our fast_align against the C++ tool on real data: identical output lines and final tension of
 * both, per flag set and direction. The C++ tool is built by you from its public source (never
 * committed), e.g.
 *   git clone https://github.com/clab/fast_align && cd fast_align && mkdir build && cd build &&
 *   cmake -DCMAKE_BUILD_TYPE=Release .. && make fast_align
 * Usage:
 *   node dist/scripts/compare-fast-align.js --fast-align PATH [--lines 100000] [--flags "-d -o -v;-d -o -v -r"]
 *        [--data ../shared/data/wmt | --corpus FILE] [--keep DIR]
 *   node dist/scripts/compare-fast-align.js --fast-align PATH --fixture test/fixtures/fast-align \
 *        --corpus <(zcat ../shared/golden/fast-align/corpus.txt.gz)     (regenerates the test fixture: its first 1,500 lines)
 * The C++ tool runs single-threaded (OMP_NUM_THREADS=1), ours with --threads 1 (same output as more threads).
 * Without --fast-align, the binary named by FAST_ALIGN_BIN. --keep DIR keeps the work files there.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { PACKAGE_ROOT } from "../src/version.js";
import { buildComparisonCorpus, cppFinalTension, fastAlignBin } from "./fast-align-corpus.js";
import { int, parseArgs, str } from "./args.js";

const { opts } = parseArgs({
  name: "compare-fast-align",
  summary: "Our fast_align against the C++ tool on real data: identical output lines and final tension, per flag set and direction.",
  options: {
    fastAlign: str("the C++ fast_align binary", undefined, { value: "PATH", defaultText: "$FAST_ALIGN_BIN" }),
    lines: int("corpus lines", undefined, { defaultText: "100000, 1500 with --fixture" }),
    flags: str("fast_align flag sets, separated by ';'", "-d -o -v;-d -o -v -r", { value: "\"FLAGS;FLAGS\"" }),
    data: str("the WMT folder (wmt21-23 into English)", join(PACKAGE_ROOT, "..", "shared", "data", "wmt"), { value: "DIR", defaultText: "../shared/data/wmt beside the project" }),
    corpus: str("read the corpus from this file instead of --data", undefined, { value: "FILE" }),
    keep: str("keep the work files in this folder", undefined, { value: "DIR" }),
    fixture: str("regenerate the golden test's fixture in this folder", undefined, { value: "DIR" }),
  },
});
const bin = fastAlignBin("compare-fast-align", "give the C++ binary with --fast-align PATH (or FAST_ALIGN_BIN); see the header of this script", opts.fastAlign);
const dataDir = opts.data;
const fixture = opts.fixture;
const nLines = opts.lines ?? (fixture ? 1500 : 100000);
const flagSets = opts.flags.split(";").map((f) => f.trim().split(/\s+/).filter(Boolean));
const cli = join(PACKAGE_ROOT, "dist", "src", "cli", "index.js");

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv = {}): { stdout: string; stderr: string } {
  const r = spawnSync(cmd, args, { encoding: "utf8", maxBuffer: 1 << 30, env: { ...process.env, ...env } });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} exited with ${r.status}: ${r.stderr.slice(-2000)}`);
  return { stdout: r.stdout, stderr: r.stderr };
}

const work = opts.keep ?? mkdtempSync(join(tmpdir(), "cmp-fa-"));
mkdirSync(work, { recursive: true });
const corpus = join(work, "corpus.txt");
const given = opts.corpus;
const lines = given
  ? readFileSync(given, "utf8").replace(/\n$/, "").split("\n").slice(0, nLines)
  : await buildComparisonCorpus(["wmt21", "wmt22", "wmt23"].map((y) => join(dataDir, y)), nLines);
writeFileSync(corpus, lines.join("\n") + "\n");
process.stdout.write(`corpus: ${lines.length} lines of ${given ?? "wmt21-23 into-English reference ||| system output"} (${corpus})\n`);

if (fixture) {
  // The golden test's fixture: corpus and what the C++ tool prints for it.
  const env = { OMP_NUM_THREADS: "1" };
  const put = (name: string, text: string): void => writeFileSync(join(fixture, name), gzipSync(text, { level: 9 }));
  put("corpus.txt.gz", readFileSync(corpus, "utf8"));
  const fwd = run(bin, ["-i", corpus, "-d", "-o", "-v"], env);
  put("fwd.d-o-v.align.gz", fwd.stdout);
  put("fwd.log.gz", fwd.stderr);
  const rev = run(bin, ["-i", corpus, "-d", "-o", "-v", "-r"], env);
  put("rev.d-o-v.align.gz", rev.stdout);
  put("rev.log.gz", rev.stderr);
  put("fwd.plain.align.gz", run(bin, ["-i", corpus], env).stdout);
  put("rev.N.align.gz", run(bin, ["-i", corpus, "-r", "-N"], env).stdout);
  put("fwd.d-v-I4-T2-q0.1-a0.05.align.gz", run(bin, ["-i", corpus, "-d", "-v", "-I", "4", "-T", "2", "-q", "0.1", "-a", "0.05"], env).stdout);
  const table = join(work, "ttable.txt");
  run(bin, ["-i", corpus, "-d", "-o", "-v", "-p", table], env);
  put("fwd.d-o-v.ttable.txt.gz", readFileSync(table, "utf8"));
  process.stdout.write(`fixture written to ${fixture}\n`);
} else {
  process.stdout.write("| flags | C++ final tension | ours | ours --exact-tension | identical lines (default) | identical lines (--exact-tension) |\n| --- | ---: | ---: | ---: | ---: | ---: |\n");
  for (const flags of flagSets) {
    const cpp = run(bin, ["-i", corpus, ...flags], { OMP_NUM_THREADS: "1" });
    const res = [false, true].map((exact) => {
      const out = join(work, `ours${exact ? ".exact" : ""}.align`);
      const r = run("node", [cli, "align", "-i", corpus, ...flags, "--threads", "1", "--verbose", "--output", out, ...(exact ? ["--exact-tension"] : [])]);
      const tension = [...r.stderr.matchAll(/tension ([\d.e+-]+),/g)].pop()?.[1];
      const a = cpp.stdout.replace(/\n$/, "").split("\n");
      const b = readFileSync(out, "utf8").replace(/\n$/, "").split("\n");
      let same = 0;
      for (let k = 0; k < a.length; k++) if (a[k] === b[k]) same++;
      if (a.length !== b.length) throw new Error(`line counts differ: C++ ${a.length}, ours ${b.length}`);
      return { tension: tension === undefined ? "-" : Number(tension).toPrecision(6), same, total: a.length };
    });
    const pct = (r: { same: number; total: number }): string => `${((100 * r.same) / r.total).toFixed(3)}% (${r.total - r.same} differ)`;
    const ct = cppFinalTension(cpp.stderr);
    process.stdout.write(
      `| ${flags.join(" ")} | ${ct === undefined ? "-" : ct} | ${res[0]!.tension} | ${res[1]!.tension} | ${pct(res[0]!)} | ${pct(res[1]!)} |\n`,
    );
  }
}
if (!opts.keep) rmSync(work, { recursive: true, force: true });
