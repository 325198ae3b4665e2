import { readSync } from "node:fs";

/** `-` as an input path: standard input (read once, then kept, so a reader may look at it twice). */
export const STDIN = "-";

export function isStdin(path: string): boolean {
  return path === STDIN;
}

/** How error messages name standard input. */
export const STDIN_LABEL = "<stdin>";

let cached: Buffer | undefined;

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * All of standard input as bytes. Read with read(2) in a loop rather than readFileSync(0), which
 * fails on a non-blocking pipe (EAGAIN) and on /dev/stdin opened as a pipe (ESPIPE on seeking).
 */
export function readStdinBytes(): Buffer {
  if (cached) return cached;
  cached = readAllFd(0);
  return cached;
}

/** Everything readable from an open descriptor (a pipe, FIFO or device: no seeking). */
export function readAllFd(fd: number): Buffer {
  const parts: Buffer[] = [];
  const chunk = Buffer.alloc(1 << 16);
  for (;;) {
    let n: number;
    try {
      n = readSync(fd, chunk, 0, chunk.length, null);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === "EAGAIN") {
        sleep(2);
        continue;
      }
      if (code === "EOF") break;
      throw e;
    }
    if (n === 0) break;
    parts.push(Buffer.from(chunk.subarray(0, n)));
  }
  return Buffer.concat(parts);
}

/** Tests only: forget what was read. */
export function setStdinForTests(bytes: Buffer | undefined): void {
  cached = bytes;
}

/** How tables name an input: `stdin` for `-` (as `score` names a system read from stdin), else the path. */
export function inputName(path: string): string {
  return isStdin(path) ? "stdin" : path;
}
