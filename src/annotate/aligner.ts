/**
 * The cross-lingual WordAligner: fast_align (src/align) trained in both directions on the sentence
 * pairs being annotated (plus any extra parallel text), then a one-to-one maximum-weight matching over
 * the averaged posteriors of the two directions (simalign's mwmf, with fast_align in place of mBERT).
 */
import { alignBidirectional, posteriors, type AlignModel } from "../align/index.js";
import type { SentenceAlignment, WordAligner } from "./types.js";
import { addAnchors, matchLinks, matrix, type ScoreMatrix } from "./matching.js";
import { addComitativeLinks, addSoleVerbLink, addTagAnchors, addVerbGroupLinks, type TagAnchorOptions } from "./tag-anchors.js";
import type { AnnSentence } from "./types.js";

export interface FastAlignWordAlignerOptions {
  /** Extra parallel text (tokenised English and other side) to train on besides the input. */
  extraCorpus?: { en: string[][]; other: string[][] };
  /** Links scoring below this after matching are dropped (default 0.1). */
  threshold?: number;
  /** EM iterations per direction (default 5, fast_align's). */
  iterations?: number;
  /** Worker threads for training the two directions (default: up to 2). */
  threads?: number;
  /**
   * Re-score links with the taggers' parts of speech and person when `align` is given tagged sentences
   * (src/annotate/tag-anchors.ts): true or the penalty/bonus; default off here (`CorpusAligner`, the
   * aligner of `ctxpro identify`, turns it on).
   */
  tagAnchors?: boolean | TagAnchorOptions;
}

/** The options of `addTagAnchors` when tag anchors are on, else undefined. */
export function tagAnchorOptions(v: boolean | TagAnchorOptions | undefined): TagAnchorOptions | undefined {
  return v === true ? {} : v ? v : undefined;
}

/** Averaged posterior P(en_i <-> other_j) of the two directions; NULL columns dropped. */
export function combinedPosteriors(fwd: AlignModel, rev: AlignModel, en: readonly string[], other: readonly string[]): ScoreMatrix {
  const I = en.length;
  const J = other.length;
  const f = posteriors(fwd, en, other); // J x (I + 1)
  const r = posteriors(rev, en, other); // I x (J + 1)
  const m = matrix(I, J);
  for (let i = 0; i < I; i++)
    for (let j = 0; j < J; j++) {
      // A tiny diagonal preference breaks ties between equally likely positions (repeated words).
      const diag = Math.abs((i + 0.5) / I - (j + 0.5) / J);
      m.data[i * J + j] = (f[j * (I + 1) + i]! + r[i * (J + 1) + j]!) / 2 - 1e-3 * diag;
    }
  return m;
}

export class FastAlignWordAligner implements WordAligner {
  constructor(private readonly opts: FastAlignWordAlignerOptions = {}) {}

  async align(en: string[][], other: string[][], tagged?: { en: AnnSentence[]; other: AnnSentence[] }): Promise<SentenceAlignment[]> {
    if (en.length !== other.length) throw new RangeError(`aligner: ${en.length} English sentences but ${other.length} on the other side`);
    const tags = tagAnchorOptions(this.opts.tagAnchors);
    const lower = (s: readonly string[]) => s.map((t) => t.toLowerCase());
    const trainEn: string[][] = [];
    const trainOther: string[][] = [];
    const extra = this.opts.extraCorpus;
    if (extra) {
      if (extra.en.length !== extra.other.length) throw new RangeError("aligner: extra corpus sides differ in length");
      extra.en.forEach((s, k) => {
        if (s.length && extra.other[k]!.length) {
          trainEn.push(lower(s));
          trainOther.push(lower(extra.other[k]!));
        }
      });
    }
    en.forEach((s, k) => {
      if (s.length && other[k]!.length) {
        trainEn.push(lower(s));
        trainOther.push(lower(other[k]!));
      }
    });
    if (trainEn.length === 0) return en.map(() => []);
    const r = await alignBidirectional(trainEn, trainOther, { iterations: this.opts.iterations, threads: this.opts.threads });
    return en.map((s, k) => {
      const o = other[k]!;
      if (!s.length || !o.length) return [];
      const m = combinedPosteriors(r.forwardModel, r.reverseModel, lower(s), lower(o));
      addAnchors(m, s, o);
      if (!tags || !tagged) return matchLinks(m, { threshold: this.opts.threshold ?? 0.1 });
      addTagAnchors(m, tagged.en[k]!.tokens, tagged.other[k]!.tokens, tags);
      const links = matchLinks(m, { threshold: this.opts.threshold ?? 0.1 });
      addVerbGroupLinks(links, tagged.en[k]!.tokens, tagged.other[k]!.tokens);
      addSoleVerbLink(links, tagged.en[k]!.tokens, tagged.other[k]!.tokens);
      addComitativeLinks(links, tagged.en[k]!.tokens, tagged.other[k]!.tokens);
      return links;
    });
  }
}
