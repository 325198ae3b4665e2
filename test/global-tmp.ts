/**
 * Vitest global setup: every test's temporary files go under one fresh directory (TMPDIR, which os.tmpdir()
 * reads in the forked workers), removed when the run ends, so a test that forgets its own cleanup, or
 * code under test that leaves files behind, leaves nothing in the machine's /tmp.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), "proneval-test-"));
  process.env.TMPDIR = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
