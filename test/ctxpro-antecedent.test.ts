import { describe, expect, it } from "vitest";
import { sent } from "./ann-helper.js";
import type { AnnotatedParallelDoc } from "../src/annotate/types.js";
import { matchDocument } from "../src/ctxpro/engine.js";
import { adverbialTime, compoundHeadAfter, copulaSubject, personPredicate, prepositionHost, relativeClauseHead, sharedSubject } from "../src/ctxpro/english-clauses.js";
import { adjectiveHead, adjectiveLinkedHead, determinedNoun, genitiveHost, standsAsNoun } from "../src/ctxpro/target-heads.js";
import { pluralItAgrees, polishPronounAgrees } from "../src/ctxpro/consistency.js";
import { loadRuleSet } from "../src/ctxpro/rules.js";

describe("plural target pronoun for English *it*", () => {
  const carta = sent("carta/carta/NOUN/Gender=Fem|Number=Sing").tokens[0];
  const cartas = sent("cartas/carta/NOUN/Gender=Fem|Number=Plur").tokens[0];
  it("needs a plural antecedent for it -> las / los", () => {
    expect(pluralItAgrees({ englishForm: "it", label: "ACC.FEM.PLUR" }, carta)).toBe(false);
    expect(pluralItAgrees({ englishForm: "it", label: "ACC.FEM.PLUR" }, cartas)).toBe(true);
    expect(pluralItAgrees({ englishForm: "it", label: "ACC.MASC.PLUR" }, carta)).toBe(false);
  });
  it("leaves other rules alone", () => {
    expect(pluralItAgrees({ englishForm: "it", label: "ACC.FEM.SING" }, carta)).toBe(true);
    expect(pluralItAgrees({ englishForm: "them", label: "ACC.FEM.PLUR" }, cartas)).toBe(true);
  });
});

describe("an ADJ-tagged target token counts as a noun only with no noun in its phrase", () => {
  it("refuses an adjective whose noun stands across adverbs and adjectives", () => {
    const ts = sent("uma/um/DET/Gender=Fem|Number=Sing coisa/coisa/NOUN/Gender=Fem|Number=Sing tão/tão/ADV importante/importante/ADJ/Gender=Fem|Number=Sing").tokens;
    expect(standsAsNoun(ts, 3)).toBe(false);
  });
  it("takes a lone adjective after a determiner", () => {
    const ts = sent("los/el/DET/Gender=Masc|Number=Plur reporteros/reportero/ADJ/Gender=Masc|Number=Plur !/!/PUNCT").tokens;
    expect(standsAsNoun(ts, 1)).toBe(true);
    const nf = sent("los/el/DET reporteros/reportero/ADJ").tokens;
    expect(standsAsNoun(nf, 1)).toBe(false);
  });
});

describe("the head noun of the relative clause the object pronoun stands in", () => {
  const en = sent("Go/go/VERB find/find/VERB a/a/DET place/place/NOUN that/that/PRON will/will/AUX nurture/nurture/VERB it/it/PRON").tokens;
  it("is refused", () => {
    expect(relativeClauseHead(en, { end: 4 }, 7)).toBe(true);
  });
  it("but not across punctuation, nor a contact clause or a noun right before the pronoun", () => {
    const comma = sent("the/the/DET place/place/NOUN ,/,/PUNCT that/that/PRON nurtures/nurture/VERB it/it/PRON").tokens;
    expect(relativeClauseHead(comma, { end: 2 }, 5)).toBe(false);
    const contact = sent("When/when/SCONJ they/they/PRON get/get/VERB the/the/DET stuff/stuff/NOUN they/they/PRON send/send/VERB it/it/PRON").tokens;
    expect(relativeClauseHead(contact, { end: 5 }, 7)).toBe(false);
    expect(relativeClauseHead(en, { end: 7 }, 7)).toBe(false);
  });
});

describe("the noun a de / di phrase modifies", () => {
  it("is found across articles, possessives and adjectives", () => {
    const ts = sent("tu/tu/DET alianza/alianza/NOUN de/de/ADP boda/boda/NOUN").tokens;
    expect(genitiveHost(ts, 3)).toBe(1);
    const it2 = sent("il/il/DET modellino/modellino/NOUN di/di/ADP un/uno/DET razzo/razzo/NOUN").tokens;
    expect(genitiveHost(it2, 4)).toBe(1);
  });
  it("is absent without such a phrase", () => {
    const ts = sent("tomó/tomar/VERB el/el/DET arma/arma/NOUN en/en/ADP casa/casa/NOUN").tokens;
    expect(genitiveHost(ts, 4)).toBeUndefined();
    expect(genitiveHost(ts, 2)).toBeUndefined();
  });
});

describe("the subject of a copula whose predicate noun the resolver took", () => {
  it("is found across negation, determiners and adjectives", () => {
    const en = sent("The/the/DET wisp/wisp/NOUN is/be/AUX n't/not/PART a/a/DET toy/toy/NOUN ././PUNCT").tokens;
    expect(copulaSubject(en, { start: 4 })).toEqual({ start: 0, end: 2, head: 1 });
    const music = sent("Your/your/PRON/Poss=Yes music/music/NOUN is/be/AUX a/a/DET story/story/NOUN").tokens;
    expect(copulaSubject(music, { start: 3 })).toEqual({ start: 0, end: 2, head: 1 });
  });
  it("is absent with a pronoun or expletive subject, a prepositional object before the copula, or no copula", () => {
    expect(copulaSubject(sent("It/it/PRON is/be/AUX the/the/DET cause/cause/NOUN").tokens, { start: 2 })).toBeUndefined();
    expect(copulaSubject(sent("There/there/PRON was/be/AUX a/a/DET roach/roach/NOUN").tokens, { start: 2 })).toBeUndefined();
    expect(copulaSubject(sent("an/a/DET attack/attack/NOUN on/on/ADP my/my/PRON/Poss=Yes father/father/NOUN is/be/AUX an/a/DET attack/attack/NOUN").tokens, { start: 6 })).toBeUndefined();
    expect(copulaSubject(sent("The/the/DET dog/dog/NOUN ate/eat/VERB a/a/DET bone/bone/NOUN").tokens, { start: 3 })).toBeUndefined();
  });
});

describe("the noun whose prepositional complement the resolver took", () => {
  it("is found before in, to, for ... but not before of", () => {
    const flask = sent("he/he/PRON 's/have/AUX got/get/VERB a/a/DET flask/flask/NOUN in/in/ADP his/his/PRON/Poss=Yes pocket/pocket/NOUN").tokens;
    expect(prepositionHost(flask, { start: 6 })).toEqual({ start: 3, end: 5, head: 4 });
    const of = sent("memories/memory/NOUN of/of/ADP this/this/DET house/house/NOUN").tokens;
    expect(prepositionHost(of, { start: 2 })).toBeUndefined();
    const verb = sent("I/I/PRON looked/look/VERB in/in/ADP his/his/PRON/Poss=Yes pocket/pocket/NOUN").tokens;
    expect(prepositionHost(verb, { start: 3 })).toBeUndefined();
  });
});

describe("the copula subject and the prepositional host in the engine", () => {
  const P = "././PUNCT";
  const ES = () => [loadRuleSet("ES_GENDER", "es")];
  const doc = (pairs: Array<[string, string, string]>, ante: [number, number, number]): AnnotatedParallelDoc => ({
    id: "d",
    lang: "es",
    en: pairs.map((p) => sent(p[0])),
    tgt: pairs.map((p) => sent(p[1])),
    alignment: pairs.map((p) => p[2].split(" ").map((l) => l.split("-").map(Number) as [number, number])),
    coref: [{ mentions: [{ sent: 0, start: ante[0], end: ante[1], head: ante[2] }, { sent: 1, start: 3, end: 4, head: 3 }] }],
  });
  const second: [string, string, string] = [`She/she/PRON/Case=Nom can/can/AUX give/give/VERB it/it/PRON/Case=Acc ${P}`, `Ella/él/PRON/Case=Nom lo/lo/PRON/Case=Acc|Gender=Masc|Number=Sing puede/poder/AUX dar/dar/VERB ${P}`, "0-0 1-2 2-3 3-1 4-4"];
  it("stores the subject when its aligned noun agrees with the target pronoun", () => {
    // "The ring is a device. She can give it." -> el anillo (masc.) rather than el dispositivo.
    const first: [string, string, string] = [`The/the/DET ring/ring/NOUN/Number=Sing is/be/AUX a/a/DET device/device/NOUN/Number=Sing ${P}`, `El/el/DET anillo/anillo/NOUN/Gender=Masc|Number=Sing es/ser/AUX un/uno/DET dispositivo/dispositivo/NOUN/Gender=Masc|Number=Sing ${P}`, "0-0 1-1 2-2 3-3 4-4 5-5"];
    const items = matchDocument(doc([first, second], [3, 5, 4]), ES()).get("ES_GENDER")!;
    expect(items.map((x) => [x.rule, x["src ante head"], x["ref ante head"], x["src ante phrase"]])).toEqual([["ACC.MASC.SING", "ring", "anillo", "The ring"]]);
  });
  it("adds no item where the resolver's own noun gives none", () => {
    // "The ring is a tool.": el anillo agrees with *lo*, but the resolver's la herramienta (fem.) does not.
    const first: [string, string, string] = [`The/the/DET ring/ring/NOUN/Number=Sing is/be/AUX a/a/DET tool/tool/NOUN/Number=Sing ${P}`, `El/el/DET anillo/anillo/NOUN/Gender=Masc|Number=Sing es/ser/AUX una/uno/DET herramienta/herramienta/NOUN/Gender=Fem|Number=Sing ${P}`, "0-0 1-1 2-2 3-3 4-4 5-5"];
    expect(matchDocument(doc([first, second], [3, 5, 4]), ES(), { fallbackAntecedent: "off" }).get("ES_GENDER")).toEqual([]);
    // The unique fallback (the default) replaces the clashing *tool*: *ring* is the one noun whose translation agrees.
    expect(matchDocument(doc([first, second], [3, 5, 4]), ES()).get("ES_GENDER")!.map((x) => x["src ante head"])).toEqual(["ring"]);
  });
  it("keeps the resolver's noun when the subject's aligned noun has another gender", () => {
    // "The key is a tool." -> la llave (fem.) disagrees with *lo*; el instrumento stays.
    const first: [string, string, string] = [`The/the/DET key/key/NOUN/Number=Sing is/be/AUX a/a/DET tool/tool/NOUN/Number=Sing ${P}`, `La/el/DET llave/llave/NOUN/Gender=Fem|Number=Sing es/ser/AUX un/uno/DET instrumento/instrumento/NOUN/Gender=Masc|Number=Sing ${P}`, "0-0 1-1 2-2 3-3 4-4 5-5"];
    const items = matchDocument(doc([first, second], [3, 5, 4]), ES()).get("ES_GENDER")!;
    expect(items.map((x) => [x["src ante head"], x["ref ante head"]])).toEqual([["tool", "instrumento"]]);
  });
  it("stores the host noun of a prepositional complement", () => {
    // "He has a flask in his pocket. She can give it." -> el frasco, not el bolsillo.
    const first: [string, string, string] = [`He/he/PRON/Case=Nom has/have/VERB a/a/DET flask/flask/NOUN/Number=Sing in/in/ADP his/his/PRON/Poss=Yes pocket/pocket/NOUN/Number=Sing ${P}`, `Tiene/tener/VERB un/uno/DET frasco/frasco/NOUN/Gender=Masc|Number=Sing en/en/ADP su/su/DET bolsillo/bolsillo/NOUN/Gender=Masc|Number=Sing ${P}`, "1-0 2-1 3-2 4-3 5-4 6-5 7-6"];
    const items = matchDocument(doc([first, second], [5, 7, 6]), ES()).get("ES_GENDER")!;
    expect(items.map((x) => [x["src ante head"], x["ref ante head"]])).toEqual([["flask", "frasco"]]);
  });
});

describe("the subject of a coordinated verb phrase the object pronoun stands in", () => {
  it("is refused after a comma or coordinator", () => {
    const cat = sent("This/this/DET cat/cat/NOUN drags/drag/VERB in/in/ADP a/a/DET mouse/mouse/NOUN ,/,/PUNCT drops/drop/VERB it/it/PRON").tokens;
    expect(sharedSubject(cat, { start: 0, end: 2 }, 8)).toBe(true);
    const bank = sent("When/when/SCONJ a/a/DET bank/bank/NOUN buys/buy/VERB a/a/DET bond/bond/NOUN and/and/CCONJ takes/take/VERB it/it/PRON").tokens;
    expect(sharedSubject(bank, { start: 1, end: 3 }, 8)).toBe(true);
  });
  it("is kept with a new subject, a subordinate clause, an object antecedent or no verb after the subject", () => {
    const mary = sent("The/the/DET car/car/NOUN broke/break/VERB and/and/CCONJ Mary/Mary/PROPN fixed/fix/VERB it/it/PRON").tokens;
    expect(sharedSubject(mary, { start: 0, end: 2 }, 6)).toBe(false);
    const he = sent("The/the/DET car/car/NOUN broke/break/VERB ,/,/PUNCT so/so/ADV he/he/PRON/Case=Nom fixed/fix/VERB it/it/PRON").tokens;
    expect(sharedSubject(he, { start: 0, end: 2 }, 7)).toBe(false);
    const obj = sent("I/I/PRON bought/buy/VERB the/the/DET car/car/NOUN and/and/CCONJ sold/sell/VERB it/it/PRON").tokens;
    expect(sharedSubject(obj, { start: 2, end: 4 }, 6)).toBe(false);
    const money = sent("seeing/see/VERB that/that/SCONJ the/the/DET money/money/NOUN is/be/AUX fake/fake/ADJ ,/,/PUNCT just/just/ADV leaves/leave/VERB it/it/PRON").tokens;
    expect(sharedSubject(money, { start: 2, end: 4 }, 9)).toBe(false);
    const paper = sent("When/when/ADV the/the/DET paper/paper/NOUN comes/come/VERB ,/,/PUNCT throw/throw/VERB it/it/PRON").tokens;
    expect(sharedSubject(paper, { start: 1, end: 3 }, 6)).toBe(false);
    const warn = sent("Some/some/DET members/member/NOUN received/receive/VERB messages/message/NOUN ,/,/PUNCT warning/warn/VERB them/they/PRON").tokens;
    expect(sharedSubject(warn, { start: 0, end: 2 }, 6)).toBe(false);
    const sub = sent("The/the/DET dog/dog/NOUN barked/bark/VERB because/because/SCONJ ,/,/PUNCT wanting/want/VERB it/it/PRON").tokens;
    expect(sharedSubject(sub, { start: 0, end: 2 }, 6)).toBe(false);
  });
});

describe("Polish je needs a neuter or plural antecedent", () => {
  it("refuses the released rules that pair je with a masculine or feminine singular antecedent", () => {
    expect(polishPronounAgrees("pl", { alignedForm: "je", alignedCorefGender: "Masc", alignedCorefNumber: "Sing" })).toBe(false);
    expect(polishPronounAgrees("pl", { alignedForm: "je", alignedCorefGender: "Fem", alignedCorefNumber: "Sing" })).toBe(false);
  });
  it("keeps je for neuter and plural antecedents, other forms and other languages", () => {
    expect(polishPronounAgrees("pl", { alignedForm: "je", alignedCorefGender: "Neut", alignedCorefNumber: "Sing" })).toBe(true);
    expect(polishPronounAgrees("pl", { alignedForm: "je", alignedCorefGender: "Fem", alignedCorefNumber: "Plur" })).toBe(true);
    expect(polishPronounAgrees("pl", { alignedForm: "go", alignedCorefGender: "Masc", alignedCorefNumber: "Sing" })).toBe(true);
    expect(polishPronounAgrees("fr", { alignedForm: "je", alignedCorefGender: "Masc", alignedCorefNumber: "Sing" })).toBe(true);
  });
  it("gives no item for the released pl rule ACC.MASC.SING", () => {
    const set = loadRuleSet("PL_GENDER", "pl");
    const rule = set.rules.find((r) => r.label === "ACC.MASC.SING");
    expect(rule && rule.type === "pronoun" && rule.alignedForm).toBe("je");
    expect(rule && rule.type === "pronoun" && polishPronounAgrees("pl", rule)).toBe(false);
  });
});

describe("the predicate noun of a copula with a person pronoun subject", () => {
  it("is found after I, you, he, she, we, across articles and adjectives", () => {
    const en = sent("I/I/PRON/Case=Nom 'm/be/AUX glad/glad/ADJ you/you/PRON 're/be/AUX a/a/DET believer/believer/NOUN ,/,/PUNCT but/but/CCONJ I/I/PRON see/see/VERB it/it/PRON").tokens;
    expect(personPredicate(en, { start: 5, head: 6 })).toBe(true);
    const he = sent("he/he/PRON is/be/AUX not/not/PART a/a/DET real/real/ADJ doctor/doctor/NOUN").tokens;
    expect(personPredicate(he, { start: 3, head: 5 })).toBe(true);
  });
  it("is not found with it, a noun subject, or they with a non-person noun", () => {
    expect(personPredicate(sent("it/it/PRON 's/be/AUX a/a/DET good/good/ADJ car/car/NOUN").tokens, { start: 2, head: 4 })).toBe(false);
    expect(personPredicate(sent("The/the/DET wisp/wisp/NOUN is/be/AUX a/a/DET toy/toy/NOUN").tokens, { start: 3, head: 4 })).toBe(false);
    const they = sent("they/they/PRON 're/be/AUX nice/nice/ADJ shoes/shoe/NOUN").tokens;
    expect(personPredicate(they, { start: 2, head: 3 })).toBe(false);
    expect(personPredicate(they, { start: 2, head: 3 }, (l) => l === "friend")).toBe(false);
    const friends = sent("they/they/PRON 're/be/AUX my/my/PRON/Poss=Yes friends/friend/NOUN").tokens;
    expect(personPredicate(friends, { start: 2, head: 3 }, (l) => l === "friend")).toBe(true);
    expect(personPredicate(sent("I/I/PRON saw/see/VERB a/a/DET believer/believer/NOUN").tokens, { start: 2, head: 3 })).toBe(false);
  });
  it("is not found for an object pronoun, a copula that does not agree, a predicate adjective or a preposition", () => {
    // "All I can tell you is this stuff": *you* is the object of *tell*, and *is* does not agree with it.
    const tell = sent("I/I/PRON can/can/AUX tell/tell/VERB you/you/PRON is/be/AUX this/this/DET stuff/stuff/NOUN").tokens;
    expect(personPredicate(tell, { start: 5, head: 6 })).toBe(false);
    // "I'm sure your ship is ready": the mention runs over the predicate adjective *sure*.
    const sure = sent("I/I/PRON 'm/be/AUX sure/sure/ADJ your/your/PRON/Poss=Yes ship/ship/NOUN").tokens;
    expect(personPredicate(sure, { start: 2, head: 4 })).toBe(false);
    const inside = sent("you/you/PRON 're/be/AUX in/in/ADV exactly/exactly/ADV the/the/DET place/place/NOUN").tokens;
    expect(personPredicate(inside, { start: 4, head: 5 })).toBe(false);
  });
  it("takes they with a person noun for it only, not for them", () => {
    const they = sent("They/they/PRON 're/be/AUX businessmen/businessman/NOUN").tokens;
    expect(personPredicate(they, { start: 2, head: 2 }, () => true, "it")).toBe(true);
    expect(personPredicate(they, { start: 2, head: 2 }, () => true, "them")).toBe(false);
  });
});

describe("the head of a compound the tagger split as noun + adjective", () => {
  const en = sent("teach/teach/VERB rubber/rubber/NOUN ducky/ducky/ADJ to/to/PART dive/dive/VERB").tokens;
  it("is the adjective-tagged word when it is aligned to the target head or to nothing, with no verb after it", () => {
    expect(compoundHeadAfter(en, 1, [], 3)).toBe(2);
    expect(compoundHeadAfter(en, 1, [3], 3)).toBe(2);
  });
  it("is not taken when the adjective has a target word of its own, a verb follows, or a noun follows", () => {
    expect(compoundHeadAfter(en, 1, [5], 3)).toBeUndefined();
    const best = sent("violence/violence/NOUN best/best/ADJ serves/serve/VERB them/they/PRON").tokens;
    expect(compoundHeadAfter(best, 0, [], 2)).toBeUndefined();
    const np = sent("rubber/rubber/NOUN old/old/ADJ boots/boot/NOUN").tokens;
    expect(compoundHeadAfter(np, 0, [], 2)).toBeUndefined();
  });
});

describe("an adjective stored as the target head", () => {
  it("moves a participle to the noun it follows, and a possessive across its copula", () => {
    const carne = sent("tagliava/tagliare/VERB la/il/DET/Gender=Fem|Number=Sing carne/carne/NOUN/Gender=Fem|Number=Sing contrassegnata/contrassegnare/NOUN/Gender=Fem|Number=Sing").tokens;
    expect(adjectiveHead("it", carne, 3, "NOUN")).toBe(2);
    const tuya = sent("La/el/DET/Gender=Fem|Number=Sing herencia/herencia/NOUN/Gender=Fem|Number=Sing es/ser/AUX tuya/tuyo/ADJ/Gender=Fem|Number=Sing ././PUNCT").tokens;
    expect(adjectiveHead("es", tuya, 3, "ADJ")).toBe(1);
  });
  it("moves a possessive to the noun after it", () => {
    const ts = sent("E/e/CCONJ le/il/DET/Gender=Fem|Number=Plur nostre/nostro/DET/Gender=Fem|Number=Plur due/due/NUM figlie/figlia/NOUN/Gender=Fem|Number=Plur").tokens;
    expect(adjectiveHead("it", ts, 2, "DET")).toBe(4);
    const amici = sent("a/a/ADP i/il/DET miei/mio/DET/Gender=Masc|Number=Plur amici/amico/ADJ/Gender=Masc|Number=Plur che/che/SCONJ").tokens;
    expect(adjectiveHead("it", amici, 2, "DET")).toBe(3);
  });
  it("moves an adjective-tagged participle to a mis-tagged noun across a mis-tagged word", () => {
    const ts = sent("robó/robar/VERB tecnologia/tecnologia/DET/Gender=Fem|Number=Sing nuclear/nuclear/VERB clasificada/clasificar/ADJ/Gender=Fem|Number=Sing").tokens;
    expect(adjectiveHead("es", ts, 3, "ADJ")).toBe(1);
  });
  it("leaves a participle-shaped noun after a determiner or pronoun, and one whose noun before has another gender", () => {
    const vida = sent("cuenta/cuenta/NOUN/Gender=Fem|Number=Sing tu/tu/DET vida/vida/NOUN/Gender=Fem|Number=Sing").tokens;
    expect(adjectiveHead("es", vida, 2, "NOUN")).toBeUndefined();
    const adv = sent("cuenta/cuenta/NOUN/Gender=Fem|Number=Sing tu/tu/ADV vida/vida/NOUN/Gender=Fem|Number=Sing").tokens;
    expect(adjectiveHead("es", adv, 2, "NOUN")).toBeUndefined();
    const llamada = sent("la/el/DET/Gender=Fem|Number=Sing llamada/llamada/NOUN/Gender=Fem|Number=Sing").tokens;
    expect(adjectiveHead("es", llamada, 1, "NOUN")).toBeUndefined();
    const other = sent("el/el/DET/Gender=Masc|Number=Sing libro/libro/NOUN/Gender=Masc|Number=Sing entrada/entrada/NOUN/Gender=Fem|Number=Sing").tokens;
    expect(adjectiveHead("es", other, 2, "NOUN")).toBeUndefined();
    expect(adjectiveHead("pl", carne(), 3, "NOUN")).toBeUndefined();
  });
  it("refuses a possessive with no noun", () => {
    const ts = sent("Es/ser/AUX tuya/tuyo/ADJ/Gender=Fem|Number=Sing ././PUNCT").tokens;
    expect(adjectiveHead("es", ts, 1, "ADJ")).toBe(-1);
  });
  function carne() {
    return sent("tagliava/tagliare/VERB la/il/DET/Gender=Fem|Number=Sing carne/carne/NOUN/Gender=Fem|Number=Sing contrassegnata/contrassegnare/NOUN/Gender=Fem|Number=Sing").tokens;
  }
});

describe("person predicates, compound heads and adjective heads in the engine", () => {
  const P = "././PUNCT";
  const doc = (lang: string, pairs: Array<[string, string, string]>, ante: [number, number, number], pron: number): AnnotatedParallelDoc => ({
    id: "d",
    lang,
    en: pairs.map((p) => sent(p[0])),
    tgt: pairs.map((p) => sent(p[1])),
    alignment: pairs.map((p) => p[2].split(" ").map((l) => l.split("-").map(Number) as [number, number])),
    coref: [{ mentions: [{ sent: 0, start: ante[0], end: ante[1], head: ante[2] }, { sent: 1, start: pron, end: pron + 1, head: pron }] }],
  });
  const second: [string, string, string] = [`She/she/PRON/Case=Nom can/can/AUX give/give/VERB it/it/PRON/Case=Acc ${P}`, `Ella/él/PRON/Case=Nom la/lo/PRON/Case=Acc|Gender=Fem|Number=Sing puede/poder/AUX dar/dar/VERB ${P}`, "0-0 1-2 2-3 3-1 4-4"];
  it("refuses the predicate noun of 'you are a ...' for it", () => {
    const first: [string, string, string] = [`You/you/PRON/Case=Nom 're/be/AUX a/a/DET believer/believer/NOUN/Number=Sing ${P}`, `Eres/ser/AUX una/uno/DET creyente/creyente/NOUN/Gender=Fem|Number=Sing ${P}`, "1-0 2-1 3-2 4-3"];
    expect(matchDocument(doc("es", [first, second], [2, 4, 3], 3), [loadRuleSet("ES_GENDER", "es")]).get("ES_GENDER")).toEqual([]);
    const noun: [string, string, string] = [`The/the/DET thing/thing/NOUN/Number=Sing 's/be/AUX a/a/DET key/key/NOUN/Number=Sing ${P}`, `La/el/DET cosa/cosa/NOUN/Gender=Fem|Number=Sing es/ser/AUX una/uno/DET llave/llave/NOUN/Gender=Fem|Number=Sing ${P}`, "0-0 1-1 2-2 3-3 4-4 5-5"];
    expect(matchDocument(doc("es", [noun, second], [3, 5, 4], 3), [loadRuleSet("ES_GENDER", "es")]).get("ES_GENDER")!.length).toBe(1);
  });
  it("leaves the pronoun of a person predicate to the fallback, where on", () => {
    // "You're a believer with a book. She can give it." -> el libro, not el creyente.
    const first: [string, string, string] = [`You/you/PRON/Case=Nom 're/be/AUX a/a/DET believer/believer/NOUN/Number=Sing with/with/ADP a/a/DET book/book/NOUN/Number=Sing ${P}`, `Eres/ser/AUX un/uno/DET creyente/creyente/NOUN/Gender=Masc|Number=Sing con/con/ADP un/uno/DET libro/libro/NOUN/Gender=Masc|Number=Sing ${P}`, "1-0 2-1 3-2 4-3 5-4 6-5 7-6"];
    const lo: [string, string, string] = [second[0], second[1].replace("la/lo/PRON/Case=Acc|Gender=Fem", "lo/lo/PRON/Case=Acc|Gender=Masc"), second[2]];
    const items = matchDocument(doc("es", [first, lo], [2, 4, 3], 3), [loadRuleSet("ES_GENDER", "es")], { fallbackAntecedent: true }).get("ES_GENDER")!;
    expect(items.map((x) => [x["src ante head"], x["ref ante head"]])).toEqual([["book", "libro"]]);
    // The default unique fallback does not take the person predicate either, so the book is the one candidate.
    const unique = matchDocument(doc("es", [first, lo], [2, 4, 3], 3), [loadRuleSet("ES_GENDER", "es")]).get("ES_GENDER")!;
    expect(unique.map((x) => [x["src ante head"], x["ref ante head"]])).toEqual([["book", "libro"]]);
    expect(matchDocument(doc("es", [first, lo], [2, 4, 3], 3), [loadRuleSet("ES_GENDER", "es")], { fallbackAntecedent: "off" }).get("ES_GENDER")).toEqual([]);
  });
  it("stores the noun, not the participle", () => {
    const first: [string, string, string] = [`He/he/PRON/Case=Nom stole/steal/VERB classified/classified/ADJ technology/technology/NOUN/Number=Sing ${P}`, `Robó/robar/VERB tecnologia/tecnologia/DET/Gender=Fem|Number=Sing nuclear/nuclear/VERB clasificada/clasificar/ADJ/Gender=Fem|Number=Sing ${P}`, "1-0 2-3 3-3 4-4"];
    const items = matchDocument(doc("es", [first, second], [2, 4, 3], 3), [loadRuleSet("ES_GENDER", "es")]).get("ES_GENDER")!;
    expect(items.map((x) => [x["src ante head"], x["ref ante head"]])).toEqual([["technology", "tecnologia"]]);
  });
  it("stores the adjective-tagged head of an English compound", () => {
    const first: [string, string, string] = [`I/I/PRON/Case=Nom teach/teach/VERB rubber/rubber/NOUN/Number=Sing ducky/ducky/ADJ to/to/PART dive/dive/VERB ${P}`, `Enseño/enseñar/VERB a/a/ADP la/el/DET/Gender=Fem|Number=Sing patita/patita/NOUN/Gender=Fem|Number=Sing a/a/ADP bucear/bucear/VERB ${P}`, "1-0 2-3 4-4 5-5 6-6"];
    const items = matchDocument(doc("es", [first, second], [2, 3, 2], 3), [loadRuleSet("ES_GENDER", "es")]).get("ES_GENDER")!;
    expect(items.map((x) => [x["src ante head"], x["src ante head pos"], x["ref ante head"]])).toEqual([["ducky", "NOUN", "patita"]]);
  });
});

describe("a noun of time in an adverbial time phrase", () => {
  it("is one after at, in, on, during, across determiners and adjectives", () => {
    const ts = sent("On/on/ADP the/the/DET evening/evening/NOUN ,/,/PUNCT cows/cow/NOUN tell/tell/VERB it/it/PRON").tokens;
    expect(adverbialTime(ts, { head: 2 })).toBe(true);
    const late = sent("in/in/ADP the/the/DET late/late/ADJ morning/morning/NOUN").tokens;
    expect(adverbialTime(late, { head: 3 })).toBe(true);
  });
  it("is none after for or about, with no preposition, or for another noun", () => {
    const night = sent("asked/ask/VERB me/I/PRON for/for/ADP one/one/NUM night/night/NOUN").tokens;
    expect(adverbialTime(night, { head: 4 })).toBe(false);
    const forget = sent("forget/forget/VERB that/that/DET night/night/NOUN").tokens;
    expect(adverbialTime(forget, { head: 2 })).toBe(false);
    const box = sent("in/in/ADP the/the/DET box/box/NOUN").tokens;
    expect(adverbialTime(box, { head: 2 })).toBe(false);
  });
  it("is one after last, next, every with nothing before them", () => {
    const every = sent("And/and/CCONJ every/every/DET time/time/NOUN I/I/PRON look/look/VERB at/at/ADP it/it/PRON").tokens;
    expect(adverbialTime(every, { head: 2 })).toBe(true);
    const our = sent("be/be/AUX our/our/PRON/Poss=Yes last/last/ADJ hour/hour/NOUN").tokens;
    expect(adverbialTime(our, { head: 3 })).toBe(false);
    const today = sent("today/today/NOUN started/start/VERB").tokens;
    expect(adverbialTime(today, { head: 0 })).toBe(false);
  });
  it("is one in fixed adverbials with no preposition", () => {
    const other = sent("The/the/DET other/other/ADJ day/day/NOUN we/we/PRON were/be/AUX kissing/kiss/VERB").tokens;
    expect(adverbialTime(other, { head: 2 })).toBe(true);
    const all = sent("starving/starve/VERB all/all/DET day/day/NOUN").tokens;
    expect(adverbialTime(all, { head: 2 })).toBe(true);
    const some = sent("come/come/VERB some/some/DET night/night/NOUN").tokens;
    expect(adverbialTime(some, { head: 2 })).toBe(true);
    const tomorrow = sent("the/the/DET music/music/NOUN tomorrow/tomorrow/NOUN morning/morning/NOUN").tokens;
    expect(adverbialTime(tomorrow, { head: 3 })).toBe(true);
    const thisTime = sent("This/this/DET time/time/NOUN you/you/PRON 're/be/AUX going/go/VERB").tokens;
    expect(adverbialTime(thisTime, { head: 1 })).toBe(true);
  });
  it("is none for a demonstrative time noun inside the sentence", () => {
    const that = sent("Remember/remember/VERB that/that/DET day/day/NOUN").tokens;
    expect(adverbialTime(that, { head: 2 })).toBe(false);
  });
});

describe("a NOUN-tagged word with an adjective's ending after the noun it agrees with", () => {
  it("moves to the noun before", () => {
    const ts = sent("El/el/DET/Gender=Masc|Number=Sing panorama/panorama/NOUN/Gender=Masc|Number=Sing global/global/NOUN/Gender=Masc|Number=Sing").tokens;
    expect(adjectiveHead("es", ts, 2, "NOUN")).toBe(1);
    const pl = sent("całą/cały/ADJ/Gender=Fem|Number=Sing sieć/sieć/NOUN/Gender=Fem|Number=Sing energetyczną/energetyczny/NOUN/Gender=Fem|Number=Sing").tokens;
    expect(adjectiveHead("pl", pl, 2, "NOUN")).toBe(1);
  });
  it("leaves it after a prenominal or adjective-looking word, another gender, or without the ending", () => {
    const chicas = sent("esas/ese/NOUN/Gender=Fem|Number=Plur chicas/chica/NOUN/Gender=Fem|Number=Plur").tokens;
    expect(adjectiveHead("es", chicas, 1, "NOUN")).toBeUndefined();
    const motivo = sent("el/el/DET/Gender=Masc|Number=Sing auténtico/auténtico/NOUN/Gender=Masc|Number=Sing motivo/motivo/NOUN/Gender=Masc|Number=Sing").tokens;
    expect(adjectiveHead("es", motivo, 2, "NOUN")).toBeUndefined();
    const mie = sent("le/il/DET/Gender=Fem|Number=Plur mie/mio/NOUN/Gender=Fem|Number=Plur credenziali/credenziale/NOUN/Gender=Fem|Number=Plur").tokens;
    expect(adjectiveHead("it", mie, 2, "NOUN")).toBeUndefined();
    const other = sent("la/el/DET/Gender=Fem|Number=Sing casa/casa/NOUN/Gender=Fem|Number=Sing hospital/hospital/NOUN/Gender=Masc|Number=Sing").tokens;
    expect(adjectiveHead("es", other, 2, "NOUN")).toBeUndefined();
    const ending = sent("la/el/DET/Gender=Fem|Number=Sing casa/casa/NOUN/Gender=Fem|Number=Sing puerta/puerta/NOUN/Gender=Fem|Number=Sing").tokens;
    expect(adjectiveHead("es", ending, 2, "NOUN")).toBeUndefined();
  });
});

describe("a target head also aligned to an English adjective of the mention", () => {
  const ts = sent("seu/seu/DET/Gender=Masc|Number=Sing dispositivo/dispositivo/ADJ/Gender=Masc|Number=Sing cortical/cortical/NOUN/Gender=Masc|Number=Sing").tokens;
  it("moves to the agreeing word before it", () => {
    expect(adjectiveLinkedHead(ts, 2, [[2]])).toBe(1);
  });
  it("leaves it when no English adjective is aligned to it, or the word before is a determiner or disagrees", () => {
    expect(adjectiveLinkedHead(ts, 2, [[0], []])).toBeUndefined();
    expect(adjectiveLinkedHead(ts, 1, [[1]])).toBeUndefined();
    const other = sent("la/el/DET/Gender=Fem|Number=Sing casa/casa/NOUN/Gender=Fem|Number=Sing cortical/cortical/NOUN/Gender=Masc|Number=Sing").tokens;
    expect(adjectiveLinkedHead(other, 2, [[2]])).toBeUndefined();
  });
});

describe("the noun a determiner announces when the English head is unaligned", () => {
  // "I've seen that piece" / "Esa tabla la he visto": *that*-*Esa* linked, *piece* unlinked.
  const es = sent("Esa/ese/DET/Gender=Fem|Number=Sing tabla/tabla/NOUN/Gender=Fem|Number=Sing la/él/PRON he/haber/AUX visto/ver/VERB").tokens;
  it("takes the unaligned noun after the determiner the span's links reach", () => {
    expect(determinedNoun(es, 0, 1, [[1, 0]])).toBe(1);
  });
  it("across unaligned adjectives; not when the run does not end in a determiner, or the noun is linked elsewhere", () => {
    const it_ = sent("un/uno/DET nuovo/nuovo/ADJ disegno/disegno/NOUN/Gender=Masc|Number=Sing").tokens;
    expect(determinedNoun(it_, 0, 1, [[1, 0]])).toBe(2);
    expect(determinedNoun(it_, 0, 2, [[1, 0], [2, 1]])).toBe(2);
    expect(determinedNoun(it_, 0, 1, [[1, 0], [5, 1]])).toBeUndefined();
    expect(determinedNoun(es, 0, 1, [[1, 0], [4, 1]])).toBeUndefined();
    expect(determinedNoun(es, 2, 3, [[1, 2]])).toBeUndefined();
  });
});
