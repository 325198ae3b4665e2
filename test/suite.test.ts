import { describe, it, expect } from "vitest";
import { mkdtempSync, writeFileSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { errorType } from "../src/suite/error-type.js";
import { buildSuites } from "../src/suite/build.js";
import { readSuite, writeSuite } from "../src/suite/io.js";
import { scoreSuite } from "../src/suite/score.js";
import { suiteStats } from "../src/suite/stats.js";
import { mismatch } from "./cli-fixtures.js";

describe("error types", () => {
  it("maps pronoun features to the paper's categories", () => {
    expect(errorType("he", "it")).toBe("gender");
    expect(errorType("she", "he")).toBe("gender");
    expect(errorType("they", "it")).toBe("number");
    expect(errorType("who", "which")).toBe("animacy");
    expect(errorType("he", "him")).toBe("case");
    expect(errorType("we", "us")).toBe("case");
    expect(errorType("his", "he")).toBe("possessive");
    expect(errorType("i", "you")).toBe("other");
    expect(errorType("that", "this")).toBe("other");
  });
});

const FILLER = [
  "The committee met on Monday to discuss the budget.",
  "Prices rose sharply in the second quarter of the year.",
  "The new bridge will open to traffic next spring.",
  "Officials said the investigation was still ongoing.",
];

const rec = mismatch;

const R1 = "My sister called yesterday and she said the car was fixed.";
const mined = [
  rec(R1, "My sister called yesterday and he said the car was fixed.", "she", "he", "A", "5"),
  rec(R1, "My sister called yesterday and it said the car was fixed.", "she", "it", "B", "5"),
  rec(R1, "My sister called yesterday and he said that the car was repaired.", "she", "he", "C", "5"),
  rec("They left early because they were tired.", "They left early because it was tired.", "they", "it", "A", "6"),
  rec("No source, it is here.", "No source, he is here.", "it", "he", "A", "7", { src_sentence: undefined, src_context: undefined }),
];

describe("suite build", () => {
  it("groups mismatches into items with error counts, types and noisy references", () => {
    const { suites, counts } = buildSuites(mined);
    expect(counts.withoutSource).toBe(1);
    expect(suites).toHaveLength(1);
    const s = suites[0]!;
    expect(s.lang).toBe("de");
    expect(s.items).toHaveLength(2);
    const she = s.items.find((i) => i.expected === "she")!;
    expect(she.rule).toBe("gender");
    expect(she.errors.map((e) => [e.pronoun, e.count, e.systems.join("+")])).toEqual([["he", 2, "A+C"], ["it", 1, "B"]]);
    expect(she.errors[0]!.noisy).toBe("My sister called yesterday and he said the car was fixed.");
    expect(she["src context"]).toEqual(["Vorher."]);
    const they = s.items.find((i) => i.expected === "they")!;
    expect(they.rule).toBe("number");
    const st = suiteStats(s);
    expect(st.uniqueSourceContexts).toBe(2);
    expect(st.byType).toEqual({ gender: 1, number: 1 });
  });

  it("writes inputs beside the suite and rejects files of the wrong kind", () => {
    const dir = mkdtempSync(join(tmpdir(), "suite-"));
    const [json, src, ctx] = writeSuite(dir, buildSuites(mined).suites[0]!);
    expect(readFileSync(src!, "utf8").split("\n")[0]).toBe("Quelle 5");
    expect(readFileSync(ctx!, "utf8").split("\n")[0]).toBe("Vorher.<eos>Quelle 5");
    expect(readSuite(json!).items).toHaveLength(2);
    const wrong = join(dir, "ctxpro.json");
    writeFileSync(wrong, "[]");
    expect(() => readSuite(wrong)).toThrow(/ctxpro\.json.*CTXPRO/);
    writeFileSync(wrong, '{"kind": "something-else"}');
    expect(() => readSuite(wrong)).toThrow(/not a pronoun suite/);
  });
});

describe("suite score", () => {
  it("scores a right and a wrong translation", async () => {
    const s = buildSuites(mined).suites[0]!;
    const order = s.items.map((i) => i.expected);
    const good = order.map((p) => (p === "she" ? R1 : "They left early because they were tired."));
    const bad = order.map((p) => (p === "she" ? "My sister called yesterday and he said the car was fixed." : "They left early because it was tired."));
    // Filler lines are not part of the suite; give the aligner a bit more evidence through more systems.
    const report = await scoreSuite(s, "mini", [
      { name: "good", file: "good.txt", hyps: good },
      { name: "bad", file: "bad.txt", hyps: bad },
      { name: "good2", file: "good2.txt", hyps: good.map((h, i) => (i === 0 ? `${h}` : h)) },
    ], { bootstrapSamples: 100 });
    const [g, b] = report.systems;
    expect(g!.accuracy).toBe(100);
    expect(b!.accuracy).toBe(0);
    expect(b!.knownErrors).toBe(2);
    expect(report.bootstrap!.comparisons[0]!.delta).toBe(-100);
  });

  it("takes the part after the separator, and refuses a wrong line count with the file name", async () => {
    const s = buildSuites(mined).suites[0]!;
    const order = s.items.map((i) => i.expected);
    const ctxOut = order.map((p) => `${FILLER[0]}<eos>${p === "she" ? R1 : "They left early because they were tired."}`);
    const r = await scoreSuite(s, "mini", [{ name: "ctx", file: "ctx.txt", hyps: ctxOut }], { separator: "<eos>", bootstrapSamples: 0 });
    expect(r.systems[0]!.accuracy).toBe(100);
    await expect(scoreSuite(s, "mini", [{ name: "short", file: "short.txt", hyps: ["x"] }])).rejects.toThrow(/short\.txt.*1 lines.*2 items/);
  });
});

describe("suite CLI", () => {
  const CLI = join(__dirname, "..", "dist", "src", "cli", "index.js");
  it("builds, prints stats and scores end to end", () => {
    const dir = mkdtempSync(join(tmpdir(), "suite-cli-"));
    const mm = join(dir, "mm.jsonl");
    writeFileSync(mm, mined.map((r) => JSON.stringify(r)).join("\n") + "\n");
    let r = spawnSync("node", [CLI, "suite", "build", mm, "-o", join(dir, "suites")], { encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
    const suite = join(dir, "suites", "pronouns.wmt.de-en.json.gz");
    r = spawnSync("node", [CLI, "suite", "stats", suite], { encoding: "utf8" });
    expect(r.stdout).toMatch(/de\s+2021\s+2\s+2/);
    const hyp = join(dir, "hyp.txt");
    writeFileSync(hyp, readFileSync(join(dir, "suites", "pronouns.wmt.de-en.ref"), "utf8"));
    r = spawnSync("node", [CLI, "suite", "score", "--suite", suite, "-t", hyp], { encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/hyp\s+100\.0 \(2\/2\)/);
    expect(r.stdout).toMatch(/\nsignature: suite\|suite:pronouns\.wmt\.de-en\.json\.gz\|sep:"<eos>"\|align:fast_align-gdfa\|version:\S+\n$/);
    r = spawnSync("node", [CLI, "suite", "score", "--suite", suite, "-t", hyp, hyp, "-q", "--format", "csv", "--bootstrap", "50"], { encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^system,overall,/);
    expect(r.stdout).toMatch(/\n# differences to hyp, in percentage points\nsystem,baseline,delta,ci95_low,ci95_high,p\nhyp,hyp,\+0\.0,/);
    expect(r.stdout).not.toMatch(/signature/);
    r = spawnSync("node", [CLI, "suite", "score", "--suite", suite, "-t", hyp, "--format", "json"], { encoding: "utf8" });
    expect(JSON.parse(r.stdout).signature).toMatch(/^suite\|/);
    r = spawnSync("node", [CLI, "suite", "stats", suite, "--format", "csv"], { encoding: "utf8" });
    expect(r.stdout).toMatch(/^source,WMT years,contexts,items,/);
    writeFileSync(hyp, "only one line\n");
    r = spawnSync("node", [CLI, "suite", "score", "--suite", suite, "-t", hyp], { encoding: "utf8" });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain("hyp.txt");
  });
});

describe("suite score with the ranker", () => {
  it("ranks the reference itself as not below the reference, and reports per-item differences", async () => {
    const { loadScorer } = await import("../src/metric/load.js");
    const scorer = await loadScorer(undefined, { backend: "cpu" });
    const s = buildSuites(mined).suites[0]!;
    const refs = s.items.map((i) => i["ref segment"]);
    const noisy = s.items.map((i) => i.errors[0]!.noisy);
    const r = await scoreSuite(s, "mini", [
      { name: "ref", file: "ref.txt", hyps: refs },
      { name: "noisy", file: "noisy.txt", hyps: noisy },
    ], { scorer, bootstrapSamples: 0 });
    expect(r.systems[0]!.ranker!.notBelowReference).toBe(100);
    expect(r.systems[0]!.ranker!.diffs.every((d) => d !== null && Math.abs(d) < 1e-6)).toBe(true);
    expect(r.systems[1]!.ranker!.diffs.every((d) => d !== null && Math.abs(d) > 0)).toBe(true);
  });
});
