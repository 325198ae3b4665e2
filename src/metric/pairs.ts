// Pair accuracy of any scorer on pair files (R vs S, R vs R'), including the balanced R vs R'
// accuracy that a pronoun-identity prior cannot game.
import type { ContextMode, PairRecord } from "../core/pair-format.js";
import { compareSides, refAlignerOf, type Aggregate, type CompareMode } from "./decide.js";
import { hybridCompare, referenceAlignedCompare } from "./ref-aligned.js";
import { TIE_EPS, type PronounScorer } from "../core/scorer.js";
import type { Cell, TableBlock } from "../io/table.js";

export interface AccuracyCell {
  n: number;
  correct: number;
  accuracy: number;
}

export interface CompareItem {
  /** Context of a (and of b unless contextB). */
  context: string[];
  contextB?: string[];
  /** a: the reference (or positive) text, b: the other. */
  a: string;
  b: string;
}

/** b - a for every item (null: nothing compared). */
export async function compareMany(scorer: PronounScorer, items: CompareItem[], agg: Aggregate, mode: CompareMode, onBatch?: (done: number, total: number) => void): Promise<Array<number | null>> {
  const aligner = refAlignerOf(mode);
  const progress = onBatch ? (d: number) => onBatch(d, 2 * items.length) : undefined;
  if (mode === "hybrid") return (await hybridCompare(scorer, items.map((it) => ({ context: it.context, systemContext: it.contextB, reference: it.a, system: it.b })), agg, { onBatch: progress })).map((r) => r.value);
  if (aligner) return (await referenceAlignedCompare(scorer, items.map((it) => ({ context: it.context, reference: it.a, system: it.b })), { aligner })).map((r) => r.value);
  const prepared = items.flatMap((it) => [scorer.prepare({ context: it.context, sentence: it.a }), scorer.prepare({ context: it.contextB ?? it.context, sentence: it.b })]);
  const s = await scorer.scorePrepared(prepared, { onBatch: progress });
  return items.map((_, i) => compareSides(s[2 * i]!, s[2 * i + 1]!, agg).value);
}

/** A pair file's pairs as comparisons: a = positive (reference), b = negative, context by mode. */
export function pairItems(pairs: PairRecord[], context: ContextMode): CompareItem[] {
  return pairs.map((x) => ({
    context: context === "nc" ? [] : x.context,
    contextB: context === "nc" ? [] : context === "rc" ? (x.negative_context ?? x.context) : x.context,
    a: x.positive,
    b: x.negative,
  }));
}

/** compareMany's b - a of pairs as margins for the positive side (> 0 correct); nothing compared is 0, a tie. */
export function marginsOf(values: Array<number | null>): number[] {
  return values.map((v) => (v === null ? 0 : -v));
}

export function isCorrect(margin: number): boolean {
  return margin > TIE_EPS;
}

function cell(n: number, correct: number): AccuracyCell {
  return { n, correct, accuracy: n ? correct / n : 0 };
}

export interface BalancedAccuracy {
  /** Weighted mean over pronoun pairs of the mean of both directions' accuracies. */
  accuracy: number;
  /** Unordered pronoun pairs seen in both directions. */
  pronounPairs: number;
  /** Pairs (items) in those directions. */
  pairs: number;
  /** Items whose pronoun pair occurs in one direction only (not covered). */
  uncovered: number;
  byPronounPair: Array<{ x: string; y: string; xy: AccuracyCell; yx: AccuracyCell; weight: number; balanced: number }>;
}

/**
 * Balanced accuracy over R vs R' pairs: for every unordered pronoun pair {x, y} that occurs in both
 * directions (reference x / substitute y, and y / x), the mean of the two directions' accuracies,
 * averaged over pronoun pairs weighted by the smaller direction count. A scorer that only knows
 * which pronoun usually wins is right in one direction and wrong in the other: exactly 50%.
 * Returns null when no pronoun pair occurs in both directions.
 */
export function balancedAccuracy(items: Array<{ ref: string; sys: string; correct: boolean }>): BalancedAccuracy | null {
  const dir = new Map<string, { n: number; c: number }>();
  for (const it of items) {
    const k = `${it.ref.toLowerCase()}>${it.sys.toLowerCase()}`;
    const d = dir.get(k) ?? { n: 0, c: 0 };
    d.n++;
    if (it.correct) d.c++;
    dir.set(k, d);
  }
  const rows: BalancedAccuracy["byPronounPair"] = [];
  let covered = 0;
  for (const [k, d] of dir) {
    const [x, y] = k.split(">") as [string, string];
    if (x >= y) continue;
    const r = dir.get(`${y}>${x}`);
    if (!r) continue;
    const xy = cell(d.n, d.c);
    const yx = cell(r.n, r.c);
    rows.push({ x, y, xy, yx, weight: Math.min(d.n, r.n), balanced: (xy.accuracy + yx.accuracy) / 2 });
    covered += d.n + r.n;
  }
  if (!rows.length) return null;
  rows.sort((a, b) => b.weight - a.weight || (a.x + a.y < b.x + b.y ? -1 : 1));
  const w = rows.reduce((s, r) => s + r.weight, 0);
  return {
    accuracy: rows.reduce((s, r) => s + r.weight * r.balanced, 0) / w,
    pronounPairs: rows.length,
    pairs: covered,
    uncovered: items.length - covered,
    byPronounPair: rows,
  };
}

export interface PairAccuracy {
  file: string;
  pairs: number;
  overall: AccuracyCell;
  system: AccuracyCell;
  noisy: AccuracyCell;
  /** Balanced R vs R' (null when no pronoun pair occurs in both directions). */
  balanced: BalancedAccuracy | null;
  byLang: Record<string, AccuracyCell>;
  byPronounPair: Record<string, AccuracyCell>;
}

/** Accuracy report from per-pair margins (> TIE_EPS correct). */
export function pairAccuracy(file: string, pairs: PairRecord[], margins: ArrayLike<number>): PairAccuracy {
  const tally = (pred: (p: PairRecord) => boolean): AccuracyCell => {
    let n = 0;
    let c = 0;
    pairs.forEach((p, i) => {
      if (!pred(p)) return;
      n++;
      if (isCorrect(margins[i]!)) c++;
    });
    return cell(n, c);
  };
  const group = (key: (p: PairRecord) => string): Record<string, AccuracyCell> => {
    const acc = new Map<string, { n: number; c: number }>();
    pairs.forEach((p, i) => {
      const k = key(p);
      const a = acc.get(k) ?? { n: 0, c: 0 };
      a.n++;
      if (isCorrect(margins[i]!)) a.c++;
      acc.set(k, a);
    });
    const out: Record<string, AccuracyCell> = {};
    for (const [k, a] of [...acc].sort((x, y) => y[1].n - x[1].n || (x[0] < y[0] ? -1 : 1))) out[k] = cell(a.n, a.c);
    return out;
  };
  const noisyItems = pairs.flatMap((p, i) => (p.kind === "noisy" ? [{ ref: p.ref_pronoun, sys: p.sys_pronoun, correct: isCorrect(margins[i]!) }] : []));
  return {
    file,
    pairs: pairs.length,
    overall: tally(() => true),
    system: tally((p) => p.kind === "system"),
    noisy: tally((p) => p.kind === "noisy"),
    balanced: balancedAccuracy(noisyItems),
    byLang: group((p) => p.lang),
    byPronounPair: group((p) => `${p.ref_pronoun}>${p.sys_pronoun}`),
  };
}

/** A PairAccuracy as tables (accuracy in %; at most `topPairs` pronoun pairs): groups, by source language, by pronoun pair. */
export function pairAccuracyTables(r: PairAccuracy, topPairs = 25): TableBlock[] {
  const pct = (c: AccuracyCell): string => (c.n ? (100 * c.accuracy).toFixed(2) : "n/a");
  const row = (name: string, c: AccuracyCell): Cell[] => [name, c.n, pct(c)];
  const balanced: Cell[] = r.balanced
    ? ["balanced R vs R'", r.balanced.pairs, (100 * r.balanced.accuracy).toFixed(2), `${r.balanced.pronounPairs} pronoun pairs seen in both directions; ${r.balanced.uncovered} R vs R' pairs in one direction only`]
    : ["balanced R vs R'", 0, "n/a", "no pronoun pair occurs in both directions; build the pairs with --keep-all"];
  const pp = Object.entries(r.byPronounPair);
  return [
    { header: ["group", "pairs", "acc%", "note"], rows: [row("overall", r.overall), row("R vs S (system)", r.system), row("R vs R' (noisy)", r.noisy), balanced] },
    { title: "by source language", header: ["lang", "pairs", "acc%"], rows: Object.entries(r.byLang).map(([k, c]) => row(k, c)) },
    { title: `by pronoun pair (reference>system), ${Math.min(topPairs, pp.length)} most frequent of ${pp.length}`, header: ["pronoun pair", "pairs", "acc%"], rows: pp.slice(0, topPairs).map(([k, c]) => row(k, c)) },
  ];
}
