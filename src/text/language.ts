/**
 * Is a file in the language it is said to be in? A cheap check for swapped files (`-s` and `-r` exchanged, a
 * wrong `-l`), which would otherwise be scored silently: the share of letters in the language's script, and
 * for Latin-script languages which language's frequent function words dominate.
 */
import { InputError } from "../io/errors.js";

const SCRIPTS: Record<string, RegExp> = {
  Latin: /\p{Script=Latin}/u,
  Cyrillic: /\p{Script=Cyrillic}/u,
  Greek: /\p{Script=Greek}/u,
  Hebrew: /\p{Script=Hebrew}/u,
  Arabic: /\p{Script=Arabic}/u,
  Han: /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u,
  Hangul: /\p{Script=Hangul}/u,
  Devanagari: /\p{Script=Devanagari}/u,
  Thai: /\p{Script=Thai}/u,
};

const SCRIPT_OF: Record<string, keyof typeof SCRIPTS> = {
  ru: "Cyrillic", uk: "Cyrillic", be: "Cyrillic", bg: "Cyrillic", sr: "Cyrillic", mk: "Cyrillic", kk: "Cyrillic",
  el: "Greek", he: "Hebrew", ar: "Arabic", fa: "Arabic", ps: "Arabic", ur: "Arabic",
  zh: "Han", ja: "Han", ko: "Hangul", hi: "Devanagari", mr: "Devanagari", ne: "Devanagari", th: "Thai",
  en: "Latin", de: "Latin", fr: "Latin", es: "Latin", it: "Latin", pt: "Latin", pl: "Latin", cs: "Latin", nl: "Latin",
  sv: "Latin", da: "Latin", no: "Latin", fi: "Latin", et: "Latin", lv: "Latin", lt: "Latin", ro: "Latin", hu: "Latin",
  tr: "Latin", hr: "Latin", sl: "Latin", sk: "Latin", is: "Latin", ha: "Latin", liv: "Latin",
};

/** Frequent function words that no other listed language shares (Latin-script languages told apart). */
const FUNCTION_WORDS: Record<string, readonly string[]> = {
  en: ["the", "and", "of", "to", "is", "that", "it", "with", "was", "you", "this", "are", "have", "for", "not", "he", "she", "they", "we", "be"],
  de: ["der", "die", "und", "das", "ist", "nicht", "ich", "mit", "ein", "eine", "den", "auf", "zu", "sich", "auch", "wir", "sie", "dem", "es", "wird"],
  fr: ["le", "les", "et", "des", "est", "pas", "je", "vous", "il", "dans", "du", "pour", "qui", "une", "sur", "nous", "elle", "au", "avec", "ce"],
  es: ["el", "los", "las", "y", "por", "pero", "muy", "está", "yo", "usted", "también", "como", "sus", "hay", "esto", "del", "se", "lo", "es", "una"],
  it: ["il", "che", "di", "è", "gli", "della", "sono", "ho", "mi", "anche", "questo", "perché", "nel", "alla", "molto", "non", "per", "con", "si", "lei"],
  pt: ["os", "não", "em", "você", "isso", "uma", "um", "eu", "ele", "mais", "muito", "são", "foi", "também", "às", "da", "do", "com", "que", "na"],
  pl: ["nie", "się", "jest", "że", "na", "w", "z", "jak", "ale", "tak", "mnie", "jestem", "już", "tylko", "dla", "to", "o", "co", "czy", "jego"],
  cs: ["je", "se", "na", "že", "v", "to", "jsem", "ale", "jak", "tak", "pro", "by", "jsou", "už", "jeho", "které", "také", "být", "mi", "bylo"],
  nl: ["het", "een", "van", "en", "niet", "ik", "dat", "op", "zijn", "voor", "met", "ook", "maar", "wij", "naar", "heeft", "worden", "deze", "bij", "uit"],
};

const NAMES: Record<string, string> = {
  en: "English", de: "German", fr: "French", es: "Spanish", it: "Italian", pt: "Portuguese", pl: "Polish", cs: "Czech", nl: "Dutch",
  ru: "Russian", uk: "Ukrainian", zh: "Chinese", ja: "Japanese", ko: "Korean", he: "Hebrew", ar: "Arabic", hi: "Hindi", el: "Greek",
};

export function languageName(lang: string): string {
  return NAMES[lang] ?? lang;
}

/** Word -> its language, for the words of exactly one language's list (a word two lists share tells nothing). */
export function wordLanguageIndex(lists: Readonly<Record<string, readonly string[]>>): Map<string, string> {
  const m = new Map<string, string>();
  const dup = new Set<string>();
  for (const [l, ws] of Object.entries(lists))
    for (const w of ws) {
      if (m.has(w) && m.get(w) !== l) dup.add(w);
      m.set(w, l);
    }
  for (const w of dup) m.delete(w);
  return m;
}

const WORD_LANG = wordLanguageIndex(FUNCTION_WORDS);

export interface LanguageEvidence {
  /** Share of letters in the language's script (undefined: unknown language or too few letters). */
  scriptShare?: number;
  /** Function-word hits per language (Latin-script languages that have a list). */
  words: Map<string, number>;
  /** Word tokens seen. */
  tokens: number;
}

/** Evidence for the language of some lines (the first 2000 are enough). */
export function languageEvidence(lines: readonly string[], lang: string): LanguageEvidence {
  const script = SCRIPT_OF[lang] ? SCRIPTS[SCRIPT_OF[lang]!]! : undefined;
  let letters = 0;
  let inScript = 0;
  const words = new Map<string, number>();
  let tokens = 0;
  for (const line of lines.slice(0, 2000)) {
    // URLs, e-mail addresses, @handles and #tags are Latin in every language: not evidence.
    const t = line.replace(/\b(?:https?:\/\/|www\.)\S+|\S+@\S+\.\S+|[@#][\p{L}\p{N}_]+/gu, " ");
    for (const ch of t) {
      if (!/\p{L}/u.test(ch)) continue;
      letters++;
      if (script?.test(ch)) inScript++;
    }
    for (const w of t.toLowerCase().split(/[^\p{L}]+/u)) {
      if (w) tokens++;
      const l = WORD_LANG.get(w);
      if (l) words.set(l, (words.get(l) ?? 0) + 1);
    }
  }
  return { scriptShare: script && letters >= 20 ? inScript / letters : undefined, words, tokens };
}

/**
 * Throws an InputError naming the file when its lines are clearly not in `lang`: mostly another script, or
 * (Latin script) mostly another language's function words and few of its own. Undecidable cases pass.
 */
export function checkLanguage(lines: readonly string[], lang: string, file: string, hint: string): void {
  const ev = languageEvidence(lines, lang);
  if (ev.scriptShare !== undefined && ev.scriptShare < 0.5)
    throw new InputError(`is not in ${SCRIPT_OF[lang]} script as ${languageName(lang)} would be (${Math.round(100 * ev.scriptShare)}% of its letters); ${hint}`, file);
  if (SCRIPT_OF[lang] !== "Latin") return;
  const total = [...ev.words.values()].reduce((a, b) => a + b, 0);
  const own = ev.words.get(lang) ?? 0;
  const [top, topN] = [...ev.words.entries()].sort((a, b) => b[1] - a[1])[0] ?? ["", 0];
  // A language without a list is only told apart from English (its frequent words are a tenth of English text's tokens).
  const clear = FUNCTION_WORDS[lang] ? own / total < 0.2 : top === "en" && topN / Math.max(1, ev.tokens) > 0.1;
  if (total >= 20 && top !== lang && topN / total > 0.5 && clear)
    throw new InputError(`reads like ${languageName(top)}, not ${languageName(lang)} (frequent function words: ${topN} ${top}, ${own} ${lang}); ${hint}`, file);
}
