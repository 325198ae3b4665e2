/**
 * An annotated parallel document as the CTXPRO engine reads it: its consistency checked (`validateDoc`), its
 * alignment links and coreference clusters indexed (`DocIndex`), and the target token an English antecedent
 * mention is aligned to (`alignedHead`: steps 6 and 7 of the engine).
 */
import { InputError } from "../io/errors.js";
import type { AnnToken, AnnotatedParallelDoc, Mention } from "../annotate/types.js";
import type { PronounRule } from "./rules.js";
import { determinedNoun, genitiveHost, standsAsNoun } from "./target-heads.js";
import { NOUNS, values } from "./tokens.js";

/** Checks that a document's annotations are internally consistent; errors name the document and sentence. */
export function validateDoc(doc: AnnotatedParallelDoc): void {
  const at = (s?: number) => `document '${doc.id}'${s === undefined ? "" : `, sentence ${s + 1}`}`;
  if (doc.en.length !== doc.tgt.length) {
    throw new InputError(`${at()}: ${doc.en.length} English sentences but ${doc.tgt.length} ${doc.lang} sentences`);
  }
  if (doc.alignment.length !== doc.en.length) {
    throw new InputError(`${at()}: ${doc.alignment.length} alignments for ${doc.en.length} sentence pairs`);
  }
  doc.alignment.forEach((links, s) => {
    const ne = doc.en[s].tokens.length;
    const nt = doc.tgt[s].tokens.length;
    for (const [e, t] of links) {
      if (!Number.isInteger(e) || !Number.isInteger(t) || e < 0 || t < 0 || e >= ne || t >= nt) {
        throw new InputError(`${at(s)}: alignment link ${e}-${t} is out of range (${ne} English, ${nt} ${doc.lang} tokens)`);
      }
    }
  });
  doc.coref.forEach((c, ci) => {
    for (const m of c.mentions) {
      const sent = doc.en[m.sent];
      const ok =
        sent !== undefined &&
        Number.isInteger(m.start) && Number.isInteger(m.end) && Number.isInteger(m.head) &&
        m.start >= 0 && m.end > m.start && m.end <= sent.tokens.length && m.head >= m.start && m.head < m.end;
      if (!ok) {
        throw new InputError(`${at()}: coreference cluster ${ci + 1} has an invalid mention {sent: ${m.sent}, start: ${m.start}, end: ${m.end}, head: ${m.head}}`);
      }
    }
  });
}

export interface IndexedMention extends Mention {
  cluster: number;
}

/** Document-level lookups shared by all rules. */
export class DocIndex {
  /** Alignment links of each sentence, sorted (English index, then target index). */
  readonly links: Array<Array<[number, number]>>;
  /** Mentions of each cluster in document order. */
  readonly clusters: IndexedMention[][];
  /** Mentions by sentence, in cluster order, to find the mention of a pronoun. */
  private readonly bySent: IndexedMention[][];

  constructor(readonly doc: AnnotatedParallelDoc) {
    this.links = doc.alignment.map((l) => [...l].sort((a, b) => a[0] - b[0] || a[1] - b[1]));
    this.clusters = doc.coref.map((c, ci) =>
      c.mentions.map((m) => ({ ...m, cluster: ci })).sort((a, b) => a.sent - b.sent || a.start - b.start || a.end - b.end),
    );
    this.bySent = doc.en.map(() => []);
    for (const c of this.clusters) for (const m of c) this.bySent[m.sent].push(m);
  }

  /** The first (in cluster order) mention containing English token `tok` of sentence `sent`. */
  mentionOf(sent: number, tok: number): IndexedMention | undefined {
    return this.bySent[sent].find((m) => m.start <= tok && tok < m.end);
  }

  /** Target tokens aligned to English token `e` of sentence `s`. */
  alignedTgt(s: number, e: number): number[] {
    return this.links[s].filter((l) => l[0] === e).map((l) => l[1]);
  }
}

/** Longest run of consecutive target indices (ties: the first), as [start, end). */
function longestRun(indices: number[]): [number, number] {
  const sorted = [...new Set(indices)].sort((a, b) => a - b);
  let best: [number, number] = [sorted[0], sorted[0] + 1];
  let start = sorted[0];
  for (let k = 1; k <= sorted.length; k++) {
    if (k < sorted.length && sorted[k] === sorted[k - 1] + 1) continue;
    const run: [number, number] = [start, sorted[k - 1] + 1];
    if (run[1] - run[0] > best[1] - best[0]) best = run;
    if (k < sorted.length) start = sorted[k];
  }
  return best;
}

/**
 * C_t of an antecedent mention (steps 6-7), or undefined when its alignment or morphology fails the rule;
 * `clash` is set when it fails because C_t is a noun of another gender or number than the rule's.
 */
export function alignedHead(rule: PronounRule, idx: DocIndex, ante: Mention, clash?: { noun: boolean; known?: boolean }, adjAsNoun = true): { ct: AnnToken; a: number; b: number; k: number; tagged: string } | undefined {
  const { doc } = idx;
  // Step 6: C_t is the target token aligned to the antecedent's head; when the head is unaligned,
  // the single noun of the target span aligned to the mention.
  const spanTgt = idx.links[ante.sent].filter((l) => l[0] >= ante.start && l[0] < ante.end).map((l) => l[1]);
  if (spanTgt.length === 0) return undefined;
  const [a, b] = longestRun(spanTgt);
  const ts = doc.tgt[ante.sent].tokens;
  let cands = [...new Set(idx.alignedTgt(ante.sent, ante.head))];
  if (cands.length > 1) cands = cands.filter((c) => ts[c].upos === rule.alignedCorefPos);
  if (cands.length === 0) {
    cands = [];
    for (let c = a; c < b; c++) if (ts[c].upos === rule.alignedCorefPos) cands.push(c);
    if (cands.length === 0) {
      const n = determinedNoun(ts, a, b, idx.links[ante.sent]);
      if (n !== undefined && ts[n].upos === rule.alignedCorefPos) cands.push(n);
    }
  }
  if (cands.length !== 1) return undefined;
  // An English noun compound ("wedding ring", "birth certificate", "model rocket") whose head was aligned
  // to the complement of a *de / di* phrase that renders the modifier ("alianza de boda", "acta de
  // nacimiento", "modellino di razzo"): C_t is the noun the phrase modifies. Not for a
  // single-noun mention, whose translation may add a head of its own ("need love" = "bisogno d'amore").
  const enToks = doc.en[ante.sent].tokens;
  if (ante.head > ante.start && NOUNS.has(enToks[ante.head - 1].upos)) {
    const outer = genitiveHost(ts, cands[0]);
    if (outer !== undefined) cands = [outer];
  }
  let ct = ts[cands[0]];
  // A noun the target tagger called an adjective ("los reporteros/ADJ", "i nervi/ADJ"): the one token
  // aligned to the English noun head, tagged ADJ with gender and number, with no noun beside it, is
  // taken as the noun; its gender is the noun phrase's either way.
  // Not for fallback antecedents, which must be nouns on both sides.
  if (adjAsNoun && ct.upos === "ADJ" && rule.alignedCorefPos === "NOUN" && standsAsNoun(ts, cands[0])) ct = { ...ct, upos: "NOUN" };
  // Step 7: C_t's POS, gender and number.
  if (ct.upos !== rule.alignedCorefPos) return undefined;
  const agrees =
    (rule.alignedCorefGender === "*" || values(ct, "Gender").includes(rule.alignedCorefGender)) &&
    (rule.alignedCorefNumber === "*" || values(ct, "Number").includes(rule.alignedCorefNumber));
  if (!agrees) {
    if (clash) {
      clash.noun = true;
      // The clash is real only where C_t carries the features the rule tests (a noun with no gender is unknown, not other).
      clash.known = (rule.alignedCorefGender === "*" || values(ct, "Gender").length > 0) && (rule.alignedCorefNumber === "*" || values(ct, "Number").length > 0);
    }
    return undefined;
  }
  return { ct, a, b, k: cands[0], tagged: ts[cands[0]].upos };
}
