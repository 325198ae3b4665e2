// Meta-eval's reports as tables: one row per measure and one column per scorer, then the bootstrap's
// intervals and differences.
import type { TableBlock } from "../io/table.js";
import type { MeasureSignificance } from "./significance.js";
import type { PronounPairDirections, ScorerMetaEval } from "./meta-eval-measures.js";

const pct = (x: number | undefined): string => (x === undefined || Number.isNaN(x) ? "n/a" : (100 * x).toFixed(2));
const num = (x: number | undefined): string => (x === undefined || Number.isNaN(x) ? "n/a" : x.toFixed(3));

/** One table: a row per measure, a column per scorer; then each scorer's signature. */
export function metaEvalTable(reports: ScorerMetaEval[]): { table: TableBlock; signatures: Array<[string, string]> } {
  const rows: Array<[string, ...string[]]> = [];
  const add = (label: string, f: (r: ScorerMetaEval) => string): void => {
    rows.push([label, ...reports.map(f)]);
  };
  const withPairs = reports.find((r) => r.pairs.length);
  const files = withPairs?.pairs.map((p) => p.file) ?? [];
  files.forEach((file, i) => {
    const p0 = withPairs!.pairs[i]!;
    add(`${file}: R vs S % (${p0.system.n})`, (r) => pct(r.pairs[i]?.system.accuracy));
    add(`${file}: R vs R' % (${p0.noisy.n})`, (r) => pct(r.pairs[i]?.noisy.accuracy));
    add(`${file}: balanced R vs R' % (${p0.balanced ? `${p0.balanced.pairs} pairs, ${p0.balanced.pronounPairs} pronoun pairs` : "none"})`, (r) => pct(r.pairs[i]?.balanced?.accuracy));
    if (!reports.some((r) => r.pronounPairs?.[i])) return;
    const ceiling = "identity ceiling (best fixed preference per pronoun pair, fitted on this file)";
    add(`${file}: R vs S ${ceiling} %`, (r) => pct(r.pronounPairs?.[i]?.identityCeiling.system.accuracy));
    add(`${file}: R vs R' ${ceiling} %`, (r) => pct(r.pronounPairs?.[i]?.identityCeiling.noisy.accuracy));
    const min = reports.find((r) => r.pronounPairs?.[i])!.pronounPairs![i]!.minPerDirection;
    add(`${file}: worst pronoun pair, each direction % (of those with >= ${min} pairs each way)`, (r) => {
      const w = r.pronounPairs?.[i]?.worst;
      return w ? `${w.x}>${w.y} ${pct(w.xy.accuracy)}, ${w.y}>${w.x} ${pct(w.yx.accuracy)}` : "n/a";
    });
  });
  const j = reports.find((r) => r.judged)?.judged;
  if (j) {
    add(`judged: accuracy excl. ties % (${j.decided} decided of ${j.items})`, (r) => pct(r.judged?.accuracy));
    add(`judged: Gwet's AC1 (${j.valid} valid)`, (r) => num(r.judged?.ac1));
  }
  const m = reports.find((r) => r.mqm)?.mqm;
  if (m) {
    add(`MQM same source, prefers output without pronoun error % (${m.sameSource.pairs})`, (r) => pct(r.mqm?.sameSource.share));
    add(`MQM same source, equal pronoun counts % (${m.sameSourceEqualCount.pairs})`, (r) => pct(r.mqm?.sameSourceEqualCount.share));
    add(`MQM segment AUC, error-free (${m.auc.errorFree}) vs pronoun error (${m.auc.pronounError})`, (r) => num(r.mqm?.auc.auc));
    add(`MQM system Kendall tau vs -pronoun-error rate (${m.system.systems} systems)`, (r) => num(r.mqm?.system.kendallTau));
    add(`MQM system Pearson vs -pronoun-error rate`, (r) => num(r.mqm?.system.pearson));
  }
  const pr = reports.find((r) => r.probe)?.probe;
  if (pr) add(`probe: winner unchanged by an appended pronoun clause % (${pr.pairs} pairs x ${pr.clauses})`, (r) => pct(r.probe?.unchanged));
  return { table: { header: ["measure", ...reports.map((r) => r.name)], rows }, signatures: reports.map((r) => [r.name, r.signature]) };
}

/** The significance as a table: per measure, each scorer's value [95% interval] and, after the first, the difference and p. */
export function significanceTable(sig: MeasureSignificance[], reports: ScorerMetaEval[], draws: number, seed: number, baseline?: string): TableBlock {
  const pctLike = (m: string): boolean => !/AC1|AUC|tau|Pearson/.test(m);
  const f = (m: string, x: number | undefined): string => (pctLike(m) ? pct(x) : num(x));
  const names = reports.map((r) => r.name);
  const rows: Array<[string, ...string[]]> = sig.map((s) => [
    s.measure,
    ...names.map((n) => {
      const c = s.scorers.find((x) => x.name === n);
      if (!c) return "n/a";
      const base = `${f(s.measure, c.value)} [${f(s.measure, c.lo)}, ${f(s.measure, c.hi)}]`;
      if (c.delta === undefined) return base;
      const d = f(s.measure, c.delta);
      const p = c.p === undefined || Number.isNaN(c.p) ? "n/a" : c.p === 0 ? `<${(1 / draws).toFixed(3)}` : c.p.toFixed(3);
      return `${base} ${c.delta >= 0 ? "+" : ""}${d} p=${p}`;
    }),
  ]);
  return {
    title: `95% intervals (paired bootstrap, ${draws} draws of pairs / judged items / MQM source segments, seed ${seed}); other scorers: difference to ${baseline ?? names[0] ?? "the first"} and two-sided p`,
    header: ["measure", ...names],
    rows,
  };
}

/**
 * Per pair file, R vs R' by pronoun pair in both directions (the pairs with enough pairs each way), one row
 * per scorer and an "identity ceiling" row per pronoun pair: the best fixed preference, fitted on the file,
 * right in one direction and wrong in the other (balanced 50). Then each scorer's worst pair.
 */
export function pronounPairTables(reports: ScorerMetaEval[]): TableBlock[] {
  const withPairs = reports.find((r) => r.pronounPairs?.length);
  const out: TableBlock[] = [];
  withPairs?.pronounPairs!.forEach((first, i) => {
    const scorers = reports.filter((r) => r.pronounPairs?.[i]);
    if (!first.rows.length) return;
    const cells = (pair: string, who: string, r: PronounPairDirections): string[] => [pair, who, String(r.xy.n), pct(r.xy.accuracy), String(r.yx.n), pct(r.yx.accuracy), pct(r.balanced), pct(r.both)];
    const rows: string[][] = [];
    first.rows.forEach((row) => {
      const pair = `${row.x}/${row.y}`;
      for (const s of scorers) {
        const r = s.pronounPairs![i]!.rows.find((x) => x.x === row.x && x.y === row.y);
        if (r) rows.push(cells(pair, s.name, r));
      }
      const xWins = row.xy.n >= row.yx.n;
      rows.push([pair, "identity ceiling", String(row.xy.n), xWins ? "100.00" : "0.00", String(row.yx.n), xWins ? "0.00" : "100.00", "50.00", pct(row.identityCeiling)]);
    });
    for (const s of scorers) {
      const w = s.pronounPairs![i]!.worst;
      if (w) rows.push(cells(`worst: ${w.x}/${w.y}`, s.name, w));
    }
    out.push({
      title: `${first.file}: R vs R' by pronoun pair x/y in both directions (x>y: the reference has x, the substitute y), the ${first.rows.length} pronoun pairs with >= ${first.minPerDirection} pairs each way; balanced: mean of the two directions; identity ceiling: the best fixed preference per pronoun pair, fitted on this file; worst: the pair whose weaker direction is lowest`,
      header: ["pronoun pair", "scorer", "n x>y", "x>y %", "n y>x", "y>x %", "balanced %", "both directions %"],
      rows,
    });
  });
  return out;
}
