/**
 * APT, the reference-based accuracy of pronoun translation (Miculicich Werlen & Popescu-Belis 2017):
 * every source pronoun is followed through word alignments into the reference and into the hypothesis,
 * and the two aligned word sets are compared. Cases, as in the original APT.py:
 *   1 exact (the sets share a word), 2 equivalent (an equivalence-table pair), 3 different,
 *   4 hypothesis has no aligned word, 5 reference has none (hypothesis has), 6 neither has.
 * APT = sum(w_c * n_c) / sum(n_c), default weights 1, 0.5, 0, 0, 0, 0.
 *
 * English-target variant (source not English): the anchors are the reference's pronouns from our 42-pronoun
 * inventory; each is followed to the source words aligned to it and from there to the hypothesis. A reference
 * pronoun with no aligned source word (pro-drop sources) cannot be followed and is counted apart ("unanchored").
 *
 * Alignments: our fast_align (src/align), both directions with grow-diag-final-and, lowercased, trained on
 * the triples' own corpus: per system (its source-reference plus source-hypothesis pairs; `proneval apt`), so
 * a system's APT does not depend on which other systems are scored beside it, or shared by all systems (the
 * source-reference pairs and every system's source-hypothesis pairs; more data for small sets, meta-eval).
 */
import { alignBidirectional, type Link } from "../align/index.js";
import { tokenize as tokenizeLang, isSupportedLang } from "../annotate/tokenize.js";
import { InputError } from "../io/errors.js";
import { formatTable, type TableBlock } from "../io/table.js";
import { tokenWords } from "../text/tokenize.js";
import { pronouns } from "../text/pronouns.js";
import { equivalenceIndex } from "./equivalence.js";

export { EQUIVALENT_PRONOUNS, equivalenceIndex } from "./equivalence.js";

export const APT_DEFAULT_WEIGHTS = [1, 0.5, 0, 0, 0, 0] as const;

/** One sentence triple, tokenised, with source-reference and source-hypothesis links [srcIdx, tgtIdx]. */
export interface AptTriple {
  src: string[];
  ref: string[];
  hyp: string[];
  srcRef: readonly Link[];
  srcHyp: readonly Link[];
}

export interface AptInstance {
  sentence: number;
  /** The anchor: a source position (English source) or a reference position (English target). */
  anchor: number;
  pronoun: string;
  ref: string[];
  hyp: string[];
  /** 1-6, or 0 for an unanchored reference pronoun (English-target variant only). */
  case: number;
}

export interface AptCounts {
  /** n_1 .. n_6 */
  cases: number[];
  unanchored: number;
  score: number;
}

export interface AptSystemResult extends AptCounts {
  name: string;
  byPronoun: Record<string, AptCounts>;
  instances?: AptInstance[];
}

/** Per segment: the weighted case sum and the number of counted (anchored) instances, the units of the bootstrap. */
export function aptSegmentStats(instances: readonly AptInstance[], segments: number, weights: readonly number[]): Float64Array {
  const st = new Float64Array(2 * segments);
  for (const x of instances) {
    if (x.case === 0) continue;
    st[2 * x.sentence] += weights[x.case - 1] ?? 0;
    st[2 * x.sentence + 1] += 1;
  }
  return st;
}

export type AptMode = "source-en" | "target-en";

const CJK = "\\p{sc=Han}\\p{sc=Hiragana}\\p{sc=Katakana}";
const WORD_CHAR = `(?:(?![${CJK}])[\\p{L}\\p{M}\\p{N}])`;
const CJK_OR_WORD = new RegExp(`[${CJK}]|${WORD_CHAR}+(?:['’-]${WORD_CHAR}+)*|[^\\s\\p{L}\\p{M}\\p{N}]`, "gu");

/** Tokens for a language: English by src/text, the tagger languages by their rules, else by spaces/punctuation. */
export function aptTokens(text: string, lang: string): string[] {
  if (lang === "en") return tokenWords(text, true);
  if (isSupportedLang(lang)) return tokenizeLang(text, lang).map((t) => t.text.toLowerCase());
  // Chinese and Japanese have no spaces: every Han/kana character is a token (fast_align then learns
  // character-to-word links), else a whole clause would be one "word".
  return text.toLowerCase().match(CJK_OR_WORD) ?? [];
}

function linked(links: readonly Link[], from: number, side: 0 | 1): number[] {
  const out: number[] = [];
  for (const l of links) if (l[side] === from) out.push(l[side === 0 ? 1 : 0]);
  return out.sort((a, b) => a - b);
}

/** APT case of two aligned word sets. */
export function aptCase(ref: readonly string[], hyp: readonly string[], equiv: Map<string, number[]>): number {
  if (ref.length === 0) return hyp.length ? 5 : 6;
  if (hyp.length === 0) return 4;
  const r = new Set(ref);
  if (hyp.some((w) => r.has(w))) return 1;
  const groups = new Set(ref.flatMap((w) => equiv.get(w) ?? []));
  if (hyp.some((w) => (equiv.get(w) ?? []).some((g) => groups.has(g)))) return 2;
  return 3;
}

export function aptScore(cases: readonly number[], weights: readonly number[] = APT_DEFAULT_WEIGHTS): number {
  let num = 0;
  let den = 0;
  cases.forEach((n, i) => {
    num += (weights[i] ?? 0) * n;
    den += n;
  });
  return den ? num / den : 0;
}

/** The APT instances of one system's triples (tokens already lowercased). */
export function aptInstances(triples: readonly AptTriple[], mode: AptMode, equiv: Map<string, number[]>, isPronoun: (w: string) => boolean): AptInstance[] {
  const out: AptInstance[] = [];
  triples.forEach((t, s) => {
    if (mode === "source-en") {
      t.src.forEach((w, i) => {
        if (!isPronoun(w)) return;
        const ref = linked(t.srcRef, i, 0).map((j) => t.ref[j]!);
        const hyp = linked(t.srcHyp, i, 0).map((j) => t.hyp[j]!);
        out.push({ sentence: s, anchor: i, pronoun: w, ref, hyp, case: aptCase(ref, hyp, equiv) });
      });
    } else {
      t.ref.forEach((w, j) => {
        if (!isPronoun(w)) return;
        const srcPos = linked(t.srcRef, j, 1);
        if (srcPos.length === 0) {
          out.push({ sentence: s, anchor: j, pronoun: w, ref: [w], hyp: [], case: 0 });
          return;
        }
        const hypPos = [...new Set(srcPos.flatMap((i) => linked(t.srcHyp, i, 0)))].sort((a, b) => a - b);
        const hyp = hypPos.map((k) => t.hyp[k]!);
        out.push({ sentence: s, anchor: j, pronoun: w, ref: [w], hyp, case: aptCase([w], hyp, equiv) });
      });
    }
  });
  return out;
}

/** Counts instances overall and per anchor pronoun. */
export function countApt(instances: readonly AptInstance[], weights: readonly number[] = APT_DEFAULT_WEIGHTS): { total: AptCounts; byPronoun: Record<string, AptCounts> } {
  const blank = (): AptCounts => ({ cases: [0, 0, 0, 0, 0, 0], unanchored: 0, score: 0 });
  const total = blank();
  const byPronoun: Record<string, AptCounts> = {};
  for (const x of instances) {
    const p = (byPronoun[x.pronoun] ??= blank());
    for (const c of [total, p]) {
      if (x.case === 0) c.unanchored++;
      else c.cases[x.case - 1]!++;
    }
  }
  total.score = aptScore(total.cases, weights);
  for (const c of Object.values(byPronoun)) c.score = aptScore(c.cases, weights);
  return { total, byPronoun: Object.fromEntries(Object.entries(byPronoun).sort((a, b) => (a[0] < b[0] ? -1 : 1))) };
}

export interface AptInput {
  srcLang: string;
  tgtLang: string;
  src: string[];
  ref: string[];
  hyps: Array<{ name: string; lines: string[] }>;
}

export interface AptOptions {
  weights?: readonly number[];
  /** Extra equivalence groups (lowercase words) on top of the built-in table. */
  extraEquivalents?: string[][];
  /** Keep every instance in the result (for --detail). */
  keepInstances?: boolean;
  threads?: number;
  /** "shared" (default): one aligner for all systems; "per-system": each system's own (independent scores). */
  aligner?: "shared" | "per-system";
}

export interface AptReport {
  mode: AptMode;
  srcLang: string;
  tgtLang: string;
  segments: number;
  weights: number[];
  systems: AptSystemResult[];
  /** Per system, aptSegmentStats (for the bootstrap; not part of the JSON report). */
  segmentStats?: Float64Array[];
}

/** APT of summed segment statistics (weighted case sum / counted instances); 0 without instances, as aptScore. */
export function aptOfSums(sums: Float64Array): number {
  return sums[1]! ? sums[0]! / sums[1]! : 0;
}

/** Which side carries the English pronouns. */
export function aptMode(srcLang: string, tgtLang: string): AptMode {
  if (srcLang === "en" && tgtLang !== "en") return "source-en";
  if (tgtLang === "en" && srcLang !== "en") return "target-en";
  throw new InputError(`APT needs English on exactly one side (got ${srcLang}-${tgtLang})`);
}

/** Tokenises, aligns (fast_align trained on the triples' corpus) and scores every system. */
export async function computeApt(input: AptInput, opts: AptOptions = {}): Promise<AptReport> {
  const mode = aptMode(input.srcLang, input.tgtLang);
  const n = input.src.length;
  if (input.ref.length !== n) throw new InputError(`reference has ${input.ref.length} segments but the source has ${n}`);
  for (const h of input.hyps) if (h.lines.length !== n) throw new InputError(`has ${h.lines.length} segments but the source has ${n}`, h.name);
  const weights = [...(opts.weights ?? APT_DEFAULT_WEIGHTS)];
  if (weights.length !== 6 || weights.some((w) => !Number.isFinite(w))) throw new InputError("APT weights must be 6 numbers (cases 1-6)");
  const src = input.src.map((l) => aptTokens(l, input.srcLang));
  const ref = input.ref.map((l) => aptTokens(l, input.tgtLang));
  const hyps = input.hyps.map((h) => h.lines.map((l) => aptTokens(l, input.tgtLang)));
  const equiv = equivalenceIndex(input.tgtLang, opts.extraEquivalents);
  const inv = pronouns();
  const isPronoun = (w: string) => inv.has(w);
  const systems: AptSystemResult[] = [];
  const segmentStats: Float64Array[] = [];
  // Shared: one corpus, (src, ref) then (src, hyp_k) for every system. Per system: (src, ref) then (src, hyp),
  // so a system's alignments, and its score, do not depend on the other systems.
  const shared = opts.aligner !== "per-system" ? await alignBidirectional([src, ...hyps.map(() => src)].flat(), [ref, ...hyps].flat(), { threads: opts.threads }) : undefined;
  for (const [si, h] of input.hyps.entries()) {
    const al = shared ?? (await alignBidirectional([...src, ...src], [...ref, ...hyps[si]!], { threads: opts.threads }));
    const at = shared ? (si + 1) * n : n;
    const links = (k: number): Link[] => al.symmetrized.get(k);
    const triples: AptTriple[] = src.map((s, k) => ({ src: s, ref: ref[k]!, hyp: hyps[si]![k]!, srcRef: links(k), srcHyp: links(at + k) }));
    const inst = aptInstances(triples, mode, equiv, isPronoun);
    const { total, byPronoun } = countApt(inst, weights);
    systems.push({ name: h.name, ...total, byPronoun, ...(opts.keepInstances ? { instances: inst } : {}) });
    segmentStats.push(aptSegmentStats(inst, n, weights));
  }
  return { mode, srcLang: input.srcLang, tgtLang: input.tgtLang, segments: n, weights, systems, segmentStats };
}

/** One row per system: the score and its case counts; the note says what the cases are. */
export function aptTables(r: AptReport, decimals = 4): { tables: TableBlock[]; notes: string[] } {
  const header = ["system", "APT", "exact", "equivalent", "different", "no-hyp", "no-ref", "neither", ...(r.mode === "target-en" ? ["unanchored"] : [])];
  // No pronoun instance at all: there is no score (0 would read as "every pronoun wrong").
  const rows = r.systems.map((s) => [s.name, s.cases.some((n) => n > 0) ? s.score.toFixed(decimals) : "n/a", ...s.cases, ...(r.mode === "target-en" ? [s.unanchored] : [])]);
  const notes = [`APT (${r.mode}, ${r.srcLang}-${r.tgtLang}, ${r.segments} segments); weights ${r.weights.join(",")}; cases: 1 exact, 2 equivalent, 3 different, 4 no hypothesis word, 5 no reference word, 6 neither`];
  if (rows.some((row) => row[1] === "n/a")) notes.push("n/a: no English pronoun to follow (no case counted)");
  return { tables: [{ header, rows }], notes };
}

/** APT.py-style detail lines: system, sentence, anchor position, pronoun, reference words, hypothesis words, case (TSV through fast-csv). */
export function formatAptDetail(r: AptReport): Promise<string> {
  const rows = r.systems.flatMap((s) => (s.instances ?? []).map((x) => [s.name, x.sentence + 1, x.anchor, x.pronoun, x.ref.join(" ") || "-", x.hyp.join(" ") || "-", x.case || "unanchored"]));
  return formatTable(["system", "sentence", "anchor", "pronoun", "reference", "hypothesis", "case"], rows);
}
