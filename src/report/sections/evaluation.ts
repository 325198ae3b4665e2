/** The evaluation section: pair accuracy of `proneval eval --json` files. */
import { barChart, MAX_SERIES } from "../charts.js";
import { int, pctCount, PRON_KIND_LABEL, round } from "../format.js";
import type { EvalJson } from "../inputs.js";
import type { Block, ChartSpec, Section } from "../model.js";

export function evalSection(evals: Array<{ label: string; data: EvalJson }>): Section {
  const blocks: Block[] = [];
  const shown = evals.slice(0, MAX_SERIES);
  blocks.push({
    type: "table",
    caption: "Evaluations",
    columns: ["evaluation", "pairs", "overall accuracy", "context", "checkpoint", "pair file"],
    align: ["l", "r", "r", "l", "l", "l"],
    rows: evals.map((e) => [e.label, int(e.data.pairs), pctCount(e.data.overall.correct, e.data.overall.n, 2), e.data.contextMode, e.data.checkpoint ?? "–", e.data.pairsFile ?? "–"]),
    note: evals.filter((e) => e.data.signature).map((e) => `${e.label}: ${e.data.signature}`).join("\n") || undefined,
  });
  const cellChart = (id: string, title: string, caption: string, key: "byKind" | "byLang" | "byPronounPair", catLabel: (k: string) => string, keys: string[], catAxis: string): ChartSpec =>
    barChart({
      id,
      title,
      caption,
      categories: keys.map(catLabel),
      horizontal: true,
      series: shown.map((e) => ({
        label: e.label,
        values: keys.map((k) => (e.data[key][k] ? round(100 * e.data[key][k]!.accuracy, 2) : null)),
        labels: keys.map((k) => (e.data[key][k] ? pctCount(e.data[key][k]!.correct, e.data[key][k]!.n) : null)),
      })),
      valueAxis: "accuracy (% of pairs ranked correctly)",
      categoryAxis: catAxis,
      min: 0,
      max: 100,
    });
  const union = (key: "byKind" | "byLang" | "byPronounPair"): string[] => [...new Set(shown.flatMap((e) => Object.keys(e.data[key])))];
  blocks.push({
    type: "chart",
    chart: cellChart("eval-kind", "Accuracy by kind of pair", "system: reference vs a real MT output with a different pronoun; noisy: reference vs the reference with one pronoun replaced. Labels: accuracy (correct/pairs).", "byKind", (k) => PRON_KIND_LABEL[k] ?? k, union("byKind"), "kind of pair"),
  });
  blocks.push({ type: "chart", chart: cellChart("eval-lang", "Accuracy by source language", "Labels: accuracy (correct/pairs).", "byLang", (k) => k, union("byLang"), "source language") });
  const first = shown[0]!.data.byPronounPair;
  const allPairs = union("byPronounPair").sort((a, b) => (first[b]?.n ?? 0) - (first[a]?.n ?? 0) || (a < b ? -1 : 1));
  const top = allPairs.slice(0, 25);
  blocks.push({
    type: "chart",
    chart: cellChart(
      "eval-pronoun-pair",
      `Accuracy by (reference → system) pronoun pair: the ${top.length} most frequent of ${allPairs.length}`,
      `Ordered by the number of pairs in ${shown[0]!.label}. Labels: accuracy (correct/pairs).`,
      "byPronounPair",
      (k) => k.replace(">", " → "),
      top,
      "reference pronoun → system pronoun",
    ),
  });
  const limit = 200;
  blocks.push({
    type: "table",
    caption: "All pronoun pairs",
    columns: ["reference → system", ...shown.map((e) => e.label)],
    align: ["l", ...shown.map(() => "r" as const)],
    rows: allPairs.slice(0, limit).map((k) => [k.replace(">", " → "), ...shown.map((e) => (e.data.byPronounPair[k] ? pctCount(e.data.byPronounPair[k]!.correct, e.data.byPronounPair[k]!.n) : "–"))]),
    note: allPairs.length > limit ? `${allPairs.length - limit} rarer pairs left out.` : undefined,
  });
  return {
    id: "evaluation",
    title: "Ranker evaluation",
    intro: "Accuracy of the ranker on pair files: a pair is right when the positive (reference) side scores strictly above the negative side (ties count as errors).",
    blocks,
  };
}
