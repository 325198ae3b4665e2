import { describe, expect, it } from "vitest";
import { sent } from "./ann-helper.js";
import { pluralItAgrees } from "../src/ctxpro/engine.js";

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
