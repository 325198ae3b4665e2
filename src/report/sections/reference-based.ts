/**
 * Sections of the reference-based measures: APT (`apt --json`), MuDA word f-measure per tag
 * (`muda score --json`) and contrastive accuracy (`contrastive --json`). Every number is the file's own;
 * intervals and differences are the paired bootstrap the command recorded (src/stats/bootstrap.ts).
 */
import { barChart, grouped, MAX_SERIES } from "../charts.js";
import { ci, int, num, pctCount, pValue, round, signed } from "../format.js";
import type { AptJson, ContrastiveJson, MudaJson, StatsBootstrap } from "../inputs-results.js";
import type { Block, Section } from "../model.js";

/** The recorded bootstrap's differences to the baseline as a table (Δ in the measure's unit). */
function comparisonTable(b: StatsBootstrap, caption: string, digits: number): Block {
  return {
    type: "table",
    caption: `${caption} (${int(b.samples)} resamples, seed ${b.seed}; * p < 0.05)`,
    columns: ["system", "baseline", "Δ", "95% CI of Δ", "p"],
    align: ["l", "l", "r", "r", "r"],
    rows: b.comparisons.map((c) => [c.system, c.baseline, signed(c.delta, digits), ci(c.ci[0], c.ci[1], digits), pValue(c.p)]),
  };
}

const CASES = ["exact", "equivalent", "different", "no-hyp", "no-ref", "neither"];

export function aptSection(files: Array<{ label: string; data: AptJson }>): Section {
  const blocks: Block[] = [];
  files.forEach((f, fi) => {
    const d = f.data;
    const ciOf = (name: string) => d.bootstrap?.systems.find((s) => s.name === name)?.ci ?? null;
    blocks.push({ type: "h3", text: `${f.label}: ${d.srcLang}-${d.tgtLang}, ${int(d.segments)} segments, ${d.systems.length} system(s)`, anchor: `apt-${fi}` });
    if (d.signature) blocks.push({ type: "kv", items: [["signature", d.signature], ["weights", d.weights.join(", ")]] });
    blocks.push({
      type: "chart",
      chart: barChart({
        id: `apt-score-${fi}`,
        title: "APT per system",
        caption: `Weighted share of the English pronouns followed through the alignments whose translation matches the reference's${d.bootstrap ? "; whiskers: 95% paired bootstrap interval" : ""}.`,
        categories: d.systems.map((s) => s.name),
        horizontal: true,
        series: [{ label: "APT", values: d.systems.map((s) => round(s.score, 4)), labels: d.systems.map((s) => num(s.score, 4)), errorBars: d.systems.map((s) => ciOf(s.name)) }],
        valueAxis: "APT (0–1)",
        categoryAxis: "system",
        min: 0,
        max: 1,
      }),
    });
    blocks.push({
      type: "table",
      caption: "Cases per system (APT.py's six cases)",
      columns: ["system", "APT", ...(d.bootstrap ? ["95% CI"] : []), ...CASES, ...(d.mode === "target-en" ? ["unanchored"] : [])],
      align: ["l", "r", ...(d.bootstrap ? ["r" as const] : []), ...CASES.map(() => "r" as const), ...(d.mode === "target-en" ? ["r" as const] : [])],
      rows: d.systems.map((s) => {
        const c = ciOf(s.name);
        return [s.name, s.cases.some((n) => n > 0) ? num(s.score, 4) : "n/a", ...(d.bootstrap ? [c ? ci(c[0], c[1], 4) : "–"] : []), ...s.cases.map((n) => int(n)), ...(d.mode === "target-en" ? [int(s.unanchored)] : [])];
      }),
    });
    if (d.bootstrap?.comparisons.length) blocks.push(comparisonTable(d.bootstrap, `Paired bootstrap against ${d.systems[0]!.name}, Δ in APT`, 4));
  });
  return { id: "apt", title: "APT", intro: "Accuracy of pronoun translation (Miculicich Werlen & Popescu-Belis 2017), from apt --json files.", blocks };
}

export function mudaSection(files: Array<{ label: string; data: MudaJson }>): Section {
  const blocks: Block[] = [];
  files.forEach((f, fi) => {
    const d = f.data;
    const labels = [...new Set(d.systems.flatMap((s) => s.labels.map((l) => l.label)))];
    blocks.push({ type: "h3", text: `${f.label}: ${d.langPair}, ${d.systems.length} system(s)`, anchor: `muda-${fi}` });
    blocks.push({
      type: "kv",
      items: [
        ["reference", `${d.reference ?? "–"}: ${int(d.referenceCounts.tokens)} tokens, ${int(d.referenceCounts.taggedTokens)} tagged (${Object.entries(d.referenceCounts.tags).map(([t, n]) => `${t} ${int(n)}`).join(", ")})`],
        ...(d.signature ? [["signature", d.signature] as [string, string]] : []),
      ],
    });
    const cell = (s: MudaJson["systems"][number], l: string) => s.labels.find((x) => x.label === l);
    const shown = d.systems.slice(0, MAX_SERIES);
    blocks.push({
      type: "chart",
      chart: grouped({
        id: `muda-f-${fi}`,
        title: "Word f-measure per MuDA tag",
        caption: "Tokens a tag marks in the system output against those it marks in the reference (compare-mt's word f-measure); n/a where neither side has the tag.",
        categories: labels,
        series: shown.map((s) => ({
          label: s.name,
          values: labels.map((l) => {
            const c = cell(s, l);
            return c && (c.refCount || c.hypCount) ? round(c.f, 4) : null;
          }),
          labels: labels.map((l) => {
            const c = cell(s, l);
            return c && (c.refCount || c.hypCount) ? num(c.f, 3) : null;
          }),
          errorBars: labels.map((l) => d.bootstrap?.[l]?.systems.find((x) => x.name === s.name)?.ci ?? null),
        })),
        valueAxis: "word f-measure (0–1)",
        categoryAxis: "tag",
        min: 0,
        max: 1,
      }),
    });
    blocks.push({
      type: "table",
      caption: "f-measure (recall / precision) per tag",
      columns: ["system", ...labels],
      align: ["l", ...labels.map(() => "r" as const)],
      rows: d.systems.map((s) => [s.name, ...labels.map((l) => {
        const c = cell(s, l);
        return c && (c.refCount || c.hypCount) ? `${num(c.f, 3)} (${num(c.recall, 3)} / ${num(c.precision, 3)})` : "n/a";
      })]),
    });
    const all = d.bootstrap?.all ?? (d.bootstrap ? Object.values(d.bootstrap)[0] : undefined);
    if (all?.comparisons.length) blocks.push(comparisonTable(all, `Paired bootstrap of the f-measure of all tagged words against ${d.systems[0]!.name}`, 3));
  });
  return { id: "muda", title: "MuDA", intro: "Word f-measure per context-dependent phenomenon tagged by MuDA (Fernandes et al. 2023), from muda score --json files.", blocks };
}

export function contrastiveSection(files: Array<{ label: string; data: ContrastiveJson }>): Section {
  const blocks: Block[] = [];
  files.forEach((f, fi) => {
    const d = f.data;
    const ciOf = (name: string) => d.bootstrap?.systems.find((s) => s.name === name)?.ci ?? null;
    const dists = [...new Set(d.results.flatMap((r) => r.byDistance.map((g) => g.key)))];
    blocks.push({ type: "h3", text: `${d.set}: ${int(d.results[0]!.overall.items)} items, ${d.results.length} system(s)`, anchor: `contrastive-${fi}` });
    if (d.signature) blocks.push({ type: "kv", items: [["file", d.file ?? f.label], ["signature", d.signature]] });
    blocks.push({
      type: "chart",
      chart: grouped({
        id: `contrastive-${fi}`,
        title: "Accuracy by distance of the context",
        caption: `Share of items whose true candidate scores best; the chance rate is ${num(d.results[0]!.overall.chance, 1)}%. Whiskers (total): 95% paired bootstrap interval.`,
        categories: ["total", ...dists.map((k) => `dist ${k}`)],
        series: d.results.slice(0, MAX_SERIES).map((r) => ({
          label: r.system,
          values: [round(r.overall.accuracy, 2), ...dists.map((k) => {
            const g = r.byDistance.find((x) => x.key === k);
            return g ? round(g.accuracy, 2) : null;
          })],
          labels: [pctCount(r.overall.correct, r.overall.items), ...dists.map((k) => {
            const g = r.byDistance.find((x) => x.key === k);
            return g ? pctCount(g.correct, g.items) : null;
          })],
          errorBars: [ciOf(r.system), ...dists.map(() => null)],
        })),
        valueAxis: "accuracy (% of items)",
        categoryAxis: "context distance",
        min: 0,
        max: 100,
      }),
    });
    if (d.bootstrap?.comparisons.length) blocks.push(comparisonTable(d.bootstrap, `Paired bootstrap against ${d.results[0]!.system}, Δ in percentage points`, 1));
  });
  return { id: "contrastive", title: "Contrastive test sets", intro: "Accuracy on contrastive test sets (Voita et al. 2019 layout), from contrastive --json files.", blocks };
}
