// Bootstrap confidence intervals and paired significance for meta-eval measures, as
// mt-metrics-eval reports them: every measure is a statistic over units (pairs, judged items,
// MQM source segments) that all scorers share, so one draw of units with replacement is scored
// for every scorer and the difference of two scorers is taken on the same draw (paired).
import { mulberry32 } from "../core/prng.js";

/** A measure as a function of a draw of its units (indices into 0..units-1, repeats allowed). */
export interface Resampled {
  units: number;
  stat(draw: Int32Array): number;
}

/** The identity draw 0..n-1 (the measure's own value). */
export function fullDraw(n: number): Int32Array {
  return Int32Array.from({ length: n }, (_, i) => i);
}

/** Mean of 0/1 (or real) values per unit. */
export function meanOfUnits(values: ArrayLike<number>): Resampled {
  return {
    units: values.length,
    stat(draw) {
      let s = 0;
      for (let i = 0; i < draw.length; i++) s += values[draw[i]!]!;
      return draw.length ? s / draw.length : NaN;
    },
  };
}

/** Ratio of sums: units carry a numerator and a denominator (e.g. wins and pairs of one source segment). */
export function ratioOfUnits(num: ArrayLike<number>, den: ArrayLike<number>): Resampled {
  return {
    units: num.length,
    stat(draw) {
      let a = 0;
      let b = 0;
      for (let i = 0; i < draw.length; i++) {
        a += num[draw[i]!]!;
        b += den[draw[i]!]!;
      }
      return b ? a / b : NaN;
    },
  };
}

export interface ScorerInterval {
  name: string;
  value: number;
  /** 2.5th and 97.5th percentiles of the measure over the draws. */
  lo: number;
  hi: number;
  /** Against the baseline (the first scorer with the measure): value - baseline, and its two-sided bootstrap p. */
  delta?: number;
  p?: number;
}

export interface MeasureSignificance {
  measure: string;
  scorers: ScorerInterval[];
}

function percentile(sorted: number[], q: number): number {
  if (!sorted.length) return NaN;
  const pos = q * (sorted.length - 1);
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

/**
 * Paired bootstrap of one measure over several scorers (all with the same units). The draws are seeded
 * by `seed` and the measure's name, so adding a scorer or a measure leaves the others' intervals
 * unchanged. p: twice the share of draws whose difference to the baseline lies on the other side of 0
 * (at most 1); a draw where either value is undefined (NaN) is left out.
 */
export function pairedBootstrap(measure: string, scorers: Array<{ name: string; r: Resampled }>, draws: number, seed: number): MeasureSignificance {
  const n = scorers[0]?.r.units ?? 0;
  for (const s of scorers) if (s.r.units !== n) throw new Error(`bootstrap: ${s.name} has ${s.r.units} units for ${measure}, ${scorers[0]!.name} ${n}`);
  let h = seed >>> 0;
  for (const c of measure) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193) >>> 0;
  const rnd = mulberry32(h);
  const vals: number[][] = scorers.map(() => []);
  const diffs: number[][] = scorers.map(() => []);
  const draw = new Int32Array(n);
  for (let d = 0; d < draws && n > 0; d++) {
    for (let i = 0; i < n; i++) draw[i] = Math.floor(rnd() * n);
    const v = scorers.map((s) => s.r.stat(draw));
    v.forEach((x, k) => {
      if (Number.isFinite(x)) vals[k]!.push(x);
      if (k > 0 && Number.isFinite(x) && Number.isFinite(v[0]!)) diffs[k]!.push(x - v[0]!);
    });
  }
  const full = fullDraw(n);
  const base = scorers[0] ? scorers[0].r.stat(full) : NaN;
  return {
    measure,
    scorers: scorers.map((s, k) => {
      const sorted = vals[k]!.sort((a, b) => a - b);
      const value = s.r.stat(full);
      const out: ScorerInterval = { name: s.name, value, lo: percentile(sorted, 0.025), hi: percentile(sorted, 0.975) };
      if (k > 0) {
        const ds = diffs[k]!;
        const below = ds.filter((x) => x <= 0).length;
        const above = ds.filter((x) => x >= 0).length;
        out.delta = value - base;
        out.p = ds.length ? Math.min(1, (2 * Math.min(below, above)) / ds.length) : NaN;
      }
      return out;
    }),
  };
}
