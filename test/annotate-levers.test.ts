import { describe, expect, it } from "vitest";
import { DEFAULT_LEVERS, leversFromEnv, type Levers } from "../src/annotate/levers.js";
import { loadDefaultMorph } from "../src/annotate/morph.js";
import { plEndingCases } from "../src/annotate/polish.js";
import { caseClash } from "../src/annotate/tag-anchors.js";
import type { AnnToken } from "../src/annotate/types.js";

/** The switches that are on by default and off with PRONEVAL_X=0, by their documented names. */
const OFF_WITH_ZERO: Record<string, keyof Levers> = {
  PRONEVAL_VERB_LEXICON: "verbLexicon",
  PRONEVAL_LEXICON_TAGS: "lexiconTags",
  PRONEVAL_PREP_CASES: "prepositionCases",
  PRONEVAL_CLITIC_VERB: "cliticVerb",
  PRONEVAL_CLITIC_VERB_ALL: "cliticVerbAll",
  PRONEVAL_NOUN_READ: "nounRead",
  PRONEVAL_IT_CASE: "englishItCase",
  PRONEVAL_NO_LOC: "withoutLocative",
  PRONEVAL_ENDING_CASES: "endingCases",
  PRONEVAL_PL_DATIVE: "plJejCase",
  PRONEVAL_PL_JEJ_GEN: "plJejGenitive",
  PRONEVAL_ES_AGREE: "esAgreement",
  PRONEVAL_YOU_COMMA: "youCommaNominative",
  PRONEVAL_PL_NOUN_ENDINGS: "plNounEndings",
  PRONEVAL_PL_NO_CASE: "plNoCase",
  PRONEVAL_PL_YM_AGREE: "plYmAgreement",
  PRONEVAL_CASE_CLASH: "caseClash",
  PRONEVAL_FORMAL_YOU_FREE: "formalYouFree",
  PRONEVAL_NOMINAL_RETAG: "nominalRetag",
  PRONEVAL_PL_OBLIQUE: "plOblique",
  PRONEVAL_SHARED_SUBJECT: "sharedSubject",
  PRONEVAL_PL_JE: "plJe",
  PRONEVAL_UNIQUE_POSITION: "uniquePosition",
  PRONEVAL_UNIQUE_EXPLETIVE: "uniqueExpletive",
  PRONEVAL_UNIQUE_CHAIN: "uniqueChain",
  PRONEVAL_UNIQUE_TIME: "uniqueTime",
  PRONEVAL_UNIQUE_THEY: "uniqueThey",
};

describe("issue 24's measurement switches (src/annotate/levers.ts)", () => {
  it("an empty environment gives the defaults, every lever as shipped", () => {
    expect(leversFromEnv({})).toEqual(DEFAULT_LEVERS);
    expect(DEFAULT_LEVERS.l23Steps).toEqual(["a", "b", "d"]);
    expect(DEFAULT_LEVERS.headRules).toEqual(["cop", "pp"]);
    expect(DEFAULT_LEVERS.verbRead).toBe("all");
    expect(DEFAULT_LEVERS.headNew).toBe(false);
    expect(DEFAULT_LEVERS.l23Trace).toBe(false);
    expect(DEFAULT_LEVERS.fallbackTrace).toBe(false);
    expect(Object.isFrozen(DEFAULT_LEVERS)).toBe(true);
    expect(Object.isFrozen(DEFAULT_LEVERS.l23Steps)).toBe(true);
  });

  it("PRONEVAL_X=0 turns exactly that switch off; any other value leaves it on", () => {
    for (const [name, field] of Object.entries(OFF_WITH_ZERO)) {
      expect(DEFAULT_LEVERS[field], name).toBe(true);
      expect(leversFromEnv({ [name]: "0" }), name).toEqual({ ...DEFAULT_LEVERS, [field]: false });
      expect(leversFromEnv({ [name]: "1" })[field], name).toBe(true);
      expect(leversFromEnv({ [name]: "" })[field], name).toBe(true);
    }
  });

  it("the opt-in switches need exactly 1; the modes and lists keep their parsing", () => {
    for (const [name, field] of [["PRONEVAL_HEAD_NEW", "headNew"], ["PRONEVAL_L23_TRACE", "l23Trace"], ["PRONEVAL_FALLBACK_TRACE", "fallbackTrace"]] as const) {
      expect(leversFromEnv({ [name]: "1" }), name).toEqual({ ...DEFAULT_LEVERS, [field]: true });
      expect(leversFromEnv({ [name]: "true" })[field], name).toBe(false);
    }
    expect(leversFromEnv({ PRONEVAL_VERB_READ: "verbless" }).verbRead).toBe("verbless");
    expect(leversFromEnv({ PRONEVAL_VERB_READ: "off" }).verbRead).toBe("off");
    expect(leversFromEnv({ PRONEVAL_VERB_READ: "0" }).verbRead).toBe("all");
    expect(leversFromEnv({ PRONEVAL_L23: "none" }).l23Steps).toEqual(["none"]);
    expect(leversFromEnv({ PRONEVAL_L23: "a,d" }).l23Steps).toEqual(["a", "d"]);
    // PRONEVAL_HEAD_RULES= (set, empty) turns both head moves off
    expect(leversFromEnv({ PRONEVAL_HEAD_RULES: "" }).headRules).toEqual([""]);
    expect(leversFromEnv({ PRONEVAL_HEAD_RULES: "pp" }).headRules).toEqual(["pp"]);
  });

  it("reach the library through its options, not the environment", () => {
    const off = { ...DEFAULT_LEVERS, verbRead: "off", cliticVerb: false, esAgreement: false, endingCases: false, prepositionCases: false } as const;
    const es = loadDefaultMorph("es", undefined, { levers: off });
    expect(es.levers).toBe(off);
    expect([es.verbRead, es.cliticVerb, es.cliticVerbAll, es.esAgreement]).toEqual(["off", false, true, false]);
    const pl = loadDefaultMorph("pl", undefined, { levers: off, lexicon: false });
    expect(pl.endingCases).toBeUndefined();
    expect(pl.prepositionCases).toBeUndefined();
    expect(loadDefaultMorph("pl", undefined, { lexicon: false }).endingCases?.("rety")).toEqual({ cases: [], noCase: true });
    expect(plEndingCases("rety", false, { plNoCase: false, plNounEndings: true })).toBeUndefined();
    const nom = { text: "I", lemma: "I", upos: "PRON", feats: { Case: "Nom", Person: "1" } } as AnnToken;
    const acc = { text: "lo", lemma: "lo", upos: "PRON", feats: { Case: "Acc", Person: "3" } } as AnnToken;
    expect(caseClash(nom, acc)).toBe(true);
    expect(caseClash(nom, acc, { caseClash: false })).toBe(false);
  });
});
