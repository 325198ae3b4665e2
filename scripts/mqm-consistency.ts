/**
 * How often an MQM output *without* a marked pronoun error has the same pronoun, with a word either side, as
 * the output *with* one of the same source (docs/lab/meta-eval.md, "How far a pronoun metric can get"): in such a
 * same-source pair no metric that judges the marked pronoun can prefer the unmarked output for it.
 *   node dist/scripts/mqm-consistency.js [../shared/data/mqm/ted-zhen/mqm_ted_zhen.tsv.gz]
 */
import { readLines } from "../src/io/lines.js";
import { isPronounSpan } from "../src/metric/mqm.js";
import { parseArgs } from "./args.js";

const { args } = parseArgs({
  name: "mqm-consistency",
  summary: "How often an MQM output without a marked pronoun error has the marked pronoun (a word either side) of an output with one, same source.",
  options: {},
  positionals: [{ name: "FILE", description: "MQM annotations (TSV, .gz ok)", optional: true, defaultText: "../shared/data/mqm/ted-zhen/mqm_ted_zhen.tsv.gz" }],
});
const file = args[0] ?? "../shared/data/mqm/ted-zhen/mqm_ted_zhen.tsv.gz";
const tok = (s: string): string[] => s.toLowerCase().match(/[\p{L}\p{N}_]+|[^\p{L}\p{N}_\s]/gu) ?? [];
const lines = readLines(file);
const head = lines[0]!.split("\t");
const col = (n: string): number => head.indexOf(n);
interface Seg { system: string; target: string; marked: string[] }
const bySource = new Map<string, Map<string, Seg>>();
for (const line of lines.slice(1)) {
  if (!line.trim()) continue;
  const f = line.split("\t");
  const key = `${f[col("doc")]}\t${f[col("seg_id")]}`;
  const system = f[col("system")]!;
  const raw = f[col("target")]!;
  const cat = f[col("category")]!;
  const outs = bySource.get(key) ?? new Map<string, Seg>();
  bySource.set(key, outs);
  const seg = outs.get(system) ?? { system, target: raw.replace(/<\/?v>/g, ""), marked: [] };
  outs.set(system, seg);
  const m = /<v>(.*?)<\/v>/.exec(raw);
  if (m && (cat.startsWith("Accuracy/") || cat === "Fluency/Grammar") && isPronounSpan(m[1]!)) {
    const left = tok(raw.slice(0, m.index).replace(/<\/?v>/g, "")).slice(-1);
    const right = tok(raw.slice(m.index + m[0].length).replace(/<\/?v>/g, "")).slice(0, 1);
    seg.marked.push([...left, ...tok(m[1]!), ...right].join(" "));
  }
}
let pairs = 0;
let same = 0;
for (const outs of bySource.values()) {
  const all = [...outs.values()];
  for (const a of all.filter((s) => s.marked.length))
    for (const b of all.filter((s) => !s.marked.length)) {
      pairs++;
      const bt = ` ${tok(b.target).join(" ")} `;
      if (a.marked.some((g) => bt.includes(` ${g} `))) same++;
    }
}
console.log(`same-source pairs (output with a marked pronoun error vs one without): ${pairs}`);
console.log(`the marked pronoun, with a word either side, also in the unmarked output: ${same} (${((100 * same) / pairs).toFixed(1)}%)`);
