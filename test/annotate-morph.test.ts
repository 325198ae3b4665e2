import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readConllu } from "../src/annotate/conllu.js";
import { MorphTagger, trainMorph, loadDefaultMorph } from "../src/annotate/morph.js";
import { tokenize } from "../src/annotate/tokenize.js";
import { InputError } from "../src/io/errors.js";

// A tiny French treebank: determiners agree with nouns, "du" is a multiword token (de + le).
function sent(words: Array<[string, string, string, string]>): string {
  return words.map((w, i) => `${i + 1}\t${w[0]}\t${w[1]}\t${w[2]}\t_\t${w[3]}\t0\tdep\t_\t_`).join("\n");
}
const N = (f: string, l: string, g: string, n = "Sing"): [string, string, string, string] => [f, l, "NOUN", `Gender=${g}|Number=${n}`];
const D = (f: string, g: string, n = "Sing"): [string, string, string, string] => [f, "le", "DET", `Gender=${g}|Number=${n}|PronType=Art`];
const V = (f: string, l: string): [string, string, string, string] => [f, l, "VERB", "Number=Sing|Person=3"];
const P = (f: string, g: string): [string, string, string, string] => [f, "il", "PRON", `Gender=${g}|Number=Sing|Person=3|PronType=Prs`];
const fixture: string[] = [];
const nouns: Array<[string, string, string]> = [
  ["maison", "maison", "Fem"], ["voiture", "voiture", "Fem"], ["table", "table", "Fem"], ["chaise", "chaise", "Fem"],
  ["livre", "livre", "Masc"], ["chat", "chat", "Masc"], ["jardin", "jardin", "Masc"], ["mur", "mur", "Masc"],
];
const verbs: Array<[string, string]> = [["regarde", "regarder"], ["aime", "aimer"], ["voit", "voir"]];
for (const [f, l, g] of nouns)
  for (const [vf, vl] of verbs) {
    fixture.push(`# text = ${g === "Fem" ? "Elle" : "Il"} ${vf} ${g === "Fem" ? "la" : "le"} ${f}\n${sent([P(g === "Fem" ? "Elle" : "Il", g), V(vf, vl), D(g === "Fem" ? "la" : "le", g), N(f, l, g)])}`);
    fixture.push(`# text = ${g === "Fem" ? "La" : "Le"} ${f} ${vf} ${g === "Fem" ? "les" : "les"} ${f}s\n${sent([D(g === "Fem" ? "La" : "Le", g), N(f, l, g), V(vf, vl), D("les", g, "Plur"), N(`${f}s`, l, g, "Plur")])}`);
  }
fixture.push(
  "# text = Il parle du livre\n1\tIl\til\tPRON\t_\tGender=Masc|Number=Sing|Person=3|PronType=Prs\t2\tnsubj\t_\t_\n2\tparle\tparler\tVERB\t_\tNumber=Sing|Person=3\t0\troot\t_\t_\n3-4\tdu\t_\t_\t_\t_\t_\t_\t_\t_\n3\tde\tde\tADP\t_\t_\t5\tcase\t_\t_\n4\tle\tle\tDET\t_\tGender=Masc|Number=Sing|PronType=Art\t5\tdet\t_\t_\n5\tlivre\tlivre\tNOUN\t_\tGender=Masc|Number=Sing\t2\tobl\t_\t_",
);

function fixtureModel(): MorphTagger {
  const dir = mkdtempSync(join(tmpdir(), "annot-morph-"));
  const path = join(dir, "fr-tiny.conllu");
  writeFileSync(path, fixture.join("\n\n") + "\n");
  return new MorphTagger(trainMorph("fr", readConllu(path), { epochs: 5, minWeight: 0 }));
}

describe("tagger trained on a tiny treebank", () => {
  const m = fixtureModel();

  it("tags seen sentences with UPOS, gender and number", () => {
    const a = m.annotate("Elle regarde la voiture");
    expect(a.tokens.map((t) => t.upos)).toEqual(["PRON", "VERB", "DET", "NOUN"]);
    expect(a.tokens[3]!.feats).toMatchObject({ Gender: "Fem", Number: "Sing" });
    expect(a.tokens[0]!.feats).toMatchObject({ Gender: "Fem", Person: "3" });
  });

  it("uses agreement and suffixes on unseen combinations", () => {
    const a = m.annotate("Il voit les chats");
    expect(a.tokens[3]).toMatchObject({ upos: "NOUN", lemma: "chat" });
    expect(a.tokens[3]!.feats).toMatchObject({ Number: "Plur", Gender: "Masc" });
  });

  it("splits contractions into syntactic words with shared offsets", () => {
    const a = m.annotate("Il parle du livre");
    expect(a.tokens.map((t) => t.text)).toEqual(["Il", "parle", "de", "le", "livre"]);
    expect(a.tokens[2]).toMatchObject({ upos: "ADP", start: 9, end: 11 });
    expect(a.tokens[3]).toMatchObject({ upos: "DET", start: 9, end: 11 });
  });

  it("keeps closed-class pronouns to their table analyses", () => {
    // "elles" never occurs in the fixture: the table still gives it feminine plural.
    const a = m.annotate("elles");
    expect(a.tokens[0]).toMatchObject({ upos: "PRON" });
  });
});

describe("tense model", () => {
  // Imperfect "-ait" and present forms of the same verbs; nouns and pronouns never carry Tense.
  const VT = (f: string, l: string, t: string): [string, string, string, string] => [f, l, "VERB", `Number=Sing|Person=3|Tense=${t}`];
  const pairs: Array<[string, string, string]> = [["regarde", "regardait", "regarder"], ["aime", "aimait", "aimer"], ["cherche", "cherchait", "chercher"], ["porte", "portait", "porter"]];
  const tb: string[] = [];
  for (const [f, l, g] of [["maison", "maison", "Fem"], ["livre", "livre", "Masc"], ["table", "table", "Fem"], ["mur", "mur", "Masc"]] as const)
    for (const [pres, imp, lemma] of pairs) {
      tb.push(sent([P("Il", "Masc"), VT(pres, lemma, "Pres"), D(g === "Fem" ? "la" : "le", g), N(f, l, g)]));
      tb.push(sent([P("Il", "Masc"), VT(imp, lemma, "Imp"), D(g === "Fem" ? "la" : "le", g), N(f, l, g)]));
    }
  const train = (text: string) => {
    const path = join(mkdtempSync(join(tmpdir(), "annot-tense-")), "fr.conllu");
    writeFileSync(path, text + "\n");
    return new MorphTagger(trainMorph("fr", readConllu(path), { epochs: 5, minWeight: 0 }));
  };

  it("predicts Tense on verbs only, from the suffix on unseen verbs", () => {
    const m = train(tb.join("\n\n"));
    expect(m.predictedFeats.has("Tense")).toBe(true);
    const imp = m.annotate("Il aimait la table").tokens;
    expect(imp[1]!.feats.Tense).toBe("Imp");
    expect(imp[3]!.feats.Tense).toBeUndefined();
    expect(m.annotate("Il aime la table").tokens[1]!.feats.Tense).toBe("Pres");
    // never seen: only the "-ait" suffix can say imperfect
    expect(m.annotate("Il mangeait la table").tokens[1]!.feats.Tense).toBe("Imp");
  });

  it("is absent when the treebank marks no Tense", () => {
    const m = train(fixture.join("\n\n"));
    expect(m.predictedFeats.has("Tense")).toBe(false);
    expect(m.annotate("Il regarde la maison").tokens[1]!.feats.Tense).toBeUndefined();
  });
});

describe("tokenizer", () => {
  const words = (s: string, l: Parameters<typeof tokenize>[1]) => tokenize(s, l).map((t) => t.text);
  it("handles each language's clitics", () => {
    expect(words("I don't know, Mr. Smith.", "en")).toEqual(["I", "do", "n't", "know", ",", "Mr.", "Smith", "."]);
    expect(words("L'homme qu'il aime", "fr")).toEqual(["L'", "homme", "qu'", "il", "aime"]);
    expect(words("Voy al mercado del pueblo", "es")).toEqual(["Voy", "a", "el", "mercado", "de", "el", "pueblo"]);
    expect(words("Vado nell'ufficio", "it")).toEqual(["Vado", "in", "l'", "ufficio"]);
    expect(words("Falou-lhe do livro dela", "pt")).toEqual(["Falou", "lhe", "de", "o", "livro", "de", "ela"]);
    expect(words("Ich gehe zum Bahnhof.", "de")).toEqual(["Ich", "gehe", "zu", "dem", "Bahnhof", "."]);
    expect(words("Quiero dárselo", "es")).toEqual(["Quiero", "dar", "se", "lo"]);
    expect(words("«Он сказал»", "ru")).toEqual(["«", "Он", "сказал", "»"]);
  });
});

describe("shipped models", () => {
  it("tag the pronouns CTXPRO's rules look at", () => {
    const de = loadDefaultMorph("de").annotate("Ich gebe ihm das Buch.");
    expect(de.tokens[2]).toMatchObject({ text: "ihm", upos: "PRON" });
    expect(de.tokens[2]!.feats.Case).toBe("Dat");
    const fr = loadDefaultMorph("fr").annotate("Elle est grande.");
    expect(fr.tokens[0]).toMatchObject({ upos: "PRON", feats: { Gender: "Fem", Number: "Sing" } });
    const en = loadDefaultMorph("en").annotate("I saw it and it saw me.");
    expect(en.tokens[2]!.feats.Case).toBe("Acc");
    expect(en.tokens[4]!.feats.Case).toBe("Nom");
  });

  it("reject unsupported languages clearly", () => {
    expect(() => loadDefaultMorph("xx")).toThrow(InputError);
    expect(() => loadDefaultMorph("xx")).toThrow(/unsupported language 'xx'/);
  });
});

describe("English 'it' after a verb or preposition", () => {
  it("is the object (Acc) unless a verb follows or an auxiliary precedes", () => {
    const en = loadDefaultMorph("en");
    const caseOf = (s: string, k: number) => en.annotate(s).tokens[k]!.feats.Case;
    expect(caseOf("Our lord loves it so.", 3)).toBe("Acc");
    expect(caseOf("I looked after it but it died.", 3)).toBe("Acc");
    expect(caseOf("I think it is broken.", 2)).toBe("Nom");
    expect(caseOf("Is it broken?", 1)).toBe("Nom");
  });
});
