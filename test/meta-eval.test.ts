// meta-eval on tiny hand-made inputs whose every figure is known in advance.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compareSides, pronounDecisions } from "../src/metric/decide.js";
import { IdentityPriorScorer } from "../src/metric/identity.js";
import { auc, gwetAc1, kendallTau, metaEvalSignificance, metaEvaluate, pearson, readJudgements } from "../src/metric/meta-eval.js";
import { fullDraw, meanOfUnits, pairedBootstrap, ratioOfUnits } from "../src/metric/significance.js";
import { isPronounSpan, readMqm } from "../src/metric/mqm.js";
import { balancedAccuracy } from "../src/metric/pairs.js";
import type { PronounScorer, ScoredSide } from "../src/core/scorer.js";
import { FixedScorer } from "./fixed-scorer.js";
import type { PairRecord } from "../src/core/pair-format.js";

function pair(kind: "system" | "noisy", ref: string, sys: string, positive: string, negative: string): PairRecord {
  return { id: `${kind}:${positive}|${negative}`, lang: "de", context: ["Some context ."], positive, negative, kind, ref_pronoun: ref, sys_pronoun: sys, origin: "x", split: "dev", context_mode: "crc" } as PairRecord;
}

async function sides(s: PronounScorer, a: string, b: string): Promise<[ScoredSide, ScoredSide]> {
  const [x, y] = await s.scorePrepared([s.prepare({ context: [], sentence: a }), s.prepare({ context: [], sentence: b })]);
  return [x!, y!];
}

describe("balanced R vs R' accuracy", () => {
  it("a scorer that always prefers one pronoun gets exactly 50%; coverage is reported", () => {
    // which>that 3 times, that>which 2 times, he>she only in one direction (not covered).
    const items = [
      ...Array.from({ length: 3 }, () => ({ ref: "which", sys: "that", correct: true })),
      ...Array.from({ length: 2 }, () => ({ ref: "that", sys: "which", correct: false })),
      { ref: "he", sys: "she", correct: true },
    ];
    const b = balancedAccuracy(items)!;
    expect(b.accuracy).toBe(0.5);
    expect(b.pronounPairs).toBe(1);
    expect(b.pairs).toBe(5);
    expect(b.uncovered).toBe(1);
    expect(balancedAccuracy([{ ref: "he", sys: "she", correct: true }])).toBeNull();
  });

  it("weights pronoun pairs by the smaller direction", () => {
    const mk = (ref: string, sys: string, n: number, c: number) => Array.from({ length: n }, (_, i) => ({ ref, sys, correct: i < c }));
    const b = balancedAccuracy([...mk("he", "she", 4, 4), ...mk("she", "he", 2, 1), ...mk("it", "this", 1, 0), ...mk("this", "it", 1, 1)])!;
    // {he,she}: (1 + 0.5)/2 = 0.75, weight 2; {it,this}: (0 + 1)/2 = 0.5, weight 1.
    expect(b.accuracy).toBeCloseTo((2 * 0.75 + 0.5) / 3, 12);
  });

  it("meta-eval: the identity prior fitted on training pairs scores 50% balanced; a context reader scores 100%", async () => {
    const train = [pair("noisy", "which", "that", "The car which I saw .", "The car that I saw ."), pair("noisy", "which", "that", "A day which came .", "A day that came .")];
    const dev = [
      pair("noisy", "which", "that", "The book which I read .", "The book that I read ."),
      pair("noisy", "that", "which", "He said that it rained .", "He said which it rained ."),
    ];
    const prior = IdentityPriorScorer.fromPairs("train", train);
    const r = await metaEvaluate("prior", prior, "sig", { pairs: [{ file: "dev", pairs: dev }], probeLimit: 2 }, { aggregate: "pronoun" });
    expect(r.pairs[0]!.balanced!.accuracy).toBe(0.5);
    expect(r.pairs[0]!.noisy.correct).toBe(1);
  });
});

describe("per-pronoun decisions", () => {
  it("pair differing pronouns through the token alignment; shared and unpaired pronouns are not decisions", async () => {
    const s = new FixedScorer({ he: 1, she: 0.25, they: 0.5, it: 0 });
    const [a, b] = await sides(s, "He said that she left and it rained .", "He said that they left and it rained , she knew .");
    const d = pronounDecisions(a, b);
    expect(d.map((x) => `${x.aToken}>${x.bToken}`)).toEqual(["she>they"]);
    expect(d[0]!.diff).toBeCloseTo(0.25, 12);
    expect(compareSides(a, b, "pronoun").value).toBeCloseTo(0.25, 12);
  });

  it("the pronoun aggregate is invariant to a pronoun clause appended to both sides; a count-dependent scorer is not", async () => {
    const plain = new FixedScorer({ he: 1, they: 0.6, it: 0 });
    const perSide = new FixedScorer({ he: 1, they: 0.6, it: 0 }, true);
    const R = "He left .";
    const S = "He and they left .";
    for (const [scorer, agg, invariant] of [
      [plain, "pronoun", true],
      [plain, "sum", true],
      [perSide, "sum", false],
    ] as const) {
      const before = compareSides(...(await sides(scorer, R, S)), agg).value ?? 0;
      const after = compareSides(...(await sides(scorer, `${R} It rained .`, `${S} It rained .`)), agg).value ?? 0;
      expect(Math.sign(after) === Math.sign(before)).toBe(invariant);
    }
  });

  it("the min aggregate compares each side's worst pronoun (so it moves with an appended clause)", async () => {
    const s = new FixedScorer({ he: 1, they: 0.6, it: 0.2 });
    expect(compareSides(...(await sides(s, "He and they left .", "He left .")), "min").value).toBeCloseTo(0.4, 12);
    expect(compareSides(...(await sides(s, "He left . It rained .", "They left . It rained .")), "min").value).toBe(0);
  });

  it("meta-eval's probe: the count-dependent scorer changes winners, the context-free one under per-pronoun decisions does not", async () => {
    const dev = [pair("system", "he", "they", "He left .", "He and they left ."), pair("noisy", "he", "it", "He left .", "It left .")];
    const ok = await metaEvaluate("plain", new FixedScorer({ he: 1, they: 0.6, it: 0 }), "s", { pairs: [{ file: "dev", pairs: dev }], probeLimit: 2 }, { aggregate: "pronoun" });
    expect(ok.probe!.unchanged).toBe(1);
    const biased = await metaEvaluate("biased", new FixedScorer({ he: 1, they: 0.6, it: 0, she: 0, we: 0, me: 0, him: 0 }, true), "s", { pairs: [{ file: "dev", pairs: dev }], probeLimit: 2 }, { aggregate: "sum" });
    expect(biased.probe!.unchanged).toBeLessThan(1);
  });
});

describe("MQM", () => {
  const file = join(__dirname, "fixtures", "mqm", "tiny.tsv");

  it("finds pronoun-only Accuracy/Fluency-Grammar spans", async () => {
    expect(isPronounSpan("He")).toBe(true);
    expect(isPronounSpan("he himself")).toBe(true);
    expect(isPronounSpan("slept")).toBe(false);
    expect(isPronounSpan("")).toBe(false);
    const d = await readMqm(file);
    expect(d.systems).toEqual(["ref", "refB", "A", "B"]);
    const err = d.segments.filter((s) => s.pronounError).map((s) => `${s.system}/${s.segId}`);
    expect(err).toEqual(["A/2", "B/3"]);
    expect(d.segments.find((s) => s.system === "A" && s.segId === 3)!.errorFree).toBe(false);
  });

  it("same-source pairs, AUC and counts are what the hand-made file implies", async () => {
    const r = await metaEvaluate("fixed", new FixedScorer({ she: 1, he: 0 }), "s", { pairs: [], mqm: await readMqm(file) }, { aggregate: "pronoun" });
    // seg 2: A (He) vs ref, refB, B; seg 3: B (He) vs ref, refB, A: the outputs without the error win all 6.
    expect(r.mqm!.sameSource).toMatchObject({ pairs: 6, preferWithout: 6, ties: 0 });
    expect(r.mqm!.sameSourceEqualCount.pairs).toBe(6);
    expect(r.mqm!.auc).toMatchObject({ errorFree: 9, pronounError: 2, auc: 1 });
    expect(r.mqm!.system.rows.map((x) => [x.system, x.score])).toEqual([
      ["A", 50],
      ["B", 50],
    ]);
  });

  it("a file with missing columns fails with the file and line; bare quotes are text and a short row names its line", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mqm-"));
    const bad = join(dir, "bad.tsv");
    writeFileSync(bad, "system\tdoc\tseg_id\ttarget\nA\td\t1\tx\n");
    await expect(readMqm(bad)).rejects.toThrow(/lacks column\(s\) source, category/);
    const head = readFileSync(file, "utf8").split("\n")[0]!;
    const cols = head.split("\t");
    const row = (v: Record<string, string>) => cols.map((c) => v[c] ?? "x").join("\t");
    const quoted = join(dir, "quoted.tsv");
    writeFileSync(quoted, [head, row({ system: "A", doc: "d", seg_id: "1", source: '"Hi', target: 'He said "<v>he</v>', category: "Accuracy/Mistranslation" })].join("\n") + "\n");
    const d = await readMqm(quoted);
    expect(d.segments[0]).toMatchObject({ source: '"Hi', target: 'He said "he', pronounError: true });
    writeFileSync(quoted, [head, row({ seg_id: "1" }), "A\td"].join("\n") + "\n");
    await expect(readMqm(quoted)).rejects.toThrow(`${quoted}:3: expected ${cols.length} tab-separated fields, got 2`);
  });
});

describe("judgements and statistics", () => {
  it("unknown labels fail naming file and line", () => {
    const dir = mkdtempSync(join(tmpdir(), "judg-"));
    const f = join(dir, "j.jsonl");
    writeFileSync(f, JSON.stringify({ context: [], reference: "a", substitute: "b", label: "reference" }) + "\n" + JSON.stringify({ context: [], reference: "a", substitute: "b", label: "maybe" }) + "\n");
    expect(() => readJudgements(f)).toThrow(/line 2.*unknown label "maybe"|unknown label "maybe"/);
  });

  it("Gwet's AC1, AUC, Kendall tau and Pearson on known values", () => {
    // Two raters, 10 items, agree on 8; categories a (10 of 20 ratings), b (10): pe = 0.5 -> AC1 = 0.6.
    const a = ["a", "a", "a", "a", "a", "b", "b", "b", "b", "b"];
    const b = ["a", "a", "a", "a", "b", "a", "b", "b", "b", "b"];
    expect(gwetAc1(a, b)).toBeCloseTo(0.6, 12);
    expect(auc([2, 3], [1, 2])).toBeCloseTo((1 + 1 + 0.5 + 1) / 4, 12);
    expect(kendallTau([1, 2, 3], [1, 2, 3])).toBe(1);
    expect(kendallTau([1, 2, 3], [3, 2, 1])).toBe(-1);
    expect(pearson([1, 2, 3], [2, 4, 6])).toBeCloseTo(1, 12);
  });
});

describe("APT as a meta-eval column (MQM measures only)", () => {
  it("aligns character-tokenised Chinese and prefers the output whose pronoun matches the reference", async () => {
    const { aptMqmReport, mqmSourceLang, metaEvalTable, aptSignature } = await import("../src/metric/meta-eval.js");
    const dir = mkdtempSync(join(tmpdir(), "mqm-apt-"));
    const f = join(dir, "mqm_tiny_zhen.tsv");
    const rows = ["system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity"];
    // Seg 1-4 teach the aligner 她=she, 他=he, 累=tired, 饿=hungry; in seg 5 A writes "He" for 她 (marked).
    const segs: Array<[string, string, string, string]> = [
      ["她累。", "She tired .", "She tired .", "She tired ."],
      ["他饿。", "He hungry .", "He hungry .", "He hungry ."],
      ["他累。", "He tired .", "He tired .", "He tired ."],
      ["她饿。", "She hungry .", "She hungry .", "She hungry ."],
      ["她累。", "She tired .", "<v>He</v> tired .", "She tired ."],
    ];
    segs.forEach(([src, ref, a, b], i) => {
      for (const [sys, tgt] of [["ref", ref], ["refB", ref], ["A", a], ["B", b]] as const) {
        const err = tgt.includes("<v>");
        rows.push(`${sys}\ttalk.1\t1\t${i + 1}\tr1\t${src}\t${tgt}\t${err ? "Accuracy/Mistranslation" : "No-error"}\t${err ? "Major" : "No-error"}`);
      }
    });
    writeFileSync(f, rows.join("\n") + "\n");
    expect(mqmSourceLang(f)).toBe("zh");
    expect(() => mqmSourceLang(join(dir, "mqm.tsv"))).toThrow(/--mqm-lang/);
    expect(() => mqmSourceLang(f, "en-de")).toThrow(/xx-en/);
    const r = await aptMqmReport(await readMqm(f), "zh");
    // Seg 5: A (He for 她) against ref, refB and B: the outputs without the error win all 3.
    expect(r.sameSource).toMatchObject({ pairs: 3, preferWithout: 3, ties: 0 });
    expect(r.auc.auc).toBe(1);
    expect(r.system.rows.map((x) => [x.system, x.score])).toEqual([
      ["A", 80],
      ["B", 100],
    ]);
    const { table, signatures } = metaEvalTable([{ name: "apt", kind: "apt", signature: aptSignature("zh"), pairs: [], mqm: r }]);
    expect(table.rows.find((row) => /MQM same source, prefers/.test(row[0]!))![1]).toBe("100.00");
    expect(signatures[0]![1]).toMatch(/^apt\|pair:zh-en\|mode:target-en\|.*\|on:mqm\|version:/);
  });
});

describe("paired bootstrap (significance)", () => {
  it("identical scorers differ by 0 with p = 1; an always-right scorer beats a half-right one with the smallest p, 1/(draws+1); seeded", () => {
    const right = meanOfUnits(new Array(50).fill(1));
    const wrong = meanOfUnits(new Array(50).fill(0));
    const half = meanOfUnits(Array.from({ length: 50 }, (_, i) => i % 2));
    const s = pairedBootstrap("m", [{ name: "a", r: half }, { name: "b", r: half }, { name: "c", r: right }, { name: "d", r: wrong }], 200, 7);
    const [a, b, c, d] = s.scorers;
    expect(a!.value).toBe(0.5);
    expect(a!.lo).toBeLessThan(0.5);
    expect(a!.hi).toBeGreaterThan(0.5);
    expect(a!.delta).toBeUndefined();
    expect(b).toMatchObject({ delta: 0, p: 1 });
    expect(c).toMatchObject({ value: 1, lo: 1, hi: 1, delta: 0.5, p: 1 / 201 });
    expect(d!.delta).toBe(-0.5);
    expect(pairedBootstrap("m", [{ name: "a", r: half }], 200, 7)).toEqual(pairedBootstrap("m", [{ name: "a", r: half }], 200, 7));
    expect(ratioOfUnits([1, 0, 2], [1, 1, 2]).stat(fullDraw(3))).toBe(0.75);
    expect(() => pairedBootstrap("m", [{ name: "a", r: half }, { name: "b", r: right.units === 50 ? meanOfUnits([1]) : right }], 10, 1)).toThrow(/units/);
  });

  it("meta-eval's measures recomputed on the full draw equal the reported ones; the significance has a row per measure", async () => {
    const dev = [
      pair("noisy", "which", "that", "The book which I read .", "The book that I read ."),
      pair("noisy", "that", "which", "He said that it rained .", "He said which it rained ."),
      pair("system", "he", "she", "He left .", "She left ."),
    ];
    const mqm = await readMqm(join(__dirname, "fixtures", "mqm", "tiny.tsv"));
    const inputs = { pairs: [{ file: "dev", pairs: dev }], mqm, probeLimit: 3 };
    const r1 = await metaEvaluate("one", new FixedScorer({ she: 1, he: 0, which: 1 }), "s", inputs, { aggregate: "mean" });
    const r2 = await metaEvaluate("two", new FixedScorer({ she: 0, he: 1, that: 1 }), "s", inputs, { aggregate: "mean" });
    const full = (r: typeof r1, m: string) => r.samples!.get(m)!.stat(fullDraw(r.samples!.get(m)!.units));
    expect(full(r1, "dev: R vs S")).toBe(r1.pairs[0]!.system.accuracy);
    expect(full(r1, "dev: balanced R vs R'")).toBe(r1.pairs[0]!.balanced!.accuracy);
    expect(full(r1, "MQM: same source")).toBe(r1.mqm!.sameSource.share);
    expect(full(r1, "MQM: AUC")).toBe(r1.mqm!.auc.auc);
    expect(full(r2, "probe")).toBe(r2.probe!.unchanged);
    const sig = metaEvalSignificance([r1, r2], 100, 1, "two");
    expect(sig.map((s) => s.measure)).toEqual(["dev: R vs S", "dev: R vs R'", "dev: balanced R vs R'", "MQM: same source", "MQM: equal counts", "MQM: AUC", "MQM: system tau", "MQM: system Pearson", "probe"]);
    expect(sig[0]!.scorers.map((s) => s.name)).toEqual(["two", "one"]);
    expect(sig[0]!.scorers[1]!.delta).toBe(-1);
    expect(() => metaEvalSignificance([r1, r2], 10, 1, "three")).toThrow(/--baseline 'three' is none of the scorers \(one, two\)/);
    expect(JSON.stringify(r1)).toContain('"samples":{}');
  });
});
