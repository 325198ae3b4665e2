/**
 * The command line behaves like sacrebleu/comet-score: safe outputs (FIFOs, symlinks,
 * bad parents, signals), stdin inputs, honest scores (n/a, empty references, non-English targets),
 * usage errors exit 2, and every subcommand's flags follow docs/cli.md.
 */
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { spawn, spawnSync, execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { Command, type Option } from "commander";
import { registerCommands } from "../src/cli/commands.js";
import { writeFileAtomic } from "../src/io/atomic.js";
import { formatTable, parseTable } from "../src/io/table.js";
import { ProgressLine } from "../src/core/progress.js";

const CLI = resolve("dist/src/cli/index.js");
const ATOMIC = resolve("dist/src/io/atomic.js");
let dir: string;

const REF = "She said that he would come.\nThey told us about it.\nThe weather was fine and the sun was out all day.\n";
const HYP_A = "He said that she would come.\nThey told us about it.\nThe weather was fine and the sun was out all day.\n";
const HYP_B = "She said that he would come.\nWe told them about it.\nThe weather was fine and the sun was out all day.\n";
const NO_PRONOUN = "The weather was fine.\nThe sun was out all day.\nA train left the station.\n";

/** A command without blocking the test worker (long spawnSync runs starve vitest's own messages). */
function run(cmd: string, args: string[], input?: string | Buffer): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const c = spawn(cmd, args);
    let stdout = "";
    let stderr = "";
    c.stdout.on("data", (d) => (stdout += String(d)));
    c.stderr.on("data", (d) => (stderr += String(d)));
    const timer = setTimeout(() => c.kill("SIGKILL"), 120_000);
    c.on("close", (status) => {
      clearTimeout(timer);
      done({ status, stdout, stderr });
    });
    if (input !== undefined) c.stdin.end(input);
    else c.stdin.end();
  });
}

const cliAsync = (args: string[], input?: string | Buffer) => run("node", [CLI, ...args], input);

function cli(args: string[], input?: string | Buffer) {
  return spawnSync("node", [CLI, ...args], { encoding: "utf8", input, timeout: 120_000 });
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "proneval-cli-"));
  writeFileSync(join(dir, "ref.txt"), REF);
  writeFileSync(join(dir, "a.txt"), HYP_A);
  writeFileSync(join(dir, "b.txt"), HYP_B);
  writeFileSync(join(dir, "nop.txt"), NO_PRONOUN);
  writeFileSync(join(dir, "nop2.txt"), NO_PRONOUN);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const built = () => existsSync(CLI); // built by `npm test` (tsc) before vitest

describe("outputs", () => {
  it("a FIFO output is written through: its reader gets the data and the FIFO stays a FIFO", () => {
    const fifo = join(dir, "pipe");
    execFileSync("mkfifo", [fifo]);
    const got = join(dir, "from-pipe.txt");
    const reader = spawn("sh", ["-c", `cat "${fifo}" > "${got}"`]);
    const done = new Promise((r) => reader.on("exit", r));
    writeFileAtomic(fifo, "through the pipe\n");
    return done.then(() => {
      expect(readFileSync(got, "utf8")).toBe("through the pipe\n");
      expect(execFileSync("stat", ["-c", "%F", fifo], { encoding: "utf8" }).trim()).toBe("fifo");
    });
  });

  it("a symlink output writes its target and stays a link", () => {
    const target = join(dir, "target.json");
    const link = join(dir, "link.json");
    writeFileSync(target, "old\n");
    symlinkSync(target, link);
    writeFileAtomic(link, "new\n");
    expect(readFileSync(target, "utf8")).toBe("new\n");
    expect(execFileSync("stat", ["-c", "%F", link], { encoding: "utf8" }).trim()).toBe("symbolic link");
  });

  it("a device output is written through, and a full device is a clear error naming it", () => {
    const kind = (p: string) => (existsSync(p) ? execFileSync("stat", ["-c", "%F", p], { encoding: "utf8" }).trim() : "missing");
    if (kind("/dev/zero") === "character special file") {
      writeFileAtomic("/dev/zero", "nothing\n");
      expect(kind("/dev/zero")).toBe("character special file");
    }
    if (kind("/dev/full") === "character special file") expect(() => writeFileAtomic("/dev/full", "x")).toThrow(/^\/dev\/full: cannot write: no space left/);
  });

  it("an output under a regular file fails before any work, naming the user's path, exit 2", () => {
    if (!built()) return;
    const bad = join(dir, "ref.txt", "out.tsv");
    const r = cli(["score", "-r", join(dir, "ref.txt"), "-t", join(dir, "a.txt"), "--backend", "cpu", "-o", bad]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`proneval: error: ${bad}: cannot write`);
    expect(r.stderr).not.toMatch(/backend:|internal error|\.tmp/); // no model was loaded
  });

  it("a closed stdout (| head) ends the command quietly with exit 0, for stream and synchronous writes", () => {
    if (!built()) return;
    const pairs = join(dir, "many.jsonl");
    const rec = (i: number) => JSON.stringify({ id: String(i), lang: "de", context: [], positive: "He came.", negative: "She came.", kind: "noisy", ref_pronoun: `he${i}`, sys_pronoun: "she", origin: "o" });
    writeFileSync(pairs, Array.from({ length: 20000 }, (_, i) => rec(i)).join("\n") + "\n");
    writeFileSync(join(dir, "big.txt"), "a b c ||| x y z\n".repeat(30000));
    for (const args of [`stats ${pairs} --top 20000`, `align -i ${join(dir, "big.txt")} -d`]) {
      const r = spawnSync("bash", ["-c", `node ${CLI} ${args} | head -c 10 > /dev/null; echo "rc=\${PIPESTATUS[0]}"`], { encoding: "utf8", timeout: 120_000 });
      expect(r.stdout, args).toBe("rc=0\n");
      expect(r.stderr, args).toBe("");
    }
    // A slow reader of the pipe (EAGAIN on the non-blocking stdout) still gets everything.
    const slow = spawnSync("bash", ["-c", `node ${CLI} align -i ${join(dir, "big.txt")} -d | (sleep 2; wc -l); echo "rc=\${PIPESTATUS[0]}"`], { encoding: "utf8", timeout: 120_000 });
    expect(slow.stderr).toBe("");
    expect(slow.stdout.trim().split(/\s+/)).toEqual(["30000", "rc=0"]);
  });

  it("'-' for a directory output (pairs, suite build, identify, extract --splits, train) is a usage error and makes no directory '-'", () => {
    if (!built()) return;
    const cwd = join(dir, "dash");
    mkdirSync(cwd);
    const mm = join(dir, "mm.jsonl");
    writeFileSync(mm, "{}\n");
    for (const args of [
      ["pairs", mm, "-o", "-"],
      ["suite", "build", mm, "-o", "-"],
      ["ctxpro", "identify", "-i", mm, "--rules", "DE_GENDER", "-l", "de", "-o", "-"],
      ["ctxpro", "extract", "-e", mm, "--splits", "-"],
      ["train", "--train", mm, "-o", "-"],
    ]) {
      const r = spawnSync("node", [CLI, ...args], { encoding: "utf8", cwd, timeout: 120_000 });
      expect(r.status, args.join(" ")).toBe(2);
      expect(r.stderr, args.join(" ")).toMatch(/'-' \(stdout\) cannot take it/);
    }
    expect(readdirSync(cwd)).toEqual([]);
  });

  it("SIGTERM while writing leaves no temporary file and no partial output", async () => {
    if (!existsSync(ATOMIC)) return;
    const out = join(dir, "sig", "out.jsonl");
    const script = `const { AtomicLineWriter } = await import(${JSON.stringify(ATOMIC)});
      const w = new AtomicLineWriter(${JSON.stringify(out)});
      for (let i = 0; i < 50000; i++) w.write(JSON.stringify({ i }));
      process.stdout.write("ready\\n");
      setInterval(() => w.write("x"), 10);`;
    const child = spawn("node", ["--input-type=module", "-e", script]);
    await new Promise<void>((res) => child.stdout.on("data", (d) => String(d).includes("ready") && res()));
    expect(readdirSync(join(dir, "sig")).some((f) => f.endsWith(".tmp"))).toBe(true);
    const code = await new Promise((res) => {
      child.on("exit", (c) => res(c));
      child.kill("SIGTERM");
    });
    expect(code).toBe(143);
    expect(readdirSync(join(dir, "sig"))).toEqual([]);
  });
});

describe("inputs and scores", () => {
  it("reads the reference from stdin (gzipped too) and takes -t A B", () => {
    if (!built()) return;
    const r = cli(["score", "-r", "-", "-t", join(dir, "a.txt"), join(dir, "b.txt"), "--backend", "cpu", "-q"], gzipSync(REF));
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^system\tscore\tpronoun_segments\tsegments\na\.txt\t\d+\.\d\d\t2\t3\nb\.txt\t\d+\.\d\d\t2\t3\n$/);
  });

  it("a named FIFO, a process-substitution pipe and /dev/stdin as the reference are read once (format detection and reader share it)", async () => {
    if (!built()) return;
    const expected = (await cliAsync(["score", "-r", join(dir, "ref.txt"), "-t", join(dir, "a.txt"), "--backend", "cpu", "-q"])).stdout;
    expect(expected).toMatch(/^system\tscore/);
    const fifo = join(dir, "ref.fifo");
    execFileSync("mkfifo", [fifo]);
    const sh = (script: string) => run("bash", ["-c", script]);
    const a = join(dir, "a.txt");
    let r = await sh(`(cat "${join(dir, "ref.txt")}" > "${fifo}" &); node ${CLI} score -r "${fifo}" -t "${a}" --backend cpu -q`);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe(expected);
    r = await sh(`node ${CLI} score -r <(cat "${join(dir, "ref.txt")}") -t "${a}" --backend cpu -q`);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe(expected);
    r = await sh(`cat "${join(dir, "ref.txt")}" | node ${CLI} score -r /dev/stdin -t "${a}" --backend cpu -q`);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe(expected);
  });

  it("reads a hypothesis from stdin; the signature follows the table on stdout and says where context came from", () => {
    if (!built()) return;
    const r = cli(["score", "-r", join(dir, "ref.txt"), "-t", "-", "--backend", "cpu"], HYP_A);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^system\tscore\tpronoun_segments\tsegments\nstdin\t/);
    expect(r.stdout).toMatch(/# score: % of pronoun segments/);
    expect(r.stdout).toMatch(/# context: the previous lines of the file/);
    expect(r.stdout).toMatch(/\nsignature: proneval-pronoun\|.*\|ctx:crc-lines\|.*\|version:/);
  });

  it("stdin for the other commands' inputs: a contrastive set, a CTXPRO set and translations; named stdin in the tables", () => {
    if (!built()) return;
    const set = JSON.stringify([{ src: "a", dst: ["x", "y"], true_ind: 0, ctx_dist: 1 }, { src: "b", dst: ["x", "y"], true_ind: 1, ctx_dist: 1 }]);
    writeFileSync(join(dir, "scores.txt"), "1\n2\n3\n1\n");
    let r = cli(["contrastive", "-", "--scores", join(dir, "scores.txt"), "-q"], set);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe("set\tsystem\titems\ttotal\tdist 1\tchance\tties\nstdin\tscores.txt\t2\t100.0\t100.0 (2)\t50.0\t0\n".replace("scores.txt", join(dir, "scores.txt")));
    r = cli(["contrastive", "-", "--scores", "-"], set);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/standard input \(-\) can be given for one input only/);
    writeFileSync(join(dir, "set.en-de.json"), JSON.stringify([{ expected: "sie", rule: "R", "ref segment": "Sie ist kaputt.", "src segment": "It is broken." }]));
    r = cli(["ctxpro", "score", "-e", join(dir, "set.en-de.json"), "-t", "-", "-q"], gzipSync("Sie ist kaputt.\n"));
    expect(r.stdout).toBe("system\tcorrect\ttotal\taccuracy (%)\nstdin\t1\t1\t100.0\n");
  });

  it("an empty reference line is an error naming the line; --allow-empty skips and reports it", () => {
    if (!built()) return;
    writeFileSync(join(dir, "ref-empty.txt"), "She said that he would come.\n\nThe weather was fine and the sun was out all day.\n");
    let r = cli(["score", "-r", join(dir, "ref-empty.txt"), "-t", join(dir, "a.txt"), "--backend", "cpu", "-q"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`${join(dir, "ref-empty.txt")}:2: empty reference segment`);
    r = cli(["score", "-r", join(dir, "ref-empty.txt"), "-t", join(dir, "a.txt"), "--backend", "cpu", "--allow-empty"]);
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/1 empty reference segment\(s\) skipped/);
    expect(r.stdout).toMatch(/\ta\.txt\t|\na\.txt\t\S+\t\d+\t2\n/);
    expect(r.stdout).toMatch(/empty-refs-skipped:1/);
  });

  it("a non-English reference is refused (English-target metric) unless overridden", () => {
    if (!built()) return;
    const de = "Sie sagte, dass er kommen würde.\nSie haben uns davon erzählt.\nDas Wetter war schön und die Sonne schien den ganzen Tag über der Stadt.\n";
    writeFileSync(join(dir, "de.txt"), de);
    let r = cli(["score", "-r", join(dir, "de.txt"), "-t", join(dir, "de.txt"), "--backend", "cpu", "-q"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/does not look English.*English targets.*--allow-non-english/);
    r = cli(["compare", "-r", join(dir, "de.txt"), "-t", join(dir, "a.txt"), join(dir, "b.txt"), "--backend", "cpu", "-q"]);
    expect(r.status).toBe(2);
    r = cli(["score", "-r", join(dir, "de.txt"), "-t", join(dir, "de.txt"), "--backend", "cpu", "-q", "--allow-non-english"]);
    expect(r.status).toBe(0);
  });

  it("no pronoun segments: score prints n/a and compare says there is nothing to compare, exit 0", () => {
    if (!built()) return;
    let r = cli(["score", "-r", join(dir, "nop.txt"), "-t", join(dir, "nop2.txt"), "--backend", "cpu", "-q"]);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe("system\tscore\tpronoun_segments\tsegments\nnop2.txt\tn/a\t0\t3\n");
    r = cli(["compare", "-r", join(dir, "nop.txt"), "-t", join(dir, "nop.txt"), join(dir, "nop2.txt"), "--backend", "cpu"]);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/\nnop2\.txt\tn\/a\tn\/a\t\t\t\t\tn\/a\t0\t/);
    expect(r.stdout).toContain("# n/a: no pronoun segments (neither the reference, the system nor the baseline has a pronoun): nothing to compare");
    expect(r.stdout).not.toMatch(/\t(better|worse)\t/);
  });

  it("--docs with a format that has its own document ids is an error", () => {
    if (!built()) return;
    const r = cli(["score", "-r", resolve("data/sample/wmttest2023.ru-en.sample.xml.gz"), "--docs", join(dir, "ref.txt"), "-q"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--docs is for plain text; this wmt-xml file has its own document ids/);
  });

  it("usage errors exit 2 (unknown option, missing required option, unknown command); --version names the default model", () => {
    if (!built()) return;
    expect(cli(["score", "--no-such-flag"]).status).toBe(2);
    expect(cli(["score"]).status).toBe(2);
    expect(cli(["no-such-command"]).status).toBe(2);
    expect(cli(["ctxpro", "score", "-t", "x"]).status).toBe(2);
    const v = cli(["--version"]);
    expect(v.status).toBe(0);
    expect(v.stdout).toMatch(/^\d+\.\d+\.\d+\ndefault model \(checkpoints\/pronoun-lm-modern, zero-shot PMI\): proneval-pronoun\|model:pronoun-lm-zeroshot-pmi@[0-9a-f]{8}\|ctx:crc\|agg:mean\|/);
  });
});

describe("sacrebleu and comet habits", () => {
  it("compare: a baseline and N systems, one paired test per system in one table; -q keeps only the table; the signature names backend and bootstrap", async () => {
    if (!built()) return;
    const r = await cliAsync(["compare", "-r", join(dir, "ref.txt"), "-t", join(dir, "b.txt"), join(dir, "a.txt"), join(dir, "nop.txt"), "--backend", "cpu", "-b", "100"]);
    expect(r.status, r.stderr).toBe(0);
    const lines = r.stdout.split("\n");
    expect(lines[0]).toBe("system\tscore\tbaseline\tdelta\tci95_low\tci95_high\tp\tverdict\tpronoun_segments\twins\tlosses\tties\tcohens_h");
    expect(lines[1]).toMatch(/^b\.txt\t\d+\.\d\d\t\t\t\t\t\tbaseline\t2\t/);
    expect(lines[2]).toMatch(/^a\.txt\t\d+\.\d\d\t\d+\.\d\d\t[+-]\d+\.\d\d\t-?\d+\.\d\d\t-?\d+\.\d\d\t\d\.\d{4}\t(better|worse|n\.s\.)\t\d+\t/);
    expect(lines[3]).toMatch(/^nop\.txt\t/);
    expect(r.stdout).toMatch(/\nsignature: proneval-pronoun\|.*\|backend:cpu\|bootstrap:100\|seed:12345\|alpha:0\.05\|version:\S+\n$/);
    const q = await cliAsync(["compare", "-r", join(dir, "ref.txt"), "-t", join(dir, "b.txt"), join(dir, "a.txt"), "--backend", "cpu", "-b", "100", "-q"]);
    expect(q.stderr).toBe("");
    expect(q.stdout.trim().split("\n")).toHaveLength(3);
    expect(q.stdout).not.toMatch(/^#|signature/m);
    const j = JSON.parse((await cliAsync(["compare", "-r", join(dir, "ref.txt"), "-t", join(dir, "b.txt"), join(dir, "a.txt"), "--backend", "cpu", "-b", "100", "--json", "-q"])).stdout);
    expect(j).toMatchObject({ kind: "proneval-compare", version: 2, baseline: "b.txt", bootstrap: { samples: 100, seed: 12345 } });
    expect(j.comparisons[0].system).toBe("a.txt");
    expect(j.comparisons[0].bootstrap.p).toBeGreaterThan(0);
  });

  it("compare --bootstrap 0 prints the difference without an interval, p or verdict", async () => {
    if (!built()) return;
    const r = await cliAsync(["compare", "-r", join(dir, "ref.txt"), "-t", join(dir, "b.txt"), join(dir, "a.txt"), "--backend", "cpu", "-b", "0"]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.split("\n")[2]).toMatch(/^a\.txt\t\d+\.\d\d\t\d+\.\d\d\t[+-]\d+\.\d\d\t\t\t\tnot tested\t/);
    expect(r.stdout).not.toMatch(/0\.00, 0\.00|p = 1/);
    expect(r.stdout).toMatch(/# delta: score - baseline; no interval, p or verdict: --bootstrap 0 tests nothing/);
    expect(r.stdout).toMatch(/\|bootstrap:0\|version:/);
  });

  it("score --confidence gives each system its bootstrap interval, -w the decimals; --format mtme writes MT-metrics-eval score files", async () => {
    if (!built()) return;
    const r = await cliAsync(["score", "-r", join(dir, "ref.txt"), "-t", join(dir, "a.txt"), join(dir, "b.txt"), "--backend", "cpu", "--confidence", "-b", "200", "-w", "3", "-q"]);
    expect(r.status, r.stderr).toBe(0);
    const rows = r.stdout.trim().split("\n").map((l) => l.split("\t"));
    expect(rows[0]).toEqual(["system", "score", "mean", "ci95_low", "ci95_high", "pronoun_segments", "segments"]);
    for (const row of rows.slice(1)) {
      expect(row[1]).toMatch(/^\d+\.\d{3}$/);
      expect(Number(row[3])).toBeLessThanOrEqual(Number(row[1]));
      expect(Number(row[4])).toBeGreaterThanOrEqual(Number(row[1]));
    }
    const json = JSON.parse((await cliAsync(["score", "-r", join(dir, "ref.txt"), "-t", join(dir, "a.txt"), "--backend", "cpu", "--confidence", "-b", "200", "--json", "-q"])).stdout);
    expect(json.systems[0].confidence).toMatchObject({ samples: 200, seed: 12345 });
    expect(json.signature).toMatch(/\|backend:cpu\|bootstrap:200\|seed:12345\|version:/);
    const out = join(dir, "mtme");
    const m = await cliAsync(["score", "-r", join(dir, "ref.txt"), "-t", join(dir, "a.txt"), join(dir, "b.txt"), "--backend", "cpu", "--format", "mtme", "-o", out, "-q"]);
    expect(m.status, m.stderr).toBe(0);
    expect(readdirSync(out).sort()).toEqual(["proneval-ref.seg.score", "proneval-ref.sys.score"]);
    expect(readFileSync(join(out, "proneval-ref.sys.score"), "utf8")).toMatch(/^a\t\d+(\.\d+)?\nb\t\d+(\.\d+)?\n$/);
    const seg = readFileSync(join(out, "proneval-ref.seg.score"), "utf8").trim().split("\n");
    expect(seg.map((l) => l.split("\t")[0])).toEqual(["a", "a", "a", "b", "b", "b"]);
    expect((await cliAsync(["score", "-r", join(dir, "ref.txt"), "-t", join(dir, "a.txt"), "--format", "mtme", "-q"])).stderr).toMatch(/--format mtme writes two files .* -o DIR/);
  });
});

describe("progress lines", () => {
  it("in a log (no terminal) the last update held back by the rate limit is printed when the line is done, so the log ends at 100%", () => {
    const written: string[] = [];
    const stream = { isTTY: false, write: (s: string) => written.push(s) } as unknown as NodeJS.WriteStream;
    const line = new ProgressLine(stream);
    line.update("scoring 10%");
    line.update("scoring 60%");
    line.update("scoring 100%");
    line.done();
    expect(written).toEqual(["scoring 10%\n", "scoring 100%\n"]);
  });
});

describe("tables", () => {
  it("a cell with a tab, quote or newline round-trips through the TSV writer and reader", async () => {
    const rows = [["d1", 'he said "no"\tloudly', "two\nlines"], ["d2", "plain", ""]];
    const text = await formatTable(["doc", "a", "b"], rows);
    const back = await parseTable(text, "t.tsv", { quoted: true });
    expect(back.map((r) => r.cells)).toEqual([["doc", "a", "b"], ...rows]);
    // Unquoted input (sacrebleu --echo) keeps bare quotes as text.
    const raw = await parseTable('d1\the said "no"\tx\n', "t.tsv");
    expect(raw[0]!.cells).toEqual(["d1", 'he said "no"', "x"]);
  });
});

describe("tables on the command line", () => {
  it("score: a system name holding a tab, quote and newline round-trips through --format tsv and csv", async () => {
    if (!built()) return;
    const odd = join(dir, 'a "q"\tt\nn.txt');
    writeFileSync(odd, HYP_A);
    for (const format of ["tsv", "csv"] as const) {
      const r = cli(["score", "-r", join(dir, "ref.txt"), "-t", odd, join(dir, "b.txt"), "--backend", "cpu", "-q", "--format", format]);
      expect(r.status, r.stderr).toBe(0);
      const rows = (await parseTable(r.stdout, "out", { quoted: true, delimiter: format === "csv" ? "," : "\t" })).map((x) => x.cells);
      expect(rows.map((x) => x[0])).toEqual(["system", 'a "q"\tt\nn.txt', "b.txt"]);
      expect(rows.every((x) => x.length === 4)).toBe(true);
    }
    const j = cli(["score", "-r", join(dir, "ref.txt"), "-t", odd, "--backend", "cpu", "-q", "--format", "json"]);
    const k = cli(["score", "-r", join(dir, "ref.txt"), "-t", odd, "--backend", "cpu", "-q", "--json"]);
    expect(JSON.parse(j.stdout).systems[0].system).toBe('a "q"\tt\nn.txt');
    expect(JSON.parse(j.stdout).signature).toBe(JSON.parse(k.stdout).signature);
    const bad = cli(["score", "-r", join(dir, "ref.txt"), "-t", odd, "--backend", "cpu", "-q", "--json", "--format", "tsv"]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--json is --format json/);
  });

  it("eval: tables, then the signature; -q keeps the tables; csv and json", () => {
    if (!built()) return;
    const pairs = join(dir, "pairs.jsonl");
    const pair = (id: string, pos: string, neg: string, kind: string, r: string, s: string) =>
      JSON.stringify({ id, lang: "de", context: ["The man came home."], positive: pos, negative: neg, kind, ref_pronoun: r, sys_pronoun: s, origin: "t/de-en/d/1/x" });
    writeFileSync(pairs, [pair("1", "He was tired.", "She was tired.", "system", "he", "she"), pair("2", "He sat down.", "It sat down.", "noisy", "he", "it")].join("\n") + "\n");
    let r = cli(["eval", "--pairs", pairs, "--backend", "cpu"]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^group\tpairs\tacc%\tnote\noverall\t2\t/);
    expect(r.stdout).toMatch(/\n# by source language\nlang\tpairs\tacc%\nde\t2\t/);
    expect(r.stdout).toMatch(/\nsignature: proneval-pronoun\|model:pronoun-lm-zeroshot-pmi@[0-9a-f]{8}\|.*\|version:\S+\n$/);
    r = cli(["eval", "--pairs", pairs, "--backend", "cpu", "-q", "--format", "csv"]);
    expect(r.stderr).toBe("");
    expect(r.stdout).toMatch(/^group,pairs,acc%,note\n/);
    expect(r.stdout).not.toMatch(/signature/);
    r = cli(["eval", "--pairs", pairs, "--backend", "cpu", "-q", "--format", "json"]);
    expect(JSON.parse(r.stdout).overall.n).toBe(2);
    // meta-eval: one table, a column per scorer, then one signature line per scorer.
    r = cli(["meta-eval", "--pairs", pairs, "--backend", "cpu", "--format", "csv"]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^measure,default\n/);
    expect(r.stdout).toMatch(/\nsignature default: proneval-pronoun\|model:pronoun-lm-zeroshot-pmi@[0-9a-f]{8}\|.*\|version:\S+\n$/);
    // The paired bootstrap's table follows (on by default); --bootstrap 0 leaves it out; an unknown --baseline is a usage error.
    expect(r.stdout).toMatch(/\n# 95% intervals \(paired bootstrap, 1000 draws of .*\nmeasure,default\n/);
    r = cli(["meta-eval", "--pairs", pairs, "--backend", "cpu", "-q", "--bootstrap", "0"]);
    expect(r.stdout).not.toMatch(/95% intervals/);
    r = cli(["meta-eval", "--pairs", pairs, "--backend", "cpu", "--baseline", "nope"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--baseline 'nope' is none of the scorers \(default\)/);
  });

  it("stats: --format json is --json; csv quotes a cell holding the delimiter", () => {
    if (!built()) return;
    const pairs = join(dir, "pairs-stats.jsonl");
    const rec = { id: "1", lang: "de", context: [], positive: "He, too.", negative: "It, too.", kind: "noisy", ref_pronoun: "he", sys_pronoun: "it", origin: "o" };
    writeFileSync(pairs, JSON.stringify(rec) + "\n");
    const a = cli(["stats", pairs, "--format", "json"]);
    const b = cli(["stats", pairs, "--json"]);
    expect(a.status, a.stderr).toBe(0);
    expect(JSON.parse(a.stdout)).toEqual(JSON.parse(b.stdout));
    const named = join(dir, "a,b.jsonl");
    writeFileSync(named, JSON.stringify(rec) + "\n");
    const c = cli(["stats", named, "--format", "csv"]);
    expect(c.stdout).toContain(`\n"${named}",0,1,1\n`);
  });
});

// docs/cli.md: one meaning per flag. align alone keeps fast_align's short flags.
const SHORT: Record<string, string> = { "-o": "--output", "-r": "--reference", "-t": "--translations", "-s": "--source", "-l": "--lang", "-c": "--checkpoint", "-q": "--quiet", "-b": "--bootstrap", "-w": "--width" };
const LONG = Object.fromEntries(Object.entries(SHORT).map(([s, l]) => [l, s]));

/** Whether a command resamples with the bootstrap (it has -b/--bootstrap). */
function cmdBootstraps(cmd: Command): boolean {
  return (cmd.options as Option[]).some((o) => o.long === "--bootstrap");
}

function leaves(cmd: Command, path: string[] = []): Array<{ name: string; cmd: Command }> {
  const subs = cmd.commands as Command[];
  if (subs.length === 0) return [{ name: path.join(" "), cmd }];
  return subs.flatMap((c) => leaves(c, [...path, c.name()]));
}

const program = new Command();
registerCommands(program);
const all = leaves(program);

describe("every subcommand follows the flag convention", () => {
  it("covers every subcommand", () => {
    expect(all.map((c) => c.name)).toEqual(expect.arrayContaining(["score", "compare", "eval", "train", "align", "ctxpro identify", "ctxpro score", "muda score", "suite score", "apt", "report", "mine", "pairs"]));
  });

  it.each(all.map((c) => [c.name, c.cmd] as const))("%s", (name, cmd) => {
    const problems: string[] = [];
    for (const o of cmd.options as Option[]) {
      const long = o.long ?? "";
      if (name !== "align" && o.short && SHORT[o.short] && SHORT[o.short] !== long) problems.push(`${o.short} is ${long}, not ${SHORT[o.short]}`);
      if (LONG[long] && o.short && o.short !== LONG[long]) problems.push(`${long} has ${o.short}, not ${LONG[long]}`);
      if (LONG[long] && !o.short && name !== "align") problems.push(`${long} lacks ${LONG[long]}`);
      if (long === "--json" && (o.required || o.optional)) problems.push("--json takes a value (it is a switch)");
      if (long === "--quiet" && (o.required || o.optional)) problems.push("--quiet takes a value");
      if (long === "--translations" && !o.variadic && name !== "muda tag") problems.push("--translations is not variadic (-t A B)");
      if (["--seed", "--output", "--reference", "--source", "--checkpoint", "--lang", "--bootstrap", "--width"].includes(long) && !(o.required || o.optional)) problems.push(`${long} takes no value`);
      if (long === "--allow-empty" && !/^accept empty .* instead of failing: .+/.test(o.description)) problems.push(`--allow-empty says "${o.description}", not "accept empty ... instead of failing: what happens to them"`);
      if (long === "--seed" && (cmdBootstraps(cmd) ? o.defaultValue !== "12345" && name !== "meta-eval" : false)) problems.push(`--seed defaults to ${o.defaultValue}, not 12345`);
      if (["--out", "--out-dir", "--output-dir", "--to-json", "--hyp", "--hyps", "--ref", "--lang-pair"].includes(long)) problems.push(`old flag ${long}`);
    }
    if (name === "align") expect(cmd.helpInformation() + (cmd as unknown as { _helpText?: string })._helpText).toBeDefined();
    expect(problems).toEqual([]);
  });

  // What each command must have (docs/cli.md): the flags its kind of input and output call for.
  const TABLE = ["score", "compare", "eval", "meta-eval", "stats", "suite stats", "suite score", "ctxpro rules", "ctxpro score", "contrastive", "apt", "muda score", "muda cxmi"];
  // Every command that runs a bootstrap (src/stats/bootstrap.ts).
  const BOOTSTRAP = ["score", "compare", "ctxpro score", "suite score", "contrastive", "apt", "muda score", "meta-eval", "report"];
  const SIGNED = ["score", "compare", "eval", "meta-eval", "suite score", "ctxpro score", "contrastive", "apt", "muda score", "muda cxmi"];
  const NEEDS: Record<string, string[]> = {
    "--format": TABLE,
    "--json": [...TABLE, "compare", "pretrain-ontop"],
    // Commands that print progress, a summary or a signature (align's -q is fast_align's p0).
    "--quiet": [...SIGNED, "mine", "pairs", "suite build", "train", "pretrain", "pretrain-ontop", "ensemble", "report", "ctxpro identify", "ctxpro extract", "muda tag"],
    // Everything that resamples, shuffles or draws.
    "--seed": [...BOOTSTRAP, "ctxpro extract", "train", "pretrain", "pretrain-ontop"],
    "--bootstrap": BOOTSTRAP,
    // Decimals of printed scores, as sacrebleu's -w.
    "--width": ["score", "compare", "apt"],
    "--source": ["apt", "muda tag", "muda score"],
    "--reference": ["score", "compare", "apt", "muda score"],
    "--translations": ["score", "compare", "ctxpro score", "muda score", "suite score", "apt"],
    "--lang": ["ctxpro rules", "ctxpro identify", "ctxpro score", "apt", "muda tag", "muda score"],
    "--checkpoint": ["score", "compare", "eval", "meta-eval", "suite score"],
    "--output": all.map((c) => c.name).filter((n) => n !== "muda langs"),
  };

  it.each(Object.entries(NEEDS))("%s is on every command that needs it", (flag, names) => {
    const missing = names.filter((n) => {
      const c = all.find((x) => x.name === n);
      if (!c) return true;
      return !(c.cmd.options as Option[]).some((o) => o.long === flag);
    });
    expect(missing).toEqual([]);
  });

  it("a short flag stands for the same long flag in every command but align (ctxpro identify's window size is --window-size: -w is --width); --pairs always names pair files", () => {
    const seen = new Map<string, Set<string>>();
    for (const { name, cmd } of all) {
      if (name === "align") continue;
      for (const o of cmd.options as Option[]) if (o.short) seen.set(o.short, (seen.get(o.short) ?? new Set()).add(o.long ?? ""));
    }
    const clashes = [...seen].filter(([, l]) => l.size > 1).map(([s, l]) => `${s}: ${[...l].join(", ")}`);
    expect(clashes).toEqual([]);
    for (const { name, cmd } of all) {
      const pairs = (cmd.options as Option[]).find((o) => o.long === "--pairs");
      if (pairs) expect(pairs.description, name).toMatch(/pair file/);
    }
  });

  it("--format takes tsv|csv|json and comes with --json on the same commands", () => {
    for (const { name, cmd } of all) {
      const opts = cmd.options as Option[];
      const format = opts.find((o) => o.long === "--format");
      if (!format) continue;
      expect(format.required, name).toBe(true);
      expect(format.description, name).toMatch(/tsv.*csv.*json/);
      expect(opts.some((o) => o.long === "--json" && !o.required && !o.optional), name).toBe(true);
    }
    const withFormat = all.filter((c) => (c.cmd.options as Option[]).some((o) => o.long === "--format")).map((c) => c.name);
    expect(withFormat.sort()).toEqual([...TABLE].sort());
  });

  it("score's --format also takes mtme (MT-metrics-eval score files); nothing else does", () => {
    for (const { name, cmd } of all) {
      const format = (cmd.options as Option[]).find((o) => o.long === "--format");
      if (format) expect(/mtme/.test(format.description), name).toBe(name === "score");
    }
  });

  it("score's help names its default model (the masked-pronoun model, scored zero-shot), not a ranker", () => {
    const score = all.find((c) => c.name === "score")!.cmd;
    expect(score.description()).toMatch(/masked-pronoun model scored zero-shot/);
    expect(score.description()).not.toMatch(/learned ranker/);
  });

  it("align's help says its short flags are fast_align's", () => {
    if (!built()) return;
    const r = cli(["align", "--help"]);
    expect(r.stdout).toMatch(/short flags are fast_align's own/);
  });
});
