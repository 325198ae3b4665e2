/**
 * One entry point for every test-set format: WMT XML, the WMT text layout, classic SGML, plain text.
 * Callers that know the format use the specific reader; readTestSetAuto tells them apart by content.
 */
import { existsSync, statSync } from "node:fs";
import { InputError } from "./errors.js";
import { isStdin } from "./stdin.js";
import type { TestSet } from "./model.js";
import { readPlainTestSet, type ReadOptions } from "./plaintext.js";
import { combineSgml } from "./sgml.js";
import { openByteStream, readWmtXml } from "./wmt-xml.js";
import { findTestSets, loadTestSet } from "./discover.js";

export { readWmtXml, decodeUtf8Chunks, parseXmlFileName } from "./wmt-xml.js";
export { readWmtTxt, scanWmtTxtDir, type WmtTxtSpec, type NamedPath } from "./wmt-txt.js";
export { readSgmlFile, combineSgml, decodeEntities, type SgmlFile, type SgmlDoc, type SgmlInput } from "./sgml.js";
export {
  readPlainTestSet,
  readLineTestSet,
  readDocIdFile,
  groupDocIds,
  type PlainTestSetInput,
  type ReadOptions,
  type LineFile,
  type DocIdEntry,
} from "./plaintext.js";
export { findTestSets, loadTestSet, type TestSetLocation, type TestSetFilter } from "./discover.js";

export type FileFormat = "wmt-xml" | "sgml" | "text";

/** The first bytes of a (possibly gzipped) file, decoded leniently: enough to recognise the format. */
async function head(path: string, bytes = 8192): Promise<string> {
  const stream = openByteStream(path);
  const parts: Buffer[] = [];
  let n = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      parts.push(chunk);
      n += chunk.length;
      if (n >= bytes) break;
    }
  } catch (e) {
    throw new InputError(`cannot read (${(e as Error).message})`, path);
  } finally {
    stream.destroy();
  }
  return Buffer.concat(parts).subarray(0, bytes).toString("utf8");
}

/** Recognises WMT XML (<dataset>), classic SGML (<srcset>/<refset>/<tstset>) or else plain text. */
export async function detectFormat(path: string): Promise<FileFormat> {
  const text = (await head(path)).replace(/^\uFEFF/, "").trimStart();
  // Skip the XML declaration and comments before looking at the first element.
  const body = text.replace(/^(<\?[^>]*\?>\s*|<!--[\s\S]*?-->\s*|<!DOCTYPE[^>]*>\s*)*/i, "");
  if (/^<dataset\b/i.test(body)) return "wmt-xml";
  if (/^<(srcset|refset|tstset)\b/i.test(body)) return "sgml";
  return "text";
}

export interface AutoOptions extends ReadOptions {
  /** Skip detection. */
  format?: FileFormat;
  /** Source file (text format; SGML sources are recognised by their <srcset> header). */
  src?: string;
  /** Document-id file (text format). */
  docs?: string;
  /** Language pair; for a directory, picks the pair to load. */
  langPair?: string;
  name?: string;
}

/**
 * Reads a test set from whatever it is given:
 * - a directory: a WMT year directory holding exactly one test set (or one for `langPair`);
 * - one WMT XML file;
 * - SGML files: sides told apart by their headers (<srcset>, <refset>, <tstset>), references in the given order;
 * - text files: the first is the reference, the others system outputs (`src`, `docs` as options).
 */
export async function readTestSetAuto(input: string | string[], opts: AutoOptions = {}): Promise<TestSet> {
  const paths = typeof input === "string" ? [input] : input;
  if (paths.length === 0) throw new InputError("no input file given");
  for (const p of paths) if (!isStdin(p) && !existsSync(p)) throw new InputError("no such file or directory", p);
  if (paths.filter(isStdin).length > 1) throw new InputError("standard input (-) can be given for one input only");

  if (paths.length === 1 && !isStdin(paths[0]!) && statSync(paths[0]!).isDirectory()) {
    const dir = paths[0]!;
    const locs = findTestSets(dir, opts.langPair ? { pairs: [opts.langPair] } : {});
    if (locs.length !== 1) {
      throw new InputError(`holds ${locs.length} test sets (${locs.map((l) => `${l.name} ${l.langPair}`).join(", ")}); choose one with a language pair`, dir);
    }
    return loadTestSet(locs[0]!, opts);
  }
  for (const p of paths) if (!isStdin(p) && statSync(p).isDirectory()) throw new InputError("is a directory; give a directory alone", p);

  const formats = opts.format ? paths.map(() => opts.format!) : await Promise.all(paths.map(detectFormat));
  const kinds = new Set(formats);
  if (kinds.size > 1) {
    const i = formats.findIndex((f) => f !== formats[0]);
    throw new InputError(`is ${formats[i]}, but ${paths[0]} is ${formats[0]}: give files of one format`, paths[i]);
  }
  const format = formats[0]!;
  if (format === "wmt-xml") {
    if (paths.length > 1) throw new InputError("a WMT XML file holds the whole test set: give exactly one", paths[1]);
    return readWmtXml(paths[0]!, opts);
  }
  if (format === "sgml") {
    let src = opts.src;
    const refs: string[] = [];
    const hyps: string[] = [];
    for (const p of paths) {
      const kind = /<(srcset|refset|tstset)\b/i.exec(await head(p))?.[1]?.toLowerCase();
      if (kind === "srcset") {
        if (src !== undefined) throw new InputError(`second source file (first: ${src})`, p);
        src = p;
      } else if (kind === "refset") refs.push(p);
      else hyps.push(p);
    }
    if (refs.length === 0) throw new InputError("no reference (<refset>) among the SGML files", paths[0]);
    return combineSgml({ ...(src !== undefined ? { src } : {}), refs, hyps, ...pick(opts) }, opts);
  }
  return readPlainTestSet(
    {
      refs: [paths[0]!],
      hyps: paths.slice(1),
      ...(opts.src !== undefined ? { src: opts.src } : {}),
      ...(opts.docs !== undefined ? { docs: opts.docs } : {}),
      ...pick(opts),
    },
    opts,
  );
}

function pick(opts: AutoOptions): { langPair?: string; name?: string } {
  return {
    ...(opts.langPair !== undefined ? { langPair: opts.langPair } : {}),
    ...(opts.name !== undefined ? { name: opts.name } : {}),
  };
}
