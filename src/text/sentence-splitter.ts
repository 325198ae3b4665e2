/**
 * A port of the Python `sentence_splitter` package (mediacloud/sentence-splitter 1.4, the version in
 * CTXPRO's paper/pip-freeze.txt), which CTXPRO's released scorer calls to take the last sentence of a
 * translation. `--compat ctxpro` uses it so that published CTXPRO numbers are reproduced; the default
 * scorer uses `sentences.ts` instead (see docs/ctxpro.md for why).
 *
 * The algorithm (Koehn & Schroeder's split-sentences.perl) is reproduced step by step, with the same
 * regular expressions. The nonbreaking-prefix lists are NOT the package's (LGPL data files, not copied):
 * they are this project's lists from `sentences.ts` plus every single uppercase letter, as in the Moses
 * files. A prefix missing here (a rare abbreviation followed by an uppercase word) can split where the
 * package does not; docs/ctxpro.md measures how often that changes a last sentence.
 */
import { NONBREAKING, COMMON_NONBREAKING, NUMERIC_ONLY } from "./sentences.js";

type PrefixType = 1 | 2; // 1 default, 2 numeric only

/**
 * Where the package's lists differ from ours, found by comparing last sentences with the package's
 * on the DeepL outputs of CTXPRO's paper (docs/ctxpro.md): its es/it lists hold "No"/"no" as plain
 * prefixes (so "No. No, ..." stays one sentence), its de/it/pt lists English titles, de/fr/it/pt
 * lowercase single letters, and its es list lacks "Sra", "Srta", "Dra".
 */
const EXTRA: Record<string, string[]> = {
  de: ["Mr", "Ms", "Mrs", "Art", "Co", "z"],
  es: ["No", "no", "Mr", "mm", "ex"],
  fr: ["art", "Co"],
  it: ["No", "no", "Mr", "Mrs", "Jr", "Jan", "Corp"],
  pl: ["em", "im"],
  pt: ["Mrs", "vi", "ex", "Al"],
  ru: ["D"],
};
const REMOVE: Record<string, string[]> = { es: ["Sra", "Srta", "Dra"] };
const LOWER_LETTERS = new Set(["de", "fr", "it", "pt"]);

const tables = new Map<string, Map<string, PrefixType>>();
function prefixTable(lang: string): Map<string, PrefixType> {
  let t = tables.get(lang);
  if (t) return t;
  t = new Map();
  const letters = (lang === "ru" ? "АБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЭЮЯ" : "") + "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
  for (const c of letters) t.set(c, 1);
  if (LOWER_LETTERS.has(lang)) for (const c of "abcdefghijklmnopqrstuvwxyz") t.set(c, 1);
  for (const p of COMMON_NONBREAKING) t.set(p, 1);
  for (const p of NONBREAKING[lang] ?? []) t.set(p, 1);
  // Moses marks these "#NUMERIC_ONLY#": no break only when a number follows.
  for (const p of NUMERIC_ONLY) t.set(p, 2);
  for (const p of EXTRA[lang] ?? []) t.set(p, 1);
  for (const p of REMOVE[lang] ?? []) t.delete(p);
  tables.set(lang, t);
  return t;
}

/** The German list holds one- and two-digit numbers ("am 3. Oktober"). */
function isPrefix(prefixes: Map<string, PrefixType>, lang: string, prefix: string, type: PrefixType): boolean {
  if (prefix === "") return false;
  if (type === 1 && lang === "de" && /^[0-9]{1,2}$/.test(prefix)) return true;
  return prefixes.get(prefix) === type;
}

// The package's patterns; \p{Initial_Punctuation} = \p{Pi}, \p{Final_Punctuation} = \p{Pf},
// \p{Uppercase_Letter} = \p{Lu}, \p{Other_Letter} = \p{Lo}. Python's `regex` \w (Unicode) is
// alphabetic, marks, decimal digits, connector punctuation and the join controls.
const STARTER = String.raw`['"(\[\u00bf\u00a1\p{Pi}]*[\p{Lu}\p{Lo}]`;
const R1 = new RegExp(String.raw`([?!]) +(${STARTER})`, "gu");
const R2 = new RegExp(String.raw`(\.[\.]+) +(${STARTER})`, "gu");
const R3 = new RegExp(String.raw`([?!\.][ ]*['")\]\p{Pf}]+) +(['"(\[\u00bf\u00a1\p{Pi}]*[ ]*[\p{Lu}\p{Lo}])`, "gu");
const R4 = new RegExp(String.raw`([?!\.]) +(['"\[\u00bf\u00a1\p{Pi}]+[ ]*[\p{Lu}\p{Lo}])`, "gu");
const FINAL_PERIOD = /([\p{Alphabetic}\p{M}\p{Nd}\p{Pc}\u200c\u200d.\-]*)(['")\]%\p{Pf}]*)(\.+)$/u;
const ACRONYM = /(\.)[\p{Lu}\p{Lo}\-]+(\.+)$/u;
const NEXT_STARTS = /^([ ]*['"(\[\u00bf\u00a1\p{Pi}]*[ ]*[\p{Lu}\p{Lo}0-9])/u;

/** `SentenceSplitter(language=lang).split(text)`; "" gives [], as in the package. */
export function splitSentencesCtxpro(text: string, lang: string): string[] {
  if (!text) return [];
  const lg = lang.toLowerCase().slice(0, 2);
  const prefixes = prefixTable(lg);
  let t = text.replace(R1, "$1\n$2").replace(R2, "$1\n$2").replace(R3, "$1\n$2").replace(R4, "$1\n$2");
  const words = t.split(/ +/u);
  t = "";
  for (let i = 0; i < words.length - 1; i++) {
    const m = FINAL_PERIOD.exec(words[i]);
    if (m) {
      const prefix = m[1];
      const startingPunct = m[2];
      const honorific = isPrefix(prefixes, lg, prefix, 1) && startingPunct === "";
      if (honorific || ACRONYM.test(words[i])) {
        // no break
      } else if (NEXT_STARTS.test(words[i + 1])) {
        const numeric = isPrefix(prefixes, lg, prefix, 2) && startingPunct === "" && /^[0-9]+/u.test(words[i + 1]);
        if (!numeric) words[i] = words[i] + "\n";
      }
    }
    t = t + words[i] + " ";
  }
  t = t + words[words.length - 1];
  t = t.replace(/ +/g, " ").replace(/\n /g, "\n").replace(/ \n/g, "\n");
  return pyStrip(t).split("\n");
}

/** Python's str.strip(): also strips \x1c-\x1f and \x85, which String.prototype.trim keeps. */
export function pyStrip(s: string): string {
  return s.replace(/^[\s\x1c-\x1f\x85]+|[\s\x1c-\x1f\x85]+$/gu, "");
}

/** CTXPRO's get_last: the last sentence, or the input itself when the splitter returns nothing. */
export function lastSentenceCtxpro(text: string, lang: string): string {
  const s = splitSentencesCtxpro(text, lang);
  return s.length === 0 ? text : s[s.length - 1];
}
