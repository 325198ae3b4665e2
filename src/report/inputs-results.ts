/**
 * The report inputs of the reference-based and meta-evaluation commands: `apt --json`, `muda score --json`,
 * `contrastive --json` and `meta-eval --json`, in the shapes those commands write, checked field by field.
 */
import { Checker, isNum, type Json } from "./check.js";

/** The paired bootstrap as src/stats/bootstrap.ts writes it. */
export interface StatsBootstrap {
  samples: number;
  seed: number;
  systems: Array<{ name: string; value: number; ci: [number, number]; mean?: number }>;
  comparisons: Array<{ baseline: string; system: string; delta: number; ci: [number, number]; p: number }>;
}

/** `proneval apt --json`. */
export interface AptJson {
  signature?: string;
  mode: string;
  srcLang: string;
  tgtLang: string;
  segments: number;
  weights: number[];
  systems: Array<{ name: string; cases: number[]; unanchored: number; score: number; byPronoun: Record<string, { cases: number[]; unanchored: number; score: number }> }>;
  bootstrap?: StatsBootstrap;
}

/** `proneval muda score --json`. */
export interface MudaJson {
  signature?: string;
  testset?: string;
  langPair: string;
  reference?: string;
  tags: string[];
  referenceCounts: { segments: number; tokens: number; taggedTokens: number; tags: Record<string, number> };
  systems: Array<{ name: string; labels: Array<{ label: string; f: number; recall: number; precision: number; refCount: number; hypCount: number }> }>;
  /** Per label. */
  bootstrap?: Record<string, StatsBootstrap>;
}

/** `proneval contrastive --json`. */
export interface ContrastiveJson {
  set: string;
  file?: string;
  signature?: string;
  results: Array<{
    set: string;
    system: string;
    overall: { items: number; correct: number; accuracy: number; chance: number };
    byDistance: Array<{ key: string; items: number; correct: number; accuracy: number; chance: number }>;
    ties: number;
  }>;
  bootstrap?: StatsBootstrap;
}

/** One scorer's interval (and difference to the baseline) for one measure of `meta-eval --json`. */
export interface MeasureScorerJson {
  name: string;
  value: number | null;
  lo: number | null;
  hi: number | null;
  delta?: number | null;
  p?: number | null;
}

/** `proneval meta-eval --json`: one report per scorer, and the paired bootstrap of the measures they share. */
export interface MetaEvalJson {
  aggregate: string;
  mode?: string;
  reports: Array<{
    name: string;
    kind?: string;
    signature?: string;
    pairs: Array<{ file: string; pairs: number; overall: AccuracyCell; system: AccuracyCell; noisy: AccuracyCell; balanced: { accuracy: number } | null }>;
    judged?: { items: number; decided: number; accuracy: number | null; ac1: number | null };
    mqm?: Record<string, unknown>;
    probe?: { pairs: number; clauses: number; unchanged: number };
  }>;
  significance?: { draws: number; seed: number; baseline: string; measures: Array<{ measure: string; scorers: MeasureScorerJson[] }> };
}

interface AccuracyCell {
  n: number;
  correct: number;
  accuracy: number;
}

function checkStatsBootstrap(c: Checker, v: Json, path: string): void {
  c.bootstrap(v, path, "value");
}

export function checkApt(c: Checker, d: Record<string, Json>): AptJson {
  for (const k of ["mode", "srcLang", "tgtLang"]) c.str(d, k, "");
  c.num(d, "segments", "");
  const systems = c.arr(d.systems, "systems");
  if (systems.length === 0) c.fail("systems", "at least one system", systems);
  systems.forEach((s, i) => {
    const p = `systems[${i}]`;
    const o = c.obj(s, p);
    c.str(o, "name", p);
    c.num(o, "score", p);
    const cases = c.arr(o.cases, `${p}.cases`);
    if (cases.length !== 6 || !cases.every(isNum)) c.fail(`${p}.cases`, "six case counts", cases);
  });
  checkStatsBootstrap(c, d.bootstrap, "bootstrap");
  return d as unknown as AptJson;
}

export function checkMuda(c: Checker, d: Record<string, Json>): MudaJson {
  c.str(d, "langPair", "");
  c.strArr(d, "tags", "");
  const rc = c.obj(d.referenceCounts, "referenceCounts");
  c.num(rc, "tokens", "referenceCounts");
  const systems = c.arr(d.systems, "systems");
  if (systems.length === 0) c.fail("systems", "at least one system", systems);
  systems.forEach((s, i) => {
    const p = `systems[${i}]`;
    const o = c.obj(s, p);
    c.str(o, "name", p);
    c.arr(o.labels, `${p}.labels`).forEach((l, k) => {
      const lp = `${p}.labels[${k}]`;
      const x = c.obj(l, lp);
      c.str(x, "label", lp);
      for (const f of ["f", "recall", "precision", "refCount", "hypCount"]) c.num(x, f, lp);
    });
  });
  if (d.bootstrap !== undefined) for (const [label, b] of Object.entries(c.obj(d.bootstrap, "bootstrap"))) checkStatsBootstrap(c, b, `bootstrap.${label}`);
  return d as unknown as MudaJson;
}

export function checkContrastive(c: Checker, d: Record<string, Json>): ContrastiveJson {
  c.str(d, "set", "");
  const results = c.arr(d.results, "results");
  if (results.length === 0) c.fail("results", "at least one system", results);
  results.forEach((r, i) => {
    const p = `results[${i}]`;
    const o = c.obj(r, p);
    c.str(o, "system", p);
    const ov = c.obj(o.overall, `${p}.overall`);
    for (const k of ["items", "correct", "accuracy", "chance"]) c.num(ov, k, `${p}.overall`);
    c.arr(o.byDistance, `${p}.byDistance`).forEach((g, k) => {
      const x = c.obj(g, `${p}.byDistance[${k}]`);
      c.str(x, "key", `${p}.byDistance[${k}]`);
      for (const f of ["items", "accuracy"]) c.num(x, f, `${p}.byDistance[${k}]`);
    });
  });
  checkStatsBootstrap(c, d.bootstrap, "bootstrap");
  return d as unknown as ContrastiveJson;
}

export function checkMetaEval(c: Checker, d: Record<string, Json>): MetaEvalJson {
  c.str(d, "aggregate", "");
  const reports = c.arr(d.reports, "reports");
  if (reports.length === 0) c.fail("reports", "at least one scorer", reports);
  reports.forEach((r, i) => {
    const p = `reports[${i}]`;
    const o = c.obj(r, p);
    c.str(o, "name", p);
    c.arr(o.pairs, `${p}.pairs`).forEach((x, k) => {
      const pp = `${p}.pairs[${k}]`;
      const a = c.obj(x, pp);
      c.str(a, "file", pp);
      for (const f of ["overall", "system", "noisy"]) c.cell(a[f], `${pp}.${f}`);
    });
  });
  if (d.significance !== undefined) {
    const s = c.obj(d.significance, "significance");
    c.num(s, "draws", "significance");
    c.arr(s.measures, "significance.measures").forEach((m, i) => {
      const mp = `significance.measures[${i}]`;
      const o = c.obj(m, mp);
      c.str(o, "measure", mp);
      c.arr(o.scorers, `${mp}.scorers`).forEach((x, k) => {
        const sp = `${mp}.scorers[${k}]`;
        const y = c.obj(x, sp);
        c.str(y, "name", sp);
        for (const f of ["value", "lo", "hi"]) c.numOrNull(y, f, sp);
      });
    });
  }
  return d as unknown as MetaEvalJson;
}
