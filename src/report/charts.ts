/** Small builders for chart.js configurations with the report's conventions (labels, palette, sizes). */
import { OKABE_ITO, type ChartSpec } from "./model.js";

export const MAX_SERIES = OKABE_ITO.length;

export function color(i: number): string {
  return OKABE_ITO[i % OKABE_ITO.length]!;
}

export function axis(title: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { title: { display: true, text: title, font: { weight: "bold" } }, ...extra };
}

/** Right padding that leaves room for end-of-bar labels (about 6.5 px per character at 11 px). */
export function labelPadding(labels: Array<string | null | undefined>): number {
  const longest = Math.max(0, ...labels.map((l) => (l ? l.length : 0)));
  return Math.min(320, Math.ceil(longest * 6.5) + 12);
}

export function baseOptions(legend: boolean, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    responsive: true,
    maintainAspectRatio: false,
    animation: false,
    plugins: { legend: { display: legend, position: "top" } },
    ...extra,
  };
}

export interface Series {
  label: string;
  values: Array<number | null>;
  /** Text at the end of each bar and in its tooltip, e.g. "85.2% (170/200)". */
  labels?: Array<string | null>;
  errorBars?: Array<[number, number] | null>;
  color?: string;
}

/**
 * Bars with one series per system/file (at most MAX_SERIES, so every series has its own safe colour).
 * Horizontal bars get their value labels at the end; vertical ones only where the label fits.
 */
export function barChart(o: {
  id: string;
  title: string;
  caption?: string;
  categories: string[];
  series: Series[];
  valueAxis: string;
  categoryAxis?: string;
  horizontal?: boolean;
  min?: number;
  max?: number;
  stacked?: boolean;
}): ChartSpec {
  if (o.series.length > MAX_SERIES) throw new Error(`barChart: ${o.series.length} series, at most ${MAX_SERIES}`);
  const horizontal = o.horizontal ?? false;
  const allLabels = o.series.flatMap((s) => s.labels ?? []);
  const valueScale = axis(o.valueAxis, { beginAtZero: true, ...(o.min !== undefined ? { min: o.min } : {}), ...(o.max !== undefined ? { max: o.max } : {}), ...(o.stacked ? { stacked: true } : {}) });
  const catScale = o.categoryAxis ? axis(o.categoryAxis, o.stacked ? { stacked: true } : {}) : o.stacked ? { stacked: true } : {};
  const perCat = horizontal ? Math.max(22, (o.stacked ? 1 : o.series.length) * 16 + 6) : 0;
  return {
    id: o.id,
    title: o.title,
    caption: o.caption,
    height: horizontal ? Math.max(170, 90 + o.categories.length * perCat + (o.series.length > 1 ? 24 : 0)) : 340,
    config: {
      type: "bar",
      data: {
        labels: o.categories,
        datasets: o.series.map((s, i) => ({
          label: s.label,
          data: s.values,
          backgroundColor: s.color ?? color(i),
          borderColor: s.color ?? color(i),
          borderWidth: 1,
          ...(s.labels ? { valueLabels: s.labels } : {}),
          ...(s.errorBars ? { errorBars: s.errorBars } : {}),
          ...(o.stacked ? { valueLabelPosition: "center" } : {}),
        })),
      },
      options: baseOptions(o.series.length > 1 || !!o.stacked, {
        indexAxis: horizontal ? "y" : "x",
        layout: { padding: horizontal && !o.stacked ? { right: labelPadding(allLabels) } : { top: 8 } },
        scales: horizontal ? { x: valueScale, y: catScale } : { x: catScale, y: valueScale },
      }),
    },
  };
}

/** More than MAX_SERIES series cannot each get a safe colour: then one bar per (category, series). */
export function grouped(o: Parameters<typeof barChart>[0]): ChartSpec {
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
