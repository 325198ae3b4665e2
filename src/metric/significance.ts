// Bootstrap confidence intervals and paired significance for meta-eval measures, as
// mt-metrics-eval reports them: every measure is a statistic over units (pairs, judged items,
// MQM source segments) that all scorers share, so one draw of units with replacement is scored
// for every scorer and the difference of two scorers is taken on the same draw (paired).
// The bootstrap itself (draws, percentile, p-value) is src/stats/bootstrap.ts, shared by every command.
import { pairedBootstrap as runBootstrap, type Resampled } from "../stats/bootstrap.js";

export { fullDraw, meanOfUnits, ratioOfUnits, type Resampled } from "../stats/bootstrap.js";

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

/** The draws' seed: `seed` and the measure's name (FNV-1a), so adding a scorer or a measure leaves the others' intervals unchanged. */
export function measureSeed(measure: string, seed: number): number {
  let h = seed >>> 0;
  for (const c of measure) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193) >>> 0;
  return h;
}

/**
 * Paired bootstrap of one measure over several scorers (all with the same units): src/stats/bootstrap.ts
 * with the seed of measureSeed. A draw where a value is undefined (NaN) is left out.
 */
export function pairedBootstrap(measure: string, scorers: Array<{ name: string; r: Resampled }>, draws: number, seed: number): MeasureSignificance {
  const n = scorers[0]?.r.units ?? 0;
  for (const s of scorers) if (s.r.units !== n) throw new Error(`bootstrap: ${s.name} has ${s.r.units} units for ${measure}, ${scorers[0]!.name} ${n}`);
  const b = runBootstrap(scorers, { samples: draws, seed: measureSeed(measure, seed) });
  return {
    measure,
    scorers: b.systems.map((s, k) => {
      const out: ScorerInterval = { name: s.name, value: s.value, lo: s.ci[0], hi: s.ci[1] };
      const c = k > 0 ? b.comparisons[k - 1]! : undefined;
      if (c) {
        out.delta = c.delta;
        out.p = c.p;
      }
      return out;
    }),
  };
}
