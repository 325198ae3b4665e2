/**
 * Tag anchors: re-scores the aligner's combined-posterior matrix with what the taggers
 * already know about both sides before the one-to-one matching, in `ctxpro identify`'s aligner only
 * (`proneval align` and fast_align itself are untouched).
 *
 * fast_align has no notion of a word's category, and in pro-drop languages it links the English subject
 * pronoun to the target verb that carries its person ("We do ?" / "¿ La tenemos ?": *We*–*tenemos*), which
 * leaves the auxiliary (*do*) to a clitic or a question mark and the object pronoun (*it*) to the verb.
 * So, by coarse part of speech (VERB/AUX, NOUN/PROPN, PRON, DET, ADP, conjunctions, punctuation):
 *
 *  - pairs that are never translations of each other (a pronoun and a verb, a verb and a determiner,
 *    preposition, conjunction, adverb, proper noun or punctuation mark, a pronoun or noun and punctuation,
 *    two personal pronouns of different person) are multiplied by `penalty` (default 0.2);
 *  - pairs of the same kind (verb-verb, noun-noun, pronoun-pronoun or pronoun-determiner of compatible
 *    person) get `bonus` added (default 0.1), enough to pass the 0.1 threshold when EM gave them little.
 *
 * After the one-to-one matching, `addVerbGroupLinks` links the rest of a verb group: an English verb linked
 * to a target auxiliary also gets the participle or infinitive right after it ("I didn't." / "Non l'ho
 * comprato": *did*–*ho* and *did*–*comprato*), an English auxiliary linked to a target verb passes that verb
 * on to the English main verb after it ("They will learn" / "Impareranno": *will* and *learn*), as a
 * many-to-many aligner (CTXPRO's awesome-align) would. And when each side has exactly one verb (VERB or AUX),
 * those two are linked (`addSoleVerbLink`: "I don't." / "No encajo.", "Oh, I will." / "Je sais."): the
 * elliptical lines of CTXPRO's auxiliary phenomenon, where the English auxiliary stands for the target verb.
 * A comitative pronoun (es *conmigo, contigo, consigo*, pt *comigo, contigo, connosco, convosco, ...*) fuses
 * *with* and a pronoun, so it gets both English words (`addComitativeLinks`: "I'm going with you." / "Eu vou
 * convosco.": the matching gives *convosco* to *with* only, and the pronoun rules never see *you*).
 *
 * Person: first person must match both ways; English second person may meet a third-person target (formal
 * address: es *usted*, *lo*, it *Lei*, de *Sie*), a third-person English pronoun not a second-person one.
 * When the target language is known (`lang`, set by identify), English *you* (second person, not possessive)
 * gets the bonus with a third-person target only for that language's formal forms (`FORMAL`, the forms of
 * CTXPRO's formality rules), an object clitic among them only right before a verb (es "en lo que pueda",
 * "¿Qué es lo que pasa?" have the neuter article *lo*), and never with an article. For
 * those languages a third-person pronoun that is not formal there is penalised like a clash.
 */
import type { AnnToken } from "./types.js";
import type { ScoreMatrix } from "./matching.js";

export interface TagAnchorOptions {
  /** Factor for pairs of incompatible kinds (default 0.2). */
  penalty?: number;
  /** Added to pairs of the same kind (default 0.1). */
  bonus?: number;
  /**
   * Target language (ISO 639-1): restricts the bonus of English *you* with a third-person target to the
   * language's formal forms (`FORMAL`). Unset: any third-person target.
   */
  lang?: string;
  /** The clitic rules (`cliticAnchors`; default on, they need `lang`); false turns them off. */
  clitics?: boolean;
}

/**
 * Third-person forms that translate English *you* in formal address, per language: strong pronouns, and
 * object clitics (which must come before a verb). From CTXPRO's formality rules (es ACC.FORM *lo, la, los,
 * las*, NOM/DISJ.FORM *usted(es)*; it *lei, Lei, la, le, loro*; de *Sie, Ihnen*; pt *você*, *si*, *lhe*), plus
 * es *le, les* and pt *vocês, lhes, o, a, os, as* (and *lo, la, los, las* after an infinitive: "ajudá-lo"), formal
 * datives and accusatives that no rule names. fr *vous* and ru *вы* are second person already.
 */
export const FORMAL: Record<string, { strong: ReadonlySet<string>; clitic: ReadonlySet<string>; first?: ReadonlySet<string>; enclitic?: boolean }> = {
  // first: clitics that lead a cluster, after which a formal clitic is the thing ("te lo dije", "se lo devuelvo")
  es: { strong: new Set(["usted", "ustedes"]), clitic: new Set(["lo", "la", "los", "las", "le", "les"]), first: new Set(["me", "te", "se", "nos", "os"]) },
  it: { strong: new Set(["lei", "loro"]), clitic: new Set(["la", "le"]), first: new Set(["me", "te", "se", "ce", "ve"]) },
  de: { strong: new Set(["sie", "ihnen"]), clitic: new Set() },
  // Portuguese writes enclitics with a hyphen, which the tokenizer splits ("ajudá-lo"): a verb before counts too.
  pt: { strong: new Set(["você", "vocês", "si"]), clitic: new Set(["lhe", "lhes", "o", "a", "os", "as", "lo", "la", "los", "las"]), enclitic: true },
};

/** A verb or auxiliary. */
const isVerb = (t: AnnToken | undefined) => t !== undefined && CLASS[t.upos] === 1;

/**
 * Whether target token `j` may translate English *you* as a formal third-person form of `lang` (see
 * `FORMAL`): a strong formal pronoun, or a formal object clitic followed by a verb (one more personal
 * pronoun may stand between) and not itself the second clitic of a cluster, or in Portuguese preceded by one.
 */
export function formalYou(lang: string, tgt: readonly AnnToken[], j: number): boolean {
  const table = FORMAL[lang];
  const t = tgt[j]!;
  if (!table || t.upos !== "PRON") return false;
  const w = t.text.toLowerCase();
  if (table.strong.has(w)) return true;
  if (!table.clitic.has(w)) return false;
  // the second clitic of a cluster is the thing given or told ("te lo explicará", "se lo devuelvo")
  const prev = tgt[j - 1];
  if (prev?.upos === "PRON" && table.first?.has(prev.text.toLowerCase())) return false;
  const next = tgt[j + 1];
  // one personal pronoun may stand between ("se lo diré"), not the relative *que* of "lo que pueda"
  if (isVerb(next) || (next?.upos === "PRON" && next.feats.Person !== undefined && isVerb(tgt[j + 2]))) return true;
  return table.enclitic === true && isVerb(tgt[j - 1]);
}

/**
 * Coarse classes: V verb, N common noun, M proper noun, P pronoun, D determiner, A adposition, C conjunction,
 * R adverb, X punctuation, 0 other.
 */
const CLASS: Record<string, number> = { VERB: 1, AUX: 1, NOUN: 2, PROPN: 9, PRON: 3, DET: 4, ADP: 5, CCONJ: 6, SCONJ: 6, PUNCT: 7, SYM: 7, ADV: 8 };
const V = 1, N = 2, P = 3, D = 4, A = 5, C = 6, X = 7, R = 8, M = 9;
const NCLASS = 10;
const NOUNISH = (c: number) => c === N || c === M;

/** INCOMPATIBLE[en * NCLASS + tgt]: kinds that never translate each other. */
const INCOMPATIBLE = new Uint8Array(NCLASS * NCLASS);
for (const [a, b] of [[P, V], [V, D], [V, A], [V, C], [V, X], [V, R], [V, M], [P, X], [N, X], [M, X]] as const) {
  INCOMPATIBLE[a * NCLASS + b] = 1;
  INCOMPATIBLE[b * NCLASS + a] = 1;
}

function classOf(t: AnnToken): number {
  return CLASS[t.upos] ?? 0;
}

/** Two pronouns whose person rules out a translation (undefined person never clashes). */
export function personClash(en: AnnToken, tgt: AnnToken): boolean {
  const x = en.feats.Person;
  const y = tgt.feats.Person;
  if (!x || !y || x === y) return false;
  return x === "1" || y === "1" || (x === "3" && y === "2");
}

/**
 * An English pronoun in the nominative (a subject: *I, he, she, we, they*, and *you, it* where the English
 * tagger's case rules call them subjects) and a target pronoun that is accusative only (es *lo, la, los, las*,
 * it *lo, li*, fr *le, les*): a subject is not rendered as a direct-object clitic. Only where the target
 * language is known and its accusative rules take an English accusative only (`CASE_CLASH_LANGS`: es, it, fr;
 * CTXPRO's pt and de rules take any English case, and their items link *o, a* and *te, euch* to English
 * subjects: "The owner wanted it taken" / "queria que a levassem", "que não te preocupes"); the caller also
 * leaves out a target pronoun after a preposition, a disjunctive form whose rules take any English case (es
 * "para ti", "a ti también": *ti* is tagged Acc).
 */
export function caseClash(en: AnnToken, tgt: AnnToken): boolean {
  return en.feats.Case === "Nom" && tgt.feats.Case === "Acc";
}
const CASE_CLASH_LANGS: ReadonlySet<string> = new Set(["es", "it", "fr"]);

/**
 * Object clitics per target language: the accusative and dative forms of CTXPRO's rules
 * that are also written before the verb (es, it, fr) or after it (pt "encontrá-lo", it "prenderlo" split), with the
 * first- and second-person clitics. Languages not listed are left alone by `objectClitic`.
 */
export const OBJECT_CLITICS: Record<string, ReadonlySet<string>> = {
  es: new Set(["lo", "la", "los", "las", "le", "les", "me", "te", "nos", "os"]),
  it: new Set(["lo", "la", "li", "le", "gli", "mi", "ti", "ci", "vi", "ne", "l'", "glielo", "gliela", "glieli", "gliele", "gliene"]),
  pt: new Set(["o", "a", "os", "as", "lo", "la", "los", "las", "lhe", "lhes", "me", "te", "nos"]),
  // not *nous, vous*: subjects too
  fr: new Set(["le", "la", "les", "l'", "lui", "leur", "me", "te", "m'", "t'"]),
};

/** Parts of speech that may follow an article (an article homograph of a clitic is followed by one of these). */
const NOMINAL: ReadonlySet<string> = new Set(["NOUN", "PROPN", "ADJ", "NUM"]);

/**
 * Whether target token `j` is an object clitic of `lang` (`OBJECT_CLITICS`): such a form tagged PRON and not
 * followed by a noun or adjective (then it is an article the tagger called PRON), or tagged DET and followed
 * by a verb or a pronoun (es "¿Dónde la quieres?": the tagger's article); right after a preposition only
 * before a verb (fr "de le faire"), else it is a disjunctive form (fr "avec lui").
 */
export function objectClitic(lang: string | undefined, tgt: readonly AnnToken[], j: number): boolean {
  const set = lang === undefined ? undefined : OBJECT_CLITICS[lang];
  const t = tgt[j]!;
  if (!set || !set.has(t.text.toLowerCase())) return false;
  const next = tgt[j + 1];
  // after a preposition only right before a verb (fr "de le faire"; it "come/ADP la userai", the tagger's ADP),
  // else a disjunctive form (fr "avec lui")
  if (tgt[j - 1]?.upos === "ADP") return (t.upos === "PRON" || t.upos === "DET") && (isVerb(next) || (next?.upos === "PRON" && isVerb(tgt[j + 2])));
  if (t.upos === "PRON") return !(next && NOMINAL.has(next.upos));
  return t.upos === "DET" && (isVerb(next) || next?.upos === "PRON");
}

/** A target article (PronType=Art) followed by a noun or adjective: not a clitic homograph. */
function realArticle(tgt: readonly AnnToken[], j: number): boolean {
  const next = tgt[j + 1];
  return tgt[j]!.feats.PronType === "Art" && next !== undefined && NOMINAL.has(next.upos);
}

/** An English reflexive (*yourself*): its clitic (pt "Quando te entregares") is also the subject's. */
const enReflexive = (t: AnnToken) => t.feats.Reflex === "Yes" || /sel(f|ves)$/i.test(t.text);

/** English personal pronoun, not possessive or reflexive, with a person. */
const enPersonal = (t: AnnToken) => t.upos === "PRON" && t.feats.PronType === "Prs" && t.feats.Person !== undefined && t.feats.Poss !== "Yes" && !enReflexive(t);

/** English function words that never translate an object clitic: articles, particles, adpositions, conjunctions. */
const EN_FUNCTION: ReadonlySet<string> = new Set(["PART", "ADP", "SCONJ", "CCONJ"]);

/**
 * Re-scores pairs of English words with target object clitics (`objectClitic`) and articles, for the
 * languages of `OBJECT_CLITICS`, in place. In a pro-drop language the English subject pronoun has no word of its
 * own and EM hands it the clitic before the verb ("Where do you want it?" / "Dove la vuoi?": *you*–*la*, where
 * it *la* is also a formal *you*), so the object pronoun *it* is left unlinked. So:
 *  - an English subject pronoun (Case=Nom) or possessive (*your*) and an object clitic are multiplied by
 *    `penalty` when the line has an English object pronoun (Case=Acc) whose person fits the clitic, the clitic's
 *    likelier source;
 *  - an English article, particle, adposition or conjunction (*the*, *to*, *n't*, *if*) and an object clitic
 *    are multiplied by `penalty`;
 *  - an English personal pronoun and a target article followed by a noun or adjective (the article homograph
 *    of a clitic, es *la casa*) are multiplied by `penalty` instead of getting the pronoun–determiner bonus,
 *    when the line has an object clitic to prefer: without one the "article" may be a clitic the tagger got
 *    wrong together with its verb (pt "Até a/DET tinha/NOUN"), and its link is left for a later re-reading.
 */
function cliticAnchors(m: ScoreMatrix, en: readonly AnnToken[], tgt: readonly AnnToken[], lang: string | undefined, penalty: number): void {
  if (lang === undefined || !OBJECT_CLITICS[lang]) return;
  const { cols, data } = m;
  const objects = en.filter((t) => enPersonal(t) && t.feats.Case === "Acc");
  const isClitic = tgt.map((_, j) => objectClitic(lang, tgt, j));
  const anyClitic = isClitic.includes(true);
  for (let j = 0; j < tgt.length; j++) {
    const clitic = isClitic[j]!;
    const article = !clitic && anyClitic && realArticle(tgt, j);
    if (!clitic && !article) continue;
    const objectFits = clitic && objects.some((o) => !personClash(o, tgt[j]!));
    for (let i = 0; i < en.length; i++) {
      const e = en[i]!;
      let hit = false;
      if (clitic) {
        // a possessive (*your*) is no object either ("to see you in your office" / "la aspetta in ufficio")
        if (e.upos === "PRON") hit = objectFits && e.feats.Person !== undefined && !enReflexive(e) && (e.feats.Poss === "Yes" || (enPersonal(e) && e.feats.Case === "Nom"));
        else hit = EN_FUNCTION.has(e.upos) || e.feats.PronType === "Art";
      } else hit = enPersonal(e);
      if (hit) data[i * cols + j] *= penalty;
    }
  }
}

/**
 * English *you* (second person, not possessive) and a target that is third person or an article: the pairs
 * that the formal-address rule limits to formal forms.
 */
function youMeetsThird(en: AnnToken, tgt: AnnToken): boolean {
  if (en.feats.Person !== "2" || en.feats.Poss === "Yes") return false;
  return tgt.feats.Person === "3" || tgt.feats.PronType === "Art";
}

/** Re-scores `m` (rows English tokens, columns target tokens) in place; see the module comment. */
export function addTagAnchors(m: ScoreMatrix, en: readonly AnnToken[], tgt: readonly AnnToken[], opts: TagAnchorOptions = {}): void {
  const { rows, cols, data } = m;
  if (en.length !== rows || tgt.length !== cols) throw new RangeError(`tag anchors: ${en.length}x${tgt.length} tokens for a ${rows}x${cols} matrix`);
  const penalty = opts.penalty ?? 0.2;
  const bonus = opts.bonus ?? 0.1;
  const lang = opts.lang;
  const clitics = lang !== undefined && CASE_CLASH_LANGS.has(lang);
  const tc = new Uint8Array(cols);
  for (let j = 0; j < cols; j++) tc[j] = classOf(tgt[j]!);
  for (let i = 0; i < rows; i++) {
    const a = classOf(en[i]!);
    if (a === 0) continue;
    const row = i * cols;
    for (let j = 0; j < cols; j++) {
      const b = tc[j]!;
      if (INCOMPATIBLE[a * NCLASS + b]) data[row + j] *= penalty;
      else if (a === P && (b === P || b === D)) {
        if (personClash(en[i]!, tgt[j]!) || (b === P && clitics && tgt[j - 1]?.upos !== "ADP" && caseClash(en[i]!, tgt[j]!))) data[row + j] *= b === P ? penalty : 1;
        else if (lang !== undefined && youMeetsThird(en[i]!, tgt[j]!) && !formalYou(lang, tgt, j)) {
          // a third-person pronoun that is no formal form of the language is penalised like a clash (es *la* for
          // *you* only before a verb: "la casa" is no formal address)
          if (b === P && tgt[j]!.feats.Person === "3" && FORMAL[lang]) data[row + j] *= penalty;
        }
        else data[row + j] += bonus;
      } else if ((a === V && b === V) || (NOUNISH(a) && NOUNISH(b))) data[row + j] += bonus;
    }
  }
  if (opts.clitics !== false) cliticAnchors(m, en, tgt, lang, penalty);
}

/** Tags an auxiliary or verb group may hold between its auxiliary and its main verb ("l'ho già visto"). */
const GROUP_SKIP = new Set(["PRON", "ADV", "PART", "AUX"]);

/**
 * Adds links (in place, after the one-to-one `links`) from the rest of each verb group; see the module
 * comment. Looks at most 3 tokens on, across pronouns, adverbs, particles and auxiliaries only; a verb that
 * already has a link is left alone.
 */
export function addVerbGroupLinks(links: Array<[number, number]>, en: readonly AnnToken[], tgt: readonly AnnToken[]): void {
  const linkedEn = new Set<number>();
  const linkedTgt = new Set<number>();
  for (const [e, t] of links) {
    linkedEn.add(e);
    linkedTgt.add(t);
  }
  const extra: Array<[number, number]> = [];
  const next = (toks: readonly AnnToken[], from: number): number => {
    for (let k = from + 1; k < Math.min(toks.length, from + 4); k++) {
      if (toks[k]!.upos === "VERB") return k;
      if (!GROUP_SKIP.has(toks[k]!.upos)) return -1;
    }
    return -1;
  };
  for (const [e, t] of links) {
    const ev = CLASS[en[e]!.upos] === V;
    if (ev && tgt[t]!.upos === "AUX") {
      const j = next(tgt, t);
      if (j >= 0 && !linkedTgt.has(j)) extra.push([e, j]);
    }
    if (en[e]!.upos === "AUX" && CLASS[tgt[t]!.upos] === V) {
      const i = next(en, e);
      if (i >= 0 && !linkedEn.has(i)) extra.push([i, t]);
    }
  }
  links.push(...extra);
}

/**
 * Links the only verb (VERB or AUX) of the English side to the only verb of the target side, in place, when
 * each side has exactly one and they are not linked yet (other links of the two are kept).
 */
export function addSoleVerbLink(links: Array<[number, number]>, en: readonly AnnToken[], tgt: readonly AnnToken[]): void {
  const only = (toks: readonly AnnToken[]): number => {
    let k = -1;
    for (let i = 0; i < toks.length; i++) {
      if (CLASS[toks[i]!.upos] !== V) continue;
      if (k >= 0) return -1;
      k = i;
    }
    return k;
  };
  const e = only(en);
  if (e < 0) return;
  const t = only(tgt);
  if (t < 0 || links.some(([a, b]) => a === e && b === t)) return;
  links.push([e, t]);
}

/** Comitative pronouns: a preposition and a personal pronoun in one word (es, pt). */
export const COMITATIVE: ReadonlySet<string> = new Set([
  "conmigo", "contigo", "consigo", // es (contigo, consigo also pt)
  "comigo", "connosco", "conosco", "convosco", // pt (conosco: Brazilian spelling)
]);

/**
 * Links a comitative pronoun (`COMITATIVE`) to the English personal pronoun right after *with*, in place,
 * when the pronoun is linked to that *with*, or when it has no link at all and the line has exactly one
 * *with* + personal pronoun of compatible person (then to both words).
 */
export function addComitativeLinks(links: Array<[number, number]>, en: readonly AnnToken[], tgt: readonly AnnToken[]): void {
  const withPron: number[] = [];
  for (let i = 0; i + 1 < en.length; i++) {
    const p = en[i + 1]!;
    if (en[i]!.text.toLowerCase() === "with" && p.upos === "PRON" && p.feats.Person !== undefined && p.feats.Poss !== "Yes") withPron.push(i + 1);
  }
  if (!withPron.length) return;
  for (let j = 0; j < tgt.length; j++) {
    if (!COMITATIVE.has(tgt[j]!.text.toLowerCase())) continue;
    const mine = links.filter((l) => l[1] === j).map((l) => l[0]);
    let add = withPron.filter((p) => mine.includes(p - 1) && !personClash(en[p]!, tgt[j]!));
    if (!add.length && !mine.length) {
      const fit = withPron.filter((p) => !personClash(en[p]!, tgt[j]!));
      if (fit.length === 1) {
        add = fit;
        links.push([fit[0]! - 1, j]);
      }
    }
    for (const p of add) if (!mine.includes(p)) links.push([p, j]);
  }
}

/** Target parts of speech whose link does not hold an English *you*. */
const FUNCTION_TARGET: ReadonlySet<string> = new Set(["ADP", "ADV", "SCONJ", "CCONJ", "PUNCT", "DET", "PART"]);

/** English third-person personal pronouns that could claim a target clitic instead of *you*. */
const EN_THIRD = new Set(["it", "him", "her", "them", "he", "she", "they"]);

/**
 * Links English *you* to a formal third-person form of `lang` (`formalYou`: es *lo, la, usted*, it *la, Lei*,
 * pt *o, você*, de *Sie*, ...), in place, when after the matching the line has exactly one unlinked *you*
 * (second person, not possessive), exactly one formal form linked to no English content word or pronoun, and no unlinked English third-person
 * pronoun that could be the clitic's antecedent instead ("I'll arrest you" / "las arreste": EM gave *las* to
 * *of*).
 */
export function addFormalYouLink(
  links: Array<[number, number]>,
  en: readonly AnnToken[],
  tgt: readonly AnnToken[],
  lang: string | undefined,
): void {
  if (!lang || !FORMAL[lang]) return;
  const linkedEn = new Set(links.map((l) => l[0]));
  // a *you* linked only to target function words ("carried you" / "a", "keep you" / "más") is free too
  const contentLinked = new Set(links.filter(([, j]) => !FUNCTION_TARGET.has(tgt[j]!.upos)).map((l) => l[0]));
  const unlinked: number[] = [];
  const free: number[] = [];
  for (let i = 0; i < en.length; i++) {
    const t = en[i]!;
    if (t.upos !== "PRON") continue;
    const w = t.text.toLowerCase();
    if (!linkedEn.has(i) && EN_THIRD.has(w)) return;
    if (w !== "you" || t.feats.Poss === "Yes") continue;
    if (!linkedEn.has(i)) unlinked.push(i);
    if (!contentLinked.has(i)) free.push(i);
  }
  // the line's only unlinked *you*; failing any, its only *you* linked to function words alone
  const yous = unlinked.length ? unlinked : free;
  if (yous.length !== 1) return;
  // a formal form linked only to English function words (a preposition, article, punctuation) counts as free,
  // and one linked to an English subject pronoun whose case rules it out ("I" / "Los dejaré": caseClash)
  const held = new Set(
    links
      .filter(([e, j]) => ["PRON", "NOUN", "PROPN", "VERB", "AUX"].includes(en[e]!.upos) && !(CASE_CLASH_LANGS.has(lang) && en[e]!.upos === "PRON" && caseClash(en[e]!, tgt[j]!)))
      .map((l) => l[1]),
  );
  const cands: number[] = [];
  for (let j = 0; j < tgt.length; j++) if (!held.has(j) && formalYou(lang, tgt, j)) cands.push(j);
  if (cands.length === 1) links.push([yous[0]!, cands[0]!]);
}
