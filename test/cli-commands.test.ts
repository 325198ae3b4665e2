/**
 * Every subcommand, table-driven over tiny inputs (test/cli-fixtures.ts): a write error on stdout is one
 * line naming <stdout> with exit 2, an output that names an input is refused before any work.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { stdoutCommands, writeCliFixtures, type CliFixtures } from "./cli-fixtures.js";

const CLI = resolve("dist/src/cli/index.js");
const built = () => existsSync(CLI); // built by `npm test` (tsc) before vitest
let f: CliFixtures;

beforeAll(() => {
  f = writeCliFixtures(mkdtempSync(join(tmpdir(), "proneval-commands-")));
});
afterAll(() => rmSync(f.dir, { recursive: true, force: true }));

/** bash -c SCRIPT without blocking the test worker (spawnSync would starve vitest's own messages). */
function shell(script: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const c = spawn("bash", ["-c", script]);
    let stdout = "";
    let stderr = "";
    c.stdout.on("data", (d) => (stdout += String(d)));
    c.stderr.on("data", (d) => (stderr += String(d)));
    const timer = setTimeout(() => c.kill("SIGKILL"), 180_000);
    c.on("close", (status) => {
      clearTimeout(timer);
      done({ status, stdout, stderr });
    });
  });
}
const quote = (args: string[]) => args.map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(" ");

describe("every command that prints to stdout", () => {
  it("a full disk behind stdout (> /dev/full) is one line naming <stdout>, exit 2, no stack trace", async () => {
    if (!built() || !existsSync("/dev/full")) return;
    const bad: string[] = [];
    for (const [name, args] of stdoutCommands(f)) {
      const r = await shell(`node ${CLI} ${quote(args)} > /dev/full`);
      const lines = r.stderr.trim().split("\n");
      const last = lines[lines.length - 1] ?? "";
      if (r.status !== 2 || !/^proneval: error: <stdout>: cannot write: no space left on the device \(ENOSPC\)$/.test(last) || /\n\s+at /.test(r.stderr))
        bad.push(`${name}: exit ${r.status}: ${r.stderr.slice(-300)}`);
    }
    expect(bad).toEqual([]);
  }, 600_000);
});

describe("outputs and inputs", () => {
  it("an output that names one of the command's inputs is refused before any work, the input intact", async () => {
    if (!built()) return;
    const bad: string[] = [];
    for (const [name, args] of stdoutCommands(f)) {
      const input = args.find((a) => a.startsWith(f.dir));
      if (!input) continue;
      const before = readFileSync(input);
      const r = await shell(`node ${CLI} ${quote([...args, name === "align" ? "--output" : "-o", input])}`);
      if (r.status !== 2 || !r.stderr.includes(`${input}: --output names an input of this command`) || !readFileSync(input).equals(before))
        bad.push(`${name}: exit ${r.status}: ${r.stderr.slice(-200)}`);
    }
    expect(bad).toEqual([]);
  }, 300_000);

  it("-o /dev/stdout writes standard output, also when it is a pipe", async () => {
    if (!built()) return;
    const r = await shell(`node ${CLI} ctxpro score -e '${f.ctxproSet}' -t '${f.ctxproHyp}' -q -o /dev/stdout | cat`);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^system\tcorrect\ttotal\taccuracy \(%\)\n\S*ctx\.de\t2\t2\t100\.0\n$/);
  });

  it("mine and report write to stdout without -o, as every command whose output is text", async () => {
    if (!built()) return;
    const json = join(f.dir, "ctx.json");
    let r = await shell(`node ${CLI} ctxpro score -e '${f.ctxproSet}' -t '${f.ctxproHyp}' --json -o '${json}'`);
    expect(r.status, r.stderr).toBe(0);
    r = await shell(`node ${CLI} report '${json}' -q`);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^<!DOCTYPE html>/i);
    r = await shell(`node ${CLI} mine -q | head -c 300`);
    expect(r.stdout).toMatch(/^\{"testset":/);
  }, 120_000);
});

describe("report reads every JSON the commands write", () => {
  it("one page from the JSON of score (also --confidence), compare, eval, meta-eval, ctxpro score, suite score, contrastive, apt, muda score, stats, suite stats and contrastive --self-check; intervals from the aggregate each file records", async () => {
    if (!built()) return;
    const J = (name: string) => join(f.dir, `${name}.json`);
    const runs: Array<[string, string[]]> = [
      ["score", ["score", "-r", f.ref, "-t", f.a, f.b, "--backend", "cpu"]],
      ["score-confidence", ["score", "-r", f.ref, "-t", f.a, f.b, "--backend", "cpu", "--confidence", "-b", "100"]],
      ["compare", ["compare", "-r", f.ref, "-t", f.a, f.b, "--backend", "cpu", "-b", "100"]],
      ["eval", ["eval", "--pairs", f.pairs, "--backend", "cpu"]],
      ["meta-eval", ["meta-eval", "--pairs", f.pairs, "--backend", "cpu", "-b", "50"]],
      ["ctxpro", ["ctxpro", "score", "-e", f.ctxproSet, "-t", f.ctxproHyp, f.ctxproHyp]],
      ["suite", ["suite", "score", "--suite", f.suite, "-t", f.suiteHyp, f.suiteHyp, "-b", "50"]],
      ["contrastive", ["contrastive", f.contrastiveSet, "--scores", f.contrastiveScores, f.contrastiveScores, "--no-check-data"]],
      ["apt", ["apt", "-s", f.deSrc, "-r", f.enRef, "-t", f.enHyp, f.enRef, "-l", "de-en", "--no-check"]],
      ["muda", ["muda", "score", "-l", "en-de", "-s", f.enSrc, "-r", f.deRef, "-t", f.deHyp, f.deRef, "--no-check"]],
      ["stats", ["stats", f.pairs]],
      ["suite-stats", ["suite", "stats", f.suite]],
      ["contrastive-check", ["contrastive", f.contrastiveSet, "--self-check"]],
    ];
    for (const [name, args] of runs) {
      const quiet = ["stats", "suite-stats"].includes(name) ? [] : ["-q"];
      const r = await shell(`node ${CLI} ${quote([...args, "--json", ...quiet, "-o", J(name)])}`);
      expect(r.status, `${name}: ${r.stderr}`).toBe(0);
    }
    const html = join(f.dir, "all.html");
    const r = await shell(`node ${CLI} report ${quote(runs.map(([n]) => J(n)))} -o '${html}' -b 200`);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/warning/);
    const data = JSON.parse(/<script type="application\/json" id="report-data">(.*?)<\/script>/s.exec(readFileSync(html, "utf8"))![1]!);
    expect(data.sections.map((x: { id: string }) => x.id)).toEqual(["evaluation", "scoring", "ctxpro", "suites", "apt", "muda", "contrastive", "meta-eval", "data"]);
    expect(data.inputs.map((x: { kind: string }) => x.kind)).toEqual(["score", "score", "compare", "eval", "meta-eval", "ctxpro-score", "suite-score", "contrastive", "apt", "muda-score", "pair-stats", "suite-stats", "contrastive-check"]);
    // The ranking shows each system's recorded score, with an interval that holds it (mean aggregate, the default).
    const score = JSON.parse(readFileSync(J("score"), "utf8"));
    const scoring = data.sections.find((x: { id: string }) => x.id === "scoring");
    const rankings = scoring.blocks.filter((b: { type: string; caption?: string }) => b.type === "table" && /^Ranking/.test(b.caption ?? ""));
    expect(rankings).toHaveLength(2);
    for (const t of rankings)
      for (const row of t.rows as string[][]) {
        const sys = score.systems.find((x: { system: string }) => x.system === row[1]);
        expect(row[2]).toBe(sys.summary.score.toFixed(2));
        const [lo, hi] = row[3]!.slice(1, -1).split(", ").map(Number);
        expect(lo!).toBeLessThanOrEqual(sys.summary.score + 0.005);
        expect(hi!).toBeGreaterThanOrEqual(sys.summary.score - 0.005);
      }
    // score --confidence: the report shows the recorded interval.
    const conf = JSON.parse(readFileSync(J("score-confidence"), "utf8"));
    const c0 = conf.systems[0].confidence.ci95 as [number, number];
    expect(JSON.stringify(rankings[1].rows)).toContain(`[${c0[0].toFixed(2)}, ${c0[1].toFixed(2)}]`);
  }, 600_000);
});

describe("usage and input errors", () => {
  it("a usage error is its line and a pointer to --help, not the whole help", async () => {
    if (!built()) return;
    for (const args of [["score", "-r", "x", "-t"], ["score", "--no-such-flag"], ["compare"]]) {
      const r = await shell(`node ${CLI} ${quote(args)}`);
      expect(r.status, args.join(" ")).toBe(2);
      expect(r.stderr.trim().split("\n"), args.join(" ")).toHaveLength(2);
      expect(r.stderr).toMatch(/\n\(add --help for the options\)\n$/);
    }
  });

  it("mine - and pretrain --corpus - say that standard input cannot be read there", async () => {
    if (!built()) return;
    let r = await shell(`echo x | node ${CLI} mine - -o '${join(f.dir, "m.jsonl")}'`);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/standard input \('-'\) cannot be mined/);
    r = await shell(`echo x | node ${CLI} pretrain --corpus - -o '${join(f.dir, "pt")}' -q`);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--corpus is read once per epoch .* cannot be standard input/);
    expect(existsSync(join(f.dir, "pt"))).toBe(false);
  });

  it("stats counts an empty pair file (as pairs writes one for a split without pairs) instead of refusing it", async () => {
    if (!built()) return;
    const empty = join(f.dir, "empty.jsonl");
    writeFileSync(empty, "");
    const r = await shell(`node ${CLI} stats '${empty}' --format csv`);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^file,system \(R vs S\),noisy \(R vs R'\),total\n\S*empty\.jsonl,0,0,0\n/);
  });
});

describe("ctxpro score", () => {
  it("says when it splits translations as English for want of a language, and refuses translations in another language", async () => {
    if (!built()) return;
    const set = join(f.dir, "myset.json");
    const items = Array.from({ length: 30 }, (_, i) => ({ expected: "Sie", rule: "R", "ref segment": `Haben Sie heute Zeit für mich und die Kinder, Nummer ${i}?`, "src segment": `Do you have time for me and the children today, number ${i}?` }));
    writeFileSync(set, JSON.stringify(items));
    const en = join(f.dir, "translations.en");
    writeFileSync(en, items.map((x) => x["src segment"]).join("\n") + "\n");
    let r = await shell(`node ${CLI} ctxpro score -e '${set}' -t '${en}'`);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/note: the set's file name names no language .* split into sentences as English; give -l/);
    expect(r.stdout).toMatch(/\n# the set's file name names no language .*\nsignature: ctxpro\|mode:last-k\|split:proneval-moses\.en\|/);
    r = await shell(`node ${CLI} ctxpro score -e '${set}' -t '${en}' -l de`);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/translations\.en: reads like English, not German .*--no-check skips this/);
    r = await shell(`node ${CLI} ctxpro score -e '${set}' -t '${en}' -l de --no-check -q`);
    expect(r.status, r.stderr).toBe(0);
  });
});

describe("ctxpro identify", () => {
  it("without --rules takes every built-in rule set of the language", async () => {
    if (!built()) return;
    const out = join(f.dir, "identified");
    const r = await shell(`node ${CLI} ctxpro identify -i '${f.ctxproTsv}' -l de -o '${out}' --no-check`);
    expect(r.status, r.stderr).toBe(0);
    const written = readdirSync(out).sort();
    expect(written).toEqual(["animacy.de-en.json", "auxiliary.en-de.json", "formality.en-de.json", "gender.en-de.json"]);
  }, 120_000);
});

describe("option ranges", () => {
  it("an agreement threshold outside [0, 1] (pairs, suite build) is a usage error before anything is written", async () => {
    if (!built()) return;
    for (const cmd of [["pairs", f.pairs], ["suite", "build", f.pairs]]) {
      const out = join(f.dir, `threshold-${cmd[0]}`);
      const r = await shell(`node ${CLI} ${quote([...cmd, "-o", out, "--threshold", "2"])}`);
      expect(r.status, cmd.join(" ")).toBe(2);
      expect(r.stderr).toMatch(/^proneval: error: option --threshold expects a number in \[0, 1\], got '2'\n$/);
      expect(existsSync(out)).toBe(false);
    }
  });
});

describe("train and pretrain", () => {
  it("--dropout outside [0, 1) is a usage error before the output directory is created", async () => {
    if (!built()) return;
    for (const cmd of [["train", "--train", f.pairs], ["pretrain", "--corpus", f.pairs]]) {
      const out = join(f.dir, `${cmd[0]}-dropout`);
      const r = await shell(`node ${CLI} ${quote([...cmd, "-o", out, "--dropout", "1.5", "--backend", "cpu"])}`);
      expect(r.status, cmd[0]).toBe(2);
      expect(r.stderr).toMatch(/^proneval: error: option --dropout expects a number in \[0, 1\), got '1\.5'\n$/);
      expect(existsSync(out), cmd[0]).toBe(false);
    }
  });

  it("Ctrl-C (SIGINT) while train builds its embedding cache leaves no empty output directory", async () => {
    if (!built()) return;
    const out = join(f.dir, "train-sigint");
    const c = spawn("node", [CLI, "train", "--train", f.pairs, "-o", out, "--backend", "cpu", "--hidden", "5"]);
    let err = "";
    const code = await new Promise<number | null>((done) => {
      c.stderr.on("data", (d) => {
        err += String(d);
        // Logged after the pairs are read, right before the cache is built (about half a minute of work).
        if (/training pairs: \d+/.test(err) && !c.killed) c.kill("SIGINT");
      });
      c.on("close", (status, signal) => done(status ?? (signal ? 130 : null)));
    });
    expect(code).toBe(130);
    expect(existsSync(out)).toBe(false);
  }, 120_000);
});
