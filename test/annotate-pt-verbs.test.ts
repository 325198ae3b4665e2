import { describe, expect, it } from "vitest";
import { loadDefaultMorph } from "../src/annotate/morph.js";
import { PT_IRREGULAR_FINITE, ptFiniteVerb } from "../src/annotate/pt-verbs.js";

describe("ptFiniteVerb: Portuguese finite forms no noun shares (lever 33)", () => {
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
  it("lever 14d: an article homograph before an irregular verb's finite form is the clitic", () => {
    const pt = loadDefaultMorph("pt");
    const r = pt.annotate("Já a teve.").tokens;
    expect(r[1]!.upos).toBe("PRON");
    const s = pt.annotate("Aqui a tem.").tokens;
    expect(s[1]!.upos).toBe("PRON");
    expect(pt.annotate("A via rápida.").tokens[0]!.upos).toBe("DET");
    // 14d's endings no longer take a noun stressed elsewhere ("O vôlei" was PRON VERB).
    expect(pt.annotate("O vôlei é bom.").tokens[0]!.upos).toBe("DET");
  });
});
