// Benchmark of the TypeScript fast_align against the C++ original (when FAST_ALIGN_BIN is set).
// Corpus: English-English pairs (WMT reference ||| system output), lowercased, whitespace-split.
// Usage: node dist/scripts/bench-align.js [--pairs 100000] [--data DIR] [--keep FILE] [--no-bidi]
//        node dist/scripts/bench-align.js --agreement wmt23/de-en [--configs 0,1,2,3,4]   (alignment quality proxies, no timing)
//        node dist/scripts/bench-align.js --bidi-only FILE   (alignBidirectional alone on a corpus; the main run calls it)
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readParallel } from "../src/align/command.js";
import { alignBidirectional, alignBidirectionalEncoded, type Links } from "../src/align/index.js";
import { trainEncoded, type AlignOptions, type IterationStats } from "../src/align/train.js";
import { readLines } from "../src/io/lines.js";
import { PACKAGE_ROOT } from "../src/version.js";
import { flag, int, parseArgs, str } from "./args.js";

const { opts } = parseArgs({
  name: "bench-align",
  summary: "Benchmark of the TypeScript fast_align against the C++ original (when FAST_ALIGN_BIN is set), on English-English WMT pairs.",
  options: {
    pairs: int("corpus pairs (cycling through the data if short)", 100000),
    data: str("WMT year text folder (references/, system-outputs/)", join(PACKAGE_ROOT, "..", "shared", "data", "wmt", "wmt21", "txt"), { value: "DIR", defaultText: "../shared/data/wmt/wmt21/txt beside the project" }),
    keep: str("write the corpus to this file and keep it", undefined, { value: "FILE" }),
    noBidi: flag("leave out the bidirectional run in a fresh process"),
    agreement: str("alignment quality proxies of one test set instead (no timing)", undefined, { value: "YEAR/PAIR" }),
    configs: str("with --agreement: only these flag configurations (indices 0-4)", undefined, { value: "N,N,..." }),
    bidiOnly: str("alignBidirectional alone on this corpus file (the main run calls it in a fresh process)", undefined, { value: "FILE" }),
  },
});

const nPairs = opts.pairs;
const dataDir = opts.data;
const keep = opts.keep;
const iterations = 5;
const fastAlignBin = process.env.FAST_ALIGN_BIN;

/** reference ||| system lines for every into-English system output, until nPairs (cycling if short). */
function buildCorpus(): string[] {
  const refDir = join(dataDir, "references");
  const sysDir = join(dataDir, "system-outputs");
  const pool: string[] = [];
  for (const ref of readdirSync(refDir).filter((f) => /\.ref\.A\.en$/.test(f)).sort()) {
    const lp = ref.split(".")[1]!;
    const refLines = readLines(join(refDir, ref));
    for (const hyp of readdirSync(sysDir).filter((f) => f.startsWith(`newstest2021.${lp}.hyp.`) || f.includes(`.${lp}.hyp.`)).sort()) {
      const sys = readLines(join(sysDir, hyp));
      if (sys.length !== refLines.length) continue;
      for (let k = 0; k < sys.length; k++) {
        const a = refLines[k]!.toLowerCase().trim().split(/\s+/).filter(Boolean);
        const b = sys[k]!.toLowerCase().trim().split(/\s+/).filter(Boolean);
        if (a.length && b.length) pool.push(`${a.join(" ")} ||| ${b.join(" ")}`);
      }
    }
  }
  if (!pool.length) throw new Error(`no reference/system pairs under ${dataDir}`);
  const out: string[] = [];
  for (let k = 0; out.length < nPairs; k++) out.push(pool[k % pool.length]!);
  return out;
}

interface DirResult {
  emSeconds: number[];
  emCpu: number[];
  viterbiSeconds: number;
  totalSeconds: number;
  tension: number;
  lines: string[];
}

function runTs(file: string, reverse: boolean): DirResult {
  const t0 = performance.now();
  const { corpus } = readParallel(file);
  const emSeconds: number[] = [];
  const emCpu: number[] = [];
  let viterbiSeconds = 0;
  let cpu = process.cpuUsage();
  const r = trainEncoded(corpus, {
    reverse,
    favorDiagonal: true,
    optimizeTension: true,
    variationalBayes: true,
    exactTensionGradient: false, // the computation C++ fast_align does
    iterations,
    onIteration: (s: IterationStats) => {
      const d = process.cpuUsage(cpu);
      cpu = process.cpuUsage();
      if (s.final) viterbiSeconds = s.seconds;
      else {
        emSeconds.push(s.seconds);
        emCpu.push((d.user + d.system) / 1e6);
      }
    },
  });
  const totalSeconds = (performance.now() - t0) / 1000;
  const lines = Array.from({ length: r.links.count }, (_, k) => r.links.pharaoh(k));
  return { emSeconds, emCpu, viterbiSeconds, totalSeconds, tension: r.model.tension, lines };
}

interface CppRun {
  wall: number;
  cpu: number;
  maxRssKb: number;
  out: string;
}

function runCpp(file: string, reverse: boolean, iters: number): CppRun {
  const outFile = `${file}.cpp.${reverse ? "rev" : "fwd"}.${iters}`;
  const args = ["-f", "%e %U %S %M", "-o", `${outFile}.time`, fastAlignBin!, "-i", file, "-d", "-o", "-v", "-I", String(iters)];
  if (reverse) args.push("-r");
  const r = spawnSync("/usr/bin/time", args, { env: { ...process.env, OMP_NUM_THREADS: "1" }, maxBuffer: 1 << 30, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`fast_align failed (${r.status}): ${r.stderr?.slice(-500)}`);
  const [wall, user, sys, rss] = readFileSync(`${outFile}.time`, "utf8").trim().split(/\s+/).slice(-4).map(Number);
  unlinkSync(`${outFile}.time`);
  return { wall: wall!, cpu: user! + sys!, maxRssKb: rss!, out: r.stdout };
}

function mean(xs: number[]): number {
  return xs.reduce((a, b) => a + b, 0) / xs.length;
}

/** Links of sentence k as a set of "i-j" strings. */
function linkSet(l: Links, k: number): Set<string> {
  return new Set(l.get(k).map(([i, j]) => `${i}-${j}`));
}

/**
 * Quality proxies without gold alignments: forward/reverse agreement, and for English-English pairs the
 * "anchor recall" (a word occurring exactly once in each sentence should be linked to its twin) and the
 * share of links between identical words.
 */
async function agreement(spec: string): Promise<void> {
  const [year, lp] = spec.split("/");
  const base = join(PACKAGE_ROOT, "..", "shared", "data", "wmt", year!, "txt");
  const refFile = readdirSync(join(base, "references")).filter((f) => f.includes(`.${lp}.ref.`)).sort()[0];
  if (!refFile) throw new Error(`no reference for ${lp} under ${base}`);
  const ref = readLines(join(base, "references", refFile));
  const tok = (s: string): string[] => s.toLowerCase().trim().split(/\s+/).filter(Boolean);
  const src: string[][] = [];
  const tgt: string[][] = [];
  for (const hyp of readdirSync(join(base, "system-outputs")).filter((f) => f.includes(`.${lp}.hyp.`)).sort()) {
    const sys = readLines(join(base, "system-outputs", hyp));
    if (sys.length !== ref.length) continue;
    for (let k = 0; k < ref.length; k++) {
      const a = tok(ref[k]!);
      const b = tok(sys[k]!);
      if (a.length && b.length) {
        src.push(a);
        tgt.push(b);
      }
    }
  }
  console.log(`${spec}: ${src.length} reference ||| system pairs (${refFile}), lowercased, whitespace tokens`);
  const configs: [string, AlignOptions][] = [
    ["-d -o -v (fast_align's gradient)", { exactTensionGradient: false }],
    ["-d -o -v --exact-tension", { exactTensionGradient: true }],
    ["-d -v (tension 4 fixed)", { optimizeTension: false }],
    ["-v (Model 1 + VB)", { favorDiagonal: false, optimizeTension: false }],
    ["(Model 1, plain EM)", { favorDiagonal: false, optimizeTension: false, variationalBayes: false }],
  ];
  const only = opts.configs;
  for (const [ci, [label, opts]] of configs.entries()) {
    if (only && !only.split(",").includes(String(ci))) continue;
    const r = await alignBidirectional(src, tgt, { ...opts, threads: 2 });
    let inter = 0;
    let uni = 0;
    let nf = 0;
    let nr = 0;
    let anchors = 0;
    const anchorHits = { forward: 0, reverse: 0, gdfa: 0 };
    let symLinks = 0;
    let symSame = 0;
    for (let k = 0; k < src.length; k++) {
      const f = linkSet(r.forward, k);
      const v = linkSet(r.reverse, k);
      const g = linkSet(r.symmetrized, k);
      nf += f.size;
      nr += v.size;
      for (const x of f) if (v.has(x)) inter++;
      uni += new Set([...f, ...v]).size;
      const count = (ws: string[]): Map<string, number[]> => {
        const m = new Map<string, number[]>();
        ws.forEach((w, i) => m.set(w, [...(m.get(w) ?? []), i]));
        return m;
      };
      const cs = count(src[k]!);
      const ct = count(tgt[k]!);
      for (const [w, is] of cs) {
        const js = ct.get(w);
        if (is.length !== 1 || !js || js.length !== 1) continue;
        anchors++;
        const key = `${is[0]}-${js[0]}`;
        if (f.has(key)) anchorHits.forward++;
        if (v.has(key)) anchorHits.reverse++;
        if (g.has(key)) anchorHits.gdfa++;
      }
      for (const [i, j] of r.symmetrized.get(k)) {
        symLinks++;
        if (src[k]![i] === tgt[k]![j]) symSame++;
      }
    }
    const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;
    console.log(
      `  ${label} (tension fwd ${r.forwardModel.tension.toFixed(2)}, rev ${r.reverseModel.tension.toFixed(2)}): ` +
        `|F∩R|/|F∪R| = ${pct(inter / uni)}, |F∩R|/|F| = ${pct(inter / nf)}, |F∩R|/|R| = ${pct(inter / nr)}; ` +
        `anchor recall fwd ${pct(anchorHits.forward / anchors)}, rev ${pct(anchorHits.reverse / anchors)}, gdfa ${pct(anchorHits.gdfa / anchors)} ` +
        `(${anchors} anchors); gdfa links between identical words ${pct(symSame / symLinks)}`,
    );
  }
}

/** alignBidirectional as the miner calls it, in this (fresh) process. */
async function bidiOnly(file: string): Promise<void> {
  const t0 = performance.now();
  const { corpus } = readParallel(file);
  const t1 = performance.now();
  const r = await alignBidirectionalEncoded(corpus, { threads: 2 });
  const s = (performance.now() - t1) / 1000;
  let links = 0;
  for (let k = 0; k < r.symmetrized.count; k++) links += r.symmetrized.size(k);
  console.log(
    `alignBidirectional (library defaults = fast_align -d -o -v, then gdfa), threads ${r.threads}: ${s.toFixed(1)} s wall ` +
      `(+${((t1 - t0) / 1000).toFixed(1)} s reading) for ${corpus.size} pairs, ${links} symmetrised links; ` +
      `tensions ${r.forwardModel.tension.toFixed(3)} / ${r.reverseModel.tension.toFixed(3)}; ` +
      `table slots ${r.forwardModel.ttable.slots} / ${r.reverseModel.ttable.slots}; peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`,
  );
}

const bidiFile = opts.bidiOnly;
if (bidiFile) {
  await bidiOnly(bidiFile);
  process.exit(0);
}

const agreementSpec = opts.agreement;
if (agreementSpec) {
  await agreement(agreementSpec);
  process.exit(0);
}

const lines = buildCorpus();
const file = keep ?? join(tmpdir(), `proneval-bench-align-${process.pid}.txt`);
writeFileSync(file, lines.join("\n") + "\n");
let cells = 0;
for (const l of lines) {
  const [a, b] = l.split(" ||| ");
  cells += a!.split(" ").length * b!.split(" ").length;
}
console.log(`corpus: ${lines.length} pairs (${file}), ${(cells / lines.length).toFixed(0)} alignment cells per pair`);
console.log(`options: -d -o -v, ${iterations} iterations (${iterations - 1} EM + final Viterbi), one core`);

try {
  const results: Record<string, { ts: DirResult; cpp?: { perIter: number; perIterCpu: number; total: number; rss: number; agree: number } }> = {};
  for (const reverse of [false, true]) {
    const name = reverse ? "reverse" : "forward";
    const ts = runTs(file, reverse);
    let cpp;
    if (fastAlignBin) {
      const one = runCpp(file, reverse, 1);
      const full = runCpp(file, reverse, iterations);
      const cppLines = full.out.split("\n");
      let agree = 0;
      for (let k = 0; k < ts.lines.length; k++) if (ts.lines[k] === cppLines[k]) agree++;
      cpp = {
        perIter: (full.wall - one.wall) / (iterations - 1),
        perIterCpu: (full.cpu - one.cpu) / (iterations - 1),
        total: full.wall,
        rss: full.maxRssKb,
        agree: agree / ts.lines.length,
      };
    }
    results[name] = { ts, cpp };
    const em = mean(ts.emSeconds);
    const emCpu = mean(ts.emCpu);
    console.log(
      `${name} TS : ${(lines.length / em).toFixed(0)} pairs/s per EM iteration (wall ${em.toFixed(2)} s, cpu ${emCpu.toFixed(2)} s/iter; ` +
        `Viterbi pass ${ts.viterbiSeconds.toFixed(2)} s; total with reading ${ts.totalSeconds.toFixed(1)} s; final tension ${ts.tension.toFixed(4)})`,
    );
    if (cpp) {
      console.log(
        `${name} C++: ${(lines.length / cpp.perIter).toFixed(0)} pairs/s per EM iteration (wall ${cpp.perIter.toFixed(2)} s, cpu ${cpp.perIterCpu.toFixed(2)} s/iter, ` +
          `from -I 5 minus -I 1; total ${cpp.total.toFixed(1)} s; peak RSS ${(cpp.rss / 1024).toFixed(0)} MB)`,
      );
      console.log(
        `${name} ratio TS/C++ throughput: ${(cpp.perIter / em).toFixed(2)} (wall), ${(cpp.perIterCpu / emCpu).toFixed(2)} (cpu); ` +
          `identical output lines: ${(100 * cpp.agree).toFixed(2)}%`,
      );
    }
  }
  if (!fastAlignBin) console.log("FAST_ALIGN_BIN not set: no C++ reference run (see docs/align.md to build it)");
  console.log(`peak RSS of this process after both directions: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
  if (!opts.noBidi) {
    // A fresh process, so that its peak RSS is the library call's own.
    const child = spawnSync(process.execPath, [process.argv[1]!, "--bidi-only", file], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
    if (child.status !== 0) throw new Error(`bidirectional run failed (${child.status})`);
    process.stdout.write(child.stdout);
  }
} finally {
  if (!keep && existsSync(file)) unlinkSync(file);
}
