// The measures of meta-evaluation, each computed for one scorer on one input: pair accuracy by pronoun
// pair, hand-judged pairs (accuracy, Gwet's AC1), MQM pronoun errors (same-source pairs, segment AUC,
// system-level correlation; for APT too), the appended-clause probe; and each measure as a statistic
// of a draw of its units, for the paired bootstrap.
import { InputError } from "../io/errors.js";
import type { ContextMode, PairRecord } from "../core/pair-format.js";
import { mulberry32 } from "../core/prng.js";
import { TIE_EPS, type PronounScorer } from "../core/scorer.js";
import { pronouns } from "../text/pronouns.js";
import { tokenWords } from "../text/tokenize.js";
import { APT_DEFAULT_WEIGHTS, computeApt, countApt, type AptInstance } from "../apt/index.js";
import { makeSignature } from "../signature.js";
import type { Aggregate, CompareMode } from "./decide.js";
import type { MqmData, MqmSegment } from "./mqm.js";
import { balancedAccuracy, compareMany, isCorrect, type AccuracyCell, type CompareItem, type PairAccuracy } from "./pairs.js";
import { meanOfUnits, pairedBootstrap, ratioOfUnits, type MeasureSignificance, type Resampled } from "./significance.js";
import type { Judgement } from "./meta-eval-inputs.js";

/** Each measure of one scorer as a statistic of a draw of its units (for the bootstrap), by measure name. */
export type MeasureSamples = Map<string, Resampled>;

export interface ScorerMetaEval {
  name: string;
  kind: string;
  signature: string;
  pairs: PairAccuracy[];
  judged?: JudgedReport;
  mqm?: MqmReport;
  probe?: ProbeReport;
  /** Per pair file (parallel to `pairs`): R vs R' by pronoun pair in both directions, and the identity ceiling. */
  pronounPairs?: PronounPairReport[];
  /** The measures for `significance`; not part of the JSON report. */
  samples?: MeasureSamples;
}

/** Per-unit statistics of a pair file's accuracies (R vs S, R vs R', balanced) for the bootstrap. */
export function pairSamples(samples: MeasureSamples, file: string, pairs: PairRecord[], margins: number[]): void {
  const correct = margins.map((m) => (isCorrect(m) ? 1 : 0));
  const of = (kind: string) => pairs.flatMap((p, i) => (p.kind === kind ? [i] : []));
  samples.set(`${file}: R vs S`, meanOfUnits(of("system").map((i) => correct[i]!)));
  const noisy = of("noisy").map((i) => ({ ref: pairs[i]!.ref_pronoun, sys: pairs[i]!.sys_pronoun, correct: correct[i] === 1 }));
  samples.set(`${file}: R vs R'`, meanOfUnits(noisy.map((x) => (x.correct ? 1 : 0))));
  samples.set(`${file}: balanced R vs R'`, { units: noisy.length, stat: (d) => balancedAccuracy(Array.from(d, (i) => noisy[i]!))?.accuracy ?? NaN });
}

// ---------- pronoun pairs in both directions ----------

/** A pronoun pair is listed by pronoun pair when it has at least this many R vs R' pairs in each direction. */
export const MIN_PER_DIRECTION = 20;

export interface PronounPairDirections {
  /** The two pronouns, x before y alphabetically; direction x>y: the reference has x, the substitute y. */
  x: string;
  y: string;
  xy: AccuracyCell;
  yx: AccuracyCell;
  /** Mean of the two directions' accuracies (a fixed preference scores 0.5). */
  balanced: number;
  /** Accuracy over both directions together. */
  both: number;
  /** Accuracy over both directions of the best fixed preference for this pair, fitted on the file itself. */
  identityCeiling: number;
}

export interface PronounPairReport {
  file: string;
  minPerDirection: number;
  /** The pronoun pairs with at least minPerDirection R vs R' pairs each way, most frequent first. */
  rows: PronounPairDirections[];
  /** The row whose weaker direction is the least accurate (then the lowest balanced accuracy); null without rows. */
  worst: PronounPairDirections | null;
  /**
   * What pronoun identity alone can reach on this file: per pronoun pair (the reference's and the
   * substitute's pronouns, unordered) a fixed preference for the one that is the reference more often,
   * fitted on the file itself, so it is an upper bound for any identity-only scorer. R vs S and R vs R'.
   */
  identityCeiling: { system: AccuracyCell; noisy: AccuracyCell };
}

/** Accuracy of the best fixed preference per unordered (reference pronoun, other pronoun) pair, fitted on `items`. */
export function identityCeiling(items: Array<{ ref: string; sys: string }>): AccuracyCell {
  const count = new Map<string, number>();
  for (const it of items) {
    const k = `${it.ref.toLowerCase()}>${it.sys.toLowerCase()}`;
    count.set(k, (count.get(k) ?? 0) + 1);
  }
  let correct = 0;
  for (const [k, n] of count) {
    const [r, o] = k.split(">") as [string, string];
    // Identical pronouns on both sides: identity cannot tell them apart (a tie, wrong).
    if (r === o) continue;
    const back = count.get(`${o}>${r}`) ?? 0;
    // Each unordered pair once, from its more frequent direction (ties: the alphabetically first).
    if (n > back || (n === back && r < o)) correct += n;
  }
  return { n: items.length, correct, accuracy: items.length ? correct / items.length : 0 };
}

/** The per-pronoun-pair report of one pair file from its accuracy report (balanced R vs R' by pronoun pair). */
export function pronounPairReport(file: string, pairs: PairRecord[], acc: PairAccuracy, minPerDirection = MIN_PER_DIRECTION): PronounPairReport {
  const rows: PronounPairDirections[] = (acc.balanced?.byPronounPair ?? [])
    .filter((r) => Math.min(r.xy.n, r.yx.n) >= minPerDirection)
    .map((r) => ({
      x: r.x,
      y: r.y,
      xy: r.xy,
      yx: r.yx,
      balanced: r.balanced,
      both: (r.xy.correct + r.yx.correct) / (r.xy.n + r.yx.n),
      identityCeiling: Math.max(r.xy.n, r.yx.n) / (r.xy.n + r.yx.n),
    }));
  const weaker = (r: PronounPairDirections): number => Math.min(r.xy.accuracy, r.yx.accuracy);
  const worst = rows.reduce<PronounPairDirections | null>((w, r) => (!w || weaker(r) < weaker(w) || (weaker(r) === weaker(w) && r.balanced < w.balanced) ? r : w), null);
  const of = (kind: PairRecord["kind"]) => pairs.filter((p) => p.kind === kind).map((p) => ({ ref: p.ref_pronoun, sys: p.sys_pronoun }));
  return { file, minPerDirection, rows, worst, identityCeiling: { system: identityCeiling(of("system")), noisy: identityCeiling(of("noisy")) } };
}

// ---------- hand-judged pairs ----------

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

export async function judgedReport(scorer: PronounScorer, file: string, items: Judgement[], agg: Aggregate, context: ContextMode, mode: CompareMode, samples: MeasureSamples): Promise<JudgedReport> {
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
  samples.set("judged: accuracy", meanOfUnits(decided.map((x) => (x.p === x.j.label ? 1 : 0))));
  const labels = valid.map((j) => j.label as string);
  samples.set("judged: AC1", { units: valid.length, stat: (d) => gwetAc1(Array.from(d, (i) => labels[i]!), Array.from(d, (i) => pref[i]!)) });
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

/**
 * A system score as a ratio of sums over segments, 100 * sum(num) / sum(den) (0 without any den), so that
 * it can be recomputed on a bootstrap draw of segments. Scorers (as SystemSummary.score): num = the segment
 * has pronouns and is not below the reference, den = it has pronouns. APT: weighted and all anchored instances.
 */
export interface SystemScorePart {
  num: number;
  den: number;
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

export async function mqmReport(scorer: PronounScorer, data: MqmData, agg: Aggregate, context: ContextMode, mode: CompareMode, samples: MeasureSamples): Promise<MqmReport> {
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
  const parts = new Map<string, SystemScorePart>();
  keys.forEach((k, i) => {
    const key = `${k.system}\t${k.doc}\t${k.segId}`;
    const d = diffs[i] ?? null;
    value.set(key, d ?? 0);
    const scored = k.refHas || k.sysHas;
    parts.set(key, { num: scored && (d === null || d >= -TIE_EPS) ? 1 : 0, den: scored ? 1 : 0 });
  });
  return mqmMeasures(
    data,
    value,
    parts,
    "MT systems and refB are scored against ref, ref against refB; context: the reference's previous annotated segments of the talk",
    samples,
  );
}

/**
 * The MQM measures from a value per rated output and segment (higher = better; key "system\tdoc\tsegId")
 * and a system-score part per output and segment, whatever metric made them. Every measure is computed
 * over the source segments (a unit: one segment of a talk with all its rated outputs), so that `samples`
 * gets each as a statistic of a draw of units for the bootstrap.
 */
export function mqmMeasures(data: MqmData, value: Map<string, number>, parts: Map<string, SystemScorePart>, references: string, samples?: MeasureSamples): MqmReport {
  const get = segmentLookup(data);
  const mt = data.systems.filter((s) => s !== "ref" && s !== "refB");
  // Per unit: same-source tallies, the AUC's values, and per MT system its errors, segments and score parts.
  const units: Array<{ pairs: number; wins: number; ties: number; eqPairs: number; eqWins: number; eqTies: number; good: number[]; bad: number[]; err: Int32Array; segs: Int32Array; num: Float64Array; den: Float64Array }> = [];
  for (const { doc, segIds } of data.docs) {
    for (const id of segIds) {
      const u = { pairs: 0, wins: 0, ties: 0, eqPairs: 0, eqWins: 0, eqTies: 0, good: [] as number[], bad: [] as number[], err: new Int32Array(mt.length), segs: new Int32Array(mt.length), num: new Float64Array(mt.length), den: new Float64Array(mt.length) };
      units.push(u);
      const outs = data.systems.map((s) => get(s, doc, id)).filter((s): s is NonNullable<typeof s> => s !== undefined && value.has(`${s.system}\t${doc}\t${id}`));
      // (a) same source: a system with a marked pronoun error vs one without.
      for (const a of outs.filter((s) => s.pronounError)) {
        for (const b of outs.filter((s) => !s.pronounError)) {
          const va = value.get(`${a.system}\t${doc}\t${id}`)!;
          const vb = value.get(`${b.system}\t${doc}\t${id}`)!;
          const win = vb > va + TIE_EPS ? 1 : 0;
          const tie = Math.abs(vb - va) <= TIE_EPS ? 1 : 0;
          u.pairs++;
          u.wins += win;
          u.ties += tie;
          if (pronounCount(a.target) === pronounCount(b.target)) {
            u.eqPairs++;
            u.eqWins += win;
            u.eqTies += tie;
          }
        }
      }
      // (b) AUC values; (c) per-system counts.
      for (const s of outs) {
        const v = value.get(`${s.system}\t${doc}\t${id}`)!;
        if (s.pronounError) u.bad.push(v);
        else if (s.errorFree) u.good.push(v);
      }
      mt.forEach((system, k) => {
        const seg = get(system, doc, id);
        if (!seg) return;
        u.segs[k] = 1;
        u.err[k] = seg.pronounError ? 1 : 0;
        const p = parts.get(`${system}\t${doc}\t${id}`);
        if (p) {
          u.num[k] = p.num;
          u.den[k] = p.den;
        }
      });
    }
  }
  const systemRows = (draw: ArrayLike<number>) => {
    const err = new Float64Array(mt.length);
    const segs = new Float64Array(mt.length);
    const num = new Float64Array(mt.length);
    const den = new Float64Array(mt.length);
    for (let i = 0; i < draw.length; i++) {
      const u = units[draw[i]!]!;
      for (let k = 0; k < mt.length; k++) {
        err[k] += u.err[k]!;
        segs[k] += u.segs[k]!;
        num[k] += u.num[k]!;
        den[k] += u.den[k]!;
      }
    }
    return mt.map((system, k) => ({ system, score: den[k] ? (100 * num[k]!) / den[k]! : 0, pronounErrorRate: err[k]! / Math.max(1, segs[k]!) }));
  };
  const aucOf = (draw: ArrayLike<number>): number => {
    const good: number[] = [];
    const bad: number[] = [];
    for (let i = 0; i < draw.length; i++) {
      const u = units[draw[i]!]!;
      for (const v of u.good) good.push(v);
      for (const v of u.bad) bad.push(v);
    }
    return auc(good, bad);
  };
  const corr = (f: (x: number[], y: number[]) => number) => (draw: ArrayLike<number>): number => {
    const rows = systemRows(draw);
    return f(
      rows.map((r) => r.score),
      rows.map((r) => -r.pronounErrorRate),
    );
  };
  if (samples) {
    samples.set("MQM: same source", ratioOfUnits(units.map((u) => u.wins), units.map((u) => u.pairs)));
    samples.set("MQM: equal counts", ratioOfUnits(units.map((u) => u.eqWins), units.map((u) => u.eqPairs)));
    samples.set("MQM: AUC", { units: units.length, stat: aucOf });
    samples.set("MQM: system tau", { units: units.length, stat: corr(kendallTau) });
    samples.set("MQM: system Pearson", { units: units.length, stat: corr(pearson) });
  }
  const all = units.map((_, i) => i);
  const sum = (f: (u: (typeof units)[number]) => number): number => units.reduce((t, u) => t + f(u), 0);
  const tally = (pairs: number, wins: number, ties: number) => ({ pairs, preferWithout: wins, ties, share: pairs ? wins / pairs : NaN });
  const rows = systemRows(all);
  const neg = rows.map((r) => -r.pronounErrorRate);
  return {
    file: data.file,
    sameSource: tally(sum((u) => u.pairs), sum((u) => u.wins), sum((u) => u.ties)),
    sameSourceEqualCount: tally(sum((u) => u.eqPairs), sum((u) => u.eqWins), sum((u) => u.eqTies)),
    auc: { pronounError: sum((u) => u.bad.length), errorFree: sum((u) => u.good.length), auc: aucOf(all) },
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

/**
 * APT (src/apt) as a row of the MQM measures: every rated output against its reference (as for the
 * scorers), source words from the MQM file, fast_align trained per reference on the (source, reference)
 * and (source, output) pairs of all outputs scored against it. A segment's value is its APT (1 when it
 * has no anchored reference pronoun: nothing to get wrong); a system's score is its APT x 100.
 * APT is reference-based, so the pair, judged and probe measures (whose reference side is the
 * reference itself) do not apply to it.
 */
export async function aptMqmReport(data: MqmData, srcLang: string, opts: { weights?: readonly number[]; threads?: number; samples?: MeasureSamples } = {}): Promise<MqmReport> {
  const get = segmentLookup(data);
  const value = new Map<string, number>();
  const parts = new Map<string, SystemScorePart>();
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
        const key = `${r.name}\t${segs[i]!.doc}\t${segs[i]!.id}`;
        value.set(key, anchored ? c.score : 1);
        // The system's APT is a ratio of sums over its instances: weighted cases over all anchored cases.
        parts.set(key, { num: c.cases.reduce((a, n, k) => a + (report.weights[k] ?? 0) * n, 0), den: anchored });
      }
    }
  }
  return mqmMeasures(
    data,
    value,
    parts,
    `APT against the same references as the scorers (MT systems and refB against ref, ref against refB); source-${srcLang} aligned with fast_align trained per reference on its outputs`,
    opts.samples,
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

export async function appendProbe(scorer: PronounScorer, file: string, pairs: PairRecord[], agg: Aggregate, context: ContextMode, limit: number, seed: number, mode: CompareMode, samples: MeasureSamples): Promise<ProbeReport> {
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
  const perPair = chosen.map((_, i) => {
    let same = 0;
    for (let k = 1; k < variants.length; k++) same += sign(values[k * n + i]!) === sign(values[i]!) ? 1 : 0;
    return same / PROBE_CLAUSES.length;
  });
  const same = perPair.reduce((a, b) => a + b, 0) * PROBE_CLAUSES.length;
  samples.set("probe", meanOfUnits(perPair));
  return { file, pairs: n, clauses: PROBE_CLAUSES.length, unchanged: n ? same / (n * PROBE_CLAUSES.length) : NaN };
}

// ---------- significance ----------

/** The order in which measures are listed: as the scorer with the most measures has them (pairs, judged, MQM, probe, as in metaEvalTable). */
function measureOrder(reports: ScorerMetaEval[]): string[] {
  const names = new Set<string>();
  const richest = [...reports].sort((a, b) => (b.samples?.size ?? 0) - (a.samples?.size ?? 0));
  for (const r of richest) for (const k of r.samples?.keys() ?? []) names.add(k);
  return [...names];
}

/**
 * Paired bootstrap over every measure the scorers share: a 95% interval per scorer, and the difference
 * to the baseline (the first scorer that has the measure) with its p (src/metric/significance.ts).
 */
export function metaEvalSignificance(reports: ScorerMetaEval[], draws: number, seed: number, baseline?: string): MeasureSignificance[] {
  if (baseline !== undefined && !reports.some((r) => r.name === baseline)) throw new InputError(`--baseline '${baseline}' is none of the scorers (${reports.map((r) => r.name).join(", ")})`);
  const order = baseline === undefined ? reports : [...reports.filter((r) => r.name === baseline), ...reports.filter((r) => r.name !== baseline)];
  const out: MeasureSignificance[] = [];
  for (const m of measureOrder(reports)) {
    const with_ = order.filter((r) => r.samples?.has(m)).map((r) => ({ name: r.name, r: r.samples!.get(m)! }));
    if (with_.length) out.push(pairedBootstrap(m, with_, draws, seed));
  }
  return out;
}
