/**
 * Generic seeded paired bootstrap (Koehn 2004) over items with additive sufficient statistics.
 * CTXPRO's bootstrap (src/ctxpro/score.ts) handles 0/1 hits only; metrics such as word f-measure
 * are ratios of sums (matches, reference words, hypothesis words), so each item carries a small vector
 * of statistics and the metric is computed from their sums over the resampled items.
 */
import { mulberry32 } from "../core/prng.js";
import type { TableBlock } from "../io/table.js";

export interface BootstrapInput {
  name: string;
  /** items x dims, row-major: the statistics of item i are stats[i*dims .. i*dims+dims). */
  stats: Float64Array;
}

export interface PairedBootstrapResult {
  samples: number;
  seed: number;
  systems: Array<{ name: string; value: number; ci: [number, number] }>;
  /** Each system after the first against the first (the baseline). */
  comparisons: Array<{ baseline: string; system: string; delta: number; ci: [number, number]; p: number }>;
}

function percentile(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return NaN;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

/** Sums the rows of `stats` over all items. */
export function sumStats(stats: Float64Array, dims: number): Float64Array {
  const out = new Float64Array(dims);
  for (let i = 0; i < stats.length; i++) out[i % dims] += stats[i]!;
  return out;
}

/**
 * Every sample draws the same item indices (with replacement) for all systems; `metric` maps summed
 * statistics to the value. p is two-sided for "no difference" (centred bootstrap distribution, as
 * sacrebleu's paired-bs and CTXPRO's scorer).
 */
export function pairedBootstrapStats(
  systems: readonly BootstrapInput[],
  dims: number,
  metric: (sums: Float64Array) => number,
  samples = 1000,
  seed = 12345,
): PairedBootstrapResult {
  if (!Number.isInteger(samples) || samples < 1) throw new RangeError(`bootstrap samples must be an integer >= 1, got ${samples}`);
  if (!Number.isInteger(dims) || dims < 1) throw new RangeError("dims must be a positive integer");
  const n = systems.length ? systems[0]!.stats.length / dims : 0;
  for (const s of systems) {
    if (s.stats.length !== n * dims) throw new RangeError("paired bootstrap needs every system scored on the same items");
  }
  const rand = mulberry32(seed);
  const values = systems.map(() => new Float64Array(samples));
  const sums = new Float64Array(dims);
  const idx = new Int32Array(n);
  for (let b = 0; b < samples; b++) {
    for (let k = 0; k < n; k++) idx[k] = Math.floor(rand() * n);
    systems.forEach((s, si) => {
      sums.fill(0);
      const st = s.stats;
      for (let k = 0; k < n; k++) {
        const base = idx[k]! * dims;
        for (let d = 0; d < dims; d++) sums[d] += st[base + d]!;
      }
      values[si]![b] = metric(sums);
    });
  }
  const point = systems.map((s) => metric(sumStats(s.stats, dims)));
  const out: PairedBootstrapResult = { samples, seed, systems: [], comparisons: [] };
  systems.forEach((s, si) => {
    const sorted = Float64Array.from(values[si]!).sort();
    out.systems.push({ name: s.name, value: point[si]!, ci: [percentile(sorted, 0.025), percentile(sorted, 0.975)] });
  });
  for (let si = 1; si < systems.length; si++) {
    const diffs = new Float64Array(samples);
    let mean = 0;
    for (let b = 0; b < samples; b++) {
      diffs[b] = values[si]![b]! - values[0]![b]!;
      mean += diffs[b]!;
    }
    mean /= samples;
    const delta = point[si]! - point[0]!;
    let extreme = 0;
    for (let b = 0; b < samples; b++) if (Math.abs(diffs[b]! - mean) >= Math.abs(delta) - 1e-12) extreme++;
    const sorted = Float64Array.from(diffs).sort();
    out.comparisons.push({
      baseline: systems[0]!.name,
      system: systems[si]!.name,
      delta,
      ci: [percentile(sorted, 0.025), percentile(sorted, 0.975)],
      p: (extreme + 1) / (samples + 1),
    });
  }
  return out;
}

/**
 * A paired bootstrap as two printed tables (ctxpro, suite, contrastive): each system's value with its
 * 95% interval, then each system against the baseline (the first system).
 */
export function bootstrapTables(
  b: { samples: number; seed: number },
  systems: Array<{ name: string; value: number; ci: [number, number] }>,
  comparisons: Array<{ system: string; baseline: string; delta: number; ci: [number, number]; p: number }>,
  what = "accuracy (%)",
): TableBlock[] {
  const f = (x: number) => x.toFixed(1);
  return [
    { title: `paired bootstrap: ${b.samples} samples, seed ${b.seed}; ${what} with 95% interval`, header: ["system", what, "ci95_low", "ci95_high"], rows: systems.map((s) => [s.name, f(s.value), f(s.ci[0]), f(s.ci[1])]) },
    {
      title: `differences to ${comparisons[0]?.baseline ?? "the first system"}, in percentage points`,
      header: ["system", "baseline", "delta", "ci95_low", "ci95_high", "p"],
      rows: comparisons.map((c) => [c.system, c.baseline, `${c.delta >= 0 ? "+" : ""}${f(c.delta)}`, f(c.ci[0]), f(c.ci[1]), c.p.toFixed(4)]),
    },
  ];
}
