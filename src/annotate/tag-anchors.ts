/**
 * Tag anchors (issue 24, lever 9): re-scores the aligner's combined-posterior matrix with what the taggers
 * already know about both sides before the one-to-one matching, in `ctxpro identify`'s aligner only
 * (`proneval align` and fast_align itself are untouched).
 *
 * fast_align has no notion of a word's category, and in pro-drop languages it links the English subject
 * pronoun to the target verb that carries its person ("We do ?" / "¿ La tenemos ?": *We*–*tenemos*), which
 * leaves the auxiliary (*do*) to a clitic or a question mark and the object pronoun (*it*) to the verb.
 * So, by coarse part of speech (VERB/AUX, NOUN/PROPN, PRON, DET, ADP, conjunctions, punctuation):
 *
 *  - pairs that are never translations of each other (a pronoun and a verb, a verb and a determiner,
 *    preposition, conjunction or punctuation mark, a pronoun or noun and punctuation, two personal pronouns
 *    of different person) are multiplied by `penalty` (default 0.2);
 *  - pairs of the same kind (verb-verb, noun-noun, pronoun-pronoun or pronoun-determiner of compatible
 *    person) get `bonus` added (default 0.1), enough to pass the 0.1 threshold when EM gave them little.
 *
 * Person: first person must match both ways; English second person may meet a third-person target (formal
 * address: es *usted*, *lo*, it *Lei*, de *Sie*), a third-person English pronoun not a second-person one.
 */
import type { AnnToken } from "./types.js";
import type { ScoreMatrix } from "./matching.js";

export interface TagAnchorOptions {
  /** Factor for pairs of incompatible kinds (default 0.2). */
  penalty?: number;
  /** Added to pairs of the same kind (default 0.1). */
  bonus?: number;
}

/** Coarse classes: V verb, N noun, P pronoun, D determiner, A adposition, C conjunction, X punctuation, O other. */
const CLASS: Record<string, number> = { VERB: 1, AUX: 1, NOUN: 2, PROPN: 2, PRON: 3, DET: 4, ADP: 5, CCONJ: 6, SCONJ: 6, PUNCT: 7, SYM: 7 };
const V = 1, N = 2, P = 3, D = 4, A = 5, C = 6, X = 7;
const NCLASS = 8;

/** INCOMPATIBLE[en * NCLASS + tgt]: kinds that never translate each other. */
const INCOMPATIBLE = new Uint8Array(NCLASS * NCLASS);
for (const [a, b] of [[P, V], [V, D], [V, A], [V, C], [V, X], [P, X], [N, X]] as const) {
  INCOMPATIBLE[a * NCLASS + b] = 1;
  INCOMPATIBLE[b * NCLASS + a] = 1;
}

function classOf(t: AnnToken): number {
  return CLASS[t.upos] ?? 0;
}

/** Two pronouns whose person rules out a translation (undefined person never clashes). */
export function personClash(en: AnnToken, tgt: AnnToken): boolean {
  const x = en.feats.Person;
  const y = tgt.feats.Person;
  if (!x || !y || x === y) return false;
  return x === "1" || y === "1" || (x === "3" && y === "2");
}

/** Re-scores `m` (rows English tokens, columns target tokens) in place; see the module comment. */
export function addTagAnchors(m: ScoreMatrix, en: readonly AnnToken[], tgt: readonly AnnToken[], opts: TagAnchorOptions = {}): void {
  const { rows, cols, data } = m;
  if (en.length !== rows || tgt.length !== cols) throw new RangeError(`tag anchors: ${en.length}x${tgt.length} tokens for a ${rows}x${cols} matrix`);
  const penalty = opts.penalty ?? 0.2;
  const bonus = opts.bonus ?? 0.1;
  const tc = new Uint8Array(cols);
  for (let j = 0; j < cols; j++) tc[j] = classOf(tgt[j]!);
  for (let i = 0; i < rows; i++) {
    const a = classOf(en[i]!);
    if (a === 0) continue;
    const row = i * cols;
    for (let j = 0; j < cols; j++) {
      const b = tc[j]!;
      if (INCOMPATIBLE[a * NCLASS + b]) data[row + j] *= penalty;
      else if (a === P && (b === P || b === D)) {
        if (personClash(en[i]!, tgt[j]!)) data[row + j] *= b === P ? penalty : 1;
        else data[row + j] += bonus;
      } else if (a === b && (a === V || a === N)) data[row + j] += bonus;
    }
  }
}
