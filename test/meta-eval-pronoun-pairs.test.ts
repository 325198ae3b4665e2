/**
 * meta-eval's per-pronoun-pair view on a hand-made pair file: both directions of each frequent pronoun
 * pair side by side, the worst pair, and the identity ceiling (the best fixed preference per pronoun
 * pair, fitted on the evaluated file) in the tables and in the TSV, CSV and JSON outputs.
 */
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { PairRecord } from "../src/core/pair-format.js";
import type { PreparedSide, PronounScorer, ScoredSide, Side } from "../src/core/scorer.js";
import { prepareSide } from "../src/nn/inputs.js";
import { identityCeiling, metaEvalTable, metaEvaluate, pronounPairTables } from "../src/metric/meta-eval.js";
import { registerMetaEval } from "../src/cli/meta-eval.js";
import { runCli } from "./cli-helper.js";
import { DEFAULT_MODEL, PACKAGE_ROOT } from "../src/version.js";

/** Scores a side 1 when its sentence is one of `good`, else 0: a pair is right exactly when its positive is good. */
class ListScorer implements PronounScorer {
  readonly kind = "list";
  readonly contextMode = "crc" as const;
  readonly backendLine = "none";
  readonly maxKeys = 128;
  readonly dir = "list";
  constructor(private readonly good: Set<string>) {}
  modelSignature(): string {
    return "model:list";
  }
  prepare(side: Side): PreparedSide {
    return prepareSide(side, { contextSentences: 0, maxLen: 128 });
  }
  async scorePrepared(prepared: PreparedSide[]): Promise<ScoredSide[]> {
    return prepared.map((p) => {
      const v = this.good.has(p.tokens.slice(p.sentStart).join(" ")) ? 1 : 0;
      const prons = p.pronounPos.map((pos) => ({ token: p.tokens[pos]!, index: pos - p.sentStart, score: v, contribution: v }));
      return { score: prons.reduce((s, x) => s + x.contribution, 0), pronouns: prons, tokens: p.tokens, sentStart: p.sentStart, truncatedContext: 0 };
    });
  }
  dispose(): void {}
}

const pairs: PairRecord[] = [];
const good = new Set<string>();
/** n pairs reference `ref` vs substitute `sys`, of which the scorer gets `right` right. */
function add(kind: "system" | "noisy", ref: string, sys: string, n: number, right: number): void {
  for (let k = 0; k < n; k++) {
    const positive = `${ref} came on day ${pairs.length} .`;
    if (k < right) good.add(positive);
    pairs.push({ id: `p${pairs.length}`, lang: "de", context: ["Someone arrived ."], positive, negative: `${sys} came on day ${pairs.length} .`, kind, ref_pronoun: ref, sys_pronoun: sys, origin: "t/de-en/d/1/x" });
  }
}
add("noisy", "he", "she", 25, 20); // 80%
add("noisy", "she", "he", 20, 10); // 50%: he/she balanced 65, the worst pair (weaker direction 50%)
add("noisy", "his", "its", 30, 27); // 90%
add("noisy", "its", "his", 22, 22); // 100%: his/its balanced 95
add("noisy", "it", "they", 40, 30);
add("noisy", "they", "it", 19, 19); // 19 < 20 one way: not listed
add("noisy", "which", "that", 5, 5); // one direction only
add("system", "he", "she", 3, 3);
add("system", "she", "he", 1, 0);
add("system", "he,it", "she,they", 2, 2);

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "proneval-pp-"));
  writeFileSync(join(dir, "pairs.jsonl"), pairs.map((p) => JSON.stringify(p)).join("\n") + "\n");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("identity ceiling", () => {
  it("is the best fixed preference per unordered pronoun pair, fitted on the items themselves", () => {
    const mk = (ref: string, sys: string, n: number) => Array.from({ length: n }, () => ({ ref, sys }));
    expect(identityCeiling([...mk("he", "she", 3), ...mk("she", "he", 1), ...mk("It", "they", 2)])).toEqual({ n: 6, correct: 5, accuracy: 5 / 6 });
    // Equal directions: either preference is right half the time; identical pronouns cannot be told apart.
    expect(identityCeiling([...mk("he", "she", 2), ...mk("she", "he", 2), ...mk("it", "it", 1)]).correct).toBe(2);
    expect(identityCeiling([]).accuracy).toBe(0);
  });
});

describe("meta-eval by pronoun pair, both directions", () => {
  it("lists the pairs with >= 20 each way, their directions, balanced mean and ceiling; names the worst pair", async () => {
    const r = await metaEvaluate("list", new ListScorer(good), "sig", { pairs: [{ file: "hand.jsonl", pairs }], probeLimit: 2 }, { aggregate: "mean" });
    const pp = r.pronounPairs![0]!;
    expect(pp.minPerDirection).toBe(20);
    expect(pp.rows.map((x) => `${x.x}/${x.y}`)).toEqual(["his/its", "he/she"]);
    const [his, he] = pp.rows as [NonNullable<(typeof pp.rows)[0]>, NonNullable<(typeof pp.rows)[0]>];
    expect([his.xy, his.yx]).toEqual([
      { n: 30, correct: 27, accuracy: 0.9 },
      { n: 22, correct: 22, accuracy: 1 },
    ]);
    expect(his.balanced).toBeCloseTo(0.95, 12);
    expect(his.both).toBeCloseTo(49 / 52, 12);
    expect(his.identityCeiling).toBeCloseTo(30 / 52, 12);
    expect([he.xy.accuracy, he.yx.accuracy, he.balanced]).toEqual([0.8, 0.5, 0.65]);
    expect(pp.worst).toBe(he);
    // R vs R': 161 pairs, the best fixed preference per pronoun pair gets 25 + 30 + 40 + 5 right.
    expect(pp.identityCeiling.noisy).toEqual({ n: 161, correct: 100, accuracy: 100 / 161 });
    expect(pp.identityCeiling.system).toEqual({ n: 6, correct: 5, accuracy: 5 / 6 });

    const { table } = metaEvalTable([r]);
    const row = (start: string) => table.rows.find((x) => String(x[0]).startsWith(start))!;
    expect(row("hand.jsonl: R vs R' identity ceiling")).toEqual(["hand.jsonl: R vs R' identity ceiling (best fixed preference per pronoun pair, fitted on this file) %", "62.11"]);
    expect(row("hand.jsonl: R vs S identity ceiling")[1]).toBe("83.33");
    expect(row("hand.jsonl: worst pronoun pair")).toEqual(["hand.jsonl: worst pronoun pair, each direction % (of those with >= 20 pairs each way)", "he>she 80.00, she>he 50.00"]);

    const [t] = pronounPairTables([r]);
    expect(t!.header).toEqual(["pronoun pair", "scorer", "n x>y", "x>y %", "n y>x", "y>x %", "balanced %", "both directions %"]);
    expect(t!.rows).toEqual([
      ["his/its", "list", "30", "90.00", "22", "100.00", "95.00", "94.23"],
      ["his/its", "identity ceiling", "30", "100.00", "22", "0.00", "50.00", "57.69"],
      ["he/she", "list", "25", "80.00", "20", "50.00", "65.00", "66.67"],
      ["he/she", "identity ceiling", "25", "100.00", "20", "0.00", "50.00", "55.56"],
      ["worst: he/she", "list", "25", "80.00", "20", "50.00", "65.00", "66.67"],
    ]);
  });

  it("the command writes the new rows and table in TSV and CSV, and the report in JSON", async () => {
    const args = ["--pairs", join(dir, "pairs.jsonl"), "--backend", "cpu", "--bootstrap", "0", "--probe-limit", "1", "-q"];
    const tsv = await runCli(registerMetaEval, "meta-eval", args);
    expect(tsv.code, tsv.err).toBe(0);
    expect(tsv.out).toContain(`${join(dir, "pairs.jsonl")}: R vs R' identity ceiling (best fixed preference per pronoun pair, fitted on this file) %\t62.11\n`);
    expect(tsv.out).toMatch(/\n# .*pairs\.jsonl: R vs R' by pronoun pair x\/y in both directions .*\npronoun pair\tscorer\tn x>y\tx>y %\tn y>x\ty>x %\tbalanced %\tboth directions %\nhis\/its\tdefault\t30\t/);
    expect(tsv.out).toContain("\nhis/its\tidentity ceiling\t30\t100.00\t22\t0.00\t50.00\t57.69\n");
    expect(tsv.out).toMatch(/\nworst: (he\/she|his\/its)\tdefault\t/);
    const csv = await runCli(registerMetaEval, "meta-eval", [...args, "--format", "csv"]);
    expect(csv.out).toContain("\nhe/she,identity ceiling,25,100.00,20,0.00,50.00,55.56\n");
    const json = await runCli(registerMetaEval, "meta-eval", [...args, "--json"]);
    const rep = JSON.parse(json.out).reports[0];
    expect(rep.pronounPairs[0].identityCeiling.noisy).toEqual({ n: 161, correct: 100, accuracy: 100 / 161 });
    expect(rep.pronounPairs[0].rows.map((x: { x: string; y: string }) => `${x.x}/${x.y}`)).toEqual(["his/its", "he/she"]);
    expect(rep.pronounPairs[0].worst).not.toBeNull();
  });
  it("compares one model with itself in two modes, paired (one --mode per -c)", async () => {
    const lm = join(PACKAGE_ROOT, "checkpoints", DEFAULT_MODEL);
    const args = ["-c", lm, lm, "--pairs", join(dir, "pairs.jsonl"), "--backend", "cpu", "--bootstrap", "20", "--probe-limit", "1", "-q", "--json"];
    const r = await runCli(registerMetaEval, "meta-eval", [...args, "--mode", "sentence", "hybrid"]);
    expect(r.code, r.err).toBe(0);
    const out = JSON.parse(r.out);
    expect(out.mode).toEqual(["sentence", "hybrid"]);
    expect(out.reports.map((x: { name: string }) => x.name)).toEqual([`${lm}:sentence`, `${lm}:hybrid`]);
    expect(out.reports[0].signature).toContain("|agg:mean|");
    expect(out.reports[1].signature).toContain("|agg:hybrid+mean|");
    expect(out.significance.baseline).toBe(`${lm}:sentence`);
    const bad = await runCli(registerMetaEval, "meta-eval", [...args, "--mode", "sentence", "hybrid", "aligned"]);
    expect(bad.code).toBe(2);
    expect(bad.err).toBe("proneval: error: --mode takes one value, or one per -c (2), got 3\n");
    const unknown = await runCli(registerMetaEval, "meta-eval", [...args, "--mode", "hybird"]);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain("--mode must be sentence, aligned, aligned-lcs, hybrid, got 'hybird'");
  });
});
