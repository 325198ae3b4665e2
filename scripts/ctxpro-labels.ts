/**
 * One table per built-in CTXPRO rule set: each label, what it maps, how often CTXPRO's released dev set of
 * that phenomenon and pair has it, and our recall on the dev items with that label, from the summaries of
 * `scripts/ctxpro-recall.ts` runs (e.g. one with --part tuning and one with --part held-back).
 *
 *   node dist/scripts/ctxpro-labels.js --recall tuning=/tmp/r-tuning held-back=/tmp/r-held > labels.md
 *       [--data ../shared/data/ctxpro] [--langs de,es,...]
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseStrict, strictCommand } from "./args.js";
import { readEvalSet } from "../src/ctxpro/items.js";
import { builtinRuleSets, describeRule, loadRuleSet } from "../src/ctxpro/rules.js";

const program = strictCommand("ctxpro-labels")
  .option("--data <dir>", "CTXPRO release data (evalsets/)", "../shared/data/ctxpro")
  .option("--recall <name=dir...>", "ctxpro-recall output folders (their summary.*.json), each shown as a column 'name'", [])
  .option("--langs <list>", "languages (default: all)");
parseStrict(program);
const o = program.opts<{ data: string; recall: string[]; langs?: string }>();

interface Summary { lang: string; pair: string; phenomenon: string; file?: string; perRule: Record<string, [number, number]> }

const runs = o.recall.map((spec) => {
  const eq = spec.indexOf("=");
  if (eq <= 0) {
    process.stderr.write(`ctxpro-labels: --recall takes name=folder, got '${spec}'\n`);
    process.exit(2);
  }
  const dir = spec.slice(eq + 1);
  if (!existsSync(dir)) {
    process.stderr.write(`ctxpro-labels: ${dir}: no such folder\n`);
    process.exit(2);
  }
  const sums: Summary[] = [];
  for (const f of readdirSync(dir).filter((x) => /^summary\.[a-z]{2}\.json$/.test(x))) sums.push(...(JSON.parse(readFileSync(join(dir, f), "utf8")) as Summary[]));
  return { name: spec.slice(0, eq), sums };
});

const langs = o.langs?.split(",");
const dev = join(o.data, "evalsets");
const files = existsSync(dev) ? readdirSync(dev) : [];
const out: string[] = [];
for (const info of builtinRuleSets()) {
  if (langs && !langs.includes(info.lang)) continue;
  const set = loadRuleSet(info.name, info.lang);
  const pair = set.reversed ? `${info.lang}-en` : `en-${info.lang}`;
  const devFile = files.find((f) => f.startsWith(`${info.phenomenon}.opensubtitles.${pair}.dev.json`));
  const counts = new Map<string, number>();
  let total = 0;
  if (devFile) for (const it of readEvalSet(join(dev, devFile))) {
    counts.set(String(it.rule), (counts.get(String(it.rule)) ?? 0) + 1);
    total++;
  }
  out.push(`### ${info.name} (${pair}${devFile ? `, ${total} dev items` : ", no released dev set"})`, "");
  const cols = runs.map((r) => r.name);
  out.push(`| label | rule | dev items | share |${cols.map((c) => ` recall, ${c} |`).join("")}`);
  out.push(`| --- | --- | ---: | ---: |${cols.map(() => " ---: |").join("")}`);
  for (const r of set.rules) {
    const n = counts.get(r.label) ?? 0;
    const cells = runs.map((run) => {
      const s = run.sums.find((x) => x.lang === info.lang && x.phenomenon === info.phenomenon && x.pair === pair && (!x.file || /\.dev\.json(\.gz)?$/.test(x.file)));
      const v = s?.perRule[r.label];
      return v && v[1] ? `${((100 * v[0]) / v[1]).toFixed(1)}% (${v[0]}/${v[1]})` : "-";
    });
    const share = total ? `${((100 * n) / total).toFixed(1)}%` : "-";
    out.push(`| ${r.label} | ${describeRule(r).replace(/\|/g, "\\|")} | ${n} | ${share} |${cells.map((c) => ` ${c} |`).join("")}`);
  }
  out.push("");
}
process.stdout.write(out.join("\n"));
