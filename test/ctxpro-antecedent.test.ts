import { describe, expect, it } from "vitest";
import { sent } from "./ann-helper.js";
import { pluralItAgrees, standsAsNoun } from "../src/ctxpro/engine.js";

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
