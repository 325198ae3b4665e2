/**
 * Evaluates the English pronoun resolver on the held-out documents (src/annotate/splits.ts) of GUM,
 * GENTLE, LitBank and ParCorFull's English side (none of them is ever trained on).
 *
 *   npx tsc -p . && node dist/scripts/eval-coref.js [--data ../shared/data] [--model-dir data] [--all-only]
 *       [--parcor-all]   (ParCorFull: every document, without the split; includes training documents)
 *       [--null-bias B] [--prefer-nominal on|off]   (override the model's settings)
 *
 * A link is a pronoun's resolved noun (its antecedent, or what an antecedent pronoun was followed to);
 * it is correct when that noun lies in the head run of an earlier gold mention of the pronoun's entity.
 * Precision = correct / pronouns given a noun; recall = correct / pronouns with an earlier gold noun mention.
 */
import { join } from "node:path";
import { loadDefaultMorph } from "../src/annotate/morph.js";
import { join as pjoin } from "node:path";
import { loadGum, loadLitbank, loadParcor, type TaggedGoldDoc } from "../src/annotate/coref-corpora.js";
import { PronounResolver } from "../src/annotate/coref.js";
import { evaluateCoref, zeroTally, type CorefTally } from "../src/annotate/coref-eval.js";
import { loadDefaultCoref } from "../src/annotate/index.js";
import { flag, num, parseArgs, str } from "./args.js";

const { opts } = parseArgs({
  name: "eval-coref",
  summary: "Evaluates the English pronoun resolver on the held-out documents of GUM, GENTLE, LitBank and ParCorFull's English side.",
  options: {
    data: str("the shared data folder", "../shared/data", { value: "DIR" }),
    modelDir: str("evaluate DIR/models/coref-en.json.gz (and DIR/lexicons/)", undefined, { value: "DIR", defaultText: "the shipped model" }),
    allOnly: flag("print the 'all' row of each corpus only"),
    parcorAll: flag("ParCorFull: every document, without the split (includes training documents)"),
    nullBias: num("override the model's null bias", undefined, { value: "B" }),
    preferNominal: str("override the model's prefer-nominal setting", undefined, { value: "on|off" }),
  },
});

type Tally = CorefTally;
const zero = zeroTally;
const evaluate = (docs: TaggedGoldDoc[], resolver: PronounResolver, exhaustive: boolean) => evaluateCoref(docs, (d) => resolver.decisions(d.sentences), exhaustive);

const allOnly = opts.allOnly;
const totals = zero();
function print(name: string, by: Map<string, Tally>): void {
  const a = by.get("all");
  if (a) for (const k of Object.keys(totals) as Array<keyof Tally>) totals[k] += a[k];
  const pct = (a: number, b: number) => (b ? ((100 * a) / b).toFixed(1) : "-");
  for (const [k, t] of [...by.entries()].filter(([k]) => !allOnly || k === "all").sort((a, b) => (a[0] === "all" ? -1 : b[0] === "all" ? 1 : a[0] < b[0] ? -1 : 1))) {
    const p = t.predicted ? t.correct / t.predicted : 0;
    const r = t.gold ? t.correct / t.gold : 0;
    const f = p + r ? (2 * p * r) / (p + r) : 0;
    console.log(
      `| ${name} | ${k} | ${t.sites} | ${t.gold} | ${pct(t.correct, t.predicted)} | ${pct(t.correct, t.gold)} | ${(100 * f).toFixed(1)} | ${t.pleo ? `${t.pleoNull}/${t.pleo}` : "-"} | ${t.errNull} / ${t.errWrong} / ${t.errSpurious} |`,
    );
  }
}

const data = opts.data;
const morph = loadDefaultMorph("en");
const base = loadDefaultCoref(opts.modelDir !== undefined ? pjoin(opts.modelDir, "models") : undefined);
const bias = opts.nullBias;
const inner = base as unknown as { lex: Map<string, number[]>; wn?: Map<string, number[]> };
const pn = opts.preferNominal !== undefined ? opts.preferNominal !== "off" : undefined;
const resolver = bias === undefined && pn === undefined ? base : new PronounResolver(base.model, inner.lex, bias, inner.wn, pn);
console.log(`null bias: ${bias ?? base.model.nullBias ?? 0}, prefer nominal: ${pn ?? base.model.preferNominal ?? false}\n`);
console.log("| corpus | pronouns | sites | with gold noun antecedent | precision | recall | F1 | pleonastic it -> none | errors: missed / wrong noun / spurious |");
console.log("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |");
console.error(`model: ${base.model.trainedOn}; features: ${(base.model.features ?? []).join(",") || "none"}`);
print("GUM held-out", evaluate(loadGum(join(data, "coref", "gum"), true, morph), resolver, true));
print("GENTLE held-out", evaluate(loadGum(join(data, "coref", "gum"), true, morph, "GENTLE"), resolver, true));
print("LitBank held-out", evaluate(loadLitbank(join(data, "coref", "litbank"), morph, true), resolver, false));
const parcorAll = opts.parcorAll;
for (const sub of ["news", "TED", "DiscoMT"]) {
  print(`ParCorFull ${sub}${parcorAll ? " (all)" : " held-out"}`, evaluate(loadParcor(join(data, "coref", "parcor-full", "corpus", sub, "EN"), morph, parcorAll ? undefined : true), resolver, false));
}
{
  const p = totals.predicted ? totals.correct / totals.predicted : 0;
  const r = totals.gold ? totals.correct / totals.gold : 0;
  const pct = (x: number) => (100 * x).toFixed(1);
  console.log(`| all held-out (pooled) | all | ${totals.sites} | ${totals.gold} | ${pct(p)} | ${pct(r)} | ${pct(p + r ? (2 * p * r) / (p + r) : 0)} | ${totals.pleo ? `${totals.pleoNull}/${totals.pleo}` : "-"} | ${totals.errNull} / ${totals.errWrong} / ${totals.errSpurious} |`);
}
