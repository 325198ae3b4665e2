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

describe("locative only after a preposition, in a line with a verb (pl, ru)", () => {
  it("ru *мне* before a verb is dative; the elided preposition of a verb-less fragment keeps its locative", () => {
    const ru = loadDefaultMorph("ru");
    const caseOf = (s: string, w: string) => ru.annotate(s).tokens.find((t) => t.text === w)!.feats.Case;
    expect(caseOf("Мне нравится эта песня.", "Мне")).toBe("Dat");
    expect(caseOf("Я думаю о тебе.", "тебе")).toBe("Loc");
    expect(caseOf("Тебе нужно уходить отсюда.", "Тебе")).toBe("Dat");
  });
  it("withoutLocative off gives the tagger its own choice back (Loc here)", () => {
    const ru = loadDefaultMorph("ru");
    ru.withoutLocative = false;
    expect(ru.annotate("Мне нравится эта песня.").tokens[0]!.feats.Case).toBe("Loc");
  });
});
