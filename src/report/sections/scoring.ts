/** The scoring section: systems of `proneval score --json` ranked with intervals, `compare --json`, the segment view. */
import { notBelowReference, systemVerdicts } from "../../core/scorer.js";
import { meanInterval, pairedBootstrapStats, sumStats } from "../../stats/bootstrap.js";
import { axis, baseOptions, color, labelPadding } from "../charts.js";
import { ci, int, num, pValue, round, signed } from "../format.js";
import type { CompareJson, ScoreJson, ScoreSystemJson } from "../inputs.js";
import type { Block, Section, SegmentView } from "../model.js";
import { compareBlocks } from "./compare.js";
import { segmentView } from "./segments.js";

interface Ranked {
  sys: ScoreSystemJson;
  score: number;
  ci: [number, number] | null;
  /** Against the best system: paired bootstrap delta, interval, p. */
  vsBest: { delta: number; ci: [number, number]; p: number } | null;
}

/**
 * Ranks systems by their recorded score. Intervals: the ones the file records (`score --confidence`), else
 * the same bootstrap computed here (same -b/--seed, same numbers); against the best system a paired bootstrap
 * over all segments, each system's score a ratio (not below / pronoun segments). Every verdict is the file's
 * own: its segments' diff under the aggregate it was scored with (notBelowReference), never recomputed from
 * the side scores with another definition.
 */
function rankSystems(score: ScoreJson, samples: number, seed: number, warn: (m: string) => void, file: string): Ranked[] {
  const systems = [...score.systems].sort((a, b) => b.summary.score - a.summary.score || (a.system < b.system ? -1 : 1));
  const n = systems[0]!.segments.length;
  const stats = systems.map((s) => {
    const st = new Float64Array(2 * n);
    s.segments.forEach((g, i) => {
      if (g.status !== "scored") return;
      st[2 * i] = notBelowReference(g) ? 1 : 0;
      st[2 * i + 1] = 1;
    });
    return { name: s.system, stats: st };
  });
  const metric = (sums: Float64Array): number => (sums[1]! > 0 ? (100 * sums[0]!) / sums[1]! : 0);
  systems.forEach((s, i) => {
    const sums = sumStats(stats[i]!.stats, 2);
    const mine = metric(sums);
    if (Math.abs(mine - s.summary.score) > 1e-6)
      warn(`${file}: ${s.system}: the segments give a score of ${mine.toFixed(4)} but the summary says ${s.summary.score.toFixed(4)} (a file edited by hand?); the table shows the summary`);
  });
  const own = (s: ScoreSystemJson): [number, number] | null =>
    s.confidence ? s.confidence.ci95 : samples > 0 ? (meanInterval(systemVerdicts(s.segments), { samples, seed }, 100)?.ci ?? null) : null;
  if (samples <= 0 || n === 0) return systems.map((s) => ({ sys: s, score: s.summary.score, ci: s.confidence?.ci95 ?? null, vsBest: null }));
  const bs = pairedBootstrapStats(stats, 2, metric, samples, seed);
  return systems.map((s, i) => ({
    sys: s,
    score: s.summary.score,
    ci: own(s),
    vsBest: i === 0 ? null : { delta: bs.comparisons[i - 1]!.delta, ci: bs.comparisons[i - 1]!.ci, p: bs.comparisons[i - 1]!.p },
  }));
}

export function scoringSection(
  scores: Array<{ label: string; file: string; data: ScoreJson }>,
  compares: Array<{ label: string; data: CompareJson }>,
  o: { bootstrap: number; seed: number },
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
        ...(d.aggregate ? [["aggregate", `${d.aggregate} (each segment's verdict as recorded in the file)`] as [string, string]] : []),
        [
          "confidence intervals",
          d.systems.every((x) => x.confidence)
            ? `95% bootstrap over each system's pronoun segments, ${int(d.systems[0]!.confidence!.samples)} resamples, seed ${d.systems[0]!.confidence!.seed} (recorded by score --confidence)`
            : o.bootstrap > 0
              ? `95% bootstrap over each system's pronoun segments, ${int(o.bootstrap)} resamples, seed ${o.seed} (computed by proneval report, as score --confidence does)`
              : "none (--bootstrap 0)",
        ],
        ...(o.bootstrap > 0 && d.systems.length > 1 ? [["against the best", `paired bootstrap over all segments, ${int(o.bootstrap)} resamples, seed ${o.seed} (computed by proneval report)`] as [string, string]] : []),
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
    const sv = segmentView(`seg-${fi}`, ranked.map((r) => r.sys), d.aggregate);
    views.push({ view: sv.view, ranked: ranked.map((r) => r.sys), candidates: sv.candidates });
    blocks.push({ type: "h3", text: "Segments: scores, pronouns and attention", anchor: `segments-${fi}` });
    blocks.push({ type: "segments", view: sv.view });
  });
  blocks.push(...compareBlocks(compares));
  return {
    id: "scoring",
    title: "Pronoun scores",
    intro:
      "Systems scored by the learned pronoun ranker against the reference. Pick a segment below to see each pronoun's score and where its attention went in the context (as in Jwalapuram et al. 2019, Figures 5–6).",
    blocks,
  };
}
