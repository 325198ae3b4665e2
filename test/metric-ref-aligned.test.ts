// Reference-aligned pronoun scoring with the monolingual LCS aligner ("aligned-lcs"): which reference
// pronouns get a substitution, what R' is, and what the scorer is asked to compare.
import { describe, expect, it } from "vitest";
import { compareMany } from "../src/metric/pairs.js";
import { lcsLinks } from "../src/metric/decide.js";
import { alignedSubstitutions, referenceAlignedCompare, substituteAll } from "../src/metric/ref-aligned.js";
import { scoreTestSet, signature } from "../src/metric/testset.js";
import type { TestSet } from "../src/io/model.js";
import type { PreparedSide } from "../src/core/scorer.js";
import { pronouns } from "../src/text/pronouns.js";
import { FixedScorer } from "./fixed-scorer.js";
import { join } from "node:path";
import { registerScore } from "../src/cli/score.js";
import { PACKAGE_ROOT } from "../src/version.js";
import { runCli } from "./cli-helper.js";

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

describe("hybrid mode: the reference with the system's pronouns substituted, else the system sentence, compared as sentence mode compares", () => {
  const scorer = new FixedScorer({ she: 1, he: 0, her: 1, his: 0, it: 0.5, they: 0.5 });
  it("substitutes every LCS-paired pronoun at once, keeping each one's case", () => {
    const [subs] = [[
      { offsets: [0, 3] as [number, number], refPronoun: "she", sysPronoun: "he", substituted: "" },
      { offsets: [9, 12] as [number, number], refPronoun: "him", sysPronoun: "her", substituted: "" },
    ]];
    expect(substituteAll("She told him the truth.", subs!)).toBe("He told her the truth.");
    expect(substituteAll("She told him the truth.", [...subs!].reverse())).toBe("He told her the truth.");
  });
  const items = [
    // Pronouns differ and the rest of the sentence too: R' = "He left , and they smiled ." in the reference's words,
    // compared under mean: (0 + 0.5) / 2 - (1 + 0.5) / 2 = -0.5 (aligned-lcs: the one decision she > he, -1).
    { context: [], a: "She left , and they smiled .", b: "He went away , and they smiled ." },
    // No pronoun pairs with a different one: the system sentence (no pronoun: 0 - 0.5).
    { context: [], a: "It is here .", b: "The cat is here ." },
    // Identical pronouns: the system sentence, 0.
    { context: [], a: "It is here .", b: "It is there ." },
    // No pronoun anywhere: nothing to compare in either mode.
    { context: [], a: "The cat is here .", b: "A cat is here ." },
  ];
  it("gives the aggregate's value of R vs R' where there are substitutions, of R vs S elsewhere", async () => {
    expect(await compareMany(scorer, items, "mean", "aligned-lcs")).toEqual([-1, null, null, null]);
    expect(await compareMany(scorer, items, "mean", "hybrid")).toEqual([-0.5, -0.5, 0, null]);
    expect(await compareMany(scorer, items, "pronoun", "hybrid")).toEqual([-1, null, null, null]);
  });
  it("is sentence mode exactly on pairs that differ only in their pronouns", async () => {
    const rr = [
      { context: ["A woman came ."], a: "She saw her car .", b: "He saw his car ." },
      { context: [], a: "She left , and they smiled .", b: "He left , and it smiled ." },
    ];
    for (const agg of ["mean", "sum", "pronoun", "min"] as const) expect(await compareMany(scorer, rr, agg, "hybrid")).toEqual(await compareMany(scorer, rr, agg, "sentence"));
  });
  it("reads an output without substitutions in its own context (RC), a substituted one in the reference's", async () => {
    const seen: string[] = [];
    const spy = new (class extends FixedScorer {
      override async scorePrepared(prepared: PreparedSide[]) {
        for (const p of prepared) seen.push(p.tokens.join(" "));
        return super.scorePrepared(prepared);
      }
    })({ she: 1, he: 0 });
    const ctx = { context: ["Ref ctx ."], contextB: ["Own ctx ."] };
    await compareMany(spy, [{ ...ctx, a: "It is here .", b: "The cat is here ." }, { ...ctx, a: "She is here .", b: "He was here ." }], "mean", "hybrid");
    expect(seen).toEqual(["Ref ctx . It is here .", "Ref ctx . She is here .", "Own ctx . The cat is here .", "Ref ctx . He is here ."]);
  });
  it("scores a test set segment by segment that way, and says so in the signature", async () => {
    const ts: TestSet = {
      name: "t", langPair: "de-en", srcLang: "de", tgtLang: "en", references: ["A"], systems: ["S"],
      documentIds: "given", format: "text", files: [],
      docs: [{ id: "d", segIds: ["1", "2", "3"], refs: { A: ["She left , and they smiled .", "It is here .", "The cat is here ."] },
        hyps: { S: ["He went away , and they smiled .", "The cat is here .", "A cat is here ."] } }],
    };
    const [r] = await scoreTestSet(scorer, ts, ["S"], { mode: "hybrid" });
    expect(r!.segments.map((g) => [g.status, g.diff, g.substituted])).toEqual([
      ["scored", -0.5, true],
      ["scored", -0.5, false],
      ["no-pronoun", null, false],
    ]);
    expect(r!.segments[0]!.sysPronouns).toEqual(["He", "they"]);
    expect(r!.segments[1]!.sysPronouns).toEqual([]);
    expect(r!.summary.score).toBe(0);
    expect(signature(scorer, { mode: "hybrid" })).toContain("agg:hybrid+mean");
    expect(signature(scorer, { mode: "hybrid", aggregate: "pronoun" })).toContain("agg:hybrid+pronoun");
  });
});

describe("score --segments in hybrid mode", () => {
  it("says for each scored segment whether the output was read substituted into the reference or as itself", async () => {
    const sample = join(PACKAGE_ROOT, "data", "sample", "wmttest2023.ru-en.sample.xml.gz");
    const r = await runCli(registerScore, "score", ["-r", sample, "-t", "GPT4-5shot", "--segments", "--backend", "cpu", "-q"]);
    expect(r.code, r.err).toBe(0);
    const [header, ...rows] = r.out.split("\n").filter((l) => l !== "").map((l) => l.split("\t"));
    expect(header!.at(-1)).toBe("sys_side");
    const side = (row: string[]) => row.at(-1);
    expect(rows.filter((x) => x[3] === "scored").every((x) => side(x) === "substituted" || side(x) === "output")).toBe(true);
    expect(rows.filter((x) => x[3] === "no-pronoun").every((x) => side(x) === "")).toBe(true);
    expect(rows.some((x) => side(x) === "substituted")).toBe(true);
    const sentence = await runCli(registerScore, "score", ["-r", sample, "-t", "GPT4-5shot", "--segments", "--backend", "cpu", "-q", "--mode", "sentence"]);
    expect(sentence.out.split("\n")[0]!.split("\t").at(-1)).toBe("decisions");
  });
});
