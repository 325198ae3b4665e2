import { describe, expect, it } from "vitest";
import { sent } from "./ann-helper.js";
import { genitiveHost, pluralItAgrees, relativeClauseHead, standsAsNoun } from "../src/ctxpro/engine.js";

describe("lever 17a: plural target pronoun for English *it*", () => {
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

describe("lever 17b: an ADJ-tagged target token counts as a noun only with no noun in its phrase", () => {
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

describe("lever 17c: the head noun of the relative clause the object pronoun stands in", () => {
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

describe("lever 17d: the noun a de / di phrase modifies", () => {
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
