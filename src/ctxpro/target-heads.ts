/**
 * Target-side noun-phrase heads for the CTXPRO engine: which target token heads a noun phrase (the inflection
 * rules' T_t and C_t), and which token of an antecedent's aligned span is its noun when the alignment or the
 * tagger points at a modifier instead (a *de / di* complement, a possessive or participle, an adjective, a
 * determiner whose noun is unlinked). The word lists are those of Spanish, Italian and Portuguese (Polish for
 * the adjective endings) and apply wherever their words occur.
 */
import type { AnnToken, SentenceAlignment } from "../annotate/types.js";
import { NOUNS, values } from "./tokens.js";

/** Words that may head a noun phrase without a noun (substantivised: ru *Больной*, pl *Innymi?*, *Ze mną*). */
const SUBSTANTIVISED = new Set(["ADJ", "DET", "NUM", "PRON"]);

/** Tags that end the run of words a modifier can belong to. */
const PHRASE_BREAK = new Set(["PUNCT", "ADP", "CCONJ", "SCONJ", "INTJ", "PART", "ADV", "X", "SYM", "VERB", "AUX"]);

/**
 * Whether token j heads a noun phrase: a noun or proper noun; an adjective, determiner or numeral with
 * no noun or pronoun after it and no noun before it in its run of words between punctuation, adpositions,
 * conjunctions, particles, adverbs and verbs (ru "Со всеми." yes; "Idealną, zdrową nerkę", "все это" no);
 * a pronoun with no noun before it in that run that is not a possessive or determiner of the next word
 * (pl "Ze mną?" yes, "jego kolegi" no).
 */
export function nominalHead(toks: readonly AnnToken[], j: number): boolean {
  const u = toks[j]!.upos;
  if (NOUNS.has(u)) return true;
  if (!SUBSTANTIVISED.has(u)) return false;
  if (u === "PRON") {
    // A pronoun right before a noun, adjective or determiner of its own case, or a genitive one there, is
    // a possessive or determiner ("do jego serca", "z moim dziełem"); "нам кучу денег", "Мне нужен врач" head.
    const next = toks[j + 1];
    if (next && (NOUNS.has(next.upos) || next.upos === "ADJ" || next.upos === "DET")) {
      const own = values(toks[j]!, "Case");
      if (own.includes("Gen") || values(next, "Case").some((c) => own.includes(c))) return false;
    }
  } else {
    for (let k = j + 1; k < toks.length && !PHRASE_BREAK.has(toks[k]!.upos); k++) {
      if (NOUNS.has(toks[k]!.upos) || toks[k]!.upos === "PRON") return false;
    }
  }
  for (let k = j - 1; k >= 0 && !PHRASE_BREAK.has(toks[k]!.upos); k--) {
    if (NOUNS.has(toks[k]!.upos)) return false;
  }
  return true;
}

/** Romance prepositions (and their contractions with the article) that link a noun to its noun complement. */
const OF_ADPS = new Set(["de", "di", "do", "da", "del", "della", "dello", "dell'", "dei", "degli", "delle", "dos", "das"]);

/**
 * The noun whose *de / di* complement target token k is: before k, across determiners,
 * adjectives and possessives, a preposition of OF_ADPS, and right before it (across adjectives) a noun;
 * undefined otherwise.
 */
export function genitiveHost(ts: readonly AnnToken[], k: number): number | undefined {
  let j = k - 1;
  while (j >= 0 && (ts[j].upos === "DET" || ts[j].upos === "ADJ" || (ts[j].upos === "PRON" && ts[j].feats.Poss === "Yes"))) j--;
  if (j < 0 || ts[j].upos !== "ADP" || !OF_ADPS.has(ts[j].text.toLowerCase())) return undefined;
  j--;
  while (j >= 0 && ts[j].upos === "ADJ") j--;
  return j >= 0 && ts[j].upos === "NOUN" ? j : undefined;
}

/** Possessive adjectives (es/it/pt), adjectives whatever the tagger says ("La herencia es tuya"). */
const POSSESSIVE_ADJ = new Set([
  "mío", "mía", "míos", "mías", "tuyo", "tuya", "tuyos", "tuyas", "suyo", "suya", "suyos", "suyas", "nuestro", "nuestra", "nuestros", "nuestras", "vuestro", "vuestra", "vuestros", "vuestras",
  "mio", "mia", "miei", "mie", "tuo", "tua", "tuoi", "tue", "suo", "sua", "suoi", "sue", "nostro", "nostri", "nostre", "vostro", "vostri", "vostre",
  "meu", "minha", "meus", "minhas", "teu", "teus", "tuas", "seu", "seus", "nosso", "nossa", "nossos", "nossas",
]);

/** Past-participle endings (es/pt -ado/-ido, it -ato/-ito and their inflections): adjectives when they follow a noun. */
const PARTICIPLE = /(?:ad|id|at|it)[oaie]s?$/;

/**
 * Whether target token k, stored as the antecedent's head, is an adjective rather than the noun:
 * a possessive adjective ("La herencia es tuya") or a past-participle form ("la carne contrassegnata",
 * "tecnologia nuclear clasificada") not right after a determiner or pronoun (then it heads its own phrase:
 * "la llamada", "tu vida"). Returns the index of the noun it belongs to, the head to take instead, when
 * that noun carries the token's gender and number: for a possessive, first the noun after it across
 * numerals and adjectives ("le nostre due figlie"); then the first noun before it, up to three words back
 * across adjectives (and adverbs, for a possessive or a participle tagged ADJ; a possessive also across its
 * copula: "La herencia es tuya"); for a participle the tagger called an adjective, also an agreeing word
 * tagged otherwise, with a mis-tagged word between and no determiner before it ("tecnologia/DET
 * nuclear/VERB clasificada/ADJ"). -1 when there is none and the token is a possessive (the antecedent is
 * refused); undefined otherwise. `tagged`: the token's tag before an adjective standing as a noun was read as one (`standsAsNoun`).
 */
export function adjectiveHead(lang: string, ts: readonly AnnToken[], k: number, tagged: string): number | undefined {
  const w = ts[k].text.toLowerCase();
  // A word tagged NOUN with an adjective's ending right after a noun it agrees with in gender and
  // number is that noun's adjective ("dispositivo cortical", "sieć energetyczną"): the noun is the head.
  // The word before must be a noun, not a mis-tagged prenominal word ("esas/NOUN chicas", "le mie/NOUN
  // credenziali", "gran/NOUN final") nor a word with an adjective's ending itself ("el auténtico/NOUN motivo").
  if (tagged === "NOUN" && ADJ_ENDING[lang]?.test(w) && k > 0 && ts[k - 1].upos === "NOUN" && agreesWith(ts[k], ts[k - 1])) {
    const p = ts[k - 1].text.toLowerCase();
    if (!ADJ_ENDING[lang].test(p) && !POSSESSIVE_ADJ.has(p) && !PRENOMINAL.has(p)) return k - 1;
  }
  if (lang !== "es" && lang !== "it" && lang !== "pt") return undefined;
  const possessive = POSSESSIVE_ADJ.has(w);
  if (!possessive && (!PARTICIPLE.test(w) || k === 0 || ts[k - 1].upos === "DET" || ts[k - 1].upos === "PRON")) return undefined;
  const g = values(ts[k], "Gender");
  const n = values(ts[k], "Number");
  const agrees = (t: AnnToken) => values(t, "Gender").some((x) => g.includes(x)) && values(t, "Number").some((x) => n.includes(x));
  // A possessive before its noun ("le nostre due figlie", "ai miei amici"), across numerals and adjectives
  // (the last word of the run may be a noun tagged ADJ).
  if (possessive) {
    for (let j = k + 1; j < Math.min(ts.length, k + 4); j++) {
      const t = ts[j];
      // The last word of the run, tagged ADJ, is the noun ("ai miei amici/ADJ che").
      const last = !ts[j + 1] || !(ts[j + 1].upos === "NOUN" || ts[j + 1].upos === "ADJ" || ts[j + 1].upos === "NUM");
      if ((t.upos === "NOUN" || (t.upos === "ADJ" && last)) && agrees(t)) return j;
      if (t.upos === "NUM" || t.upos === "ADJ") continue;
      break;
    }
  }
  let copula = possessive;
  for (let j = k - 1; j >= Math.max(0, k - 3); j--) {
    const t = ts[j];
    if (t.upos === "NOUN") {
      if (agrees(t)) return j;
      break;
    }
    // Across adjectives, and adverbs before a possessive or an adjective-tagged participle ("muy clasificada"),
    // not before a participle tagged NOUN, mostly a noun itself ("te des cuenta tu/ADV vida").
    if (t.upos === "ADJ" || (t.upos === "ADV" && (possessive || tagged === "ADJ"))) continue;
    if (t.upos === "AUX" && copula) {
      copula = false;
      continue;
    }
    // A mis-tagged noun before a participle the tagger called an adjective, across a mis-tagged word.
    if (!possessive && tagged === "ADJ" && j < k - 1 && agrees(t) && !["PUNCT", "ADP", "CCONJ", "SCONJ", "AUX", "PRON"].includes(t.upos) && (j === 0 || ts[j - 1].upos !== "DET")) return j;
    if (!possessive && tagged === "ADJ" && j === k - 1 && t.upos === "VERB") continue;
    break;
  }
  return possessive ? -1 : undefined;
}

/** Adjective endings: es/pt -al/-ico/-ica/-ivo/-iva, it -ale/-ico/-ica/-ivo/-iva (and plurals), pl -ny/-na/-ną/-ne/-owy/-owa/-ową/-ski/-ska/-ską. */
const ADJ_ENDING: Record<string, RegExp> = {
  es: /(?:al|ales|ico|icos|ica|icas|ivo|ivos|iva|ivas)$/,
  pt: /(?:al|ais|ico|icos|ica|icas|ivo|ivos|iva|ivas)$/,
  it: /(?:ale|ali|ico|ici|ica|iche|ivo|ivi|iva|ive)$/,
  pl: /(?:ny|na|ną|ne|owy|owa|ową|ski|ska|ską)$/,
};

/**
 * Target token k, stored as the antecedent's head, is also aligned to an English adjective before
 * the English head (`adjLinks`: the target tokens each such adjective is aligned to), so it is that adjective's
 * translation ("cortical array" / "dispositivo cortical"). Returns the word right before it when that word is a
 * noun or an adjective-tagged word that agrees with it in gender and number and is no prenominal word, possessive
 * or determiner; undefined otherwise.
 */
export function adjectiveLinkedHead(ts: readonly AnnToken[], k: number, adjLinks: readonly (readonly number[])[]): number | undefined {
  if (k === 0 || !adjLinks.some((l) => l.includes(k))) return undefined;
  const p = ts[k - 1];
  const w = p.text.toLowerCase();
  if (p.upos !== "NOUN" && p.upos !== "ADJ") return undefined;
  if (POSSESSIVE_ADJ.has(w) || PRENOMINAL.has(w) || !agreesWith(ts[k], p)) return undefined;
  return k - 1;
}

/** es/it/pt words that stand before a noun (demonstratives, quantifiers, common prenominal adjectives), which the tagger may call nouns. */
const PRENOMINAL = new Set([
  "este", "esta", "estos", "estas", "ese", "esa", "esos", "esas", "aquel", "aquella", "aquellos", "aquellas", "gran", "grande", "grandes", "buen", "buena", "buenos", "buenas",
  "mal", "mala", "primer", "primera", "último", "última", "nuevo", "nueva", "viejo", "vieja", "mismo", "misma", "otro", "otra", "otros", "otras", "todo", "toda", "todos", "todas", "cada",
  "questo", "questa", "questi", "queste", "quel", "quella", "quei", "quelle", "quegli", "quello", "bel", "bella", "buon", "buono", "nuovo", "nuova", "vecchio", "vecchia", "ultimo",
  "ultima", "primo", "prima", "stesso", "stessa", "altro", "altra", "altri", "altre", "tutto", "tutta", "tutti", "tutte", "ogni",
  "estes", "esse", "essa", "esses", "essas", "aquele", "aquela", "aqueles", "aquelas", "bom", "boa", "novo", "primeiro", "primeira", "mesmo", "mesma", "outro", "outra", "outros", "outras", // pt toda/todo: as es
]);

/** Whether two tokens share a gender and a number value (both must carry them). */
function agreesWith(a: AnnToken, b: AnnToken): boolean {
  const g = values(a, "Gender");
  const n = values(a, "Number");
  return g.length > 0 && n.length > 0 && values(b, "Gender").some((x) => g.includes(x)) && values(b, "Number").some((x) => n.includes(x));
}

/** Tags skipped when looking for the noun or verb an adjective belongs to ("coisa tão importante", "è molto bella"). */
const ADJ_RUN = new Set(["ADJ", "ADV"]);

/**
 * A target token tagged ADJ that carries gender and number and stands as a noun: no noun or proper noun
 * beside it, nor across adjectives and adverbs ("uma coisa tão importante", "pensieri notturni").
 */
export function standsAsNoun(ts: readonly AnnToken[], k: number): boolean {
  if (!ts[k].feats.Gender || !ts[k].feats.Number) return false;
  let j = k - 1;
  while (j >= 0 && ADJ_RUN.has(ts[j].upos)) j--;
  if (j >= 0 && NOUNS.has(ts[j].upos)) return false;
  j = k + 1;
  while (j < ts.length && ADJ_RUN.has(ts[j].upos)) j++;
  return !(j < ts.length && NOUNS.has(ts[j].upos));
}

/**
 * The noun a determiner run announces: the English head noun has no link, and the target words the
 * mention's links reach, [a, b), end with a determiner, possibly followed by adjectives ("Esa tabla" for "that
 * piece", "il congegno" for "the device", "un nuovo disegno" for "a new piece", pl "tą kartką" for "the note"):
 * the noun right after them (across unaligned adjectives) that no English word is linked to. Undefined otherwise.
 */
export function determinedNoun(ts: readonly AnnToken[], a: number, b: number, links: SentenceAlignment): number | undefined {
  let d = b - 1;
  while (d >= a && ts[d].upos === "ADJ") d--;
  if (d < a || ts[d].upos !== "DET") return undefined;
  let c = b;
  while (c < ts.length && ts[c].upos === "ADJ" && !links.some((l) => l[1] === c)) c++;
  if (c >= ts.length || !NOUNS.has(ts[c].upos) || links.some((l) => l[1] === c)) return undefined;
  return c;
}
