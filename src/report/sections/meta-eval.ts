/**
 * The meta-evaluation section (`meta-eval --json`): how well each scorer agrees with people, with the
 * intervals and differences of the paired bootstrap that meta-eval recorded.
 */
import { grouped, MAX_SERIES } from "../charts.js";
import { int, num, pValue, round, signed } from "../format.js";
import type { MeasureScorerJson, MetaEvalJson } from "../inputs-results.js";
import type { Block, Section } from "../model.js";

/** Accuracies and agreement measures are shares (shown in %); AUC, AC1, Kendall and Pearson are not. */
const isShare = (measure: string): boolean => !/AC1|AUC|tau|Pearson/i.test(measure);

function cellOf(measure: string, s: MeasureScorerJson | undefined): string {
  if (!s || s.value === null) return "n/a";
  const f = (x: number | null | undefined) => (x === null || x === undefined ? "–" : isShare(measure) ? num(100 * x, 1) : num(x, 3));
  const base = `${f(s.value)} [${f(s.lo)}, ${f(s.hi)}]`;
  if (s.delta === undefined || s.delta === null) return base;
  return `${base} ${signed(isShare(measure) ? 100 * s.delta : s.delta, isShare(measure) ? 1 : 3)}, p ${s.p === null || s.p === undefined ? "n/a" : pValue(s.p)}`;
}

export function metaEvalSection(files: Array<{ label: string; data: MetaEvalJson }>): Section {
  const blocks: Block[] = [];
  files.forEach((f, fi) => {
    const d = f.data;
    const names = d.reports.map((r) => r.name);
    blocks.push({ type: "h3", text: `${f.label}: ${names.length} scorer(s), aggregate ${d.aggregate}${d.mode ? `, mode ${d.mode}` : ""}`, anchor: `meta-eval-${fi}` });
    blocks.push({ type: "kv", items: d.reports.filter((r) => r.signature).map((r) => [r.name, r.signature!] as [string, string]) });
    // Pair accuracies per pair file, as meta-eval's table lists them first.
    const files_ = [...new Set(d.reports.flatMap((r) => r.pairs.map((p) => p.file)))];
    const measures = files_.flatMap((file) => [
      { name: `${file}: R vs S`, get: (r: MetaEvalJson["reports"][number]) => r.pairs.find((p) => p.file === file)?.system },
      { name: `${file}: R vs R'`, get: (r: MetaEvalJson["reports"][number]) => r.pairs.find((p) => p.file === file)?.noisy },
    ]);
    if (measures.length) {
      blocks.push({
        type: "chart",
        chart: grouped({
          id: `meta-eval-pairs-${fi}`,
          title: "Pair accuracy per scorer",
          caption: "Share of pairs where the scorer prefers the reference (R vs S: a real MT output; R vs R′: the reference with one pronoun replaced).",
          categories: measures.map((m) => m.name),
          series: d.reports.slice(0, MAX_SERIES).map((r) => ({
            label: r.name,
            values: measures.map((m) => {
              const c = m.get(r);
              return c && c.n ? round(100 * c.accuracy, 2) : null;
            }),
            labels: measures.map((m) => {
              const c = m.get(r);
              return c && c.n ? `${num(100 * c.accuracy, 1)}% (${int(c.correct)}/${int(c.n)})` : null;
            }),
          })),
          valueAxis: "accuracy (% of pairs)",
          categoryAxis: "pair file and kind",
          min: 0,
          max: 100,
        }),
      });
    }
    const sig = d.significance;
    if (sig) {
      blocks.push({
        type: "table",
        caption: `Every measure with its 95% interval (paired bootstrap, ${int(sig.draws)} resamples, seed ${sig.seed}, as meta-eval recorded it); other scorers: difference to ${sig.baseline} and its p (* p < 0.05). Shares in %.`,
        columns: ["measure", ...names],
        align: ["l", ...names.map(() => "r" as const)],
        rows: sig.measures.map((m) => [m.measure, ...names.map((n) => cellOf(m.measure, m.scorers.find((s) => s.name === n)))]),
      });
    } else {
      blocks.push({
        type: "table",
        caption: "Measures per scorer (meta-eval ran without a bootstrap: no intervals)",
        columns: ["measure", ...names],
        align: ["l", ...names.map(() => "r" as const)],
        rows: [
          ...measures.map((m) => [m.name, ...d.reports.map((r) => {
            const c = m.get(r);
            return c && c.n ? `${num(100 * c.accuracy, 1)}%` : "n/a";
          })]),
          ...(d.reports.some((r) => r.judged) ? [["judged: accuracy excl. ties", ...d.reports.map((r) => (r.judged?.accuracy === null || r.judged?.accuracy === undefined ? "n/a" : `${num(100 * r.judged.accuracy, 1)}%`))]] : []),
          ...(d.reports.some((r) => r.probe) ? [["probe: winner unchanged", ...d.reports.map((r) => (r.probe ? `${num(100 * r.probe.unchanged, 1)}%` : "n/a"))]] : []),
        ],
      });
    }
  });
  return { id: "meta-eval", title: "Meta-evaluation", intro: "How well scorers agree with people and with pairs of known preference, from meta-eval --json files (docs/meta-eval.md).", blocks };
}
