import { describe, expect, it } from "vitest";
import { loadDefaultMorph } from "../src/annotate/morph.js";
import { PT_IRREGULAR_FINITE, ptFiniteVerb, ptNumberClash } from "../src/annotate/lang/pt.js";

describe("ptFiniteVerb: Portuguese finite forms no noun shares", () => {
  it("finite forms of the frequent irregular verbs and their compounds", () => {
    for (const w of ["tinha", "teve", "tem", "têm", "tenhas", "tivesse", "foi", "está", "houve", "vai", "fez", "disse", "pôde", "quis", "soube", "vi", "deu", "pôs", "trouxe", "vieram"]) expect(ptFiniteVerb(w), w).toBe(true);
    for (const w of ["mantém", "obtive", "contém", "propôs", "convém", "desfez", "prevê", "contradiz"]) expect(ptFiniteVerb(w), w).toBe(true);
  });
  it("leaves out the forms a noun, adjective or contraction shares", () => {
    for (const w of ["era", "via", "vias", "vinha", "veio", "verão", "porão", "vão", "pus", "opus", "trago", "são", "deste", "desse", "vir", "ser", "poder"]) {
      expect(PT_IRREGULAR_FINITE.has(w), w).toBe(false);
      expect(ptFiniteVerb(w), w).toBe(false);
    }
  });
  it("verb-only endings; nouns with a written accent elsewhere, compounds and -sse nouns are not verbs", () => {
    for (const w of ["usarei", "usarás", "levei", "roubou", "entreguei", "levasse", "recebesse", "fizéssemos", "cantariam", "andavam"]) expect(ptFiniteVerb(w), w).toBe(true);
    for (const w of ["vôlei", "jóquei", "hóquei", "decreto-lei", "classe", "interesse", "impasse", "casa", "teste", "padaria", "termos", "verão"]) expect(ptFiniteVerb(w), w).toBe(false);
  });
  it("MorphTagger.verbOnlyForm uses it for Portuguese (no verb lexicon), not for a capitalised word", () => {
    const pt = loadDefaultMorph("pt");
    expect(pt.verbOnlyForm("tinha")).toBe(true);
    expect(pt.verbOnlyForm("Faria")).toBe(false);
    expect(pt.verbOnlyForm("casa")).toBe(false);
  });
  it("an article homograph before an irregular verb's finite form is the clitic", () => {
    const pt = loadDefaultMorph("pt");
    const r = pt.annotate("Já a teve.").tokens;
    expect(r[1]!.upos).toBe("PRON");
    const s = pt.annotate("Aqui a tem.").tokens;
    expect(s[1]!.upos).toBe("PRON");
    expect(pt.annotate("A via rápida.").tokens[0]!.upos).toBe("DET");
    // the verb endings do not take a noun stressed elsewhere ("O vôlei" was PRON VERB).
    expect(pt.annotate("O vôlei é bom.").tokens[0]!.upos).toBe("DET");
  });
});

describe("ptNumberClash: the article's number rules out a noun", () => {
  it("plural os/as before a word with no final -s", () => {
    for (const w of ["usa", "compraram", "resolver", "fez", "vejo", "tem"]) expect(ptNumberClash("os", w, ""), w).toBe(true);
    for (const w of ["casas", "media", "quatro", "cerca", "fora-da-lei", "Faria", "17h"]) expect(ptNumberClash("as", w, ""), w).toBe(false);
  });
  it("singular o before an unstressed -as/-es (2nd person singular), not before an invariable noun or an accented word", () => {
    for (const w of ["compartilhas", "vendes", "usas"]) expect(ptNumberClash("o", w, "que"), w).toBe(true);
    for (const w of ["atlas", "pires", "simples", "blues", "mês", "através", "usa", "pára-quedas"]) expect(ptNumberClash("o", w, "que"), w).toBe(false);
  });
  it("a, also the preposition before bare plurals, only after a negation or subject pronoun", () => {
    expect(ptNumberClash("a", "uses", "não")).toBe(true);
    expect(ptNumberClash("a", "pessoas", "dinheiro")).toBe(false);
    expect(ptNumberClash("a", "pessoas", "se")).toBe(false);
  });
  it("a verb-only ending re-reads the pair as clitic and verb", () => {
    const pt = loadDefaultMorph("pt");
    const r = pt.annotate("É com quem o compartilhas.").tokens;
    expect(r[3]!.upos).toBe("PRON");
    expect(pt.annotate("Vou dar o atlas ao Pedro.").tokens[2]!.upos).toBe("DET");
  });
});

describe("Portuguese accusative clitic before a verb", () => {
  const feats = (s: string, i: number) => {
    const t = loadDefaultMorph("pt").annotate(s).tokens[i]!;
    return `${t.upos}/${t.feats.Case ?? "-"}/${t.feats.PronType ?? "-"}`;
  };
  it("a homograph tagged PRON before a finite verb or, after a preposition or conjunction, an infinitive-shaped one is Case=Acc", () => {
    expect(feats("Devem ter percebido a necessidade e a interpretaram como comida.", 6)).toBe("PRON/Acc/Prs");
    expect(feats("Dê-nos alguns minutos para a isolarmos.", 5)).toBe("PRON/Acc/Prs");
    expect(feats("Que a ouçam agora.", 1)).toBe("PRON/Acc/Prs");
  });
  it("the demonstrative before que stays; no Case for an article split off a contraction or before a participle", () => {
    expect(feats("O que fazes?", 0)).toBe("PRON/-/Dem");
    expect(feats("O referido relatório chegou.", 0)).not.toContain("Acc");
    expect(feats("Ficou contente ao saber isso.", 3)).not.toContain("Acc");
  });
});
