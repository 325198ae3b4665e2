/**
 * Corpus-scale identify: items streamed to their files as they are found, shard outputs that record the run
 * they belong to (`shard.json`), and the merge of a run's shards into the files one run over the whole input
 * writes, byte for byte.
 */
import { createReadStream, existsSync, rmdirSync, statSync } from "node:fs";
import { createHash } from "node:crypto";
import { basename, dirname, join } from "node:path";
import { InputError } from "../io/errors.js";
import { AtomicLineWriter } from "../io/atomic.js";
import { readBytes, readText } from "../io/lines.js";
import { VERSION } from "../version.js";
import type { CtxproItem } from "./items.js";
import type { ShardSpec } from "./identify.js";

/**
 * Writes one JSON array of items incrementally, byte for byte as `JSON.stringify(items, null, 2) + "\n"`
 * (what identify writes for a whole list), holding one item at a time. The file appears on commit().
 */
export class ItemsFileWriter {
  private readonly out: AtomicLineWriter;
  private pending: string | undefined;
  count = 0;

  constructor(readonly path: string) {
    this.out = new AtomicLineWriter(path);
  }

  add(item: CtxproItem): void {
    if (this.pending === undefined) this.out.write("[");
    else this.out.write(this.pending + ",");
    // An element of a 2-space-indented array: its own lines, indented once more (strings hold no raw newline).
    this.pending = "  " + JSON.stringify(item, null, 2).replace(/\n/g, "\n  ");
    this.count++;
  }

  /** Everything written and synced, not yet renamed into place. */
  stage(): void {
    if (this.pending === undefined) this.out.write("[]");
    else this.out.write(this.pending + "\n]");
    this.pending = undefined;
    this.out.stage();
  }

  commit(): void {
    this.out.commit();
  }

  abort(): void {
    this.out.abort();
  }
}

/** Writers for several files that appear together or not at all. */
export class ItemsFilesWriter {
  readonly writers: ItemsFileWriter[];
  private extra: AtomicLineWriter[] = [];
  /** Folders the writers create, removed again on abort (when still empty). */
  private readonly created: string[];

  constructor(paths: string[]) {
    this.created = [...new Set(paths.map((p) => dirname(p)))].filter((d) => !existsSync(d));
    this.writers = [];
    try {
      for (const p of paths) this.writers.push(new ItemsFileWriter(p));
    } catch (e) {
      this.abort();
      throw e;
    }
  }

  /** Adds a small text file (e.g. the shard manifest) written with the others. */
  addText(path: string, text: string): void {
    const w = new AtomicLineWriter(path);
    this.extra.push(w);
    w.write(text.replace(/\n$/, ""));
  }

  commit(): void {
    try {
      for (const w of this.writers) w.stage();
      for (const w of this.extra) w.stage();
    } catch (e) {
      this.abort();
      throw e;
    }
    for (const w of this.writers) w.commit();
    for (const w of this.extra) w.commit();
  }

  abort(): void {
    for (const w of this.writers) w.abort();
    for (const w of this.extra) w.abort();
    for (const d of this.created) {
      try {
        rmdirSync(d);
      } catch {
        /* not empty or already gone: leave it */
      }
    }
  }
}

/** sha256 of a file's bytes as stored, streamed. */
export async function fileSha256(path: string): Promise<string> {
  const h = createHash("sha256");
  try {
    for await (const chunk of createReadStream(path)) h.update(chunk as Buffer);
  } catch (e) {
    throw new InputError(`cannot read (${(e as Error).message})`, path);
  }
  return h.digest("hex");
}

/** What makes two identify runs the same run: equal `run` objects give equal items. */
export interface RunIdentity {
  proneval: string;
  lang: string;
  /** Input files by name, size and content digest (the paths may differ between machines). */
  inputs: Array<{ name: string; bytes: number; sha256: string }>;
  /** Segment pairs and documents of the whole input. */
  pairs: number;
  docs: number;
  rules: string[];
  /** The aligner: the digest of a saved one (`--aligner`), or how it was trained. */
  aligner: string;
  /** Every option that changes the items (window, inflection mode, thresholds, ...). */
  options: Record<string, unknown>;
}

export const SHARD_MANIFEST = "shard.json";
const MANIFEST_FORMAT = "proneval-ctxpro-shard-1";

/** `shard.json` of a shard's output folder. */
export interface ShardManifest {
  format: string;
  shard: string;
  run: RunIdentity;
  /** This shard's documents and segment pairs, first and last document. */
  docs: number;
  pairs: number;
  firstDoc?: string;
  lastDoc?: string;
  /** Output files (names inside the folder) with their item counts, in rule-set order. */
  files: Array<{ name: string; items: number }>;
}

export function shardManifest(shard: ShardSpec, run: RunIdentity, part: Pick<ShardManifest, "docs" | "pairs" | "firstDoc" | "lastDoc" | "files">): ShardManifest {
  return { format: MANIFEST_FORMAT, shard: `${shard.index}/${shard.count}`, run, ...part };
}

function readManifest(dir: string): { path: string; m: ShardManifest; index: number; count: number } {
  const path = join(dir, SHARD_MANIFEST);
  if (!existsSync(path)) throw new InputError(`no ${SHARD_MANIFEST}: not an output folder of 'ctxpro identify --shard I/N'`, dir);
  let m: ShardManifest;
  try {
    m = JSON.parse(readText(path)) as ShardManifest;
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw new InputError("not a shard manifest (invalid JSON)", path);
  }
  if (m?.format !== MANIFEST_FORMAT) throw new InputError(`not a shard manifest of this proneval (format '${m?.format}', expected '${MANIFEST_FORMAT}')`, path);
  const sm = /^(\d+)\/(\d+)$/.exec(m.shard ?? "");
  if (!sm || !Array.isArray(m.files) || !m.run) throw new InputError("corrupt shard manifest (shard, files or run missing)", path);
  return { path, m, index: Number(sm[1]), count: Number(sm[2]) };
}

/** Top-level keys of two run identities that differ. */
function differences(a: RunIdentity, b: RunIdentity): string[] {
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
  return keys.filter((k) => JSON.stringify((a as unknown as Record<string, unknown>)[k]) !== JSON.stringify((b as unknown as Record<string, unknown>)[k]));
}

export interface MergeResult {
  files: Array<{ path: string; items: number }>;
  shards: number;
  pairs: number;
  docs: number;
}

/**
 * Merges the output folders of every shard of one run (any order on the command line) into `outDir`: per
 * output file, the shards' items in shard order, written as one run writes them. Refused, naming the folder or
 * file, before anything is written: a folder that is no shard output, shards of different runs (other input,
 * options, aligner or proneval version) or of different shard counts, a shard given twice or missing, a file
 * whose item count differs from its manifest's.
 */
export function mergeShards(dirs: string[], outDir: string): MergeResult {
  if (dirs.length === 0) throw new InputError("merge needs the shard folders of one run");
  // Writing into a shard folder would replace that shard's files under its manifest.
  const id = (p: string) => {
    try {
      const st = statSync(p);
      return `${st.dev}:${st.ino}`;
    } catch {
      return undefined;
    }
  };
  const out = id(outDir);
  const clash = out && dirs.find((d) => id(d) === out);
  if (clash) throw new InputError(`--output is the shard folder ${clash}; its files would be replaced: write the merge elsewhere`, outDir);
  const shards = dirs.map((d) => ({ dir: d, ...readManifest(d) }));
  const first = shards[0]!;
  for (const s of shards.slice(1)) {
    if (s.count !== first.count) throw new InputError(`shard ${s.m.shard} is one of ${s.count} shards, but ${first.path} is shard ${first.m.shard}: not the same run`, s.path);
    const diff = differences(first.m.run, s.m.run);
    if (diff.length) throw new InputError(`from a different run than ${first.path} (they differ in: ${diff.join(", ")}); merge the shards of one run only`, s.path);
    const names = (x: ShardManifest) => x.files.map((f) => f.name).join(" ");
    if (names(s.m) !== names(first.m)) throw new InputError(`its files (${names(s.m)}) are not those of ${first.path} (${names(first.m)})`, s.path);
  }
  const byIndex = new Map<number, (typeof shards)[number]>();
  for (const s of shards) {
    const dup = byIndex.get(s.index);
    if (dup) throw new InputError(`shard ${s.m.shard} is given twice (also ${dup.path})`, s.path);
    byIndex.set(s.index, s);
  }
  const missing = Array.from({ length: first.count }, (_, k) => k + 1).filter((k) => !byIndex.has(k));
  if (missing.length) {
    throw new InputError(`shard${missing.length > 1 ? "s" : ""} ${missing.map((k) => `${k}/${first.count}`).join(", ")} of this run ${missing.length > 1 ? "are" : "is"} missing`, first.path);
  }
  const ordered = Array.from({ length: first.count }, (_, k) => byIndex.get(k + 1)!);
  const pairs = ordered.reduce((a, s) => a + s.m.pairs, 0);
  if (pairs !== first.m.run.pairs) {
    throw new InputError(`the shards hold ${pairs} segment pairs, but the run's input has ${first.m.run.pairs}; was a manifest changed?`, first.path);
  }
  for (const s of ordered) {
    for (const f of s.m.files) {
      const p = join(s.dir, f.name);
      if (!existsSync(p)) throw new InputError(`missing: its manifest ${s.path} lists it`, p);
    }
  }
  const names = first.m.files.map((f) => f.name);
  const read = (s: (typeof ordered)[number], k: number): CtxproItem[] => {
    const p = join(s.dir, names[k]!);
    let items: unknown;
    try {
      items = JSON.parse(readBytes(p).toString("utf8"));
    } catch (e) {
      if (e instanceof InputError) throw e;
      throw new InputError(`not a JSON array of items (${(e as Error).message})`, p);
    }
    const want = s.m.files[k]!.items;
    if (!Array.isArray(items) || items.length !== want) {
      throw new InputError(`holds ${Array.isArray(items) ? items.length : "no array of"} items, its manifest ${s.path} says ${want}; was it changed after the shard ran?`, p);
    }
    return items as CtxproItem[];
  };
  // Every file is checked before anything is written (one file in memory at a time, read twice).
  names.forEach((_, k) => ordered.forEach((s) => read(s, k)));
  const writer = new ItemsFilesWriter(names.map((n) => join(outDir, n)));
  try {
    names.forEach((_, k) => {
      for (const s of ordered) for (const it of read(s, k)) writer.writers[k]!.add(it);
    });
    writer.commit();
  } catch (e) {
    writer.abort();
    throw e;
  }
  return {
    files: names.map((n, k) => ({ path: join(outDir, n), items: writer.writers[k]!.count })),
    shards: ordered.length,
    pairs,
    docs: ordered.reduce((a, s) => a + s.m.docs, 0),
  };
}

/** Input files' identity for a RunIdentity (name, size, digest). */
export async function inputIdentity(files: string[]): Promise<RunIdentity["inputs"]> {
  const out: RunIdentity["inputs"] = [];
  for (const f of files) {
    const bytes = readSize(f);
    out.push({ name: basename(f), bytes, sha256: await fileSha256(f) });
  }
  return out;
}

function readSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    throw new InputError("no such file", path);
  }
}

/** The proneval version a run identity names. */
export const PRONEVAL_VERSION = VERSION;
