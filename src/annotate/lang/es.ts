/**
 * Spanish: its object clitics (*lo, la, los, las* are also articles), which words rule out an article before a
 * homograph, the endings only verbs have, and the gender of nouns no determiner marks (its noun lexicon decides
 * only there); after alignment, the clitic homographs and nouns its links reveal.
 */
import type { HomographContext, HomographReading, LanguageRules, Tagged, TaggerView } from "../language-rules.js";
import { ES_STRESSED_A_FEMININE, spanishNominalForms } from "../lexicons.js";
import { nounOnlyForms, verbOnlyForms } from "../reread.js";
import { alignedNounsPass } from "../aligned-retag.js";
import { alignedCliticsPass, cliticForms, redecideClitics, verbAfterClitic } from "./romance.js";

/**
 * Spanish words after which *la, lo, las, los* before a word that only the verb lexicon knows are object
 * clitics: negation and a few adverbs, "si", subject pronouns.
 */
const ES_BEFORE_CLITIC: ReadonlySet<string> = new Set(
  "no nunca jamás ya también tampoco si yo tú él ella usted nosotros nosotras vosotros vosotras ellos ellas ustedes".split(" "),
);
/** Spanish future and conditional endings, and the forms of *haber*: only verbs end so. */
const ES_VERB_ONLY = /^(?:.{2,}(?:ré|rás|rá|remos|réis|rán|ría|rías|ríamos|rían)|he|has|ha|hemos|han|había|habías|habíamos|habían|haya|hayas|hayamos|hayan|hubiera|hubieras|hubieran)$/;
/**
 * Spanish: whether the article's own agreement rules out reading an object-clitic
 * homograph (*la, lo, las, los*) as the article of the word after it, which the verb lexicon knows as a
 * finite form (`lemmas`). "plural": *los, las* before a form without a final -s, which no noun phrase
 * has ("los dejo", "las avise", "que los arreste"); "shape": a form whose ending only verbs have for that
 * lemma: the present subjunctive (-ar verbs *-e, -en*: "que la ayude", "la acompañe"; -er/-ir verbs
 * *-a, -an*: "que la proteja", "la vea"), the imperfect subjunctive *-ara, -aran, -ase, -asen* ("que la
 * ayudara"), a third person plural (*-n*: nouns pluralise with -s) and, after *la, lo*, the first person
 * singular present (*-o*: "la felicito", "la desposo"; nouns after *la* are feminine). Left out: the
 * third person singular present indicative ("la reforma", "la demanda", "la parte"), which deverbal
 * nouns share and dictionary-es's word list often lacks; the caller still applies the noun check to "shape".
 */
function esAgreementClitic(article: string, form: string, lemmas: readonly string[]): "plural" | "shape" | undefined {
  if (article !== "la" && article !== "lo" && article !== "las" && article !== "los") return undefined;
  if (form.length < 3) return undefined;
  if ((article === "las" || article === "los") && !form.endsWith("s")) return "plural";
  if (/(?:ara|aran|ase|asen)$/.test(form) && lemmas.some((l) => l.endsWith("ar"))) return "shape";
  if (/n$/.test(form)) return "shape";
  if (/e$/.test(form) && lemmas.some((l) => l.endsWith("ar"))) return "shape";
  if (/a$/.test(form) && lemmas.some((l) => l.endsWith("er") || l.endsWith("ir") || l.endsWith("ír"))) return "shape";
  if (/o$/.test(form) && (article === "la" || article === "lo")) return "shape";
  return undefined;
}
/**
 * Spanish endings of finite verbs that nouns hardly have (preterite, future, conditional, imperfect, 1st
 * person plural; a form must also be a verb form by the verb lexicon): after an object clitic's article homograph they mark the verb ("la abriré", "la
 * mantuvo", "la cargaste", "la daría"); the 1st/3rd singular present ("la reforma", "la demanda") is
 * shared with deverbal nouns and is left out.
 */
const SPANISH_VERB_ENDING = /(?:[éó]|uvo|ijo|izo|upo|aste|iste|asteis|isteis|amos|emos|imos|aron|ieron|rás|rá|rán|réis|ría|rías|rían|ríamos|ríais|aba|abas|aban|ábamos|ías|ían|ieras|ieran|iera|iese|iesen)$/;
/** Present forms of *haber*: after a clitic homograph always the auxiliary ("no la he visto", "la has leído"). */
const HABER_FORMS: ReadonlySet<string> = new Set(["he", "has", "ha", "hemos", "habéis", "han", "haya", "hayas", "hayan", "había", "habías", "habían", "habría"]);

/**
 * How a word after an object-clitic homograph tagged DET is read in Spanish. In a line with a verb too, where
 * the homograph stands clear of a preposition, verb or determiner, or follows a word before which only a clitic
 * stands, not an article ("no la traicionará", "yo la llevaré", "si los acompañamos"; not after "que": "que la
 * policía" cost UD Case 0.3), or where the word is a future or conditional, or a form of *haber*, which no noun
 * shares ("que la echaré de menos", "la habría dejado"), or the article's agreement rules out the noun phrase
 * (`esAgreementClitic`). Spanish *haber* is the verb always ("la he leído"). Spanish, whose word list lacks many
 * deverbal nouns ("la reforma", "las demandas", "la presencia"), re-reads in a line with a verb only where the
 * word before rules out an article or before a verb-only ending ("la abriré", "la mantuvo", "la cargaste").
 */
function spanishHomograph(c: HomographContext): HomographReading {
  const { lower, i, clear, hasVerb, context, lemmas } = c;
  const agree = clear ? esAgreementClitic(lower[i - 1]!, lower[i]!, lemmas) : undefined;
  const clitic = (i >= 2 && ES_BEFORE_CLITIC.has(lower[i - 2]!)) || ES_VERB_ONLY.test(lower[i]!) || agree !== undefined;
  const strong = context || agree === "plural";
  return {
    inVerbLine: clear || clitic,
    strong: agree === "plural",
    always: clear && HABER_FORMS.has(lower[i]!),
    skip: clear && hasVerb && !strong && !clitic && !SPANISH_VERB_ENDING.test(lower[i]!),
  };
}

/** The article homographs of the accusative clitics, for the re-reading after alignment. */
export const ES_CLITIC_FORMS = cliticForms(["la", "lo", "las", "los"]);

/** Spanish stressed personal pronouns whose nominative and prepositional forms are one word (the table gives both cases). */
const ES_STRONG_PRONOUNS: ReadonlySet<string> = new Set("usted ustedes vosotros vosotras nosotros nosotras él ella ello ellos ellas".split(" "));
/**
 * Spanish prepositions after which a stressed pronoun is the prepositional form. Left out: *como, según, entre,
 * excepto, salvo, menos, incluso*, which take the subject form ("como ustedes saben", "entre tú y yo").
 */
const ES_PREPOSITIONS: ReadonlySet<string> = new Set("a ante bajo con contra de desde durante en hacia hasta mediante para por sin sobre tras".split(" "));

const ES_QUANTIFIERS: ReadonlySet<string> = new Set(["todos", "todas", "ambos", "ambas"]);

/**
 * The case of a Spanish stressed pronoun (*usted, ustedes, vosotros, vosotras, él, ella, ...*), which the
 * table gives as both nominative and oblique: after a preposition it is the prepositional (disjunctive) form,
 * so not nominative ("para usted", "con vosotras", "a ustedes"), and so is the second of two pronouns joined by
 * *y, o, ni* after one ("con él y ella"). Elsewhere
 * the tagger's reading stays. The DISJ rules of CTXPRO's Spanish sets ask for a pronoun that is not nominative.
 */
export function spanishStrongPronounCase(_tg: TaggerView, _words: readonly string[], lower: readonly string[], out: Tagged[]): void {
  const oblique = new Array<boolean>(out.length).fill(false);
  for (let i = 1; i < out.length; i++) {
    const t = out[i]!;
    if (!ES_STRONG_PRONOUNS.has(lower[i]!) || t.upos !== "PRON") continue;
    // ... or after a preposition and *todos, todas, ambos, ambas* ("de todos vosotros").
    const afterPrep = ES_PREPOSITIONS.has(lower[i - 1]!) || (i >= 2 && ES_QUANTIFIERS.has(lower[i - 1]!) && ES_PREPOSITIONS.has(lower[i - 2]!));
    const coordinated = i >= 2 && (lower[i - 1] === "y" || lower[i - 1] === "o" || lower[i - 1] === "ni") && oblique[i - 2]!;
    if (!afterPrep && !coordinated) continue;
    oblique[i] = true;
    out[i] = { ...t, feats: { ...t.feats, Case: "Acc" } };
  }
}

export const SPANISH: LanguageRules = {
  lang: "es",
  nounLexicon: "unmarked",
  objectClitics: new Set(["me", "te", "se", "nos", "os", "lo", "la", "le", "los", "las", "les"]),
  articleClitics: true,
  auxLemmas: new Set(["ser", "estar", "haber", "poder", "deber", "soler", "ir", "tener", "querer"]),
  beforeClitic: new Set(["no", "nunca", "jamás", "me", "te", "se", "nos", "os", "yo", "tú", "él", "ella", "usted", "nosotros", "vosotros", "ellos", "ellas", "ustedes", "quién", "quien", "quiénes", "alguien", "nadie"]),
  homographVerb: spanishHomograph,
  wordListNouns: true,
  labelPasses: [verbAfterClitic, verbOnlyForms, nounOnlyForms, redecideClitics],
  wordPasses: [spanishStrongPronounCase],
  // *el arma, el alma, el hambre*: the article makes the tagger read these feminine nouns masculine.
  nounFeats(lemma, feats) {
    if (ES_STRESSED_A_FEMININE.has(lemma.toLowerCase())) feats.Gender = "Fem";
  },
  // dictionary-es lists the word with its plural or gender flag (nouns and adjectives).
  knownNoun: (_t: TaggerView, lower: string) => spanishNominalForms().has(lower),
  alignmentPasses: [alignedCliticsPass(ES_CLITIC_FORMS), alignedNounsPass({ pluralS: true })],
};
