import { describe, expect, it } from "vitest";
import { nounLexicon } from "../src/annotate/lexicons.js";
import { loadDefaultMorph } from "../src/annotate/morph.js";
import { azLabelTest, azMorph } from "../src/annotate/russian-az.js";
import { RU_PREPOSITION_CASES } from "../src/annotate/lang/ru.js";
import { verbLexicon } from "../src/annotate/verb-lexicons.js";

describe("Russian morphology from az (OpenCorpora)", () => {
  it("loads its dictionaries from the package, synchronously", () => {
    const parses = azMorph()("рукой");
    expect(parses[0]).toMatchObject({ pos: "NOUN", lemma: "рука", dictionary: true });
    expect(parses[0]!.grammemes.has("ablt")).toBe(true);
  });

  it("verb lexicon: infinitives, aspect partners kept apart, verb-only forms", () => {
    const ru = verbLexicon("ru")!;
    expect(ru.lemmas("сделал")).toEqual(["сделать"]);
    expect(ru.lemmas("делал")).toEqual(["делать"]);
    expect(ru.lemmas("хочешь")).toEqual(["хотеть"]);
    expect(ru.lemmas("могу")).toEqual(["мочь"]);
    expect(ru.lemmas("будешь")).toEqual(["быть"]);
    expect(ru.lemmas("кошку")).toBeUndefined();
    expect(ru.finite("знаю")).toBe(true);
    // "стали": mostly the verb (стать); "мыла": mostly the noun (мыло)
    expect(ru.otherWord?.("стали")).toBe(false);
    expect(ru.otherWord?.("мыла")).toBe(true);
  });

  it("noun lexicon: gender, number and the cases of the form", () => {
    const ru = nounLexicon("ru")!;
    expect(ru.lookup("кошку", "кошка")).toEqual({ gender: "Fem", number: "Sing", cases: ["Acc"] });
    expect(ru.lookup("рукой", "рука")).toMatchObject({ gender: "Fem", number: "Sing", cases: ["Ins"] });
    expect(ru.lookup("хочу", "хотеть")).toBeUndefined();
  });

  it("label test: parts of speech and cases the dictionary allows", () => {
    const t = azLabelTest("рукой")!;
    expect(t("NOUN", "Ins")).toBe(true);
    expect(t("NOUN", "Nom")).toBe(false);
    expect(t("VERB", undefined)).toBe(false);
    const v = azLabelTest("хочу")!;
    expect(v("VERB", undefined)).toBe(true);
    expect(v("VERB", "Nom")).toBe(false);
    expect(v("NOUN", "Nom")).toBe(false);
    expect(azLabelTest("Qwerty")).toBeUndefined();
    expect(RU_PREPOSITION_CASES.get("о")).toContain("Loc");
  });

  it("the shipped Russian tagger uses it", () => {
    const m = loadDefaultMorph("ru");
    const toks = m.annotate("Я хочу домой.").tokens;
    expect(toks[1]).toMatchObject({ text: "хочу", upos: "VERB", lemma: "хотеть" });
    const o = m.annotate("О вашей машине.").tokens;
    expect(o[2]).toMatchObject({ text: "машине", upos: "NOUN" });
    expect(o[2]!.feats.Case).toBe("Loc");
    expect(o[2]!.feats.Gender).toBe("Fem");
    // "нет" answering (a particle) vs the existential verb
    expect(m.annotate("Нет, вам!").tokens[0]!.upos).toBe("PART");
    expect(m.annotate("Ты идёшь, нет?").tokens[3]!.upos).toBe("PART");
    expect(m.annotate("Нет денег.").tokens[0]!.upos).toBe("VERB");
  });
});
