/**
 * Reads the JSON files that other proneval commands write and tells which is which. Only the suite
 * scorer writes an explicit `kind`/`version`; the others are recognised by their shape, and each is
 * then checked field by field so that a wrong or truncated file fails here, naming the file and the
 * field, instead of as a blank chart in the browser.
 */
import { InputError } from "../io/errors.js";
import { readText } from "../io/lines.js";
import type { CurvePoint } from "../ranker/train.js";
import type { PairComparison, SegmentResult } from "../metric/testset.js";
import { Checker, isNum, isObj, isStr, type Json } from "./check.js";
import { checkApt, checkContrastive, checkMetaEval, checkMuda, type AptJson, type ContrastiveJson, type MetaEvalJson, type MudaJson } from "./inputs-results.js";

export type { AptJson, ContrastiveJson, MetaEvalJson, MudaJson } from "./inputs-results.js";
import {
  arrayKind,
  checkContrastiveCheck,
  checkOnTop,
  checkPairStats,
  checkPretrainCurve,
  checkSuiteStats,
  type ContrastiveCheckJson,
  type OnTopJson,
  type PairStatsJson,
  type PretrainCurveJson,
  type SuiteStatsJson,
} from "./inputs-runs.js";

export type { ContrastiveCheckJson, OnTopJson, PairStatsJson, PretrainCurveJson, SuiteStatsJson } from "./inputs-runs.js";

/** One point of the training curve, as src/ranker/train.ts writes it (type-only import: no tfjs is loaded). */
export type CurvePointJson = CurvePoint;

/** `proneval train` writes <out>/curve.json. */
export interface TrainCurveJson {
  curve: CurvePointJson[];
  lossTrace: Array<{ step: number; loss: number }>;
}

export interface AccuracyCellJson {
  n: number;
  correct: number;
  accuracy: number;
}

/** `proneval eval --json` (src/metric/pairs.ts PairAccuracy), with byKind and contextMode filled in by the reader. */
export interface EvalJson {
  signature?: string;
  checkpoint?: string;
  pairsFile?: string;
  pairs: number;
  overall: AccuracyCellJson;
  system?: AccuracyCellJson;
  noisy?: AccuracyCellJson;
  /** Balanced R vs R' (null when no pronoun pair occurs in both directions). */
  balanced?: { accuracy: number; pronounPairs: number; pairs: number; uncovered: number } | null;
  byKind: Record<string, AccuracyCellJson>;
  byLang: Record<string, AccuracyCellJson>;
  byPronounPair: Record<string, AccuracyCellJson>;
  contextMode: string;
}

/** One side as `Scorer.score(..., { withAttention: true })` returns it (src/core/scorer.ts ScoredSide). */
export interface ScoredSideJson {
  score: number;
  pronouns: Array<{ token: string; index: number; score: number; attention?: number[] }>;
  tokens: string[];
  sentStart: number;
  truncatedContext?: number;
}

/** A segment of `proneval score --json` (the fields of src/metric/testset.ts SegmentResult the report reads). */
export interface SegmentJson extends Pick<SegmentResult, "doc" | "seg" | "index" | "status" | "ref" | "sys" | "diff" | "refPronouns" | "sysPronouns" | "substituted"> {
  /** Optional: the scored reference side with per-pronoun scores and attention (for the heat maps). */
  refSide?: ScoredSideJson;
  /** Optional: the scored system side, as refSide. */
  sysSide?: ScoredSideJson;
}

export interface ScoreSystemJson {
  system: string;
  summary: { segments: number; pronounSegments: number; noPronounSegments: number; notBelow: number; meanDiff: number; score: number };
  /** `score --confidence`: the score's bootstrap interval. */
  confidence?: { samples: number; seed: number; mean: number; ci95: [number, number] } | null;
  segments: SegmentJson[];
}

/** `proneval score --json`. */
export interface ScoreJson {
  signature?: string;
  checkpoint?: string;
  context?: string;
  reference?: string;
  testSet?: { name?: string; langPair?: string; format?: string; documentIds?: boolean | string };
  systemScoreDefinition?: string;
  aggregate?: string;
  systems: ScoreSystemJson[];
}

/** `proneval compare --json` (kind proneval-compare, version 2): systems against a baseline. */
export interface CompareJson {
  kind?: "proneval-compare";
  version?: 2;
  signature?: string;
  aggregate?: string;
  baseline: string;
  alpha: number;
  bootstrap: { samples: number; seed: number } | null;
  systems: Array<{ system: string; pronounSegments: number; score: number }>;
  comparisons: Array<Omit<PairComparison, "segments"> & { cohensH: number; verdict: string }>;
}

export interface BootstrapJson {
  samples: number;
  seed: number;
  systems: Array<{ name: string; accuracy: number; ci: [number, number] }>;
  comparisons: Array<{ baseline: string; system: string; delta: number; ci: [number, number]; p: number }>;
}

/** `proneval ctxpro score --json`. */
export interface CtxproJson {
  evalSet: string;
  items: number;
  options?: Record<string, unknown>;
  systems: Array<{ name: string; correct: number; total: number; accuracy: number; perRule: Array<{ rule: string; form: string; correct: number; total: number; accuracy: number }> }>;
  bootstrap?: BootstrapJson;
}

/** `proneval suite score --json` (kind proneval-suite-score, version 1). */
export interface SuiteJson {
  kind: "proneval-suite-score";
  version: 1;
  suite: string;
  lang: string;
  items: number;
  systems: Array<{
    name: string;
    file?: string;
    accuracy: number;
    correct: number;
    total: number;
    byType: Record<string, { correct: number; total: number; accuracy: number }>;
    knownErrors: number;
    verdicts?: string[];
    ranker?: { notBelowReference: number; meanDiff: number; diffs?: Array<number | null> };
  }>;
  bootstrap?: BootstrapJson;
}

export type ReportInput =
  | { kind: "train-curve"; file: string; data: TrainCurveJson }
  | { kind: "eval"; file: string; data: EvalJson }
  | { kind: "score"; file: string; data: ScoreJson }
  | { kind: "compare"; file: string; data: CompareJson }
  | { kind: "ctxpro-score"; file: string; data: CtxproJson }
  | { kind: "suite-score"; file: string; data: SuiteJson }
  | { kind: "apt"; file: string; data: AptJson }
  | { kind: "muda-score"; file: string; data: MudaJson }
  | { kind: "contrastive"; file: string; data: ContrastiveJson }
  | { kind: "meta-eval"; file: string; data: MetaEvalJson }
  | { kind: "pretrain-curve"; file: string; data: PretrainCurveJson }
  | { kind: "ontop"; file: string; data: OnTopJson }
  | { kind: "pair-stats"; file: string; data: PairStatsJson }
  | { kind: "suite-stats"; file: string; data: SuiteStatsJson }
  | { kind: "contrastive-check"; file: string; data: ContrastiveCheckJson };

export type InputKind = ReportInput["kind"];

/** What each kind is and which command writes it, for error messages and the overview. */
export const KIND_DESCRIPTIONS: Record<InputKind, string> = {
  "train-curve": "training curve (curve.json written by `proneval train`)",
  eval: "ranker evaluation (`proneval eval --json`)",
  score: "pronoun scores (`proneval score --json`)",
  compare: "systems against a baseline (`proneval compare --json`, kind proneval-compare)",
  "ctxpro-score": "CTXPRO scores (`proneval ctxpro score --json`)",
  "suite-score": "pronoun suite scores (`proneval suite score --json`, kind proneval-suite-score)",
  apt: "APT scores (`proneval apt --json`)",
  "muda-score": "MuDA f-measures per tag (`proneval muda score --json`)",
  contrastive: "contrastive accuracy (`proneval contrastive --json`)",
  "meta-eval": "meta-evaluation of scorers (`proneval meta-eval --json`)",
  "pretrain-curve": "pretraining curve (curve.json written by `proneval pretrain`)",
  ontop: "ranker on a pretrained model (`proneval pretrain-ontop --json`)",
  "pair-stats": "pair counts (`proneval stats --json`)",
  "suite-stats": "suite counts (`proneval suite stats --json`)",
  "contrastive-check": "contrastive harness check (`proneval contrastive --self-check --json`)",
};

const EXPECTED = Object.values(KIND_DESCRIPTIONS).join("; ");

/** Explicit kinds this reader knows, with the versions it understands. */
const EXPLICIT_KINDS: Record<string, { kind: InputKind; versions: number[] }> = {
  "proneval-suite-score": { kind: "suite-score", versions: [1] },
  "proneval-compare": { kind: "compare", versions: [2] },
};

function checkCurve(c: Checker, d: Record<string, Json>): TrainCurveJson {
  c.arr(d.curve, "curve").forEach((p, i) => {
    const path = `curve[${i}]`;
    const o = c.obj(p, path);
    for (const k of ["epoch", "step", "trainLoss", "seconds", "pairsPerSec"]) c.num(o, k, path);
    c.numOrNull(o, "devAccuracy", path);
    if (o.devByKind !== null && o.devByKind !== undefined) {
      const m = c.obj(o.devByKind, `${path}.devByKind`);
      for (const [k, v] of Object.entries(m)) if (!isNum(v)) c.fail(`${path}.devByKind.${k}`, "a number", v);
    }
  });
  c.arr(d.lossTrace ?? [], "lossTrace").forEach((p, i) => {
    const o = c.obj(p, `lossTrace[${i}]`);
    c.num(o, "step", `lossTrace[${i}]`);
    c.num(o, "loss", `lossTrace[${i}]`);
  });
  return { curve: d.curve as CurvePointJson[], lossTrace: (d.lossTrace ?? []) as TrainCurveJson["lossTrace"] };
}

function checkEval(c: Checker, d: Record<string, Json>): EvalJson {
  c.num(d, "pairs", "");
  c.cell(d.overall, "overall");
  for (const k of ["byLang", "byPronounPair"]) c.cells(d, k, "");
  // eval --json gives system and noisy (R vs S, R vs R') and the signature; older files byKind and contextMode.
  const byKind: Record<string, AccuracyCellJson> = {};
  if (d.byKind !== undefined) c.cells(d, "byKind", "");
  else
    for (const k of ["system", "noisy"]) {
      if (d[k] === undefined) continue;
      c.cell(d[k], k);
      if ((d[k] as AccuracyCellJson).n > 0) byKind[k] = d[k] as AccuracyCellJson;
    }
  if (d.balanced !== undefined && d.balanced !== null) c.num(c.obj(d.balanced, "balanced"), "accuracy", "balanced");
  const ctx = typeof d.contextMode === "string" ? d.contextMode : /\|ctx:([\w-]+)/.exec(typeof d.signature === "string" ? d.signature : "")?.[1];
  if (ctx === undefined) c.fail("contextMode", "a context mode (or a signature with ctx:)", d.contextMode);
  return { ...(d as unknown as EvalJson), byKind: (d.byKind as Record<string, AccuracyCellJson> | undefined) ?? byKind, contextMode: ctx };
}

function checkScore(c: Checker, d: Record<string, Json>): ScoreJson {
  const systems = c.arr(d.systems, "systems");
  if (systems.length === 0) c.fail("systems", "at least one system", systems);
  let n = -1;
  systems.forEach((s, si) => {
    const path = `systems[${si}]`;
    const o = c.obj(s, path);
    c.str(o, "system", path);
    const sum = c.obj(o.summary, `${path}.summary`);
    for (const k of ["segments", "pronounSegments", "noPronounSegments", "notBelow", "meanDiff", "score"]) c.num(sum, k, `${path}.summary`);
    if (o.confidence !== undefined && o.confidence !== null) {
      const conf = c.obj(o.confidence, `${path}.confidence`);
      for (const k of ["samples", "seed", "mean"]) c.num(conf, k, `${path}.confidence`);
      c.ci(conf.ci95, `${path}.confidence.ci95`);
    }
    const segs = c.arr(o.segments, `${path}.segments`);
    if (n >= 0 && segs.length !== n) c.fail(`${path}.segments`, `${n} segments like systems[0] (systems must be scored on the same test set)`, `${segs.length}`);
    n = segs.length;
    segs.forEach((g, gi) => {
      const gp = `${path}.segments[${gi}]`;
      const x = c.obj(g, gp);
      c.str(x, "doc", gp);
      c.str(x, "seg", gp);
      if (x.status !== "scored" && x.status !== "no-pronoun") c.fail(`${gp}.status`, `"scored" or "no-pronoun"`, x.status);
      for (const k of ["ref", "sys", "diff"]) c.numOrNull(x, k, gp);
      if (x.status === "scored" && (!isNum(x.ref) || !isNum(x.sys))) c.fail(gp, "numbers in ref and sys for a scored segment", { ref: x.ref, sys: x.sys });
      c.strArr(x, "refPronouns", gp);
      c.strArr(x, "sysPronouns", gp);
      if (x.refSide !== undefined) c.side(x.refSide, `${gp}.refSide`);
      if (x.sysSide !== undefined) c.side(x.sysSide, `${gp}.sysSide`);
      if (x.substituted !== undefined && typeof x.substituted !== "boolean") c.fail(`${gp}.substituted`, "true or false", x.substituted);
    });
  });
  // Segments are matched by position across systems; a reordered file would silently pair wrong rows.
  const first = (systems[0] as ScoreSystemJson).segments;
  systems.forEach((s, si) => {
    (s as ScoreSystemJson).segments.forEach((g, gi) => {
      if (g.doc !== first[gi]!.doc || g.seg !== first[gi]!.seg)
        c.fail(`systems[${si}].segments[${gi}]`, `document ${first[gi]!.doc} segment ${first[gi]!.seg} as in systems[0]`, `${g.doc}:${g.seg}`);
    });
  });
  return d as unknown as ScoreJson;
}

function checkCompare(c: Checker, d: Record<string, Json>): CompareJson {
  c.str(d, "baseline", "");
  c.num(d, "alpha", "");
  if (d.bootstrap !== null) {
    const b = c.obj(d.bootstrap, "bootstrap");
    c.num(b, "samples", "bootstrap");
    c.num(b, "seed", "bootstrap");
  }
  c.arr(d.systems, "systems").forEach((s, i) => {
    const o = c.obj(s, `systems[${i}]`);
    c.str(o, "system", `systems[${i}]`);
    c.num(o, "pronounSegments", `systems[${i}]`);
    c.num(o, "score", `systems[${i}]`);
  });
  c.arr(d.comparisons, "comparisons").forEach((x, i) => {
    const p = `comparisons[${i}]`;
    const o = c.obj(x, p);
    c.str(o, "system", p);
    c.str(o, "verdict", p);
    for (const k of ["pronounSegments", "score", "baselineScore", "delta", "meanDiff", "cohensH"]) c.num(o, k, p);
    const w = c.obj(o.wins, `${p}.wins`);
    for (const k of ["system", "baseline", "ties"]) c.num(w, k, `${p}.wins`);
    if (o.bootstrap !== null) {
      const b = c.obj(o.bootstrap, `${p}.bootstrap`);
      c.num(b, "p", `${p}.bootstrap`);
      c.ci(b.ci95, `${p}.bootstrap.ci95`);
    }
  });
  return d as unknown as CompareJson;
}

function checkCtxpro(c: Checker, d: Record<string, Json>): CtxproJson {
  c.str(d, "evalSet", "");
  c.num(d, "items", "");
  const systems = c.arr(d.systems, "systems");
  if (systems.length === 0) c.fail("systems", "at least one system", systems);
  systems.forEach((s, si) => {
    const path = `systems[${si}]`;
    const o = c.obj(s, path);
    c.str(o, "name", path);
    for (const k of ["correct", "total", "accuracy"]) c.num(o, k, path);
    c.arr(o.perRule, `${path}.perRule`).forEach((r, ri) => {
      const rp = `${path}.perRule[${ri}]`;
      const x = c.obj(r, rp);
      c.str(x, "rule", rp);
      c.str(x, "form", rp);
      for (const k of ["correct", "total", "accuracy"]) c.num(x, k, rp);
    });
  });
  c.bootstrap(d.bootstrap, "bootstrap");
  return d as unknown as CtxproJson;
}

function checkSuite(c: Checker, d: Record<string, Json>): SuiteJson {
  c.str(d, "suite", "");
  c.str(d, "lang", "");
  c.num(d, "items", "");
  const systems = c.arr(d.systems, "systems");
  if (systems.length === 0) c.fail("systems", "at least one system", systems);
  systems.forEach((s, si) => {
    const path = `systems[${si}]`;
    const o = c.obj(s, path);
    c.str(o, "name", path);
    for (const k of ["correct", "total", "accuracy", "knownErrors"]) c.num(o, k, path);
    const bt = c.obj(o.byType, `${path}.byType`);
    for (const [k, v] of Object.entries(bt)) {
      const x = c.obj(v, `${path}.byType.${k}`);
      for (const f of ["correct", "total", "accuracy"]) c.num(x, f, `${path}.byType.${k}`);
    }
    if (o.verdicts !== undefined) c.strArr(o, "verdicts", path);
    if (o.ranker !== undefined) {
      const r = c.obj(o.ranker, `${path}.ranker`);
      c.num(r, "notBelowReference", `${path}.ranker`);
      c.num(r, "meanDiff", `${path}.ranker`);
    }
  });
  c.bootstrap(d.bootstrap, "bootstrap");
  return d as unknown as SuiteJson;
}

/** Which kind a parsed JSON value is, or an InputError saying what was expected. */
export function detectKind(v: Json, file: string): InputKind {
  if (Array.isArray(v)) {
    const k = arrayKind(v);
    if (k) return k;
    throw new InputError(
      `is a JSON array, not a report input (a CTXPRO evaluation set or a pair list?); expected one of: ${EXPECTED}`,
      file,
    );
  }
  if (!isObj(v)) throw new InputError(`is a JSON ${v === null ? "null" : typeof v}, not a report input; expected one of: ${EXPECTED}`, file);
  if (v.kind !== undefined) {
    const known = isStr(v.kind) ? EXPLICIT_KINDS[v.kind] : undefined;
    if (!known) throw new InputError(`has kind ${JSON.stringify(v.kind)}, which proneval report does not read; expected kind "proneval-suite-score" or one of: ${EXPECTED}`, file);
    if (!known.versions.includes(v.version as number))
      throw new InputError(`has kind ${v.kind} version ${JSON.stringify(v.version)}; this proneval reads version ${known.versions.join(" or ")} (re-run the command that wrote it with this proneval)`, file);
    return known.kind;
  }
  if (Array.isArray(v.curve)) return isObj(v.curve[0]) && "tokensPerSec" in v.curve[0] ? "pretrain-curve" : "train-curve";
  if ("zeroShotDev" in v && Array.isArray(v.dev)) return "ontop";
  if ("byPronounPair" in v && "overall" in v) return "eval";
  if ("scoreA" in v && "scoreB" in v && "wins" in v)
    throw new InputError("is a two-system comparison written by an older proneval compare; run compare again (it now writes kind proneval-compare version 2)", file);
  if ("evalSet" in v && Array.isArray(v.systems)) return "ctxpro-score";
  if (Array.isArray(v.reports) && "aggregate" in v) return "meta-eval";
  if ("set" in v && Array.isArray(v.results)) return "contrastive";
  if ("referenceCounts" in v && Array.isArray(v.systems)) return "muda-score";
  if ("weights" in v && "mode" in v && Array.isArray(v.systems) && isObj(v.systems[0]) && "cases" in v.systems[0]) return "apt";
  if (Array.isArray(v.systems) && ("systemScoreDefinition" in v || (isObj(v.systems[0]) && "summary" in v.systems[0] && "segments" in v.systems[0]))) return "score";
  const keys = Object.keys(v).slice(0, 8).join(", ");
  throw new InputError(`is not a file proneval report reads (top-level keys: ${keys || "none"}); expected one of: ${EXPECTED}`, file);
}

/** Checks a parsed value of a known kind and returns it typed. */
export function checkInput(v: Json, file: string, kind: InputKind = detectKind(v, file)): ReportInput {
  const c = new Checker(file, KIND_DESCRIPTIONS[kind]);
  if (kind === "pair-stats" || kind === "suite-stats" || kind === "contrastive-check") {
    const rows = c.arr(v, "top level");
    if (kind === "pair-stats") return { kind, file, data: checkPairStats(c, rows) };
    if (kind === "suite-stats") return { kind, file, data: checkSuiteStats(c, rows) };
    return { kind, file, data: checkContrastiveCheck(c, rows) };
  }
  const d = c.obj(v, "top level");
  switch (kind) {
    case "train-curve":
      return { kind, file, data: checkCurve(c, d) };
    case "eval":
      return { kind, file, data: checkEval(c, d) };
    case "score":
      return { kind, file, data: checkScore(c, d) };
    case "compare":
      return { kind, file, data: checkCompare(c, d) };
    case "ctxpro-score":
      return { kind, file, data: checkCtxpro(c, d) };
    case "suite-score":
      return { kind, file, data: checkSuite(c, d) };
    case "apt":
      return { kind, file, data: checkApt(c, d) };
    case "muda-score":
      return { kind, file, data: checkMuda(c, d) };
    case "contrastive":
      return { kind, file, data: checkContrastive(c, d) };
    case "meta-eval":
      return { kind, file, data: checkMetaEval(c, d) };
    case "pretrain-curve":
      return { kind, file, data: checkPretrainCurve(c, d) };
    case "ontop":
      return { kind, file, data: checkOnTop(c, d) };
  }
  throw new InputError(`${KIND_DESCRIPTIONS[kind]} is a JSON array`, file);
}

/** Reads a JSON file (plain or .gz), detects its kind and checks it. */
export function readReportInput(file: string): ReportInput {
  const text = readText(file);
  let v: Json;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new InputError(`is not valid JSON (${(e as Error).message}); expected one of: ${EXPECTED}`, file);
  }
  return checkInput(v, file);
}
