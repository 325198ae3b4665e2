/**
 * CTXPRO on WMT: `identify` with the built-in annotators on WMT24 en-de / en-es / en-ru
 * (source + reference A, document ids from documents/<pair>.docs; segments are paragraphs) and on the
 * wmt21-23 en-de / en-ru references (txt/ has no document ids: each test set is one pseudo-document, so
 * a segment's context is the previous lines), counts per phenomenon; then every WMT24 system of those
 * pairs is scored on the WMT24 items with `proneval ctxpro score` (paired bootstrap).
 *
 * The aligner of a language pair is trained on all its WMT21-24 segment pairs (one identify run per
 * pair) plus, with --align-corpus-dir, align-extra.<lang>.tsv (e.g. the CTXPRO dev segment pairs that
 * scripts/ctxpro-recall.ts writes).
 *
 *   node dist/scripts/ctxpro-wmt.js --out /tmp/wmt [--align-corpus-dir /tmp/recall] [--wmt ../shared/data/wmt]
 *       [--langs de,es,ru] [--bootstrap 1000]
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseStrict, strictCommand } from "./args.js";
import { readLines } from "../src/io/lines.js";
import { defaultAnnotators } from "../src/ctxpro/annotators.js";
import { identifyFiles } from "../src/ctxpro/identify.js";
import type { CtxproItem } from "../src/ctxpro/items.js";
import { builtinRuleSets, loadRuleSet } from "../src/ctxpro/rules.js";
import { scoreSystem, type ScoreReport } from "../src/ctxpro/score.js";
import { loadDefaultCoref, loadDefaultMorph } from "../src/annotate/index.js";

const program = strictCommand("ctxpro-wmt")
  .option("--wmt <dir>", "WMT data", "../shared/data/wmt")
  .option("--out <dir>", "output folder", "ctxpro-wmt")
  .option("--langs <list>", "target languages", "de,es,ru")
  .option("--align-corpus-dir <dir>", "folder with align-extra.<lang>.tsv to add to the aligner's training")
  .option("--bootstrap <n>", "paired bootstrap samples", "1000");
parseStrict(program);
const o = program.opts<{ wmt: string; out: string; langs: string; alignCorpusDir?: string; bootstrap: string }>();

const CLI = join(dirname(fileURLToPath(import.meta.url)), "..", "src", "cli", "index.js");
const clean = (s: string) => s.replace(/[\t\r\n]+/g, " ").trim();
const OLD: Record<string, Array<[string, string, string]>> = {
  // [test set, source file, reference file] under <wmt>/<year>/txt/
  de: [
    ["wmt21", "wmt21/txt/sources/newstest2021.en-de.src.en", "wmt21/txt/references/newstest2021.en-de.ref.A.de"],
    ["wmt22", "wmt22/txt/sources/generaltest2022.en-de.src.en", "wmt22/txt/references/generaltest2022.en-de.ref.A.de"],
    ["wmt23", "wmt23/txt/sources/generaltest2023.en-de.src.en", "wmt23/txt/references/generaltest2023.en-de.ref.refA.de"],
  ],
  ru: [
    ["wmt21", "wmt21/txt/sources/newstest2021.en-ru.src.en", "wmt21/txt/references/newstest2021.en-ru.ref.A.ru"],
    ["wmt22", "wmt22/txt/sources/generaltest2022.en-ru.src.en", "wmt22/txt/references/generaltest2022.en-ru.ref.A.ru"],
    ["wmt23", "wmt23/txt/sources/generaltest2023.en-ru.src.en", "wmt23/txt/references/generaltest2023.en-ru.ref.refA.ru"],
  ],
};
const SCORED = ["gender", "formality", "auxiliary", "inflection"];

mkdirSync(o.out, { recursive: true });
const english = { morph: loadDefaultMorph("en"), coref: loadDefaultCoref() };
const counts: string[] = ["| test set | pair | lines | documents | gender | formality | auxiliary | inflection | animacy (X-en) |", "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"];
const rankings: string[] = [];

for (const lang of o.langs.split(",")) {
  const pair = `en-${lang}`;
  const w24 = join(o.wmt, "wmt24", "txt");
  const src24 = readLines(join(w24, "sources", `${pair}.txt`));
  const ref24 = readLines(join(w24, "references", `${pair}.refA.txt`));
  const docs24 = readLines(join(w24, "documents", `${pair}.docs`)).map((l) => l.split("\t")[1]!);
  if (src24.length !== ref24.length || src24.length !== docs24.length) throw new Error(`${pair}: WMT24 files differ in length`);
  const rows: string[] = [];
  const firstLine = new Map<string, number>();
  const sizes = new Map<string, { lines: number; docs: Set<string> }>();
  docs24.forEach((d, k) => {
    const id = `wmt24/${d}`;
    if (!firstLine.has(id)) firstLine.set(id, k);
    rows.push(`${id}\t${clean(src24[k]!)}\t${clean(ref24[k]!)}`);
  });
  sizes.set("wmt24", { lines: src24.length, docs: new Set(docs24) });
  for (const [set, srcF, refF] of OLD[lang] ?? []) {
    const src = readLines(join(o.wmt, srcF));
    const ref = readLines(join(o.wmt, refF));
    if (src.length !== ref.length) throw new Error(`${set} ${pair}: source and reference differ in length`);
    src.forEach((s, k) => rows.push(`${set}\t${clean(s)}\t${clean(ref[k]!)}`));
    sizes.set(set, { lines: src.length, docs: new Set([set]) });
  }
  const input = join(o.out, `input.${pair}.tsv`);
  writeFileSync(input, rows.join("\n") + "\n");
  const extra = o.alignCorpusDir ? join(o.alignCorpusDir, `align-extra.${lang}.tsv`) : undefined;
  const ann = await defaultAnnotators(lang, { english, alignCorpus: extra && existsSync(extra) ? [extra] : undefined });
  const sets = builtinRuleSets().filter((s) => s.lang === lang).map((s) => loadRuleSet(s.name, lang));
  const t0 = performance.now();
  const { found, stats } = await identifyFiles([input], lang, sets, ann, { warn: (m) => process.stderr.write(m + "\n") });
  process.stderr.write(`${pair}: ${stats.pairs} pairs, ${stats.docs} documents, ${((performance.now() - t0) / 1000).toFixed(0)} s (aligner trained on ${ann.aligner.size} pairs)\n`);
  const byPhen = new Map<string, CtxproItem[]>();
  for (const s of sets) {
    const items = found.get(s.name) ?? [];
    byPhen.set(s.phenomenon, items);
    writeFileSync(join(o.out, `${s.phenomenon}.${s.reversed ? `${lang}-en` : pair}.json`), JSON.stringify(items, null, 1) + "\n");
  }
  for (const [set, sz] of sizes) {
    const n = (ph: string) => {
      const items = byPhen.get(ph);
      if (!items) return "-";
      return String(items.filter((x) => String(x["document id"]).split("/")[0] === set).length);
    };
    counts.push(`| ${set} | ${pair} | ${sz.lines} | ${set === "wmt24" ? sz.docs.size : "1 (none given)"} | ${n("gender")} | ${n("formality")} | ${n("auxiliary")} | ${n("inflection")} | ${n("animacy")} |`);
  }

  // Scoring: WMT24 items of the en-X phenomena, one hypothesis line per item from each system.
  const items = SCORED.flatMap((ph) => (byPhen.get(ph) ?? []).filter((x) => String(x["document id"]).startsWith("wmt24/")).map((x) => ({ ...x, phenomenon: ph })));
  const setFile = join(o.out, `wmt24.${pair}.items.json`);
  writeFileSync(setFile, JSON.stringify(items, null, 1) + "\n");
  const lineOf = (x: CtxproItem) => firstLine.get(String(x["document id"]))! + Number(x["segment id"]) - 1;
  const sysDir = join(w24, "system-outputs", pair);
  const systems = execFileSync("ls", [sysDir]).toString().split("\n").filter((f) => f.endsWith(".txt"));
  const hypDir = join(o.out, `hyps.${pair}`);
  mkdirSync(hypDir, { recursive: true });
  const entries: Array<{ name: string; file: string; acc: number; perPhen: Record<string, string> }> = [];
  const addSystem = (name: string, lines: string[]) => {
    if (lines.length !== src24.length) throw new Error(`${name}: ${lines.length} lines, expected ${src24.length}`);
    const hyps = items.map((x) => clean(lines[lineOf(x)]!));
    const file = join(hypDir, `${name}.txt`);
    writeFileSync(file, hyps.join("\n") + "\n");
    const perPhen: Record<string, string> = {};
    // WMT24 systems translated each paragraph on its own: there is no context to drop, and a system
    // that splits a sentence in two must not lose the first half, so the whole output is scored.
    for (const ph of SCORED) {
      const idx = items.map((x, k) => (x.phenomenon === ph ? k : -1)).filter((k) => k >= 0);
      if (!idx.length) continue;
      const s = scoreSystem(name, idx.map((k) => items[k]!), idx.map((k) => hyps[k]!), { lang, mode: "whole", match: "word", allowEmpty: true });
      perPhen[ph] = `${s.accuracy.toFixed(1)} (${s.correct}/${s.total})`;
    }
    entries.push({ name, file, acc: scoreSystem(name, items, hyps, { lang, mode: "whole", allowEmpty: true }).accuracy, perPhen });
  };
  for (const f of systems) addSystem(f.replace(/\.txt$/, ""), readLines(join(sysDir, f)));
  if (existsSync(join(w24, "references", `${pair}.refB.txt`))) addSystem("refB-human", readLines(join(w24, "references", `${pair}.refB.txt`)));
  addSystem("refA", ref24);
  // The systems ranked by accuracy; the best is the bootstrap baseline, the reference A is left out of the bootstrap.
  const ranked = entries.filter((e) => !e.name.startsWith("refA")).sort((a, b) => b.acc - a.acc || a.name.localeCompare(b.name));
  // `ctxpro score` in groups of at most 10 systems, the best first in each: the bootstrap draws depend only
  // on the seed and the item count, so every group sees the same samples and the intervals and p-values
  // equal those of one run with all systems (whose bit-packed bootstrap needs 2^systems counters).
  const report: { bootstrap: NonNullable<ScoreReport["bootstrap"]> } = { bootstrap: { samples: 0, seed: 0, systems: [], comparisons: [] } };
  const groups: (typeof ranked)[] = [];
  for (let k = 1; k < ranked.length; k += 9) groups.push([ranked[0]!, ...ranked.slice(k, k + 9)]);
  if (groups.length === 0) groups.push([ranked[0]!]);
  groups.forEach((g, gi) => {
    const jsonOut = join(o.out, `score.${pair}.${gi + 1}.json`);
    const args = [CLI, "ctxpro", "score", "-e", setFile, "-l", lang, "--whole", "--allow-empty", "--json", "-b", o.bootstrap, "-o", jsonOut, "-t", ...g.map((e) => e.file)];
    execFileSync(process.execPath, args, { stdio: ["ignore", "inherit", "inherit"] });
    const r = JSON.parse(readFileSync(jsonOut, "utf8")) as ScoreReport;
    const b = r.bootstrap!;
    report.bootstrap.samples = b.samples;
    report.bootstrap.seed = b.seed;
    report.bootstrap.systems.push(...(gi === 0 ? b.systems : b.systems.slice(1)));
    report.bootstrap.comparisons.push(...b.comparisons);
  });
  const refA = entries.find((e) => e.name.startsWith("refA"))!;
  rankings.push(`### ${pair}: ${items.length} WMT24 items (${SCORED.map((ph) => `${ph} ${items.filter((x) => x.phenomenon === ph).length}`).join(", ")})`);
  rankings.push("");
  rankings.push(`Sanity: reference A (the items' own reference) scores ${refA.acc.toFixed(1)}%.`);
  rankings.push("");
  rankings.push(`| rank | system | accuracy | 95% CI | vs best: delta, p | ${SCORED.filter((ph) => items.some((x) => x.phenomenon === ph)).join(" | ")} |`);
  rankings.push(`| ---: | --- | ---: | --- | --- | ${SCORED.filter((ph) => items.some((x) => x.phenomenon === ph)).map(() => "---:").join(" | ")} |`);
  report.bootstrap!.systems.forEach((s, k) => {
    const e = ranked[k]!;
    const c = k === 0 ? undefined : report.bootstrap!.comparisons[k - 1];
    const vs = c ? `${c.delta.toFixed(1)}, p=${c.p.toFixed(3)}` : "(baseline)";
    const ph = SCORED.filter((p) => items.some((x) => x.phenomenon === p)).map((p) => e.perPhen[p] ?? "-");
    rankings.push(`| ${k + 1} | ${e.name} | ${s.accuracy.toFixed(1)} | [${s.ci[0].toFixed(1)}, ${s.ci[1].toFixed(1)}] | ${vs} | ${ph.join(" | ")} |`);
  });
  rankings.push("");
  rankings.push(`Command: \`proneval ctxpro score -e ${setFile} -l ${lang} --whole --allow-empty --json -b ${o.bootstrap} -t ${hypDir}/<best>.txt <up to 9 others>.txt\` per group of systems, in the order above.`);
  rankings.push("");
}
const md = ["## Counts", "", ...counts, "", "## WMT24 rankings", "", ...rankings].join("\n") + "\n";
writeFileSync(join(o.out, "summary.md"), md);
process.stdout.write(md);
