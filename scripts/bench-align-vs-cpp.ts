/**
 * Speed of our fast_align against C++ fast_align, side by side in one run: one direction, -d -o -v,
 * whole command (read, train 5 iterations, write), at several corpus sizes, with one thread and with
 * two (C++: OpenMP, OMP_NUM_THREADS=2; ours: --threads 2, same output as one thread). Prints wall
 * seconds, pairs/s, peak RSS and the ratio C++ time / our time (> 1: ours faster).
 * Usage: node dist/scripts/bench-align-vs-cpp.js --fast-align PATH [--sizes 25000,50000,100000] [--repeat 1]
 *          [--data ../shared/data/wmt]
 * The corpus is scripts/fast-align-corpus.ts's (wmt21-23 into English, under --data). Needs /usr/bin/time for peak RSS.
 * Without --fast-align, the binary named by FAST_ALIGN_BIN.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PACKAGE_ROOT } from "../src/version.js";
import { buildComparisonCorpus, fastAlignBin } from "./fast-align-corpus.js";
import { int, nums, parseArgs, str } from "./args.js";

const { opts } = parseArgs({
  name: "bench-align-vs-cpp",
  summary: "Speed of our fast_align against C++ fast_align, side by side, at several corpus sizes, one thread and two.",
  options: {
    fastAlign: str("the C++ fast_align binary", undefined, { value: "PATH", defaultText: "$FAST_ALIGN_BIN" }),
    sizes: nums("corpus sizes (pairs)", "25000,50000,100000"),
    repeat: int("runs per cell (the best is kept)", 1),
    data: str("the WMT folder (wmt21-23 into English)", join(PACKAGE_ROOT, "..", "shared", "data", "wmt"), { value: "DIR", defaultText: "../shared/data/wmt beside the project" }),
  },
});
const bin = fastAlignBin("bench-align-vs-cpp", "give the C++ binary with --fast-align PATH (see scripts/compare-fast-align.ts)", opts.fastAlign);
const sizes = opts.sizes;
const repeat = opts.repeat;
const dataDir = opts.data;
const cli = join(PACKAGE_ROOT, "dist", "src", "cli", "index.js");
const haveTime = existsSync("/usr/bin/time");

function timed(cmd: string, args: string[], env: NodeJS.ProcessEnv): { seconds: number; peakMb: number } {
  const full = haveTime ? ["/usr/bin/time", ["-f", "%M", cmd, ...args]] : [cmd, args];
  const t0 = performance.now();
  const r = spawnSync(full[0] as string, full[1] as string[], { encoding: "utf8", maxBuffer: 1 << 30, env: { ...process.env, ...env } });
  const seconds = (performance.now() - t0) / 1000;
  if (r.status !== 0) throw new Error(`${cmd} failed (${r.status}): ${r.stderr.slice(-1000)}`);
  const kb = haveTime ? Number(r.stderr.trim().split("\n").pop()) : NaN;
  return { seconds, peakMb: kb / 1024 };
}

const work = mkdtempSync(join(tmpdir(), "bench-fa-"));
const all = await buildComparisonCorpus(["wmt21", "wmt22", "wmt23"].map((y) => join(dataDir, y)), Math.max(...sizes));
const load = (): string => (spawnSync("cat", ["/proc/loadavg"], { encoding: "utf8" }).stdout ?? "").split(" ").slice(0, 3).join(" ");
process.stdout.write(`fast_align -d -o -v, one direction, whole run; best of ${repeat}; load average at start ${load()}\n`);
process.stdout.write("| pairs | threads | C++ s | ours s | C++ pairs/s | ours pairs/s | C++ peak MB | ours peak MB | C++ s / ours s |\n| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
for (const n of sizes) {
  const file = join(work, `corpus.${n}.txt`);
  writeFileSync(file, all.slice(0, n).join("\n") + "\n");
  for (const threads of [1, 2]) {
    const best = (f: () => { seconds: number; peakMb: number }) => {
      let b = f();
      for (let r = 1; r < repeat; r++) {
        const x = f();
        if (x.seconds < b.seconds) b = x;
      }
      return b;
    };
    // Alternate the tools so that load changes hit both alike.
    const cpp = best(() => timed(bin, ["-i", file, "-d", "-o", "-v"], { OMP_NUM_THREADS: String(threads) }));
    const ours = best(() => timed("node", [cli, "align", "-i", file, "-d", "-o", "-v", "--threads", String(threads), "--output", join(work, "out.align")], {}));
    process.stdout.write(
      `| ${n} | ${threads} | ${cpp.seconds.toFixed(1)} | ${ours.seconds.toFixed(1)} | ${Math.round(n / cpp.seconds)} | ${Math.round(n / ours.seconds)} | ` +
        `${cpp.peakMb.toFixed(0)} | ${ours.peakMb.toFixed(0)} | **${(cpp.seconds / ours.seconds).toFixed(2)}x** |\n`,
    );
  }
}
process.stdout.write(`load average at end ${load()}\n`);
rmSync(work, { recursive: true, force: true });
