// Corpus-scale identify: a saved aligner, --shard I/N runs that reuse it, and a merge that gives one run's files
// byte for byte; the bad inputs (shard specs, aligners of another language or version, shards of different runs).
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { registerCtxpro } from "../src/cli/ctxpro.js";
import { loadAligner } from "../src/ctxpro/aligner-file.js";
import { parseShardSpec, shardOfRow } from "../src/ctxpro/identify.js";
import { VERSION } from "../src/version.js";
import { runCli } from "./cli-helper.js";

const dir = mkdtempSync(join(tmpdir(), "ctxpro-shard-"));
const WMT = "../shared/data/wmt/wmt21/txt";

const run = (...args: string[]) => runCli(registerCtxpro, "ctxpro", args);

afterEach(() => {
  process.exitCode = 0;
});

/** 240 segment pairs of WMT21 en-de (source, reference A) in 12 documents of 20 lines. */
function corpus(): string {
  const lines = (p: string) => readFileSync(p, "utf8").split("\n").slice(0, 240);
  const en = lines(join(WMT, "sources", "newstest2021.en-de.src.en"));
  const de = lines(join(WMT, "references", "newstest2021.en-de.ref.A.de"));
  const path = join(dir, "docs.tsv");
  writeFileSync(path, en.map((s, k) => `doc${Math.floor(k / 20)}\t${s.replace(/\t/g, " ")}\t${de[k]!.replace(/\t/g, " ")}\n`).join(""));
  return path;
}

const files = (d: string) => readdirSync(d).filter((f) => f.endsWith(".json") && f !== "shard.json").sort();

describe("shard specs", () => {
  it("parses I/N and assigns documents by their first row", () => {
    expect(parseShardSpec("3/8")).toEqual({ index: 3, count: 8 });
    expect(parseShardSpec(" 1 / 1 ")).toEqual({ index: 1, count: 1 });
    for (const bad of ["3/2", "0/0", "0/3", "1/0", "a/b", "1", "1/2/3", "-1/2"]) expect(() => parseShardSpec(bad)).toThrow(/--shard must be I\/N/);
    // 10 rows into 3 shards: rows 0-3 -> 1, 4-6 -> 2, 7-9 -> 3.
    expect(Array.from({ length: 10 }, (_, r) => shardOfRow(r, 10, 3))).toEqual([1, 1, 1, 1, 2, 2, 2, 3, 3, 3]);
  });
});

describe("identify --shard and merge on a small corpus", () => {
  let input: string;
  let aligner: string;
  beforeAll(async () => {
    input = corpus();
    aligner = join(dir, "de.aligner");
    // One run over the whole input, training its aligner.
    const one = await run("identify", "-i", input, "-l", "de", "--rules", "DE_GENDER", "DE_FORMALITY", "DE_ANIMACY", "-o", join(dir, "one"), "-q");
    expect(one.code, one.err).toBe(0);
    // The aligner trained once and saved; three shards reuse it.
    const t = await run("train-aligner", "-i", input, "-l", "de", "-o", aligner, "-q");
    expect(t.code, t.err).toBe(0);
    for (const i of [1, 2, 3]) {
      const r = await run("identify", "-i", input, "-l", "de", "--rules", "DE_GENDER", "DE_FORMALITY", "DE_ANIMACY", "--aligner", aligner, "--shard", `${i}/3`, "-o", join(dir, `s${i}`), "-q");
      expect(r.code, r.err).toBe(0);
    }
  }, 600_000);

  it("merges the shards (in any order) into one run's files, byte for byte", async () => {
    const r = await run("merge", join(dir, "s3"), join(dir, "s1"), join(dir, "s2"), "-o", join(dir, "merged"));
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain("merge: 3 shards, 240 segment pairs in 12 documents");
    const names = files(join(dir, "one"));
    expect(names).toEqual(["animacy.de-en.json", "formality.en-de.json", "gender.en-de.json"]);
    expect(files(join(dir, "merged"))).toEqual(names);
    let items = 0;
    for (const n of names) {
      const one = readFileSync(join(dir, "one", n), "utf8");
      expect(readFileSync(join(dir, "merged", n), "utf8")).toBe(one);
      // The streamed files are what JSON.stringify writes for the whole list.
      expect(JSON.stringify(JSON.parse(one), null, 2) + "\n").toBe(one);
      items += JSON.parse(one).length;
    }
    expect(items).toBeGreaterThan(0);
    // Every shard holds its own documents, consecutive, and the shards split the items.
    const m = [1, 2, 3].map((i) => JSON.parse(readFileSync(join(dir, `s${i}`, "shard.json"), "utf8")));
    expect(m.map((x) => x.shard)).toEqual(["1/3", "2/3", "3/3"]);
    expect(m.map((x) => [x.firstDoc, x.lastDoc])).toEqual([["doc0", "doc3"], ["doc4", "doc7"], ["doc8", "doc11"]]);
    expect(m.reduce((a, x) => a + x.files.reduce((b: number, f: { items: number }) => b + f.items, 0), 0)).toBe(items);
  });

  it("saves the aligner with its language pair and proneval version, and reuses it for the whole input", async () => {
    const saved = loadAligner(aligner, "de");
    expect(saved.header).toMatchObject({ format: 1, proneval: VERSION, pair: "en-de", pairs: 240 });
    const r = await run("identify", "-i", input, "-l", "de", "--rules", "DE_FORMALITY", "--aligner", aligner, "-o", join(dir, "reuse"), "-q");
    expect(r.code, r.err).toBe(0);
    expect(readFileSync(join(dir, "reuse", "formality.en-de.json"), "utf8")).toBe(readFileSync(join(dir, "one", "formality.en-de.json"), "utf8"));
  }, 300_000);

  it("refuses shards of different runs, missing or repeated shards, and folders that are no shard output (exit 2, nothing written)", async () => {
    // Shard 2 of a run with another window size: a different run.
    const other = await run("identify", "-i", input, "-l", "de", "--rules", "DE_GENDER", "DE_FORMALITY", "DE_ANIMACY", "--aligner", aligner, "--shard", "2/3", "--window-size", "5", "-o", join(dir, "s2w5"), "-q");
    expect(other.code, other.err).toBe(0);
    const cases: Array<[string[], RegExp]> = [
      [["s1", "s2w5", "s3"], /s2w5\/shard\.json: from a different run than .*s1\/shard\.json \(they differ in: options\)/],
      [["s1", "s3"], /s1\/shard\.json: shard 2\/3 of this run is missing/],
      [["s1", "s2", "s3", "s1"], /s1\/shard\.json: shard 1\/3 is given twice/],
      [["s1", "one"], /one: no shard\.json/],
    ];
    for (const [dirs, message] of cases) {
      const out = join(dir, "bad-merge");
      const r = await run("merge", ...dirs.map((d) => join(dir, d)), "-o", out);
      expect(r.code, r.err).toBe(2);
      expect(r.err).toMatch(message);
      expect(r.err).not.toMatch(/\n\s+at /);
      expect(existsSync(out)).toBe(false);
    }
    // The output may not be one of the shard folders.
    const into = await run("merge", join(dir, "s1"), join(dir, "s2"), join(dir, "s3"), "-o", join(dir, "s2"));
    expect(into.code).toBe(2);
    expect(into.err).toMatch(/s2: --output is the shard folder .*s2; its files would be replaced/);
    // A shard whose items file was changed after it ran.
    cpSync(join(dir, "s2"), join(dir, "s2edit"), { recursive: true });
    writeFileSync(join(dir, "s2edit", "formality.en-de.json"), "[]\n");
    const r = await run("merge", join(dir, "s1"), join(dir, "s2edit"), join(dir, "s3"), "-o", join(dir, "bad-merge"));
    const changed = JSON.parse(readFileSync(join(dir, "s2", "shard.json"), "utf8")).files.find((f: { name: string }) => f.name === "formality.en-de.json").items;
    if (changed > 0) {
      expect(r.code).toBe(2);
      expect(r.err).toMatch(/s2edit\/formality\.en-de\.json: holds 0 items, its manifest .* says/);
      expect(existsSync(join(dir, "bad-merge"))).toBe(false);
    }
  }, 300_000);

  it("refuses aligners of another language, another proneval version or format, and files that are no aligner (exit 2, file named, nothing written)", async () => {
    const bytes = readFileSync(aligner);
    const nl = bytes.indexOf(10);
    const len = bytes.readUInt32LE(nl + 1);
    const header = JSON.parse(bytes.subarray(nl + 5, nl + 5 + len).toString("utf8"));
    const withHeader = (name: string, h: object, magic = bytes.subarray(0, nl + 1)) => {
      const json = Buffer.from(JSON.stringify(h));
      const n = Buffer.alloc(4);
      n.writeUInt32LE(json.length);
      const path = join(dir, name);
      writeFileSync(path, Buffer.concat([magic, n, json, bytes.subarray(nl + 5 + len)]));
      return path;
    };
    const cut = join(dir, "cut.aligner");
    writeFileSync(cut, bytes.subarray(0, bytes.length - 100));
    const cases: Array<[string, RegExp]> = [
      [withHeader("fr.aligner", { ...header, pair: "en-fr" }), /fr\.aligner: aligner for en-fr, but -l de asks for en-de/],
      [withHeader("old.aligner", { ...header, proneval: "0.0.1" }), new RegExp(`old\\.aligner: aligner trained by proneval 0\\.0\\.1, this is proneval ${VERSION.replace(/\./g, "\\.")}`)],
      [withHeader("v9.aligner", header, Buffer.from("PRONEVAL-CTXPRO-ALIGNER-9\n")), /v9\.aligner: aligner file format 9, this proneval reads format 1/],
      [input, /docs\.tsv: not a proneval ctxpro aligner/],
      [cut, /cut\.aligner: truncated aligner file/],
    ];
    for (const [file, message] of cases) {
      const out = join(dir, "bad-aligner");
      const r = await run("identify", "-i", input, "-l", "de", "--rules", "DE_GENDER", "--aligner", file, "--shard", "1/2", "-o", out);
      expect(r.code, r.err).toBe(2);
      expect(r.err).toMatch(message);
      expect(existsSync(out)).toBe(false);
    }
  });

  it("refuses bad shard specs and a sharded standard input (exit 2, nothing written)", async () => {
    for (const spec of ["3/2", "0/0", "x/4"]) {
      const out = join(dir, "bad-shard");
      const r = await run("identify", "-i", input, "-l", "de", "--aligner", aligner, "--shard", spec, "-o", out);
      expect(r.code).toBe(2);
      expect(r.err).toContain(`--shard must be I/N with 1 <= I <= N (shard I of N, e.g. 1/8), got '${spec}'`);
      expect(existsSync(out)).toBe(false);
    }
    // A bad row inside the shard: the file and line named, no output folder left behind.
    const rows = readFileSync(input, "utf8").split("\n");
    rows[29] = "doc1\tonly two fields";
    const broken = join(dir, "broken.tsv");
    writeFileSync(broken, rows.join("\n"));
    const b = await run("identify", "-i", broken, "-l", "de", "--rules", "DE_FORMALITY", "--aligner", aligner, "--shard", "1/3", "-o", join(dir, "bad-row"));
    expect(b.code).toBe(2);
    expect(b.err).toContain(`${broken}:30: expected 3 tab-separated fields`);
    expect(existsSync(join(dir, "bad-row"))).toBe(false);
    const r = await run("identify", "-i", "-", "-l", "de", "--aligner", aligner, "--shard", "1/2", "-o", join(dir, "bad-stdin"));
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--shard reads the input twice.*not standard input/);
    expect(existsSync(join(dir, "bad-stdin"))).toBe(false);
  });
});

describe("a language whose noun lexicon is an external analyser (pl)", () => {
  it("shards with a saved aligner give one run's items", async () => {
    const rows = [
      ["d1", "My key was lost.", "Mój klucz był zgubiony."],
      ["d1", "It was under the bed.", "On był pod łóżkiem."],
      ["d2", "You are late.", "Ty jesteś spóźniony."],
      ["d3", "The lamp is new.", "Lampa jest nowa."],
      ["d3", "It is broken.", "Ona jest zepsuta."],
      ["d4", "I saw you yesterday, sir.", "Widziałem pana wczoraj."],
    ];
    const input = join(dir, "pl.tsv");
    writeFileSync(input, rows.map((r) => r.join("\t")).join("\n") + "\n");
    const common = ["-i", input, "-l", "pl", "--rules", "PL_GENDER", "PL_FORMALITY", "--no-check", "-q"];
    expect((await run("identify", ...common, "-o", join(dir, "pl-one"))).code).toBe(0);
    expect((await run("train-aligner", "-i", input, "-l", "pl", "--no-check", "-o", join(dir, "pl.aligner"), "-q")).code).toBe(0);
    for (const i of [1, 2]) expect((await run("identify", ...common, "--aligner", join(dir, "pl.aligner"), "--shard", `${i}/2`, "-o", join(dir, `pl-s${i}`))).code).toBe(0);
    expect((await run("merge", join(dir, "pl-s1"), join(dir, "pl-s2"), "-o", join(dir, "pl-merged"), "-q")).code).toBe(0);
    for (const n of files(join(dir, "pl-one"))) expect(readFileSync(join(dir, "pl-merged", n), "utf8")).toBe(readFileSync(join(dir, "pl-one", n), "utf8"));
    expect(JSON.parse(readFileSync(join(dir, "pl-one", "gender.en-pl.json"), "utf8")).length).toBeGreaterThan(0);
  }, 300_000);
});
