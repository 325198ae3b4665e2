// Scoring systems of a test set against a reference, and comparing two systems, for any PronounScorer.
import { InputError } from "../io/errors.js";
import type { TestSet } from "../io/model.js";
import type { ContextMode } from "../core/pair-format.js";
import { meanInterval, pairedBootstrap, summedStats } from "../stats/bootstrap.js";
import type { Side } from "../core/scorer.js";
import { makeSignature, type SignatureField } from "../signature.js";
import { compareSides, DEFAULT_MODE, refAlignerOf, type Aggregate, type CompareMode, type PronounDecision } from "./decide.js";
import { hybridCompare, referenceAlignedCompare, type AlignedItem } from "./ref-aligned.js";
import { pronouns } from "../text/pronouns.js";
import { tokenWords } from "../text/tokenize.js";
import { TIE_EPS, notBelowReference, systemVerdicts, type PronounScorer, type ScoredSide } from "../core/scorer.js";

export interface SegmentResult {
  doc: string;
  seg: string;
  /** 0-based position in the test set. */
  index: number;
  /** "scored": the reference or the system has a pronoun. */
  status: "scored" | "no-pronoun";
  /** Side scores (sum of contributions), null without pronouns. */
  ref: number | null;
  sys: number | null;
  /** System minus reference under the aggregate; null when nothing was compared (no pronoun, or no pronoun decision). */
  diff: number | null;
  refPronouns: string[];
  sysPronouns: string[];
  /** Per-pronoun contributions, parallel to refPronouns / sysPronouns (they sum to ref / sys). */
  refPronounScores: number[];
  sysPronounScores: number[];
  /** Pronoun decisions (aggregate "pronoun"): which pronoun the system chose where the reference has another, and what it cost. */
  decisions?: PronounDecision[];
  /** Hybrid mode: the system side is the reference with the system's pronouns substituted (else the system sentence). */
  substituted?: boolean;
  /** With `withAttention`: the scored sides (attention rounded to 4 decimals); the reference side only in the first system's segments. */
  refSide?: ScoredSide;
  sysSide?: ScoredSide;
}

export interface SystemSummary {
  segments: number;
  /** Segments where the reference or the system has at least one pronoun. */
  pronounSegments: number;
  noPronounSegments: number;
  /** Pronoun segments where something was compared (all of them, except under "pronoun": those with a pronoun decision). */
  decidedSegments: number;
  /** Share of pronoun segments where the system is not ranked below the reference (diff >= -TIE_EPS, or nothing to compare). */
  notBelow: number;
  /** Mean of diff over the decided segments. */
  meanDiff: number;
  /** System-level score: 100 * notBelow. */
  score: number;
}

export interface SystemResult {
  system: string;
  summary: SystemSummary;
  segments: SegmentResult[];
}

export interface ScoreSetOptions {
  context?: ContextMode;
  reference?: string;
  aggregate?: Aggregate;
  /** "hybrid" (default): the reference with the system's pronouns substituted, else the system sentence, compared as in sentence mode; "sentence": the scorer reads the system output; "aligned"/"aligned-lcs": reference-aligned pronoun substitutions. */
  mode?: CompareMode;
  batchSize?: number;
  onProgress?: (done: number, total: number) => void;
  /** Keep every side's tokens and attention weights in the segment results (for `proneval report`). */
  withAttention?: boolean;
}

export const DEFAULT_AGGREGATE: Aggregate = "mean";

/** The full signature: model part from the scorer, the rest from how it was used. */
export function signature(
  scorer: PronounScorer,
  opts: { context?: ContextMode; reference?: string; aggregate?: Aggregate; mode?: CompareMode; backend?: string; extra?: SignatureField[] } = {},
): string {
  return makeSignature("proneval-pronoun", [
    scorer.modelSignature(),
    ["ctx", opts.context ?? scorer.contextMode],
    ["agg", aggField(opts.mode ?? DEFAULT_MODE, opts.aggregate ?? DEFAULT_AGGREGATE)],
    ["keys", scorer.maxKeys],
    ["ref", opts.reference],
    ["tie", TIE_EPS],
    // The tfjs backend can move scores in the last digits (float order of operations): it is named.
    ["backend", opts.backend],
    ...(opts.extra ?? []),
  ]);
}

/** The signature's agg field: the aggregate in sentence mode, the mode in the aligned modes, both in hybrid mode. */
function aggField(mode: CompareMode, agg: Aggregate): string {
  return mode === "hybrid" ? `hybrid+${agg}` : mode === "sentence" ? agg : mode;
}

/** What the system score means, for JSON outputs and docs. */
export function scoreDefinition(agg: Aggregate, mode: CompareMode = DEFAULT_MODE): string {
  const aligned =
    "the reference with each system pronoun substituted that the alignment pairs with a different reference pronoun is compared with the reference at that pronoun (contribution difference); the segment's diff is their mean";
  const seg =
    mode === "aligned" || mode === "aligned-lcs"
      ? `per segment (--mode ${mode}), ${aligned}, null when there is no such pronoun`
      : mode === "hybrid"
        ? `per segment (--mode hybrid), the system side is the reference with every system pronoun substituted that the longest common subsequence pairs with a different reference pronoun, or, where there is none, the system sentence itself; it is compared with the reference under --aggregate ${agg}`
        : agg === "pronoun"
      ? "per segment, the pronouns the system chose where the reference has a different pronoun (aligned by longest common subsequence of tokens) are each compared with the reference's (contribution difference); the segment's diff is their mean, null when there is no such pronoun"
      : agg === "mean"
        ? "per segment, diff = mean contribution per system pronoun - mean per reference pronoun"
        : "per segment, diff = sum of the system's pronoun contributions - the reference's (the paper's y)";
  return `score = 100 * share of pronoun segments (reference or system has a pronoun) where the system is not below the reference (diff >= -${TIE_EPS}, or nothing to compare); ${seg}; meanDiff = mean diff over segments with a diff`;
}

/** Attention rounded to 4 decimals: heat maps need no more, and it keeps JSON outputs small. */
function roundedSide(s: ScoredSide): ScoredSide {
  return { ...s, pronouns: s.pronouns.map((p) => (p.attention ? { ...p, attention: p.attention.map((a) => Math.round(a * 1e4) / 1e4) } : p)) };
}

/** A segment result with its scored sides kept for heat maps (`withAttention`): the reference side once, in the first system's segments. */
function withSides(seg: SegmentResult, r: ScoredSide, s: ScoredSide, keepRef: boolean | undefined, keepSys: boolean | undefined): SegmentResult {
  if (keepRef) seg.refSide = roundedSide(r);
  if (keepSys) seg.sysSide = roundedSide(s);
  return seg;
}

export function summarize(segs: SegmentResult[]): SystemSummary {
  const scored = segs.filter((s) => s.status === "scored");
  const n = scored.length;
  const decided = scored.filter((s) => s.diff !== null);
  const notBelow = n ? scored.filter(notBelowReference).length / n : 0;
  const meanDiff = decided.length ? decided.reduce((a, s) => a + s.diff!, 0) / decided.length : 0;
  return { segments: segs.length, pronounSegments: n, noPronounSegments: segs.length - n, decidedSegments: decided.length, notBelow, meanDiff, score: 100 * notBelow };
}

/** Builds a segment result from the two scored sides. */
export function segmentResult(meta: { doc: string; seg: string; index: number }, r: ScoredSide, s: ScoredSide, agg: Aggregate): SegmentResult {
  const has = r.pronouns.length > 0 || s.pronouns.length > 0;
  const cmp = has ? compareSides(r, s, agg) : { value: null, decisions: [] };
  return {
    ...meta,
    status: has ? "scored" : "no-pronoun",
    ref: has ? r.score : null,
    sys: has ? s.score : null,
    diff: cmp.value,
    refPronouns: r.pronouns.map((p) => p.token),
    sysPronouns: s.pronouns.map((p) => p.token),
    refPronounScores: r.pronouns.map((p) => p.contribution),
    sysPronounScores: s.pronouns.map((p) => p.contribution),
    ...(agg === "pronoun" && has ? { decisions: cmp.decisions } : {}),
  };
}

/**
 * Scores systems of a test set against its (primary) reference, segment by segment, with the
 * context mode of the scorer unless overridden: CRC gives both sides the reference's previous
 * segments of the same document, RC each side its own, NC none.
 */
export async function scoreTestSet(scorer: PronounScorer, ts: TestSet, systems: string[], opts: ScoreSetOptions = {}): Promise<SystemResult[]> {
  const ctxMode = opts.context ?? scorer.contextMode;
  const agg = opts.aggregate ?? DEFAULT_AGGREGATE;
  const refName = opts.reference ?? ts.references[0];
  if (!refName || !ts.references.includes(refName)) throw new InputError(`test set has no reference '${refName ?? ""}' (has: ${ts.references.join(", ") || "none"})`);
  for (const s of systems) if (!ts.systems.includes(s)) throw new InputError(`test set has no system '${s}' (has: ${ts.systems.join(", ")})`);
  const n = 8; // previous sentences offered; the scorer's prepare() keeps as many as its model was trained with
  const sides: Side[] = [];
  const meta: Array<{ doc: string; seg: string }> = [];
  for (const d of ts.docs) {
    const ref = d.refs[refName]!;
    ref.forEach((r, i) => {
      sides.push({ context: ctxMode === "nc" ? [] : ref.slice(Math.max(0, i - n), i), sentence: r });
      meta.push({ doc: d.id, seg: d.segIds[i]! });
    });
  }
  const total = sides.length;
  if ((opts.mode ?? DEFAULT_MODE) !== "sentence") return alignedTestSet(scorer, ts, systems, refName, sides, meta, opts);
  for (const sys of systems) {
    for (const d of ts.docs) {
      const ref = d.refs[refName]!;
      const hyp = d.hyps[sys]!;
      hyp.forEach((h, i) => {
        const ctx = ctxMode === "nc" ? [] : ctxMode === "rc" ? hyp.slice(Math.max(0, i - n), i) : ref.slice(Math.max(0, i - n), i);
        sides.push({ context: ctx, sentence: h });
      });
    }
  }
  const scored = await scorer.scorePrepared(
    sides.map((s) => scorer.prepare(s)),
    { batchSize: opts.batchSize, withAttention: opts.withAttention, onBatch: opts.onProgress ? (k) => opts.onProgress!(k, sides.length) : undefined },
  );
  return systems.map((sys, si) => {
    const segs: SegmentResult[] = [];
    for (let i = 0; i < total; i++) {
      const r = scored[i]!;
      const s = scored[total * (si + 1) + i]!;
      segs.push(withSides(segmentResult({ ...meta[i]!, index: i }, r, s, agg), r, s, opts.withAttention && si === 0, opts.withAttention));
    }
    return { system: sys, summary: summarize(segs), segments: segs };
  });
}

/** scoreTestSet in reference-aligned or hybrid mode (src/metric/ref-aligned.ts). */
async function alignedTestSet(
  scorer: PronounScorer,
  ts: TestSet,
  systems: string[],
  refName: string,
  refSides: Side[],
  meta: Array<{ doc: string; seg: string }>,
  opts: ScoreSetOptions,
): Promise<SystemResult[]> {
  const items: AlignedItem[] = [];
  const rc = (opts.context ?? scorer.contextMode) === "rc";
  for (const sys of systems)
    for (const d of ts.docs)
      d.hyps[sys]!.forEach((h, i, hyp) => {
        const context = refSides[items.length % refSides.length]!.context;
        // Hybrid mode reads an output without substitutions as a sentence: in RC, after its own previous segments.
        items.push({ context, systemContext: rc ? hyp.slice(Math.max(0, i - context.length), i) : context, reference: d.refs[refName]![i]!, system: h });
      });
  const mode = opts.mode ?? DEFAULT_MODE;
  const agg = opts.aggregate ?? DEFAULT_AGGREGATE;
  // Progress in scored sides: hybrid scores two per item; the aligned modes one plus one per substitution (not known yet).
  const run = (sides: number) => ({ batchSize: opts.batchSize, onBatch: opts.onProgress ? (k: number) => opts.onProgress!(k, sides) : undefined });
  const total = refSides.length;
  if (mode === "hybrid") {
    const res = await hybridCompare(scorer, items, agg, { ...run(2 * items.length), withAttention: opts.withAttention });
    return systems.map((sys, si) => {
      const segs = res
        .slice(si * total, (si + 1) * total)
        .map((r, i) => withSides({ ...segmentResult({ ...meta[i]!, index: i }, r.refSide, r.otherSide, agg), substituted: r.substituted }, r.refSide, r.otherSide, opts.withAttention && si === 0, opts.withAttention));
      return { system: sys, summary: summarize(segs), segments: segs };
    });
  }
  const res = await referenceAlignedCompare(scorer, items, { ...run(items.length), aligner: refAlignerOf(mode) ?? "fast_align" });
  const inv = pronouns();
  const prons = (s: string): string[] => tokenWords(s).filter((w) => inv.has(w.toLowerCase()));
  return systems.map((sys, si) => {
    const segs: SegmentResult[] = [];
    for (let i = 0; i < total; i++) {
      const r = res[si * total + i]!;
      const it = items[si * total + i]!;
      const sysPronouns = prons(it.system);
      const has = r.refSide.pronouns.length > 0 || sysPronouns.length > 0;
      const moved = r.decisions.reduce((s, d) => s + d.diff, 0);
      segs.push({
        ...meta[i]!,
        index: i,
        status: has ? "scored" : "no-pronoun",
        ref: has ? r.refSide.score : null,
        // The reference with the system's pronoun choices substituted, as far as the alignment found them.
        sys: has ? r.refSide.score + moved : null,
        diff: has ? r.value : null,
        refPronouns: r.refSide.pronouns.map((p) => p.token),
        sysPronouns,
        refPronounScores: r.refSide.pronouns.map((p) => p.contribution),
        sysPronounScores: [],
        ...(has ? { decisions: r.decisions } : {}),
      });
    }
    return { system: sys, summary: summarize(segs), segments: segs };
  });
}

/** A system score's bootstrap interval (`score --confidence`, sacrebleu style). */
export interface ScoreConfidence {
  samples: number;
  seed: number;
  /** Mean of the score over the draws (sacrebleu's μ). */
  mean: number;
  /** 95% percentile interval of the score. */
  ci95: [number, number];
}

/**
 * Bootstrap interval of one system's score over its own pronoun segments (each draws them with the same
 * seed, so a system's interval does not depend on the others); null without pronoun segments.
 */
export function scoreConfidence(r: SystemResult, opts: { samples: number; seed: number }): ScoreConfidence | null {
  if (opts.samples < 1) return null;
  const m = meanInterval(systemVerdicts(r.segments), opts, 100);
  return m && { samples: opts.samples, seed: opts.seed, mean: m.mean, ci95: m.ci };
}

/** One system against the baseline on their common pronoun segments (`compare`). */
export interface PairComparison {
  baseline: string;
  system: string;
  /** Segments where the reference, the system or the baseline has a pronoun: the units of the test. */
  pronounSegments: number;
  /** Not-below-reference share (%) of the system and of the baseline on those segments. */
  score: number;
  baselineScore: number;
  /** score - baselineScore. */
  delta: number;
  /** Mean of (system diff - baseline diff) over the common segments where both have a diff. */
  meanDiff: number;
  /** Segments where only the system is not below the reference, only the baseline is, or neither or both. */
  wins: { system: number; baseline: number; ties: number };
  /** Paired bootstrap of delta over the segments (src/stats/bootstrap.ts); null without resamples or segments. */
  bootstrap: { samples: number; seed: number; ci95: [number, number]; p: number } | null;
  segments: Array<{ doc: string; seg: string; index: number; system: number | null; baseline: number | null; ref: number; better: "system" | "baseline" | "tie" }>;
}

/**
 * A system against the baseline. On the segments where the reference, the system or the baseline has a
 * pronoun, each side is "ok" when not below the reference (the score's definition, notBelowReference); a
 * segment is won by the side that is ok where the other is not. The paired bootstrap (Koehn 2004)
 * resamples those segments: the 95% interval of the difference of the two scores, and its two-sided p.
 * The result does not depend on any other system compared beside it.
 */
export function compareToBaseline(baseline: SystemResult, system: SystemResult, opts: { samples: number; seed: number }): PairComparison {
  const segs: PairComparison["segments"] = [];
  const ok = (x: SegmentResult): number => (x.status === "no-pronoun" || notBelowReference(x) ? 1 : 0);
  const okSys: number[] = [];
  const okBase: number[] = [];
  for (let i = 0; i < system.segments.length; i++) {
    const x = system.segments[i]!;
    const y = baseline.segments[i]!;
    if (x.status === "no-pronoun" && y.status === "no-pronoun") continue;
    const os = ok(x);
    const ob = ok(y);
    okSys.push(os);
    okBase.push(ob);
    segs.push({ doc: x.doc, seg: x.seg, index: i, system: x.diff, baseline: y.diff, ref: (x.ref ?? y.ref)!, better: os > ob ? "system" : ob > os ? "baseline" : "tie" });
  }
  const n = segs.length;
  const pct = (sums: Float64Array): number => (n ? (100 * sums[0]!) / n : 0);
  const score = pct(Float64Array.of(okSys.reduce((a, b) => a + b, 0)));
  const baselineScore = pct(Float64Array.of(okBase.reduce((a, b) => a + b, 0)));
  let bootstrap: PairComparison["bootstrap"] = null;
  if (opts.samples > 0 && n > 0) {
    const b = pairedBootstrap(
      [
        { name: baseline.system, r: summedStats(Float64Array.from(okBase), 1, pct) },
        { name: system.system, r: summedStats(Float64Array.from(okSys), 1, pct) },
      ],
      opts,
    );
    bootstrap = { samples: opts.samples, seed: opts.seed, ci95: b.comparisons[0]!.ci, p: b.comparisons[0]!.p };
  }
  const both = segs.filter((s) => s.system !== null && s.baseline !== null);
  return {
    baseline: baseline.system,
    system: system.system,
    pronounSegments: n,
    score,
    baselineScore,
    delta: score - baselineScore,
    meanDiff: both.length ? both.reduce((acc, s) => acc + s.system! - s.baseline!, 0) / both.length : 0,
    wins: { system: segs.filter((s) => s.better === "system").length, baseline: segs.filter((s) => s.better === "baseline").length, ties: segs.filter((s) => s.better === "tie").length },
    bootstrap,
    segments: segs,
  };
}

export interface ScoringInput {
  testSet: TestSet;
  systems: string[];
}

/**
 * Reads `-r REF -t HYP...`: for WMT XML the reference file holds the systems too and HYP are
 * system names (none = all); for text and SGML, HYP are files (text: previous lines of the same
 * document are the context; one pseudo-document per file unless a --docs file gives ids).
 */
export async function readScoringInput(ref: string, hyps: string[], opts: { format?: "wmt-xml" | "sgml" | "text"; docs?: string; reference?: string } = {}): Promise<ScoringInput> {
  const { readTestSetAuto, detectFormat } = await import("../io/readers.js");
  const format = opts.format ?? (await detectFormat(ref));
  if (format === "wmt-xml") {
    const ts = await readTestSetAuto(ref, { format, allowEmpty: true });
    const systems = hyps.length ? hyps : ts.systems;
    if (systems.length === 0) throw new InputError("the XML file has no system translations to score", ref);
    for (const s of systems) if (!ts.systems.includes(s)) throw new InputError(`no system '${s}' in the XML file (has: ${ts.systems.join(", ")})`, ref);
    return { testSet: ts, systems };
  }
  if (hyps.length === 0) throw new InputError("give at least one system output with -t");
  const ts = await readTestSetAuto([ref, ...hyps], { format, allowEmpty: true, ...(opts.docs ? { docs: opts.docs } : {}) });
  // The command line's order (compare: the first is the baseline); SGML names its systems itself.
  const { namesFromPaths } = await import("../io/plaintext.js");
  const given = namesFromPaths([ref, ...hyps]).slice(1);
  return { testSet: ts, systems: given.length === ts.systems.length && given.every((n) => ts.systems.includes(n)) ? given : ts.systems };
}
