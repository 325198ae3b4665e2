import { describe, expect, it } from "vitest";
import { loadDefaultMorph } from "../src/annotate/morph.js";
import { alignedClitics } from "../src/annotate/lang/romance.js";
import { ES_CLITIC_FORMS } from "../src/annotate/lang/es.js";
import { IT_CLITIC_FORMS } from "../src/annotate/lang/it.js";
import { PT_CLITIC_FORMS, PT_PREPOSITION_HOMOGRAPHS } from "../src/annotate/lang/pt.js";
import type { AnnToken } from "../src/annotate/types.js";

// Each token its own written word (distinct offsets); split contractions share theirs.
let at = 0;
const t = (text: string, upos: string, feats: Record<string, string> = {}): AnnToken => ({ text, start: at, end: (at += text.length + 1) - 1, upos, feats, lemma: text });
const acc = { Case: "Acc", PronType: "Prs" };

describe("identify: article homographs the alignment reads as object clitics", () => {
  // "he scoops it with his forearm" / "y la mueve con su antebrazo"
  const en = [t("he", "PRON", { Case: "Nom" }), t("scoops", "VERB"), t("it", "PRON", acc), t("with", "ADP"), t("his", "PRON", { Poss: "Yes" }), t("forearm", "NOUN")];
  const es = [t("y", "CCONJ"), t("la", "DET"), t("mueve", "NOUN"), t("con", "ADP"), t("su", "DET"), t("antebrazo", "NOUN")];
  const links: [number, number][] = [[1, 2], [2, 1], [3, 3], [4, 4], [5, 5]];
  it("a DET linked to an English object pronoun, its next word linked to an English verb", () => {
    expect([...alignedClitics(en, es, links, ES_CLITIC_FORMS)]).toEqual([1]);
  });
  it("unlinked next word tagged as a noun counts; one linked to an English noun does not", () => {
    expect([...alignedClitics(en, es, [[2, 1]], ES_CLITIC_FORMS)]).toEqual([1]);
    expect(alignedClitics(en, es, [[2, 1], [5, 2]], ES_CLITIC_FORMS).size).toBe(0);
  });
  it("not a pronoun already, not a subject or possessive, not every link to a pronoun, not another form", () => {
    expect(alignedClitics(en, es.map((x, k) => (k === 1 ? t("la", "PRON") : x)), links, ES_CLITIC_FORMS).size).toBe(0);
    expect(alignedClitics(en, es, [[0, 1], [1, 2]], ES_CLITIC_FORMS).size).toBe(0);
    expect(alignedClitics(en, es, [[4, 1], [1, 2]], ES_CLITIC_FORMS).size).toBe(0);
    expect(alignedClitics(en, es, [[2, 1], [5, 1], [1, 2]], ES_CLITIC_FORMS).size).toBe(0);
    expect(alignedClitics(en, es.map((x, k) => (k === 1 ? t("una", "DET") : x)), links, ES_CLITIC_FORMS).size).toBe(0);
  });
  it("Italian *le* only for *them* (for *her* it is the dative)", () => {
    const it_ = [t("Le", "DET"), t("riporti", "NOUN")];
    expect([...alignedClitics([t("bring", "VERB"), t("them", "PRON", acc)], it_, [[1, 0], [0, 1]], IT_CLITIC_FORMS)]).toEqual([0]);
    expect(alignedClitics([t("tell", "VERB"), t("her", "PRON", acc)], it_, [[1, 0], [0, 1]], IT_CLITIC_FORMS).size).toBe(0);
  });
  it("pt *a*, also a preposition, before an infinitive only after a preposition", () => {
    const en = [t("Langley", "PROPN"), t("is", "AUX"), t("piecing", "VERB"), t("it", "PRON", acc)];
    const pt = [t("Langley", "PROPN"), t("está", "AUX"), t("a", "ADP"), t("juntar", "VERB")];
    expect(alignedClitics(en, pt, [[3, 2], [2, 3]], PT_CLITIC_FORMS, PT_PREPOSITION_HOMOGRAPHS).size).toBe(0);
    expect([...alignedClitics(en, pt, [[3, 2], [2, 3]], PT_CLITIC_FORMS)]).toEqual([2]);
    const de = [t("tenha", "VERB"), t("de", "ADP"), t("a", "DET"), t("ler", "NOUN")];
    expect([...alignedClitics([t("read", "VERB"), t("it", "PRON", acc)], de, [[1, 2], [0, 3]], PT_CLITIC_FORMS, PT_PREPOSITION_HOMOGRAPHS)]).toEqual([2]);
    const se = [t("Se", "SCONJ"), t("a", "ADP"), t("rebentarmos", "NOUN")];
    expect([...alignedClitics([t("blow", "VERB"), t("it", "PRON", acc)], se, [[1, 1], [0, 2]], PT_CLITIC_FORMS, PT_PREPOSITION_HOMOGRAPHS)]).toEqual([1]);
  });
  it("not a word split off a contraction (pt *na* -> *em a*)", () => {
    const en = [t("try", "VERB"), t("it", "PRON", acc)];
    const w = (text: string, upos: string, start: number, end: number): AnnToken => ({ ...t(text, upos), start, end });
    const pt = [w("em", "ADP", 0, 2), w("a", "DET", 0, 2), w("tentativa", "NOUN", 3, 12)];
    expect(alignedClitics(en, pt, [[1, 1], [0, 2]], PT_CLITIC_FORMS).size).toBe(0);
    expect([...alignedClitics(en, [t("que", "SCONJ"), w("a", "DET", 4, 5), w("tentasse", "NOUN", 6, 14)], [[1, 1], [0, 2]], PT_CLITIC_FORMS)]).toEqual([1]);
  });
  it("a next word linked only to an English particle or adverb counts where the verb lexicon knows it only as a verb", () => {
    const en = [t("you", "PRON", { Case: "Nom" }), t("pick", "VERB"), t("it", "PRON", acc), t("up", "ADP")];
    const es = [t("la", "DET"), t("recoges", "NOUN")];
    const links: [number, number][] = [[2, 0], [3, 1]];
    expect(alignedClitics(en, es, links, ES_CLITIC_FORMS).size).toBe(0);
    expect([...alignedClitics(en, es, links, ES_CLITIC_FORMS, undefined, (w) => w === "recoges")]).toEqual([0]);
    expect(alignedClitics(en, es, links, ES_CLITIC_FORMS, undefined, () => false).size).toBe(0);
    const m = loadDefaultMorph("es");
    expect(m.verbOnlyForm("recoges")).toBe(true);
    expect(m.verbOnlyForm("borda")).toBe(false);
  });
  it("a next word linked to an English subject pronoun counts where it is known only as a verb; pt by ptFiniteVerb", () => {
    // "when she got it" / "quando a recebesse"
    const en = [t("when", "SCONJ"), t("she", "PRON", { Case: "Nom" }), t("got", "VERB"), t("it", "PRON", acc)];
    const pt = [t("quando", "SCONJ"), t("a", "DET"), t("recebesse", "NOUN")];
    const links: [number, number][] = [[0, 0], [3, 1], [1, 2]];
    const m = loadDefaultMorph("pt");
    const verbOnly = (w: string) => m.verbOnlyForm(w);
    expect([...alignedClitics(en, pt, links, PT_CLITIC_FORMS, PT_PREPOSITION_HOMOGRAPHS, verbOnly)]).toEqual([1]);
    expect(alignedClitics(en, pt, links, PT_CLITIC_FORMS, PT_PREPOSITION_HOMOGRAPHS).size).toBe(0);
    // "quando a casa" is no verb
    expect(alignedClitics(en, [t("quando", "SCONJ"), t("a", "DET"), t("casa", "NOUN")], links, PT_CLITIC_FORMS, PT_PREPOSITION_HOMOGRAPHS, verbOnly).size).toBe(0);
    // "You got it, all right." / "Já a teve."
    const en2 = [t("You", "PRON", { Case: "Nom" }), t("got", "VERB"), t("it", "PRON", acc), t("all", "ADV"), t("right", "ADV")];
    const pt2 = [t("Já", "ADV"), t("a", "ADP"), t("teve", "NOUN")];
    expect([...alignedClitics(en2, pt2, [[2, 1], [3, 2]], PT_CLITIC_FORMS, PT_PREPOSITION_HOMOGRAPHS, verbOnly)]).toEqual([1]);
  });
  it("the tagger's clitics option: the accusative pronoun, and the verb after it", () => {
    const es = loadDefaultMorph("es");
    const s = "Simplemente la clava en el suelo.";
    const read = es.annotate(s, { clitics: new Set([1]) }).tokens;
    expect(read[1]!.upos).toBe("PRON");
    expect(read[1]!.feats.Case).toBe("Acc");
    expect(read[2]!.upos).toBe("VERB");
    const pt = loadDefaultMorph("pt");
    const r = pt.annotate("Se a rebentarmos, morremos.", { clitics: new Set([1]) }).tokens;
    expect(r[1]!.upos).toBe("PRON");
    expect(r[1]!.feats.Case).toBe("Acc");
  });
});
