// Reference-aligned pronoun scoring with the monolingual LCS aligner ("aligned-lcs"): which reference
// pronouns get a substitution, what R' is, and what the scorer is asked to compare.
import { describe, expect, it } from "vitest";
import { compareMany } from "../src/metric/pairs.js";
import { lcsLinks } from "../src/metric/decide.js";
import { alignedSubstitutions, referenceAlignedCompare } from "../src/metric/ref-aligned.js";
import { pronouns } from "../src/text/pronouns.js";
import { FixedScorer } from "./fixed-scorer.js";

const inv = pronouns();
const words = (s: string): string[] => s.toLowerCase().split(" ");
const links = (ref: string[], sys: string[]): Array<[number, number]> => lcsLinks(ref, sys, (i) => inv.has(ref[i]!), (j) => inv.has(sys[j]!));

describe("lcsLinks", () => {
  it("anchors identical words and pairs pronouns in order between anchors", () => {
    const ref = words("she said that it was late");
    const sys = words("he said this was late");
    // LCS: said, was, late; gaps: [she]/[he] and [that it]/[this].
    expect(links(ref, sys)).toEqual([
      [0, 0],
      [1, 1],
      [2, 2], // that ~ this (first pronoun of each side in the gap)
      [4, 3],
      [5, 4],
    ]);
  });
  it("leaves a pronoun with no counterpart in its gap unlinked", () => {
    const ref = words("we saw the film");
    const sys = words("saw the film");
    expect(links(ref, sys)).toEqual([
      [1, 0],
      [2, 1],
      [3, 2],
    ]);
  });
});

describe("alignedSubstitutions with the LCS", () => {
  it("substitutes the system's pronoun into the reference, keeping the reference's case", async () => {
    const [subs] = await alignedSubstitutions([{ context: [], reference: "She told him the truth.", system: "He told her the truth." }], "lcs");
    expect(subs!.map((s) => `${s.refPronoun}>${s.sysPronoun}`)).toEqual(["she>he", "him>her"]);
    expect(subs![0]!.substituted).toBe("He told him the truth.");
    expect(subs![1]!.substituted).toBe("She told her the truth.");
    expect(subs![0]!.offsets).toEqual([0, 3]);
  });
  it("gives nothing where the pronouns are the same or unpaired", async () => {
    const subs = await alignedSubstitutions(
      [
        { context: [], reference: "It is here.", system: "It is here." },
        { context: [], reference: "It is here.", system: "The cat is here." },
        { context: [], reference: "", system: "It is here." },
      ],
      "lcs",
    );
    expect(subs).toEqual([[], [], []]);
  });
});

describe("reference-aligned comparison", () => {
  const scorer = new FixedScorer({ she: 1, he: 0, it: 0.5, they: 0.5 });
  it("is the mean over the substitutions of R' minus R at the pronoun, null without one", async () => {
    const res = await referenceAlignedCompare(
      scorer,
      [
        { context: ["A woman came ."], reference: "She left .", system: "He left ." },
        { context: [], reference: "She left , and she smiled .", system: "He left , and it smiled ." },
        { context: [], reference: "She left .", system: "She left ." },
      ],
      { aligner: "lcs" },
    );
    expect(res.map((r) => r.value)).toEqual([-1, -0.75, null]);
    expect(res[1]!.decisions.map((d) => `${d.aToken}>${d.bToken}`)).toEqual(["She>He", "she>it"]);
  });
  it("is what compareMany gives in mode aligned-lcs, and the appended-clause probe cannot move it", async () => {
    const items = [{ context: [], a: "She left .", b: "He left ." }];
    const probe = [{ context: [], a: "She left . They stayed .", b: "He left . They stayed ." }];
    expect(await compareMany(scorer, items, "pronoun", "aligned-lcs")).toEqual([-1]);
    expect(await compareMany(scorer, probe, "pronoun", "aligned-lcs")).toEqual([-1]);
  });
});
