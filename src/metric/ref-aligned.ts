// Reference-aligned pronoun scoring: the scorer never reads the MT output as a sentence. System and
// reference are aligned with our fast_align (both directions, grow-diag-final-and, trained on all
// the pairs being scored, as `proneval mine` does); every reference pronoun aligned to a different
// system pronoun (and to no identical word) gives R' = the reference with the system's pronoun
// substituted, in the reference's context, and the scorer compares R with R': it judges exactly
// that pronoun choice. Reference pronouns aligned to a non-pronoun or to nothing, and system pronouns
// without a reference pronoun, give no decision (they are neither rewarded nor punished).
// Mode "aligned-lcs" aligns the two English sentences monolingually instead: the longest common
// subsequence of lowercased tokens anchors them, and between two anchors the reference's pronouns are
// paired in order with the system's (as the "pronoun" aggregate pairs two sides): no training, so it
// works on a test set of any size.
// Mode "hybrid": where the LCS pairs differing pronouns, the reference with all of the system's pronouns
// substituted (R') is compared with the reference as sentence mode compares two sides; elsewhere the system
// sentence itself is. The pronoun choices are judged in the reference's words, and a segment keeps a decision
// wherever sentence mode has one.
import { alignBidirectional } from "../align/index.js";
import { substituteCase } from "../mine/pairs.js";
import { pronouns } from "../text/pronouns.js";
import { tokenize } from "../text/tokenize.js";
import { compareSides, lcsLinks, type Aggregate, type PronounDecision, type SideComparison } from "./decide.js";
import type { PronounScorer, ScoredSide } from "../core/scorer.js";

export interface AlignedItem {
  /** Context of the reference (the scorer's context for R and R'). */
  context: string[];
  reference: string;
  system: string;
  /** Context of the system sentence when it is read as a sentence (hybrid fallback; default: context). */
  systemContext?: string[];
}

export interface AlignedSubstitution {
  /** Character offsets of the reference pronoun. */
  offsets: [number, number];
  refPronoun: string;
  sysPronoun: string;
  substituted: string;
}

/** How reference and system are aligned: fast_align trained on the items, or the monolingual LCS. */
export type RefAligner = "fast_align" | "lcs";

/** Substitutions of each item (fast_align trained on all items together, or the LCS per item). */
export async function alignedSubstitutions(items: AlignedItem[], aligner: RefAligner = "fast_align"): Promise<AlignedSubstitution[][]> {
  const inv = pronouns();
  const refTok = items.map((it) => tokenize(it.reference));
  const sysTok = items.map((it) => tokenize(it.system));
  const src = refTok.map((t) => t.map((x) => x.text.toLowerCase()));
  const tgt = sysTok.map((t) => t.map((x) => x.text.toLowerCase()));
  const res = aligner === "fast_align" ? await alignBidirectional(src, tgt, { symmetrize: "grow-diag-final-and", exactTensionGradient: true }) : null;
  return items.map((it, k) => {
    const links = !src[k]!.length || !tgt[k]!.length ? [] : res ? res.symmetrized.get(k) : lcsLinks(src[k]!, tgt[k]!, (i) => inv.has(src[k]![i]!), (j) => inv.has(tgt[k]![j]!));
    const refSame = new Set<number>();
    const sysSame = new Set<number>();
    for (const [i, j] of links)
      if (src[k]![i] === tgt[k]![j]) {
        refSame.add(i);
        sysSame.add(j);
      }
    const out: AlignedSubstitution[] = [];
    const seen = new Set<number>();
    for (const [i, j] of links) {
      const rw = src[k]![i]!;
      const sw = tgt[k]![j]!;
      if (rw === sw || refSame.has(i) || sysSame.has(j) || !inv.has(rw) || !inv.has(sw) || seen.has(i)) continue;
      seen.add(i); // one substitution per reference pronoun (its first link)
      const t = refTok[k]![i]!;
      const original = it.reference.slice(t.start, t.end);
      out.push({
        offsets: [t.start, t.end],
        refPronoun: rw,
        sysPronoun: sw,
        substituted: it.reference.slice(0, t.start) + substituteCase(it.reference, t.start, original, sw) + it.reference.slice(t.end),
      });
    }
    return out;
  });
}

export interface AlignedResult extends SideComparison {
  /** The scored reference side (for segment results). */
  refSide: ScoredSide;
}

/** Per item: the mean over its substitutions of score(R') - score(R) at the substituted pronoun. */
export async function referenceAlignedCompare(scorer: PronounScorer, items: AlignedItem[], opts: { batchSize?: number; onBatch?: (done: number) => void; aligner?: RefAligner } = {}): Promise<AlignedResult[]> {
  const subs = await alignedSubstitutions(items, opts.aligner);
  const prepared = items.map((it) => scorer.prepare({ context: it.context, sentence: it.reference }));
  const where: Array<[number, number]> = [];
  items.forEach((it, k) =>
    subs[k]!.forEach((s, q) => {
      prepared.push(scorer.prepare({ context: it.context, sentence: s.substituted }));
      where.push([k, q]);
    }),
  );
  const scored = await scorer.scorePrepared(prepared, opts);
  const decisions: PronounDecision[][] = items.map(() => []);
  where.forEach(([k], w) => {
    for (const d of compareSides(scored[k]!, scored[items.length + w]!, "pronoun").decisions) decisions[k]!.push(d);
  });
  return items.map((_, k) => {
    const ds = decisions[k]!;
    return { value: ds.length ? ds.reduce((s, d) => s + d.diff, 0) / ds.length : null, decisions: ds, refSide: scored[k]! };
  });
}

/** The reference with every substitution applied at once (substitutions of one item, in any order). */
export function substituteAll(reference: string, subs: readonly AlignedSubstitution[]): string {
  let out = reference;
  for (const s of [...subs].sort((x, y) => y.offsets[0] - x.offsets[0])) {
    const original = reference.slice(s.offsets[0], s.offsets[1]);
    out = out.slice(0, s.offsets[0]) + substituteCase(reference, s.offsets[0], original, s.sysPronoun) + out.slice(s.offsets[1]);
  }
  return out;
}

export interface HybridResult extends SideComparison {
  refSide: ScoredSide;
  /** The other side: the reference with the system's pronouns (substituted) or the system sentence itself. */
  otherSide: ScoredSide;
  /** Whether the other side is the reference with substitutions (else the system sentence). */
  substituted: boolean;
}

/**
 * Hybrid mode: where the LCS pairs system pronouns with different reference pronouns, R' = the reference
 * with all of them substituted, scored in the reference's context; elsewhere the system sentence itself, in
 * `systemContext`. Either is compared with the reference under `agg`, as sentence mode compares two sides,
 * so on a pair that differs only in pronouns this is sentence mode exactly.
 */
export async function hybridCompare(scorer: PronounScorer, items: AlignedItem[], agg: Aggregate, opts: { batchSize?: number; withAttention?: boolean; onBatch?: (done: number) => void } = {}): Promise<HybridResult[]> {
  const subs = await alignedSubstitutions(items, "lcs");
  const prepared = items.map((it) => scorer.prepare({ context: it.context, sentence: it.reference }));
  items.forEach((it, k) =>
    prepared.push(subs[k]!.length ? scorer.prepare({ context: it.context, sentence: substituteAll(it.reference, subs[k]!) }) : scorer.prepare({ context: it.systemContext ?? it.context, sentence: it.system })),
  );
  const scored = await scorer.scorePrepared(prepared, opts);
  return items.map((_, k) => {
    const refSide = scored[k]!;
    const otherSide = scored[items.length + k]!;
    return { ...compareSides(refSide, otherSide, agg), refSide, otherSide, substituted: subs[k]!.length > 0 };
  });
}
