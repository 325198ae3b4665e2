// Rule labels on hand-made sentences: the tagger's reading of each sentence, links given by hand.
import { describe, expect, it } from "vitest";
import { sent } from "./ann-helper.js";
import type { AnnotatedParallelDoc, AnnSentence, CorefCluster } from "../src/annotate/types.js";
import { loadDefaultMorph } from "../src/annotate/index.js";
import { matchDocument, type EngineOptions } from "../src/ctxpro/engine.js";
import { knownLabel, loadRuleSet, parseRuleFile } from "../src/ctxpro/rules.js";
import { InputError } from "../src/io/errors.js";

const en = loadDefaultMorph("en");
const tagger = { es: loadDefaultMorph("es"), it: loadDefaultMorph("it") };

/** A one-line document: both sides tagged by the built-in taggers, the links given as "e-t e-t ...". */
function tagged(lang: "es" | "it", english: string, other: string, links: string, coref: CorefCluster[] = [], before?: [string, string, string]): AnnotatedParallelDoc {
  const pairs: Array<[string, string, string]> = [...(before ? [before] : []), [english, other, links]];
  return {
    id: "hand",
    lang,
    en: pairs.map((p) => en.annotate(p[0])),
    tgt: pairs.map((p) => tagger[lang].annotate(p[1])),
    alignment: pairs.map((p) => p[2].split(" ").map((l) => l.split("-").map(Number) as [number, number])),
    coref,
  };
}

function labels(doc: AnnotatedParallelDoc, set: string, opts: EngineOptions = {}): string[] {
  return (matchDocument(doc, [loadRuleSet(set, doc.lang)], opts).get(set) ?? []).map((x) => `${x.rule}:${x.expected}`);
}

const caseOf = (s: AnnSentence, word: string) => s.tokens.find((t) => t.text.toLowerCase() === word)?.feats.Case;

describe("Spanish stressed pronouns after a preposition (DISJ labels)", () => {
  it("reads usted, ustedes, vosotros, vosotras, él, ella after a preposition as not nominative", () => {
    const es = tagger.es;
    expect(caseOf(es.annotate("Esto es para usted, señor."), "usted")).toBe("Acc");
    expect(caseOf(es.annotate("Voy con ustedes."), "ustedes")).toBe("Acc");
    expect(caseOf(es.annotate("Lo hice por vosotras, chicas."), "vosotras")).toBe("Acc");
    expect(caseOf(es.annotate("Quiero hablar con vosotros."), "vosotros")).toBe("Acc");
    expect(caseOf(es.annotate("Hablo con él y ella."), "ella")).toBe("Acc");
    expect(caseOf(es.annotate("Se hartó de todos vosotros."), "vosotros")).toBe("Acc");
    expect(caseOf(es.annotate("Todas vosotras lo sois."), "vosotras")).toContain("Nom");
    // The subject, and the subject form after *como*, keep the table's reading, which includes the nominative.
    expect(caseOf(es.annotate("Usted es muy amable."), "usted")).toContain("Nom");
    expect(caseOf(es.annotate("Como ustedes saben, es tarde."), "ustedes")).toContain("Nom");
  });

  it("gives DISJ.FORM.SING, DISJ.FORM.PLUR, DISJ.INFORM.PLUR.MASC and DISJ.INFORM.PLUR.FEM", () => {
    expect(labels(tagged("es", "This is for you, sir.", "Esto es para usted, señor.", "0-0 1-1 2-2 3-3 4-4 5-5 6-6"), "ES_FORMALITY")).toContain("DISJ.FORM.SING:usted");
    expect(labels(tagged("es", "This gift is for you, gentlemen.", "Este regalo es para ustedes, señores.", "0-0 1-1 2-2 3-3 4-4 5-5 6-6 7-7"), "ES_FORMALITY")).toContain("DISJ.FORM.PLUR:ustedes");
    expect(labels(tagged("es", "I want to talk with you, boys.", "Quiero hablar con vosotros, chicos.", "1-0 3-1 4-2 5-3 6-4 7-5 8-6"), "ES_FORMALITY")).toContain("DISJ.INFORM.PLUR.MASC:vosotros");
    expect(labels(tagged("es", "I did it for you, girls.", "Lo hice por vosotras, chicas.", "2-0 1-1 3-2 4-3 5-4 6-5 7-6"), "ES_FORMALITY")).toContain("DISJ.INFORM.PLUR.FEM:vosotras");
    // A subject *usted* is NOM.FORM.SING only.
    expect(labels(tagged("es", "You are very kind.", "Usted es muy amable.", "0-0 1-1 2-2 3-3 4-4"), "ES_FORMALITY")).toEqual(["NOM.FORM.SING:usted"]);
  });

  it("gives the gender DISJ labels for *it* / *them* after a preposition", () => {
    const bag: [string, string, string] = ["Where is his bag?", "¿Dónde está su bolsa?", "0-1 1-2 2-3 3-4 4-5"];
    const coref: CorefCluster[] = [{ mentions: [{ sent: 0, start: 3, end: 4, head: 3 }, { sent: 1, start: 5, end: 6, head: 5 }] }];
    const doc = tagged("es", "I want to put something in it.", "Quiero meter algo en ella.", "1-0 3-1 4-2 5-3 6-4 7-5", coref, bag);
    expect(labels(doc, "ES_GENDER")).toContain("DISJ.FEM.SING:ella");
  });
});

describe("Italian formal Lei and loro", () => {
  it("gives NOM.FORM.PLUR and DISJ.FORM.PLUR for loro, DISJ.FORM.SING for Lei", () => {
    expect(labels(tagged("it", "Are you ready, gentlemen?", "Loro sono pronti, signori?", "0-1 1-0 2-2 3-3 4-4 5-5"), "IT_FORMALITY")).toContain("NOM.FORM.PLUR:loro");
    expect(labels(tagged("it", "This is for you, gentlemen.", "Questo è per loro, signori.", "0-0 1-1 2-2 3-3 4-4 5-5 6-6"), "IT_FORMALITY")).toContain("DISJ.FORM.PLUR:loro");
    expect(labels(tagged("it", "I will come with you, madam.", "Verrò con Lei, signora.", "2-0 3-1 4-2 5-3 6-4 7-5"), "IT_FORMALITY")).toContain("DISJ.FORM.SING:lei");
  });
});

describe("Italian possessive pronouns (labels absent from the dev sets)", () => {
  it("gives GEN.MASC.SING.1S for mine -> mio and GEN.FEM.SING.3P for theirs -> loro", () => {
    const book: [string, string, string] = ["This is your book.", "Questo è il tuo libro.", "0-0 1-1 2-3 3-4 4-5"];
    const toBook: CorefCluster[] = [{ mentions: [{ sent: 0, start: 2, end: 4, head: 3 }, { sent: 1, start: 2, end: 3, head: 2 }] }];
    expect(labels(tagged("it", "Where is mine?", "Dov' è il mio?", "0-0 1-1 2-3 3-4", toBook, book), "IT_GENDER", { fallbackAntecedent: "off" })).toEqual(["GEN.MASC.SING.1S:mio"]);
    const car: [string, string, string] = ["Our car is red.", "La nostra macchina è rossa.", "0-1 1-2 2-3 3-4 4-5"];
    const toCar: CorefCluster[] = [{ mentions: [{ sent: 0, start: 0, end: 2, head: 1 }, { sent: 1, start: 0, end: 1, head: 0 }] }];
    expect(labels(tagged("it", "Theirs is blue.", "La loro è blu.", "0-1 1-2 2-3 3-4", toCar, car), "IT_GENDER", { fallbackAntecedent: "off" })).toEqual(["GEN.FEM.SING.3P:loro"]);
  });
});

describe("Polish je (ACC.MASC.SING)", () => {
  // "Gdzie jest klucz? Zgubiłem je." with *je* linked to "it" and "key" to *klucz* (masculine singular).
  const P = "././PUNCT";
  const doc: AnnotatedParallelDoc = {
    id: "je",
    lang: "pl",
    en: [sent(`Where/where/ADV is/be/AUX the/the/DET key/key/NOUN/Number=Sing ?/?/PUNCT`), sent(`I/I/PRON/Case=Nom lost/lose/VERB it/it/PRON/Case=Acc ${P}`)],
    tgt: [sent(`Gdzie/gdzie/ADV jest/być/AUX klucz/klucz/NOUN/Case=Nom|Gender=Masc|Number=Sing ?/?/PUNCT`), sent(`Zgubiłem/zgubić/VERB je/on/PRON/Case=Acc|Gender=Neut|Number=Sing ${P}`)],
    alignment: [[[0, 0], [1, 1], [3, 2], [4, 3]], [[1, 0], [2, 1], [3, 2]]],
    coref: [{ mentions: [{ sent: 0, start: 2, end: 4, head: 3 }, { sent: 1, start: 2, end: 3, head: 2 }] }],
  };
  it("is refused by default (Polish grammar rules it out) and given as the rules define it on request", () => {
    expect(labels(doc, "PL_GENDER", { fallbackAntecedent: "off" })).toEqual([]);
    expect(labels(doc, "PL_GENDER", { fallbackAntecedent: "off", polishJeAnyGender: true })).toEqual(["ACC.MASC.SING:je"]);
    expect(matchDocument(doc, [loadRuleSet("PL_ANIMACY", "pl")], { fallbackAntecedent: "off", polishJeAnyGender: true }).get("PL_ANIMACY")!.map((x) => [x.rule, x.expected])).toEqual([["ACC.MASC.SING", "it"]]);
  });
});

describe("rule labels", () => {
  it("knows every label of the built-in rule sets and refuses others, naming the file", () => {
    for (const name of ["DE_GENDER", "ES_FORMALITY", "FR_AUXILIARY", "IT_GENDER", "PL_INFLECTION", "PT_GENDER", "RU_GENDER"]) {
      for (const r of loadRuleSet(name, name.slice(0, 2).toLowerCase()).rules) expect(knownLabel(r.label)).toBe(true);
    }
    const rule = { type: "inflection", case: "Gen" };
    expect(() => parseRuleFile(JSON.stringify({ "GEN.ELL": rule, "GEN.ELIPSIS": rule }), "mine.json")).toThrow(InputError);
    expect(() => parseRuleFile(JSON.stringify({ "GEN.ELL": rule, "GEN.ELIPSIS": rule }), "mine.json")).toThrow(/^mine.json.*unknown rule label "GEN.ELIPSIS"/);
    expect(parseRuleFile(JSON.stringify({ "ACC.INFORM+FORM.PLUR": rule }), "ok.json")).toHaveLength(1);
  });
});
