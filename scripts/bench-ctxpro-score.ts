/**
 * Scoring speed of `ctxpro score` (single thread): items per second for whole-word matching, the
 * original substring test, last-sentence extraction, and a 1000-sample paired bootstrap of two
 * systems. Items are the shared CTXPRO dev sets (every *.dev.json.gz, repeated up to --items), with
 * the reference segment as one system and the source segment as the other.
 *
 *   node dist/scripts/bench-ctxpro-score.js [--data ../shared/data/ctxpro/evalsets] [--items 100000]
 *
 * No reference implementation can run here (CTXPRO's scorer is Python), so no ratio is printed.
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { readEvalSet, type CtxproItem } from "../src/ctxpro/items.js";
import { pairedBootstrap, scoreSystem, type ScoreOptions } from "../src/ctxpro/score.js";
import { int, parseArgs, str } from "./args.js";

const { opts: cli } = parseArgs({
  name: "bench-ctxpro-score",
  summary: "Scoring speed of `ctxpro score` (single thread): items per second per scoring mode, and a paired bootstrap.",
  options: {
    data: str("folder of CTXPRO evaluation sets (*.json, *.json.gz)", "../shared/data/ctxpro/evalsets", { value: "DIR" }),
    items: int("items to score (the sets repeated up to this count)", 100000),
  },
});
const dataDir = cli.data;
const target = cli.items;
if (!existsSync(dataDir)) {
  console.error(`no evaluation sets at ${dataDir} (pass --data DIR)`);
  process.exit(2);
}

const base: CtxproItem[] = [];
for (const f of readdirSync(dataDir).filter((x) => x.endsWith(".json.gz") || x.endsWith(".json")).sort()) {
  base.push(...readEvalSet(join(dataDir, f)));
}
const items: CtxproItem[] = [];
while (items.length < target) items.push(...base.slice(0, target - items.length));
const ref = items.map((x) => String(x["ref segment"]));
const src = items.map((x) => String(x["src segment"]));
console.log(`${items.length} items (${base.length} distinct, from ${dataDir}); node ${process.version}, one thread`);

function time<T>(label: string, fn: () => T, n = items.length): T {
  fn(); // warm-up
  const runs = 3;
  let best = Infinity;
  let out!: T;
  for (let r = 0; r < runs; r++) {
    const t0 = process.hrtime.bigint();
    out = fn();
    best = Math.min(best, Number(process.hrtime.bigint() - t0) / 1e9);
  }
  console.log(`${label.padEnd(44)} ${best.toFixed(3)} s  ${Math.round(n / best).toLocaleString("en-US")} items/s`);
  return out;
}

const opts = (o: ScoreOptions) => o;
const a = time("score, --whole, whole-word match", () => scoreSystem("ref", items, ref, opts({ mode: "whole" })));
time("score, --whole --match ctxpro", () => scoreSystem("ref", items, ref, opts({ mode: "whole", match: "ctxpro" })));
time("score, --last-sentence", () => scoreSystem("ref", items, ref, opts({ mode: "last-sentence" })));
time("score, default (last k sentences)", () => scoreSystem("ref", items, ref, opts({})));
time("score, --compat ctxpro", () => scoreSystem("ref", items, ref, opts({ mode: "compat-ctxpro" })));
const b = scoreSystem("src", items, src, { mode: "whole" });
time("paired bootstrap, 2 systems, 1000 samples", () => pairedBootstrap([a, b], 1000, 12345));
console.log(`accuracy: ref ${a.accuracy.toFixed(1)}%, src ${b.accuracy.toFixed(1)}%`);
console.log(`peak RSS: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`);
