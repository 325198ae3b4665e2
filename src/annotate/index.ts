/**
 * The built-in annotators CTXPRO needs: tokenizer + tagger per language, English pronoun coreference,
 * and the fast_align-based one-to-one word aligner.
 *
 * Layout:
 * - types.ts: the annotation interfaces shared with src/ctxpro, `Annotators` (what identify needs, with its
 *   `prepare` and `retag` hooks) among them.
 * - morph.ts: the tagger all languages share (`MorphTagger`, `loadDefaultMorph`); morph-model.ts its model and
 *   training; tagger.ts, tense.ts, lemmatizer.ts, tokenize.ts, closed-class.ts its parts.
 * - language-rules.ts: the contract between the shared tagger and one language (`LanguageRules`, `TaggerView`).
 * - lang/<lang>.ts (en, de, es, fr, it, pl, pt, ru): everything particular to one language, as its
 *   `LanguageRules`, looked up once per tagger (lang/index.ts): its tables, the passes over the tagger's labels
 *   and words, the cases its prepositions govern and its endings leave, and the passes that re-read its side of
 *   an aligned document. lang/romance.ts holds what es, it, pt and fr share (object clitics that are homographs
 *   of articles).
 * - reread.ts: the passes that re-read a tagged line with the verb lexicon, for every language that has one;
 *   aligned-retag.ts: the passes that re-read the target after word alignment, composed per language.
 * - lexicons.ts, noun-lexicon.ts, verb-lexicons.ts, apertium.ts, russian-az.ts, wordnet.ts: the word lists and
 *   analysers the taggers and the resolver consult.
 * - coref*.ts: the English pronoun resolver; aligner.ts, matching.ts, tag-anchors.ts: the word aligner.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { InputError } from "../io/errors.js";
import { readText } from "../io/lines.js";
import type { CorefResolver, MorphAnnotator, WordAligner } from "./types.js";
import { defaultModelDir, loadDefaultMorph } from "./morph.js";
import { COREF_FORMAT, parseAnimacy, PronounResolver, type CorefModel } from "./coref.js";
import { FastAlignWordAligner, type FastAlignWordAlignerOptions } from "./aligner.js";

export { MorphTagger, loadDefaultMorph, loadMorphModel, trainMorph } from "./morph.js";
export { PronounResolver, ANAPHORS, trainCoref } from "./coref.js";
export { FastAlignWordAligner, combinedPosteriors } from "./aligner.js";
export { maxWeightMatching, matchLinks, addAnchors } from "./matching.js";
export { tokenize, SUPPORTED_LANGS, isSupportedLang } from "./tokenize.js";

/**
 * Loads the shipped English resolver (data/models/coref-en.json.gz + data/lexicons/en-animacy.tsv.gz,
 * and data/lexicons/en-wordnet-animacy.tsv.gz when the model uses WordNet features).
 */
export function loadDefaultCoref(modelDir = defaultModelDir()): PronounResolver {
  const path = join(modelDir, "coref-en.json.gz");
  const lexPath = join(modelDir, "..", "lexicons", "en-animacy.tsv.gz");
  if (!existsSync(path)) throw new InputError(`no coreference model at ${path} (train it with scripts/train-coref.ts)`);
  let model: CorefModel;
  try {
    model = JSON.parse(readText(path)) as CorefModel;
  } catch (e) {
    throw new InputError(`not a JSON coreference model (${(e as Error).message})`, path);
  }
  if (model.format !== COREF_FORMAT) throw new InputError(`not a ${COREF_FORMAT} model`, path);
  const lex = existsSync(lexPath) ? parseAnimacy(readText(lexPath)) : new Map<string, number[]>();
  let wn: Map<string, number[]> | undefined;
  if (model.features?.some((f) => f === "wn" || f === "agree")) {
    const wnPath = join(modelDir, "..", "lexicons", "en-wordnet-animacy.tsv.gz");
    if (!existsSync(wnPath)) throw new InputError(`the coreference model needs the WordNet animacy lexicon ${wnPath} (scripts/derive-wordnet-animacy.ts)`);
    wn = parseAnimacy(readText(wnPath));
  }
  return new PronounResolver(model, lex, undefined, wn);
}

export interface DefaultAnnotators {
  morph: { en: MorphAnnotator; tgt: MorphAnnotator };
  aligner: WordAligner;
  coref: CorefResolver;
}

/** English + `lang` taggers, the English resolver and a fast_align aligner (trained on what it aligns). */
export function createDefaultAnnotators(lang: string, alignerOptions: FastAlignWordAlignerOptions = {}): DefaultAnnotators {
  if (lang === "en") throw new InputError("the other language must not be English");
  const tgt = loadDefaultMorph(lang);
  return { morph: { en: loadDefaultMorph("en"), tgt }, aligner: new FastAlignWordAligner(alignerOptions), coref: loadDefaultCoref() };
}
