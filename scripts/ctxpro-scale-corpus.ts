/**
 * Builds a large en-de identify input (TSV: docid, English, German) from the public WMT data, for measuring
 * `ctxpro identify` at corpus scale (docs/ctxpro-scale.md). Every English source of the en-de test sets of
 * WMT21-24 is paired with each of its German translations (references and every system output): one stream
 * of documents per translation. WMT24 documents are its own (`txt/documents/en-de.docs`); the WMT21-23 test
 * sets have no document ids for en-de, so each is cut into documents of `--doc-lines` consecutive lines. The
 * streams are written in a fixed order (year, then file name), then again with the document ids prefixed
 * `r2.`, `r3.`, ... until the file holds at least `--pairs` segment pairs (it ends at the first document
 * boundary at or after that count). Deterministic: the same data gives the same file.
 *
 *   node dist/scripts/ctxpro-scale-corpus.js --pairs 1000000 -o /tmp/scale/en-de.1m.tsv [--data ../shared/data/wmt] [--doc-lines 20]
 */
import { createWriteStream, existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseStrict, strictCommand } from "./args.js";

const program = strictCommand("ctxpro-scale-corpus")
  .requiredOption("--pairs <n>", "segment pairs to write at least (ends at a document boundary)")
  .requiredOption("-o, --output <file>", "TSV to write")
  .option("--data <dir>", "the WMT folder", "../shared/data/wmt")
  .option("--doc-lines <n>", "lines per document of the WMT21-23 test sets (they have no document ids)", "20");
parseStrict(program);
const o = program.opts<{ pairs: string; output: string; data: string; docLines: string }>();
const target = Number(o.pairs);
const docLines = Number(o.docLines);

function lines(path: string): string[] {
  const t = readFileSync(path, "utf8");
  const ls = t.split("\n");
  if (ls[ls.length - 1] === "") ls.pop();
  // A tab inside a sentence would break the TSV; a carriage return is line-ending residue.
  return ls.map((l) => l.replace(/[\t\r]/g, " ").trim());
}

interface Doc {
  id: string;
  en: string[];
  de: string[];
}

const docs: Doc[] = [];
function addStream(prefix: string, src: string[], tgt: string[], ids: string[]): void {
  if (tgt.length !== src.length) {
    process.stderr.write(`skipped ${prefix}: ${tgt.length} lines, source has ${src.length}\n`);
    return;
  }
  let cur: Doc | undefined;
  src.forEach((s, k) => {
    const id = `${prefix}.${ids[k]}`;
    if (!cur || cur.id !== id) docs.push((cur = { id, en: [], de: [] }));
    cur.en.push(s);
    cur.de.push(tgt[k]!);
  });
}

for (const [year, test] of [["wmt21", "newstest2021"], ["wmt22", "generaltest2022"], ["wmt23", "generaltest2023"]] as const) {
  const txt = join(o.data, year, "txt");
  const src = lines(join(txt, "sources", `${test}.en-de.src.en`));
  const ids = src.map((_, k) => `d${String(Math.floor(k / docLines)).padStart(4, "0")}`);
  const files = [
    ...readdirSync(join(txt, "references")).filter((f) => f.startsWith(`${test}.en-de.`) && f.endsWith(".de")).map((f) => join(txt, "references", f)),
    ...readdirSync(join(txt, "system-outputs")).filter((f) => f.startsWith(`${test}.en-de.`) && f.endsWith(".de")).map((f) => join(txt, "system-outputs", f)),
  ].sort();
  for (const f of files) addStream(`${year}.${f.split("/").pop()!.replace(`${test}.en-de.`, "").replace(/\.de$/, "")}`, src, lines(f), ids);
}
{
  const txt = join(o.data, "wmt24", "txt");
  const src = lines(join(txt, "sources", "en-de.txt"));
  const ids = lines(join(txt, "documents", "en-de.docs")).map((l) => l.split(/\s+/).pop()!);
  const files = [
    ...readdirSync(join(txt, "references")).filter((f) => f.startsWith("en-de.")).map((f) => join(txt, "references", f)),
    ...readdirSync(join(txt, "system-outputs", "en-de")).map((f) => join(txt, "system-outputs", "en-de", f)),
  ].sort();
  for (const f of files) if (existsSync(f)) addStream(`wmt24.${f.split("/").pop()!.replace(/\.txt$/, "")}`, src, lines(f), ids);
}

const perCopy = docs.reduce((n, d) => n + d.en.length, 0);
const out = createWriteStream(o.output);
let written = 0;
let docsWritten = 0;
let copies = 0;
for (let r = 1; written < target; r++) {
  copies = r;
  for (const d of docs) {
    if (written >= target) break;
    const id = r === 1 ? d.id : `r${r}.${d.id}`;
    let chunk = "";
    for (let k = 0; k < d.en.length; k++) chunk += `${id}\t${d.en[k]}\t${d.de[k]}\n`;
    if (!out.write(chunk)) await new Promise<void>((res) => out.once("drain", () => res()));
    written += d.en.length;
    docsWritten++;
  }
}
await new Promise<void>((res, rej) => out.end((e?: Error | null) => (e ? rej(e) : res())));
process.stderr.write(`${o.output}: ${written} segment pairs in ${docsWritten} documents (${docs.length} documents, ${perCopy} pairs per copy; ${copies} copies)\n`);
