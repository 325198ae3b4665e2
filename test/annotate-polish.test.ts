import { describe, expect, it } from "vitest";
import { loadDefaultMorph } from "../src/annotate/morph.js";
import { PL_PREPOSITION_CASES } from "../src/annotate/polish.js";

describe("Polish: cases a preposition governs", () => {
  it("table", () => {
    expect(PL_PREPOSITION_CASES.get("od")).toEqual(["Gen"]);
    expect(PL_PREPOSITION_CASES.get("dzięki")).toEqual(["Dat"]);
    expect(PL_PREPOSITION_CASES.get("przez")).toEqual(["Acc"]);
    expect(PL_PREPOSITION_CASES.get("przy")).toEqual(["Loc"]);
  });

  it("the shipped Polish tagger restricts the word right after a preposition (closed-class pronouns too)", () => {
    const pl = loadDefaultMorph("pl");
    expect(pl.prepositionCases).toBe(PL_PREPOSITION_CASES);
    const caseOf = (s: string, w: string) => pl.annotate(s).tokens.find((t) => t.text === w)!.feats.Case;
    // *niego* is Gen or Acc, *niej* Gen, Dat or Loc, *nią* Acc or Ins by form: the preposition decides.
    expect(caseOf("Od niego!", "niego")).toBe("Gen");
    expect(caseOf("Dla niej.", "niej")).toBe("Gen");
    expect(caseOf("Przez nią.", "nią")).toBe("Acc");
    expect(caseOf("Dzięki Hankmedowi.", "Hankmedowi")).toBe("Dat");
  });
});
