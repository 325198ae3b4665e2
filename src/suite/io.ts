import { join } from "node:path";
import { InputError } from "../io/errors.js";
import { readText } from "../io/lines.js";
import { writeFilesAtomic } from "../io/atomic.js";
import { SUITE_KIND, SUITE_VERSION, suiteInputs, type SuiteFile } from "./build.js";

export function suiteBaseName(s: SuiteFile): string {
  return `pronouns.wmt.${s.lang}-en`;
}

/** Writes the suite JSON and its plain-text inputs: `.src` (sentence only), `.ctx.src` (context + sentence), `.ref`. */
export function writeSuite(dir: string, s: SuiteFile, separator = "<eos>"): string[] {
  const files = suiteFiles(dir, s, separator);
  writeFilesAtomic(files);
  return files.map(([f]) => f);
}

/** A suite's files (suite, .src, .ctx.src, .ref) and their contents, to be written together. */
export function suiteFiles(dir: string, s: SuiteFile, separator = "<eos>"): Array<[string, string]> {
  const base = join(dir, suiteBaseName(s));
  return [
    [`${base}.json.gz`, JSON.stringify(s)],
    [`${base}.src`, suiteInputs(s.items, false)],
    [`${base}.ctx.src`, suiteInputs(s.items, true, separator)],
    [`${base}.ref`, s.items.map((i) => i["ref segment"]).join("\n") + "\n"],
  ];
}

/** Reads and validates a suite file (JSON, plain or .gz). */
export function readSuite(file: string): SuiteFile {
  let o: any;
  try {
    o = JSON.parse(readText(file));
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw new InputError(`not valid JSON (${(e as Error).message})`, file);
  }
  if (Array.isArray(o)) throw new InputError(`a JSON array is a CTXPRO evaluation set, not a pronoun suite (use 'proneval ctxpro score')`, file);
  if (o?.kind !== SUITE_KIND) throw new InputError(`not a pronoun suite (expected "kind": "${SUITE_KIND}", got ${JSON.stringify(o?.kind)})`, file);
  if (o.version !== SUITE_VERSION) throw new InputError(`suite version ${o.version} is not supported (expected ${SUITE_VERSION})`, file);
  if (!Array.isArray(o.items) || o.items.length === 0) throw new InputError("suite has no items", file);
  o.items.forEach((it: any, k: number) => {
    for (const f of ["id", "expected", "rule", "src segment", "ref segment"])
      if (typeof it?.[f] !== "string") throw new InputError(`item ${k + 1} lacks string field '${f}'`, file);
    if (!Array.isArray(it.errors)) throw new InputError(`item ${k + 1} lacks 'errors'`, file);
  });
  return o as SuiteFile;
}
