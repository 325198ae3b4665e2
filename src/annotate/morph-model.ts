/**
 * The morphological model's format (data/models/morph-<lang>.json.gz) and its training on UD treebanks
 * (scripts/train-morph.ts): the tokenizer's lexicon, the joint UPOS/FEATS tagger, the tense tagger and the
 * lemmatiser. src/annotate/morph.ts runs it.
 */
import { InputError } from "../io/errors.js";
import { readText } from "../io/lines.js";
import { surfaceTokens, type UdSentence, type UdWord } from "./conllu.js";
import { trainLemmatizer, type LemmatizerModel } from "./lemmatizer.js";
import { makeLabel, trainTagger, type TaggerModel, type TrainOptions, type TrainSentence } from "./tagger.js";
import { trainTense, type TenseModel } from "./tense.js";
import { splitEnclitics, tokenize, type Lang, type TokenizerLexicon } from "./tokenize.js";

export const MORPH_FORMAT = "proneval-morph/1";

export interface MorphModel {
  format: string;
  lang: string;
  /** Where the model came from (treebanks, token count), for the record. */
  trainedOn: string;
  tagger: TaggerModel;
  /** Tense of VERB/AUX words (src/annotate/tense.ts); absent in models trained before it existed. */
  tense?: TenseModel;
  lemmatizer: LemmatizerModel;
  tokenizer: { contractions: Record<string, string[]>; plain: string[]; verbs: string[] };
}

export interface MorphTrainOptions extends TrainOptions {
  trainedOn?: string;
}

/** Tokenizer lexicon learned from treebank surface tokens. */
export function learnTokenizerLexicon(sents: readonly UdSentence[], lang: Lang): MorphModel["tokenizer"] {
  const asMwt = new Map<string, Map<string, number>>();
  const asPlain = new Map<string, number>();
  const verbs = new Set<string>();
  for (const s of sents) {
    for (const st of surfaceTokens(s)) {
      const lf = st.form.toLowerCase();
      if (st.words.length > 1) {
        const key = st.words.map((w) => w.form.toLowerCase()).join(" ");
        let m = asMwt.get(lf);
        if (!m) asMwt.set(lf, (m = new Map()));
        m.set(key, (m.get(key) ?? 0) + 1);
      } else asPlain.set(lf, (asPlain.get(lf) ?? 0) + 1);
      for (const w of st.words) if ((w.upos === "VERB" || w.upos === "AUX") && /(r|ndo)$/.test(w.form.toLowerCase())) verbs.add(w.form.toLowerCase());
    }
  }
  const contractions: Record<string, string[]> = {};
  const base: TokenizerLexicon = { verbs };
  for (const [lf, m] of asMwt) {
    const [split, n] = [...m.entries()].sort((a, b) => b[1] - a[1])[0]!;
    const total = [...m.values()].reduce((a, b) => a + b, 0) + (asPlain.get(lf) ?? 0);
    const pieces = split.split(" ");
    const ours = tokenize(lf, lang, base).map((t) => t.text.toLowerCase());
    if (ours.join(" ") === split) continue; // the rules already do it
    if (n >= 2 && n / total >= 0.9) contractions[lf] = pieces;
  }
  // Plain words our rules would wrongly split (aujourd'hui, muerte): never split them.
  const plain: string[] = [];
  const lex: TokenizerLexicon = { verbs, contractions: new Map(Object.entries(contractions)) };
  for (const lf of asPlain.keys()) {
    if (asMwt.has(lf) || /\s/.test(lf)) continue;
    if (tokenize(lf, lang, lex).length > 1 || splitEnclitics(lf, lang, verbs)) plain.push(lf);
  }
  const usedVerbs = lang === "es" || lang === "it" ? [...verbs].sort() : [];
  return { contractions, plain: plain.sort(), verbs: usedVerbs };
}

/** The words a runtime tokenizer would produce for a treebank sentence, with their gold analyses. */
export function trainingWords(s: UdSentence, lang: Lang, lex: TokenizerLexicon): UdWord[] {
  const out: UdWord[] = [];
  for (const st of surfaceTokens(s)) {
    if (st.words.length === 1) {
      out.push(st.words[0]!);
      continue;
    }
    const pieces = tokenize(st.form, lang, lex);
    if (pieces.length === st.words.length) {
      st.words.forEach((w, i) => out.push({ ...w, form: pieces[i]!.text }));
      continue;
    }
    // Not split at runtime: one token carrying its content word's analysis.
    const content = st.words.find((w) => ["VERB", "AUX", "NOUN", "ADJ", "PROPN", "PRON"].includes(w.upos)) ?? st.words[0]!;
    out.push({ ...content, form: st.form });
  }
  return out;
}

export function trainMorph(lang: Lang, sents: readonly UdSentence[], opts: MorphTrainOptions = {}): MorphModel {
  const tokLex = learnTokenizerLexicon(sents, lang);
  const lex: TokenizerLexicon = {
    contractions: new Map(Object.entries(tokLex.contractions)),
    plain: new Set(tokLex.plain),
    verbs: new Set(tokLex.verbs),
  };
  const train: TrainSentence[] = [];
  const lemmaItems: { form: string; upos: string; lemma: string }[] = [];
  const tenseGold: (string | undefined)[][] = [];
  for (const s of sents) {
    const words = trainingWords(s, lang, lex);
    train.push({ words: words.map((w) => w.form), labels: words.map((w) => makeLabel(w.upos, w.feats)) });
    tenseGold.push(words.map((w) => w.feats.Tense));
    for (const w of words) lemmaItems.push({ form: w.form, upos: w.upos, lemma: w.lemma });
  }
  const suffixLen = opts.suffixLen ?? (lang === "pl" || lang === "ru" ? 5 : 4);
  const tagger = trainTagger(train, { ...opts, suffixLen });
  const tense = trainTense(
    train.map((t, k) => ({ ...t, tenses: tenseGold[k]! })),
    { epochs: opts.epochs, seed: opts.seed, suffixLen, minWeight: opts.minWeight, log: opts.log },
  );
  const lemmatizer = trainLemmatizer(lemmaItems, lang);
  return { format: MORPH_FORMAT, lang, trainedOn: opts.trainedOn ?? "", tagger, ...(tense ? { tense } : {}), lemmatizer, tokenizer: tokLex };
}

/** JSON text of a model (writeFileAtomic gzips it when the path ends in .gz). */
export function serializeMorph(model: MorphModel): string {
  return JSON.stringify(model);
}

export function loadMorphModel(path: string): MorphModel {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readText(path));
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw new InputError(`not a JSON morphology model (${(e as Error).message})`, path);
  }
  const m = parsed as MorphModel;
  if (!m || m.format !== MORPH_FORMAT) throw new InputError(`not a ${MORPH_FORMAT} model`, path);
  return m;
}
