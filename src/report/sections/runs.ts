/**
 * Pretraining curves (`pretrain`'s curve.json) and the data counts the commands print as JSON
 * (`stats`, `suite stats`, `contrastive --self-check`).
 */
import { axis, baseOptions, MAX_SERIES } from "../charts.js";
import { int, num, pct } from "../format.js";
import type { ContrastiveCheckJson, PairStatsJson, PretrainCurveJson, SuiteStatsJson } from "../inputs.js";
import type { Block, Section } from "../model.js";
import { downsample, lineDataset } from "./training.js";

export function pretrainingSection(runs: Array<{ label: string; data: PretrainCurveJson }>): Section {
  const blocks: Block[] = [];
  const shown = runs.slice(0, MAX_SERIES);
  blocks.push({
    type: "chart",
    chart: {
      id: "pretrain-loss",
      title: "Pretraining loss by step",
      caption: "Mean training loss since the previous evaluation (masked pronoun: cross-entropy of the pronoun; replaced: of the swap detector).",
      height: 280,
      config: {
        type: "line",
        data: { labels: [], datasets: shown.map((r, i) => lineDataset(r.label, downsample(r.data.curve, 600).map((p) => ({ x: p.step, y: p.loss })), i, { pointRadius: 0 })) },
        options: baseOptions(shown.length > 1, { scales: { x: axis("training step (batches)", { type: "linear" }), y: axis("mean loss", { beginAtZero: true }) } }),
      },
    },
  });
  if (shown.some((r) => r.data.curve.some((p) => p.dev))) {
    const datasets = shown.flatMap((r, i) => [
      lineDataset(`${r.label}: log P`, r.data.curve.filter((p) => p.dev).map((p) => ({ x: p.step, y: 100 * p.dev!.overall })), i),
      lineDataset(`${r.label}: PMI`, r.data.curve.filter((p) => p.dev?.pmi).map((p) => ({ x: p.step, y: 100 * p.dev!.pmi!.overall })), i, { borderDash: [6, 4] }),
    ]);
    blocks.push({
      type: "chart",
      chart: {
        id: "pretrain-dev",
        title: "Zero-shot dev accuracy by step",
        caption: "Share of dev pairs whose positive side the model prefers, with summed log-probabilities (solid) and with PMI, log P minus the pronoun's log-prior (dashed).",
        height: 300,
        config: { type: "line", data: { labels: [], datasets }, options: baseOptions(true, { scales: { x: axis("training step (batches)", { type: "linear" }), y: axis("dev accuracy (%)") } }) },
      },
    });
  }
  for (const r of runs) {
    blocks.push({
      type: "table",
      caption: `Run ${r.label}: ${r.data.curve.length} evaluation point(s)`,
      columns: ["step", "epoch", "loss", "dev accuracy (log P)", "dev accuracy (PMI)", "dev pairs", "hours", "tokens/s"],
      align: ["r", "r", "r", "r", "r", "r", "r", "r"],
      rows: r.data.curve.map((p) => [
        int(p.step),
        num(p.epoch, 2),
        num(p.loss, 4),
        p.dev ? pct(100 * p.dev.overall, 2) : "–",
        p.dev?.pmi ? pct(100 * p.dev.pmi.overall, 2) : "–",
        p.dev ? int(p.dev.pairs) : "–",
        num(p.seconds / 3600, 2),
        int(Math.round(p.tokensPerSec)),
      ]),
    });
  }
  return { id: "pretraining", title: "Pretraining", intro: `${runs.length} masked-pronoun pretraining run(s), from the curve.json that proneval pretrain writes into its output directory.`, blocks };
}

export function dataSection(
  pairStats: Array<{ label: string; data: PairStatsJson }>,
  suiteStats: Array<{ label: string; data: SuiteStatsJson }>,
  checks: Array<{ label: string; data: ContrastiveCheckJson }>,
): Section {
  const blocks: Block[] = [];
  const pairs = pairStats.flatMap((f) => f.data.rows);
  if (pairs.length) {
    const kinds = [...new Set(pairs.flatMap((r) => Object.keys(r.byKind)))];
    blocks.push({
      type: "table",
      caption: "Pair files (proneval stats): pairs by kind",
      columns: ["file", ...kinds, "total", "most frequent (reference → system) pronoun pairs"],
      align: ["l", ...kinds.map(() => "r" as const), "r", "l"],
      rows: pairs.map((r) => [r.file, ...kinds.map((k) => int(r.byKind[k] ?? 0)), int(r.total), r.pronounPairs.slice(0, 5).map((p) => `${p.ref} → ${p.sys} (${int(p.count)})`).join(", ")]),
    });
  }
  const suites = suiteStats.flatMap((f) => f.data.rows);
  if (suites.length) {
    const types = [...new Set(suites.flatMap((r) => Object.keys(r.byType)))];
    blocks.push({
      type: "table",
      caption: "Pronoun suites (proneval suite stats; the paper's Table 2)",
      columns: ["source", "WMT years", "contexts", "items", "errors", ...types],
      align: ["l", "l", "r", "r", "r", ...types.map(() => "r" as const)],
      rows: suites.map((r) => [r.lang, r.years.join(", "), int(r.uniqueSourceContexts), int(r.items), int(r.errors), ...types.map((t) => int(r.byType[t] ?? 0))]),
    });
  }
  const sets = checks.flatMap((f) => f.data.rows);
  if (sets.length) {
    blocks.push({
      type: "table",
      caption: "Contrastive harness check (constant scores must give the chance rate)",
      columns: ["set", "items", "candidates", "constant-score accuracy", "chance", "check"],
      align: ["l", "r", "r", "r", "r", "l"],
      rows: sets.map((r) => [r.set, int(r.items), int(r.candidates), pct(r.constantAccuracy, 2), pct(r.chance, 2), r.failures.length ? `FAIL: ${r.failures.join("; ")}` : "ok"]),
    });
  }
  return { id: "data", title: "Data", intro: "Counts of the data the other sections were measured on, from the JSON of proneval stats, suite stats and contrastive --self-check.", blocks };
}
