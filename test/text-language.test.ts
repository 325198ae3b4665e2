import { describe, expect, it } from "vitest";
import { checkLanguage, wordLanguageIndex } from "../src/text/language.js";

describe("function-word language evidence", () => {
  it("indexes the words of exactly one language's list (a shared word tells nothing)", () => {
    const m = wordLanguageIndex({ de: ["der", "die", "in"], en: ["the", "in"], fr: ["le", "die"] });
    expect([...m].sort()).toEqual([["der", "de"], ["le", "fr"], ["the", "en"]]);
  });

  it("refuses German given as English, naming the file", () => {
    const de = Array.from({ length: 20 }, () => "Der Hund ist nicht mit der Katze auf dem Weg, und die Frau auch nicht.");
    expect(() => checkLanguage(de, "en", "src.txt", "hint")).toThrow(/src\.txt: reads like German, not English/);
    expect(() => checkLanguage(de, "de", "src.txt", "hint")).not.toThrow();
  });
});
