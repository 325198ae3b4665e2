/**
 * The draw of the hand-judged sets (scripts/sample-judgements.ts): R vs R' items substitute one pronoun in the
 * reference; R vs S items keep the system output as it is, with both mismatched pronouns marked by offsets; only
 * the chosen split is drawn, duplicates once, and the same seed gives the same draw.
 */
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const SCRIPT = resolve("dist/scripts/sample-judgements.js");
let dir: string;
let file: string;

function record(seg: number, testset: string, system: string, refSentence: string, refPronoun: string, sysSentence: string, sysPronoun: string) {
  const rs = refSentence.toLowerCase().indexOf(refPronoun);
  const ss = sysSentence.toLowerCase().indexOf(sysPronoun);
  return {
    testset, lang_pair: "de-en", doc_id: "d1", seg_index: seg, seg_id: String(seg + 1), system, reference: "A",
    ref_sentence: refSentence, sys_sentence: sysSentence, ref_token: 1, sys_token: 1,
    ref_offsets: [rs, rs + refPronoun.length], sys_offsets: [ss, ss + sysPronoun.length], ref_pronoun: refPronoun, sys_pronoun: sysPronoun,
    ref_context: ["The lamp stood on the table."], sys_context: ["The lamp was on the table."], context_source: "previous-lines",
    src_sentence: "Sie leuchtete hell.", src_context: ["Die Lampe stand auf dem Tisch."],
  };
}

function run(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const c = spawn(process.execPath, [SCRIPT, ...args]);
    let stdout = "";
    let stderr = "";
    c.stdout.on("data", (d) => (stdout += String(d)));
    c.stderr.on("data", (d) => (stderr += String(d)));
    c.on("close", (status) => done({ status, stdout, stderr }));
  });
}

const lines = (s: string) => s.trim().split("\n").map((l) => JSON.parse(l));

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "proneval-sample-judgements-"));
  file = join(dir, "mismatches.jsonl");
  const recs = [
    record(0, "generaltest2023", "sysA", "It shone brightly.", "it", "She shone brightly.", "she"),
    record(0, "generaltest2023", "sysB", "It shone brightly.", "it", "She was shining brightly.", "she"),
    record(0, "generaltest2023", "sysC", "It shone brightly.", "it", "She shone brightly.", "she"), // same pair as sysA
    record(1, "generaltest2023", "sysA", "They saw it there.", "they", "We saw it there.", "we"),
    record(2, "newstest2021", "sysA", "He left early.", "he", "She left early.", "she"), // train year
  ];
  writeFileSync(file, recs.map((r) => JSON.stringify(r)).join("\n") + "\n");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("sample-judgements", () => {
  it("R vs R': the reference with its pronoun replaced, dev split only, one item per distinct pair", async () => {
    const r = await run([file, "10", "5"]);
    expect(r.status).toBe(0);
    const items = lines(r.stdout);
    expect(items.map((i) => i.substitute).sort()).toEqual(["She shone brightly.", "We saw it there."]);
    expect(r.stderr).toMatch(/2 distinct R vs R' pairs in split dev/);
    for (const i of items) {
      expect(i.id).toMatch(/^J:/);
      expect(i.label).toBeNull();
      expect(i.sub_offsets).toBeUndefined();
    }
  });

  it("R vs S: the system output as it is, both pronouns marked, the same draw for the same seed", async () => {
    const r = await run([file, "10", "5", "--kind", "rs"]);
    expect(r.status).toBe(0);
    const items = lines(r.stdout);
    expect(items.map((i) => i.substitute).sort()).toEqual(["She shone brightly.", "She was shining brightly.", "We saw it there."]);
    for (const i of items) {
      expect(i.id).toMatch(/^JS:/);
      expect(i.reference.slice(i.offsets[0], i.offsets[1]).toLowerCase()).toBe(i.ref_pronoun);
      expect(i.substitute.slice(i.sub_offsets[0], i.sub_offsets[1]).toLowerCase()).toBe(i.sys_pronoun);
      expect(i.context).toEqual(["The lamp stood on the table."]);
    }
    const again = await run([file, "10", "5", "--kind", "rs"]);
    expect(again.stdout).toBe(r.stdout);
    const two = await run([file, "2", "5", "--kind", "rs"]);
    expect(lines(two.stdout)).toEqual(items.slice(0, 2));
  });

  it("refuses an unknown kind", async () => {
    const r = await run([file, "10", "5", "--kind", "sr"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--kind must be rr or rs/);
    expect(r.stdout).toBe("");
  });
});
