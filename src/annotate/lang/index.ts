/**
 * The rules of each language the tagger supports, looked up once per tagger (`languageRules`).
 */
import type { LanguageRules } from "../language-rules.js";
import { ENGLISH } from "./en.js";
import { GERMAN } from "./de.js";
import { SPANISH } from "./es.js";
import { FRENCH } from "./fr.js";
import { ITALIAN } from "./it.js";
import { POLISH } from "./pl.js";
import { PORTUGUESE } from "./pt.js";
import { RUSSIAN } from "./ru.js";

const RULES: ReadonlyMap<string, LanguageRules> = new Map([ENGLISH, GERMAN, SPANISH, FRENCH, ITALIAN, POLISH, PORTUGUESE, RUSSIAN].map((r) => [r.lang, r]));

/** The rules of `lang` (a supported language; see src/annotate/tokenize.ts). */
export function languageRules(lang: string): LanguageRules {
  const r = RULES.get(lang);
  if (!r) throw new RangeError(`no language rules for '${lang}'`);
  return r;
}
