import { closeSync, fstatSync, openSync, readSync, statSync } from "node:fs";

/** `-` as an input path: standard input (read once, then kept, so a reader may look at it twice). */
export const STDIN = "-";

export function isStdin(path: string): boolean {
  return path === STDIN;
}

/** How error messages name standard input. */
export const STDIN_LABEL = "<stdin>";

let testStdin: Buffer | undefined;

/**
 * What was read from a pipe, FIFO, device or standard input, by the stream's device and inode: such an
 * input cannot be read twice (a FIFO's second open waits for a writer that is gone, a pipe is drained),
 * so format detection and the reader that follows share one read.
 */
const streamCache = new Map<string, Buffer>();

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * All of standard input as bytes. Read with read(2) in a loop rather than readFileSync(0), which
 * fails on a non-blocking pipe (EAGAIN) and on /dev/stdin opened as a pipe (ESPIPE on seeking).
 */
export function readStdinBytes(): Buffer {
  if (testStdin) return testStdin;
  const st = fstatSync(0);
  const key = `${st.dev}:${st.ino}`;
  let bytes = streamCache.get(key);
  if (!bytes) streamCache.set(key, (bytes = readAllFd(0)));
  return bytes;
}

/** All bytes of a path that is not a regular file (named pipe, /dev/fd/N, /dev/stdin, device), read once per process. */
export function readStreamBytes(path: string): Buffer {
  const st = statSync(path);
  const key = `${st.dev}:${st.ino}`;
  let bytes = streamCache.get(key);
  if (!bytes) {
    const fd = openSync(path, "r");
    try {
      bytes = readAllFd(fd);
    } finally {
      closeSync(fd);
    }
    streamCache.set(key, bytes);
  }
  return bytes;
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
  testStdin = bytes;
  streamCache.clear();
}

/** How tables name an input: `stdin` for `-` (as `score` names a system read from stdin), else the path. */
export function inputName(path: string): string {
  return isStdin(path) ? "stdin" : path;
}
