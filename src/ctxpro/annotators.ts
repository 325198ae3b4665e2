/**
 * The built-in annotators `ctxpro identify` plugs into the engine when no precomputed annotations
 * are given (--annotations, src/ctxpro/annotations.ts): the shipped English and target taggers
 * (src/annotate/morph.ts), the English pronoun resolver (src/annotate/coref.ts) and a corpus-trained
 * one-to-one word aligner.
 *
 * The aligner is fast_align trained on the corpus being annotated, both directions, then a maximum-weight
 * matching over the averaged posteriors. Training must see the whole corpus before the first pair is
 * aligned, so identify makes two passes over its input: the first goes to `Annotators.prepare`, which only
 * tokenises and feeds the aligner's corpus (`CorpusAligner.add`) and then trains it (while the workers train,
 * the target lexicons load and an external analyser looks up the corpus's words in one batch); the second
 * tags, aligns, re-tags the target by the alignment (`Annotators.retag`), resolves and matches one document
 * at a time.
 */
import { InputError } from "../io/errors.js";
import { streamTable } from "../io/table.js";
import { CorpusBuilder, alignBidirectionalEncoded, MAX_SENTENCE_TOKENS, type AlignModel, type Links } from "../align/index.js";
import { combinedPosteriors, FastAlignWordAligner, tagAnchorOptions } from "../annotate/aligner.js";
import { addAnchors, matchLinks } from "../annotate/matching.js";
import { addComitativeLinks, addFormalYouLink, addSoleVerbLink, addTagAnchors, addVerbGroupLinks, type TagAnchorOptions } from "../annotate/tag-anchors.js";
import { loadDefaultMorph, type MorphTagger } from "../annotate/morph.js";
import { APERTIUM_ANALYSERS } from "../annotate/apertium.js";
import { loadDefaultCoref } from "../annotate/index.js";
import type { AnnSentence, AnnToken, Annotators, CorefResolver, CorpusPair, PreparePhase, SentenceAlignment, WordAligner } from "../annotate/types.js";
import { LANGUAGES } from "./rules.js";

export interface CorpusAlignerOptions {
  /** Links scoring below this after matching are dropped (default 0.1, as FastAlignWordAligner). */
  threshold?: number;
  /** EM iterations per direction (default 5). */
  iterations?: number;
  /** Worker threads for the two directions (default: up to 2). */
  threads?: number;
  /** Runs on the main thread while the workers train (loading the noun lexicon there costs no wall time). */
  whileTraining?: () => void;
  /**
   * Tag anchors (src/annotate/tag-anchors.ts): re-score links with the taggers' parts of speech and person
   * when the tagged sentences are given (identify gives them). Default on; false turns it off.
   */
  tagAnchors?: boolean | TagAnchorOptions;
}

/**
 * fast_align trained once on a corpus given pair by pair (`add`), then used to align any pair of
 * that corpus: posteriors of both directions averaged, anchors, one-to-one matching.
 */
export class CorpusAligner implements WordAligner {
  private builder: CorpusBuilder | undefined = new CorpusBuilder();
  private models: { fwd: AlignModel; rev: AlignModel } | undefined;
  private pairs = 0;
  /**
   * Viterbi links of the two directions over the training corpus after train(): links each has and
   * links both have (forward/backward agreement = both / (forward + reverse - both)).
   */
  agreement: { forward: number; reverse: number; both: number } | undefined;

  constructor(private readonly opts: CorpusAlignerOptions = {}) {}

  /** Sentence pairs given to training (so far, or in all once trained). */
  get size(): number {
    return this.pairs;
  }

  get trained(): boolean {
    return this.models !== undefined;
  }

  /** The two trained directions (to save them: src/ctxpro/aligner-file.ts), or undefined before train(). */
  get trainedModels(): { fwd: AlignModel; rev: AlignModel } | undefined {
    return this.models;
  }

  /**
   * Uses directions trained before (a saved aligner) instead of training: the pairs added so far are dropped,
   * `add` afterwards is an error and `train` does nothing.
   */
  useModels(models: { fwd: AlignModel; rev: AlignModel }, pairs: number): void {
    this.builder = undefined;
    this.models = models;
    this.pairs = pairs;
  }

  /** Adds one tokenised training pair (empty sides and over-long sentences are skipped). */
  add(en: readonly string[], other: readonly string[]): void {
    if (!this.builder) throw new Error("CorpusAligner: add() after train()");
    if (en.length === 0 || other.length === 0) return;
    if (en.length > MAX_SENTENCE_TOKENS || other.length > MAX_SENTENCE_TOKENS) return;
    this.builder.add(en.map(lower), other.map(lower));
    this.pairs++;
  }

  /** Trains both directions on everything added. */
  async train(): Promise<void> {
    if (!this.builder) return;
    const corpus = this.builder.finish(true);
    this.builder = undefined;
    if (corpus.size === 0) throw new InputError("no sentence pair with text on both sides to train the word aligner on");
    const training = alignBidirectionalEncoded(corpus, { iterations: this.opts.iterations, threads: this.opts.threads });
    this.opts.whileTraining?.();
    const r = await training;
    this.models = { fwd: r.forwardModel, rev: r.reverseModel };
    this.agreement = agreementOf(r.forward, r.reverse);
  }

  /** Tag-anchor options in effect (default on), or undefined when off. */
  private get tags(): TagAnchorOptions | undefined {
    return tagAnchorOptions(this.opts.tagAnchors ?? true);
  }

  /** Aligns one pair with the trained models; `tagged` (the pair's tokens tagged) enables the tag anchors. */
  alignPair(en: readonly string[], other: readonly string[], tagged?: { en: readonly AnnToken[]; other: readonly AnnToken[] }): SentenceAlignment {
    if (!this.models) throw new Error("CorpusAligner: alignPair() before train()");
    if (en.length === 0 || other.length === 0) return [];
    const m = combinedPosteriors(this.models.fwd, this.models.rev, en.map(lower), other.map(lower));
    addAnchors(m, en, other);
    const tags = this.tags;
    if (!tags || !tagged) return matchLinks(m, { threshold: this.opts.threshold ?? 0.1 });
    addTagAnchors(m, tagged.en, tagged.other, tags);
    const links = matchLinks(m, { threshold: this.opts.threshold ?? 0.1 });
    addVerbGroupLinks(links, tagged.en, tagged.other);
    addSoleVerbLink(links, tagged.en, tagged.other);
    addComitativeLinks(links, tagged.en, tagged.other);
    addFormalYouLink(links, tagged.en, tagged.other, tags.lang);
    return links;
  }

  async align(en: string[][], other: string[][], tagged?: { en: AnnSentence[]; other: AnnSentence[] }): Promise<SentenceAlignment[]> {
    if (en.length !== other.length) throw new RangeError(`aligner: ${en.length} English sentences but ${other.length} on the other side`);
    // Untrained (a caller that did not make the first pass): train on the batch itself.
    if (!this.models) return new FastAlignWordAligner({ ...this.opts, tagAnchors: this.tags ?? false }).align(en, other, tagged);
    return en.map((s, k) => this.alignPair(s, other[k]!, tagged && { en: tagged.en[k]!.tokens, other: tagged.other[k]!.tokens }));
  }
}

/** Links of the forward and reverse Viterbi alignments, and links in both. */
export function agreementOf(fwd: Links, rev: Links): { forward: number; reverse: number; both: number } {
  let forward = 0;
  let reverse = 0;
  let both = 0;
  const seen = new Set<number>();
  for (let k = 0; k < fwd.count; k++) {
    seen.clear();
    for (const [i, j] of fwd.get(k)) {
      seen.add(i * 65536 + j);
      forward++;
    }
    for (const [i, j] of rev.get(k)) {
      reverse++;
      if (seen.has(i * 65536 + j)) both++;
    }
  }
  return { forward, reverse, both };
}

function lower(t: string): string {
  return t.toLowerCase();
}

/** The built-in annotators, with the tokenisers the aligner's training pass needs. */
export interface BuiltinAnnotators extends Annotators {
  morph: { en: MorphTagger; tgt: MorphTagger };
  aligner: CorpusAligner;
  /** Token texts of a sentence, exactly as the tagger will see them. */
  tokenize: { en: (s: string) => string[]; tgt: (s: string) => string[] };
  /** Tokenises every pair for the aligner and trains it (nothing when it is trained already). */
  prepare(pairs: AsyncIterable<CorpusPair>, progress?: (phase: PreparePhase, done: number) => void): Promise<void>;
  /** The target tagger's re-reading by the alignment (`MorphTagger.retagAligned`). */
  retag(doc: { en: readonly AnnSentence[]; tgt: readonly AnnSentence[]; alignment: readonly SentenceAlignment[] }): AnnSentence[];
}

export interface DefaultAnnotatorOptions extends CorpusAlignerOptions {
  /** Extra parallel text for the aligner (--align-corpus): see `readAlignCorpus`. */
  alignCorpus?: string[];
  /** Called once per extra-corpus file with the pairs it added. */
  onCorpus?: (file: string, pairs: number) => void;
  /**
   * Debian's Apertium analyser as the noun lexicon where it is installed (pl, src/annotate/apertium.ts);
   * default true, false goes without it (the results of a machine that lacks it).
   */
  apertium?: boolean;
  /** Already loaded English tagger and resolver to reuse (they do not depend on the language pair). */
  english?: { morph: MorphTagger; coref: CorefResolver };
}

/** Languages whose noun lexicon may be an external analyser that is best handed all words at once. */
const BATCH_LEXICON_LANGS: ReadonlySet<string> = new Set(Object.keys(APERTIUM_ANALYSERS));

/** The built-in annotators for English and `lang`. */
export async function defaultAnnotators(lang: string, opts: DefaultAnnotatorOptions = {}): Promise<BuiltinAnnotators> {
  if (!(LANGUAGES as readonly string[]).includes(lang)) {
    throw new InputError(`unsupported language '${lang}' for the built-in annotators (supported: ${LANGUAGES.join(", ")})`);
  }
  const en = opts.english?.morph ?? loadDefaultMorph("en");
  const tgt = loadDefaultMorph(lang, undefined, opts.apertium === false && BATCH_LEXICON_LANGS.has(lang) ? { lexicon: false } : {});
  // The target words of the first pass, for a noun lexicon that analyses a batch at once (Apertium, pl).
  const words = BATCH_LEXICON_LANGS.has(lang) ? new Set<string>() : undefined;
  const tokenize = {
    en: (s: string) => en.tokenize(s).map((t) => t.text),
    tgt: (s: string) => {
      const ws = tgt.tokenize(s).map((t) => t.text);
      if (words) for (const w of ws) words.add(w);
      return ws;
    },
  };
  const aligner = new CorpusAligner({
    ...opts,
    // The target language restricts the tag anchors' formal-address bonus.
    tagAnchors: opts.tagAnchors === false ? false : { lang, ...(typeof opts.tagAnchors === "object" ? opts.tagAnchors : {}) },
    whileTraining: () => {
      opts.whileTraining?.();
      tgt.loadNouns();
      if (words) {
        tgt.prefetchNouns(words);
        words.clear();
      }
    },
  });
  for (const file of opts.alignCorpus ?? []) {
    const n = await readAlignCorpus(file, tokenize, aligner);
    opts.onCorpus?.(file, n);
  }
  const coref = opts.english?.coref ?? loadDefaultCoref();
  const person = coref.isPerson?.bind(coref);
  let prepared = false;
  return {
    morph: { en, tgt },
    aligner,
    coref,
    tokenize,
    async prepare(pairs, progress) {
      if (aligner.trained) return;
      prepared = true;
      let n = 0;
      for await (const p of pairs) {
        aligner.add(tokenize.en(p.en), tokenize.tgt(p.other));
        progress?.("read", ++n);
      }
      progress?.("train", n);
      await aligner.train();
    },
    retag: (doc) => tgt.retagAligned(doc, person),
    // An external noun lexicon (pl) gets each document's words in one batch when prepare did not hand it the
    // corpus's (a saved aligner); words it has analysed already are not sent again.
    beforeDocument: words
      ? (doc) => {
          if (!prepared) tgt.prefetchNouns(doc.other.flatMap((s) => tgt.tokenize(s).map((t) => t.text)));
        }
      : undefined,
  };
}

/**
 * Adds an extra parallel corpus to the aligner's training data. Accepted line layouts (plain or
 * .gz): `English ||| other` (fast_align's, taken as already tokenised), `English<TAB>other`, or
 * `docid<TAB>English<TAB>other` (identify's own input); the last two are tokenised like the input.
 */
export async function readAlignCorpus(
  file: string,
  tokenize: BuiltinAnnotators["tokenize"],
  aligner: CorpusAligner,
): Promise<number> {
  let added = 0;
  // Through fast-csv like identify's input (no quoting: a bare quote is text); tabs rejoined give the line back.
  for await (const { cells: f, line: lineNo } of streamTable(file)) {
    const line = f.join("\t");
    if (line.trim() === "") continue;
    let en: string[];
    let other: string[];
    const bars = line.split(" ||| ");
    if (bars.length === 2) {
      en = bars[0]!.split(/\s+/).filter(Boolean);
      other = bars[1]!.split(/\s+/).filter(Boolean);
    } else if (bars.length > 2) {
      throw new InputError("more than one ' ||| ' separator", file, lineNo);
    } else {
      if (f.length !== 2 && f.length !== 3) {
        throw new InputError(`--align-corpus: expected 'English ||| other', 'English<TAB>other' or 'docid<TAB>English<TAB>other', found ${f.length} tab-separated fields`, file, lineNo);
      }
      en = tokenize.en(f[f.length - 2]!);
      other = tokenize.tgt(f[f.length - 1]!);
    }
    if (en.length && other.length) {
      aligner.add(en, other);
      added++;
    }
  }
  if (added === 0) throw new InputError("--align-corpus: no sentence pair with text on both sides", file);
  return added;
}
