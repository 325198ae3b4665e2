/**
 * The built-in annotators CTXPRO needs: tokenizer + tagger per language, English pronoun coreference,
 * and the fast_align-based one-to-one word aligner.
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
