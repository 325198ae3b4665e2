import { describe, expect, it } from "vitest";
import { loadDefaultMorph } from "../src/annotate/morph.js";
import { nounLexicon } from "../src/annotate/lexicons.js";
import { alignedNouns, alignedNumbers } from "../src/annotate/aligned-retag.js";
import { nounAnalysis, parseLtProc } from "../src/annotate/apertium.js";
import type { AnnToken } from "../src/annotate/types.js";

const t = (text: string, upos: string, feats: Record<string, string> = {}): AnnToken => ({ text, start: 0, end: 0, upos, feats, lemma: text });

describe("identify: target words aligned only to English nouns are re-read as nouns", () => {
  const en = [t("The", "DET"), t("eggs", "NOUN", { Number: "Plur" }), t("are", "AUX"), t("here", "ADV")];
  const it_ = [t("Le", "DET"), t("uova", "NUM"), t("sono", "AUX"), t("qui", "ADV")];
  const known = (w: string) => ["uova", "chicas", "momento", "adecuado", "bebida"].includes(w.toLowerCase());
  it("a non-noun linked only to English common nouns that the lexicon knows as a noun", () => {
    expect([...alignedNouns(en, it_, [[0, 0], [1, 1], [2, 2], [3, 3]], known)]).toEqual([1]);
  });
  it("not when the lexicon does not know it, a link goes elsewhere, or the word is unaligned", () => {
    expect(alignedNouns(en, it_, [[1, 1]], () => false).size).toBe(0);
    expect(alignedNouns(en, it_, [[1, 1], [2, 1]], known).size).toBe(0);
    expect(alignedNouns(en, it_, [[0, 0]], known).size).toBe(0);
    expect(alignedNouns([t("Eggs", "PROPN"), ...en.slice(1)], it_, [[0, 1]], known).size).toBe(0);
  });
  it("not a word beside a noun (its modifier), nor, in Spanish, a word without -s for an English plural", () => {
    const es = [t("el", "DET"), t("momento", "NOUN"), t("adecuado", "ADJ")];
    expect(alignedNouns([t("the", "DET"), t("right", "ADJ"), t("time", "NOUN")], es, [[2, 2]], known, { pluralS: true }).size).toBe(0);
    const enPl = [t("the", "DET"), t("drinks", "NOUN", { Number: "Plur" })];
    expect(alignedNouns(enPl, [t("la", "DET"), t("bebida", "VERB")], [[1, 1]], known, { pluralS: true }).size).toBe(0);
    expect([...alignedNouns(enPl, [t("las", "DET"), t("chicas", "ADJ")], [[1, 1]], known, { pluralS: true })]).toEqual([1]);
  });
  it("MorphTagger: knownNoun from the lexicons, and the nouns option gives NOUN labels", () => {
    const itm = loadDefaultMorph("it");
    expect(itm.knownNoun("uova")).toBe(true);
    expect(itm.knownNoun("parola")).toBe(true);
    expect(itm.knownNoun("sapevano")).toBe(false);
    expect(itm.knownNoun("la")).toBe(false);
    const s = "Le uova sono nel frigo.";
    const i = itm.annotate(s).tokens.findIndex((x) => x.text === "uova");
    const tok = itm.annotate(s, { nouns: new Set([i]) }).tokens[i]!;
    expect(tok.upos).toBe("NOUN");
    expect(tok.feats).toMatchObject({ Gender: "Fem", Number: "Plur" });
    const es = loadDefaultMorph("es");
    expect(es.knownNoun("chicas")).toBe(true);
    expect(es.knownNoun("las")).toBe(false);
    expect(es.knownNoun("llegaron")).toBe(false);
  });
  it("Italian lexicon: a masculine noun's plural in -a is feminine (le uova, le ginocchia)", () => {
    const lex = nounLexicon("it")!;
    expect(lex.lookup("uova", "uova")).toEqual({ gender: "Fem", number: "Plur" });
    expect(lex.lookup("ginocchia", "ginocchio")).toMatchObject({ gender: "Fem", number: "Plur" });
    expect(lex.lookup("uovo", "uovo")).toEqual({ gender: "Masc", number: "Sing" });
    expect(lex.lookup("potere", "potere")).toEqual({ gender: "Masc", number: "Sing" });
  });
});

describe("alignedNouns: participles and abbreviations", () => {
  const known = () => true;
  it("not a word right after an auxiliary, nor one linked to an abbreviation", () => {
    const en = [t("commandeered", "VERB"), t("his", "PRON"), t("vehicle", "NOUN")];
    const it_ = [t("ha", "AUX"), t("requisito", "VERB"), t("il", "DET"), t("suo", "DET"), t("veicolo", "NOUN")];
    expect(alignedNouns(en, it_, [[0, 0], [2, 1]], known).size).toBe(0);
    expect(alignedNouns([t("No.", "NOUN"), t("But", "CCONJ")], [t("No", "INTJ"), t("ma", "CCONJ")], [[0, 0]], known).size).toBe(0);
    expect([...alignedNouns([t("cuff-links", "NOUN")], [t("gemelli", "ADJ")], [[0, 0]], known)]).toEqual([0]);
  });
});

describe("alignedNouns: a noun after a copula", () => {
  it("a word tagged other than VERB after an auxiliary is still re-read", () => {
    expect([...alignedNouns([t("there", "PRON"), t("were", "VERB"), t("faces", "NOUN", { Number: "Plur" })], [t("c'", "PRON"), t("erano", "AUX"), t("facce", "ADJ")], [[1, 1], [2, 2]], () => true)]).toEqual([2]);
  });
});

describe("alignedNouns: neighbours and participles", () => {
  const en = [t("a", "DET"), t("good", "ADJ"), t("place", "NOUN")];
  const it_ = [t("un", "DET"), t("bel", "NOUN"), t("posto", "VERB")];
  it("a neighbour tagged NOUN blocks only when the lexicon knows it as a noun", () => {
    expect([...alignedNouns(en, it_, [[2, 2]], (w) => w === "posto")]).toEqual([2]);
    expect(alignedNouns(en, it_, [[2, 2]], () => true).size).toBe(0);
  });
  it("after an auxiliary only a participle is left alone", () => {
    const had = [t("He", "PRON"), t("had", "VERB"), t("power", "NOUN")];
    const aveva = [t("Aveva", "AUX"), t("potere", "VERB")];
    expect([...alignedNouns(had, aveva, [[2, 1]], () => true, {}, () => false)]).toEqual([1]);
    expect(alignedNouns(had, aveva, [[2, 1]], () => true, {}, () => true).size).toBe(0);
    expect(loadDefaultMorph("it").participleOnly("requisito")).toBe(true);
    expect(loadDefaultMorph("it").participleOnly("potere")).toBe(false);
  });
});

describe("alignedNouns: a neighbour tagged NOUN that renders an English modifier", () => {
  it("does not block (es: the list also holds adjectives and determiners)", () => {
    const en = [t("these", "DET"), t("ladies", "NOUN", { Number: "Plur" })];
    const es = [t("esas", "NOUN"), t("chicas", "ADJ")];
    expect([...alignedNouns(en, es, [[0, 0], [1, 1]], () => true, { pluralS: true })]).toEqual([1]);
    expect(alignedNouns(en, es, [[1, 1]], () => true, { pluralS: true }).size).toBe(0);
  });
  it("a Spanish word re-read as a noun gets a gender", () => {
    const es = loadDefaultMorph("es");
    const tok = es.annotate("Consumía cocaína.", { nouns: new Set([1]) }).tokens[1]!;
    expect(tok.upos).toBe("NOUN");
    expect(tok.feats.Gender).toBe("Fem");
  });
});

describe("hunspellFlaggedForms", () => {
  it("stems with one of the flags and the forms those flags make; unflagged stems and other flags left out", async () => {
    const { hunspellFlaggedForms, spanishNominalForms } = await import("../src/annotate/lexicons.js");
    const aff = "SFX S Y 2\nSFX S 0 s [aeo]\nSFX S 0 es [^aeo]\nSFX R Y 1\nSFX R ar o ar\n";
    const dic = "4\ncasa/S\nsobre\nsobre/S\nhablar/R\nflor/S\n";
    expect([...hunspellFlaggedForms(aff, dic, "S")].sort()).toEqual(["casa", "casas", "flor", "flores", "sobre", "sobres"]);
    const es = spanishNominalForms();
    expect(es.has("sobre") && es.has("leyes") && es.has("chicas")).toBe(true);
    expect(es.has("en") || es.has("sin") || es.has("llegaron")).toBe(false);
  });
});

describe("identify: a noun of both numbers takes its English noun's number (pl)", () => {
  // What Apertium's Polish analyser says: twarzy is gen./dat./loc. singular and gen. plural; krew only singular.
  const readings = parseLtProc("^twarzy/twarz<n><f><pl><gen>/twarz<n><f><sg><gen>/twarz<n><f><sg><dat>$\n^krew/krew<n><f><sg><nom>$");
  const lex = { name: "fixed", lookup: (w: string) => nounAnalysis(readings.get(w) ?? []) };
  const en = [t("his", "PRON"), t("face", "NOUN", { Number: "Sing" }), t("faces", "NOUN", { Number: "Plur" }), t("red", "ADJ")];
  const pl = [t("jego", "PRON"), t("twarzy", "NOUN", { Gender: "Fem", Number: "Plur", Case: "Gen" }), t("krew", "NOUN", { Gender: "Fem", Number: "Plur" })];
  it("lexicon: the numbers of a form that is both", () => {
    expect(lex.lookup("twarzy")).toMatchObject({ gender: "Fem", numbers: ["Plur", "Sing"] });
    expect(lex.lookup("krew")?.numbers).toBeUndefined();
  });
  it("takes the number every link's English noun has, where the lexicon allows it", () => {
    expect(alignedNumbers(en, pl, [[1, 1]], lex)[1]!.feats).toEqual({ Gender: "Fem", Number: "Sing", Case: "Gen" });
  });
  it("leaves it where the links disagree, go to no noun, are missing, or the form has one number", () => {
    expect(alignedNumbers(en, pl, [[1, 1], [2, 1]], lex)[1]!.feats.Number).toBe("Plur");
    expect(alignedNumbers(en, pl, [[3, 1]], lex)[1]!.feats.Number).toBe("Plur");
    expect(alignedNumbers(en, pl, [], lex)[1]!.feats.Number).toBe("Plur");
    expect(alignedNumbers(en, pl, [[1, 2]], lex)[2]!.feats.Number).toBe("Plur");
  });
});
