/**
 * Turns checked report inputs into ReportData: sections of charts, tables and the segment view.
 * Pure: no I/O; the same inputs and options give the same report (bootstrap is seeded).
 */
import { basename, dirname } from "node:path";
import { TIE_EPS } from "../core/scorer.js";
import { pairedBootstrapStats } from "../stats/bootstrap.js";
import { VERSION } from "../version.js";
import { axis, barChart, baseOptions, color, labelPadding, MAX_SERIES, type Series } from "./charts.js";
import { ci, int, num, pct, pctCount, pValue, round, signed } from "./format.js";
import {
  KIND_DESCRIPTIONS,
  type CompareJson,
  type CtxproJson,
  type EvalJson,
  type ReportInput,
  type ScoreJson,
  type ScoreSystemJson,
  type SuiteJson,
  type TrainCurveJson,
} from "./inputs.js";
import { NEUTRAL, type Block, type ChartSpec, type ReportData, type Section, type SegmentDetail, type SegmentView, type SideDetail } from "./model.js";


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

const PRON_KIND_LABEL: Record<string, string> = { system: "system (R vs S)", noisy: "noisy (R vs R′)" };

/** Short distinct names for input files: a training curve is named by its run directory. */
function fileLabels(files: string[]): string[] {
  const short = files.map((f) => {
    const b = basename(f).replace(/\.gz$/i, "").replace(/\.json$/i, "");
    return b === "curve" ? basename(dirname(f)) || b : b;
  });
  return short.map((s, i) => (short.indexOf(s) !== short.lastIndexOf(s) ? files[i]! : s));
}

/** More than MAX_SERIES series cannot each get a safe colour: then one bar per (category, series). */
function grouped(o: Parameters<typeof barChart>[0]): ChartSpec {
  // Horizontal, so every bar has room for its "85.2% (170/200)" label.
  if (o.series.length <= MAX_SERIES) return barChart({ ...o, horizontal: true });
  const cats: string[] = [];
  const s: Series = { label: o.valueAxis, values: [], labels: [], errorBars: [] };
  o.categories.forEach((c, ci) =>
    o.series.forEach((x) => {
      cats.push(`${c} · ${x.label}`);
      s.values.push(x.values[ci] ?? null);
      s.labels!.push(x.labels?.[ci] ?? null);
      s.errorBars!.push(x.errorBars?.[ci] ?? null);
    }),
  );
  return barChart({ ...o, categories: cats, series: [s], horizontal: true });
}

// ---------------------------------------------------------------- training

function lineDataset(label: string, points: Array<{ x: number; y: number | null }>, i: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { label, data: points, borderColor: color(i), backgroundColor: color(i), pointRadius: 3, borderWidth: 2, tension: 0, spanGaps: true, ...extra };
}

function downsample<T>(xs: T[], max: number): T[] {
  if (xs.length <= max) return xs;
  const k = Math.ceil(xs.length / max);
  return xs.filter((_, i) => i % k === 0 || i === xs.length - 1);
}

function trainingSection(runs: Array<{ label: string; data: TrainCurveJson }>): Section {
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

// ---------------------------------------------------------------- evaluation

function evalSection(evals: Array<{ label: string; data: EvalJson }>): Section {
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

// ---------------------------------------------------------------- scoring

interface Ranked {
  sys: ScoreSystemJson;
  score: number;
  ci: [number, number] | null;
  /** Against the best system: paired bootstrap delta, interval, p. */
  vsBest: { delta: number; ci: [number, number]; p: number } | null;
}

/** Ranks systems and adds paired-bootstrap intervals over segments (statistics: [not below, pronoun segment]). */
function rankSystems(score: ScoreJson, samples: number, seed: number, warn: (m: string) => void, file: string): Ranked[] {
  const systems = [...score.systems].sort((a, b) => b.summary.score - a.summary.score || (a.system < b.system ? -1 : 1));
  const n = systems[0]!.segments.length;
  const stats = systems.map((s) => {
    const st = new Float64Array(2 * n);
    s.segments.forEach((g, i) => {
      if (g.status !== "scored") return;
      st[2 * i] = g.sys! >= g.ref! - TIE_EPS ? 1 : 0;
      st[2 * i + 1] = 1;
    });
    return { name: s.system, stats: st };
  });
  const metric = (sums: Float64Array): number => (sums[1]! > 0 ? (100 * sums[0]!) / sums[1]! : 0);
  systems.forEach((s, i) => {
    let ok = 0;
    let tot = 0;
    for (let k = 0; k < n; k++) (ok += stats[i]!.stats[2 * k]!), (tot += stats[i]!.stats[2 * k + 1]!);
    const mine = tot ? (100 * ok) / tot : 0;
    if (Math.abs(mine - s.summary.score) > 1e-6)
      warn(`${file}: ${s.system}: the segments give a score of ${mine.toFixed(4)} but the summary says ${s.summary.score.toFixed(4)}; intervals use the segments`);
  });
  if (samples <= 0 || n === 0) return systems.map((s) => ({ sys: s, score: s.summary.score, ci: null, vsBest: null }));
  const bs = pairedBootstrapStats(stats, 2, metric, samples, seed);
  return systems.map((s, i) => ({
    sys: s,
    score: s.summary.score,
    ci: bs.systems[i]!.ci,
    vsBest: i === 0 ? null : { delta: bs.comparisons[i - 1]!.delta, ci: bs.comparisons[i - 1]!.ci, p: bs.comparisons[i - 1]!.p },
  }));
}

function verdictOf(g: { status: string; ref: number | null; sys: number | null }): string {
  return g.status !== "scored" ? "." : g.sys! >= g.ref! - TIE_EPS ? "+" : "-";
}

/** Heat-map detail of one segment, or null when the file holds no scored sides for it. */
function segmentDetail(ranked: ScoreSystemJson[], i: number): SegmentDetail | null {
  const refSide = ranked.map((s) => s.segments[i]!.refSide).find((x) => x !== undefined);
  if (!refSide || !ranked.some((s) => s.segments[i]!.sysSide)) return null;
  const ctx: string[][] = [];
  const sent: string[][] = [];
  const pools = [new Map<string, number>(), new Map<string, number>()] as const;
  const intern = (k: 0 | 1, toks: string[]): number => {
    const key = toks.join("\u0000");
    let at = pools[k].get(key);
    if (at === undefined) {
      at = (k === 0 ? ctx : sent).push(toks) - 1;
      pools[k].set(key, at);
    }
    return at;
  };
  const sides: SideDetail[] = [];
  const sideIdx = new Map<string, number>();
  const add = (s: NonNullable<typeof refSide>): number => {
    const c = intern(0, s.tokens.slice(0, s.sentStart));
    const w = intern(1, s.tokens.slice(s.sentStart));
    const key = `${c}:${w}`;
    const seen = sideIdx.get(key);
    if (seen !== undefined) return seen;
    sides.push({
      c,
      w,
      y: round(s.score),
      tr: s.truncatedContext ?? 0,
      p: s.pronouns.map((p) => [p.index, round(p.score), (p.attention ?? []).map((a) => Math.round(1000 * a))]),
    });
    sideIdx.set(key, sides.length - 1);
    return sides.length - 1;
  };
  const ref = add(refSide);
  const sys = ranked.map((s) => (s.segments[i]!.sysSide ? add(s.segments[i]!.sysSide!) : -1));
  return { ctx, sent, sides, ref, sys };
}

function segmentView(id: string, ranked: ScoreSystemJson[]): { view: SegmentView; candidates: number[] } {
  const first = ranked[0]!.segments;
  const docs: string[] = [];
  const docIdx = new Map<string, number>();
  const view: SegmentView = {
    id,
    systems: ranked.map((s) => s.system),
    docs,
    doc: [],
    segId: [],
    refScore: [],
    refPron: [],
    sysScore: ranked.map(() => []),
    sysPron: ranked.map(() => []),
    verdict: [],
    details: {},
    detailNote: "",
  };
  const verdicts: string[][] = ranked.map(() => []);
  const priority: Array<[number, number]> = [];
  first.forEach((g, i) => {
    let d = docIdx.get(g.doc);
    if (d === undefined) docIdx.set(g.doc, (d = docs.push(g.doc) - 1));
    view.doc.push(d);
    view.segId.push(g.seg);
    const refRow = ranked.map((s) => s.segments[i]!).find((x) => x.ref !== null);
    view.refScore.push(refRow ? round(refRow.ref!) : null);
    const refPron = g.refPronouns.join(" ");
    view.refPron.push(refPron);
    let lo = Infinity;
    let hi = -Infinity;
    const vs = new Set<string>();
    ranked.forEach((s, si) => {
      const x = s.segments[i]!;
      view.sysScore[si]!.push(x.sys === null ? null : round(x.sys));
      const p = x.sysPronouns.join(" ");
      view.sysPron[si]!.push(p === refPron ? "=" : p);
      const v = verdictOf(x);
      verdicts[si]!.push(v);
      vs.add(v);
      if (x.sys !== null) (lo = Math.min(lo, x.sys)), (hi = Math.max(hi, x.sys));
    });
    // Segments where systems disagree (some below the reference, some not) and whose scores spread most first.
    if (hi >= lo) priority.push([i, (vs.has("+") && vs.has("-") ? 1e6 : 0) + (hi - lo)]);
  });
  view.verdict = verdicts.map((v) => v.join(""));
  priority.sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  return { view, candidates: priority.map(([i]) => i) };
}

function fillDetails(view: SegmentView, ranked: ScoreSystemJson[], candidates: number[], budget: number, max: number): void {
  let used = 0;
  let withSides = 0;
  let over = false;
  for (const i of candidates) {
    if (Object.keys(view.details).length >= max) break;
    const d = segmentDetail(ranked, i);
    if (!d) continue;
    withSides++;
    const size = JSON.stringify(d).length + 8;
    if (used + size > budget) {
      over = true;
      continue;
    }
    used += size;
    view.details[String(i)] = d;
  }
  const k = Object.keys(view.details).length;
  const pronounSegs = candidates.length;
  if (k === 0) {
    view.detailNote =
      withSides === 0
        ? "This score file holds no per-pronoun scores or attention (its segments have no refSide/sysSide; see docs/report.md), so the segment view shows scores and pronouns only."
        : `No heat map fits the size budget (${(budget / 1e6).toFixed(2)} MB left for them).`;
  } else {
    view.detailNote =
      `Heat maps are stored for ${int(k)} of ${int(pronounSegs)} pronoun segments: those where the systems disagree most ` +
      `(some ranked below the reference, some not; then the widest spread of scores)` +
      (over ? `, as many as fit the file-size budget` : k >= max ? `, at most ${int(max)} (--max-heatmaps)` : "") +
      ". Segments with a heat map are marked ◆.";
  }
}

function scoringSection(
  scores: Array<{ label: string; file: string; data: ScoreJson }>,
  compares: Array<{ label: string; data: CompareJson }>,
  o: Required<Pick<BuildOptions, "bootstrap" | "seed">>,
  warn: (m: string) => void,
  views: Array<{ view: SegmentView; ranked: ScoreSystemJson[]; candidates: number[] }>,
): Section {
  const blocks: Block[] = [];
  scores.forEach((s, fi) => {
    const d = s.data;
    const ranked = rankSystems(d, o.bootstrap, o.seed, warn, s.file);
    const n = d.systems[0]!.segments.length;
    const ts = d.testSet;
    blocks.push({ type: "h3", text: `${ts?.name ?? s.label}${ts?.langPair ? ` (${ts.langPair})` : ""}: ${ranked.length} system(s), ${int(n)} segments`, anchor: `score-${fi}` });
    blocks.push({
      type: "kv",
      items: [
        ["file", s.file],
        ...(d.reference ? [["reference", d.reference] as [string, string]] : []),
        ...(d.context ? [["context", d.context] as [string, string]] : []),
        ["system score", d.systemScoreDefinition ?? "100 × share of pronoun segments where the system is not ranked below the reference"],
        ["confidence intervals", o.bootstrap > 0 ? `95% paired bootstrap over segments, ${int(o.bootstrap)} resamples, seed ${o.seed} (computed by proneval report)` : "none (--bootstrap 0)"],
        ...(d.signature ? [["signature", d.signature] as [string, string]] : []),
      ],
    });
    const tiedWithBest = (r: Ranked): boolean => !r.vsBest || r.vsBest.p >= 0.05;
    const labels = ranked.map((r) => `${r.score.toFixed(1)}${r.ci ? ` ${ci(r.ci[0], r.ci[1])}` : ""}, n=${int(r.sys.summary.pronounSegments)}`);
    const lows = ranked.map((r) => (r.ci ? r.ci[0] : r.score));
    const highs = ranked.map((r) => (r.ci ? r.ci[1] : r.score));
    const pad = Math.max(1, (Math.max(...highs) - Math.min(...lows)) * 0.08);
    const groups: Array<{ label: string; member: (r: Ranked) => boolean; color: string }> = [
      { label: o.bootstrap > 0 ? "not significantly below the best (p ≥ 0.05)" : "score", member: (r) => tiedWithBest(r), color: color(0) },
      ...(o.bootstrap > 0 ? [{ label: "significantly below the best (p < 0.05)", member: (r: Ranked) => !tiedWithBest(r), color: color(1) }] : []),
    ];
    blocks.push({
      type: "chart",
      chart: {
        id: `score-rank-${fi}`,
        title: "Systems ranked by pronoun score",
        caption: "Point: the system's score; whiskers: 95% bootstrap interval; n: pronoun segments. Colour: whether a paired bootstrap test against the best system finds it worse.",
        height: Math.max(170, 100 + ranked.length * 24),
        config: {
          type: "line",
          data: {
            labels: ranked.map((r) => r.sys.system),
            datasets: groups.map((g) => ({
              label: g.label,
              data: ranked.map((r) => (g.member(r) ? round(r.score, 3) : null)),
              errorBars: ranked.map((r) => (g.member(r) && r.ci ? [round(r.ci[0], 3), round(r.ci[1], 3)] : null)),
              valueLabels: ranked.map((r, i) => (g.member(r) ? labels[i]! : null)),
              showLine: false,
              pointRadius: 6,
              pointHoverRadius: 8,
              pointStyle: "circle",
              borderColor: g.color,
              backgroundColor: g.color,
            })),
          },
          options: baseOptions(groups.length > 1, {
            indexAxis: "y",
            layout: { padding: { right: labelPadding(labels) } },
            scales: {
              y: axis("system (best first)", { type: "category" }),
              x: axis("pronoun score (% of pronoun segments not ranked below the reference)", { type: "linear", min: Math.max(0, Math.floor(Math.min(...lows) - pad)), max: Math.min(100, Math.ceil(Math.max(...highs) + pad)) }),
            },
          }),
        },
      },
    });
    blocks.push({
      type: "table",
      caption: "Ranking (p: paired bootstrap against the best system; * p < 0.05)",
      columns: ["rank", "system", "score", "95% CI", "Δ to best", "p vs best", "not below ref", "mean y_sys − y_ref", "pronoun segments", "no-pronoun segments"],
      align: ["r", "l", "r", "r", "r", "r", "r", "r", "r", "r"],
      rows: ranked.map((r, i) => {
        const sm = r.sys.summary;
        return [
          String(i + 1),
          r.sys.system,
          r.score.toFixed(2),
          r.ci ? ci(r.ci[0], r.ci[1], 2) : "–",
          r.vsBest ? signed(r.vsBest.delta, 2) : "best",
          r.vsBest ? pValue(r.vsBest.p) : "",
          `${int(Math.round(sm.notBelow * sm.pronounSegments))}/${int(sm.pronounSegments)}`,
          num(sm.meanDiff, 4),
          int(sm.pronounSegments),
          int(sm.noPronounSegments),
        ];
      }),
    });
    const sv = segmentView(`seg-${fi}`, ranked.map((r) => r.sys));
    views.push({ view: sv.view, ranked: ranked.map((r) => r.sys), candidates: sv.candidates });
    blocks.push({ type: "h3", text: "Segments: scores, pronouns and attention", anchor: `segments-${fi}` });
    blocks.push({ type: "segments", view: sv.view });
  });
  compares.forEach((c, ci_) => {
    const d = c.data;
    const total = d.wins.a + d.wins.b + d.wins.ties;
    const better = d.scoreA === d.scoreB ? "neither" : d.scoreA > d.scoreB ? d.a : d.b;
    blocks.push({ type: "h3", text: `Paired comparison: ${d.a} vs ${d.b}`, anchor: `compare-${ci_}` });
    blocks.push({
      type: "kv",
      items: [
        ["file", c.label],
        [`A: ${d.a}`, `score ${d.scoreA.toFixed(2)}`],
        [`B: ${d.b}`, `score ${d.scoreB.toFixed(2)}`],
        ["better", `${better} (A − B = ${signed(d.scoreA - d.scoreB, 2)}, 95% CI ${ci(d.bootstrap.ci95[0], d.bootstrap.ci95[1], 2)}, p = ${pValue(d.bootstrap.pValue)}, ${int(d.bootstrap.samples)} resamples)`],
        ["pronoun segments", int(d.pronounSegments)],
        ["mean y_A − y_B", num(d.meanDiff, 4)],
        ...(d.signature ? [["signature", d.signature] as [string, string]] : []),
      ],
    });
    const part = (k: number): string => `${int(k)} (${pct(total ? (100 * k) / total : 0)})`;
    blocks.push({
      type: "chart",
      chart: barChart({
        id: `compare-${ci_}`,
        title: "Which system scores higher, segment by segment",
        caption: "Pronoun segments of either system; a tie is a score difference within 1e-5.",
        categories: [`${d.a} vs ${d.b}`],
        horizontal: true,
        stacked: true,
        series: [
          { label: `A better (${d.a})`, values: [d.wins.a], labels: [part(d.wins.a)], color: color(0) },
          { label: "tie", values: [d.wins.ties], labels: [part(d.wins.ties)], color: NEUTRAL },
          { label: `B better (${d.b})`, values: [d.wins.b], labels: [part(d.wins.b)], color: color(1) },
        ],
        valueAxis: "pronoun segments",
      }),
    });
  });
  return {
    id: "scoring",
    title: "Pronoun scores",
    intro:
      "Systems scored by the learned pronoun ranker against the reference. Pick a segment below to see each pronoun's score and where its attention went in the context (as in Jwalapuram et al. 2019, Figures 5–6).",
    blocks,
  };
}

// ---------------------------------------------------------------- CTXPRO

/** "gender.opensubtitles.en-de.dev.json.gz" -> phenomenon gender, pair en-de, split dev. */
export function parseEvalSetName(path: string): { phenomenon: string; pair: string; split: string | null; stem: string } {
  const stem = basename(path).replace(/\.gz$/i, "").replace(/\.json$/i, "");
  const parts = stem.split(".");
  const pair = parts.find((p) => /^[a-z]{2}-[a-z]{2}$/.test(p)) ?? "?";
  const split = parts.find((p) => ["dev", "devtest", "test"].includes(p)) ?? null;
  return { phenomenon: parts[0] || stem, pair, split, stem };
}

/**
 * System names from translation file paths: the parts that differ between a file's systems, minus the
 * parts of the evaluation set's own name, so "sysA/gender.de.txt" becomes "sysA" in every set.
 */
export function systemLabels(names: string[], setName: string): string[] {
  const setTokens = new Set(basename(setName).toLowerCase().split(/[._-]+/).concat(["txt", "out", "hyp", "hyps", "json", "gz"]));
  const comps = names.map((n) => n.split(/[/\\]+/).filter(Boolean));
  const common = names.length > 1 ? comps[0]!.filter((c) => comps.every((cs) => cs.includes(c))) : [];
  // Within the remaining components, drop the words of the set's name ("gender", "de", "dev", "txt"), keeping separators.
  const strip = (c: string): string =>
    c
      .split(/([._-]+)/)
      .filter((t, k, all) => !(k % 2 === 0 && setTokens.has(t.toLowerCase())) && !(k % 2 === 1 && (k === 0 || k === all.length - 1)))
      .join("")
      .replace(/^[._-]+|[._-]+$/g, "")
      .replace(/([._-])[._-]+/g, "$1");
  return names.map((n, i) => {
    const keep = comps[i]!.filter((c) => !common.includes(c)).map(strip).filter(Boolean);
    return keep.length ? keep.join("/") : basename(n);
  });
}

function ctxproSection(files: Array<{ label: string; data: CtxproJson }>, systemNames: string[] | undefined): Section {
  const blocks: Block[] = [];
  const sets = files.map((f) => {
    const meta = parseEvalSetName(f.data.evalSet);
    const names = f.data.systems.map((s, i) => systemNames?.[i] ?? systemLabels(f.data.systems.map((x) => x.name), f.data.evalSet)[i]!);
    const ciOf = new Map((f.data.bootstrap?.systems ?? []).map((b, i) => [i, b.ci] as const));
    return { ...f, meta, names, ciOf };
  });
  const systems = [...new Set(sets.flatMap((s) => s.names))];
  const setLabel = (s: (typeof sets)[number]): string => `${s.meta.phenomenon} ${s.meta.pair}${s.meta.split ? ` (${s.meta.split})` : ""}`;
  blocks.push({
    type: "table",
    caption: "Generative accuracy per evaluation set: % (correct/items)",
    columns: ["phenomenon", "language pair", "split", "items", ...systems],
    align: ["l", "l", "l", "r", ...systems.map(() => "r" as const)],
    rows: sets.map((s) => [
      s.meta.phenomenon,
      s.meta.pair,
      s.meta.split ?? "",
      int(s.data.items),
      ...systems.map((name) => {
        const k = s.names.indexOf(name);
        return k < 0 ? "–" : pctCount(s.data.systems[k]!.correct, s.data.systems[k]!.total);
      }),
    ]),
  });
  const phenomena = [...new Set(sets.map((s) => s.meta.phenomenon))];
  for (const ph of phenomena) {
    const these = sets.filter((s) => s.meta.phenomenon === ph);
    const cats = these.map((s) => `${s.meta.pair}${these.filter((x) => x.meta.pair === s.meta.pair).length > 1 ? ` ${s.meta.split ?? s.meta.stem}` : ""}`);
    const series: Series[] = systems
      .filter((name) => these.some((s) => s.names.includes(name)))
      .map((name) => ({
        label: name,
        values: these.map((s) => {
          const k = s.names.indexOf(name);
          return k < 0 ? null : round(s.data.systems[k]!.accuracy, 2);
        }),
        labels: these.map((s) => {
          const k = s.names.indexOf(name);
          return k < 0 ? null : pctCount(s.data.systems[k]!.correct, s.data.systems[k]!.total);
        }),
        errorBars: these.map((s) => {
          const k = s.names.indexOf(name);
          const c = k < 0 ? undefined : s.ciOf.get(k);
          return c ? ([round(c[0], 2), round(c[1], 2)] as [number, number]) : null;
        }),
      }));
    blocks.push({
      type: "chart",
      chart: grouped({
        id: `ctxpro-${ph}`,
        title: `CTXPRO ${ph}: generative accuracy by language pair`,
        caption: "Share of items whose expected form appears in the system's translation. Whiskers: 95% paired bootstrap interval (when the scores were computed with several systems). Labels: accuracy (correct/items).",
        categories: cats,
        series,
        valueAxis: "generative accuracy (%)",
        categoryAxis: "language pair",
        min: 0,
        max: 100,
      }),
    });
  }
  const comparisons = sets.flatMap((s) =>
    (s.data.bootstrap?.comparisons ?? []).map((c) => {
      const bi = s.data.systems.findIndex((x) => x.name === c.baseline);
      const si = s.data.systems.findIndex((x) => x.name === c.system);
      return [setLabel(s), s.names[si] ?? c.system, s.names[bi] ?? c.baseline, signed(c.delta), ci(c.ci[0], c.ci[1]), pValue(c.p)];
    }),
  );
  if (comparisons.length)
    blocks.push({
      type: "table",
      caption: "Paired bootstrap against the first system of each set (Δ in percentage points; * p < 0.05)",
      columns: ["evaluation set", "system", "baseline", "Δ accuracy", "95% CI of Δ", "p"],
      align: ["l", "l", "l", "r", "r", "r"],
      rows: comparisons,
      note: sets.filter((s) => s.data.bootstrap).map((s) => `${setLabel(s)}: ${int(s.data.bootstrap!.samples)} resamples, seed ${s.data.bootstrap!.seed}`).join("; "),
    });
  sets.forEach((s, si) => {
    const rules = [...new Set(s.data.systems.flatMap((x) => x.perRule.map((r) => r.rule)))];
    const ruleInfo = new Map<string, { form: string; total: number }>();
    for (const x of s.data.systems) for (const r of x.perRule) if (!ruleInfo.has(r.rule)) ruleInfo.set(r.rule, { form: r.form, total: r.total });
    rules.sort((a, b) => ruleInfo.get(b)!.total - ruleInfo.get(a)!.total || (a < b ? -1 : 1));
    blocks.push({ type: "h3", text: `${setLabel(s)}: per rule (${rules.length} rules, ${int(s.data.items)} items)`, anchor: `ctxpro-set-${si}` });
    const top = rules.slice(0, 20);
    const cell = (x: CtxproJson["systems"][number], rule: string): { pc: number; label: string } | null => {
      const r = x.perRule.find((y) => y.rule === rule);
      return r ? { pc: round(r.accuracy, 2), label: pctCount(r.correct, r.total) } : null;
    };
    blocks.push({
      type: "chart",
      chart: grouped({
        id: `ctxpro-rules-${si}`,
        title: `${setLabel(s)}: accuracy per rule${rules.length > top.length ? ` (the ${top.length} largest of ${rules.length})` : ""}`,
        caption: "Rule (expected form of its first item). Labels: accuracy (correct/items).",
        categories: top.map((r) => `${r} (${ruleInfo.get(r)!.form})`),
        series: s.data.systems.map((x, k) => ({ label: s.names[k]!, values: top.map((r) => cell(x, r)?.pc ?? null), labels: top.map((r) => cell(x, r)?.label ?? null) })),
        valueAxis: "generative accuracy (%)",
        categoryAxis: "rule (expected form)",
        horizontal: true,
        min: 0,
        max: 100,
      }),
    });
    blocks.push({
      type: "table",
      columns: ["rule", "expected form", "items", ...s.names],
      align: ["l", "l", "r", ...s.names.map(() => "r" as const)],
      rows: rules.map((r) => [r, ruleInfo.get(r)!.form, int(ruleInfo.get(r)!.total), ...s.data.systems.map((x) => cell(x, r)?.label ?? "–")]),
    });
  });
  return {
    id: "ctxpro",
    title: "CTXPRO",
    intro: `Generative accuracy on CTXPRO evaluation sets (Wicks & Post 2023), from ${files.length} ctxpro score file(s). Systems are named from their translation files (parts that differ between systems); --system-names overrides this.`,
    blocks,
  };
}

// ---------------------------------------------------------------- suites

const VERDICT_LABEL: Record<string, string> = {
  "aligned-correct": "aligned word is the expected pronoun",
  "count-correct": "expected pronoun present (unaligned)",
  "aligned-other-pronoun": "aligned to another pronoun",
  "aligned-error": "aligned to a known WMT error",
  "count-wrong": "expected pronoun missing (unaligned)",
};

function suiteSection(files: Array<{ label: string; data: SuiteJson }>, systemNames: string[] | undefined): Section {
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
  const views: Array<{ view: SegmentView; ranked: ScoreSystemJson[]; candidates: number[] }> = [];
  if (curves.length) sections.push(trainingSection(curves));
  if (evals.length) sections.push(evalSection(evals));
  if (scores.length || compares.length) sections.push(scoringSection(scores, compares, { bootstrap: o.bootstrap, seed: o.seed }, (m) => warnings.push(m), views));
  if (ctxpros.length) sections.push(ctxproSection(ctxpros, o.systemNames));
  if (suites.length) sections.push(suiteSection(suites, o.systemNames));
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
