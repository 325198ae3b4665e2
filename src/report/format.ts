/** Number formatting shared by the report's tables, labels and tooltips. */

const INT = new Intl.NumberFormat("en-US");

export function int(n: number): string {
  return INT.format(n);
}

/** A value already in percent. */
export function pct(x: number, digits = 1): string {
  return `${x.toFixed(digits)}%`;
}

/** "85.2% (170/200)": percentages always with their counts. */
export function pctCount(correct: number, total: number, digits = 1): string {
  return total > 0 ? `${pct((100 * correct) / total, digits)} (${int(correct)}/${int(total)})` : `– (0/0)`;
}

export function num(x: number | null | undefined, digits = 3): string {
  return x === null || x === undefined || !Number.isFinite(x) ? "–" : x.toFixed(digits);
}

export function signed(x: number, digits = 1): string {
  return `${x >= 0 ? "+" : "−"}${Math.abs(x).toFixed(digits)}`;
}

export function ci(lo: number, hi: number, digits = 1): string {
  return `[${lo.toFixed(digits)}, ${hi.toFixed(digits)}]`;
}

/** p-values: 4 decimals, with a marker for p < 0.05. */
export function pValue(p: number): string {
  return `${p < 0.0001 ? "< 0.0001" : p.toFixed(4)}${p < 0.05 ? " *" : ""}`;
}

export function round(x: number, digits = 4): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

export const PRON_KIND_LABEL: Record<string, string> = { system: "system (R vs S)", noisy: "noisy (R vs R′)" };
