import { describe, expect, it } from "vitest";
import { loadDefaultMorph } from "../src/annotate/morph.js";
import { obliqueNouns, PL_PREPOSITION_CASES, plDativeVerb, plEndingCases, plNoCase, plObliqueSingular, plPersonU, plSingularNounCases } from "../src/annotate/lang/pl.js";
import { copiedNames, misTaggedNominals } from "../src/annotate/aligned-retag.js";
import type { AnnToken } from "../src/annotate/types.js";

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
});

describe("Polish endings", () => {
  it("one-case endings, and the cases other endings rule out", () => {
    expect(plEndingCases("przyjaciółmi")).toEqual({ cases: ["Ins"], noVerb: true });
    expect(plEndingCases("innymi")?.cases).toEqual(["Ins"]);
    expect(plEndingCases("znajomemu")?.cases).toEqual(["Dat"]);
    expect(plEndingCases("maxowi")).toEqual({ cases: ["Dat"], notAdj: true });
    expect(plEndingCases("dobrego")?.cases).toEqual(["Gen", "Acc"]);
    expect(plEndingCases("boginią")?.cases).toEqual(["Acc", "Ins"]);
    expect(plEndingCases("słoma")?.cases).not.toContain("Ins");
    expect(plEndingCases("próbę")?.cases).toEqual(["Acc"]);
    expect(plEndingCases("imię")?.cases).toEqual(["Nom", "Acc", "Voc"]);
    expect(plEndingCases("zwierzę")?.cases).toEqual(["Nom", "Acc", "Voc"]);
    expect(plEndingCases("egzaminu")?.cases).toEqual(["Gen", "Dat", "Loc", "Voc"]);
    expect(plEndingCases("tej")).toBeUndefined(); // 3 letters
    expect(plEndingCases("mojej")).toEqual({ cases: ["Gen", "Dat", "Loc"], adjectival: true });
    expect(plEndingCases("rodzicom")).toEqual({ cases: ["Dat"], noVerb: true });
    expect(plEndingCases("poziom")).toBeUndefined();
    expect(plEndingCases("benem")?.cases).toEqual(["Nom", "Acc", "Ins", "Loc"]);
  });
  it("exceptions: -em nouns' genitives, numerals, instrumentals in -ma, olbrzymi, names", () => {
    expect(plEndingCases("problemu")?.cases).toEqual(["Gen", "Dat", "Loc", "Voc"]);
    expect(plEndingCases("kilku")).toBeUndefined();
    expect(plEndingCases("prostu")).toBeUndefined();
    expect(plEndingCases("rękoma")).toBeUndefined();
    expect(plEndingCases("olbrzymi")).toBeUndefined();
    expect(plEndingCases("diego")).toBeUndefined();
    expect(plEndingCases("menu")).toBeUndefined();
  });
  it("the shipped tagger applies them to open-class words", () => {
    const pl = loadDefaultMorph("pl");
    const tok = (s: string, w: string) => pl.annotate(s).tokens.find((t) => t.text === w)!;
    expect(tok("Jakiemu znajomemu?", "znajomemu").feats.Case).toBe("Dat");
    expect(tok("Chyba że już nie jesteśmy przyjaciółmi.", "przyjaciółmi").upos).not.toBe("VERB");
    expect(tok("- Innymi?", "Innymi").feats.Case).toBe("Ins");
    // after a form of *być*, a word in *-ą* is no verb
    expect(tok("Jesteście drużyną z Osaki?", "drużyną").upos).not.toBe("VERB");
  });
  it("no verb or interjection right after a preposition, except after *ze* (subtitles' *że*)", () => {
    const pl = loadDefaultMorph("pl");
    const tok = (s: string, w: string) => pl.annotate(s).tokens.find((t) => t.text === w)!;
    expect(tok("Bez nadziei.", "nadziei").upos).not.toBe("INTJ");
    expect(tok("Bez nadziei.", "nadziei").feats.Case).toBe("Gen");
    expect(tok("Chyba ze przejdzie na druga strone.", "przejdzie").upos).toBe("VERB");
  });
});

describe("Polish interrogative, indefinite and negative pronouns", () => {
  it("komu, nikomu, kim, czego have their cases", () => {
    const pl = loadDefaultMorph("pl");
    const tok = (s: string, w: string) => pl.annotate(s).tokens.find((t) => t.text === w)!;
    expect(tok("- Komu?", "Komu")).toMatchObject({ upos: "PRON", lemma: "kto", feats: { Case: "Dat" } });
    expect(tok("Nikomu.", "Nikomu").feats.Case).toBe("Dat");
    expect(tok("Z kim?", "kim").feats.Case).toBe("Ins");
    expect(tok("Dałeś to komuś?", "komuś").feats.Case).toBe("Dat");
  });
});

describe("Polish *jej* governed by a dative verb", () => {
  it("lexicon: lemmas, stems of forms the lemmatizer misses, verbs that need *się*", () => {
    expect(plDativeVerb("ufam", "ufać", false)).toBe(true);
    expect(plDativeVerb("pozwól", "pozwć", false)).toBe(true);
    expect(plDativeVerb("wierzono", "wieźć", false)).toBe(true);
    expect(plDativeVerb("przygląda", "przyglądać", false)).toBe(false);
    expect(plDativeVerb("przygląda", "przyglądać", true)).toBe(true);
    expect(plDativeVerb("szukasz", "szukać", false)).toBe(false);
    expect(plDativeVerb("dotknąć", "dotknąć", false)).toBe(false);
  });
  it("the tagger reads *jej* Dat after such a verb, not a possessive nor the thing given beside another dative", () => {
    const pl = loadDefaultMorph("pl");
    const jej = (s: string) => pl.annotate(s).tokens.find((t) => t.text.toLowerCase() === "jej")!.feats.Case;
    expect(jej("Ufam jej.")).toBe("Dat");
    expect(jej("Pozwól jej się gotować, Kel.")).toBe("Dat");
    expect(jej("Ktoś musiał jej pomóc.")).toBe("Dat");
    expect(jej("Znasz jej nazwę?")).toBe("Gen");
  });
});

describe("identify: Polish words tagged VERB in a verb-less line are re-read as nominals", () => {
  const t = (text: string, upos: string): AnnToken => ({ text, start: 0, end: 0, upos, feats: {}, lemma: text });
  it("a VERB linked only to English nominals of a verb-less line", () => {
    const en = [t("A", "DET"), t("deity", "NOUN"), t("?", "PUNCT")];
    const pl = [t("Boginią", "VERB"), t("?", "PUNCT")];
    expect([...misTaggedNominals(en, pl, [[1, 0]])]).toEqual([0]);
    // linked to an interjection, unaligned, or the English line has a verb: left alone
    expect(misTaggedNominals([t("Whoa", "INTJ"), t("!", "PUNCT")], [t("Ojć", "VERB"), t("!", "PUNCT")], [[0, 0]]).size).toBe(0);
    expect(misTaggedNominals(en, pl, []).size).toBe(0);
    expect(misTaggedNominals([t("Go", "VERB"), t("deity", "NOUN")], pl, [[1, 0]]).size).toBe(0);
  });
  it("the tagger's nominal option gives such words a nominal label with a case", () => {
    const pl = loadDefaultMorph("pl");
    const plain = pl.annotate("Boginią?").tokens[0]!;
    const read = pl.annotate("Boginią?", { nominal: new Set([0]) }).tokens[0]!;
    expect(["NOUN", "PROPN", "PRON", "ADJ", "DET", "NUM"]).toContain(read.upos);
    expect(read.feats.Case).toBe("Ins");
    expect(plain.upos === "VERB" || plain.feats.Case === "Ins").toBe(true);
  });
});

describe("identify: a Polish word written as the linked English proper noun is a name in the nominative", () => {
  const t = (text: string, upos: string, feats: Record<string, string> = {}): AnnToken => ({ text, start: 0, end: 0, upos, feats, lemma: text });
  it("in a verb-less line, not after a preposition", () => {
    const en = [t("Oh", "INTJ"), t(",", "PUNCT"), t("Charlie", "PROPN"), t(".", "PUNCT")];
    const pl = [t("Oh", "VERB"), t(",", "PUNCT"), t("Charlie", "PRON", { Case: "Acc" }), t(".", "PUNCT")];
    expect([...copiedNames(en, pl, [[0, 0], [2, 2]])]).toEqual([2]);
    const withZ = [t("Z", "ADP"), t("Gennaro", "PROPN", { Case: "Gen" }), t("?", "PUNCT")];
    expect(copiedNames([t("With", "ADP"), t("Gennaro", "PROPN"), t("?", "PUNCT")], withZ, [[0, 0], [1, 1]]).size).toBe(0);
    // another form (declined) or an English line with a verb: left alone
    expect(copiedNames([t("Max", "PROPN")], [t("Maxowi", "NOUN", { Case: "Dat" })], [[0, 0]]).size).toBe(0);
    expect(copiedNames([t("Call", "VERB"), t("Charlie", "PROPN")], [t("Zadzwoń", "VERB"), t("Charlie", "PRON")], [[0, 0], [1, 1]]).size).toBe(0);
  });
  it("the tagger's names option gives PROPN in the nominative", () => {
    const pl = loadDefaultMorph("pl");
    const read = pl.annotate("- Charlie.", { names: new Set([1]) }).tokens[1]!;
    expect(read.upos).toBe("PROPN");
    expect(read.feats.Case).toBe("Nom");
  });
});

describe("Polish singular nouns in -ie", () => {
  const rule = (w: string, upos: string, gender: string) => plSingularNounCases(w)?.find((r) => r.upos.includes(upos) && r.genders.includes(gender));
  it("-ie after a hard consonant: dative, locative or vocative for masculine and feminine nouns", () => {
    expect(rule("jubilacie", "NOUN", "Masc")?.cases).toEqual(["Dat", "Loc", "Voc"]);
    expect(rule("doktorze", "NOUN", "Masc")?.cases).toEqual(["Dat", "Loc", "Voc"]);
    expect(rule("szkole", "NOUN", "Fem")?.cases).toEqual(["Dat", "Loc", "Voc"]);
    // neuter nouns in -nie, -cie keep every case (*zdanie, życie* are nominative)
    expect(rule("planie", "NOUN", "Neut")).toBeUndefined();
    expect(rule("życie", "NOUN", "Neut")).toBeUndefined();
    // after m, b, f, s, z (not dz): neuter too, and no adjective at all
    expect(rule("obamie", "NOUN", "Neut")?.cases).toEqual(["Dat", "Loc", "Voc"]);
    expect(rule("niebie", "ADJ", "Neut")?.cases).toEqual([]);
    expect(rule("sklepie", "ADJ", "Neut")).toBeUndefined(); // *głupie*
    expect(rule("marcie", "DET", "Masc")?.cases).toEqual([]);
    expect(plSingularNounCases("michelle")).toBeUndefined();
  });
  it("-y, -i: not restricted (the tagger escapes to worse labels)", () => {
    expect(plSingularNounCases("kobiety")).toBeUndefined();
    expect(plSingularNounCases("kolegi")).toBeUndefined();
  });
  it("plEndingCases carries them; the shipped tagger no longer reads a singular noun in -ie nominative", () => {
    expect(plEndingCases("jubilacie")?.sing).toBeDefined();
    const pl = loadDefaultMorph("pl");
    expect(pl.annotate("Spotkałem go w teatrze.").tokens[3]!.feats.Case).toBe("Loc");
    // without the rule: *Obamie/NOUN|Neut|Sing|Nom*
    const t = pl.annotate("Lepiej jemu niż Obamie.").tokens[3]!;
    expect(["NOUN", "PROPN"].includes(t.upos) && t.feats.Number === "Sing" && ["Nom", "Gen", "Acc", "Ins"].includes(t.feats.Case ?? "")).toBe(false);
  });
  it("re-read in the dative or vocative (identify's oblique): a label the ending rules out", () => {
    expect(plObliqueSingular("obamie", "ADJ", { Gender: "Neut", Number: "Plur", Case: "Nom" })).toBe(true);
    expect(plObliqueSingular("rodionie", "NOUN", { Gender: "Masc", Number: "Plur", Case: "Nom" })).toBe(true);
    expect(plObliqueSingular("obamie", "PROPN", { Gender: "Masc", Number: "Sing", Case: "Dat" })).toBe(false);
    expect(plObliqueSingular("pytanie", "NOUN", { Gender: "Neut", Number: "Sing", Case: "Nom" })).toBe(false);
    expect(plObliqueSingular("życie", "NOUN", { Gender: "Neut", Number: "Sing", Case: "Acc" })).toBe(false);
    expect(plObliqueSingular("kobiety", "NOUN", { Gender: "Fem", Number: "Sing", Case: "Nom" })).toBe(false);
    expect(plPersonU("skrzypku", "NOUN", { Gender: "Masc", Number: "Sing", Case: "Gen" })).toBe(true);
    expect(plPersonU("skrzypku", "NOUN", { Gender: "Masc", Number: "Sing", Case: "Voc" })).toBe(false);
    expect(plPersonU("menu", "NOUN", { Gender: "Neut", Number: "Sing", Case: "Nom" })).toBe(false);
  });
  it("identify picks them in verb-less lines for English singular nouns (copied names, plurals and prepositions aside)", () => {
    const t = (text: string, upos: string, feats: Record<string, string> = {}): AnnToken => ({ text, start: 0, end: 0, upos, feats, lemma: text });
    const en = [t("Rodion", "PROPN", { Number: "Sing" }), t(".", "PUNCT")];
    const pl = [t("Rodionie", "NOUN", { Gender: "Masc", Number: "Plur", Case: "Nom" }), t(".", "PUNCT")];
    expect([...obliqueNouns(en, pl, [[0, 0]])]).toEqual([0]);
    expect(obliqueNouns(en, pl, [[0, 0]], new Set([0])).size).toBe(0);
    expect(obliqueNouns([t("Rodions", "PROPN", { Number: "Plur" })], pl, [[0, 0]]).size).toBe(0);
    expect(obliqueNouns([t("Go", "VERB"), ...en], [t("Idź", "VERB"), ...pl], [[0, 0], [1, 1]]).size).toBe(0);
    expect(obliqueNouns([t("About", "ADP"), ...en], [t("O", "ADP"), ...pl], [[0, 0], [1, 1]]).size).toBe(0);
    const sk = [t("Skrzypku", "NOUN", { Gender: "Masc", Number: "Sing", Case: "Gen" }), t("!", "PUNCT")];
    const fiddler = [t("Fiddler", "PROPN", { Number: "Sing" }), t("!", "PUNCT")];
    expect([...obliqueNouns(fiddler, sk, [[0, 0]], new Set(), (l) => l === "fiddler")]).toEqual([0]);
    expect(obliqueNouns(fiddler, sk, [[0, 0]], new Set(), () => false).size).toBe(0);
  });
  it("the tagger's oblique option reads them dative or vocative", () => {
    const pl = loadDefaultMorph("pl");
    const read = pl.annotate("Lepiej jemu niż Obamie.", { nominal: new Set([3]), oblique: new Set([3]) }).tokens[3]!;
    expect(["NOUN", "PROPN"]).toContain(read.upos);
    expect(read.feats.Number).toBe("Sing");
    expect(["Dat", "Voc"]).toContain(read.feats.Case);
  });
});

describe("Polish words with no case", () => {
  it("adverbs, particles, interjections: UD dev's, grammar's, -owo adverbs", () => {
    expect(plNoCase("rety")).toBe(true);
    expect(plNoCase("wielce")).toBe(true);
    expect(plNoCase("niestety")).toBe(true);
    expect(plNoCase("zawodowo")).toBe(true);
    expect(plNoCase("naukowo")).toBe(true);
    expect(plNoCase("słowo")).toBe(false);
    expect(plNoCase("grabowo", true)).toBe(false);
    expect(plNoCase("rano")).toBe(false);
    expect(plEndingCases("rety")).toEqual({ cases: [], noCase: true });
  });
  it("the shipped tagger gives them no case, even re-read as nominals", () => {
    const pl = loadDefaultMorph("pl");
    for (const [s, i] of [["Rety.", 0], ["Proste wielce.", 1], ["Zawodowo.", 0]] as const) {
      const tok = pl.annotate(s, { nominal: new Set([i]) }).tokens[i]!;
      expect(tok.feats.Case).toBeUndefined();
      expect(["ADV", "PART", "INTJ", "CCONJ", "SCONJ"]).toContain(tok.upos);
    }
  });
});

describe("Polish nouns after a modifier in -ym, -im agree", () => {
  it("the noun takes the instrumental, locative or dative; not after *zanim* or an active participle", () => {
    const pl = loadDefaultMorph("pl");
    const tok = (s: string, w: string) => pl.annotate(s).tokens.find((t) => t.text === w)!;
    expect(tok("- Jakim planie?", "planie").feats.Case).toBe("Loc");
    expect(tok("Z nowym samochodem.", "samochodem").feats.Case).toBe("Ins");
    // *zanim* is a conjunction: the noun after it keeps its own case
    expect(["Ins", "Loc", "Dat"]).not.toContain(tok("Zanim Anna przyjdzie, zjemy.", "Anna").feats.Case);
  });
});
