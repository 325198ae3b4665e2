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
}

interface AzTag {
  POST?: string;
  stat?: string[];
  flex?: string[];
}
interface AzRawParse {
  tag: AzTag;
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
    }));
    if (cache.size > 200_000) cache.clear();
    cache.set(form, out);
    return out;
  };
  return analyser;
}
