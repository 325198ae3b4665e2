/**
 * Every subcommand, table-driven over tiny inputs (test/cli-fixtures.ts): a write error on stdout is one
 * line naming <stdout> with exit 2, an output that names an input is refused before any work.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
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
