import { existsSync, readFileSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { registerApt } from "../src/cli/apt.js";
import { aptCase, aptInstances, aptScore, countApt, computeApt, equivalenceIndex, type AptTriple } from "../src/apt/index.js";
import { pronouns } from "../src/text/pronouns.js";
import { runCli } from "./cli-helper.js";
import { parseTable } from "../src/io/table.js";

function run(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  return runCli(registerApt, "apt", args);
}

afterEach(() => {
  process.exitCode = 0;
});

const isPronoun = (w: string) => pronouns().has(w);

describe("APT counting", () => {
  it("classifies the six cases", () => {
    const eq = equivalenceIndex("de");
    expect(aptCase(["sie"], ["sie"], eq)).toBe(1);
    expect(aptCase(["seine"], ["seinen"], eq)).toBe(2); // possessive agreement
    expect(aptCase(["dies"], ["das"], eq)).toBe(2);
    expect(aptCase(["er"], ["sie"], eq)).toBe(3);
    expect(aptCase(["er"], [], eq)).toBe(4);
    expect(aptCase([], ["er"], eq)).toBe(5);
    expect(aptCase([], [], eq)).toBe(6);
    expect(aptScore([2, 1, 1, 0, 0, 0])).toBeCloseTo(2.5 / 4);
  });

  it("counts a hand-made EN-DE triple (source-en)", () => {
    // src: it(0) is(1) his(2) and(3) they(4) know(5) it(6)
    // ref: es ist seins und sie wissen es
    // hyp: er ist seines und wissen das
    const t: AptTriple = {
      src: ["it", "is", "his", "and", "they", "know", "it"],
      ref: ["es", "ist", "seins", "und", "sie", "wissen", "es"],
      hyp: ["er", "ist", "seines", "und", "wissen", "das"],
      srcRef: [[0, 0], [1, 1], [2, 2], [3, 3], [4, 4], [5, 5], [6, 6]],
      srcHyp: [[0, 0], [1, 1], [2, 2], [3, 3], [5, 4], [6, 5]],
    };
    const inst = aptInstances([t], "source-en", equivalenceIndex("de"), isPronoun);
    expect(inst.map((x) => [x.pronoun, x.case])).toEqual([
      ["it", 3], // es vs er
      ["his", 3], // seins vs seines: not one paradigm in the table
      ["they", 4], // no hypothesis word
      ["it", 3], // es vs das
    ]);
    const withExtra = aptInstances([t], "source-en", equivalenceIndex("de", [["es", "das"]]), isPronoun);
    expect(withExtra[3]!.case).toBe(2);
    const { total, byPronoun } = countApt(inst);
    expect(total.cases).toEqual([0, 0, 3, 1, 0, 0]);
    expect(total.score).toBe(0);
    expect(byPronoun.it!.cases).toEqual([0, 0, 2, 0, 0, 0]);
  });

  it("follows reference pronouns through the source (target-en)", () => {
    // src (es): la vi ayer . ella sabe
    // ref: i saw her yesterday . she knows   hyp: i saw him yesterday . she knows
    const t: AptTriple = {
      src: ["la", "vi", "ayer", ".", "ella", "sabe"],
      ref: ["i", "saw", "her", "yesterday", ".", "she", "knows"],
      hyp: ["i", "saw", "him", "yesterday", ".", "she", "knows"],
      srcRef: [[0, 2], [1, 1], [2, 3], [3, 4], [4, 5], [5, 6]],
      srcHyp: [[0, 2], [1, 1], [2, 3], [3, 4], [4, 5], [5, 6]],
    };
    const inst = aptInstances([t], "target-en", equivalenceIndex("en"), isPronoun);
    expect(inst.map((x) => [x.pronoun, x.case, x.hyp.join(" ")])).toEqual([
      ["i", 0, ""], // pro-drop: no source word -> unanchored
      ["her", 3, "him"],
      ["she", 1, "she"],
    ]);
    const c = countApt(inst).total;
    expect(c.unanchored).toBe(1);
    expect(c.cases).toEqual([1, 0, 1, 0, 0, 0]);
    expect(c.score).toBeCloseTo(0.5);
  });
});

describe("computeApt / proneval apt", () => {
  const src = [
    "I saw it yesterday .", "She knows him well .", "They like it .", "We told them .", "He said that it works .",
    "It is raining .", "You know her .", "This is mine .",
  ];
  const ref = [
    "Ich sah es gestern .", "Sie kennt ihn gut .", "Sie mögen es .", "Wir sagten es ihnen .", "Er sagte , dass es funktioniert .",
    "Es regnet .", "Du kennst sie .", "Das ist meins .",
  ];

  it("a hypothesis equal to the reference has no case 2-5", async () => {
    const r = await computeApt({ srcLang: "en", tgtLang: "de", src, ref, hyps: [{ name: "copy", lines: ref }] }, { threads: 1 });
    const s = r.systems[0]!;
    expect(s.cases[0]).toBeGreaterThan(5);
    expect(s.cases.slice(1, 5)).toEqual([0, 0, 0, 0]);
    expect(s.score).toBeCloseTo(s.cases[0]! / (s.cases[0]! + s.cases[5]!));
  });

  it("CLI: report, detail file, and bad input", async () => {
    const dir = mkdtempSync(join(tmpdir(), "apt-"));
    writeFileSync(join(dir, "src.txt"), src.join("\n") + "\n");
    writeFileSync(join(dir, "ref.txt"), ref.join("\n") + "\n");
    writeFileSync(join(dir, "hyp.txt"), ref.join("\n") + "\n");
    let r = await run("-l", "en-de", "-s", join(dir, "src.txt"), "-r", join(dir, "ref.txt"), "-t", join(dir, "hyp.txt"), "--detail", join(dir, "d.tsv"));
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^system\tAPT\texact/m);
    expect(r.out).toMatch(/^hyp\.txt\t/m);
    expect(existsSync(join(dir, "d.tsv"))).toBe(true);
    // sacrebleu style: notes and the signature follow the table; -q keeps only the table.
    expect(r.out).toMatch(/\n# APT \(source-en, en-de, 8 segments\).*\nsignature: apt\|pair:en-de\|mode:source-en\|weights:1,0\.5,0,0,0,0\|equiv:builtin\|align:fast_align-gdfa-per-system\|version:\S+\n$/);
    expect(readFileSync(join(dir, "d.tsv"), "utf8")).toMatch(/^system\tsentence\tanchor\tpronoun\treference\thypothesis\tcase\nhyp\.txt\t1\t/);
    // A system name holding a tab and a quote is quoted (fast-csv) and reads back whole.
    const odd = join(dir, 'my "best"\tsys.txt');
    writeFileSync(odd, ref.join("\n") + "\n");
    r = await run("-l", "en-de", "-s", join(dir, "src.txt"), "-r", join(dir, "ref.txt"), "-t", odd, join(dir, "hyp.txt"), "-q", "-b", "0");
    const rows = (await parseTable(r.out, "out", { quoted: true })).map((x) => x.cells);
    expect(rows.map((x) => x[0])).toEqual(["system", 'my "best"\tsys.txt', "hyp.txt"]);
    expect(rows.every((x) => x.length === 8)).toBe(true);
    r = await run("-l", "en-de", "-s", join(dir, "src.txt"), "-r", join(dir, "ref.txt"), "-t", join(dir, "hyp.txt"), "--format", "csv", "-q");
    expect(r.out).toMatch(/^system,APT,exact,equivalent,different,no-hyp,no-ref,neither\nhyp\.txt,1\.0000,\d+,0,0,0,0,\d+\n$/);
    r = await run("-l", "en-de", "-s", join(dir, "src.txt"), "-r", join(dir, "ref.txt"), "-t", join(dir, "hyp.txt"), "--format", "json");
    expect(JSON.parse(r.out).signature).toMatch(/^apt\|pair:en-de\|/);
    // No pronoun anywhere: n/a, not 0; an empty source is an error.
    writeFileSync(join(dir, "np.en"), "No pronoun here.\nA table.\n");
    writeFileSync(join(dir, "np.de"), "Kein Pronomen.\nEin Tisch.\n");
    r = await run("-l", "en-de", "-s", join(dir, "np.en"), "-r", join(dir, "np.de"), "-t", join(dir, "np.de"));
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/\nnp\.de\tn\/a\t0\t0\t0\t0\t0\t0\n/);
    expect(r.out).toContain("# n/a: no English pronoun to follow");
    writeFileSync(join(dir, "empty.txt"), "");
    r = await run("-l", "en-de", "-s", join(dir, "empty.txt"), "-r", join(dir, "empty.txt"), "-t", join(dir, "empty.txt"));
    expect(r.code).toBe(2);
    expect(r.err).toContain("empty.txt: file has no lines");
    writeFileSync(join(dir, "short.txt"), ref.slice(0, 3).join("\n") + "\n");
    r = await run("-l", "en-de", "-s", join(dir, "src.txt"), "-r", join(dir, "ref.txt"), "-t", join(dir, "short.txt"), "-o", join(dir, "out.txt"));
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/short\.txt: has 3 lines but the source .* has 8/);
    expect(existsSync(join(dir, "out.txt"))).toBe(false);
    r = await run("-l", "de-fr", "-s", join(dir, "src.txt"), "-r", join(dir, "ref.txt"), "-t", join(dir, "hyp.txt"));
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/English on exactly one side/);
  });

  it("CLI: a system's APT does not change when other systems are scored beside it; -b bootstraps; swapped files are refused", async () => {
    const T = join(__dirname, "..", "..", "shared", "data", "wmt", "wmt23", "txt");
    const wmt = (p: string) => join(T, p);
    if (!existsSync(wmt("sources/generaltest2023.de-en.src.de"))) return;
    const dir = mkdtempSync(join(tmpdir(), "apt-wmt-"));
    // 150 segments of wmt23 de-en: enough for the aligner to move when it sees another system's output too.
    const cut = (p: string, name: string) => {
      writeFileSync(join(dir, name), readFileSync(wmt(p), "utf8").split("\n").slice(0, 150).join("\n") + "\n");
      return join(dir, name);
    };
    const s = cut("sources/generaltest2023.de-en.src.de", "src.de");
    const r = cut("references/generaltest2023.de-en.ref.refA.en", "ref.en");
    const a = cut("system-outputs/generaltest2023.de-en.hyp.ONLINE-A.en", "ONLINE-A.en");
    const b = cut("system-outputs/generaltest2023.de-en.hyp.NLLB_Greedy.en", "NLLB.en");
    const alone = await run("-s", s, "-r", r, "-t", a, "-l", "de-en", "--json");
    const both = await run("-s", s, "-r", r, "-t", a, b, "-l", "de-en", "--json", "-b", "200");
    expect(alone.code, alone.err).toBe(0);
    const j1 = JSON.parse(alone.out);
    const j2 = JSON.parse(both.out);
    expect(j2.systems[0]).toEqual(j1.systems[0]);
    expect(j1.bootstrap).toBeUndefined();
    expect(j2.bootstrap.comparisons[0]).toMatchObject({ baseline: "ONLINE-A.en", system: "NLLB.en" });
    expect(j2.bootstrap.comparisons[0].delta).toBeCloseTo(j2.systems[1].score - j2.systems[0].score, 12);
    expect(j2.signature).toMatch(/\|align:fast_align-gdfa-per-system\|bootstrap:200\|seed:12345\|/);
    const swapped = await run("-s", r, "-r", s, "-t", a, "-l", "de-en");
    expect(swapped.code).toBe(2);
    expect(swapped.err).toMatch(/ref\.en: reads like English, not German .*--no-check/);
  }, 120_000);
});
