/** The suites section: generative accuracy of `proneval suite score --json` files. */
import { barChart, color, grouped } from "../charts.js";
import { ci, int, pct, pctCount, pValue, round, signed } from "../format.js";
import type { SuiteJson } from "../inputs.js";
import type { Block, Section } from "../model.js";

const VERDICT_LABEL: Record<string, string> = {
  "aligned-correct": "aligned word is the expected pronoun",
  "count-correct": "expected pronoun present (unaligned)",
  "aligned-other-pronoun": "aligned to another pronoun",
  "aligned-error": "aligned to a known WMT error",
  "count-wrong": "expected pronoun missing (unaligned)",
};

export function suiteSection(files: Array<{ label: string; data: SuiteJson }>, systemNames: string[] | undefined): Section {
  const blocks: Block[] = [];
  files.forEach((f, fi) => {
    const d = f.data;
    const names = d.systems.map((s, i) => systemNames?.[i] ?? s.name);
    blocks.push({ type: "h3", text: `Suite ${d.suite} (${d.lang}→en): ${int(d.items)} items, ${d.systems.length} system(s)`, anchor: `suite-${fi}` });
    const ciOf = (i: number): [number, number] | null => {
      const c = d.bootstrap?.systems[i]?.ci;
      return c ? [round(c[0], 2), round(c[1], 2)] : null;
    };
    const overallLabels = d.systems.map((s) => pctCount(s.correct, s.total));
    blocks.push({
      type: "chart",
      chart: barChart({
        id: `suite-overall-${fi}`,
        title: "Generative pronoun accuracy",
        caption: d.bootstrap ? `Whiskers: 95% paired bootstrap interval (${int(d.bootstrap.samples)} resamples). Labels: accuracy (correct/items).` : "Labels: accuracy (correct/items).",
        categories: names,
        horizontal: true,
        series: [{ label: "accuracy", values: d.systems.map((s) => round(s.accuracy, 2)), labels: overallLabels, errorBars: d.systems.map((_, i) => ciOf(i)) }],
        valueAxis: "accuracy (% of items)",
        categoryAxis: "system",
        min: 0,
        max: 100,
      }),
    });
    const types = [...new Set(d.systems.flatMap((s) => Object.keys(s.byType)))];
    const order = ["possessive", "animacy", "gender", "number", "case", "other"];
    types.sort((a, b) => (order.indexOf(a) + 99 * +(order.indexOf(a) < 0)) - (order.indexOf(b) + 99 * +(order.indexOf(b) < 0)));
    const typeCount = (t: string): number => d.systems.find((s) => s.byType[t])?.byType[t]!.total ?? 0;
    blocks.push({
      type: "chart",
      chart: grouped({
        id: `suite-types-${fi}`,
        title: "Accuracy by error type of the suite's items",
        caption: "Error type: the feature a WMT system got wrong on the item (paper's Table 2); n: items of that type. Labels: accuracy (correct/items).",
        categories: types.map((t) => `${t} (n=${int(typeCount(t))})`),
        series: d.systems.map((s, i) => ({
          label: names[i]!,
          values: types.map((t) => (s.byType[t] ? round(s.byType[t]!.accuracy, 2) : null)),
          labels: types.map((t) => (s.byType[t] ? pctCount(s.byType[t]!.correct, s.byType[t]!.total) : null)),
        })),
        valueAxis: "accuracy (% of items)",
        categoryAxis: "error type",
        min: 0,
        max: 100,
      }),
    });
    if (d.systems.some((s) => s.verdicts?.length)) {
      const kinds = Object.keys(VERDICT_LABEL).filter((k) => d.systems.some((s) => s.verdicts?.includes(k)));
      const colors: Record<string, string> = { "aligned-correct": color(0), "count-correct": color(4), "aligned-other-pronoun": color(5), "aligned-error": color(3), "count-wrong": color(1) };
      blocks.push({
        type: "chart",
        chart: barChart({
          id: `suite-verdicts-${fi}`,
          title: "How each item was judged",
          caption: "The reference pronoun is located in the output by word alignment; blue shades are correct, the others wrong. Labels: items (share).",
          categories: names,
          horizontal: true,
          stacked: true,
          series: kinds.map((k) => {
            const counts = d.systems.map((s) => (s.verdicts ?? []).filter((v) => v === k).length);
            return { label: VERDICT_LABEL[k]!, values: counts, labels: counts.map((c, i) => `${int(c)} (${pct((100 * c) / Math.max(1, d.systems[i]!.total))})`), color: colors[k] };
          }),
          valueAxis: "items",
          categoryAxis: "system",
        }),
      });
    }
    const ranker = d.systems.some((s) => s.ranker);
    blocks.push({
      type: "table",
      caption: "Per system: % (correct/items)",
      columns: ["system", "overall", ...(d.bootstrap ? ["95% CI"] : []), ...types, "known WMT errors", ...(ranker ? ["ranker ≥ ref"] : [])],
      align: ["l", "r", ...(d.bootstrap ? ["r" as const] : []), ...types.map(() => "r" as const), "r", ...(ranker ? ["r" as const] : [])],
      rows: d.systems.map((s, i) => [
        names[i]!,
        pctCount(s.correct, s.total),
        ...(d.bootstrap ? [ciOf(i) ? ci(ciOf(i)![0], ciOf(i)![1]) : "–"] : []),
        ...types.map((t) => (s.byType[t] ? pctCount(s.byType[t]!.correct, s.byType[t]!.total) : "–")),
        `${int(s.knownErrors)} (${pct((100 * s.knownErrors) / Math.max(1, s.total))})`,
        ...(ranker ? [s.ranker ? pct(s.ranker.notBelowReference) : "–"] : []),
      ]),
    });
    if (d.bootstrap?.comparisons.length)
      blocks.push({
        type: "table",
        caption: `Paired bootstrap against ${names[0]} (${int(d.bootstrap.samples)} resamples, seed ${d.bootstrap.seed}; * p < 0.05)`,
        columns: ["system", "Δ accuracy (pp)", "95% CI of Δ", "p"],
        align: ["l", "r", "r", "r"],
        rows: d.bootstrap.comparisons.map((c) => [names[d.systems.findIndex((s) => s.name === c.system)] ?? c.system, signed(c.delta), ci(c.ci[0], c.ci[1]), pValue(c.p)]),
      });
  });
  return {
    id: "suites",
    title: "Pronoun test suites",
    intro: "Generative accuracy on pronoun test suites built from mined WMT errors: does the system produce the reference's pronoun where WMT systems got it wrong?",
    blocks,
  };
}
