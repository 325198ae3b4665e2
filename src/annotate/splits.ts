import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { Lang } from "./tokenize.js";

/** Fixed data splits shared by the training and evaluation scripts. */

/** FNV-1a, so the split does not depend on file listing order. */
export function fnv(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** GUM documents held out from every model we train (tagger and coreference): about one in five. */
export function isGumHeldOut(docName: string): boolean {
  return fnv(docName.replace(/\.conllu(\.gz)?$/, "")) % 5 === 0;
}

/**
 * LitBank excerpts held out from the resolver: FNV of the file base name
 * ("1023_bleak_house_brat") mod 5 = 0, 14 of 100. The animacy lexicon is derived without them too.
 */
export function isLitbankHeldOut(base: string): boolean {
  return fnv(base.replace(/\.(txt|ann)$/, "")) % 5 === 0;
}

/**
 * ParCorFull English documents held out from the resolver: FNV of "sub/name"
 * ("news/01", "TED/000_779") mod 3 = 0: news 7 of 19, TED 5 of 10, DiscoMT 4 of 10.
 */
export function isParcorHeldOut(sub: string, name: string): boolean {
  return fnv(`${sub}/${name}`) % 3 === 0;
}

export const TREEBANKS: Record<Lang, string> = {
  en: "UD_English-EWT",
  de: "UD_German-GSD",
  es: "UD_Spanish-GSD",
  fr: "UD_French-GSD",
  it: "UD_Italian-ISDT",
  pl: "UD_Polish-LFG",
  pt: "UD_Portuguese-Bosque",
  ru: "UD_Russian-GSD",
};

/** UD dev (+ train where it exists) of `lang`; English adds the GUM documents not held out. Never test. */
export function trainingFiles(data: string, lang: Lang): string[] {
  const dir = join(data, "ud", TREEBANKS[lang]);
  const files = readdirSync(dir)
    .filter((f) => /-ud-(dev|train.*)\.conllu(\.gz)?$/.test(f))
    .map((f) => join(dir, f));
  if (lang === "en") {
    const gum = join(data, "coref", "gum");
    if (existsSync(gum)) for (const f of readdirSync(gum).sort()) if (/\.conllu(\.gz)?$/.test(f) && !isGumHeldOut(f)) files.push(join(gum, f));
  }
  return files;
}

