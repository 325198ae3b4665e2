import { describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { InputError } from "../src/io/errors.js";
import type { PairRecord } from "../src/core/pair-format.js";
import { balancePairs, buildSyntheticPairs, isDevYearDoc, minedConfusions, SubstitutionSampler, type SyntheticBuildOptions } from "../src/mine/synthetic-pairs.js";

const dir = mkdtempSync(join(tmpdir(), "proneval-synthetic-"));

function noisy(x: string, y: string, k: number): PairRecord {
  return { id: `N${x}${y}${k}`, lang: "de", context: ["Before ."], positive: `${x} came .`, negative: `${y} came .`, kind: "noisy", ref_pronoun: x, sys_pronoun: y, origin: `t/de-en/d/${k}/sys` };
}

// Mined confusions: he -> she 3 times, she -> he never (the agreement filter keeps one direction),
// it -> they 2 and they -> it 1 (together 3), we -> you once (below the threshold); one R vs S pair.
const mined: PairRecord[] = [
  noisy("he", "she", 1),
  noisy("he", "she", 2),
  noisy("he", "she", 3),
  noisy("it", "they", 4),
  noisy("it", "they", 5),
  noisy("they", "it", 6),
  noisy("we", "you", 7),
  { ...noisy("he", "it", 8), kind: "system" },
];

// 40 documents, each sentence with one pronoun of the confusable sets (and capitalised "US", not a pronoun).
function corpusLines(): string[] {
  const lines: string[] = [];
  const forms = ["He", "she", "it", "they"];
  for (let d = 0; d < 40; d++) {
    const sents = [`Document ${d} starts here .`];
    for (let s = 0; s < 6; s++) sents.push(`Then ${forms[(d + s) % 4]} went to the US on day ${s} of ${d} .`);
    lines.push(JSON.stringify({ id: `news/${d}`, source: "news", sents }));
  }
  // A dev-year document: must never give a pair.
  lines.push(JSON.stringify({ id: "wmt-src/generaltest2023/en-de/doc9", source: "wmt-en-src", sents: ["Then she said it ."] }));
  return lines;
}

const corpus = join(dir, "corpus.jsonl");
writeFileSync(corpus, corpusLines().join("\n") + "\n");
const minedFile = join(dir, "mined.jsonl");
writeFileSync(minedFile, mined.map((p) => JSON.stringify(p)).join("\n") + "\n");

function opts(over: Partial<SyntheticBuildOptions> = {}): SyntheticBuildOptions {
  return {
    corpus,
    pairs: minedFile,
    out: join(dir, "train.jsonl"),
    devOut: join(dir, "dev.jsonl"),
    perDirection: 20,
    devPerDirection: 5,
    minedShare: 0.5,
    minConfusion: 3,
    confusions: "mined",
    devFraction: 0.2,
    seed: 7,
    contextSentences: 2,
    maxTokens: 100,
    ...over,
  };
}

const readLines = (f: string): PairRecord[] => readFileSync(f, "utf8").trim().split("\n").map((l) => JSON.parse(l) as PairRecord);

function perDirection(pairs: PairRecord[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const p of pairs) m.set(`${p.ref_pronoun}>${p.sys_pronoun}`, (m.get(`${p.ref_pronoun}>${p.sys_pronoun}`) ?? 0) + 1);
  return m;
}

describe("synthetic substitution pairs", () => {
  it("confusion sets come from mined R vs R' pairs in both directions, above the threshold only", () => {
    const c = minedConfusions(mined, 3);
    expect(c.get("he")).toEqual(["she"]);
    expect(c.get("she")).toEqual(["he"]);
    expect(c.get("it")).toEqual(["they"]);
    expect(c.get("they")).toEqual(["it"]);
    expect(c.has("we")).toBe(false);
    expect(c.has("you")).toBe(false);
  });

  it("recognises the dev year in every spelling of the corpus", () => {
    expect(isDevYearDoc("wmt-src/generaltest2023/en-de/doc9")).toBe(true);
    expect(isDevYearDoc("wmt/wmttest2023/zh-en/doc1/A")).toBe(true);
    expect(isDevYearDoc("wmt/newstest2021/cs-en/line-block-1/A")).toBe(false);
    expect(isDevYearDoc("news-wiki/govnews-18f-blog-2014-2025/1")).toBe(false);
  });

  it("gives each ordered pair the same count, in both directions, with mined pairs at most their share", async () => {
    const r = await buildSyntheticPairs(opts());
    const train = readLines(join(dir, "train.jsonl"));
    const counts = perDirection(train);
    expect([...counts.keys()].sort()).toEqual(["he>she", "it>they", "she>he", "they>it"]);
    for (const k of counts.keys()) expect(counts.get(k), k).toBe(20);
    // Mined: he>she has 3 (share 10 of 20), she>he none; it>they 2, they>it 1.
    const minedIn = (k: string): number => train.filter((p) => `${p.ref_pronoun}>${p.sys_pronoun}` === k && p.id.startsWith("N")).length;
    expect(minedIn("he>she")).toBe(3);
    expect(minedIn("she>he")).toBe(0);
    expect(minedIn("it>they")).toBe(2);
    expect(minedIn("they>it")).toBe(1);
    expect(train.some((p) => p.kind === "system")).toBe(false);
    expect(r.train.directions.map((d) => d.mined + d.synthetic)).toEqual([20, 20, 20, 20]);
    // The synthetic side: the substituted token keeps the case of the original, context = two previous sentences.
    const syn = train.find((p) => p.id.startsWith("Z:") && p.ref_pronoun === "he")!;
    expect(syn.positive).toMatch(/^Then He went/);
    expect(syn.negative).toMatch(/^Then She went/);
    expect(syn.context.length).toBeGreaterThan(0);
    expect(syn.context.length).toBeLessThanOrEqual(2);
    // "US" is not the pronoun us; the dev-year document gives nothing.
    expect(train.every((p) => !p.origin.includes("2023"))).toBe(true);
    expect(r.docs.devYear).toBe(1);
  });

  it("keeps held-out documents out of the training file", async () => {
    const r = await buildSyntheticPairs(opts());
    const train = readLines(join(dir, "train.jsonl"));
    const dev = readLines(join(dir, "dev.jsonl"));
    expect(r.docs.dev).toBeGreaterThan(0);
    expect(dev.length).toBeGreaterThan(0);
    const docOf = (p: PairRecord): string => p.origin.split("/").slice(0, 2).join("/");
    const trainDocs = new Set(train.filter((p) => p.id.startsWith("Z:")).map(docOf));
    for (const p of dev) expect(trainDocs.has(docOf(p)), docOf(p)).toBe(false);
    const dc = perDirection(dev);
    const byUnordered = (a: string, b: string): void => expect(dc.get(`${a}>${b}`)).toBe(dc.get(`${b}>${a}`));
    byUnordered("he", "she");
    byUnordered("it", "they");
  });

  it("is deterministic for a seed, and another seed draws another sample", async () => {
    await buildSyntheticPairs(opts({ out: join(dir, "a.jsonl"), devOut: undefined }));
    await buildSyntheticPairs(opts({ out: join(dir, "b.jsonl"), devOut: undefined }));
    await buildSyntheticPairs(opts({ out: join(dir, "c.jsonl"), devOut: undefined, seed: 8 }));
    const a = readFileSync(join(dir, "a.jsonl"), "utf8");
    expect(readFileSync(join(dir, "b.jsonl"), "utf8")).toBe(a);
    expect(readFileSync(join(dir, "c.jsonl"), "utf8")).not.toBe(a);
  });

  it("trims both directions to the scarcer one when a direction has few candidates", () => {
    const conf = new Map([
      ["a", ["b"]],
      ["b", ["a"]],
    ]);
    const rec = (x: string, y: string, k: number): PairRecord => ({ ...noisy(x, y, k), id: `Z${x}${y}${k}` });
    const syn = new Map([
      ["a>b", { items: Array.from({ length: 9 }, (_, k) => rec("a", "b", k)) }],
      ["b>a", { items: Array.from({ length: 4 }, (_, k) => rec("b", "a", k)) }],
    ]);
    const minedAB = Array.from({ length: 10 }, (_, k) => ({ ...noisy("a", "b", 100 + k), ref_pronoun: "a", sys_pronoun: "b" }));
    const r = balancePairs(minedAB, syn, conf, { perDirection: 10, minedShare: 0.5, seed: 1 });
    const c = perDirection(r.pairs);
    // b>a: 4 synthetic, no mined -> q = 4 for both directions (a>b: 2 mined + 2 synthetic).
    expect(c.get("a>b")).toBe(4);
    expect(c.get("b>a")).toBe(4);
    expect(r.directions.find((d) => d.pair === "a>b")).toMatchObject({ mined: 2, synthetic: 2 });
  });

  it("samples every ordered pair uniformly from the corpus (reservoir), capped per direction", () => {
    const conf = new Map([
      ["he", ["she"]],
      ["she", ["he"]],
    ]);
    const s = new SubstitutionSampler(conf, { perDirection: 3, seed: 1, contextSentences: 2, maxTokens: 100 }, "train");
    for (let d = 0; d < 30; d++) s.addDoc({ id: `d${d}`, sents: ["He ran .", "Then she ran ."] });
    const r = s.result();
    expect(r.get("he>she")!.seen).toBe(30);
    expect(r.get("he>she")!.items.length).toBe(3);
    expect(r.get("she>he")!.items.length).toBe(3);
    // Drawn from the whole stream, not only its first documents.
    expect(r.get("he>she")!.items.some((p) => Number(p.origin.split("/")[0]!.slice(1)) >= 3)).toBe(true);
  });

  it("names file and line of a corpus line that is not a document", async () => {
    const bad = join(dir, "bad.jsonl");
    writeFileSync(bad, corpusLines()[0] + "\n{not json\n");
    await expect(buildSyntheticPairs(opts({ corpus: bad }))).rejects.toThrow(InputError);
    await expect(buildSyntheticPairs(opts({ corpus: bad }))).rejects.toThrow(/bad\.jsonl:2: invalid JSON/);
    const wrong = join(dir, "wrong.jsonl");
    writeFileSync(wrong, JSON.stringify({ id: "x", sents: [1] }) + "\n");
    await expect(buildSyntheticPairs(opts({ corpus: wrong }))).rejects.toThrow(/wrong\.jsonl:1: not a corpus document/);
  });
});
