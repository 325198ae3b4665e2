/**
 * Portuguese: its object clitics (*o, a, os, as* are also articles, and *a* a preposition), which it has no verb
 * lexicon to tell from the article (here: the finite forms of its irregular verbs and the endings only finite
 * verbs have), and its enclitics; after alignment, the clitic homographs and the nouns its links reveal, by shape
 * only (no noun lexicon).
 */
import { labelUpos, type LanguageRules, type TaggerView } from "../language-rules.js";
import { nounOnlyForms, verbOnlyForms } from "../reread.js";
import { alignedNounsPass } from "../aligned-retag.js";
import { alignedCliticsPass, cliticForms, redecideClitics, verbAfterClitic, type PrepositionHomographs } from "./romance.js";

/**
 * Portuguese finite verb forms that no noun, adjective or function word shares, for a language with no verb
 * lexicon here: the finite forms of the frequent irregular verbs (ter, ser, estar, haver, ir, fazer,
 * dizer, poder, querer, saber, ver, dar, pôr, trazer, vir) and of their prefixed compounds (manter, obter,
 * conter, propor, convir, desfazer, prever, ...), plus the endings only finite verbs have (PT_VERB_ENDING
 * and a few more). Forms a noun or function word shares are left out, checked against UD Portuguese
 * Bosque: era, via(s), vinha(s), veio, verão, porão, vão, pus, opus, pomos, trago, fora, são, deste, desse(s)
 * (de + este, de + esse), vir (also the infinitive).
 */
/** Finite forms per verb (present, imperfect, preterite, future, conditional, subjunctives); 2nd plural left out. */
const IRREGULAR: Record<string, string> = {
  ter: "tenho tens tem temos têm tinha tinhas tínhamos tinham tive tiveste teve tivemos tiveram tivera terei terás terá teremos terão teria terias teríamos teriam tenha tenhas tenhamos tenham tivesse tivesses tivéssemos tivessem tiver tiveres tivermos tiverem",
  ser: "sou és é somos eras éramos eram fui foste foi fomos foram serei serás será seremos serão seria serias seríamos seriam seja sejas sejamos sejam fosse fosses fôssemos fossem fores formos forem",
  estar: "estou estás está estamos estão estava estavas estávamos estavam estive estiveste esteve estivemos estiveram estarei estarás estará estaremos estarão estaria estarias estaríamos estariam esteja estejas estejamos estejam estivesse estivesses estivéssemos estivessem estiver estiveres estivermos estiverem",
  haver: "hei hás há havemos hão havia havias havíamos haviam houve houveram houvera haverei haverá haverão haveria haveriam haja hajas hajamos hajam houvesse houvessem houver houverem",
  ir: "vou vais vai vamos ia ias íamos iam irei irás irá iremos irão iria irias iríamos iriam vá vás",
  fazer: "faço fazes faz fazemos fazem fazia fazias fazíamos faziam fiz fizeste fez fizemos fizeram farei farás fará faremos farão faria farias faríamos fariam faça faças façamos façam fizesse fizesses fizéssemos fizessem fizer fizeres fizermos fizerem",
  dizer: "digo dizes diz dizemos dizem dizia dizias dizíamos diziam disse disseste dissemos disseram direi dirás dirá diremos dirão diria dirias diríamos diriam diga digas digamos digam dissesse dissesses dissessem disser disseres disserem",
  poder: "posso podes pode podemos podem podia podias podíamos podiam pude pudeste pôde pudemos puderam poderei poderás poderá poderemos poderão poderia poderias poderíamos poderiam possa possas possamos possam pudesse pudesses pudéssemos pudessem puder puderes pudermos puderem",
  querer: "quero queres quer queremos querem queria querias queríamos queriam quis quiseste quisemos quiseram quererei quererá quereria quereriam queira queiras queiramos queiram quisesse quisesses quisessem quiser quiseres quiserem",
  saber: "sei sabes sabe sabemos sabem sabia sabias sabíamos sabiam soube soubeste soubemos souberam saberei saberás saberá saberemos saberão saberia saberias saberiam saiba saibas saibamos saibam soubesse soubesses soubessem souber souberes souberem",
  ver: "vejo vês vê vemos veem vêem víamos viam vi viste viu viram verei verás verá veremos veria verias veríamos veriam veja vejas vejamos vejam visse visses víssemos vissem vires virmos virem",
  dar: "dou dás dá damos dão dava davas dávamos davam dei deu demos deram darei darás dará daremos darão daria darias daríamos dariam dê dês dêmos deem dêem déssemos dessem der deres dermos derem",
  pôr: "ponho pões põe põem punha punhas púnhamos punham puseste pôs pusemos puseram porei porás porá poremos poria porias poríamos poriam ponha ponhas ponhamos ponham pusesse pusesses pusessem puser puseres puserem",
  trazer: "trazes traz trazemos trazem trazia trazias traziam trouxe trouxeste trouxemos trouxeram trarei trarás trará traremos trarão traria trarias trariam traga tragas tragamos tragam trouxesse trouxesses trouxessem trouxer trouxeres trouxerem",
  vir: "venho vens vem vimos vêm vinham vim vieste viemos vieram virei virás virá viremos virão viria virias viriam venha venhas venhamos venham viesse viesses viessem vier vieres vierem",
};
/** Prefixes of the compounds that conjugate like their base verb (manter, propor, convir, desfazer, predizer, prever). */
const COMPOUNDS: Record<string, string[]> = {
  ter: ["man", "ob", "con", "de", "re", "sus", "abs", "entre"],
  pôr: ["com", "pro", "ex", "im", "su", "de", "re", "dis", "contra", "pres"],
  vir: ["con", "pro", "inter", "ad", "sobre"],
  fazer: ["des", "re", "satis"],
  dizer: ["contra", "pre", "des"],
  ver: ["pre", "re", "ante"],
};
/** The accent a compound's monosyllabic form takes (mantém, convém, mantêns). */
const COMPOUND_ACCENT: Record<string, string> = { tem: "tém", tens: "téns", vem: "vém", vens: "véns" };

function buildForms(): Set<string> {
  const out = new Set<string>();
  for (const [verb, forms] of Object.entries(IRREGULAR)) {
    for (const f of forms.split(" ")) {
      out.add(f);
      for (const p of COMPOUNDS[verb] ?? []) out.add(p + (COMPOUND_ACCENT[f] ?? f));
    }
  }
  return out;
}
export const PT_IRREGULAR_FINITE: ReadonlySet<string> = buildForms();

/**
 * Endings only Portuguese finite verbs have (PT_VERB_ENDING: future, preterite, imperfect,
 * imperfect subjunctive). Left out because nouns share them: -rão (verão), -ria
 * (padaria), -este/-aste (teste, contraste), -asse (classe), -ermos (termos).
 */
export const PT_VERB_ENDING = /^.{2,}(?:[aei]rei|[aei]rás|[aei]remos|[^aeiou]ei|[^aeiou]ou|aram|eram|iram|assem|essem|issem|ávamos|íamos)$/;
/**
 * Further endings only finite verbs have, for ptFiniteVerb: preterite 1st singular -guei, -iei (entreguei, iniciei;
 * -quei is left out for jóquei, hóquei), conditional 3rd plural and 1st plural, imperfect subjunctive (levasse, recebesse,
 * pusesses, fizéssemos; the nouns of PT_SSE_NOUNS aside), imperfect 3rd plural.
 */
const PT_MORE_VERB_ENDING = /^.{2,}(?:guei|iei|[aei]riam|[aei]ríamos|[aei]sses?|[áéí]ssemos|avam)$/;
/** The words Bosque has with an imperfect-subjunctive ending that are no verbs (classe, interesse, impasse), and their kin. */
const PT_SSE_NOUNS: ReadonlySet<string> = new Set(["classe", "classes", "subclasse", "subclasses", "interesse", "interesses", "desinteresse", "impasse", "impasses", "crasse"]);

/**
 * Whether a lower-case Portuguese word is a finite verb form no noun, adjective or function word shares: one of
 * the irregular verbs' forms, or a verb-only ending. For alignedClitics after alignment ("known only as a
 * verb", which other languages take from their verb lexicon).
 */
export function ptFiniteVerb(lower: string): boolean {
  return PT_IRREGULAR_FINITE.has(lower) || ptVerbEnding(lower) || (PT_MORE_VERB_ENDING.test(lower) && !PT_SSE_NOUNS.has(lower) && !accentedStem(lower));
}

/**
 * PT_VERB_ENDING, for a word with no written accent or hyphen before it: the verb endings carry the stress or their
 * own accent (levei, roubou, usarás, cantávamos), so an accent elsewhere marks a noun stressed there (vôlei, jóquei,
 * pônei), and a hyphen a compound (decreto-lei). The test of portugueseClitics.
 */
export function ptVerbEnding(lower: string): boolean {
  return PT_VERB_ENDING.test(lower) && !accentedStem(lower);
}
function accentedStem(lower: string): boolean {
  return /[-áâãàéêíóôõú]/.test(lower.replace(/(?:rás|ríamos|[áéí]ssemos|ávamos|íamos)$/, ""));
}

/**
 * Nouns and adjectives whose singular ends in an unstressed -as/-es or -is, so "o atlas" agrees (Bosque: atlas, blues,
 * simples; pára-quedas and guarda-redes carry a hyphen), and the plurals without -s that Bosque has after os/as (media).
 */
const PT_NUMBER_INVARIANT: ReadonlySet<string> = new Set([
  "atlas", "pires", "alferes", "ourives", "herpes", "blues", "simples", "reles", "cosmos", "vírus", "oásis", "lápis", "tênis", "ônibus",
  "media", "multimedia", "multimédia",
  // Numerals and adverbs Bosque has after os/as ("os quatro", "os cerca de"), in case the tagger calls them nouns.
  "quatro", "cinco", "sete", "oito", "nove", "dez", "onze", "doze", "treze", "catorze", "quatorze", "quinze", "dezoito", "dezanove", "dezenove",
  "vinte", "trinta", "quarenta", "cinquenta", "sessenta", "setenta", "oitenta", "noventa", "cem", "mil", "cerca", "pouco", "outrora",
]);
const PT_CONTRACTING: ReadonlySet<string> = new Set(["a", "de", "em", "por", "per"]);
/** Words after which *a* is the clitic rather than the preposition (MorphTagger's PT_BEFORE_CLITIC: negations, subject pronouns). */
const PT_A_CLITIC_BEFORE: ReadonlySet<string> = new Set(["não", "nunca", "jamais", "eu", "tu", "ele", "ela", "nós", "vós", "eles", "elas", "você", "vocês"]);

/**
 * Whether the next word's number rules out the article reading of an article homograph, leaving the object clitic and a
 * verb (as the Spanish article's agreement does, esAgreementClitic): plural *os, as* before a lower-case word with no final -s ("os usa", "as
 * compraram", "os resolver"), singular *o* before an unstressed -as/-es ending, a 2nd person singular ("o compartilhas",
 * "o vendes"), and *a* so only after a negation or subject pronoun, since *a* is also the preposition before bare plurals
 * ("a pessoas", 55 times in Bosque). Words with a hyphen, digit or capital, and PT_NUMBER_INVARIANT, are left alone.
 * In UD Bosque no article os/as or o precedes a word this accepts, save a mis-tag (o relações, as taxa).
 */
export function ptNumberClash(article: string, word: string, prev: string): boolean {
  if (word !== word.toLowerCase() || !/^[a-zà-ü]+$/.test(word) || PT_NUMBER_INVARIANT.has(word)) return false;
  // After a, de, em, por the article is most often split off a contraction (aos, dos, nos, pelos: "nos setor" is a typo).
  if (PT_CONTRACTING.has(prev)) return false;
  if (article === "os" || article === "as") return /[aeiouáéíóúâêôãõmrz]$/.test(word);
  // An unstressed ending: no written accent anywhere (mês, através, país carry the stress).
  const secondSingular = /^.{2,}[ae]s$/.test(word) && !/[áéíóúâêôãõàç]/.test(word);
  if (article === "o") return secondSingular;
  if (article === "a") return secondSingular && PT_A_CLITIC_BEFORE.has(prev);
  return false;
}

/** Portuguese object clitics that are also articles or the preposition *a* (portugueseClitics). */
const PT_CLITIC_HOMOGRAPHS: ReadonlySet<string> = new Set(["o", "a", "os", "as"]);
/**
 * Prepositions, negations and the conjunctions of the future subjunctive (which has the infinitive's shape: "assim que o
 * conseguires") after which *o, a, os, as* before an infinitive-shaped verb is the clitic ("para os divulgar").
 */
const PT_BEFORE_INFINITIVE_CLITIC: ReadonlySet<string> = new Set(["para", "de", "sem", "por", "até", "após", "não", "nunca", "que", "se", "quando"]);
/** Words after which a Portuguese article homograph is the clitic: negations and subject pronouns. */
const PT_BEFORE_CLITIC: ReadonlySet<string> = new Set(["não", "nunca", "jamais", "eu", "tu", "ele", "ela", "nós", "vós", "eles", "elas", "você", "vocês"]);

/**
 * Portuguese, which has no verb lexicon: an article/preposition homograph of an object clitic (*o, a,
 * os, as*) tagged DET, ADP or SCONJ is the clitic, and the word after it the verb, when the word before
 * rules out an article ("não a quero", "eu o protejo") and the tagger calls the next word a finite
 * verb, or when the next word has an ending only finite verbs have (ptVerbEnding: "a usarei", "que
 * o levei", "a roubou") or is another finite form no noun shares (ptFiniteVerb: "a tinha", "o fez",
 * "que a comprasse"). Infinitives after a
 * preposition ("de o ler") are left alone: "o jantar", "o lugar" share their ending.
 */
export function portugueseClitics(tg: TaggerView, words: readonly string[], lower: readonly string[], labels: string[]): void {
  for (let i = 0; i + 1 < words.length; i++) {
    if (!PT_CLITIC_HOMOGRAPHS.has(lower[i]!) || !["DET", "ADP", "SCONJ"].includes(labelUpos(labels[i]!))) continue;
    const pron = (tg.tableLabels(lower[i]!) ?? []).filter((k) => tg.labels[k]!.startsWith("PRON"));
    if (!pron.length) continue;
    const next = labelUpos(labels[i + 1]!);
    if (next === "PUNCT" || next === "DET" || next === "ADP" || next === "NUM" || next === "CCONJ" || next === "SCONJ") continue;
    if (tg.table.has(lower[i + 1]!) && next !== "VERB" && next !== "AUX") continue;
    const prevWord = i > 0 ? lower[i - 1]! : "";
    // After a negation or subject pronoun, a word the tagger already calls a verb (not an infinitive:
    // "eu a pensar" has the preposition).
    const strong = PT_BEFORE_CLITIC.has(prevWord) && (next === "VERB" || next === "AUX") && !/[aeiô]r$/.test(lower[i + 1]!);
    // Or a finite form no noun shares ("até a tinha", "como o fez", "que a comprasse"), not capitalised (a name).
    const finite = ptFiniteVerb(lower[i + 1]!) && words[i + 1] === lower[i + 1];
    // Or a next word whose number the article's rules out for a noun ("os usa", "o compartilhas").
    const clash = (next === "NOUN" || next === "ADJ" || next === "VERB" || next === "AUX" || next === "X") && ptNumberClash(lower[i]!, words[i + 1]!, prevWord);
    if (!strong && !finite && !clash && !ptVerbEnding(lower[i + 1]!)) continue;
    const keep = labels.map((l) => tg.labelIndex(l));
    const verbIds = tg.labelIds("VERB");
    const forced = tg.tag(words, (k) => (k === i ? pron : k === i + 1 && next !== "VERB" && next !== "AUX" ? verbIds : [keep[k]!]));
    labels[i] = forced[i]!;
    labels[i + 1] = forced[i + 1]!;
  }
}

/**
 * Portuguese: an article homograph (*o, a, os, as*) tagged PRON right before a verb is the accusative clitic, not the
 * demonstrative of "o que", "a de" (UD Bosque: 165 Case=Acc PronType=Prs, 11 PronType=Dem before VERB/AUX). The tagger,
 * and redecideClitics, which may choose among all PRON labels, often give it the demonstrative's label, which has no
 * case ("e a/PRON interpretaram", "para a isolarmos"). Runs last, after redecideClitics.
 */
export function portugueseAccusative(tg: TaggerView, words: readonly string[], lower: readonly string[], labels: string[]): void {
  // Position -> the clitic's accusative label ids, kept for the forced re-tag below.
  const at = new Map<number, readonly number[]>();
  for (let i = 0; i + 1 < words.length; i++) {
    if (!PT_CLITIC_HOMOGRAPHS.has(lower[i]!) || labelUpos(labels[i]!) !== "PRON" || /Case=Acc/.test(labels[i]!)) continue;
    const next = labelUpos(labels[i + 1]!);
    if (next !== "VERB" && next !== "AUX") continue;
    const prev = i > 0 ? lower[i - 1]! : "";
    // Not a word split off a contraction (ao = a o, no = em o: the article), nor before a participle, which takes no
    // clitic ("O referido relatório", "com os conhecidos"), or a capitalised word (a name); before an infinitive only after a preposition, since an
    // article also nominalises it ("deifica o saber" vs "para os divulgar", "antes de o conhecerem").
    if (prev === "a" || prev === "em" || /(?:ad|id)[oa]s?$/.test(lower[i + 1]!) || words[i + 1] !== lower[i + 1]) continue;
    // After de, por (do, pelo) also the irregular participles: "de o previsto", "de as compostas".
    if ((prev === "de" || prev === "por") && /(?:st|it|ert)[oa]s?$/.test(lower[i + 1]!)) continue;
    if (/[aeiô]r(?:em|es|mos)?$/.test(lower[i + 1]!) && !ptFiniteVerb(lower[i + 1]!) && !PT_BEFORE_INFINITIVE_CLITIC.has(prev)) continue;
    const acc = tg.accusativeClitic(lower[i]!);
    if (acc?.some((k) => /Case=Acc/.test(tg.labels[k]!))) at.set(i, acc);
  }
  if (!at.size) return;
  const keep = labels.map((l) => tg.labelIndex(l));
  const forced = tg.tag(words, (k) => at.get(k) ?? [keep[k]!]);
  for (const k of at.keys()) labels[k] = forced[k]!;
}


/**
 * *a* is also a preposition ("está a juntar", "começou a ler"): before an infinitive it is the clitic only right
 * after a preposition ("de a ver", "para a ler"), not in *estar a* + infinitive.
 */
export const PT_PREPOSITION_HOMOGRAPHS: PrepositionHomographs = {
  forms: new Set(["a"]),
  infinitive: /\p{L}[aeiô]r$/u,
  prepositions: new Set(["de", "para", "por", "sem", "até", "após"]),
};

/** The article homographs of the accusative clitics, for the re-reading after alignment. */
export const PT_CLITIC_FORMS = cliticForms(["a", "o", "as", "os"]);

/**
 * Portuguese has no noun lexicon here (knownNoun only checks the word's shape), so only words the tagger put in an
 * open nominal class are re-read as nouns: adjectives ("bicicleta/ADJ", "barba/ADJ"), a proper noun that is the
 * line's first word ("Dinheiro/PROPN", "Lei/PROPN"), numerals and foreign words; not verbs ("encherei",
 * "trabalhar" for "shovel", "trunk"), determiners ("outra"), adverbs or prepositions.
 */
export const PT_NOUN_SHAPE = { tags: new Set(["ADJ", "PROPN", "NUM", "X"]), pluralS: true };

export const PORTUGUESE: LanguageRules = {
  lang: "pt",
  objectClitics: new Set(["me", "te", "se", "o", "a", "os", "as", "lhe", "lhes", "nos", "vos"]),
  articleClitics: true,
  labelPasses: [verbAfterClitic, verbOnlyForms, portugueseClitics, nounOnlyForms, redecideClitics, portugueseAccusative],
  // No lexicon: a word of letters that is no -mente adverb (the re-reading after alignment also restricts the tags).
  knownNoun: (_t: TaggerView, lower: string) => /^\p{L}+$/u.test(lower) && !lower.endsWith("mente"),
  // Its irregular verbs' forms and verb-only endings; a capitalised word is taken for a name (Faria, Moscou, Irão).
  verbOnlyWithoutLexicon: (t: TaggerView, word: string, lower: string) => word === lower && !t.table.has(lower) && ptFiniteVerb(lower),
  alignmentPasses: [alignedCliticsPass(PT_CLITIC_FORMS, PT_PREPOSITION_HOMOGRAPHS), alignedNounsPass(PT_NOUN_SHAPE)],
};
