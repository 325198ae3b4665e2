/**
 * Russian morphology from the npm package `az` (Az.js 0.2.3, MIT; its dictionaries are OpenCorpora's,
 * CC-BY-SA, compiled by pymorphy2 and shipped inside the package as DAWG files, about 11 MB): for each
 * word form, its analyses (part of speech, grammemes, normal form, a probability). Nothing is fetched:
 * the package reads its own `dicts/` folder. Az loads its files asynchronously; here its `load` hook
 * is replaced by synchronous reads whose callbacks run once every file is in (our taggers are
 * synchronous), so `azMorph()` returns a ready analyser. Loaded on first use, Russian only.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/** One analysis of a word form (the part of Az.js's Parse this module uses). */
export interface AzParse {
  /** OpenCorpora part of speech: NOUN, ADJF, ADJS, VERB, INFN, PRTF, PRTS, GRND, NPRO, ... */
  readonly pos: string;
  /** Normal form (infinitive of verb forms and participles; nominative singular of nouns). */
  readonly lemma: string;
  /** OpenCorpora grammemes of the analysis (perf/impf, anim/inan, masc/femn/neut, nomn/gent/..., ...). */
  readonly grammemes: ReadonlySet<string>;
  /** Az's estimate P(analysis | word), from the OpenCorpora corpus; analyses come best first. */
  readonly score: number;
  /** True for an analysis from the dictionary itself (not guessed from a suffix or prefix). */
  readonly dictionary: boolean;
}

interface AzTag {
  POST?: string;
  stat?: string[];
  flex?: string[];
}
interface AzRawParse {
  tag: AzTag;
  parser?: string;
  score: number;
  normalize(): { word?: string } | undefined;
}
interface AzModule {
  load: (url: string, responseType: string, callback: (err: unknown, data?: unknown) => void) => void;
  Morph: ((word: string, config?: Record<string, unknown>) => AzRawParse[]) & {
    init: (path: string, callback: (err: unknown) => void) => void;
  };
}

const require = createRequire(import.meta.url);

let analyser: ((form: string) => readonly AzParse[]) | undefined;

/** Az.js's analyser, loaded (synchronously) on first call. */
export function azMorph(): (form: string) => readonly AzParse[] {
  if (analyser) return analyser;
  const Az = require("az") as AzModule;
  const dicts = join(dirname(require.resolve("az")), "..", "dicts");
  const pending: (() => void)[] = [];
  const original = Az.load;
  // Every file is read at once; the callbacks wait until init has counted all of them (it finishes
  // on its counter reaching zero, so calling them at once would finish after the first file).
  Az.load = (url, type, cb) => {
    const data = readFileSync(url);
    if (type === "json") pending.push(() => cb(null, JSON.parse(data.toString("utf8"))));
    else pending.push(() => cb(null, data.buffer.slice(data.byteOffset, data.byteOffset + data.length)));
  };
  let failure: unknown;
  let ready = false;
  try {
    Az.Morph.init(dicts, (err) => {
      if (err) failure = err;
      else ready = true;
    });
    while (pending.length) pending.shift()!();
  } finally {
    Az.load = original;
  }
  if (failure || !ready) throw new Error(`az: could not load its dictionaries from ${dicts}: ${String(failure ?? "not ready")}`);
  const cache = new Map<string, readonly AzParse[]>();
  analyser = (form) => {
    let out = cache.get(form);
    if (out) return out;
    out = Az.Morph(form).map((p) => ({
      pos: p.tag.POST ?? "",
      // Analyses of non-words (numbers, Latin, punctuation) have no normal form: the form itself.
      lemma: (p.normalize()?.word ?? form).toLowerCase(),
      grammemes: new Set([...(p.tag.stat ?? []), ...(p.tag.flex ?? [])]),
      score: p.score,
      dictionary: p.parser === "Dictionary",
    }));
    if (cache.size > 200_000) cache.clear();
    cache.set(form, out);
    return out;
  };
  return analyser;
}

/** UD parts of speech an OpenCorpora part of speech may come out as in the UD Russian treebanks. */
const UPOS_OF: Record<string, readonly string[]> = {
  NOUN: ["NOUN", "PROPN"],
  ADJF: ["ADJ", "DET"],
  ADJS: ["ADJ"],
  COMP: ["ADJ", "ADV"],
  VERB: ["VERB", "AUX"],
  INFN: ["VERB", "AUX"],
  PRTF: ["VERB", "ADJ"],
  PRTS: ["VERB", "ADJ"],
  GRND: ["VERB"],
  NUMR: ["NUM"],
  ADVB: ["ADV"],
  NPRO: ["PRON", "DET"],
  PRED: ["ADV", "VERB", "ADJ"],
  PREP: ["ADP"],
  CONJ: ["CCONJ", "SCONJ"],
  PRCL: ["PART"],
  INTJ: ["INTJ"],
};
/** Parts of speech whose analyses without case grammemes still allow any case (indeclinables). */
const NOMINAL = new Set(["NOUN", "ADJF", "ADJS", "PRTS", "NPRO", "NUMR"]);
/** OpenCorpora case grammemes -> UD Case values (the second genitive is also UD's partitive). */
const UD_CASES: Record<string, readonly string[]> = {
  nomn: ["Nom"], gent: ["Gen"], gen1: ["Gen"], gen2: ["Gen", "Par"], datv: ["Dat"], accs: ["Acc"], acc2: ["Acc"],
  ablt: ["Ins"], loct: ["Loc"], loc1: ["Loc"], loc2: ["Loc"], voct: ["Voc"],
};

/**
 * What az's dictionary allows a Russian word to be tagged: a test on a (UPOS, Case) pair, or undefined
 * when the dictionary does not know the word (names, non-words, guesses from a suffix: no constraint).
 * A UPOS is allowed when one dictionary analysis maps to it (UPOS_OF); a label with a Case only when
 * one of those analyses is in that case (a nominal analysis without case grammemes allows any; a verb
 * form's none, so "берегу" cannot come out as a dative participle).
 */
export function azLabelTest(word: string): ((upos: string, kase: string | undefined) => boolean) | undefined {
  const parses = azMorph()(word).filter((p) => p.dictionary && UPOS_OF[p.pos]);
  if (!parses.length) return undefined;
  // Per UPOS: the cases its analyses allow, "any" (a nominal analysis without case grammemes), and
  // whether a label without Case fits (verbs, adverbs: a finite verb allows no participle's case).
  const cases = new Map<string, { set: Set<string>; any: boolean; caseless: boolean }>();
  for (const p of parses) {
    const cs = [...p.grammemes].flatMap((g) => UD_CASES[g] ?? []);
    const nominal = NOMINAL.has(p.pos);
    for (const u of UPOS_OF[p.pos]!) {
      let cur = cases.get(u);
      if (!cur) cases.set(u, (cur = { set: new Set(), any: false, caseless: false }));
      for (const c of cs) cur.set.add(c);
      if (!cs.length) {
        if (nominal) cur.any = true;
        cur.caseless = true;
      }
    }
  }
  return (upos, kase) => {
    const c = cases.get(upos);
    if (c === undefined) return false;
    if (kase === undefined) return true;
    return c.any || c.set.has(kase);
  };
}
