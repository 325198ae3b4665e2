/**
 * Every developer script that is a command (dist/scripts/*.js, built by `tsc -p .`) checks its command line
 * before it does anything (scripts/args.ts, or commander through strictCommand): `--help` prints a usage with
 * every option to stdout and exits 0, an unknown option exits 2 with a message naming it, and neither writes a
 * file (each run has an empty folder of its own as its working directory). The top-of-file comment of each
 * script names every option its usage lists.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { flag, int, many, num, nums, oneOf, parseArgs, str } from "../scripts/args.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const DIST = join(ROOT, "dist", "scripts");

// Modules, not commands: they are imported by scripts (or tests) and read no command line.
const MODULES = new Set([
  "args", // the option reader itself
  "bench-turns", // the measuring loop of bench-pretrain and bench-train
  "fast-align-corpus", // the comparison corpus of compare-fast-align and bench-align-vs-cpp
  "onnx-writer", // the ONNX writer of make-tiny-bert and make-tiny-marian
]);

const scripts = existsSync(DIST)
  ? readdirSync(DIST)
      .filter((f) => f.endsWith(".js"))
      .map((f) => f.slice(0, -3))
      .filter((n) => !MODULES.has(n))
      .sort()
  : [];

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
  /** What the run left in its working directory. */
  files: string[];
}

/** One script run in a fresh empty working directory, without blocking the test worker. */
function run(script: string, args: string[]): Promise<Run> {
  const cwd = mkdtempSync(join(tmpdir(), `script-args-${script}-`));
  return new Promise((done) => {
    const c = spawn(process.execPath, [join(DIST, `${script}.js`), ...args], { cwd, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    c.stdout.on("data", (d) => (stdout += String(d)));
    c.stderr.on("data", (d) => (stderr += String(d)));
    // A script that starts its real work instead of answering is stopped, and fails below.
    const timer = setTimeout(() => c.kill("SIGKILL"), 120_000);
    c.on("close", (status) => {
      clearTimeout(timer);
      const files = readdirSync(cwd);
      rmSync(cwd, { recursive: true, force: true });
      done({ status, stdout, stderr, files });
    });
  });
}

/** Runs the jobs two at a time (the machine is small and shared). */
async function pool<T>(jobs: Array<() => Promise<T>>, width = 2): Promise<T[]> {
  const out: T[] = new Array(jobs.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < jobs.length) {
      const k = next++;
      out[k] = await jobs[k]!();
    }
  };
  await Promise.all(Array.from({ length: width }, worker));
  return out;
}

/** The options a usage lists: the first long name of each option row ("  -o, --out FILE  ..."), --help aside. */
function listedOptions(usage: string): Array<{ long: string; short?: string }> {
  const out: Array<{ long: string; short?: string }> = [];
  for (const line of usage.split("\n")) {
    const m = /^ {2}(?:-([A-Za-z]), )?(--[a-z0-9][a-z0-9-]*)/.exec(line);
    if (m && m[2] !== "--help") out.push({ long: m[2]!, short: m[1] });
  }
  return out;
}

/** The comment at the top of a script's source, up to its first import. */
function headerComment(script: string): string {
  const text = readFileSync(join(ROOT, "scripts", `${script}.ts`), "utf8");
  const i = text.search(/^import /m);
  return i >= 0 ? text.slice(0, i) : text;
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

describe("developer scripts: --help and unknown options", () => {
  const help = new Map<string, Run>();
  const unknown = new Map<string, Run>();

  beforeAll(async () => {
    const jobs = scripts.flatMap((s) => [
      async () => help.set(s, await run(s, ["--help"])),
      async () => unknown.set(s, await run(s, ["--no-such-option"])),
    ]);
    await pool(jobs, 2);
  }, 900_000);

  it("finds the built scripts", () => {
    expect(scripts.length).toBeGreaterThan(40);
    for (const m of MODULES) expect(existsSync(join(DIST, `${m}.js`)), `${m}.js`).toBe(true);
  });

  it.each(scripts)("%s --help: usage on stdout, exit 0, no file written", (s) => {
    const r = help.get(s)!;
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/usage/i);
    expect(r.files).toEqual([]);
  });

  it.each(scripts)("%s --no-such-option: exit 2 naming it, no output, no file written", (s) => {
    const r = unknown.get(s)!;
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toContain("--no-such-option");
    expect(r.stderr).toMatch(new RegExp(`^${escape(s)}: `));
    expect(r.stdout).toBe("");
    expect(r.files).toEqual([]);
  });

  it.each(scripts)("%s: the top-of-file comment names every option of the usage", (s) => {
    const header = headerComment(s);
    const missing = listedOptions(help.get(s)!.stdout).filter(
      (o) => !new RegExp(`${escape(o.long)}(?![a-z0-9-])`).test(header) && !(o.short && new RegExp(`(^|[^\\w-])-${o.short}(?![\\w-])`).test(header)),
    );
    expect(missing.map((o) => o.long)).toEqual([]);
  });
});

describe("scripts/args.ts", () => {
  const spec = (argv: string[]) =>
    parseArgs({
      name: "demo",
      summary: "A demo.",
      options: {
        steps: int("steps", 6),
        rate: num("rate", undefined),
        workers: nums("threads", "1,2"),
        out: str("output", undefined, { short: "o", value: "FILE", required: true }),
        dryRun: flag("do nothing"),
        configs: many("configurations"),
        mode: oneOf("how", ["fast", "slow"], "fast"),
      },
      positionals: [{ name: "FILE", description: "input" }, { name: "MORE", description: "more", optional: true, variadic: true }],
      argv,
    });

  /** What a parse ends with: its values, or the exit status and what it wrote. */
  function attempt(argv: string[]): { value?: ReturnType<typeof spec>; status?: number; stdout: string; stderr: string } {
    let stdout = "";
    let stderr = "";
    vi.spyOn(process.stdout, "write").mockImplementation((s) => ((stdout += String(s)), true));
    vi.spyOn(process.stderr, "write").mockImplementation((s) => ((stderr += String(s)), true));
    vi.spyOn(process, "exit").mockImplementation((code) => {
      throw Object.assign(new Error("exit"), { status: code });
    });
    try {
      return { value: spec(argv), stdout, stderr };
    } catch (e) {
      return { status: (e as { status: number }).status, stdout, stderr };
    } finally {
      vi.restoreAllMocks();
    }
  }
  afterEach(() => vi.restoreAllMocks());

  it("returns typed values, defaults, positionals, short and joined forms", () => {
    const r = attempt(["in.txt", "-o", "x.json", "--steps=8", "--workers", "1,2,4", "--dry-run", "--configs", "a=b:", "c=d:", "--rate", "-0.5", "--mode", "slow", "more.txt"]);
    expect(r.status).toBeUndefined();
    expect(r.value!.opts).toEqual({ steps: 8, rate: -0.5, workers: [1, 2, 4], out: "x.json", dryRun: true, configs: ["a=b:", "c=d:"], mode: "slow" });
    expect(r.value!.args).toEqual(["in.txt", "more.txt"]);
    const d = attempt(["in.txt", "--out", "x"]);
    expect(d.value!.opts).toEqual({ steps: 6, rate: undefined, workers: [1, 2], out: "x", dryRun: false, configs: [], mode: "fast" });
  });

  it("prints the usage with every option on --help and exits 0, before checking anything else", () => {
    const r = attempt(["--no-such-option", "--help"]);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^usage: node dist\/scripts\/demo\.js -o FILE \[options\] FILE \[MORE \.\.\.\]\n/);
    for (const o of ["--steps N", "--rate N", "--workers N,N,...", "-o, --out FILE", "--dry-run", "--configs", "--mode fast|slow", "-h, --help"]) expect(r.stdout).toContain(o);
    expect(r.stdout).toContain("(default: 6)");
    expect(r.stdout).toContain("(required)");
    expect(r.stderr).toBe("");
  });

  it.each([
    [["in", "-o", "x", "--step", "8"], "unknown option '--step'"],
    [["in", "-o", "x", "--steps"], "--steps needs a value"],
    [["in", "-o", "x", "--steps", "--dry-run"], "--steps needs a value"],
    [["in", "-o", "x", "--steps", "eight"], "--steps must be a number, got 'eight'"],
    [["in", "-o", "x", "--steps", "2.5"], "--steps must be an integer, got '2.5'"],
    [["in", "-o", "x", "--workers", "1,,2"], "--workers must be a comma-separated list of numbers, got '1,,2'"],
    [["in", "-o", "x", "--steps", "1", "--steps", "2"], "--steps is given more than once"],
    [["in", "-o", "x", "--dry-run=yes"], "--dry-run takes no value"],
    [["in", "-o", "x", "--mode", "medium"], "--mode must be fast or slow, got 'medium'"],
    [["in"], "--out is required"],
    [["-o", "x"], "missing FILE"],
  ])("%j: exits 2 with the script's name, what is wrong and the usage line", (argv, message) => {
    const r = attempt(argv);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(`demo: ${message}\nusage: node dist/scripts/demo.js -o FILE [options] FILE [MORE ...]\n`);
    expect(r.stdout).toBe("");
  });

  it("refuses a surplus positional where none is variadic, and takes what follows -- as positionals", () => {
    const p = (argv: string[]) => parseArgs({ name: "one", summary: "s", options: { list: flag("l") }, positionals: [{ name: "DIR", description: "d", optional: true }], argv });
    let stderr = "";
    vi.spyOn(process.stderr, "write").mockImplementation((s) => ((stderr += String(s)), true));
    vi.spyOn(process, "exit").mockImplementation((code) => {
      throw Object.assign(new Error("exit"), { status: code });
    });
    expect(() => p(["a", "b"])).toThrow("exit");
    expect(stderr).toContain("one: unexpected argument 'b'");
    vi.restoreAllMocks();
    expect(p(["--", "--list"]).args).toEqual(["--list"]);
    expect(p(["--list"]).opts.list).toBe(true);
  });
});
