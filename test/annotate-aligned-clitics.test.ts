import { describe, expect, it } from "vitest";
import { loadDefaultMorph } from "../src/annotate/morph.js";
import { ALIGNED_CLITICS, alignedClitics } from "../src/ctxpro/identify.js";
import type { AnnToken } from "../src/annotate/types.js";

const t = (text: string, upos: string, feats: Record<string, string> = {}): AnnToken => ({ text, start: 0, end: 0, upos, feats, lemma: text });
const acc = { Case: "Acc", PronType: "Prs" };

describe("identify: article homographs the alignment reads as object clitics (lever 28)", () => {
  // "he scoops it with his forearm" / "y la mueve con su antebrazo"
  const en = [t("he", "PRON", { Case: "Nom" }), t("scoops", "VERB"), t("it", "PRON", acc), t("with", "ADP"), t("his", "PRON", { Poss: "Yes" }), t("forearm", "NOUN")];
  const es = [t("y", "CCONJ"), t("la", "DET"), t("mueve", "NOUN"), t("con", "ADP"), t("su", "DET"), t("antebrazo", "NOUN")];
  const links: [number, number][] = [[1, 2], [2, 1], [3, 3], [4, 4], [5, 5]];
  it("a DET linked to an English object pronoun, its next word linked to an English verb", () => {
    expect([...alignedClitics(en, es, links, ALIGNED_CLITICS.es!)]).toEqual([1]);
  });
  it("unlinked next word tagged as a noun counts; one linked to an English noun does not", () => {
    expect([...alignedClitics(en, es, [[2, 1]], ALIGNED_CLITICS.es!)]).toEqual([1]);
    expect(alignedClitics(en, es, [[2, 1], [5, 2]], ALIGNED_CLITICS.es!).size).toBe(0);
  });
  it("not a pronoun already, not a subject or possessive, not every link to a pronoun, not another form", () => {
    expect(alignedClitics(en, es.map((x, k) => (k === 1 ? t("la", "PRON") : x)), links, ALIGNED_CLITICS.es!).size).toBe(0);
    expect(alignedClitics(en, es, [[0, 1], [1, 2]], ALIGNED_CLITICS.es!).size).toBe(0);
    expect(alignedClitics(en, es, [[4, 1], [1, 2]], ALIGNED_CLITICS.es!).size).toBe(0);
    expect(alignedClitics(en, es, [[2, 1], [5, 1], [1, 2]], ALIGNED_CLITICS.es!).size).toBe(0);
    expect(alignedClitics(en, es.map((x, k) => (k === 1 ? t("una", "DET") : x)), links, ALIGNED_CLITICS.es!).size).toBe(0);
  });
  it("Italian *le* only for *them* (for *her* it is the dative)", () => {
    const it_ = [t("Le", "DET"), t("riporti", "NOUN")];
    expect([...alignedClitics([t("bring", "VERB"), t("them", "PRON", acc)], it_, [[1, 0], [0, 1]], ALIGNED_CLITICS.it!)]).toEqual([0]);
    expect(alignedClitics([t("tell", "VERB"), t("her", "PRON", acc)], it_, [[1, 0], [0, 1]], ALIGNED_CLITICS.it!).size).toBe(0);
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
