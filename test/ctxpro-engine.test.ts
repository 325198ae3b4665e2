import { describe, expect, it } from "vitest";
import { sent } from "./ann-helper.js";
import type { AnnotatedParallelDoc, CorefCluster } from "../src/annotate/types.js";
import { matchDocument } from "../src/ctxpro/engine.js";
import { expletiveIt } from "../src/ctxpro/english-clauses.js";
import { matchesCase } from "../src/ctxpro/tokens.js";
import { KEY_ORDER } from "../src/ctxpro/items.js";
import { loadRuleSet, parseRuleFile } from "../src/ctxpro/rules.js";
import { InputError } from "../src/io/errors.js";

function doc(id: string, lang: string, pairs: Array<[string, string, string]>, coref: CorefCluster[] = []): AnnotatedParallelDoc {
  return {
    id,
    lang,
    en: pairs.map((p) => sent(p[0])),
    tgt: pairs.map((p) => sent(p[1])),
    alignment: pairs.map((p) => p[2].split(" ").map((l) => l.split("-").map(Number) as [number, number])),
    coref,
  };
}

const P = "././PUNCT";

/** EN-DE: a referential "it" (lamp -> Lampe, fem.), a non-referential "it", and "it" whose only antecedent is a pronoun. */
const deDoc = doc(
  "de-doc",
  "de",
  [
    [`I/I/PRON/Case=Nom bought/buy/VERB a/a/DET lamp/lamp/NOUN/Number=Sing ${P}`, `Ich/ich/PRON/Case=Nom kaufte/kaufen/VERB eine/ein/DET Lampe/Lampe/NOUN/Case=Acc|Gender=Fem|Number=Sing ${P}`, "0-0 1-1 2-2 3-3 4-4"],
    [`It/it/PRON/Case=Nom is/be/AUX broken/broken/ADJ ${P}`, `Sie/sie/PRON/Case=Nom|Gender=Fem|Number=Sing ist/sein/AUX kaputt/kaputt/ADJ ${P}`, "0-0 1-1 2-2 3-3"],
    [`It/it/PRON/Case=Nom is/be/AUX raining/rain/VERB ${P}`, `Es/es/PRON/Case=Nom|Gender=Neut|Number=Sing regnet/regnen/VERB ${P}`, "0-0 1-1 2-1 3-2"],
    [`It/it/PRON/Case=Nom was/be/AUX there/there/ADV ${P}`, `Es/es/PRON/Case=Nom|Gender=Neut|Number=Sing war/sein/AUX da/da/ADV ${P}`, "0-0 1-1 2-2 3-3"],
    [`I/I/PRON/Case=Nom saw/see/VERB it/it/PRON/Case=Acc ${P}`, `Ich/ich/PRON/Case=Nom sah/sehen/VERB es/es/PRON/Case=Acc|Gender=Neut|Number=Sing ${P}`, "0-0 1-1 2-2 3-3"],
    [`Can/can/AUX you/you/PRON/Case=Nom help/help/VERB ?/?/PUNCT`, `Kannst/können/AUX du/du/PRON/Case=Nom helfen/helfen/VERB ?/?/PUNCT`, "0-0 1-1 2-2 3-3"],
    [`Thank/thank/VERB you/you/PRON/Case=Acc ${P}`, `Danke/danken/VERB Ihnen/Sie/PRON/Case=Dat ${P}`, "0-0 1-1 2-2"],
  ],
  [
    { mentions: [{ sent: 0, start: 2, end: 4, head: 3 }, { sent: 1, start: 0, end: 1, head: 0 }] },
    // "It was there. I saw it.": the antecedent of the second "it" is another pronoun.
    { mentions: [{ sent: 3, start: 0, end: 1, head: 0 }, { sent: 4, start: 2, end: 3, head: 2 }] },
  ],
);

describe("gender, animacy and formality (EN-DE)", () => {
  it("finds only the referential 'it' with a feminine noun antecedent", () => {
    const items = matchDocument(deDoc, [loadRuleSet("DE_GENDER", "de")]).get("DE_GENDER")!;
    expect(items).toHaveLength(1);
    const it0 = items[0];
    expect(Object.keys(it0)).toEqual([...KEY_ORDER.gender]);
    expect(it0).toMatchObject({
      "src pronoun": "it",
      expected: "sie",
      rule: "NOM.FEM.SING",
      "segment id": 2,
      "document id": "de-doc",
      "ante distance": 1,
      intrasegmental: false,
      "src ante head": "lamp",
      "src ante phrase": "a lamp",
      "ref ante head": "Lampe",
      "ref ante phrase": "eine Lampe",
      "ref ante head morpho": "Case=Acc|Gender=Fem|Number=Sing",
      "src ante head number": "Sing",
      "ref segment": "Sie ist kaputt .",
      "src ante segment": "I bought a lamp .",
    });
  });

  it("respects the window: an antecedent outside it is not seen", () => {
    expect(matchDocument(deDoc, [loadRuleSet("DE_GENDER", "de")], { windowSize: 1 }).get("DE_GENDER")).toEqual([]);
  });

  it("reverses gender items into animacy items", () => {
    const items = matchDocument(deDoc, [loadRuleSet("DE_ANIMACY", "de")]).get("DE_ANIMACY")!;
    expect(items).toHaveLength(1);
    expect(Object.keys(items[0])).toEqual([...KEY_ORDER.animacy]);
    expect(items[0]).toMatchObject({
      expected: "it",
      "src pronoun": "sie",
      "src segment": "Sie ist kaputt .",
      "ref segment": "It is broken .",
      "src ante head": "Lampe",
      "ref ante head": "lamp",
      rule: "NOM.FEM.SING",
    });
  });

  it("formality needs no antecedent and checks the target case", () => {
    const items = matchDocument(deDoc, [loadRuleSet("DE_FORMALITY", "de")]).get("DE_FORMALITY")!;
    expect(items.map((x) => [x.rule, x.expected, x["segment id"]])).toEqual([
      ["NOM.INFORM.SING", "du", 6],
      ["DAT.FORM+PLUR", "ihnen", 7],
    ]);
    expect(Object.keys(items[0])).toEqual([...KEY_ORDER.formality]);
  });
});

/** EN-FR: "Do you know him? - I do." (connaître), and "I did." translated with faire (disallowed). */
const frDoc = doc("fr-doc", "fr", [
  [`Do/do/AUX you/you/PRON know/know/VERB him/he/PRON ?/?/PUNCT`, `Tu/tu/PRON le/le/PRON connais/connaître/VERB ?/?/PUNCT`, "1-0 3-1 2-2 4-3"],
  [`I/I/PRON do/do/VERB ${P}`, `Je/je/PRON le/le/PRON connais/connaître/VERB ${P}`, "0-0 1-2 2-3"],
  [`Did/do/AUX you/you/PRON finish/finish/VERB ?/?/PUNCT`, `Tu/tu/PRON as/avoir/AUX fini/finir/VERB ?/?/PUNCT`, "1-0 0-1 2-2 3-3"],
  [`I/I/PRON did/do/VERB ${P}`, `Je/je/PRON l'/le/PRON ai/avoir/AUX fait/faire/VERB ${P}`, "0-0 1-2 1-3 2-4"],
  [`I/I/PRON do/do/VERB ${P}`, `Je/je/PRON sais/savoir/VERB ${P}`, "0-0 1-1 2-2"],
]);

describe("auxiliary (EN-FR)", () => {
  it("finds the ellipsis and the previous occurrence of the aligned verb", () => {
    const items = matchDocument(frDoc, [loadRuleSet("FR_AUXILIARY", "fr")]).get("FR_AUXILIARY")!;
    expect(items).toHaveLength(1);
    expect(Object.keys(items[0])).toEqual([...KEY_ORDER.auxiliary]);
    expect(items[0]).toMatchObject({
      "src verb": "do",
      expected: "connais",
      "ante distance": 1,
      "ref verb lemma": "connaître",
      "src ante verb lemma": "know",
      "src ante segment": "Do you know him ?",
      rule: "DO.ELL",
      "segment id": 2,
    });
  });

  it("rejects an auxiliary translated with a disallowed lemma, and a verb with no earlier occurrence", () => {
    const items = matchDocument(frDoc, [loadRuleSet("FR_AUXILIARY", "fr")]).get("FR_AUXILIARY")!;
    // segment 4 ("fait", faire) and segment 5 ("sais": savoir never occurred before) give nothing.
    expect(items.map((x) => x["segment id"])).toEqual([2]);
  });
});

/** EN-RU: "Mostly work with the Knicks right now. - And other athletes." (the paper's Table 2). */
const ruDoc = doc("ru-doc", "ru", [
  [
    `Mostly/mostly/ADV work/work/VERB with/with/ADP the/the/DET Knicks/Knicks/PROPN/Number=Plur right/right/ADV now/now/ADV ${P}`,
    `В/в/ADP основном/основной/ADJ/Case=Loc работаю/работать/VERB с/с/ADP Никс/Никс/PROPN/Case=Ins ${P}`,
    "0-0 0-1 1-2 2-3 4-4 7-5",
  ],
  [
    `And/and/CCONJ other/other/ADJ athletes/athlete/NOUN/Number=Plur ${P}`,
    `И/и/CCONJ с/с/ADP другими/другой/ADJ/Case=Ins|Number=Plur спортсменами/спортсмен/NOUN/Case=Ins|Number=Plur ${P}`,
    "0-0 1-2 2-3 3-4",
  ],
  [`They/they/PRON/Case=Nom won/win/VERB ${P}`, `Они/они/PRON/Case=Nom выиграли/выиграть/VERB ${P}`, "0-0 1-1 2-2"],
  [`Great/great/ADJ game/game/NOUN/Number=Sing ${P}`, `Отличная/отличный/ADJ/Case=Nom игра/игра/NOUN/Case=Nom ${P}`, "0-0 1-1 2-2"],
]);

describe("inflection (EN-RU)", () => {
  it("paper mode: verb-less noun, most recent nominal head in the same case", () => {
    const items = matchDocument(ruDoc, [loadRuleSet("RU_INFLECTION", "ru")]).get("RU_INFLECTION")!;
    // Segment 4's antecedent is the pronoun *Они* (a pronoun heads a noun phrase).
    expect(items.map((x) => [x.rule, x.expected, x["segment id"]])).toEqual([
      ["INS.ELL", "спортсменами", 2],
      ["NOM.ELL", "игра", 4],
    ]);
    expect(Object.keys(items[0])).toEqual([...KEY_ORDER.inflection]);
    expect(items[0]).toMatchObject({
      "src noun": "athletes",
      expected: "спортсменами",
      "ref noun case": "Ins",
      "ante distance": 1,
      "ref ante segment": "В основном работаю с Никс .",
      rule: "INS.ELL",
      "segment id": 2,
    });
  });

  it("ctxpro mode also takes a pronoun as the antecedent (the released code's behaviour)", () => {
    const items = matchDocument(ruDoc, [loadRuleSet("RU_INFLECTION", "ru")], { inflection: "ctxpro" }).get("RU_INFLECTION")!;
    expect(items.map((x) => [x.rule, x.expected, x["segment id"]])).toEqual([
      ["INS.ELL", "спортсменами", 2],
      ["NOM.ELL", "игра", 4],
    ]);
  });
});

describe("inflection: nominal heads (paper mode)", () => {
  const cases = (pairs: Array<[string, string, string]>) =>
    matchDocument(doc("pl-doc", "pl", pairs), [loadRuleSet("PL_INFLECTION", "pl")]).get("PL_INFLECTION")!.map((x) => [x.rule, x.expected, x["src noun"]]);
  const ante: [string, string, string] = [
    `What/what/PRON are/be/AUX you/you/PRON/Case=Nom doing/do/VERB with/with/ADP him/he/PRON/Case=Acc ?/?/PUNCT`,
    `Co/co/PRON/Case=Acc robisz/robić/VERB z/z/ADP nim/on/PRON/Case=Ins ?/?/PUNCT`,
    "0-0 3-1 4-2 5-3 6-4",
  ];
  it("takes a pronoun as T_t and as the antecedent (*Ze mną?* after *z nim*)", () => {
    expect(cases([ante, [`Me/I/PRON/Case=Acc ?/?/PUNCT`, `Ze/z/ADP mną/ja/PRON/Case=Ins ?/?/PUNCT`, "0-1 1-2"]])).toEqual([["INS.ELL", "mną", "Me"]]);
  });
  it("takes an adjective used as a noun (*Innymi?* for *Other ones?*)", () => {
    expect(cases([ante, [`Other/other/ADJ ones/one/NOUN/Number=Plur ?/?/PUNCT`, `Innymi/inny/ADJ/Case=Ins|Number=Plur ?/?/PUNCT`, "0-0 1-0 2-1"]])).toEqual([["INS.ELL", "Innymi", "ones"]]);
  });
  it("not an adjective or possessive whose noun heads the phrase", () => {
    // *twoim* modifies *ojcem*, which the English aligns to nothing nominal here: no item.
    expect(cases([ante, [`Really/really/ADV ?/?/PUNCT`, `Z/z/ADP twoim/twój/DET/Case=Ins ojcem/ojciec/NOUN/Case=Ins ?/?/PUNCT`, "0-1 1-3"]])).toEqual([]);
    expect(cases([ante, [`His/his/PRON friend/friend/NOUN ?/?/PUNCT`, `Z/z/ADP jego/on/PRON/Case=Gen kolegą/kolega/NOUN/Case=Ins ?/?/PUNCT`, "0-1 1-2 2-3"]])).toEqual([["INS.ELL", "kolegą", "friend"]]);
  });
});

describe("inflection: a pronoun heads unless it is a possessive of the next word", () => {
  it("ru *Мне нужен врач.* gives the dative antecedent of *Тебе?*", () => {
    const d = doc("ru-poss", "ru", [
      [`I/I/PRON/Case=Nom need/need/VERB a/a/DET lawyer/lawyer/NOUN ${P}`, `Мне/я/PRON/Case=Dat нужен/нужный/ADJ юрист/юрист/NOUN/Case=Nom ${P}`, "0-0 1-1 3-2 4-3"],
      [`You/you/PRON/Case=Acc ?/?/PUNCT`, `Тебе/ты/PRON/Case=Dat ?/?/PUNCT`, "0-0 1-1"],
    ]);
    const items = matchDocument(d, [loadRuleSet("RU_INFLECTION", "ru")]).get("RU_INFLECTION")!;
    expect(items.map((x) => [x.rule, x.expected])).toEqual([["DAT.ELL", "Тебе"]]);
  });
  it("pl *do jego serca*: the genitive *jego* before a noun is no head", () => {
    const d = doc("pl-poss", "pl", [
      [`Go/go/VERB to/to/ADP his/his/PRON heart/heart/NOUN ${P}`, `Idź/iść/VERB do/do/ADP jego/on/PRON/Case=Gen serca/serce/NOUN/Case=Gen ${P}`, "0-0 1-1 2-2 3-3 4-4"],
      [`His/his/PRON ?/?/PUNCT`, `Jego/on/PRON/Case=Gen serca/serce/NOUN/Case=Acc ?/?/PUNCT`, "0-0 1-2"],
    ]);
    expect(matchDocument(d, [loadRuleSet("PL_INFLECTION", "pl")]).get("PL_INFLECTION")!).toEqual([]);
  });
});

describe("inflection: a target 'verb' aligned only to English nominals of a verb-less line", () => {
  const pairs = (verbLink: string): Array<[string, string, string]> => [
    [`Chris/Chris/PROPN got/get/VERB another/another/DET kidney/kidney/NOUN ${P}`, `Chris/Chris/PROPN dostał/dostać/VERB inną/inny/ADJ/Case=Acc nerkę/nerka/NOUN/Case=Acc ${P}`, "0-0 1-1 2-2 3-3 4-4"],
    [`A/a/DET perfect/perfect/ADJ kidney/kidney/NOUN ${P}`, `Idealną/idealnąć/VERB nerkę/nerka/NOUN/Case=Acc ${P}`, `${verbLink} 2-1 3-2`],
  ];
  const found = (p: Array<[string, string, string]>, inflection?: "paper" | "ctxpro") =>
    matchDocument(doc("pl-verb", "pl", p), [loadRuleSet("PL_INFLECTION", "pl")], { inflection }).get("PL_INFLECTION")!.map((x) => [x.rule, x.expected]);
  it("is taken for a mis-tagged nominal (paper mode)", () => {
    expect(found(pairs("1-0"))).toEqual([["ACC.ELL", "nerkę"]]);
  });
  it("still blocks when unaligned, aligned to a non-nominal, or in ctxpro mode", () => {
    expect(found(pairs("0-0").map((x, k) => (k === 1 ? [x[0], x[1], "2-1 3-2"] : x)) as Array<[string, string, string]>)).toEqual([]);
    expect(found(pairs("0-0"))).toEqual([]);
    expect(found(pairs("1-0"), "ctxpro")).toEqual([]);
  });
  it("an English interjection copied into the target line, or a token without letters, is no verb", () => {
    const intj = (tgtOh: string, link: string): Array<[string, string, string]> => [
      [`Chris/Chris/PROPN got/get/VERB another/another/DET kidney/kidney/NOUN ${P}`, `Chris/Chris/PROPN dostał/dostać/VERB inną/inny/ADJ/Case=Acc nerkę/nerka/NOUN/Case=Acc ${P}`, "0-0 1-1 2-2 3-3 4-4"],
      [`Oh/oh/INTJ ,/,/PUNCT a/a/DET kidney/kidney/NOUN ${P}`, `${tgtOh}/oh/VERB ,/,/PUNCT nerkę/nerka/NOUN/Case=Acc ${P}`, `${link} 1-1 3-2`],
    ];
    expect(found(intj("Oh", "0-0"))).toEqual([["ACC.ELL", "nerkę"]]);
    // a Polish word linked to the interjection is still taken for a verb (*Ojć*, *Притормози* for "Whoa")
    expect(found(intj("Ojej", "0-0"))).toEqual([]);
    expect(found(intj(":", "0-0"))).toEqual([["ACC.ELL", "nerkę"]]);
  });
});

describe("resolver antecedents refused in the pronoun's own clause", () => {
  const ES = () => [loadRuleSet("ES_GENDER", "es")];
  const chain = (a: [number, number, number], pron: number) => [{ mentions: [{ sent: 0, start: a[0], end: a[1], head: a[2] }, { sent: 0, start: pron, end: pron + 1, head: pron }] }];
  it("refuses a copula's predicate noun with no comma or coordinator before the object pronoun", () => {
    const shame = doc("pena", "es", [[
      `It/it/PRON would/would/AUX be/be/AUX a/a/DET shame/shame/NOUN/Number=Sing if/if/SCONJ you/you/PRON cooked/cook/VERB it/it/PRON/Case=Acc ${P}`,
      `Sería/ser/AUX una/uno/DET pena/pena/NOUN/Gender=Fem|Number=Sing si/si/SCONJ la/lo/PRON/Case=Acc|Gender=Fem|Number=Sing cocinaras/cocinar/VERB ${P}`,
      "2-0 3-1 4-2 5-3 7-5 8-4 9-6"]], chain([3, 5, 4], 8));
    expect(matchDocument(shame, ES()).get("ES_GENDER")).toEqual([]);
    // "It is a key and I lost it": the coordinator ends the copula's clause, the item stays.
    const key = doc("llave", "es", [[
      `It/it/PRON is/be/AUX a/a/DET key/key/NOUN/Number=Sing and/and/CCONJ I/I/PRON lost/lose/VERB it/it/PRON/Case=Acc ${P}`,
      `Es/ser/AUX una/uno/DET llave/llave/NOUN/Gender=Fem|Number=Sing y/y/CCONJ la/lo/PRON/Case=Acc|Gender=Fem|Number=Sing perdí/perder/VERB ${P}`,
      "1-0 2-1 3-2 4-3 6-5 7-4 8-6"]], chain([2, 4, 3], 7));
    expect(matchDocument(key, ES()).get("ES_GENDER")!.map((x) => [x.rule, x["src ante head"]])).toEqual([["ACC.FEM.SING", "key"]]);
  });
  it("refuses the subject of the verb whose object the pronoun is, but not an object pronoun after a coordinator", () => {
    const opens = doc("abre", "es", [[
      `The/the/DET key/key/NOUN/Number=Sing never/never/ADV opens/open/VERB it/it/PRON/Case=Acc ${P}`,
      `La/el/DET llave/llave/NOUN/Gender=Fem|Number=Sing nunca/nunca/ADV la/lo/PRON/Case=Acc|Gender=Fem|Number=Sing abre/abrir/VERB ${P}`,
      "0-0 1-1 2-2 3-4 4-3 5-5"]], chain([0, 2, 1], 4));
    expect(matchDocument(opens, ES()).get("ES_GENDER")).toEqual([]);
    expect(matchDocument(doc("esc", "es", [[
      `I/I/PRON/Case=Nom want/want/VERB the/the/DET key/key/NOUN/Number=Sing but/but/CCONJ he/he/PRON/Case=Nom hid/hide/VERB it/it/PRON/Case=Acc ${P}`,
      `Quiero/querer/VERB la/el/DET llave/llave/NOUN/Gender=Fem|Number=Sing pero/pero/CCONJ él/él/PRON/Case=Nom la/lo/PRON/Case=Acc|Gender=Fem escondió/esconder/VERB ${P}`,
      "1-0 2-1 3-2 4-3 5-4 6-6 7-5 8-7"]], chain([2, 4, 3], 7)), ES()).get("ES_GENDER")).toHaveLength(1);
    // "The woman who made the salad left it": the noun is the object of "made", not the subject of "left".
    expect(matchDocument(doc("ens", "es", [[
      `The/the/DET woman/woman/NOUN/Number=Sing who/who/PRON made/make/VERB the/the/DET salad/salad/NOUN/Number=Sing left/leave/VERB it/it/PRON/Case=Acc ${P}`,
      `La/el/DET mujer/mujer/NOUN/Gender=Fem|Number=Sing que/que/PRON hizo/hacer/VERB la/el/DET ensalada/ensalada/NOUN/Gender=Fem|Number=Sing la/lo/PRON/Case=Acc|Gender=Fem|Number=Sing dejó/dejar/VERB ${P}`,
      "0-0 1-1 2-2 3-3 4-4 5-5 6-7 7-6 8-8"]], chain([4, 6, 5], 7)), ES()).get("ES_GENDER")).toHaveLength(1);
  });
});

describe("gender (EN-ES) with an intrasegmental antecedent and a disjunctive case rule", () => {
  const esDoc = doc(
    "es-doc",
    "es",
    [[`I/I/PRON/Case=Nom want/want/VERB the/the/DET key/key/NOUN/Number=Sing but/but/CCONJ he/he/PRON/Case=Nom hid/hide/VERB it/it/PRON/Case=Acc ${P}`,
      `Quiero/querer/VERB la/el/DET llave/llave/NOUN/Gender=Fem|Number=Sing pero/pero/CCONJ él/él/PRON/Case=Nom la/lo/PRON/Case=Acc|Gender=Fem escondió/esconder/VERB ${P}`,
      "1-0 2-1 3-2 4-3 5-4 6-6 7-5 8-7"]],
    [{ mentions: [{ sent: 0, start: 2, end: 4, head: 3 }, { sent: 0, start: 7, end: 8, head: 7 }] }],
  );
  it("finds ACC.FEM.SING 'la' with distance 0", () => {
    const items = matchDocument(esDoc, [loadRuleSet("ES_GENDER", "es")]).get("ES_GENDER")!;
    expect(items.map((x) => [x.rule, x.expected, x["ante distance"], x.intrasegmental, x["ref ante phrase"]])).toEqual([
      ["ACC.FEM.SING", "la", 0, true, "la llave"],
    ]);
  });
});

describe("fallback antecedent, case fallback and adjective-tagged nouns", () => {
  const FB = { fallbackAntecedent: true };
  // "I found the key. Then I lost it." with no coreference at all (the resolver abstained).
  const pairs: Array<[string, string, string]> = [
    [`I/I/PRON/Case=Nom found/find/VERB the/the/DET key/key/NOUN/Number=Sing ${P}`, `Encontré/encontrar/VERB la/el/DET llave/llave/NOUN/Gender=Fem|Number=Sing ${P}`, "1-0 2-1 3-2 4-3"],
    [`Then/then/ADV I/I/PRON/Case=Nom lost/lose/VERB it/it/PRON/Case=Acc ${P}`, `Luego/luego/ADV la/lo/PRON/Case=Acc|Gender=Fem|Number=Sing perdí/perder/VERB ${P}`, "0-0 2-2 3-1 4-3"],
  ];
  it("takes the nearest agreeing noun when the resolver gives none", () => {
    const items = matchDocument(doc("fb", "es", pairs), [loadRuleSet("ES_GENDER", "es")], FB).get("ES_GENDER")!;
    expect(items.map((x) => [x.rule, x.expected, x["ante distance"], x["src ante head"], x["ref ante head"], x["src ante phrase"]])).toEqual([
      ["ACC.FEM.SING", "la", 1, "key", "llave", "the key"],
    ]);
    expect(matchDocument(doc("fb", "es", pairs), [loadRuleSet("ES_GENDER", "es")], { fallbackAntecedent: false }).get("ES_GENDER")).toEqual([]);
    expect(matchDocument(doc("fb", "es", pairs), [loadRuleSet("ES_GENDER", "es")], { fallbackAntecedent: "off" }).get("ES_GENDER")).toEqual([]);
    // The default is the unique fallback, which takes the one candidate here.
    expect(matchDocument(doc("fb", "es", pairs), [loadRuleSet("ES_GENDER", "es")]).get("ES_GENDER")!.map((x) => x["src ante head"])).toEqual(["key"]);
    expect(() => matchDocument(doc("fb", "es", pairs), [loadRuleSet("ES_GENDER", "es")], { fallbackAntecedent: "nerest" as never })).toThrow(/one of off, nearest, unique, got 'nerest'/);
  });
  it("skips nouns whose aligned noun disagrees with the target pronoun, and nouns of another English number", () => {
    const two: Array<[string, string, string]> = [
      [`The/the/DET key/key/NOUN/Number=Sing and/and/CCONJ the/the/DET books/book/NOUN/Number=Plur ${P}`, `La/el/DET llave/llave/NOUN/Gender=Fem|Number=Sing y/y/CCONJ los/el/DET libros/libro/NOUN/Gender=Masc|Number=Plur ${P}`, "0-0 1-1 2-2 3-3 4-4 5-5"],
      [`I/I/PRON/Case=Nom saw/see/VERB the/the/DET car/car/NOUN/Number=Sing ${P}`, `Vi/ver/VERB el/el/DET coche/coche/NOUN/Gender=Masc|Number=Sing ${P}`, "1-0 2-1 3-2 4-3"],
      pairs[1]!,
    ];
    // Sentence 2's "car" (coche, masculine) clashes with "la"; the sentence before it is out of reach.
    expect(matchDocument(doc("fb2", "es", two), [loadRuleSet("ES_GENDER", "es")], FB).get("ES_GENDER")).toEqual([]);
    const near: Array<[string, string, string]> = [two[0]!, pairs[1]!];
    const items = matchDocument(doc("fb3", "es", near), [loadRuleSet("ES_GENDER", "es")], FB).get("ES_GENDER")!;
    expect(items.map((x) => x["src ante head"])).toEqual(["key"]);
  });
  it("the fallback gives *it* no person noun and skips the objects of do/get/make/...", () => {
    const man: Array<[string, string, string]> = [
      [`The/the/DET man/man/NOUN/Number=Sing ordered/order/VERB it/it/PRON/Case=Acc ${P}`, `El/el/DET hombre/hombre/NOUN/Gender=Masc|Number=Sing lo/lo/PRON/Case=Acc|Gender=Masc|Number=Sing ordenó/ordenar/VERB ${P}`, "0-0 1-1 2-3 3-2 4-4"],
    ];
    const isPerson = (l: string) => l === "man";
    expect(matchDocument(doc("man", "es", man), [loadRuleSet("ES_GENDER", "es")], FB).get("ES_GENDER")).toHaveLength(1);
    expect(matchDocument(doc("man", "es", man), [loadRuleSet("ES_GENDER", "es")], { ...FB, personNoun: isPerson }).get("ES_GENDER")).toEqual([]);
    const did: Array<[string, string, string]> = [
      pairs[0]!,
      [`Then/then/ADV I/I/PRON/Case=Nom did/do/VERB it/it/PRON/Case=Acc ${P}`, `Luego/luego/ADV la/lo/PRON/Case=Acc|Gender=Fem|Number=Sing hice/hacer/VERB ${P}`, "0-0 2-2 3-1 4-3"],
    ];
    expect(matchDocument(doc("did", "es", did), [loadRuleSet("ES_GENDER", "es")], FB).get("ES_GENDER")).toEqual([]);
    // The resolver's own antecedent is kept there (not kept: it cost 3.5-6 points of recall).
    const toKey = [{ mentions: [{ sent: 0, start: 2, end: 4, head: 3 }, { sent: 1, start: 3, end: 4, head: 3 }] }];
    expect(matchDocument(doc("did2", "es", did, toKey), [loadRuleSet("ES_GENDER", "es")]).get("ES_GENDER")).toHaveLength(1);
  });
  it("replaces a resolver antecedent whose aligned noun clashes, but not one that is merely unaligned", () => {
    const clash: Array<[string, string, string]> = [
      [`I/I/PRON/Case=Nom found/find/VERB the/the/DET key/key/NOUN/Number=Sing and/and/CCONJ the/the/DET car/car/NOUN/Number=Sing ${P}`,
        `Encontré/encontrar/VERB la/el/DET llave/llave/NOUN/Gender=Fem|Number=Sing y/y/CCONJ el/el/DET coche/coche/NOUN/Gender=Masc|Number=Sing ${P}`, "1-0 2-1 3-2 4-3 5-4 6-5 7-6"],
      pairs[1]!,
    ];
    const toCar = [{ mentions: [{ sent: 0, start: 5, end: 7, head: 6 }, { sent: 1, start: 3, end: 4, head: 3 }] }];
    const items = matchDocument(doc("cl", "es", clash, toCar), [loadRuleSet("ES_GENDER", "es")], FB).get("ES_GENDER")!;
    expect(items.map((x) => [x.rule, x["src ante head"]])).toEqual([["ACC.FEM.SING", "key"]]);
    // The same resolver antecedent, now unaligned: kept as the resolver's word, so no item. Its determiner is
    // unaligned too: with "the-el" linked, determinedNoun would read the noun after *el* as C_t.
    const unaligned: Array<[string, string, string]> = [[clash[0]![0], clash[0]![1], "1-0 2-1 3-2 4-3"], pairs[1]!];
    expect(matchDocument(doc("cl2", "es", unaligned, toCar), [loadRuleSet("ES_GENDER", "es")], FB).get("ES_GENDER")).toEqual([]);
    // "the key in the car": the prepositional host replaces only an antecedent that gives an item itself, so the unaligned
    // complement of *in* does not give way to its host noun (no item without the fallback).
    const inCar: Array<[string, string, string]> = [[unaligned[0]![0].replace("and/and/CCONJ", "in/in/ADP"), unaligned[0]![1].replace("y/y/CCONJ", "en/en/ADP"), unaligned[0]![2]], pairs[1]!];
    expect(matchDocument(doc("cl3", "es", inCar, toCar), [loadRuleSet("ES_GENDER", "es")]).get("ES_GENDER")).toEqual([]);
  });
  it("takes a noun tagged ADJ (gender, number, no noun beside it) as the resolver antecedent's noun", () => {
    const adj: Array<[string, string, string]> = [
      [`The/the/DET reporters/reporter/NOUN/Number=Plur came/come/VERB ${P}`, `Los/el/DET reporteros/reportero/ADJ/Gender=Masc|Number=Plur llegaron/llegar/VERB ${P}`, "0-0 1-1 2-2 3-3"],
      [`They/they/PRON/Case=Nom left/leave/VERB ${P}`, `Ellos/él/PRON/Case=Nom|Gender=Masc|Number=Plur se/se/PRON fueron/ir/VERB ${P}`, "0-0 1-2 2-3"],
    ];
    const chain = [{ mentions: [{ sent: 0, start: 0, end: 2, head: 1 }, { sent: 1, start: 0, end: 1, head: 0 }] }];
    const items = matchDocument(doc("adj", "es", adj, chain), [loadRuleSet("ES_GENDER", "es")], FB).get("ES_GENDER")!;
    expect(items.map((x) => [x.rule, x["ref ante head"], x["ref ante head pos"]])).toEqual([["NOM.MASC.PLUR", "reporteros", "NOUN"]]);
    // Not as a fallback antecedent.
    expect(matchDocument(doc("adj2", "es", adj), [loadRuleSet("ES_GENDER", "es")], FB).get("ES_GENDER")).toEqual([]);
  });
  it("animacy: with uncoveredCase, a pronoun tagged in a case the set has no rule for takes the set's one rule for its form (pl jej Gen; off by default)", () => {
    const pl: Array<[string, string, string]> = [
      [`I/I/PRON/Case=Nom like/like/VERB my/my/PRON/Poss=Yes job/job/NOUN/Number=Sing ${P}`, `Lubię/lubić/VERB moją/mój/DET pracę/praca/NOUN/Case=Acc|Gender=Fem|Number=Sing ${P}`, "1-0 2-1 3-2 4-3"],
      [`I/I/PRON/Case=Nom need/need/VERB it/it/PRON/Case=Acc ${P}`, `Potrzebuję/potrzebować/VERB jej/on/PRON/Case=Gen|Gender=Fem|Number=Sing ${P}`, "1-0 2-1 3-2"],
    ];
    const chain = [{ mentions: [{ sent: 0, start: 2, end: 4, head: 3 }, { sent: 1, start: 2, end: 3, head: 2 }] }];
    const items = matchDocument(doc("pl", "pl", pl, chain), [loadRuleSet("PL_ANIMACY", "pl")], { uncoveredCase: true }).get("PL_ANIMACY")!;
    expect(items.map((x) => [x.rule, x.expected, x["src pronoun"]])).toEqual([["DAT.FEM.SING", "it", "jej"]]);
    // Off by default: a Gen-tagged jej gives no DAT animacy item.
    expect(matchDocument(doc("pl", "pl", pl, chain), [loadRuleSet("PL_ANIMACY", "pl")]).get("PL_ANIMACY")).toEqual([]);
    // The gender set keeps GEN.FEM.SING for jej, so there the tagged case decides.
    const g = matchDocument(doc("pl", "pl", pl, chain), [loadRuleSet("PL_GENDER", "pl")]).get("PL_GENDER")!;
    expect(g.map((x) => x.rule)).toEqual(["GEN.FEM.SING"]);
  });
});

describe("unique fallback antecedent", () => {
  const U = { fallbackAntecedent: "unique" as const };
  const ES = () => [loadRuleSet("ES_GENDER", "es")];
  const lost: [string, string, string] = [`Then/then/ADV I/I/PRON/Case=Nom lost/lose/VERB it/it/PRON/Case=Acc ${P}`, `Luego/luego/ADV la/lo/PRON/Case=Acc|Gender=Fem|Number=Sing perdí/perder/VERB ${P}`, "0-0 2-2 3-1 4-3"];
  // "I found the key and the car." / "Encontré la llave y el coche.": car is masculine, known, so key is the only feminine candidate.
  const keyCar: [string, string, string] = [`I/I/PRON/Case=Nom found/find/VERB the/the/DET key/key/NOUN/Number=Sing and/and/CCONJ the/the/DET car/car/NOUN/Number=Sing ${P}`,
    `Encontré/encontrar/VERB la/el/DET llave/llave/NOUN/Gender=Fem|Number=Sing y/y/CCONJ el/el/DET coche/coche/NOUN/Gender=Masc|Number=Sing ${P}`, "1-0 2-1 3-2 4-3 5-4 6-5 7-6"];
  it("fires when exactly one noun of the reach agrees and every other is aligned to a noun of known, clashing gender", () => {
    const items = matchDocument(doc("u1", "es", [keyCar, lost]), ES(), U).get("ES_GENDER")!;
    expect(items.map((x) => [x.rule, x["src ante head"], x["ref ante head"]])).toEqual([["ACC.FEM.SING", "key", "llave"]]);
    // The nearest mode takes the same noun; off by default.
    expect(matchDocument(doc("u1", "es", [keyCar, lost]), ES(), { fallbackAntecedent: "nearest" }).get("ES_GENDER")!.map((x) => x["src ante head"])).toEqual(["key"]);
    expect(matchDocument(doc("u1", "es", [keyCar, lost]), ES(), { fallbackAntecedent: false }).get("ES_GENDER")).toEqual([]);
  });
  it("does not fire when two nouns agree with the target pronoun", () => {
    const twoFem: [string, string, string] = [keyCar[0].replace("car/car", "door/door"), keyCar[1].replace("el/el/DET coche/coche/NOUN/Gender=Masc", "la/el/DET puerta/puerta/NOUN/Gender=Fem"), keyCar[2]];
    expect(matchDocument(doc("u2", "es", [twoFem, lost]), ES(), U).get("ES_GENDER")).toEqual([]);
    // The nearest mode takes the nearer one.
    expect(matchDocument(doc("u2", "es", [twoFem, lost]), ES(), { fallbackAntecedent: true }).get("ES_GENDER")!.map((x) => x["src ante head"])).toEqual(["door"]);
  });
  it("does not fire when another noun is unaligned, aligned to a non-noun, or to a noun without gender", () => {
    const unaligned: [string, string, string] = [keyCar[0], keyCar[1], "1-0 2-1 3-2 4-3"];
    expect(matchDocument(doc("u3", "es", [unaligned, lost]), ES(), U).get("ES_GENDER")).toEqual([]);
    expect(matchDocument(doc("u3", "es", [unaligned, lost]), ES(), { fallbackAntecedent: true }).get("ES_GENDER")).toHaveLength(1);
    const toVerb: [string, string, string] = [keyCar[0], keyCar[1], "1-0 2-1 3-2 4-3 6-0"];
    expect(matchDocument(doc("u4", "es", [toVerb, lost]), ES(), U).get("ES_GENDER")).toEqual([]);
    const noGender: [string, string, string] = [keyCar[0], keyCar[1].replace("coche/NOUN/Gender=Masc|Number=Sing", "coche/NOUN/Number=Sing"), keyCar[2]];
    expect(matchDocument(doc("u5", "es", [noGender, lost]), ES(), U).get("ES_GENDER")).toEqual([]);
  });
  it("nouns that cannot be the antecedent do not compete: another English number, a person for *it*, the subject of the pronoun's own verb", () => {
    // "the cars" (plural) and "the man" (a person) leave "key" the only candidate, though neither is aligned.
    const plur: [string, string, string] = [keyCar[0].replace("car/car/NOUN/Number=Sing", "cars/car/NOUN/Number=Plur"), keyCar[1], "1-0 2-1 3-2 4-3"];
    const lostSing: [string, string, string] = [lost[0].replace("it/it/PRON/Case=Acc", "it/it/PRON/Case=Acc|Number=Sing"), lost[1], lost[2]];
    expect(matchDocument(doc("u6", "es", [plur, lostSing]), ES(), U).get("ES_GENDER")!.map((x) => x["src ante head"])).toEqual(["key"]);
    const man: [string, string, string] = [keyCar[0].replace("car/car", "man/man"), keyCar[1], "1-0 2-1 3-2 4-3"];
    expect(matchDocument(doc("u7", "es", [man, lost]), ES(), U).get("ES_GENDER")).toEqual([]);
    expect(matchDocument(doc("u7", "es", [man, lost]), ES(), { ...U, personNoun: (l) => l === "man" }).get("ES_GENDER")!.map((x) => x["src ante head"])).toEqual(["key"]);
    // "The key is here. The girl wants it": the girl (unaligned, also no person lexicon here) is the subject of the pronoun's own verb, so she does not compete.
    const here: [string, string, string] = [`The/the/DET key/key/NOUN/Number=Sing is/be/AUX here/here/ADV ${P}`, `La/el/DET llave/llave/NOUN/Gender=Fem|Number=Sing está/estar/AUX aquí/aquí/ADV ${P}`, "0-0 1-1 2-2 3-3 4-4"];
    const wants: [string, string, string] = [`The/the/DET girl/girl/NOUN/Number=Sing wants/want/VERB it/it/PRON/Case=Acc ${P}`, `La/el/DET chica/chica/NOUN/Gender=Fem|Number=Sing la/lo/PRON/Case=Acc|Gender=Fem|Number=Sing quiere/querer/VERB ${P}`, "0-0 2-3 3-2 4-4"];
    expect(matchDocument(doc("u8", "es", [here, wants]), ES(), U).get("ES_GENDER")!.map((x) => x["src ante head"])).toEqual(["key"]);
    // Aligned, the girl would match and be the nearest: the unique mode still refuses her as the subject of "wants".
    const wants2: [string, string, string] = [wants[0], wants[1], "0-0 1-1 2-3 3-2 4-4"];
    expect(matchDocument(doc("u9", "es", [here, wants2]), ES(), { fallbackAntecedent: true }).get("ES_GENDER")!.map((x) => x["src ante head"])).toEqual(["girl"]);
    expect(matchDocument(doc("u9", "es", [here, wants2]), ES(), U).get("ES_GENDER")!.map((x) => x["src ante head"])).toEqual(["key"]);
  });
  it("no unique fallback for an expletive or identificational *it*, after an earlier object *it* in reach, nor to a noun of time", () => {
    // "Who is it?" / "¿Quién es él?" after "I found the key."
    const who: [string, string, string] = [`Who/who/PRON is/be/AUX it/it/PRON/Case=Nom ${P}`, `¿Quién/quién/PRON es/ser/AUX él/él/PRON/Case=Nom|Gender=Masc|Number=Sing ${P}`, "0-0 1-1 2-2 3-3"];
    const found: [string, string, string] = [`I/I/PRON/Case=Nom found/find/VERB the/the/DET ring/ring/NOUN/Number=Sing ${P}`, `Encontré/encontrar/VERB el/el/DET anillo/anillo/NOUN/Gender=Masc|Number=Sing ${P}`, "1-0 2-1 3-2 4-3"];
    expect(matchDocument(doc("w1", "es", [found, who]), ES(), { fallbackAntecedent: true }).get("ES_GENDER")).toHaveLength(1);
    expect(matchDocument(doc("w1", "es", [found, who]), ES(), U).get("ES_GENDER")).toEqual([]);
    // An earlier object *it* in reach: "I found the key and kept it. Then I lost it."
    const kept: [string, string, string] = [`I/I/PRON/Case=Nom found/find/VERB the/the/DET key/key/NOUN/Number=Sing and/and/CCONJ kept/keep/VERB it/it/PRON/Case=Acc ${P}`,
      `Encontré/encontrar/VERB la/el/DET llave/llave/NOUN/Gender=Fem|Number=Sing y/y/CCONJ la/lo/PRON/Case=Acc|Gender=Fem|Number=Sing guardé/guardar/VERB ${P}`, "1-0 2-1 3-2 4-3 5-5 6-4 7-6"];
    expect(matchDocument(doc("w2", "es", [kept, lost]), ES(), U).get("ES_GENDER")!.filter((x) => x["segment id"] === 2)).toEqual([]);
    expect(matchDocument(doc("w2", "es", [kept, lost]), ES(), { fallbackAntecedent: true }).get("ES_GENDER")!.filter((x) => x["segment id"] === 2)).toHaveLength(1);
    // A noun of time is no candidate: "Come on Tuesday night and I'll play it" / "Ven el martes por la noche y la tocaré".
    const night: [string, string, string] = [`Come/come/VERB on/on/ADP Tuesday/Tuesday/PROPN night/night/NOUN/Number=Sing ${P}`, `Ven/venir/VERB el/el/DET martes/martes/NOUN por/por/ADP la/el/DET noche/noche/NOUN/Gender=Fem|Number=Sing ${P}`, "0-0 1-3 2-2 3-5 4-6"];
    expect(matchDocument(doc("w3", "es", [night, lost]), ES(), { fallbackAntecedent: true }).get("ES_GENDER")).toHaveLength(1);
    expect(matchDocument(doc("w3", "es", [night, lost]), ES(), U).get("ES_GENDER")).toEqual([]);
  });
  it("no unique fallback for subject *they*; object *them* keeps it", () => {
    const books: [string, string, string] = [`I/I/PRON/Case=Nom bought/buy/VERB books/book/NOUN/Number=Plur ${P}`, `Compré/comprar/VERB libros/libro/NOUN/Gender=Masc|Number=Plur ${P}`, "1-0 2-1 3-2"];
    const they: [string, string, string] = [`They/they/PRON/Case=Nom|Number=Plur are/be/AUX old/old/ADJ ${P}`, `Ellos/él/PRON/Case=Nom|Gender=Masc|Number=Plur son/ser/AUX viejos/viejo/ADJ ${P}`, "0-0 1-1 2-2 3-3"];
    const them: [string, string, string] = [`I/I/PRON/Case=Nom wait/wait/VERB for/for/ADP them/they/PRON/Case=Acc|Number=Plur ${P}`, `Espero/esperar/VERB por/por/ADP ellos/él/PRON/Case=Acc|Gender=Masc|Number=Plur ${P}`, "1-0 2-1 3-2 4-3"];
    expect(matchDocument(doc("t1", "es", [books, they]), ES(), { fallbackAntecedent: "nearest" }).get("ES_GENDER")).toHaveLength(1);
    expect(matchDocument(doc("t1", "es", [books, they]), ES(), U).get("ES_GENDER")).toEqual([]);
    expect(matchDocument(doc("t2", "es", [books, them]), ES(), U).get("ES_GENDER")!.map((x) => [x.rule, x["src ante head"]])).toEqual([["DISJ.MASC.PLUR", "books"]]);
  });
  it("expletiveIt: extraposition and who/what is it, not a referential subject", () => {
    const t = (s: string) => s.split(" ").map((w) => { const [text, lemma, upos] = w.split("/"); return { text: text!, lemma: lemma!, upos: upos!, feats: {} }; });
    expect(expletiveIt(t("It/it/PRON 's/be/AUX wonderful/wonderful/ADJ for/for/ADP a/a/DET family/family/NOUN to/to/PART love/love/VERB"), 0)).toBe(true);
    expect(expletiveIt(t("It/it/PRON is/be/AUX not/not/PART clear/clear/ADJ that/that/SCONJ he/he/PRON came/come/VERB"), 0)).toBe(true);
    expect(expletiveIt(t("Who/who/PRON is/be/AUX it/it/PRON ?/?/PUNCT"), 2)).toBe(true);
    expect(expletiveIt(t("Where/where/ADV is/be/AUX it/it/PRON ?/?/PUNCT"), 2)).toBe(false);
    expect(expletiveIt(t("It/it/PRON is/be/AUX broken/broken/ADJ ./././PUNCT"), 0)).toBe(false);
    expect(expletiveIt(t("It/it/PRON speaks/speak/VERB several/several/ADJ languages/language/NOUN"), 0)).toBe(false);
  });
  it("replaces a clashing resolver antecedent only when the choice is unique, and never for a propositional object", () => {
    const toCar = [{ mentions: [{ sent: 0, start: 5, end: 7, head: 6 }, { sent: 1, start: 3, end: 4, head: 3 }] }];
    expect(matchDocument(doc("u10", "es", [keyCar, lost], toCar), ES(), U).get("ES_GENDER")!.map((x) => x["src ante head"])).toEqual(["key"]);
    const did: [string, string, string] = [lost[0].replace("lost/lose", "did/do"), lost[1], lost[2]];
    expect(matchDocument(doc("u11", "es", [keyCar, did]), ES(), U).get("ES_GENDER")).toEqual([]);
  });
});

describe("rules and validation", () => {
  it("case constraints: any, required, negated", () => {
    const tok = { text: "x", lemma: "x", upos: "PRON", feats: { Case: "Acc,Dat" } };
    expect(matchesCase(tok, "*")).toBe(true);
    expect(matchesCase(tok, "Dat")).toBe(true);
    expect(matchesCase(tok, "Nom")).toBe(false);
    expect(matchesCase(tok, "-Nom")).toBe(true);
    expect(matchesCase(tok, "-Acc")).toBe(false);
    expect(matchesCase({ ...tok, feats: {} }, "-Nom")).toBe(true);
  });

  it("loads the expected form override (la nôtre) and rejects bad rule files", () => {
    const fr = loadRuleSet("FR_GENDER", "fr");
    const r = fr.rules.find((x) => x.label === "GEN.FEM.SING.1P");
    expect(r).toMatchObject({ type: "pronoun", alignedForm: "nôtre", expected: "la nôtre" });
    expect(() => parseRuleFile('{"X": {"type": "magic"}}', "r.json")).toThrow(/r.json: rule "X": unknown rule type "magic"/);
    expect(() => parseRuleFile("[1]", "r.json")).toThrow(InputError);
  });

  it("unknown rule sets and language mismatches list the valid names", () => {
    expect(() => loadRuleSet("DE_GENDRE", "de")).toThrow(/unknown rule set 'DE_GENDRE'.*DE_GENDER/);
    expect(() => loadRuleSet("FR_GENDER", "de")).toThrow(/is for 'fr'.*DE_GENDER, DE_FORMALITY, DE_AUXILIARY, DE_ANIMACY/);
  });

  it("refuses inconsistent annotations with the document and sentence", () => {
    const bad = { ...deDoc, alignment: deDoc.alignment.map((a, k) => (k === 2 ? [[0, 9]] as Array<[number, number]> : a)) };
    expect(() => matchDocument(bad, [loadRuleSet("DE_GENDER", "de")])).toThrow(/document 'de-doc', sentence 3: alignment link 0-9 is out of range/);
  });
});

describe("the shipped resolver's person lexicon", () => {
  it("names persons, not things", async () => {
    const { loadDefaultCoref } = await import("../src/annotate/index.js");
    const r = loadDefaultCoref() as unknown as { isPerson(l: string): boolean };
    expect(r.isPerson("man")).toBe(true);
    expect(r.isPerson("father")).toBe(true);
    expect(r.isPerson("key")).toBe(false);
    expect(r.isPerson("car")).toBe(false);
  });
});
