/**
 * Annotation interfaces shared by CTXPRO's engine (src/ctxpro) and the annotators (src/annotate).
 * Like spaCy's pipeline: small interfaces, so annotations made elsewhere (JSON) or by our own
 * models can be swapped without touching the rules.
 */

/** Universal Dependencies style token. feats uses UD names: Gender, Number, Case, Person, PronType, ... */
export interface AnnToken {
  text: string;
  lemma: string;
  upos: string;
  feats: Record<string, string>;
  /** Character offsets into the untokenised sentence, when known. */
  start?: number;
  end?: number;
}

export interface AnnSentence {
  /** The untokenised sentence as it appears in the input. */
  text: string;
  tokens: AnnToken[];
}

/** A mention: tokens [start, end) of sentence `sent`; `head` is the index of its head token. */
export interface Mention {
  sent: number;
  start: number;
  end: number;
  head: number;
}

/** A coreference chain in document order. */
export interface CorefCluster {
  mentions: Mention[];
}

/** Word alignment of one sentence pair: [englishTokenIndex, otherTokenIndex] links. */
export type SentenceAlignment = Array<[number, number]>;

/** A parallel document with everything CTXPRO's rules look at. English is always `en`. */
export interface AnnotatedParallelDoc {
  id: string;
  /** The non-English language code (de, es, fr, it, pl, pt, ru). */
  lang: string;
  en: AnnSentence[];
  tgt: AnnSentence[];
  /** alignment[i] aligns en[i] with tgt[i]. */
  alignment: SentenceAlignment[];
  /** English coreference clusters. */
  coref: CorefCluster[];
}

/** Tokenises and tags one sentence of one language (UPOS, lemma, FEATS). */
export interface MorphAnnotator {
  readonly lang: string;
  annotate(sentence: string): AnnSentence;
}

/** Aligns a batch of sentence pairs (English tokens, other-language tokens). */
export interface WordAligner {
  /**
   * `tagged`, when given, holds the same sentences tagged (one AnnSentence per sentence, tokens as in `en`
   * and `other`); an aligner may use their parts of speech and features (see src/annotate/tag-anchors.ts).
   */
  align(en: string[][], other: string[][], tagged?: { en: AnnSentence[]; other: AnnSentence[] }): Promise<SentenceAlignment[]>;
}

/** English coreference over one document. */
export interface CorefResolver {
  resolve(sentences: AnnSentence[]): CorefCluster[];
  /** Whether a common-noun lemma names a person, where the resolver has lexicons for it (CTXPRO's fallback antecedent). */
  isPerson?(lemma: string): boolean;
}

/** One segment pair of a corpus, as read (untokenised). */
export interface CorpusPair {
  en: string;
  other: string;
}

/** Phases of `Annotators.prepare`, for progress reports: reading the corpus, then learning from it. */
export type PreparePhase = "read" | "train";

/**
 * What `ctxpro identify` needs of its annotators: morphology of both sides, a word aligner and English
 * coreference, and two optional hooks that any annotators (the built-in ones, precomputed annotations, a
 * user's own) may implement.
 */
export interface Annotators {
  morph: { en: MorphAnnotator; tgt: MorphAnnotator };
  aligner: WordAligner;
  coref: CorefResolver;
  /**
   * Sees every segment pair of the input once, before the first document is annotated: annotators that learn
   * from the corpus (an aligner trained on it) or look its words up in one batch (an external analyser) do it
   * here. `progress` reports the pairs read and the start of training. Annotators that are ready already
   * (trained before) may return without reading.
   */
  prepare?(pairs: AsyncIterable<CorpusPair>, progress?: (phase: PreparePhase, done: number) => void): Promise<void>;
  /**
   * Re-tags a document's target sentences with what the word alignment says of their words (a word linked
   * only to an English noun is a noun), after alignment and before the rules run: returns the target
   * sentences to use, each the given one or a new one with the same text and tokens.
   */
  retag?(doc: { en: readonly AnnSentence[]; tgt: readonly AnnSentence[]; alignment: readonly SentenceAlignment[] }): AnnSentence[];
  /**
   * Sees a document's sentences before they are annotated: annotators that were ready before `prepare` (a saved
   * aligner, so no pass over the whole corpus) look the document's words up in one batch here instead.
   */
  beforeDocument?(doc: { en: readonly string[]; other: readonly string[] }): void;
}
