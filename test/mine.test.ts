import { describe, it, expect } from "vitest";
import { mkdtempSync, writeFileSync, existsSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync, gunzipSync } from "node:zlib";
import { readFileSync } from "node:fs";
import { execFileSync, spawnSync } from "node:child_process";
import type { TestSet } from "../src/io/model.js";
import { mineMismatches } from "../src/mine/mismatch.js";
import { fastAlignCorpusAligner } from "../src/mine/run.js";

// Filler sentences give the aligner enough evidence that identical words align.
const FILLER = [
  "The committee met on Monday to discuss the budget.",
  "Prices rose sharply in the second quarter of the year.",
  "The new bridge will open to traffic next spring.",
  "Officials said the investigation was still ongoing.",
  "The team won the match after a late goal.",
  "Heavy rain caused flooding in several villages.",
];

function testSet(refs: string[], hyps: Record<string, string[]>, name = "newstest2021"): TestSet {
  return {
    name,
    langPair: "fr-en",
    srcLang: "fr",
    tgtLang: "en",
    references: ["A"],
    systems: Object.keys(hyps).sort(),
    documentIds: "given",
    format: "wmt-xml",
    files: ["memory"],
    docs: [{ id: "doc1", segIds: refs.map((_, i) => String(i + 1)), refs: { A: refs }, hyps }],
  };
}

describe("miner", () => {
  it("finds the paper's Figure 1 mismatches (he/it, I/we) and nothing for identical pronouns", async () => {
    const refs = [...FILLER, "He was creative, generous, funny, loving and talented, and I will miss him dearly."];
    const sysA = [...FILLER, "It was creative, generous, funny, loving and talented, and we will miss him dearly."];
    const sysB = [...FILLER, "He was creative, generous, funny, loving and talented, and I will miss him dearly."];
    const ts = testSet(refs, { A: sysA, B: sysB });
    const { records, stats } = await mineMismatches([ts], fastAlignCorpusAligner({ threads: 1 }));
    const found = records.map((r) => `${r.system}:${r.ref_pronoun}->${r.sys_pronoun}`).sort();
    expect(found).toEqual(["A:he->it", "A:i->we"]);
    expect(stats.mismatches).toBe(2);
    const he = records.find((r) => r.ref_pronoun === "he")!;
    expect(he.ref_sentence.slice(...he.ref_offsets)).toBe("He");
    expect(he.sys_sentence.slice(...he.sys_offsets)).toBe("It");
    expect(he.ref_context).toEqual(FILLER.slice(-2));
    expect(he.seg_index).toBe(6);
    expect(he.context_source).toBe("document");
  });

  it("ignores non-pronoun differences and empty outputs", async () => {
    const refs = [...FILLER, "She bought a car."];
    const ts = testSet(refs, { A: [...FILLER, "She bought a vehicle."], B: [...FILLER.slice(0, -1), "", "She bought a car."] });
    const { records, stats } = await mineMismatches([ts], fastAlignCorpusAligner({ threads: 1 }));
    expect(records).toHaveLength(0);
    expect(stats.skippedEmpty).toBe(1);
  });

  it("is deterministic", async () => {
    const refs = [...FILLER, "They said it was theirs."];
    const ts = testSet(refs, { A: [...FILLER, "He said this was his."], B: [...FILLER, "They said that was theirs."] });
    const a = await mineMismatches([ts], fastAlignCorpusAligner({ threads: 1 }));
    const b = await mineMismatches([ts], fastAlignCorpusAligner({ threads: 2 }));
    expect(JSON.stringify(a.records)).toBe(JSON.stringify(b.records));
  });
});

const CLI = join(__dirname, "..", "dist", "src", "cli", "index.js");

function wmtXml(docs: Array<{ id: string; src: string[]; ref: string[]; hyps: Record<string, string[]> }>): string {
  const seg = (xs: string[]) => xs.map((x, i) => `<seg id="${i + 1}">${x}</seg>`).join("\n");
  return `<?xml version='1.0' encoding='utf-8'?>\n<dataset id="newstest2021">\n${docs
    .map(
      (d) =>
        `<doc origlang="fr" id="${d.id}">\n<src lang="fr"><p>\n${seg(d.src)}\n</p></src>\n<ref lang="en" translator="A"><p>\n${seg(d.ref)}\n</p></ref>\n` +
        Object.entries(d.hyps)
          .map(([s, h]) => `<hyp system="${s}" lang="en"><p>\n${seg(h)}\n</p></hyp>`)
          .join("\n") +
        "\n</doc>",
    )
    .join("\n")}\n</dataset>\n`;
}

describe("CLI mine -> pairs -> stats", () => {
  it("runs end to end on a tiny WMT XML corpus", () => {
    const dir = mkdtempSync(join(tmpdir(), "proneval-mine-"));
    const refs = [...FILLER, "He was creative and I will miss him dearly."];
    const xml = wmtXml([
      { id: "d1", src: refs.map((_, i) => `fr ${i}`), ref: refs, hyps: { S1: [...FILLER, "It was creative and we will miss him dearly."], S2: refs } },
    ]);
    const input = join(dir, "newstest2021.fr-en.all.xml.gz");
    writeFileSync(input, gzipSync(xml));
    const mm = join(dir, "mm.jsonl");
    execFileSync("node", [CLI, "mine", input, "-o", mm, "--threads", "1"], { stdio: "pipe" });
    const lines = readFileSync(mm, "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(lines.map((r) => `${r.ref_pronoun}->${r.sys_pronoun}`).sort()).toEqual(["he->it", "i->we"]);
    execFileSync("node", [CLI, "pairs", mm, "-o", join(dir, "pairs"), "--keep-all"], { stdio: "pipe" });
    const train = gunzipSync(readFileSync(join(dir, "pairs", "train.jsonl.gz"))).toString().trim().split("\n").map((l) => JSON.parse(l));
    expect(train.filter((p) => p.kind === "system")).toHaveLength(1);
    expect(train.filter((p) => p.kind === "noisy")).toHaveLength(2);
    const out = execFileSync("node", [CLI, "stats", join(dir, "pairs", "train.jsonl.gz")], { encoding: "utf8" });
    expect(out).toMatch(/\the\tit\t1\t50\.0\n/);
  });

  it("fails cleanly on bad input and leaves no output behind", () => {
    const dir = mkdtempSync(join(tmpdir(), "proneval-bad-"));
    const bad = join(dir, "broken.xml");
    writeFileSync(bad, "<dataset><doc id='x'><src><seg id='1'>a</seg></src>\n<ref><seg id='1'>b</seg></dataset>");
    const r = spawnSync("node", [CLI, "mine", bad, "-o", join(dir, "out.jsonl")], { encoding: "utf8" });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain("broken.xml");
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(join(dir, "out.jsonl"))).toBe(false);
    expect(readdirSync(dir)).toEqual(["broken.xml"]);
    const r2 = spawnSync("node", [CLI, "pairs", bad, "-o", join(dir, "p")], { encoding: "utf8" });
    expect(r2.status).not.toBe(0);
    expect(r2.stderr).toContain("broken.xml:1");
  });
});
