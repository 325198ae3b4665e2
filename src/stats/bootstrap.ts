/**
 * The paired bootstrap (Koehn 2004) of every command that reports an interval or a p-value: `compare`,
 * `score --confidence`, `ctxpro score`, `suite score`, `contrastive`, `apt`, `muda score`, `meta-eval`
 * and `report`. One draw of units, one percentile, one p-value (docs/cli.md states them):
 *
 * - a draw picks `units` indices with replacement from mulberry32(seed); the same draw is scored for
 *   every system, so differences are paired;
 * - an interval is the 2.5th and 97.5th percentile of the values over the draws, the percentile
 *   interpolating linearly between order statistics (position q·(m−1) of m sorted values, NumPy's default);
 * - p is two-sided for "no difference": the draws' differences to the baseline are centred on their mean
 *   (the null hypothesis), and p = (1 + #{|d_b − mean(d)| ≥ |Δ|}) / (1 + m), Δ the observed difference
 *   on all units and m the draws where both values are defined.
 *
 * A measure is a function of a draw (Resampled); additive sufficient statistics (hits, word matches,
 * counts) are the common case and have their own constructor.
 */
import { mulberry32 } from "../core/prng.js";
import type { TableBlock } from "../io/table.js";

/** A measure as a function of a draw of its units (indices into 0..units-1, repeats allowed). */
export interface Resampled {
  units: number;
  stat(draw: Int32Array): number;
}

export interface BootstrapOptions {
  /** Draws; at least 1 (callers treat 0 as "no bootstrap" and do not call). */
  samples: number;
  seed: number;
}

export interface SystemInterval {
  name: string;
  /** The measure on all units. */
  value: number;
  /** 95% percentile interval over the draws. */
  ci: [number, number];
  /** Mean over the draws (sacrebleu prints it as μ). */
  mean: number;
}

export interface Comparison {
  baseline: string;
  system: string;
  /** system − baseline on all units. */
  delta: number;
  /** 95% percentile interval of the paired difference. */
  ci: [number, number];
  /** Two-sided p of "no difference" (see the module comment). */
  p: number;
}

export interface PairedBootstrapResult {
  samples: number;
  seed: number;
  systems: SystemInterval[];
  /** Each system after the first against the first (the baseline). */
  comparisons: Comparison[];
}

/** Values closer than this count as equal when the p-value compares a draw with the observed difference. */
const EPS = 1e-12;

/** The identity draw 0..n-1 (the measure's own value). */
export function fullDraw(n: number): Int32Array {
  return Int32Array.from({ length: n }, (_, i) => i);
}

/** Percentile of sorted values, interpolating linearly between order statistics (NumPy's default); NaN when empty. */
export function percentile(sorted: ArrayLike<number>, q: number): number {
  const m = sorted.length;
  if (m === 0) return NaN;
  const pos = (m - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

/** The 95% percentile interval of unsorted values. */
export function interval95(values: ArrayLike<number>): [number, number] {
  const sorted = Float64Array.from(values).sort();
  return [percentile(sorted, 0.025), percentile(sorted, 0.975)];
}

/**
 * Two-sided bootstrap p-value of "no difference": the paired differences of the draws, centred on their
 * mean, are at least as far from 0 as the observed difference; +1 in numerator and denominator, so p > 0.
 */
export function bootstrapPValue(diffs: ArrayLike<number>, observed: number): number {
  const m = diffs.length;
  if (m === 0) return NaN;
  let mean = 0;
  for (let b = 0; b < m; b++) mean += diffs[b]!;
  mean /= m;
  let extreme = 0;
  for (let b = 0; b < m; b++) if (Math.abs(diffs[b]! - mean) >= Math.abs(observed) - EPS) extreme++;
  return (extreme + 1) / (m + 1);
}

/** Sums the rows of `stats` (items × dims, row-major) over all items. */
export function sumStats(stats: Float64Array, dims: number): Float64Array {
  const out = new Float64Array(dims);
  for (let i = 0; i < stats.length; i++) out[i % dims] += stats[i]!;
  return out;
}

/** A measure of additive statistics: item i carries stats[i*dims .. i*dims+dims), the measure maps their sums over a draw. */
export function summedStats(stats: Float64Array, dims: number, metric: (sums: Float64Array) => number): Resampled {
  if (!Number.isInteger(dims) || dims < 1) throw new RangeError("dims must be a positive integer");
  if (stats.length % dims !== 0) throw new RangeError(`${stats.length} statistics are not a whole number of items of ${dims}`);
  const sums = new Float64Array(dims);
  return {
    units: stats.length / dims,
    stat(draw) {
      sums.fill(0);
      for (let k = 0; k < draw.length; k++) {
        const base = draw[k]! * dims;
        for (let d = 0; d < dims; d++) sums[d] += stats[base + d]!;
      }
      return metric(sums);
    },
  };
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

/**
 * The paired bootstrap of several systems measured on the same units; the first is the baseline. A draw
 * on which a system's measure is undefined (NaN) is left out of its interval, and out of its comparison.
 */
export function pairedBootstrap(systems: ReadonlyArray<{ name: string; r: Resampled }>, opts: BootstrapOptions): PairedBootstrapResult {
  const { samples, seed } = opts;
  if (!Number.isInteger(samples) || samples < 1) throw new RangeError(`bootstrap samples must be an integer >= 1, got ${samples}`);
  const n = systems[0]?.r.units ?? 0;
  for (const s of systems) if (s.r.units !== n) throw new RangeError(`paired bootstrap needs every system scored on the same units: ${s.name} has ${s.r.units}, ${systems[0]!.name} ${n}`);
  const rand = mulberry32(seed);
  const values = systems.map(() => new Float64Array(samples));
  const draw = new Int32Array(n);
  for (let b = 0; b < samples; b++) {
    for (let k = 0; k < n; k++) draw[k] = Math.floor(rand() * n);
    for (let si = 0; si < systems.length; si++) values[si]![b] = systems[si]!.r.stat(draw);
  }
  const full = fullDraw(n);
  const point = systems.map((s) => s.r.stat(full));
  const finite = (xs: Float64Array): number[] => Array.from(xs).filter(Number.isFinite);
  const out: PairedBootstrapResult = { samples, seed, systems: [], comparisons: [] };
  systems.forEach((s, si) => {
    const vs = finite(values[si]!);
    out.systems.push({ name: s.name, value: point[si]!, ci: interval95(vs), mean: vs.length ? vs.reduce((a, x) => a + x, 0) / vs.length : NaN });
  });
  for (let si = 1; si < systems.length; si++) {
    const diffs: number[] = [];
    for (let b = 0; b < samples; b++) {
      const d = values[si]![b]! - values[0]![b]!;
      if (Number.isFinite(d)) diffs.push(d);
    }
    const delta = point[si]! - point[0]!;
    out.comparisons.push({ baseline: systems[0]!.name, system: systems[si]!.name, delta, ci: interval95(diffs), p: bootstrapPValue(diffs, delta) });
  }
  return out;
}

/**
 * Bootstrap interval of `scale` × the mean of per-unit values (a system's score over its own units:
 * `score --confidence`, and `report` for score files that hold no interval); null without units.
 */
export function meanInterval(values: ArrayLike<number>, opts: BootstrapOptions, scale = 1): { mean: number; ci: [number, number] } | null {
  const n = values.length;
  if (n === 0) return null;
  const b = pairedBootstrap([{ name: "", r: summedStats(Float64Array.from(values), 1, (sums) => (scale * sums[0]!) / n) }], opts);
  return { mean: b.systems[0]!.mean, ci: b.systems[0]!.ci };
}

export interface BootstrapInput {
  name: string;
  /** items x dims, row-major: the statistics of item i are stats[i*dims .. i*dims+dims). */
  stats: Float64Array;
}

/** pairedBootstrap over additive statistics (every system: items × dims, the same items). */
export function pairedBootstrapStats(
  systems: readonly BootstrapInput[],
  dims: number,
  metric: (sums: Float64Array) => number,
  samples = 1000,
  seed = 12345,
): PairedBootstrapResult {
  return pairedBootstrap(
    systems.map((s) => ({ name: s.name, r: summedStats(s.stats, dims, metric) })),
    { samples, seed },
  );
}

/**
 * A paired bootstrap as two printed tables (ctxpro, suite, contrastive, apt, muda): each system's value with
 * its 95% interval, then each system against the baseline (the first system).
 */
export function bootstrapTables(
  b: { samples: number; seed: number },
  systems: Array<{ name: string; value: number; ci: [number, number] }>,
  comparisons: Array<{ system: string; baseline: string; delta: number; ci: [number, number]; p: number }>,
  what = "accuracy (%)",
  decimals = 1,
  unit = "percentage points",
): TableBlock[] {
  const f = (x: number) => x.toFixed(decimals);
  return [
    { title: `paired bootstrap: ${b.samples} samples, seed ${b.seed}; ${what} with 95% interval`, header: ["system", what, "ci95_low", "ci95_high"], rows: systems.map((s) => [s.name, f(s.value), f(s.ci[0]), f(s.ci[1])]) },
    {
      title: `differences to ${comparisons[0]?.baseline ?? "the first system"}, in ${unit}`,
      header: ["system", "baseline", "delta", "ci95_low", "ci95_high", "p"],
      rows: comparisons.map((c) => [c.system, c.baseline, `${c.delta >= 0 ? "+" : ""}${f(c.delta)}`, f(c.ci[0]), f(c.ci[1]), c.p.toFixed(4)]),
    },
  ];
}
