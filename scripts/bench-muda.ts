/**
 * MuDA tagging speed: target tokens per second for each stage of `proneval muda tag` on a WMT24 pair —
 * annotation (tokenize + tag + lemmatise both sides), fast_align training (both directions, one thread and
 * two), and the tag rules themselves — plus the word f-measure and a 1000-sample bootstrap of two systems.
 *
 *   node dist/scripts/bench-muda.js [--data ../shared/data/wmt/wmt24] [--pair en-de] [--segments 998]
 *
 * No reference implementation can run here (MuDA is Python with spaCy/Stanza and AWESOME), so no ratio.
 */
import { existsSync } from "node:fs";
import { alignBidirectional } from "../src/align/index.js";
import { readTestSetAuto } from "../src/io/readers.js";
import { setupMuda, tagDocument, scoreSides, bootstrapLabels, type MudaSegment, type TaggedSide } from "../src/muda/index.js";
import type { AnnSentence } from "../src/annotate/types.js";
import { int, parseArgs, str } from "./args.js";

const { opts } = parseArgs({
  name: "bench-muda",
  summary: "MuDA tagging speed: target tokens per second of each stage of `proneval muda tag` on a WMT24 pair.",
  options: {
    data: str("the WMT24 folder", "../shared/data/wmt/wmt24", { value: "DIR" }),
    pair: str("language pair", "en-de", { value: "PAIR" }),
    segments: int("segments to use (the first ones)", 998),
  },
});
const dataDir = opts.data;
const pair = opts.pair;
const maxSegs = opts.segments;
if (!existsSync(dataDir)) {
  console.error(`no WMT24 data at ${dataDir} (pass --data DIR)`);
  process.exit(2);
}

const ts = await readTestSetAuto(dataDir, { langPair: pair });
const refName = ts.references[0]!;
const sys = ts.systems.slice(0, 2);
const src: string[] = [];
const ref: string[] = [];
const hyps: string[][] = sys.map(() => []);
for (const d of ts.docs) {
  d.src!.forEach((s, i) => {
    if (src.length >= maxSegs) return;
    src.push(s);
    ref.push(d.refs[refName]![i]!);
    sys.forEach((n, k) => hyps[k]!.push(d.hyps[n]![i]!));
  });
}
const setup = setupMuda(ts.tgtLang);
console.log(`${ts.name} ${pair}: ${src.length} segments, reference ${refName}, systems ${sys.join(", ")}; node ${process.version}`);

function time<T>(label: string, fn: () => T, tokens: number): T {
  const t0 = process.hrtime.bigint();
  const out = fn();
  const s = Number(process.hrtime.bigint() - t0) / 1e9;
  console.log(`${label.padEnd(46)} ${s.toFixed(2)} s  ${Math.round(tokens / s).toLocaleString("en-US")} tokens/s`);
  return out;
}
async function timeAsync<T>(label: string, fn: () => Promise<T>, tokens: number): Promise<T> {
  const t0 = process.hrtime.bigint();
  const out = await fn();
  const s = Number(process.hrtime.bigint() - t0) / 1e9;
  console.log(`${label.padEnd(46)} ${s.toFixed(2)} s  ${Math.round(tokens / s).toLocaleString("en-US")} tokens/s`);
  return out;
}

setup.en.annotate("Warm up the tagger."); // model loading is not timed
setup.tgt.annotate("Warm up.");
let enTokens = 0;
const en: AnnSentence[] = src.map((s) => setup.en.annotate(s));
for (const s of en) enTokens += s.tokens.length;
const enAgain = time("annotate English source", () => src.map((s) => setup.en.annotate(s)), enTokens);
const sides = [ref, ...hyps];
const annotated = sides.map((side) => side.map((s) => setup.tgt.annotate(s)));
const tgtTokens = annotated.map((a) => a.reduce((n, s) => n + s.tokens.length, 0));
time(`annotate reference (${ts.tgtLang})`, () => ref.map((s) => setup.tgt.annotate(s)), tgtTokens[0]!);
const low = (a: AnnSentence[]) => a.map((s) => s.tokens.map((t) => t.text.toLowerCase()));
const corpusSrc = sides.flatMap(() => low(enAgain));
const corpusTgt = annotated.flatMap(low);
const allTgt = tgtTokens.reduce((a, b) => a + b, 0);
await timeAsync(`fast_align ${sides.length} sides, 1 thread`, () => alignBidirectional(corpusSrc, corpusTgt, { threads: 1 }), allTgt);
const al = await timeAsync(`fast_align ${sides.length} sides, 2 threads`, () => alignBidirectional(corpusSrc, corpusTgt, { threads: 2 }), allTgt);
const tagged: TaggedSide[] = time(
  `tag rules, ${sides.length} sides`,
  () =>
    annotated.map((a, si) => {
      const segs: MudaSegment[] = a.map((t, i) => ({ en: enAgain[i]!, tgt: t, links: al.symmetrized.get(si * src.length + i) }));
      const tags = tagDocument(segs, { lang: setup.lang, support: setup.support, lists: setup.lists });
      return { name: String(si), docs: [{ id: "all", segments: segs.map((s, i) => ({ tokens: s.tgt.tokens.map((t) => t.text), tags: tags[i]! })) }] };
    }),
  allTgt,
);
const labels = ["all", ...setup.support.tags, "no_tag"];
const scores = time("word f-measure, 2 systems", () => scoreSides(tagged[0]!, tagged.slice(1), labels), tgtTokens[1]! + tgtTokens[2]!);
const t0 = process.hrtime.bigint();
bootstrapLabels(scores, labels, 1000, 12345);
console.log(`${"paired bootstrap, 2 systems, 1000 samples".padEnd(46)} ${(Number(process.hrtime.bigint() - t0) / 1e9).toFixed(2)} s (${labels.length} labels)`);
console.log(`tokens: English ${enTokens}, targets ${tgtTokens.join(" + ")}`);
console.log(`peak RSS: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`);
