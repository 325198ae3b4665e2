/** MuDA's word lists (data/muda/muda-lists.json, from the paper's Tables 9-11) and per-language tag support. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PACKAGE_ROOT } from "../version.js";
import { InputError } from "../io/errors.js";
import { loadDefaultMorph } from "../annotate/morph.js";

export const MUDA_TAGS = ["lexical", "formality", "pronouns", "verb_form", "ellipsis"] as const;
export type MudaTag = (typeof MUDA_TAGS)[number];

/** The 14 MuDA target languages plus Polish (no entry in the paper's tables). */
export const MUDA_LANGS = ["ar", "de", "es", "fr", "he", "it", "ja", "ko", "nl", "pl", "pt", "ro", "ru", "tr", "zh"] as const;
/** Languages with a shipped morphological tagger (src/annotate). */
export const TAGGER_LANGS = new Set(["de", "es", "fr", "it", "pl", "pt", "ru"]);
/** Pro-drop languages where T-V shows on the verb (the paper's verb rule: Spanish, Italian; we add pt, pl). */
export const PRO_DROP = new Set(["es", "it", "pt", "pl"]);

export interface MudaLists {
  formality: Record<string, { T: string[]; V: string[] }>;
  pronouns: Record<string, Record<string, string[]>>;
  verbForms: Record<string, string[]>;
  udTense: Record<string, string>;
}

export function loadMudaLists(path = join(PACKAGE_ROOT, "data", "muda", "muda-lists.json")): MudaLists {
  const raw = JSON.parse(readFileSync(path, "utf8")) as MudaLists;
  const lower = (xs: string[]) => xs.map((x) => x.toLowerCase());
  const formality: MudaLists["formality"] = {};
  for (const [l, v] of Object.entries(raw.formality)) formality[l] = { T: lower(v.T), V: lower(v.V) };
  const pronouns: MudaLists["pronouns"] = {};
  for (const [l, m] of Object.entries(raw.pronouns)) pronouns[l] = Object.fromEntries(Object.entries(m).map(([k, v]) => [k.toLowerCase(), lower(v)]));
  return { formality, pronouns, verbForms: raw.verbForms, udTense: raw.udTense };
}

export interface LangSupport {
  lang: string;
  hasTagger: boolean;
  /** Tags this language gets. */
  tags: MudaTag[];
  /** Tags it does not get, with the reason. */
  missing: Partial<Record<MudaTag, string>>;
  /** Notes on how a tag is computed for this language (approximations). */
  notes: string[];
}

/**
 * Which tags a language gets. `taggerFeats` says which FEATS the language's tagger predicts (verb form
 * needs Tense: the shipped taggers have a separate tense model, src/annotate/tense.ts).
 */
export function languageSupport(lang: string, lists: MudaLists, taggerFeats?: ReadonlySet<string>): LangSupport {
  if (!(MUDA_LANGS as readonly string[]).includes(lang)) {
    throw new InputError(`unsupported target language '${lang}'. Supported: ${MUDA_LANGS.join(" ")}. ${supportSummary(lists)}`);
  }
  const hasTagger = TAGGER_LANGS.has(lang) && taggerFeats !== undefined;
  const tags: MudaTag[] = [];
  const missing: LangSupport["missing"] = {};
  const notes: string[] = [];
  tags.push("lexical");
  if (!hasTagger) notes.push("lexical: no lemmatiser; target words compared by lowercased surface form");
  if (lists.formality[lang] || (hasTagger && PRO_DROP.has(lang))) {
    tags.push("formality");
    if (!lists.formality[lang]) notes.push("formality: no Table 9 list; only the pro-drop verb rule");
    else if (hasTagger && PRO_DROP.has(lang)) notes.push("formality: Table 9 words plus the pro-drop verb rule");
  } else missing.formality = TAGGER_LANGS.has(lang) || lang === "ar" || lang === "he" ? "Table 9 gives no formality words" : "no list";
  if (lists.pronouns[lang]) tags.push("pronouns");
  else missing.pronouns = "Table 10 lists no ambiguous pronouns";
  if (!lists.verbForms[lang]) missing.verb_form = "Table 11 lists no ambiguous verb form";
  else if (!hasTagger) missing.verb_form = "no morphological tagger (needs VERB + Tense)";
  else if (!taggerFeats!.has("Tense")) missing.verb_form = "the tagger predicts no Tense feature (its model has no tense model)";
  else tags.push("verb_form");
  if (hasTagger) tags.push("ellipsis");
  else missing.ellipsis = "no POS tagger (needs VERB/NOUN/PROPN/PRON)";
  return { lang, hasTagger, tags, missing, notes };
}

/**
 * One line per language: the tags it gets. `featsOf` gives the FEATS a language's tagger predicts;
 * by default the shipped model's are read (data/models), so the summary follows the models.
 */
export function supportSummary(lists: MudaLists, featsOf: (lang: string) => ReadonlySet<string> | undefined = shippedFeats): string {
  return MUDA_LANGS.map((l) => `${l}: ${languageSupport(l, lists, TAGGER_LANGS.has(l) ? featsOf(l) : undefined).tags.join(",")}`).join("; ");
}

function shippedFeats(lang: string): ReadonlySet<string> | undefined {
  try {
    return loadDefaultMorph(lang).predictedFeats;
  } catch {
    return undefined;
  }
}
