/**
 * The report inputs of model runs and data counts: `pretrain`'s curve.json, `pretrain-ontop --json`,
 * `stats --json`, `suite stats --json` and `contrastive --self-check --json`, checked field by field.
 */
import { Checker, isObj, type Json } from "./check.js";

interface Cell {
  n: number;
  correct: number;
  accuracy: number;
}

/** An EvalReport of src/nn/evaluate.ts, as pretrain-ontop writes them (the report draws them as eval files). */
export interface EvalReportJson {
  pairs: number;
  overall: Cell;
  byKind: Record<string, Cell>;
  byLang: Record<string, Cell>;
  byPronounPair: Record<string, Cell>;
  contextMode: string;
}

/** `proneval pretrain` writes <out>/curve.json: a point per evaluation. */
export interface PretrainCurveJson {
  curve: Array<{
    step: number;
    epoch: number;
    loss: number;
    seconds: number;
    tokensPerSec: number;
    dev?: { overall: number; system?: number; noisy?: number; pairs: number; pmi?: { overall: number; system?: number; noisy?: number } };
  }>;
}

/** `proneval pretrain-ontop --json`: dev accuracy zero-shot, then after each epoch on top of the frozen model. */
export interface OnTopJson {
  signature?: string;
  variant: string;
  zeroShotDev: EvalReportJson;
  dev: EvalReportJson[];
  trainPairs: number;
}

/** `proneval stats --json`: per pair file, pairs by kind and language, and the frequent pronoun pairs. */
export interface PairStatsJson {
  rows: Array<{ file: string; total: number; byKind: Record<string, number>; byLang: Record<string, Record<string, number>>; pronounPairs: Array<{ ref: string; sys: string; count: number }> }>;
}

/** `proneval suite stats --json`: per suite, the paper's Table 2. */
export interface SuiteStatsJson {
  rows: Array<{ lang: string; years: string[]; items: number; uniqueSourceContexts: number; byType: Record<string, number>; errors: number }>;
}

/** `proneval contrastive --self-check --json`: the harness checked on each set. */
export interface ContrastiveCheckJson {
  rows: Array<{ set: string; items: number; candidates: number; constantAccuracy: number; chance: number; failures: string[] }>;
}

export function checkPretrainCurve(c: Checker, d: Record<string, Json>): PretrainCurveJson {
  c.arr(d.curve, "curve").forEach((p, i) => {
    const path = `curve[${i}]`;
    const o = c.obj(p, path);
    for (const k of ["step", "epoch", "loss", "seconds", "tokensPerSec"]) c.num(o, k, path);
    if (o.dev !== undefined) c.num(c.obj(o.dev, `${path}.dev`), "overall", `${path}.dev`);
  });
  return d as unknown as PretrainCurveJson;
}

/** An EvalReport of src/nn/evaluate.ts (byKind, contextMode), as pretrain-ontop writes them. */
function checkEvalReport(c: Checker, v: Json, path: string): EvalReportJson {
  const o = c.obj(v, path);
  c.num(o, "pairs", path);
  c.cell(o.overall, `${path}.overall`);
  for (const k of ["byKind", "byLang", "byPronounPair"]) c.cells(o, k, path);
  c.str(o, "contextMode", path);
  return o as unknown as EvalReportJson;
}

export function checkOnTop(c: Checker, d: Record<string, Json>): OnTopJson {
  c.str(d, "variant", "");
  c.num(d, "trainPairs", "");
  checkEvalReport(c, d.zeroShotDev, "zeroShotDev");
  c.arr(d.dev, "dev").forEach((r, i) => checkEvalReport(c, r, `dev[${i}]`));
  return d as unknown as OnTopJson;
}

export function checkPairStats(c: Checker, rows: Json[]): PairStatsJson {
  rows.forEach((r, i) => {
    const o = c.obj(r, `[${i}]`);
    c.str(o, "file", `[${i}]`);
    c.num(o, "total", `[${i}]`);
    c.obj(o.byKind, `[${i}].byKind`);
    c.arr(o.pronounPairs, `[${i}].pronounPairs`);
  });
  return { rows: rows as PairStatsJson["rows"] };
}

export function checkSuiteStats(c: Checker, rows: Json[]): SuiteStatsJson {
  rows.forEach((r, i) => {
    const o = c.obj(r, `[${i}]`);
    c.str(o, "lang", `[${i}]`);
    for (const k of ["items", "uniqueSourceContexts", "errors"]) c.num(o, k, `[${i}]`);
    c.obj(o.byType, `[${i}].byType`);
  });
  return { rows: rows as SuiteStatsJson["rows"] };
}

export function checkContrastiveCheck(c: Checker, rows: Json[]): ContrastiveCheckJson {
  rows.forEach((r, i) => {
    const o = c.obj(r, `[${i}]`);
    c.str(o, "set", `[${i}]`);
    for (const k of ["items", "candidates", "constantAccuracy", "chance"]) c.num(o, k, `[${i}]`);
    c.strArr(o, "failures", `[${i}]`);
  });
  return { rows: rows as ContrastiveCheckJson["rows"] };
}

/** Which array kind a JSON array is (by its first element), or undefined. */
export function arrayKind(v: Json[]): "pair-stats" | "suite-stats" | "contrastive-check" | undefined {
  const x = v[0];
  if (!isObj(x)) return undefined;
  if ("pronounPairs" in x && "byKind" in x) return "pair-stats";
  if ("uniqueSourceContexts" in x) return "suite-stats";
  if ("constantAccuracy" in x && "failures" in x) return "contrastive-check";
  return undefined;
}
