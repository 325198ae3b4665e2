/**
 * `--zero-shot-aggregate` applies wherever the scorer is zero-shot, the shipped default model included
 * (it is a masked-pronoun model), and is checked before any model is loaded; a flag that cannot apply is
 * refused, never ignored.
 */
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { registerScore } from "../src/cli/score.js";
import { registerEval } from "../src/cli/eval.js";
import { registerCompare } from "../src/cli/compare.js";
import { registerMetaEval } from "../src/cli/meta-eval.js";
import { runCli } from "./cli-helper.js";

let dir: string;
const REF = "She said that he would come.\nThey told us about it.\nThe weather was fine and the sun was out all day.\n";
const HYP_A = "He said that she would come.\nThey told us about it.\nThe weather was fine and the sun was out all day.\n";
const HYP_B = "She said that he would come.\nWe told them about it.\nThe weather was fine and the sun was out all day.\n";
const PAIR = {
  id: "p1",
  lang: "de",
  context: ["The woman came home."],
  positive: "She was tired.",
  negative: "He was tired.",
  kind: "noisy",
  ref_pronoun: "she",
  sys_pronoun: "he",
  origin: "t/de-en/d/1/x",
};

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "proneval-zsagg-"));
  writeFileSync(join(dir, "ref.txt"), REF);
  writeFileSync(join(dir, "a.txt"), HYP_A);
  writeFileSync(join(dir, "b.txt"), HYP_B);
  writeFileSync(join(dir, "pairs.jsonl"), JSON.stringify(PAIR) + "\n");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const score = (...extra: string[]) => runCli(registerScore, "score", ["-r", join(dir, "ref.txt"), "-t", join(dir, "a.txt"), "--backend", "cpu", ...extra]);
const signatureOf = (out: string): string => /signature: (\S+)/.exec(out)?.[1] ?? "";

describe("--zero-shot-aggregate with the default model (no --zero-shot)", () => {
  it("an unknown aggregate is a usage error naming the choices, exit 2, before any model is loaded", async () => {
    for (const r of [
      await score("--zero-shot-aggregate", "foo"),
      await runCli(registerEval, "eval", ["--pairs", join(dir, "pairs.jsonl"), "--backend", "cpu", "--zero-shot-aggregate", "foo"]),
      await runCli(registerCompare, "compare", ["-r", join(dir, "ref.txt"), "-t", join(dir, "a.txt"), join(dir, "b.txt"), "--backend", "cpu", "--zero-shot-aggregate", "foo"]),
      await runCli(registerMetaEval, "meta-eval", ["--pairs", join(dir, "pairs.jsonl"), "--backend", "cpu", "--zero-shot-aggregate", "foo"]),
    ]) {
      expect(r.code).toBe(2);
      expect(r.err).toBe("proneval: error: --zero-shot-aggregate must be pmi, sum, margin, calibrated, got 'foo'\n");
      expect(r.out).toBe("");
    }
  });

  it("margin and sum apply to the default model: the signature and the scores follow them", async () => {
    const pmi = await score();
    const margin = await score("--zero-shot-aggregate", "margin");
    const sum = await score("--zero-shot-aggregate", "sum");
    for (const r of [pmi, margin, sum]) expect(r.code, r.err).toBe(0);
    expect(signatureOf(pmi.out)).toMatch(/\|model:pronoun-lm-zeroshot-pmi@/);
    expect(signatureOf(margin.out)).toMatch(/\|model:pronoun-lm-zeroshot-margin@/);
    expect(signatureOf(sum.out)).toMatch(/\|model:pronoun-lm-zeroshot-sum@/);
    const seg = async (...a: string[]) => (await score("--segments", ...a)).out;
    expect(await seg("--zero-shot-aggregate", "sum")).not.toBe(await seg());
  });

  it("eval and compare take it too", async () => {
    const ev = await runCli(registerEval, "eval", ["--pairs", join(dir, "pairs.jsonl"), "--backend", "cpu", "--zero-shot-aggregate", "margin"]);
    expect(ev.code, ev.err).toBe(0);
    expect(signatureOf(ev.out)).toMatch(/\|model:pronoun-lm-zeroshot-margin@/);
    const cmp = await runCli(registerCompare, "compare", ["-r", join(dir, "ref.txt"), "-t", join(dir, "a.txt"), join(dir, "b.txt"), "--backend", "cpu", "--zero-shot-aggregate", "sum", "--bootstrap", "10"]);
    expect(cmp.code, cmp.err).toBe(0);
    expect(cmp.out).toMatch(/model:pronoun-lm-zeroshot-sum@/);
  });

  it("given for a ranker, whose scores do not use it, it is refused, exit 2", async () => {
    const r = await score("-c", "checkpoints/default", "--zero-shot-aggregate", "sum");
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^proneval: error: --zero-shot-aggregate is for masked-pronoun models scored zero-shot; checkpoints\/default is a ranker scorer/);
  });
});

describe("-c beside --zero-shot", () => {
  it("is refused (both name a model), exit 2, for score and eval", async () => {
    const r = await score("-c", "checkpoints/default", "--zero-shot");
    expect(r.code).toBe(2);
    expect(r.err).toBe("proneval: error: -c/--checkpoint and --zero-shot both name a model: give one (-c DIR scores a masked-pronoun model directory zero-shot too)\n");
    const e = await runCli(registerEval, "eval", ["--pairs", join(dir, "pairs.jsonl"), "--backend", "cpu", "-c", "checkpoints/pronoun-lm-news", "--zero-shot", "checkpoints/pronoun-lm-news"]);
    expect(e.code).toBe(2);
  });

  it("--zero-shot DIR alone scores that model, with the aggregate asked for", async () => {
    const r = await score("--zero-shot", "checkpoints/pronoun-lm-news", "--zero-shot-aggregate", "margin");
    expect(r.code, r.err).toBe(0);
    expect(signatureOf(r.out)).toMatch(/\|model:pronoun-lm-zeroshot-margin@/);
  });
});
