/**
 * APT against the learned ranker on the same pairs: for every wmt23 dev pair (reference vs system output, or
 * reference vs a reference with one pronoun swapped), does each metric prefer the reference?
 *
 *   npx tsc -p . && nice -n 10 node dist/scripts/apt-vs-ranker.js [--pairs out/pairs/dev.jsonl.gz]
 *       [--mismatches out/mined/all.mismatches.jsonl.gz] [--wmt ../shared/data/wmt/wmt23] [--checkpoint DIR] [--json FILE]
 *
 * APT needs the source sentence, which pair files do not carry; it is joined from the mismatch records by origin
 * (testset/langpair/doc/segment id/system, as `proneval pairs` writes it). APT scores the negative side against the reference (the positive side);
 * the reference scored against itself is exact wherever its pronouns are anchored, so APT "prefers the reference"
 * exactly when one of the negative's anchored pronoun instances is not exact, and ties otherwise (the differing
 * pronoun unanchored in a pro-drop source, linked to nothing, or in one equivalence group). The aligner is trained
 * per language pair on the pairs plus every (source, reference) segment of that wmt23 test set.
 */
import { computeApt, type AptInstance } from "../src/apt/index.js";
import { findTestSets, loadTestSet } from "../src/io/readers.js";
import { readJsonl } from "../src/io/jsonl.js";
import { writeFileAtomic } from "../src/io/atomic.js";
import { readRankerPairs } from "../src/nn/data.js";
import { preparePairs } from "../src/nn/evaluate.js";
import { loadScorer } from "../src/metric/load.js";
import type { PairRecord } from "../src/core/pair-format.js";
import { parseArgs, str } from "./args.js";

const { opts } = parseArgs({
  name: "apt-vs-ranker",
  summary: "APT against the learned ranker on the same pairs: does each metric prefer the reference?",
  options: {
    pairs: str("pair file", "out/pairs/dev.jsonl.gz", { value: "FILE" }),
    mismatches: str("mismatch records, for the source sentences", "out/mined/all.mismatches.jsonl.gz", { value: "FILE" }),
    wmt: str("the WMT test-set folder whose (source, reference) segments also train the aligner", "../shared/data/wmt/wmt23", { value: "DIR" }),
    checkpoint: str("ranker checkpoint", undefined, { value: "DIR", defaultText: "the shipped default" }),
    json: str("also write the summary as JSON", undefined, { value: "FILE" }),
  },
});

interface Outcome {
  kind: "system" | "noisy";
  lang: string;
  apt: "ref" | "tie" | "neg";
  ranker: "ref" | "tie" | "neg";
}

/** Origin of the segment a pair comes from (noisy pair ids carry one more field: the swap index). */
function originKey(p: PairRecord): string {
  return p.origin.split("/").slice(0, 5).join("/");
}

async function main(): Promise<void> {
  const pairsFile = opts.pairs;
  const mmFile = opts.mismatches;
  const wmtDir = opts.wmt;
  const jsonOut = opts.json;
  const pairs = await readRankerPairs(pairsFile, "crc");

  const src = new Map<string, string>();
  for await (const { value } of readJsonl(mmFile)) {
    const r = value as Record<string, unknown>;
    if (typeof r.src_sentence !== "string") continue;
    src.set(`${r.testset}/${r.lang_pair}/${r.doc_id}/${r.seg_id}/${r.system}`, r.src_sentence);
  }
  const joined = pairs.filter((p) => src.has(originKey(p)));
  console.error(`${pairs.length} pairs, ${joined.length} with a source sentence from ${mmFile}`);

  // Ranker: scores of both sides, as `proneval eval` computes them.
  const t0 = Date.now();
  const scorer = await loadScorer(opts.checkpoint, { backend: "auto", threads: "auto" });
  const { pos, neg } = preparePairs(joined, scorer.contextMode, { contextSentences: 2, maxLen: 128 }); // the shipped models' input options
  const all = await scorer.scorePrepared(pos.concat(neg), {});
  const rankerPref = joined.map((_, i): Outcome["ranker"] => {
    const d = all[i]!.score - all[joined.length + i]!.score;
    return d > 0 ? "ref" : d < 0 ? "neg" : "tie";
  });
  scorer.dispose();
  console.error(`ranker: ${((Date.now() - t0) / 1000).toFixed(0)} s`);

  // APT, one alignment model per language pair.
  const sets = findTestSets(wmtDir).filter((l) => l.langPair.endsWith("-en"));
  const byLang = new Map<string, number[]>();
  joined.forEach((p, i) => byLang.set(p.lang, [...(byLang.get(p.lang) ?? []), i]));
  const aptPref: Outcome["apt"][] = new Array(joined.length).fill("tie");
  const unanchoredDiff: number[] = [0, 0];
  for (const [lang, idx] of [...byLang.entries()].sort()) {
    const t1 = Date.now();
    const loc = sets.find((l) => l.langPair === `${lang}-en`);
    const extraSrc: string[] = [];
    const extraRef: string[] = [];
    if (loc) {
      const ts = await loadTestSet(loc);
      for (const d of ts.docs) {
        const ref = d.refs[ts.references[0]!]!;
        d.src?.forEach((s, k) => {
          extraSrc.push(s);
          extraRef.push(ref[k]!);
        });
      }
    }
    const n = idx.length;
    const report = await computeApt(
      {
        srcLang: lang,
        tgtLang: "en",
        src: [...idx.map((i) => src.get(originKey(joined[i]!))!), ...extraSrc],
        ref: [...idx.map((i) => joined[i]!.positive), ...extraRef],
        hyps: [{ name: "negative", lines: [...idx.map((i) => joined[i]!.negative), ...extraRef] }],
      },
      { keepInstances: true },
    );
    const bySentence = new Map<number, AptInstance[]>();
    for (const x of report.systems[0]!.instances!) if (x.sentence < n) bySentence.set(x.sentence, [...(bySentence.get(x.sentence) ?? []), x]);
    idx.forEach((i, k) => {
      const inst = bySentence.get(k) ?? [];
      const anchored = inst.filter((x) => x.case !== 0);
      aptPref[i] = anchored.some((x) => x.case !== 1) ? "ref" : "tie";
      // Is the pronoun the pair is about among the unanchored ones? (the usual reason for a tie)
      const p = joined[i]!;
      const wanted = new Set(p.ref_pronoun.split(","));
      if (aptPref[i] === "tie" && inst.some((x) => x.case === 0 && wanted.has(x.pronoun))) unanchoredDiff[p.kind === "system" ? 0 : 1]!++;
    });
    console.error(`[${lang}-en] ${n} pairs, +${extraSrc.length} aligner-only segments, ${((Date.now() - t1) / 1000).toFixed(0)} s`);
  }

  const outcomes: Outcome[] = joined.map((p, i) => ({ kind: p.kind, lang: p.lang, apt: aptPref[i]!, ranker: rankerPref[i]! }));
  const pct = (a: number, b: number) => (b ? ((100 * a) / b).toFixed(2) : "-");
  const rows: string[] = [
    "| pairs | n | APT prefers ref | APT tie | ranker prefers ref | both prefer ref | APT ties, ranker prefers ref | APT prefers ref, ranker not |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
  ];
  const summary: Record<string, unknown> = {};
  const groups: Array<[string, (o: Outcome) => boolean]> = [
    ["R vs S", (o) => o.kind === "system"],
    ["R vs R'", (o) => o.kind === "noisy"],
    ["all", () => true],
    ...[...byLang.keys()].sort().map((l): [string, (o: Outcome) => boolean] => [`R vs S ${l}-en`, (o) => o.kind === "system" && o.lang === l]),
  ];
  for (const [name, f] of groups) {
    const g = outcomes.filter(f);
    const c = (pred: (o: Outcome) => boolean) => g.filter(pred).length;
    const cell = {
      n: g.length,
      aptRef: c((o) => o.apt === "ref"),
      aptTie: c((o) => o.apt === "tie"),
      rankerRef: c((o) => o.ranker === "ref"),
      both: c((o) => o.apt === "ref" && o.ranker === "ref"),
      tieRanker: c((o) => o.apt === "tie" && o.ranker === "ref"),
      aptOnly: c((o) => o.apt === "ref" && o.ranker !== "ref"),
    };
    summary[name] = cell;
    rows.push(`| ${name} | ${cell.n} | ${pct(cell.aptRef, cell.n)} | ${pct(cell.aptTie, cell.n)} | ${pct(cell.rankerRef, cell.n)} | ${pct(cell.both, cell.n)} | ${pct(cell.tieRanker, cell.aptTie)} | ${pct(cell.aptOnly, cell.aptRef)} |`);
  }
  console.log(rows.join("\n"));
  console.log(`\nAPT ties whose differing reference pronoun is unanchored: R vs S ${unanchoredDiff[0]}, R vs R' ${unanchoredDiff[1]}`);
  console.log(`peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
  if (jsonOut) writeFileAtomic(jsonOut, JSON.stringify({ pairsFile, summary, unanchoredTies: { system: unanchoredDiff[0], noisy: unanchoredDiff[1] } }, null, 1) + "\n");
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : String(e));
  process.exit(1);
});
