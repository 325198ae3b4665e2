/**
 * Rule-based sentence segmentation, after the Moses `split-sentences.perl` algorithm (Koehn et al.),
 * which is what CTXPRO's scorer uses through the Python `sentence_splitter` package (the paper itself
 * used ERSATZ, a learned model we do not have). A boundary is placed after sentence-final punctuation
 * (. ? ! … and runs of them, possibly followed by closing quotes or brackets) when the next word starts,
 * after optional opening quotes, brackets, ¿ ¡ or a dialogue dash, with an uppercase letter or a digit;
 * a period does not end a sentence after a nonbreaking prefix of the language (titles, abbreviations,
 * single-letter initials), after an acronym with inner periods (U.S.), or after a numeric prefix (No.)
 * followed by a number. Line breaks always end a sentence. The prefix lists below are abbreviated
 * versions of the Moses lists.
 */

export const COMMON_NONBREAKING = ["Dr", "Prof", "St", "vs", "etc", "Nr", "No", "Art", "pp", "ca", "cf", "approx"];

export const NONBREAKING: Record<string, string[]> = {
  en: [
    "Mr", "Mrs", "Ms", "Messrs", "Mme", "Mlle", "Jr", "Sr", "Mt", "Ft", "Rev", "Hon", "Gen", "Gov", "Capt", "Col", "Lt",
    "Sgt", "Cpl", "Pvt", "Maj", "Adm", "Cmdr", "Sen", "Rep", "Supt", "Insp", "Bros", "Corp", "Inc", "Ltd", "Co", "Dept",
    "Jan", "Feb", "Mar", "Apr", "Jun", "Jul", "Aug", "Sep", "Sept", "Oct", "Nov", "Dec", "e.g", "i.e", "v", "Ph",
  ],
  de: [
    "Hr", "Hrn", "Fr", "Frl", "bzw", "usw", "z.B", "d.h", "u.a", "evtl", "ggf", "vgl", "Str", "Tel", "Abs", "Bd", "Dipl",
    "Ing", "Mio", "Mrd", "Std", "Jh", "Jhd", "inkl", "zzgl", "bspw", "sog", "Nr", "St",
  ],
  fr: ["M", "MM", "Mme", "Mmes", "Mlle", "Mlles", "Me", "Mgr", "Pr", "Dr", "Drs", "Ste", "av", "bd", "env", "p", "cf", "ex", "vol", "chap"],
  es: ["Sr", "Sra", "Sres", "Srta", "Sras", "Dr", "Dra", "D", "Da", "Ud", "Uds", "Vd", "Vds", "Lic", "Ing", "Av", "Avda", "pág", "núm", "aprox", "admón", "Excmo", "Ilmo"],
  it: ["Sig", "Sigg", "Sig.ra", "Sig.na", "Dott", "Dott.ssa", "Prof.ssa", "Avv", "Ing", "Geom", "Rag", "Arch", "Egr", "Gent", "ecc", "pag", "pagg", "ca", "cfr", "es"],
  pt: ["Sr", "Sra", "Srs", "Sras", "Srta", "Dr", "Dra", "Exmo", "Exma", "Ilmo", "Ilma", "Av", "pág", "págs", "núm", "aprox", "Prof", "Profa", "Eng"],
  pl: ["np", "tzn", "itd", "itp", "prof", "dr", "inż", "mgr", "ul", "al", "pl", "św", "ks", "gen", "płk", "mjr", "kpt", "por", "tj", "wg", "ok", "godz", "tys", "mln", "mld", "zł", "r", "w", "nr"],
  ru: ["г", "гг", "т", "т.е", "т.д", "т.п", "т.к", "ул", "пр", "д", "кв", "им", "стр", "см", "тыс", "млн", "млрд", "руб", "коп", "проф", "акад", "доц", "напр", "др"],
};

/** Prefixes that do not end a sentence only when a number follows (No. 5, Art. 3). */
export const NUMERIC_ONLY = new Set(["No", "Nr", "Art", "pp", "Nos", "nr", "art", "n", "núm", "p", "pag", "pág"]);

/** Languages where "3." is an ordinal ("am 3. Oktober") rather than a sentence end. */
const ORDINAL_DIGITS = new Set(["de", "pl", "ru"]);

const FINAL = /[.?!…]/u;
const CLOSING = /['"”’»)\]›」』]/u;
const OPENING = /^['"“‘«(\[¿¡‹「『]*/u;
const DASH = /^[-–—]+$/u;
const ONLY_OPENING = /^['"“‘«(\[¿¡‹「『]+$/u;
/** A word of closing or final punctuation only (French "?" or "»" written apart). */
const ONLY_TRAILING = /^['"”’»)\]›」』.?!…]+$/u;
const UPPER_OR_DIGIT = /^[\p{Lu}\p{Lt}\p{N}]/u;

const prefixCache = new Map<string, Set<string>>();
function prefixesFor(lang: string): Set<string> {
  const key = lang.toLowerCase().slice(0, 2);
  let set = prefixCache.get(key);
  if (!set) {
    set = new Set([...COMMON_NONBREAKING, ...(NONBREAKING[key] ?? NONBREAKING.en)]);
    prefixCache.set(key, set);
  }
  return set;
}

/** Whether the word after a candidate boundary starts a sentence; `after` is the word after that. */
function startsSentence(next: string, after: string | undefined): boolean {
  // A lone dialogue dash or opening quote ("- Yes", "« Oui") defers to the word after it.
  if (DASH.test(next) || ONLY_OPENING.test(next)) return after !== undefined && UPPER_OR_DIGIT.test(after.replace(OPENING, ""));
  const rest = next.replace(OPENING, "").replace(/^[-–—]+/u, "");
  return UPPER_OR_DIGIT.test(rest);
}

/** Whether a sentence may end after `word` (given the words that follow). */
function endsSentence(word: string, next: string, after: string | undefined, lang: string): boolean {
  let core = word;
  while (core.length && CLOSING.test(core[core.length - 1])) core = core.slice(0, -1);
  if (!core.length || !FINAL.test(core[core.length - 1])) return false;
  if (!startsSentence(next, after)) return false;
  // "?", "!", "…" and runs of dots end a sentence whatever precedes them.
  const m = /[.?!…]+$/u.exec(core)!;
  if (m[0] !== ".") return true;
  const prefix = core.slice(0, -1).replace(OPENING, "");
  if (prefix === "") return true;
  // Acronyms and abbreviations with inner periods (U.S., z.B.).
  if (prefix.includes(".") && /\p{L}/u.test(prefix)) return false;
  const prefixes = prefixesFor(lang);
  const nextCore = next.replace(OPENING, "");
  if (NUMERIC_ONLY.has(prefix) && /^\p{N}/u.test(nextCore)) return false;
  if (prefixes.has(prefix) && !NUMERIC_ONLY.has(prefix)) return false;
  // Single-letter initials (J. Smith).
  if (/^\p{Lu}$/u.test(prefix)) return false;
  if (ORDINAL_DIGITS.has(lang.slice(0, 2)) && /^\p{N}+$/u.test(prefix)) return false;
  return true;
}

/** Splits text into sentences (see the module comment for the algorithm). Empty input gives []. */
export function splitSentences(text: string, lang = "en"): string[] {
  const out: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const words = line.split(/\s+/u).filter((w) => w.length > 0);
    let cur: string[] = [];
    let left = "";
    for (let k = 0; k < words.length; k++) {
      cur.push(words[k]);
      // Punctuation written apart belongs to the word before it when deciding a boundary.
      left = k > 0 && ONLY_TRAILING.test(words[k]) ? left + words[k] : words[k];
      if (k + 1 < words.length && endsSentence(left, words[k + 1], words[k + 2], lang)) {
        out.push(cur.join(" "));
        cur = [];
      }
    }
    if (cur.length) out.push(cur.join(" "));
  }
  return out;
}

/** The last sentence of a text (the text itself, trimmed, when it has no sentence break). */
export function lastSentence(text: string, lang = "en"): string {
  const s = splitSentences(text, lang);
  return s.length ? s[s.length - 1] : text.trim();
}
