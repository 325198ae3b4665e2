/**
 * MuDA from raw text: annotate the English source and each target side (shipped taggers where they exist,
 * else a plain tokenizer), align the (source, target side) pairs with our fast_align (grow-diag-final-and), and
 * tag each target side. `tagSides` trains one aligner on all the sides given; `tagAgainstReference` keeps every
 * system's tags independent of the other systems.
 */
import { alignBidirectional } from "../align/index.js";
import { loadDefaultMorph } from "../annotate/morph.js";
import type { AnnSentence, AnnToken, MorphAnnotator } from "../annotate/types.js";
import { InputError } from "../io/errors.js";
import { languageSupport, loadMudaLists, MUDA_TAGS, TAGGER_LANGS, type LangSupport, type MudaLists, type MudaTag } from "./lists.js";
import { tagDocument, type MudaSegment } from "./tagger.js";
import { ellipsisCues } from "./ellipsis.js";

/** A document: English source segments and one target side's segments, same count. */
export interface MudaDocText {
  id: string;
  src: string[];
}

export interface TargetSide {
  name: string;
  /** Per document (same order as the sources), its target segments. */
  docs: string[][];
}

export interface TaggedSegment {
  tokens: string[];
  tags: MudaTag[][];
  /** With `keepAlignment`: the English tokens and the links [englishIndex, tokenIndex]. */
  source?: string[];
  links?: Array<[number, number]>;
  /** With `keepAlignment`: English token indices of ellipsis cues. */
  ellipsisCues?: number[];
  /** With `keepSpans`: each token's character span in the segment (syntactic words split from one form share its span). */
  spans?: Array<[number, number]>;
}

export interface TaggedSide {
  name: string;
  /** Source segments with an English ellipsis cue (the same for every side of one source). */
  ellipsisSegments?: number;
  docs: Array<{ id: string; segments: TaggedSegment[] }>;
}

export interface TagCounts {
  segments: number;
  tokens: number;
  taggedTokens: number;
  /** Tokens per tag (a token with two tags counts in both). */
  tags: Record<string, number>;
  /** English segments with an ellipsis cue. */
  ellipsisSegments: number;
}

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/**
 * Tokenizer for languages without a tagger: runs of letters/digits, single punctuation marks; runs of
 * Han/Kana (no spaces) are cut by longest match against `words` (MuDA's list words), else one character.
 */
export class PlainAnnotator implements MorphAnnotator {
  private readonly words: string[];
  constructor(
    readonly lang: string,
    words: Iterable<string> = [],
  ) {
    this.words = [...new Set(words)].filter((w) => CJK.test(w)).sort((a, b) => b.length - a.length);
  }

  annotate(sentence: string): AnnSentence {
    const tokens: AnnToken[] = [];
    const re = /[\p{L}\p{M}\p{N}]+(?:['’-][\p{L}\p{M}\p{N}]+)*|[^\s\p{L}\p{M}\p{N}]/gu;
    for (let m = re.exec(sentence); m; m = re.exec(sentence)) {
      const text = m[0];
      if (this.lang !== "ko" && CJK.test(text)) {
        let k = 0;
        while (k < text.length) {
          const w = this.words.find((x) => text.startsWith(x, k));
          const piece = w ?? String.fromCodePoint(text.codePointAt(k)!);
          tokens.push(this.token(piece, m.index + k));
          k += piece.length;
        }
      } else tokens.push(this.token(text, m.index));
    }
    return { text: sentence, tokens };
  }

  private token(text: string, start: number): AnnToken {
    return { text, lemma: text.toLowerCase(), upos: /[\p{L}\p{N}]/u.test(text) ? "X" : "PUNCT", feats: {}, start, end: start + text.length };
  }
}

export interface MudaSetup {
  lang: string;
  lists: MudaLists;
  support: LangSupport;
  en: MorphAnnotator;
  tgt: MorphAnnotator;
}

/** Loads the taggers and decides which tags the language gets. */
export function setupMuda(lang: string, lists: MudaLists = loadMudaLists()): MudaSetup {
  const hasTagger = TAGGER_LANGS.has(lang);
  languageSupport(lang, lists); // refuses an unknown language before any model is loaded
  const words = [...Object.values(lists.formality[lang] ?? { T: [], V: [] }).flat(), ...Object.values(lists.pronouns[lang] ?? {}).flat()];
  const tgt = hasTagger ? loadDefaultMorph(lang) : undefined;
  const support = languageSupport(lang, lists, tgt?.predictedFeats);
  return { lang, lists, support, en: loadDefaultMorph("en"), tgt: tgt ?? new PlainAnnotator(lang, words) };
}

export interface TagSidesOptions {
  threads?: number;
  lexicalThreshold?: number;
  /** Keep English tokens, links and ellipsis cues in every segment (for inspection). */
  keepAlignment?: boolean;
  /** Keep each target token's character span (to line tokens up with other tokenisations of the text). */
  keepSpans?: boolean;
  /** Called after each annotated side. */
  onProgress?: (what: string) => void;
}

/** Tags several target sides of the same source documents, with one alignment model for all of them. */
export async function tagSides(setup: MudaSetup, sources: readonly MudaDocText[], sides: readonly TargetSide[], opts: TagSidesOptions = {}): Promise<TaggedSide[]> {
  const ann = annotateSides(setup, sources, sides, opts);
  const al = await alignSides(ann, ann.tgt.map((_, i) => i), opts);
  opts.onProgress?.("alignment");
  return sides.map((side, si) => tagSide(setup, sources, ann, side.name, si, (k) => al.symmetrized.get(si * ann.enFlat.length + k), opts));
}

/**
 * Tags a reference and system outputs so that no system's tags depend on the other systems: the reference is
 * aligned by a model trained on the (source, reference) pairs alone (the same tags as `muda tag` gives it),
 * each output by a model trained on the (source, reference) and (source, that output) pairs. An IBM model
 * aligns only words it saw in training, so every output takes part in its own aligner's training. `alignWith`
 * (other translations of the source, not tagged) is added to every aligner's training corpus.
 * Returns [reference, ...outputs].
 */
export async function tagAgainstReference(
  setup: MudaSetup,
  sources: readonly MudaDocText[],
  reference: TargetSide,
  outputs: readonly TargetSide[],
  alignWith: readonly TargetSide[] = [],
  opts: TagSidesOptions = {},
): Promise<TaggedSide[]> {
  const ann = annotateSides(setup, sources, [reference, ...outputs, ...alignWith], opts);
  const extra = alignWith.map((_, i) => 1 + outputs.length + i);
  const out: TaggedSide[] = [];
  const refAl = await alignSides(ann, [0, ...extra], opts);
  out.push(tagSide(setup, sources, ann, reference.name, 0, (k) => refAl.symmetrized.get(k), opts));
  for (let si = 1; si <= outputs.length; si++) {
    const al = await alignSides(ann, [0, si, ...extra], opts);
    opts.onProgress?.(`alignment ${outputs[si - 1]!.name}`);
    out.push(tagSide(setup, sources, ann, outputs[si - 1]!.name, si, (k) => al.symmetrized.get(ann.enFlat.length + k), opts));
  }
  return out;
}

interface AnnotatedSides {
  en: AnnSentence[][];
  /** Per side, per document, its annotated segments. */
  tgt: AnnSentence[][][];
  /** Lowercased English tokens of every segment, documents concatenated. */
  enFlat: string[][];
}

function annotateSides(setup: MudaSetup, sources: readonly MudaDocText[], sides: readonly TargetSide[], opts: TagSidesOptions): AnnotatedSides {
  for (const side of sides) {
    if (side.docs.length !== sources.length) throw new InputError(`${side.name}: ${side.docs.length} documents but the source has ${sources.length}`);
    side.docs.forEach((d, k) => {
      if (d.length !== sources[k]!.src.length) {
        throw new InputError(`${side.name}: document ${sources[k]!.id} has ${d.length} segments but the source has ${sources[k]!.src.length}`);
      }
    });
  }
  const en = sources.map((d) => d.src.map((s) => setup.en.annotate(s)));
  opts.onProgress?.("source");
  const tgt = sides.map((side) => {
    const a = side.docs.map((d) => d.map((s) => setup.tgt.annotate(s)));
    opts.onProgress?.(side.name);
    return a;
  });
  return { en, tgt, enFlat: en.flat().map((s) => s.tokens.map((t) => t.text.toLowerCase())) };
}

/** fast_align (grow-diag-final-and) trained on the English source against the given sides, concatenated in that order. */
function alignSides(ann: AnnotatedSides, sideIndices: readonly number[], opts: TagSidesOptions) {
  const corpusSrc: string[][] = [];
  const corpusTgt: string[][] = [];
  for (const si of sideIndices) {
    corpusSrc.push(...ann.enFlat);
    corpusTgt.push(...ann.tgt[si]!.flat().map((s) => s.tokens.map((t) => t.text.toLowerCase())));
  }
  return alignBidirectional(corpusSrc, corpusTgt, { threads: opts.threads });
}

/** MuDA tags of side `si`; `linksOf(k)` gives the links of its k-th segment (documents concatenated). */
function tagSide(
  setup: MudaSetup,
  sources: readonly MudaDocText[],
  ann: AnnotatedSides,
  name: string,
  si: number,
  linksOf: (k: number) => ReadonlyArray<readonly [number, number]>,
  opts: TagSidesOptions,
): TaggedSide {
  const ellipsisSegments = ann.en.flat().filter((s) => ellipsisCues(s.tokens).length > 0).length;
  let k = 0;
  const docs = sources.map((d, di) => {
    const segs: MudaSegment[] = ann.en[di]!.map((e, i) => ({ en: e, tgt: ann.tgt[si]![di]![i]!, links: linksOf(k++) }));
    const tags = tagDocument(segs, { lang: setup.lang, support: setup.support, lists: setup.lists, lexicalThreshold: opts.lexicalThreshold });
    return {
      id: d.id,
      segments: segs.map((s, i): TaggedSegment => ({
        tokens: s.tgt.tokens.map((t) => t.text),
        tags: tags[i]!,
        ...(opts.keepAlignment
          ? { source: s.en.tokens.map((t) => t.text), links: s.links.map((l) => [l[0], l[1]] as [number, number]), ellipsisCues: ellipsisCues(s.en.tokens) }
          : {}),
        ...(opts.keepSpans ? { spans: s.tgt.tokens.map((t): [number, number] => [t.start ?? -1, t.end ?? -1]) } : {}),
      })),
    };
  });
  return { name, ellipsisSegments, docs };
}

/** Tag counts of one tagged side (the paper's Figure 1). */
export function countTags(side: TaggedSide): TagCounts {
  const c: TagCounts = { segments: 0, tokens: 0, taggedTokens: 0, tags: Object.fromEntries(MUDA_TAGS.map((t) => [t, 0])), ellipsisSegments: side.ellipsisSegments ?? 0 };
  for (const d of side.docs) {
    for (const s of d.segments) {
      c.segments++;
      c.tokens += s.tokens.length;
      for (const t of s.tags) {
        if (t.length) c.taggedTokens++;
        for (const x of t) c.tags[x] = (c.tags[x] ?? 0) + 1;
      }
    }
  }
  return c;
}
