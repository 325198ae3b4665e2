import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fnv1a, heldBack, HELD_BACK_MODULUS, itemKey, recallEligible, recallSample, TUNING_SEED, TUNING_SIZE } from "../src/ctxpro/dev-split.js";
import type { CtxproItem } from "../src/ctxpro/items.js";
import { mulberry32, shuffle } from "../src/core/prng.js";

const SCRIPT = join("dist", "scripts", "ctxpro-recall.js");

/** Formality items (en-es) of hand-made one-segment documents. */
const FORMALITY: Array<[string, string, string, string]> = [
  ["Are you coming with us?", "¿Usted viene con nosotros?", "usted", "NOM.FORM.SING"],
  ["Do you want some coffee?", "¿Tú quieres café?", "tú", "NOM.INFORM.SING"],
  ["I will call you tomorrow.", "Te llamaré mañana.", "te", "ACC.INFORM.SING"],
  ["Are you ready, gentlemen?", "¿Ustedes están listos, señores?", "ustedes", "NOM.FORM.PLUR"],
  ["This is for you.", "Esto es para ti.", "ti", "DISJ.INFORM.SING"],
  ["You are my friends.", "Vosotros sois mis amigos.", "vosotros", "NOM.INFORM.PLUR.MASC"],
];
const items = (offset: number): CtxproItem[] =>
  FORMALITY.map(([src, ref, expected, rule], k) => ({ "src pronoun": "you", expected, "ref segment": ref, "src segment": src, "segment id": k, "document id": `d${offset + k}`, rule }));

function runRecall(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [SCRIPT, ...args], { encoding: "utf8", timeout: 120_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("ctxpro-recall on evaluation sets of any name", () => {
  it("reads mini.* and *.test.json sets, names the files it skips, and needs no extra aligner corpus", () => {
    const dir = mkdtempSync(join(tmpdir(), "recall-odd-"));
    const data = join(dir, "sets");
    mkdirSync(data);
    writeFileSync(join(data, "mini.formality.en-es.json"), JSON.stringify(items(0)));
    writeFileSync(join(data, "formality.en-es.test.json"), JSON.stringify(items(100)));
    writeFileSync(join(data, "notes.txt"), "not a set\n");
    writeFileSync(join(data, "formality.en-xx.json"), "[]");
    writeFileSync(join(data, "inflection.en-de.json"), "[]");
    const out = join(dir, "out");
    const r = runRecall(["--data", data, "--langs", "es", "--out", out]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/skipped 3 file\(s\)/);
    expect(r.stderr).toContain("notes.txt (not .json or .json.gz)");
    expect(r.stderr).toContain("formality.en-xx.json (language 'xx' has no rules");
    expect(r.stderr).toContain("inflection.en-de.json (no inflection rules for 'de')");
    expect(r.stdout).toContain("| en-es | formality (mini.formality.en-es) | 6 | 6 | 6 |");
    expect(r.stdout).toContain("| en-es | formality (formality.en-es.test) | 6 | 6 | 6 |");
    // Every pair of the sets is in the mini-documents: no extra aligner corpus is written or read.
    expect(existsSync(join(out, "align-extra.es.tsv"))).toBe(false);
    const summary = JSON.parse(readFileSync(join(out, "summary.es.json"), "utf8")) as Array<{ file: string; used: number; same: number }>;
    expect(summary.map((s) => s.used)).toEqual([6, 6]);
    expect(summary[0]!.file).toContain("formality.en-es.test.json");
    expect(existsSync(join(out, "ours.mini.formality.en-es.json"))).toBe(true);
  }, 150_000);

  it("exits 2 with a message for a folder without evaluation sets and for a bad --part", () => {
    const dir = mkdtempSync(join(tmpdir(), "recall-empty-"));
    writeFileSync(join(dir, "readme.md"), "x\n");
    const r = runRecall(["--data", dir, "--langs", "es", "--out", join(dir, "out")]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/no evaluation set/);
    expect(r.stderr).not.toMatch(/at .*\.js:\d+/);
    const p = runRecall(["--data", dir, "--part", "test", "--out", join(dir, "out")]);
    expect(p.status).toBe(2);
    expect(p.stderr).toMatch(/--part must be one of tuning, held-back, all/);
  }, 60_000);
});

describe("dev split: tuning sample and held-back part", () => {
  const many: CtxproItem[] = Array.from({ length: 3000 }, (_, k) => ({
    "src pronoun": "you", expected: k % 2 ? "tú" : "usted", "src segment": `line ${k}`, "ref segment": `línea ${k}`, "segment id": k % 50, "document id": `doc${Math.floor(k / 50)}`, rule: k % 2 ? "NOM.INFORM.SING" : "NOM.FORM.SING",
    ...(k % 7 === 0 ? { "ante distance": 3 } : {}),
  }));
  const eligible = recallEligible(many);

  it("keeps the seed-13 sample of 800 as the tuning sample and holds back none of it", () => {
    expect(eligible.length).toBe(3000 - Math.ceil(3000 / 7));
    const legacy = shuffle([...eligible], mulberry32(TUNING_SEED)).slice(0, TUNING_SIZE);
    expect(recallSample(eligible, "tuning", TUNING_SIZE, TUNING_SEED)).toEqual(legacy);
    expect(recallSample(eligible, "all", TUNING_SIZE, TUNING_SEED)).toEqual(legacy);
    const held = heldBack(eligible);
    const legacySet = new Set(legacy);
    expect(held.some((it) => legacySet.has(it))).toBe(false);
    // About a third of what the tuning sample leaves, every one hashing to 0.
    expect(held.length).toBeGreaterThan((eligible.length - TUNING_SIZE) / 4);
    expect(held.length).toBeLessThan((eligible.length - TUNING_SIZE) / 2.4);
    for (const it of held) expect(fnv1a(itemKey(it)) % HELD_BACK_MODULUS).toBe(0);
  });

  it("never lets another seed's tuning sample draw a held-back item", () => {
    const held = new Set(heldBack(eligible));
    for (const seed of [14, 15, 16]) {
      const tuning = recallSample(eligible, "tuning", 1500, seed);
      expect(tuning.length).toBe(1500);
      expect(tuning.some((it) => held.has(it))).toBe(false);
      const back = recallSample(eligible, "held-back", 5000, seed);
      expect(new Set(back)).toEqual(held);
    }
  });

  it("has no held-back part in a set of at most 800 eligible items, and is the same on a copy", () => {
    expect(heldBack(eligible.slice(0, 800))).toEqual([]);
    const copy = JSON.parse(JSON.stringify(eligible)) as CtxproItem[];
    expect(heldBack(copy).map(itemKey)).toEqual(heldBack(eligible).map(itemKey));
  });

  it("hashes with FNV-1a", () => {
    expect(fnv1a("")).toBe(0x811c9dc5);
    expect(fnv1a("a")).toBe(0xe40c292c);
  });
});
