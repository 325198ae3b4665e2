/** The training section: loss and dev accuracy per epoch of `proneval train` runs (curve.json). */
import { axis, baseOptions, color, MAX_SERIES } from "../charts.js";
import { int, num, pct, PRON_KIND_LABEL, round } from "../format.js";
import type { TrainCurveJson } from "../inputs.js";
import type { Block, Section } from "../model.js";

export function lineDataset(label: string, points: Array<{ x: number; y: number | null }>, i: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { label, data: points, borderColor: color(i), backgroundColor: color(i), pointRadius: 3, borderWidth: 2, tension: 0, spanGaps: true, ...extra };
}

export function downsample<T>(xs: T[], max: number): T[] {
  if (xs.length <= max) return xs;
  const k = Math.ceil(xs.length / max);
  return xs.filter((_, i) => i % k === 0 || i === xs.length - 1);
}

export function trainingSection(runs: Array<{ label: string; data: TrainCurveJson }>): Section {
  const blocks: Block[] = [];
  const shown = runs.slice(0, MAX_SERIES);
  blocks.push({
    type: "chart",
    chart: {
      id: "train-loss",
      title: "Training loss per epoch",
      caption: "Mean margin loss max(0, 0.1 − y⁺ + y⁻) over the epoch's training pairs (lower is better; 0 = every pair ranked correctly by a margin of 0.1).",
      height: 300,
      config: {
        type: "line",
        data: { labels: [], datasets: shown.map((r, i) => lineDataset(r.label, r.data.curve.map((p) => ({ x: p.epoch, y: p.trainLoss })), i)) },
        options: baseOptions(shown.length > 1, { scales: { x: axis("epoch", { type: "linear", ticks: { precision: 0 } }), y: axis("mean margin loss (unitless)", { beginAtZero: true }) } }),
      },
    },
  });
  if (shown.some((r) => r.data.lossTrace.length > 0)) {
    blocks.push({
      type: "chart",
      chart: {
        id: "train-loss-steps",
        title: "Training loss by step",
        caption: "Running mean of the current epoch's loss, logged every 20 steps; it restarts at each epoch.",
        height: 260,
        config: {
          type: "line",
          data: { labels: [], datasets: shown.map((r, i) => lineDataset(r.label, downsample(r.data.lossTrace, 600).map((p) => ({ x: p.step, y: p.loss })), i, { pointRadius: 0, borderWidth: 1.5 })) },
          options: baseOptions(shown.length > 1, { scales: { x: axis("training step (batches)", { type: "linear" }), y: axis("running mean loss", { beginAtZero: true }) } }),
        },
      },
    });
  }
  const hasDev = shown.some((r) => r.data.curve.some((p) => p.devAccuracy !== null));
  if (hasDev) {
    const datasets: Array<Record<string, unknown>> = [];
    shown.forEach((r, i) => {
      const best = r.data.curve.map((p) => (p.best ? 7 : 3));
      datasets.push(lineDataset(shown.length > 1 ? `${r.label}: overall` : "overall", r.data.curve.map((p) => ({ x: p.epoch, y: p.devAccuracy === null ? null : round(100 * p.devAccuracy, 2) })), i, { pointRadius: best }));
      if (shown.length === 1) {
        const kinds = [...new Set(r.data.curve.flatMap((p) => Object.keys(p.devByKind ?? {})))];
        kinds.forEach((k, ki) =>
          datasets.push(
            lineDataset(PRON_KIND_LABEL[k] ?? k, r.data.curve.map((p) => ({ x: p.epoch, y: p.devByKind?.[k] === undefined ? null : round(100 * p.devByKind[k]!, 2) })), ki + 1, { borderDash: [6, 4], pointRadius: best }),
          ),
        );
      }
    });
    blocks.push({
      type: "chart",
      chart: {
        id: "train-dev-accuracy",
        title: "Dev accuracy per epoch",
        caption: "Share of dev pairs whose positive side scores above its negative side. Large points: the best epoch so far (its checkpoint was kept).",
        height: 300,
        config: { type: "line", data: { labels: [], datasets }, options: baseOptions(true, { scales: { x: axis("epoch", { type: "linear", ticks: { precision: 0 } }), y: axis("dev accuracy (%)") } }) },
      },
    });
  } else blocks.push({ type: "p", text: "No dev accuracy: the run(s) had no --dev file." });
  for (const r of runs) {
    const kinds = [...new Set(r.data.curve.flatMap((p) => Object.keys(p.devByKind ?? {})))];
    blocks.push({
      type: "table",
      caption: `Run ${r.label}: ${r.data.curve.length} evaluation point(s)`,
      columns: ["epoch", "step", "train loss", "dev accuracy", ...kinds.map((k) => `dev ${PRON_KIND_LABEL[k] ?? k}`), "seconds", "pairs/s", "best"],
      align: ["r", "r", "r", "r", ...kinds.map(() => "r" as const), "r", "r", "l"],
      rows: r.data.curve.map((p) => [
        Number.isInteger(p.epoch) ? String(p.epoch) : p.epoch.toFixed(2),
        int(p.step),
        num(p.trainLoss, 4),
        p.devAccuracy === null ? "–" : pct(100 * p.devAccuracy, 2),
        ...kinds.map((k) => (p.devByKind?.[k] === undefined ? "–" : pct(100 * p.devByKind[k]!, 2))),
        p.seconds.toFixed(0),
        p.pairsPerSec.toFixed(1),
        p.best ? "✔ best" : "",
      ]),
    });
  }
  if (runs.length > shown.length) blocks.push({ type: "p", text: `Charts show the first ${shown.length} of ${runs.length} runs; the tables list all.` });
  return {
    id: "training",
    title: "Training",
    intro: `${runs.length} training run(s) of the pronoun ranker, from the curve.json that proneval train writes into its checkpoint directory.`,
    blocks,
  };
}
