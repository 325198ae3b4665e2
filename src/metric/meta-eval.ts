// Meta-evaluation of a pronoun scorer against people and bias probes (docs/meta-eval.md), in the
// spirit of Google's mt-metrics-eval: pair accuracy (incl. balanced R vs R'), human pronoun errors
// from MQM annotations (same-source pairs, segment AUC, system-level correlation), hand-judged pairs
// (accuracy, Gwet's AC1) and an appended-clause probe.
import { basename } from "node:path";
import { InputError } from "../io/errors.js";
import type { TableBlock } from "../io/table.js";
import { readLines } from "../io/lines.js";
import type { ContextMode, PairRecord } from "../mine/pair-format.js";
import { mulberry32 } from "../ctxpro/random.js";
import { pronouns } from "../text/pronouns.js";
import { tokenWords } from "../text/tokenize.js";
import type { Aggregate, CompareMode } from "./decide.js";
import type { MqmData, MqmSegment } from "./mqm.js";
import { compareMany, marginsOf, pairAccuracy, pairItems, type CompareItem, type PairAccuracy } from "./pairs.js";
import { TIE_EPS, type PronounScorer } from "./scorer.js";
import { APT_DEFAULT_WEIGHTS, computeApt, countApt, type AptInstance } from "../apt/index.js";
import { makeSignature } from "../signature.js";

// ---------- how two texts of the same segment are compared ----------


// ---------- hand-judged pairs ----------

export type JudgementLabel = "reference" | "substitute" | "both" | "invalid";
const LABELS: readonly JudgementLabel[] = ["reference", "substitute", "both", "invalid"];

export interface Judgement {
  id: string;
  context: string[];
  reference: string;
  substitute: string;
  label: JudgementLabel;
}

export function readJudgements(file: string): Judgement[] {
  const out: Judgement[] = [];
  readLines(file).forEach((line, i) => {
    if (!line.trim()) return;
    let j: Record<string, unknown>;
    try {
      j = JSON.parse(line);
    } catch (e) {
      throw new InputError(`not JSON (${(e as Error).message})`, file, i + 1);
    }
    if (!LABELS.includes(j.label as JudgementLabel)) throw new InputError(`unknown label ${JSON.stringify(j.label)} (expected ${LABELS.join(", ")})`, file, i + 1);
    if (typeof j.reference !== "string" || typeof j.substitute !== "string" || !Array.isArray(j.context))
      throw new InputError("a judgement needs reference, substitute (strings) and context (array)", file, i + 1);
    out.push({ id: String(j.id ?? i + 1), context: j.context as string[], reference: j.reference, substitute: j.substitute, label: j.label as JudgementLabel });
  });
  if (!out.length) throw new InputError("no judgements", file);
  return out;
}

/** Gwet's AC1 for two raters over the same items (categories as strings). */
export function gwetAc1(a: string[], b: string[]): number {
  const n = a.length;
  if (!n) return NaN;
  const cats = [...new Set([...a, ...b])];
  const q = cats.length;
  let agree = 0;
  for (let i = 0; i < n; i++) if (a[i] === b[i]) agree++;
  const pa = agree / n;
  if (q < 2) return 1;
  let pe = 0;
  for (const c of cats) {
    const pi = (a.filter((x) => x === c).length + b.filter((x) => x === c).length) / (2 * n);
    pe += pi * (1 - pi);
  }
  pe /= q - 1;
  return (pa - pe) / (1 - pe);
}

export interface JudgedReport {
  file: string;
  items: number;
  /** Items the judges decided (reference or substitute better). */
  decided: number;
  /** Share of decided items where the scorer prefers the judged side (a scorer tie is wrong). */
  accuracy: number;
  scorerTies: number;
  /** Gwet's AC1 between scorer and judges over the valid items (reference / substitute / both=tie). */
  ac1: number;
  valid: number;
}

async function judged(scorer: PronounScorer, file: string, items: Judgement[], agg: Aggregate, context: ContextMode, mode: CompareMode): Promise<JudgedReport> {
  const valid = items.filter((j) => j.label !== "invalid");
  const values = await compareMany(
    scorer,
    valid.map((j) => ({ context: context === "nc" ? [] : j.context, a: j.reference, b: j.substitute })),
    agg,
    mode,
  );
  const pref = values.map((v) => (v === null || Math.abs(v) <= TIE_EPS ? "both" : v < 0 ? "reference" : "substitute"));
  const decided = valid.map((j, i) => ({ j, p: pref[i]! })).filter((x) => x.j.label === "reference" || x.j.label === "substitute");
  const correct = decided.filter((x) => x.p === x.j.label).length;
  return {
    file,
    items: items.length,
    decided: decided.length,
    accuracy: decided.length ? correct / decided.length : NaN,
    scorerTies: pref.filter((p) => p === "both").length,
    ac1: gwetAc1(
      valid.map((j) => j.label),
      pref,
    ),
    valid: valid.length,
  };
}

// ---------- MQM ----------

export interface MqmReport {
  file: string;
  /** Same source: a system with a marked pronoun error vs one without. */
  sameSource: { pairs: number; preferWithout: number; ties: number; share: number };
  sameSourceEqualCount: { pairs: number; preferWithout: number; ties: number; share: number };
  /** AUC of segment values: error-free segments above pronoun-error segments (ties 1/2). */
  auc: { pronounError: number; errorFree: number; auc: number };
  /** System level over the MT systems: correlation of system scores with minus the pronoun-error rate. */
  system: { systems: number; kendallTau: number; pearson: number; rows: Array<{ system: string; score: number; pronounErrorRate: number }> };
  references: string;
}

export function kendallTau(x: number[], y: number[]): number {
  // tau-b: ties in either variable handled.
  let c = 0;
  let d = 0;
  let tx = 0;
  let ty = 0;
  for (let i = 0; i < x.length; i++)
    for (let j = i + 1; j < x.length; j++) {
      const a = Math.sign(x[i]! - x[j]!);
      const b = Math.sign(y[i]! - y[j]!);
      if (a === 0 && b === 0) continue;
      if (a === 0) tx++;
      else if (b === 0) ty++;
      else if (a === b) c++;
      else d++;
    }
  const den = Math.sqrt((c + d + tx) * (c + d + ty));
  return den ? (c - d) / den : NaN;
}

export function pearson(x: number[], y: number[]): number {
  const n = x.length;
  const mx = x.reduce((a, b) => a + b, 0) / n;
  const my = y.reduce((a, b) => a + b, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += (x[i]! - mx) * (y[i]! - my);
    sxx += (x[i]! - mx) ** 2;
    syy += (y[i]! - my) ** 2;
  }
  return sxx && syy ? sxy / Math.sqrt(sxx * syy) : NaN;
}

/** Area under the ROC curve: P(good > bad) + P(tie) / 2. */
export function auc(good: number[], bad: number[]): number {
  if (!good.length || !bad.length) return NaN;
  const all = [...good.map((v) => ({ v, g: 1 })), ...bad.map((v) => ({ v, g: 0 }))].sort((a, b) => a.v - b.v);
  // Rank-sum with average ranks for ties.
  let rankSum = 0;
  for (let i = 0; i < all.length; ) {
    let j = i;
    while (j < all.length && all[j]!.v === all[i]!.v) j++;
    const avg = (i + 1 + j) / 2;
    for (let k = i; k < j; k++) if (all[k]!.g) rankSum += avg;
    i = j;
  }
  return (rankSum - (good.length * (good.length + 1)) / 2) / (good.length * bad.length);
}

/** 100 * share of pronoun segments not below the reference (as SystemSummary.score). */
function systemScore(segs: Array<{ status: "scored" | "no-pronoun"; diff: number | null }>): number {
  const scored = segs.filter((s) => s.status === "scored");
  return scored.length ? (100 * scored.filter((s) => s.diff === null || s.diff >= -TIE_EPS).length) / scored.length : 0;
}

function pronounCount(s: string): number {
  const inv = pronouns();
  return tokenWords(s).filter((w) => inv.has(w.toLowerCase())).length;
}

/** The rated output of a system for a segment, if it was rated. */
function segmentLookup(data: MqmData): (system: string, doc: string, id: number) => MqmSegment | undefined {
  const seg = new Map(data.segments.map((s) => [`${s.system}\t${s.doc}\t${s.segId}`, s]));
  return (system, doc, id) => seg.get(`${system}\t${doc}\t${id}`);
}

/**
 * Which reference each rated output is scored against: `ref` for the MT systems and for `refB`,
 * `refB` for `ref` (a reference is not scored against itself).
 */
export function mqmReferenceFor(system: string, data: MqmData): string {
  const refs = ["ref", "refB"].filter((r) => data.systems.includes(r));
  if (!refs.length) throw new InputError("the MQM file has no reference rows (system 'ref' or 'refB')", data.file);
  if (system === refs[0] && refs.length > 1) return refs[1]!;
  return refs[0]!;
}

async function mqmReport(scorer: PronounScorer, data: MqmData, agg: Aggregate, context: ContextMode, mode: CompareMode): Promise<MqmReport> {
  const get = segmentLookup(data);
  // Per rated output and segment: its reference (previous reference segments as context, CRC) and itself.
  const keys: Array<{ system: string; doc: string; segId: number; refHas: boolean; sysHas: boolean }> = [];
  const items: CompareItem[] = [];
  for (const system of data.systems) {
    const refName = mqmReferenceFor(system, data);
    for (const { doc, segIds } of data.docs) {
      segIds.forEach((id, k) => {
        const out = get(system, doc, id);
        const ref = get(refName, doc, id);
        if (!out) return;
        if (!ref) throw new InputError(`segment ${doc}/${id} of ${system} has no '${refName}' translation to compare with`, data.file);
        const prev = segIds.slice(Math.max(0, k - 2), k).map((p) => get(refName, doc, p)?.target).filter((t): t is string => t !== undefined);
        const own = segIds.slice(Math.max(0, k - 2), k).map((p) => get(system, doc, p)?.target).filter((t): t is string => t !== undefined);
        keys.push({ system, doc, segId: id, refHas: pronounCount(ref.target) > 0, sysHas: pronounCount(out.target) > 0 });
        items.push({ context: context === "nc" ? [] : prev, contextB: context === "nc" ? [] : context === "rc" ? own : prev, a: ref.target, b: out.target });
      });
    }
  }
  const diffs = await compareMany(scorer, items, agg, mode);
  const value = new Map<string, number>();
  const results = new Map<string, Array<{ status: "scored" | "no-pronoun"; diff: number | null }>>();
  keys.forEach((k, i) => {
    value.set(`${k.system}\t${k.doc}\t${k.segId}`, diffs[i] ?? 0);
    if (!results.has(k.system)) results.set(k.system, []);
    results.get(k.system)!.push({ status: k.refHas || k.sysHas ? "scored" : "no-pronoun", diff: diffs[i] ?? null });
  });
  return mqmMeasures(
    data,
    value,
    (system) => systemScore(results.get(system) ?? []),
    "MT systems and refB are scored against ref, ref against refB; context: the reference's previous annotated segments of the talk",
  );
}

/**
 * The MQM measures from a value per rated output and segment (higher = better; key
 * "system\tdoc\tsegId") and a score per system (higher = better), whatever metric made them.
 */
function mqmMeasures(data: MqmData, value: Map<string, number>, systemScoreOf: (system: string) => number, references: string): MqmReport {
  const get = segmentLookup(data);
  // (a) same source pairs.
  const tally = { pairs: 0, preferWithout: 0, ties: 0 };
  const tallyEq = { pairs: 0, preferWithout: 0, ties: 0 };
  for (const { doc, segIds } of data.docs) {
    for (const id of segIds) {
      const outs = data.systems.map((s) => get(s, doc, id)).filter((s): s is NonNullable<typeof s> => s !== undefined && value.has(`${s.system}\t${doc}\t${id}`));
      for (const a of outs.filter((s) => s.pronounError)) {
        for (const b of outs.filter((s) => !s.pronounError)) {
          const va = value.get(`${a.system}\t${doc}\t${id}`)!;
          const vb = value.get(`${b.system}\t${doc}\t${id}`)!;
          const win = vb > va + TIE_EPS ? 1 : 0;
          const tie = Math.abs(vb - va) <= TIE_EPS ? 1 : 0;
          for (const t of pronounCount(a.target) === pronounCount(b.target) ? [tally, tallyEq] : [tally]) {
            t.pairs++;
            t.preferWithout += win;
            t.ties += tie;
          }
        }
      }
    }
  }
  const share = (t: typeof tally) => ({ ...t, share: t.pairs ? t.preferWithout / t.pairs : NaN });
  // (b) AUC.
  const good: number[] = [];
  const bad: number[] = [];
  for (const s of data.segments) {
    const v = value.get(`${s.system}\t${s.doc}\t${s.segId}`);
    if (v === undefined) continue;
    if (s.pronounError) bad.push(v);
    else if (s.errorFree) good.push(v);
  }
  // (c) system level over the MT systems.
  const mt = data.systems.filter((s) => s !== "ref" && s !== "refB");
  const rows = mt.map((system) => {
    const segs = data.segments.filter((s) => s.system === system);
    return { system, score: systemScoreOf(system), pronounErrorRate: segs.filter((s) => s.pronounError).length / Math.max(1, segs.length) };
  });
  const neg = rows.map((r) => -r.pronounErrorRate);
  return {
    file: data.file,
    sameSource: share(tally),
    sameSourceEqualCount: share(tallyEq),
    auc: { pronounError: bad.length, errorFree: good.length, auc: auc(good, bad) },
    system: { systems: rows.length, kendallTau: kendallTau(rows.map((r) => r.score), neg), pearson: pearson(rows.map((r) => r.score), neg), rows },
    references,
  };
}

/** APT's signature in meta-eval, as `proneval apt` writes it (built-in weights and equivalences). */
export function aptSignature(srcLang: string): string {
  return makeSignature("apt", [
    ["pair", `${srcLang}-en`],
    ["mode", "target-en"],
    ["weights", APT_DEFAULT_WEIGHTS.join(",")],
    ["equiv", "builtin"],
    ["align", "fast_align-gdfa"],
    ["on", "mqm"],
  ]);
}

/** The source language of an MQM file into English: `--mqm-lang xx-en`, else from its name (`mqm_ted_zhen` -> zh). */
export function mqmSourceLang(file: string, given?: string): string {
  if (given !== undefined) {
    const m = /^([a-z]{2,3})-en$/.exec(given);
    if (!m) throw new InputError(`--mqm-lang must be xx-en (the metric is for English targets), got '${given}'`);
    return m[1]!;
  }
  const m = /(?:^|[_.-])([a-z]{2})-?en(?:[_.-]|$)/.exec(basename(file));
  if (!m || m[1] === "en") throw new InputError("cannot tell the MQM file's language pair from its name: give --mqm-lang xx-en", file);
  return m[1]!;
}

/**
 * APT (src/apt) as a row of the MQM measures: every rated output against its reference (as for the
 * scorers), source words from the MQM file, fast_align trained per reference on the (source, reference)
 * and (source, output) pairs of all outputs scored against it. A segment's value is its APT (1 when it
 * has no anchored reference pronoun: nothing to get wrong); a system's score is its APT x 100.
 * APT is reference-based, so the pair, judged and probe measures (whose reference side is the
 * reference itself) do not apply to it.
 */
export async function aptMqmReport(data: MqmData, srcLang: string, opts: { weights?: readonly number[]; threads?: number } = {}): Promise<MqmReport> {
  const get = segmentLookup(data);
  const value = new Map<string, number>();
  const sysScore = new Map<string, number>();
  const refNames = [...new Set(data.systems.map((s) => mqmReferenceFor(s, data)))];
  for (const refName of refNames) {
    const systems = data.systems.filter((s) => mqmReferenceFor(s, data) === refName);
    const segs = data.docs.flatMap(({ doc, segIds }) => segIds.filter((id) => get(refName, doc, id)).map((id) => ({ doc, id })));
    const report = await computeApt(
      {
        srcLang,
        tgtLang: "en",
        src: segs.map((k) => get(refName, k.doc, k.id)!.source),
        ref: segs.map((k) => get(refName, k.doc, k.id)!.target),
        hyps: systems.map((s) => ({ name: s, lines: segs.map((k) => get(s, k.doc, k.id)?.target ?? "") })),
      },
      { keepInstances: true, weights: opts.weights, threads: opts.threads },
    );
    for (const r of report.systems) {
      const present = new Set(segs.map((k, i) => (get(r.name, k.doc, k.id) ? i : -1)).filter((i) => i >= 0));
      const inst = (r.instances ?? []).filter((x) => present.has(x.sentence));
      const bySent = new Map<number, AptInstance[]>();
      for (const x of inst) bySent.set(x.sentence, [...(bySent.get(x.sentence) ?? []), x]);
      for (const i of present) {
        const c = countApt(bySent.get(i) ?? [], report.weights).total;
        const anchored = c.cases.reduce((a, b) => a + b, 0);
        value.set(`${r.name}\t${segs[i]!.doc}\t${segs[i]!.id}`, anchored ? c.score : 1);
      }
      sysScore.set(r.name, 100 * countApt(inst, report.weights).total.score);
    }
  }
  return mqmMeasures(
    data,
    value,
    (s) => sysScore.get(s) ?? NaN,
    `APT against the same references as the scorers (MT systems and refB against ref, ref against refB); source-${srcLang} aligned with fast_align trained per reference on its outputs`,
  );
}

// ---------- probes ----------

/** Pronoun-bearing clauses appended (as a new sentence) to both sides of a pair. */
export const PROBE_CLAUSES = ["They said it was true.", "We saw him there.", "She told me about it."];

export interface ProbeReport {
  file: string;
  pairs: number;
  clauses: number;
  /** Share of (pair, clause) cases whose winner (or tie) is unchanged. */
  unchanged: number;
}

async function appendProbe(scorer: PronounScorer, file: string, pairs: PairRecord[], agg: Aggregate, context: ContextMode, limit: number, seed: number, mode: CompareMode): Promise<ProbeReport> {
  const rnd = mulberry32(seed);
  const pool = pairs.slice();
  const n = Math.min(limit, pool.length);
  for (let i = 0; i < n; i++) {
    const j = i + Math.floor(rnd() * (pool.length - i));
    [pool[i], pool[j]] = [pool[j]!, pool[i]!];
  }
  const chosen = pool.slice(0, n);
  const variants = ["", ...PROBE_CLAUSES.map((c) => ` ${c}`)];
  const items: CompareItem[] = [];
  for (const v of variants)
    for (const p of chosen)
      items.push({ context: context === "nc" ? [] : p.context, contextB: context === "nc" ? [] : context === "rc" ? (p.negative_context ?? p.context) : p.context, a: p.positive + v, b: p.negative + v });
  const values = await compareMany(scorer, items, agg, mode);
  const sign = (v: number | null): number => (v === null || Math.abs(v) <= TIE_EPS ? 0 : Math.sign(v));
  let same = 0;
  for (let k = 1; k < variants.length; k++) chosen.forEach((_, i) => (same += sign(values[k * n + i]!) === sign(values[i]!) ? 1 : 0));
  return { file, pairs: n, clauses: PROBE_CLAUSES.length, unchanged: n ? same / (n * PROBE_CLAUSES.length) : NaN };
}

// ---------- all together ----------

export interface MetaEvalInputs {
  pairs: Array<{ file: string; pairs: PairRecord[] }>;
  mqm?: MqmData;
  judgements?: { file: string; items: Judgement[] };
  /** Pair file and pairs for the appended-clause probe (default: the first pair file). */
  probe?: { file: string; pairs: PairRecord[] };
  probeLimit?: number;
  seed?: number;
}

export interface ScorerMetaEval {
  name: string;
  kind: string;
  signature: string;
  pairs: PairAccuracy[];
  judged?: JudgedReport;
  mqm?: MqmReport;
  probe?: ProbeReport;
}

export async function metaEvaluate(
  name: string,
  scorer: PronounScorer,
  signature: string,
  inputs: MetaEvalInputs,
  opts: { aggregate: Aggregate; mode?: CompareMode; context?: ContextMode; onStage?: (stage: string) => void },
): Promise<ScorerMetaEval> {
  const context = opts.context ?? scorer.contextMode;
  const mode = opts.mode ?? "sentence";
  const out: ScorerMetaEval = { name, kind: scorer.kind, signature, pairs: [] };
  for (const p of inputs.pairs) {
    opts.onStage?.(`${name}: pairs ${p.file}`);
    const values = await compareMany(scorer, pairItems(p.pairs, context), opts.aggregate, mode);
    out.pairs.push(pairAccuracy(p.file, p.pairs, marginsOf(values)));
  }
  if (inputs.judgements) {
    opts.onStage?.(`${name}: judgements`);
    out.judged = await judged(scorer, inputs.judgements.file, inputs.judgements.items, opts.aggregate, context, mode);
  }
  if (inputs.mqm) {
    opts.onStage?.(`${name}: MQM`);
    out.mqm = await mqmReport(scorer, inputs.mqm, opts.aggregate, context, mode);
  }
  const probe = inputs.probe ?? inputs.pairs[0];
  if (probe) {
    opts.onStage?.(`${name}: probe`);
    out.probe = await appendProbe(scorer, probe.file, probe.pairs, opts.aggregate, context, inputs.probeLimit ?? 1000, inputs.seed ?? 1, mode);
  }
  return out;
}

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
