/**
 * Turns checked report inputs into ReportData: sections of charts, tables and the segment view.
 * Pure: no I/O; the same inputs and options give the same report (bootstrap is seeded).
 * One module per section under sections/; this file picks the inputs of each kind and assembles them.
 */
import { basename, dirname } from "node:path";
import { VERSION } from "../version.js";
import { KIND_DESCRIPTIONS, type ReportInput, type ScoreSystemJson } from "./inputs.js";
import type { ReportData, Section, SegmentView } from "./model.js";
import { ctxproSection } from "./sections/ctxpro.js";
import { evalSection } from "./sections/evaluation.js";
import { metaEvalSection } from "./sections/meta-eval.js";
import { aptSection, contrastiveSection, mudaSection } from "./sections/reference-based.js";
import { dataSection, pretrainingSection } from "./sections/runs.js";
import { scoringSection } from "./sections/scoring.js";
import { fillDetails } from "./sections/segments.js";
import { suiteSection } from "./sections/suite.js";
import { trainingSection } from "./sections/training.js";

export { parseEvalSetName, systemLabels } from "./sections/ctxpro.js";

export interface BuildOptions {
  title?: string;
  /** Bootstrap resamples for the score files' confidence intervals (0 = none). */
  bootstrap?: number;
  seed?: number;
  /** At most this many segments per score file get heat-map details. */
  maxHeatmaps?: number;
  /** Bytes of report data (JSON) the heat-map details may bring the total up to. */
  maxDataBytes?: number;
  /** Names for CTXPRO/suite systems by position (the first translation file is the first name). */
  systemNames?: string[];
  /** Fixed timestamp (tests, reproducible files). */
  generated?: string;
}

export const BUILD_DEFAULTS = { bootstrap: 1000, seed: 12345, maxHeatmaps: 300, maxDataBytes: 4_400_000 };

/** Short distinct names for input files: a training curve is named by its run directory. */
function fileLabels(files: string[]): string[] {
  const short = files.map((f) => {
    const b = basename(f).replace(/\.gz$/i, "").replace(/\.json$/i, "");
    return b === "curve" ? basename(dirname(f)) || b : b;
  });
  return short.map((s, i) => (short.indexOf(s) !== short.lastIndexOf(s) ? files[i]! : s));
}

// ---------------------------------------------------------------- report

/** Builds the report; heat-map details are added last, within what is left of the data budget. */
export function buildReport(inputs: ReportInput[], opts: BuildOptions = {}): ReportData {
  const o = { ...BUILD_DEFAULTS, ...opts };
  const labels = fileLabels(inputs.map((i) => i.file));
  const warnings: string[] = [];
  type DataOf = { [K in ReportInput["kind"]]: Extract<ReportInput, { kind: K }>["data"] };
  const of = <K extends ReportInput["kind"]>(k: K): Array<{ label: string; file: string; data: DataOf[K] }> =>
    inputs.flatMap((x, i) => (x.kind === k ? [{ label: labels[i]!, file: x.file, data: x.data as DataOf[K] }] : []));
  const sections: Section[] = [];
  const curves = of("train-curve");
  const evals = of("eval");
  const scores = of("score");
  const compares = of("compare");
  const ctxpros = of("ctxpro-score");
  const suites = of("suite-score");
  const apts = of("apt");
  const mudas = of("muda-score");
  const contrastives = of("contrastive");
  const metaEvals = of("meta-eval");
  const pretrains = of("pretrain-curve");
  // pretrain-ontop's dev accuracies are eval reports: drawn with the eval files, one per epoch.
  const onTop = of("ontop").flatMap((x) => [
    { label: `${x.label}: zero-shot`, file: x.file, data: x.data.zeroShotDev },
    ...x.data.dev.map((d, k) => ({ label: `${x.label}: ${x.data.variant} epoch ${k + 1}`, file: x.file, data: d })),
  ]);
  const counts = { pairs: of("pair-stats"), suites: of("suite-stats"), checks: of("contrastive-check") };
  const views: Array<{ view: SegmentView; ranked: ScoreSystemJson[]; candidates: number[] }> = [];
  if (curves.length) sections.push(trainingSection(curves));
  if (pretrains.length) sections.push(pretrainingSection(pretrains));
  if (evals.length || onTop.length) sections.push(evalSection([...evals, ...onTop]));
  if (scores.length || compares.length) sections.push(scoringSection(scores, compares, { bootstrap: o.bootstrap, seed: o.seed }, (m) => warnings.push(m), views));
  if (ctxpros.length) sections.push(ctxproSection(ctxpros, o.systemNames));
  if (suites.length) sections.push(suiteSection(suites, o.systemNames));
  if (apts.length) sections.push(aptSection(apts));
  if (mudas.length) sections.push(mudaSection(mudas));
  if (contrastives.length) sections.push(contrastiveSection(contrastives));
  if (metaEvals.length) sections.push(metaEvalSection(metaEvals));
  if (counts.pairs.length || counts.suites.length || counts.checks.length) sections.push(dataSection(counts.pairs, counts.suites, counts.checks));
  const data: ReportData = {
    title: o.title ?? "proneval report",
    generated: o.generated ?? new Date().toISOString(),
    version: VERSION,
    inputs: inputs.map((x, i) => ({ file: x.file, kind: x.kind, what: `${KIND_DESCRIPTIONS[x.kind]}${labels[i] !== x.file ? `, shown as "${labels[i]}"` : ""}` })),
    warnings,
    sections,
  };
  if (views.length) {
    const left = Math.max(0, o.maxDataBytes - JSON.stringify(data).length);
    for (const v of views) fillDetails(v.view, v.ranked, v.candidates, Math.floor(left / views.length), o.maxHeatmaps);
  }
  return data;
}
