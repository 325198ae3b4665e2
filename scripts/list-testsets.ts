/**
 * Lists what discovery finds in WMT year directories, as a Markdown table (docs/formats.md), and with
 * --compare checks that pairs having both XML and text files hold the same segments.
 *
 *   node dist/scripts/list-testsets.js [--compare] [YEAR_DIR ...]
 * Default directories: ../shared/data/wmt/wmt21 .. wmt24 (from the project root).
 */
import { basename, join } from "node:path";
import { findTestSets, loadTestSet, type TestSetLocation } from "../src/io/discover.js";
import { segmentCount, type TestSet } from "../src/io/model.js";
import { InputError } from "../src/io/errors.js";
import { flag, parseArgs } from "./args.js";

function flat(ts: TestSet, pick: (d: TestSet["docs"][number]) => string[] | undefined): string[] {
  return ts.docs.flatMap((d) => pick(d) ?? []);
}

function firstDiff(a: string[], b: string[]): string {
  if (a.length !== b.length) return `${a.length} vs ${b.length} segments`;
  let n = 0;
  let first = -1;
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i]) {
      n++;
      if (first < 0) first = i;
    }
  }
  return n === 0 ? "" : `${n} segments differ, first #${first + 1}: ${JSON.stringify(a[first])} vs ${JSON.stringify(b[first])}`;
}

/** Differences between the XML and the text files of one pair ("" when they hold the same segments). */
async function compare(loc: TestSetLocation): Promise<string[]> {
  const x = await loadTestSet({ ...loc, format: "wmt-xml" });
  const t = await loadTestSet({ ...loc, format: "wmt-txt" });
  const out: string[] = [];
  const d = firstDiff(flat(x, (doc) => doc.src), flat(t, (doc) => doc.src));
  if (d) out.push(`source: ${d}`);
  if (x.references.join() !== t.references.join()) out.push(`references: xml ${x.references.join(",")} / txt ${t.references.join(",")}`);
  for (const r of x.references.filter((r) => t.references.includes(r))) {
    const e = firstDiff(flat(x, (doc) => doc.refs[r]), flat(t, (doc) => doc.refs[r]));
    if (e) out.push(`reference ${r}: ${e}`);
  }
  const onlyX = x.systems.filter((s) => !t.systems.includes(s));
  const onlyT = t.systems.filter((s) => !x.systems.includes(s));
  if (onlyX.length || onlyT.length) out.push(`systems only in xml: [${onlyX.join(", ")}], only in txt: [${onlyT.join(", ")}]`);
  for (const s of x.systems.filter((s) => t.systems.includes(s))) {
    const e = firstDiff(flat(x, (doc) => doc.hyps[s]), flat(t, (doc) => doc.hyps[s]));
    if (e) out.push(`system ${s}: ${e}`);
  }
  return out;
}

async function main(): Promise<void> {
  const { opts, args } = parseArgs({
    name: "list-testsets",
    summary: "Lists what discovery finds in WMT year folders, as a Markdown table.",
    options: { compare: flag("also check that pairs having both XML and text files hold the same segments") },
    positionals: [{ name: "YEAR_DIR", description: "WMT year folders", optional: true, variadic: true, defaultText: "../shared/data/wmt/wmt21 .. wmt24" }],
  });
  const doCompare = opts.compare;
  let dirs = args;
  if (dirs.length === 0) dirs = ["wmt21", "wmt22", "wmt23", "wmt24"].map((y) => join("..", "shared", "data", "wmt", y));

  console.log("| year | test set | pair | format | docs | segments | systems | refs | empty hyp segs |");
  console.log("| --- | --- | --- | --- | ---: | ---: | ---: | --- | ---: |");
  const comparisons: string[] = [];
  for (const dir of dirs) {
    for (const loc of findTestSets(dir)) {
      const ts = await loadTestSet(loc);
      let empty = 0;
      for (const d of ts.docs) for (const s of ts.systems) empty += d.hyps[s]!.filter((h) => h.trim() === "").length;
      const docs = ts.documentIds === "given" ? String(ts.docs.length) : "none";
      console.log(
        `| ${basename(dir)} | ${ts.name} | ${ts.langPair} | ${ts.format} | ${docs} | ${segmentCount(ts)} | ${ts.systems.length} | ${ts.references.join(", ")} | ${empty} |`,
      );
      if (doCompare && loc.xml && loc.txt) {
        const diffs = await compare(loc);
        comparisons.push(`- ${basename(dir)} ${loc.langPair} (${basename(loc.xml)} vs txt ${loc.txt.name}): ${diffs.length ? diffs.join("; ") : "identical"}`);
      }
    }
  }
  if (doCompare) {
    console.log("\nXML (test-suite documents skipped) vs text layout, per pair having both:");
    for (const c of comparisons) console.log(c);
  }
}

main().catch((e: unknown) => {
  if (e instanceof InputError) {
    console.error(`list-testsets: error: ${e.message}`);
    process.exit(2);
  }
  throw e;
});
