/**
 * The report as data: what the builder (Node) produces and the page script (browser) and the PNG
 * renderer consume. Everything here is plain JSON; numbers meant for reading are pre-formatted.
 */

/** Okabe & Ito (2008) colour-blind-safe palette; yellow last (weak on white). */
export const OKABE_ITO = ["#0072B2", "#E69F00", "#009E73", "#D55E00", "#56B4E9", "#CC79A7", "#000000", "#F0E442"] as const;
/** Grey for "no pronoun" / not applicable. */
export const NEUTRAL = "#999999";

/**
 * A chart.js configuration (JSON only: no functions). Datasets may carry two extra arrays read by
 * the report's chart.js plugins (src/report/plugins.ts): `valueLabels` (text drawn at the end of
 * each bar/point and shown in its tooltip) and `errorBars` ([low, high] whiskers, or null).
 */
export interface ChartSpec {
  /** Unique id; also the PNG file name. */
  id: string;
  title: string;
  /** One or two sentences on how to read the chart. */
  caption?: string;
  /** Height in CSS pixels (width follows the page). */
  height: number;
  config: {
    type: "bar" | "line";
    data: { labels: string[]; datasets: Array<Record<string, unknown>> };
    options: Record<string, unknown>;
  };
}

export interface TableBlock {
  type: "table";
  caption?: string;
  columns: string[];
  /** "r" for numeric columns. */
  align?: Array<"l" | "r">;
  rows: string[][];
  /** Said under the table (e.g. how many rows were left out). */
  note?: string;
}

export type Block =
  | { type: "h3"; text: string; anchor?: string }
  | { type: "p"; text: string }
  | { type: "kv"; items: Array<[string, string]> }
  | { type: "chart"; chart: ChartSpec }
  | TableBlock
  | { type: "segments"; view: SegmentView };

export interface Section {
  id: string;
  title: string;
  intro: string;
  blocks: Block[];
}

/** One scored side of a segment with attention, compacted (tokens by index into the segment's pools). */
export interface SideDetail {
  /** Index into SegmentDetail.ctx (context tokens). */
  c: number;
  /** Index into SegmentDetail.sent (sentence tokens). */
  w: number;
  /** y, the side's score. */
  y: number;
  /** Context tokens cut off by the model's key limit. */
  tr: number;
  /** Per pronoun: [token index in the sentence, score u, attention over ctx+sent keys in 1/1000]. */
  p: Array<[number, number, number[]]>;
}

export interface SegmentDetail {
  ctx: string[][];
  sent: string[][];
  sides: SideDetail[];
  /** Index into sides of the reference side. */
  ref: number;
  /** Per system (in SegmentView.systems order): index into sides, -1 when that side was not stored. */
  sys: number[];
  /**
   * Per system, 1 where its stored side is the reference with the system's pronouns substituted (what
   * `--mode hybrid` scores where the pronouns differ in place), 0 where it is the output itself;
   * absent for files without the field.
   */
  sub?: number[];
}

/**
 * The per-segment view of one score file: all segments' scores (compact), and heat-map details for
 * a sample of segments chosen within a byte budget.
 */
export interface SegmentView {
  id: string;
  /** Systems, ranked by score (same order as the ranking chart). */
  systems: string[];
  docs: string[];
  /** Per segment: index into docs. */
  doc: number[];
  segId: string[];
  /** Per segment: the reference's score (y), null when no system's row had a reference score. */
  refScore: Array<number | null>;
  /** Per segment: reference pronouns, space-separated. */
  refPron: string[];
  /** Per system, per segment: score y (null: no pronoun on either side). */
  sysScore: Array<Array<number | null>>;
  /** Per system, per segment: the system against the reference under the file's aggregate (null: nothing compared). */
  sysDiff: Array<Array<number | null>>;
  /** The aggregate the file was scored with (its verdicts are diff >= -0.00001). */
  aggregate: string;
  /** Per system, per segment: pronouns space-separated, "=" when the same as the reference's. */
  sysPron: string[][];
  /** Per system: one char per segment: "+" not ranked below the reference, "-" below, "." no pronoun. */
  verdict: string[];
  /** Segment index -> heat-map detail (a sample). */
  details: Record<string, SegmentDetail>;
  /** Says what was sampled and why. */
  detailNote: string;
}

export interface ReportData {
  title: string;
  generated: string;
  version: string;
  inputs: Array<{ file: string; kind: string; what: string }>;
  warnings: string[];
  sections: Section[];
}
