/**
 * The CTXPRO matching engine (Wicks & Post 2023, Sec. 3): for every segment of an annotated parallel
 * document and every rule, find T_s (English token), T_t (aligned target token), C_s (English context
 * token) and C_t (its aligned target token), and check each against the rule:
 *
 *  1. aligned pairs (T_s, T_t) of the segment;  2./3. T_s and T_t meet the rule (form, POS, case);
 *  4. a contextual solver finds C_s;  5. C_s meets the rule;  6. C_t by alignment;  7. C_t meets the rule.
 *
 * Per phenomenon: GENDER uses English coreference (C_s = head of the most recent noun-headed antecedent
 * mention, C_t = its aligned noun, which must carry the rule's gender and number; when the resolver gives
 * no noun, or one whose aligned noun clashes, the one agreeing noun in reach: EngineOptions.fallbackAntecedent); FORMALITY stops after
 * step 3; AUXILIARY finds C_t as the most recent previous occurrence of T_t's lemma and C_s by alignment;
 * INFLECTION takes a verb-less segment and the most recent noun in T_t's case. ANIMACY runs the gender
 * check and reverses the item. The windowing (the segment plus up to window-1 previous sentences) and
 * the details of each check follow rewicks/ctxpro (ctxpro/checkers.py); differences are documented in
 * docs/ctxpro.md.
 */
import { InputError } from "../io/errors.js";
import type { AnnToken, AnnotatedParallelDoc, Mention } from "../annotate/types.js";
import type { AuxiliaryRule, InflectionRule, PronounRule, RuleSet } from "./rules.js";
import { auxiliaryFormula, freeRelativeArticle, italianSelaIdiom, numberAgrees, pluralItAgrees, polishPronounAgrees, propositionalClitic, sameSentence } from "./consistency.js";
import { KEY_ORDER, ordered, reverseGenderItem, type CtxproItem } from "./items.js";
import { alignedHead, DocIndex, validateDoc } from "./aligned-doc.js";
import { adverbialTime, compoundHeadAfter, copulaSubject, personPredicate, prepositionHost, propositionalObject, refusedObjectPosition } from "./english-clauses.js";
import { FALLBACK_MODES, fallbackMentions, OBJECT_LABEL, uniqueFallback, type FallbackMode } from "./fallback.js";
import { adjectiveHead, adjectiveLinkedHead, nominalHead } from "./target-heads.js";
import { matchesCase, morphoString, spanText, values, VERBS } from "./tokens.js";

export { FALLBACK_MODES, type FallbackMode } from "./fallback.js";

export interface EngineOptions {
  /** Sentences visible to a rule: the segment and up to windowSize-1 before it (CTXPRO default 10). */
  windowSize?: number;
  /**
   * INFLECTION matching. "paper" (default): T_t, T_s and C_t are nominal heads, as Sec. 3 describes
   * (nouns; read as the head of a noun phrase: also pronouns and adjectives, determiners or numerals
   * used as nouns, see `nominalHead`).
   * "ctxpro": the released code's behaviour: any case-bearing target token, the segment's case-bearing
   * tokens must all be in the rule's case, C_t the first case-bearing token of the nearest sentence.
   */
  inflection?: "paper" | "ctxpro";
  /**
   * GENDER/ANIMACY when the resolver gives the pronoun no noun antecedent (it abstained, or its chain
   * holds only pronouns), or one whose aligned target noun has another gender or number: the most recent English noun of the pronoun's sentence (before it) or of the
   * sentence before, agreeing with the pronoun in number, whose aligned target noun agrees with the
   * target pronoun (the rule's gender and number).
   * "unique" (the default; `ctxpro identify --fallback-antecedent unique`): only where the
   * choice is unambiguous: exactly one English noun of the reach can be the antecedent (agrees with the
   * pronoun in number, is no person for *it*, no noun of time, stands in no position an object pronoun
   * cannot take: its own clause's subject, a relative clause's head) and has an aligned target noun of the rule's gender and number, and every other such noun is
   * aligned to a target noun whose gender and number are known and clash; not for an expletive *it*,
   * subject *they*, or after an earlier object *it* or *them* in reach (`uniqueFallback`).
   * `true` or "nearest" (`--fallback-antecedent` alone): the nearest such noun; more items,
   * right less often than the resolver's (docs/lab/annotate.md, "Probe").
   * `false` or "off": no fallback.
   */
  fallbackAntecedent?: boolean | FallbackMode;
  /** English common-noun lemmas that name a person: never a fallback antecedent of *it* (identify passes the resolver's). */
  personNoun?: (lemma: string) => boolean;
  /**
   * ANIMACY: a target pronoun tagged only in cases its set has no rule for takes the set's one rule for
   * its form. Off by default: the case label is then wrong (pl genitive *jej* given DAT), which makes the
   * item questionable.
   */
  uncoveredCase?: boolean;
  /**
   * Polish *je* (accusative of the neuter *ono* and of the non-virile plural *one*) for a masculine or feminine
   * singular antecedent, as the released rules define it (PL_GENDER/PL_ANIMACY ACC.MASC.SING, GEN.MASC.SING).
   * Off by default: Polish grammar rules *je* out there, and what such items pair is a neuter or plural
   * *je* with a masculine noun the resolver or tagger chose (docs/ctxpro-labels.md). On, the rules apply as released.
   */
  polishJeAnyGender?: boolean;
}

const PRONOUN_POS = new Set(["PRON", "NOUN"]);

/** English tags a mis-tagged target verb of a verb-less line may be aligned to (inflection, paper mode). */
const NOMINAL_EN = new Set(["NOUN", "PROPN", "ADJ", "NUM", "PRON"]);

/**
 * Animacy sets keep only some of the gender rules (no GEN, NEUT, DISJ or plural labels), so a syncretic
 * pronoun the tagger puts in a dropped case has no rule left (pl *jej* Gen/Dat, *niego* Acc/Gen: "Potrzebuję
 * jej" came out Gen, the set has only DAT.FEM.SING for *jej*). For a rule whose aligned form no other rule
 * of the set has, the cases the set's rules cover for that form: a target pronoun tagged only in other
 * cases still takes the rule, since the item tests the English form, not the case (only with
 * EngineOptions.uncoveredCase, since most such *jej* are genitives and the DAT label is wrong).
 */
function uncoveredCaseRules(set: RuleSet): Map<PronounRule, Set<string>> {
  const out = new Map<PronounRule, Set<string>>();
  if (!set.reversed) return out;
  const byForm = new Map<string, PronounRule[]>();
  for (const r of set.rules) if (r.type === "pronoun") byForm.set(r.alignedForm, [...(byForm.get(r.alignedForm) ?? []), r]);
  for (const rules of byForm.values()) {
    if (rules.length !== 1 || rules[0].alignedCase === "*" || rules[0].alignedCase.startsWith("-")) continue;
    out.set(rules[0], new Set([rules[0].alignedCase]));
  }
  return out;
}

function pronounItem(rule: PronounRule, idx: DocIndex, i: number, lo: number, fallback: FallbackMode, covered?: Set<string>, personNoun?: (lemma: string) => boolean, jeAnyGender = false): CtxproItem | undefined {
  const { doc } = idx;
  const en = doc.en[i].tokens;
  const tgt = doc.tgt[i].tokens;
  const objectRule = OBJECT_LABEL.test(rule.label);
  // Steps 1-3: aligned pronoun pairs with the rule's forms, POS and case.
  for (const [e, t] of idx.links[i]) {
    const te = en[e];
    const tt = tgt[t];
    if (te.text.toLowerCase() !== rule.englishForm || tt.text.toLowerCase() !== rule.alignedForm) continue;
    if (!PRONOUN_POS.has(te.upos) || !PRONOUN_POS.has(tt.upos)) continue;
    if (!matchesCase(te, rule.englishCase)) continue;
    if (!matchesCase(tt, rule.alignedCase)) {
      const cases = values(tt, "Case");
      if (!covered || cases.length === 0 || cases.some((c) => covered.has(c))) continue;
    }
    if (!rule.requiresCoref) {
      return {
        "src pronoun": rule.englishForm,
        expected: rule.expected,
        "ref segment": doc.tgt[i].text,
        "src segment": doc.en[i].text,
      };
    }
    // A Polish *je* cannot stand for a masculine or feminine singular antecedent (unless asked to follow the rules as released).
    if (!jeAnyGender && !polishPronounAgrees(doc.lang, rule)) return undefined;
    // Consistency checks beyond the released rules (./consistency.ts): the pronoun link stays within
    // one sentence of the line.
    if (!sameSentence(en, tgt, idx.links[i], e, t)) continue;
    // ... and an object clitic is not the propositional object of *do* ("se não o fizermos", "ce la faccio"),
    // nor the article of a free relative ("lo que queda", "o que o torna"), nor the *la* of an
    // Italian -sela idiom ("se la vedranno loro", "se la cava": it stands for nothing).
    if (objectRule && (propositionalClitic(doc.lang, tgt, t, en, e) || freeRelativeArticle(doc.lang, tgt, t) || italianSelaIdiom(doc.lang, tgt, t))) continue;
    // Step 4: the antecedent is the most recent earlier mention of the pronoun's cluster, within the
    // window, whose head is a noun (step 5); an antecedent that is itself a pronoun does not count.
    const own = idx.mentionOf(i, e);
    let ante: Mention | undefined;
    if (own) {
      const cluster = idx.clusters[own.cluster];
      const pos = cluster.indexOf(own);
      for (let k = pos - 1; k >= 0; k--) {
        const m = cluster[k];
        if (m.sent < lo) break;
        if (doc.en[m.sent].tokens[m.head].upos === rule.englishCorefPos) {
          ante = m;
          break;
        }
      }
    }
    // ... nor, for an object pronoun, a noun of its own sentence in a position it cannot take (its own clause's
    // subject, the subject of a coordinated verb phrase it stands in, the head of a relative clause it stands in).
    if (ante && ante.sent === i && objectRule && te.feats.Poss !== "Yes" && refusedObjectPosition(en, ante, e)) continue;
    // ... nor, for *it* / *them*, the predicate noun of a copula with a person pronoun subject:
    // the pronoun then has no resolver antecedent (the fallback, where on, may find one).
    if (ante && personPredicate(doc.en[ante.sent].tokens, ante, personNoun, rule.englishForm)) ante = undefined;
    // ... nor the noun of an adverbial time phrase, a preposition + a noun of time ("at night", "in the
    // morning", "on Tuesday"; as for the fallback): it sets the time, it is not the thing.
    if (ante && adverbialTime(doc.en[ante.sent].tokens, ante)) ante = undefined;
    // The resolver's antecedent is a copula's predicate noun or a prepositional complement of another
    // noun: the subject or the host noun is taken instead when its aligned target
    // noun agrees with the target pronoun and it agrees with the English pronoun in number. Only for an
    // antecedent that gives an item itself (its aligned noun agrees): where it does not, the moved one would
    // add items, right less often (74 % of 34 read) than the pool.
    if (ante && alignedHead(rule, idx, ante)) {
      const aen = doc.en[ante.sent].tokens;
      for (const alt of [copulaSubject(aen, ante), prepositionHost(aen, ante)]) {
        if (!alt || aen[alt.head].upos !== rule.englishCorefPos || !numberAgrees(te, aen[alt.head])) continue;
        if (ante.sent === i && alt.end > e) continue;
        if (rule.englishForm.startsWith("it") && personNoun?.(aen[alt.head].lemma || aen[alt.head].text)) continue;
        const m = { sent: ante.sent, ...alt };
        if (alignedHead(rule, idx, m)) {
          ante = m;
          break;
        }
      }
    }
    const clash = { noun: false };
    // k, tagged: the target head's index and its tag before an adjective standing as a noun was read as one
    // (a fallback antecedent has none).
    let found: { ct: AnnToken; a: number; b: number; k?: number; tagged?: string } | undefined = ante && alignedHead(rule, idx, ante, clash);
    let csNoun = false;
    if (ante) {
      const aen = doc.en[ante.sent].tokens;
      const ts = doc.tgt[ante.sent].tokens;
      // The English head is the modifier noun of a compound whose head the tagger called an adjective.
      const h = found?.k !== undefined ? compoundHeadAfter(aen, ante.head, idx.alignedTgt(ante.sent, ante.head + 1), found.k) : undefined;
      if (found && h !== undefined) {
        ante = { ...ante, end: h + 1, head: h };
        csNoun = true;
      }
      // The target head is an adjective: the noun it agrees with, or no antecedent.
      const j = found?.k !== undefined ? adjectiveHead(doc.lang, ts, found.k, found.tagged ?? "") : undefined;
      if (found && j !== undefined) {
        found = j < 0 ? undefined : { ct: { ...ts[j], upos: "NOUN" }, a: Math.min(found.a, j), b: Math.max(found.b, j + 1), k: j, tagged: ts[j].upos };
      }
      // The target head is also aligned to an English adjective of the mention: the agreeing
      // word before it is the noun ("her cortical array" / "seu dispositivo/ADJ cortical/NOUN").
      const k = found && j === undefined ? found.k : undefined;
      if (found && k !== undefined) {
        const adjLinks: number[][] = [];
        for (let x = ante.start; x < ante.head; x++) if (aen[x].upos === "ADJ") adjLinks.push(idx.alignedTgt(ante.sent, x));
        const n = adjectiveLinkedHead(ts, k, adjLinks);
        if (n !== undefined) found = { ct: { ...ts[n], upos: "NOUN" }, a: Math.min(found.a, n), b: Math.max(found.b, n + 1), k: n, tagged: ts[n].upos };
      }
    }
    // No noun antecedent from the resolver, or one whose aligned noun has another gender or number
    // than the target pronoun (the resolver's choice is then contradicted by the translation): the one
    // candidate noun of the reach ("unique") or the nearest agreeing noun ("nearest";
    // EngineOptions.fallbackAntecedent). An antecedent that merely failed to
    // align to a noun is not replaced (the resolver may be right and the alignment wrong).
    if ((!ante || clash.noun) && fallback !== "off") {
      ante = undefined;
      found = undefined;
      // Not for the object of a verb that mostly takes an event or a proposition ("did it", "get it",
      // "bought it" = believed), nor a person noun for *it*.
      if (fallback === "unique") {
        const u = propositionalObject(en, e) ? undefined : uniqueFallback(rule, idx, i, e, lo, personNoun);
        if (u) {
          ante = u.m;
          found = u.f;
        }
      } else if (!propositionalObject(en, e)) {
        const ok: Array<{ m: Mention; f: { ct: AnnToken; a: number; b: number } }> = [];
        for (const m of fallbackMentions(rule, idx, i, e, lo)) {
          const head = doc.en[m.sent].tokens[m.head];
          if (!numberAgrees(te, head)) continue;
          if (rule.englishForm.startsWith("it") && personNoun?.(head.lemma || head.text)) continue;
          const f = alignedHead(rule, idx, m, undefined, false);
          if (f) ok.push({ m, f });
        }
        if (ok.length) {
          ante = ok[0].m;
          found = ok[0].f;
        }
      }
    }
    if (!ante || !found) continue;
    const { ct, a, b } = found;
    // A plural target pronoun for singular English *it* needs a plural antecedent: CTXPRO's es
    // rules ACC.MASC.PLUR / ACC.FEM.PLUR (*it* -> *los* / *las*, singular antecedent) are not applied as
    // released, since *las* for "the letter" (*la carta*) disagrees with the antecedent it names.
    if (!pluralItAgrees(rule, ct)) continue;
    let cs = doc.en[ante.sent].tokens[ante.head];
    if (csNoun) cs = { ...cs, upos: "NOUN" };
    // The English pronoun and the English head agree in number (plural *they* ≠ "my brother" of "my brother and sister").
    if (!numberAgrees(te, cs)) continue;
    return {
      "src pronoun": rule.englishForm,
      expected: rule.expected,
      "ante distance": i - ante.sent,
      intrasegmental: ante.sent === i,
      "ref ante head": ct.text,
      "ref ante head gender": rule.alignedCorefGender,
      "ref ante head lemma": ct.lemma,
      "ref ante head morpho": morphoString(ct),
      "ref ante head pos": rule.alignedCorefPos,
      "ref ante head number": rule.alignedCorefNumber,
      "ref ante phrase": spanText(doc.tgt[ante.sent], a, b),
      "ref segment": doc.tgt[i].text,
      "ref ante segment": doc.tgt[ante.sent].text,
      "src ante head": cs.text,
      "src ante head gender": values(cs, "Gender").join(","),
      "src ante head lemma": cs.lemma,
      "src ante head morpho": morphoString(cs),
      "src ante head pos": cs.upos,
      "src ante head number": values(cs, "Number").join(","),
      "src ante phrase": spanText(doc.en[ante.sent], ante.start, ante.end),
      "src segment": doc.en[i].text,
      "src ante segment": doc.en[ante.sent].text,
    };
  }
  return undefined;
}

function auxiliaryItem(rule: AuxiliaryRule, idx: DocIndex, i: number, lo: number): CtxproItem | undefined {
  const { doc } = idx;
  const en = doc.en[i].tokens;
  const lemma = (t: AnnToken) => t.lemma.toLowerCase();
  // Step 2: the auxiliary is the segment's only verb.
  const e = en.findIndex((t) => lemma(t) === rule.englishLemma);
  if (e < 0) return undefined;
  // Not a set phrase whose *do* is the main verb ("How do you do?"; ./consistency.ts).
  if (auxiliaryFormula(doc.en[i].text)) return undefined;
  if (en.some((t) => lemma(t) !== rule.englishLemma && VERBS.has(t.upos))) return undefined;
  // Steps 1 and 3: its aligned target verb, which is not a direct translation.
  const tIdx = idx.alignedTgt(i, e).find((t) => doc.tgt[i].tokens[t].upos === "VERB");
  if (tIdx === undefined) return undefined;
  const tv = doc.tgt[i].tokens[tIdx];
  const disallowed = new Set(rule.disallowedAlignedLemmas.map((l) => l.toLowerCase()));
  if (disallowed.has(lemma(tv))) return undefined;
  // Steps 4-7, reversed: C_t is the most recent earlier occurrence of the same target lemma whose
  // aligned English token is a verb other than the auxiliary itself (that verb is C_s).
  for (let s = i - 1; s >= lo; s--) {
    const ts = doc.tgt[s].tokens;
    for (let j = ts.length - 1; j >= 0; j--) {
      if (lemma(ts[j]) !== lemma(tv)) continue;
      const link = idx.links[s].find((l) => l[1] === j && doc.en[s].tokens[l[0]].upos === "VERB");
      if (!link) continue;
      const cs = doc.en[s].tokens[link[0]];
      if (lemma(cs) === rule.englishLemma) continue;
      return {
        "src verb": en[e].text,
        expected: tv.text,
        "ante distance": i - s,
        "ref verb lemma": tv.lemma,
        "ref segment": doc.tgt[i].text,
        "ref ante segment": doc.tgt[s].text,
        "src verb lemma": en[e].lemma,
        "src segment": doc.en[i].text,
        "src ante segment": doc.en[s].text,
        "src ante verb lemma": cs.lemma,
      };
    }
  }
  return undefined;
}

function inflectionItem(rule: InflectionRule, idx: DocIndex, i: number, lo: number, mode: "paper" | "ctxpro"): CtxproItem | undefined {
  const { doc } = idx;
  const en = doc.en[i].tokens;
  const tgt = doc.tgt[i].tokens;
  // Step 2/3 precondition: no verb on either side, so nothing in the segment fixes the case. In paper
  // mode a target word tagged VERB/AUX whose every link goes to an English noun, proper noun, adjective,
  // numeral or pronoun of the verb-less English line is taken for a mis-tagged nominal (pl "Idealną/VERB,
  // zdrową nerkę" for "A perfect, healthy kidney"; "Małego/VERB pistoletu"), not a verb.
  if (en.some((t) => VERBS.has(t.upos))) return undefined;
  for (let j = 0; j < tgt.length; j++) {
    if (!VERBS.has(tgt[j].upos)) continue;
    const links = idx.links[i].filter((l) => l[1] === j);
    if (mode === "ctxpro") return undefined;
    // No verb either: a token without letters (pl "MAC/VERB :/AUX") or an English interjection
    // copied into the target line and linked to itself ("Oh/VERB, Charlie", "Whoa/VERB").
    if (!/\p{L}/u.test(tgt[j].text)) continue;
    if (links.length && links.every((l) => en[l[0]].upos === "INTJ" && en[l[0]].text.toLowerCase() === tgt[j].text.toLowerCase())) continue;
    if (!links.length || !links.every((l) => NOMINAL_EN.has(en[l[0]].upos))) return undefined;
  }
  const hasCase = (t: AnnToken) => values(t, "Case").includes(rule.case);
  let tIdx = -1;
  let eIdx = -1;
  if (mode === "ctxpro") {
    for (let j = 0; j < tgt.length; j++) {
      const cases = values(tgt[j], "Case");
      if (cases.some((c) => c !== rule.case)) return undefined;
      if (cases.length) tIdx = j;
    }
    if (tIdx < 0) return undefined;
  } else {
    // The last nominal head in the rule's case whose aligned English token is a nominal head.
    for (let j = tgt.length - 1; j >= 0 && tIdx < 0; j--) {
      if (!hasCase(tgt[j]) || !nominalHead(tgt, j)) continue;
      const e = idx.links[i].find((l) => l[1] === j && nominalHead(en, l[0]));
      if (e) {
        tIdx = j;
        eIdx = e[0];
      }
    }
    if (tIdx < 0) return undefined;
  }
  // Step 4: C_t, the most recent earlier token (paper: nominal head) in the same case.
  let ante: { s: number; j: number } | undefined;
  for (let s = i - 1; s >= lo && !ante; s--) {
    const ts = doc.tgt[s].tokens;
    if (mode === "ctxpro") {
      const j = ts.findIndex(hasCase);
      if (j >= 0) ante = { s, j };
    } else {
      for (let j = ts.length - 1; j >= 0; j--) {
        if (!hasCase(ts[j]) || !nominalHead(ts, j)) continue;
        // Step 6: C_s by alignment of C_t.
        if (idx.links[s].some((l) => l[1] === j)) {
          ante = { s, j };
          break;
        }
      }
    }
  }
  if (!ante) return undefined;
  if (mode === "ctxpro") {
    const e = idx.links[i].find((l) => l[1] === tIdx);
    if (!e) return undefined;
    eIdx = e[0];
  }
  const ts = en[eIdx];
  const csLink = idx.links[ante.s].find((l) => l[1] === ante.j);
  const anteCase = mode === "ctxpro" ? values(ts, "Case") : csLink ? values(doc.en[ante.s].tokens[csLink[0]], "Case") : [];
  return {
    "src noun": ts.text,
    expected: tgt[tIdx].text,
    "ante distance": i - ante.s,
    "ref noun case": values(tgt[tIdx], "Case").join(","),
    "ref segment": doc.tgt[i].text,
    "ref ante segment": doc.tgt[ante.s].text,
    "src segment": doc.en[i].text,
    "src ante segment": doc.en[ante.s].text,
    "src ante noun case": anteCase.join(","),
  };
}

/** The layout an item of this rule set is written in. */
function layoutOf(set: RuleSet, rule: PronounRule | AuxiliaryRule | InflectionRule): readonly string[] {
  if (set.reversed) return KEY_ORDER.animacy;
  if (rule.type === "auxiliary") return KEY_ORDER.auxiliary;
  if (rule.type === "inflection") return KEY_ORDER.inflection;
  return rule.requiresCoref ? KEY_ORDER.gender : KEY_ORDER.formality;
}

/**
 * Runs rule sets over one annotated document. Returns, per rule set name, the items found in
 * document order (within a segment, in rule order); each rule yields at most one item per segment.
 */
export function matchDocument(doc: AnnotatedParallelDoc, sets: RuleSet[], opts: EngineOptions = {}): Map<string, CtxproItem[]> {
  const windowSize = opts.windowSize ?? 10;
  if (!Number.isInteger(windowSize) || windowSize < 1) throw new InputError(`window size must be an integer >= 1, got ${windowSize}`);
  const mode = opts.inflection ?? "paper";
  validateDoc(doc);
  const idx = new DocIndex(doc);
  const out = new Map<string, CtxproItem[]>();
  for (const set of sets) out.set(set.name, []);
  const uncovered = new Map(sets.map((set) => [set, uncoveredCaseRules(set)]));
  const fb = opts.fallbackAntecedent;
  const fallback: FallbackMode = fb === undefined ? "unique" : fb === true ? "nearest" : fb === false ? "off" : fb;
  if (!FALLBACK_MODES.includes(fallback)) throw new InputError(`fallback antecedent mode must be one of ${FALLBACK_MODES.join(", ")}, got '${fallback}'`);
  for (let i = 0; i < doc.en.length; i++) {
    const lo = Math.max(0, i - windowSize + 1);
    for (const set of sets) {
      const items = out.get(set.name)!;
      for (const rule of set.rules) {
        let item: CtxproItem | undefined;
        if (rule.type === "pronoun") item = pronounItem(rule, idx, i, lo, fallback, opts.uncoveredCase ? uncovered.get(set)!.get(rule) : undefined, opts.personNoun, !!opts.polishJeAnyGender);
        else if (rule.type === "auxiliary") item = auxiliaryItem(rule, idx, i, lo);
        else item = inflectionItem(rule, idx, i, lo, mode);
        if (!item) continue;
        item["segment id"] = i + 1;
        item["document id"] = doc.id;
        item.rule = rule.label;
        items.push(set.reversed ? reverseGenderItem(item) : ordered(item, layoutOf(set, rule)));
      }
    }
  }
  return out;
}
