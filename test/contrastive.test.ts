import { mkdirSync, mkdtempSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { registerContrastive } from "../src/cli/contrastive.js";
import {
  candidateCount,
  itemCredit,
  readContrastiveJson,
  scoreContrastive,
  selfCheck,
  type ContrastiveSet,
} from "../src/contrastive/index.js";
import { runCli } from "./cli-helper.js";

function run(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  return runCli(registerContrastive, "contrastive", args);
}

afterEach(() => {
  process.exitCode = 0;
});

// Four items: distances 1, 1, 2, 3; 2, 2, 3 and 2 candidates; the true one not always first.
const raw = [
  { src: "a _eos b", dst: ["x1", "y1"], true_ind: 0, ctx_dist: 1 },
  { src: "c _eos d", dst: ["x2", "y2"], true_ind: 1, ctx_dist: 1 },
  { src: "e _eos f", dst: ["x3", "y3", "z3"], true_ind: 2, ctx_dist: 2 },
  { src: "g _eos h", dst: ["x4", "y4"], true_ind: 0, ctx_dist: 3 },
];

function tinySet(): ContrastiveSet {
  return {
    name: "tiny",
    file: "tiny.json",
    items: raw.map((r) => ({ src: r.src, candidates: r.dst, trueIndex: r.true_ind, ctxDist: r.ctx_dist })),
  };
}

describe("contrastive scoring", () => {
  it("groups accuracy by context distance (lower is better)", () => {
    const set = tinySet();
    expect(candidateCount(set.items)).toBe(9);
    // item 0: true 1.0 < 2.0 -> right; item 1: true (idx 1) 5 > 3 -> wrong;
    // item 2: true (idx 2) 0.5 best of 3 -> right; item 3: true 1 ties 1 -> half.
    const scores = [1, 2, 3, 5, 2, 1, 0.5, 1, 1];
    const r = scoreContrastive(set, scores);
    expect(r.overall.items).toBe(4);
    expect(r.overall.correct).toBeCloseTo(2.5);
    expect(r.overall.accuracy).toBeCloseTo(62.5);
    expect(r.byDistance.map((g) => [g.key, g.items, g.accuracy])).toEqual([
      ["1", 2, 50],
      ["2", 1, 100],
      ["3", 1, 50],
    ]);
    expect(r.ties).toBe(1);
    // chance = mean(1/2, 1/2, 1/3, 1/2)
    expect(r.overall.chance).toBeCloseTo((100 * (0.5 + 0.5 + 1 / 3 + 0.5)) / 4);
  });

  it("--higher-is-better flips the decision", () => {
    const set = tinySet();
    const scores = [1, 2, 3, 5, 2, 1, 0.5, 1, 1];
    const r = scoreContrastive(set, scores, { higherIsBetter: true });
    // item 0 wrong, item 1 right, item 2: true 0.5 is worst -> wrong, item 3 tie -> half.
    expect(r.overall.correct).toBeCloseTo(1.5);
  });

  it("a constant score gives exactly the chance rate, never the first-position rate", () => {
    const set = tinySet();
    const r = scoreContrastive(set, new Float64Array(9));
    expect(r.overall.accuracy).toBeCloseTo(r.overall.chance, 12);
    for (const g of r.byDistance) expect(g.accuracy).toBeCloseTo(g.chance, 12);
    // every true candidate first (as in deixis): still chance, not 100%.
    const first: ContrastiveSet = { ...set, items: set.items.map((it) => ({ ...it, trueIndex: 0 })) };
    expect(scoreContrastive(first, new Float64Array(9)).overall.accuracy).toBeCloseTo(first.items.reduce((a, it) => a + 100 / it.candidates.length, 0) / 4);
  });

  it("self-check passes and the credit does not depend on the true candidate's position", () => {
    const { constant, failures } = selfCheck(tinySet());
    expect(failures).toEqual([]);
    expect(constant.overall.accuracy).toBeCloseTo(constant.overall.chance);
    // same scores, true candidate moved together with its score
    expect(itemCredit([3, 1, 2], 0, 3, 1, false)).toBe(1);
    expect(itemCredit([1, 3, 2], 0, 3, 0, false)).toBe(1);
    expect(itemCredit([1, 1, 2], 0, 3, 1, false)).toBe(0.5);
    expect(itemCredit([1, 1, 2], 0, 3, 0, false)).toBe(0.5);
    expect(itemCredit([1, 1, 2], 0, 3, 2, false)).toBe(0);
  });
});

describe("proneval contrastive", () => {
  function layout(): string {
    const dir = mkdtempSync(join(tmpdir(), "contrastive-"));
    writeFileSync(join(dir, "tiny.json.gz"), gzipSync(JSON.stringify(raw)));
    mkdirSync(join(dir, "scoring_data"));
    writeFileSync(join(dir, "scoring_data", "tiny.src"), raw.flatMap((r) => r.dst.map(() => r.src + "\n")).join(""));
    writeFileSync(join(dir, "scoring_data", "tiny.dst"), raw.flatMap((r) => r.dst.map((d) => d + "\n")).join(""));
    return dir;
  }

  it("scores a Voita-layout directory with two systems and a bootstrap", async () => {
    const dir = layout();
    writeFileSync(join(dir, "a.txt"), "1\n2\n3\n5\n2\n1\n0.5\n1\n1\n");
    writeFileSync(join(dir, "b.txt"), ["-1", "-2", "-3", "-5", "-2", "-1", "-0.5", "-1", "-1"].join("\n") + "\n");
    const r = await run(dir, "--set", "tiny", "--scores", join(dir, "a.txt"), join(dir, "b.txt"), "--json", "-b", "200");
    expect(r.code).toBe(0);
    const rep = JSON.parse(r.out);
    expect(rep.results[0].overall.accuracy).toBeCloseTo(62.5);
    expect(rep.results[1].overall.accuracy).toBeCloseTo(37.5);
    expect(rep.bootstrap.comparisons[0].delta).toBeCloseTo(-25);
    expect(rep.signature).toMatch(/^contrastive\|set:tiny\|scores:lower-better\|scoring-data:checked\|bootstrap:200\|seed:12345\|version:/);
    let t = await run(join(dir, "tiny.json.gz"), "--scores", join(dir, "a.txt"));
    expect(t.out).toMatch(/tiny\t.*a\.txt\t4\t62\.5\t50\.0 \(2\)\t100\.0 \(1\)\t50\.0 \(1\)/);
    expect(t.out).toMatch(/\n# accuracy in % of items.*\nsignature: contrastive\|set:tiny\|scores:lower-better\|scoring-data:checked\|version:\S+\n$/);
    // Two systems: the bootstrap tables follow, each with its title; -q drops the notes and the signature.
    t = await run(join(dir, "tiny.json.gz"), "--scores", join(dir, "a.txt"), join(dir, "b.txt"), "-b", "100", "-q", "--format", "csv");
    expect(t.out).not.toMatch(/signature|# accuracy/);
    expect(t.out).toMatch(/\n# differences to \S*a\.txt, in percentage points\nsystem,baseline,delta,ci95_low,ci95_high,p\n\S*b\.txt,\S*a\.txt,-25\.0,/);
  });

  it("self-check on the directory", async () => {
    const r = await run(layout(), "--self-check");
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/tiny\t4\t9\t\S+\t\S+\tok/);
  });

  it("rejects a scores file with the wrong line count or a non-number, writing nothing", async () => {
    const dir = layout();
    writeFileSync(join(dir, "short.txt"), "1\n2\n");
    const out = join(dir, "out.txt");
    let r = await run(join(dir, "tiny.json.gz"), "--scores", join(dir, "short.txt"), "-o", out);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/short\.txt: has 2 score lines but .* has 9 candidates/);
    expect(existsSync(out)).toBe(false);
    writeFileSync(join(dir, "long.txt"), "1\n".repeat(10));
    r = await run(join(dir, "tiny.json.gz"), "--scores", join(dir, "long.txt"));
    expect(r.err).toMatch(/long\.txt:10: has 10 score lines/);
    writeFileSync(join(dir, "nan.txt"), "1\n2\n3\nfoo\n2\n1\n0.5\n1\n1\n");
    r = await run(join(dir, "tiny.json.gz"), "--scores", join(dir, "nan.txt"));
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/nan\.txt:4: not a number/);
  });

  it("rejects scoring_data that does not match the items, and bad JSON items", async () => {
    const dir = layout();
    writeFileSync(join(dir, "scoring_data", "tiny.dst"), ["x1", "y1", "x2", "WRONG", "x3", "y3", "z3", "x4", "y4"].join("\n") + "\n");
    writeFileSync(join(dir, "a.txt"), "1\n".repeat(9));
    let r = await run(join(dir, "tiny.json.gz"), "--scores", join(dir, "a.txt"));
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/tiny\.dst:4: candidate differs/);
    writeFileSync(join(dir, "bad.json"), JSON.stringify([{ src: "a", dst: ["x", "y"], true_ind: 2 }]));
    expect(() => readContrastiveJson(join(dir, "bad.json"))).toThrow(/item 0: "true_ind" must be an integer in \[0, 1\]/);
    r = await run(join(dir, "bad.json"), "--self-check");
    expect(r.code).toBe(2);
    expect(readFileSync(join(dir, "a.txt"), "utf8")).toBe("1\n".repeat(9));
  });
});
