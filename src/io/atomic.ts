import {
  readFileSync,
  renameSync,
  writeFileSync,
  mkdirSync,
  openSync,
  writeSync,
  closeSync,
  unlinkSync,
  existsSync,
  fsyncSync,
  lstatSync,
  statSync,
  realpathSync,
  readlinkSync,
  accessSync,
  constants,
} from "node:fs";
import { dirname, basename, join, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { InputError, StdoutClosedError } from "./errors.js";

/** `-` as an output path: standard output. */
export const STDOUT = "-";

/**
 * How an output path is written. Only a regular file (or a path that does not exist yet) is
 * replaced by rename; a FIFO, device or socket is written through, so a reader of a named pipe
 * gets the data and /dev/null stays a device; a symlink is followed and its target written.
 */
export type OutputTarget = { kind: "stdout" } | { kind: "through"; path: string } | { kind: "replace"; path: string };

function ioCode(e: unknown): string | undefined {
  return (e as NodeJS.ErrnoException)?.code;
}

const REASONS: Record<string, string> = {
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  ENOSPC: "no space left on the device",
  EDQUOT: "disk quota exceeded",
  EROFS: "read-only file system",
  ENOTDIR: "a parent is not a directory",
  EISDIR: "is a directory",
  ENOENT: "the parent directory does not exist",
  EIO: "input/output error",
  EFBIG: "file too large",
  EPIPE: "the reader went away",
  EEXIST: "a parent is not a directory",
};

/** A write failure as the user's error: their path, a plain reason, exit 2 (not "internal error"). */
export function writeError(userPath: string, e: unknown): InputError {
  if (e instanceof InputError) return e;
  const code = ioCode(e);
  if (code === "EPIPE" && userPath === STDOUT) return new StdoutClosedError();
  const reason = code ? `${REASONS[code] ?? (e as Error).message} (${code})` : String((e as Error)?.message ?? e);
  return new InputError(`cannot write: ${reason}`, userPath === STDOUT ? "<stdout>" : userPath);
}

/** Follows symlinks (also dangling ones, whose target is then created) to the path really written. */
function followLinks(path: string): string {
  let p = path;
  for (let hops = 0; hops < 40; hops++) {
    let st;
    try {
      st = lstatSync(p);
    } catch {
      return p;
    }
    if (!st.isSymbolicLink()) return p;
    try {
      return realpathSync(p);
    } catch {
      p = resolve(dirname(p), readlinkSync(p));
    }
  }
  throw new InputError("too many levels of symbolic links", path);
}

/** Names of this process's standard output (as shells and users spell it). */
const STDOUT_NAMES = new Set(["/dev/stdout", "/dev/fd/1", "/proc/self/fd/1", `/proc/${process.pid}/fd/1`]);

/** What writing `path` means (see OutputTarget); throws InputError for a directory. */
export function outputTarget(path: string): OutputTarget {
  // /dev/stdout into a pipe is no file to replace: its link points at "pipe:[N]"; write standard output itself.
  if (path === STDOUT || STDOUT_NAMES.has(path)) return { kind: "stdout" };
  const real = followLinks(path);
  let st;
  try {
    st = statSync(real);
  } catch {
    return { kind: "replace", path: real };
  }
  if (st.isDirectory()) throw new InputError("is a directory, expected a file to write", path);
  return st.isFile() ? { kind: "replace", path: real } : { kind: "through", path: real };
}

/**
 * Checks before any work that `path` can be written: `-`, a FIFO/device, or a file whose parent
 * exists and is a writable directory. Throws InputError naming the user's path.
 */
export function checkOutputFile(path: string): void {
  const t = outputTarget(path);
  if (t.kind === "stdout") return;
  if (t.kind === "through") {
    try {
      accessSync(t.path, constants.W_OK);
    } catch (e) {
      throw writeError(path, e);
    }
    return;
  }
  checkParentDir(path, t.path);
  if (existsSync(t.path)) {
    try {
      accessSync(t.path, constants.W_OK);
    } catch (e) {
      throw writeError(path, e);
    }
  }
}

function checkParentDir(userPath: string, real: string): void {
  const parent = dirname(real) || ".";
  let st;
  try {
    st = statSync(parent);
  } catch (e) {
    const code = ioCode(e);
    throw new InputError(code === "ENOTDIR" ? `cannot write: ${dirname(userPath)} is not a directory` : `cannot write: directory ${dirname(userPath)} does not exist`, userPath);
  }
  if (!st.isDirectory()) throw new InputError(`cannot write: ${dirname(userPath)} is not a directory`, userPath);
  try {
    accessSync(parent, constants.W_OK);
  } catch {
    throw new InputError(`cannot write: directory ${dirname(userPath)} is not writable`, userPath);
  }
}

/**
 * Checks before any work that `dir` can be an output directory: an existing directory, or a new one
 * whose parent exists. Refuses an existing non-empty directory unless `overwrite` (a trained model
 * or run is not replaced by accident: `--resume` or `--force`).
 */
export function checkOutputDir(dir: string, opts: { overwrite?: boolean; what?: string; flags?: string } = {}): void {
  // `-` means stdout for a file; a directory of outputs cannot go there (and must not become a directory named "-").
  if (dir === STDOUT) throw new InputError("this output is a directory (several files), so '-' (stdout) cannot take it; give a directory");
  const real = followLinks(dir);
  let st;
  try {
    st = statSync(real);
  } catch {
    checkParentDir(dir, resolve(real));
    return;
  }
  if (!st.isDirectory()) throw new InputError("exists and is not a directory", dir);
  try {
    accessSync(real, constants.W_OK);
  } catch {
    throw new InputError("cannot write: directory is not writable", dir);
  }
  if (opts.overwrite === false && existsSync(join(real, "config.json"))) {
    throw new InputError(`already holds ${opts.what ?? "a trained model"}; give ${opts.flags ?? "--force"} to overwrite it, or another directory`, dir);
  }
}

// Temporary files alive right now: removed if the process is interrupted (SIGINT/SIGTERM).
const liveTemps = new Set<string>();
let handlersInstalled = false;

function onSignal(signal: NodeJS.Signals): void {
  for (const t of liveTemps) {
    try {
      unlinkSync(t);
    } catch {
      /* already gone */
    }
  }
  liveTemps.clear();
  process.stderr.write(`proneval: interrupted (${signal}); no output written\n`);
  process.exit(signal === "SIGINT" ? 130 : 143);
}

function track(tmp: string): void {
  liveTemps.add(tmp);
  if (!handlersInstalled) {
    handlersInstalled = true;
    process.on("SIGINT", onSignal);
    process.on("SIGTERM", onSignal);
  }
}

function untrack(tmp: string): void {
  liveTemps.delete(tmp);
  if (liveTemps.size === 0 && handlersInstalled) {
    handlersInstalled = false;
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
}

function removeTemp(tmp: string): void {
  untrack(tmp);
  try {
    unlinkSync(tmp);
  } catch {
    /* never created or already gone */
  }
}

function tempPath(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now().toString(36)}.${Math.random().toString(36).slice(2, 8)}.tmp`);
}

/** write(2) until everything is out; a non-blocking stdout pipe may answer EAGAIN while its reader catches up. */
export function writeAll(fd: number, data: Uint8Array): void {
  let off = 0;
  while (off < data.length) {
    try {
      off += writeSync(fd, data, off, data.length - off);
    } catch (e) {
      if (ioCode(e) !== "EAGAIN") throw e;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
    }
  }
}

function toBytes(data: string | Uint8Array): Uint8Array {
  return typeof data === "string" ? Buffer.from(data) : data;
}

/** Writes data straight to an open-able target (stdout, FIFO, device): nothing to rename. */
function writeThrough(userPath: string, t: OutputTarget, data: Uint8Array): void {
  try {
    if (t.kind === "stdout") return writeAll(1, data);
    const fd = openSync((t as { path: string }).path, "w");
    try {
      writeAll(fd, data);
    } finally {
      closeSync(fd);
    }
  } catch (e) {
    throw writeError(userPath, e);
  }
}

function payloadFor(path: string, data: string | Uint8Array): Uint8Array {
  return path.endsWith(".gz") ? gzipSync(toBytes(data)) : toBytes(data);
}

/**
 * Writes the whole file at once. A regular file is written to a temporary sibling and renamed into
 * place, so readers never see half a file; `-` is stdout; FIFOs and devices are written through;
 * symlinks are followed. Failures are InputErrors naming `path`, and leave no temporary file.
 * Missing parent directories are created (library callers write into their own layouts; the CLI
 * checks user-given paths with checkOutputFile before the work starts).
 */
export function writeFileAtomic(path: string, data: string | Uint8Array): void {
  writeFilesAtomic([[path, data]]);
}

/**
 * Writes several files all or none: every temporary file is written and synced first, then all are
 * renamed in one synchronous step (no signal handler can run in between).
 */
export function writeFilesAtomic(files: Array<[string, string | Uint8Array]>): void {
  const staged: Array<{ user: string; tmp: string; path: string }> = [];
  const through: Array<[string, OutputTarget, Uint8Array]> = [];
  try {
    for (const [user, data] of files) {
      const t = outputTarget(user);
      if (t.kind !== "replace") {
        through.push([user, t, t.kind === "stdout" ? toBytes(data) : payloadFor(t.path, data)]);
        continue;
      }
      try {
        mkdirSync(dirname(t.path) || ".", { recursive: true });
      } catch (e) {
        throw writeError(user, e);
      }
      const tmp = tempPath(t.path);
      track(tmp);
      staged.push({ user, tmp, path: t.path });
      try {
        const fd = openSync(tmp, "w");
        try {
          writeAll(fd, payloadFor(t.path, data));
          fsyncSync(fd);
        } finally {
          closeSync(fd);
        }
      } catch (e) {
        throw writeError(user, e);
      }
    }
    for (const s of staged) {
      try {
        renameSync(s.tmp, s.path);
      } catch (e) {
        throw writeError(s.user, e);
      }
      untrack(s.tmp);
    }
  } catch (e) {
    for (const s of staged) removeTemp(s.tmp);
    throw e;
  }
  for (const [user, t, data] of through) writeThrough(user, t, data);
}

/**
 * Incremental writer for large outputs: lines go to a temporary file, which is renamed into
 * place by commit() and removed by abort() (or on SIGINT/SIGTERM). `-`, FIFOs and devices are
 * written through instead (gzip applies when the name ends in .gz). Use with try/catch so
 * failures leave nothing behind.
 */
export class AtomicLineWriter {
  private readonly target: OutputTarget;
  private readonly tmp: string | undefined;
  private fd: number;
  private buf: string[] = [];
  private size = 0;
  private done = false;
  private staged = false;

  constructor(readonly path: string) {
    this.target = outputTarget(path);
    try {
      if (this.target.kind === "stdout") {
        this.fd = 1;
      } else if (this.target.kind === "through" || this.gzipThrough()) {
        // Gzipped pass-through output is buffered in memory and compressed at commit().
        this.fd = this.target.kind === "through" && !this.gzipThrough() ? openSync(this.target.path, "w") : -1;
      } else {
        mkdirSync(dirname(this.target.path) || ".", { recursive: true });
        this.tmp = tempPath(this.target.path);
        track(this.tmp);
        this.fd = openSync(this.tmp, "w");
      }
    } catch (e) {
      if (this.tmp) removeTemp(this.tmp);
      throw writeError(path, e);
    }
  }

  private gzipThrough(): boolean {
    return this.target.kind === "through" && this.target.path.endsWith(".gz");
  }

  private memory: Buffer[] = [];

  write(line: string): void {
    this.buf.push(line, "\n");
    this.size += line.length + 1;
    if (this.size > 1 << 20) this.flush();
  }

  private flush(): void {
    if (this.buf.length) {
      const bytes = Buffer.from(this.buf.join(""));
      if (this.fd === -1) this.memory.push(bytes);
      else {
        try {
          writeAll(this.fd, bytes);
        } catch (e) {
          throw writeError(this.path, e);
        }
      }
    }
    this.buf = [];
    this.size = 0;
  }

  /** First half of commit(): everything written, synced and compressed, not yet renamed. */
  stage(): void {
    if (this.done || this.staged) return;
    this.flush();
    try {
      if (this.fd === -1) {
        // gzip pass-through
      } else if (this.tmp) {
        fsyncSync(this.fd);
        closeSync(this.fd);
        this.fd = -2;
        if (this.target.kind === "replace" && this.target.path.endsWith(".gz")) writeFileSync(this.tmp, gzipSync(readFileSync(this.tmp)));
      }
    } catch (e) {
      throw writeError(this.path, e);
    }
    this.staged = true;
  }

  commit(): void {
    if (this.done) return;
    this.stage();
    this.done = true;
    try {
      if (this.tmp) {
        renameSync(this.tmp, (this.target as { path: string }).path);
        untrack(this.tmp);
      } else if (this.fd === -1) {
        writeThrough(this.path, this.target, gzipSync(Buffer.concat(this.memory)));
      } else if (this.fd !== 1) closeSync(this.fd);
    } catch (e) {
      if (this.tmp) removeTemp(this.tmp);
      throw writeError(this.path, e);
    }
  }

  abort(): void {
    if (this.done) return;
    this.done = true;
    if (this.fd >= 0 && this.fd !== 1) {
      try {
        closeSync(this.fd);
      } catch {
        /* already closed */
      }
    }
    if (this.tmp) removeTemp(this.tmp);
  }
}

/** Commits several writers all or none: all are staged (the step that can fail) before any is renamed. */
export function commitAll(writers: AtomicLineWriter[]): void {
  for (const w of writers) w.stage();
  for (const w of writers) w.commit();
}
