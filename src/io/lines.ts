import { createReadStream, readFileSync, existsSync, statSync, openSync, readSync, closeSync } from "node:fs";
import { createGunzip, gunzipSync } from "node:zlib";
import { Readable } from "node:stream";
import { InputError } from "./errors.js";
import { isStdin, readStdinBytes, readStreamBytes } from "./stdin.js";

const GZIP_MAGIC = [0x1f, 0x8b];

function isGzipBytes(buf: Uint8Array): boolean {
  return buf.length >= 2 && buf[0] === GZIP_MAGIC[0] && buf[1] === GZIP_MAGIC[1];
}

export function checkFile(path: string): void {
  if (isStdin(path)) return;
  if (!existsSync(path)) throw new InputError("no such file", path);
  if (statSync(path).isDirectory()) throw new InputError("is a directory, expected a file", path);
}

/** Reads a whole file, gunzipping when it starts with the gzip magic (whatever its name). */
export function readBytes(path: string): Buffer {
  checkFile(path);
  let raw: Buffer;
  try {
    raw = rawBytes(path);
  } catch (e) {
    throw new InputError(`cannot read (${(e as Error).message})`, path);
  }
  if (!isGzipBytes(raw)) return raw;
  try {
    return gunzipSync(raw);
  } catch (e) {
    throw new InputError(`corrupt gzip data (${(e as Error).message})`, path);
  }
}

const fatalDecoder = new TextDecoder("utf-8", { fatal: true });

function decodeLine(bytes: Uint8Array, path: string, lineNo: number): string {
  try {
    let s = fatalDecoder.decode(bytes);
    if (s.endsWith("\r")) s = s.slice(0, -1);
    if (lineNo === 1 && s.charCodeAt(0) === 0xfeff) s = s.slice(1);
    return s;
  } catch {
    throw new InputError("invalid UTF-8", path, lineNo);
  }
}

/** Reads a whole text file (plain or gzip) as a string, rejecting invalid UTF-8 with the line number. */
export function readText(path: string): string {
  const bytes = readBytes(path);
  try {
    const s = fatalDecoder.decode(bytes);
    return s.charCodeAt(0) === 0xfeff ? s.slice(1) : s;
  } catch {
    // Find the offending line for the message.
    readLinesFromBytes(bytes, path);
    throw new InputError("invalid UTF-8", path);
  }
}

function readLinesFromBytes(bytes: Uint8Array, path: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === 0x0a) {
      out.push(decodeLine(bytes.subarray(start, i), path, out.length + 1));
      start = i + 1;
    }
  }
  if (start < bytes.length) out.push(decodeLine(bytes.subarray(start), path, out.length + 1));
  return out;
}

/** All lines of a plain or gzipped file; a final newline does not make an extra empty line. */
export function readLines(path: string): string[] {
  return readLinesFromBytes(readBytes(path), path);
}

/** Streams the lines of a plain or gzipped file, decoding strictly (invalid UTF-8 names the line). */
export async function* streamLines(path: string): AsyncGenerator<string> {
  const stream = openByteStream(path);
  let carry: Buffer = Buffer.alloc(0);
  let lineNo = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      let buf = carry.length ? Buffer.concat([carry, chunk]) : chunk;
      let start = 0;
      for (let i = buf.indexOf(0x0a); i !== -1; i = buf.indexOf(0x0a, start)) {
        yield decodeLine(buf.subarray(start, i), path, ++lineNo);
        start = i + 1;
      }
      carry = Buffer.from(buf.subarray(start));
    }
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw new InputError(`cannot read (${(e as Error).message})`, path);
  }
  if (carry.length) yield decodeLine(carry, path, ++lineNo);
}

/** The raw bytes of a path: standard input for `-`; pipes and devices are read to the end without seeking. */
function rawBytes(path: string): Buffer {
  if (isStdin(path)) return readStdinBytes();
  if (statSync(path).isFile()) return readFileSync(path);
  return readStreamBytes(path);
}

/**
 * Bytes of a plain or gzipped file (or `-`, standard input) as a stream, gunzipped when it starts
 * with the gzip magic. Only regular files are peeked at and streamed; stdin, FIFOs and /dev/stdin
 * (which cannot seek) are read whole first.
 */
export function openByteStream(path: string): Readable {
  checkFile(path);
  let raw: Readable;
  let gz: boolean;
  try {
    if (!isStdin(path) && statSync(path).isFile()) {
      const head = Buffer.alloc(2);
      const fd = openSync(path, "r");
      try {
        gz = readSync(fd, head, 0, 2, 0) === 2 && isGzipBytes(head);
      } finally {
        closeSync(fd);
      }
      raw = createReadStream(path);
    } else {
      const bytes = rawBytes(path);
      gz = isGzipBytes(bytes);
      raw = Readable.from([bytes]);
    }
  } catch (e) {
    throw new InputError(`cannot read (${(e as Error).message})`, path);
  }
  return gz ? raw.pipe(createGunzip()) : raw;
}
