// MQM error annotations (google/wmt-mqm-human-evaluation TSV: system, doc, doc_id, seg_id, rater,
// source, target, category, severity; the error span marked <v>...</v>) read as pronoun judgements:
// a segment has a human pronoun error when a rater marked an Accuracy/* or Fluency/Grammar span of
// the target that consists of pronouns.
import { InputError } from "../io/errors.js";
import { readTable } from "../io/table.js";
import { pronouns } from "../text/pronouns.js";
import { tokenWords } from "../text/tokenize.js";

export interface MqmSegment {
  system: string;
  doc: string;
  segId: number;
  source: string;
  /** The target with the error markup removed. */
  target: string;
  /** Some rater marked a pronoun-only Accuracy/* or Fluency/Grammar span. */
  pronounError: boolean;
  /** Every rating row of this segment is No-error. */
  errorFree: boolean;
  /** The pronoun spans marked, lowercased. */
  pronounSpans: string[];
}

export interface MqmData {
  file: string;
  segments: MqmSegment[];
  systems: string[];
  /** Docs in order of first appearance, each with its segment ids ascending. */
  docs: Array<{ doc: string; segIds: number[] }>;
}

const REQUIRED = ["system", "doc", "seg_id", "source", "target", "category"];

/** Is this marked span made of pronouns only (at least one word, punctuation ignored)? */
export function isPronounSpan(span: string): boolean {
  const inv = pronouns();
  const words = tokenWords(span).filter((w) => /\p{L}/u.test(w));
  return words.length > 0 && words.every((w) => inv.has(w.toLowerCase()));
}

function errorCategory(cat: string): boolean {
  return cat.startsWith("Accuracy/") || cat === "Fluency/Grammar";
}

/**
 * Reads an MQM TSV (Google's wmt-mqm-human-evaluation layout) through fast-csv without quoting: its
 * sentences hold bare quotes.
 */
export async function readMqm(file: string): Promise<MqmData> {
  const rows = await readTable(file);
  if (!rows.length || (rows.length === 1 && rows[0]!.cells.join("") === "")) throw new InputError("empty MQM file", file);
  const head = rows[0]!.cells;
  const col = (name: string): number => head.indexOf(name);
  const missing = REQUIRED.filter((c) => col(c) < 0);
  if (missing.length) throw new InputError(`MQM header lacks column(s) ${missing.join(", ")} (has: ${head.join(", ")})`, file, 1);
  const [cSys, cDoc, cSeg, cSrc, cTgt, cCat] = REQUIRED.map(col) as [number, number, number, number, number, number];
  const byKey = new Map<string, MqmSegment>();
  const systems: string[] = [];
  const docOrder: string[] = [];
  const segsOfDoc = new Map<string, Set<number>>();
  for (const { cells: f, line: ln } of rows.slice(1)) {
    if (!f.join("\t").trim()) continue;
    if (f.length < head.length) throw new InputError(`expected ${head.length} tab-separated fields, got ${f.length}`, file, ln);
    const segId = Number(f[cSeg]);
    if (!Number.isInteger(segId)) throw new InputError(`seg_id is not an integer: '${f[cSeg]}'`, file, ln);
    const system = f[cSys]!;
    const doc = f[cDoc]!;
    const rawTarget = f[cTgt]!;
    const target = rawTarget.replace(/<\/?v>/g, "");
    const key = `${system}\t${doc}\t${segId}`;
    let seg = byKey.get(key);
    if (!seg) {
      seg = { system, doc, segId, source: f[cSrc]!.replace(/<\/?v>/g, ""), target, pronounError: false, errorFree: true, pronounSpans: [] };
      byKey.set(key, seg);
      if (!systems.includes(system)) systems.push(system);
      if (!segsOfDoc.has(doc)) {
        segsOfDoc.set(doc, new Set());
        docOrder.push(doc);
      }
      segsOfDoc.get(doc)!.add(segId);
    }
    const cat = f[cCat]!;
    if (cat !== "No-error") seg.errorFree = false;
    if (errorCategory(cat)) {
      const m = /<v>(.*?)<\/v>/.exec(rawTarget);
      if (m && isPronounSpan(m[1]!)) {
        seg.pronounError = true;
        seg.pronounSpans.push(m[1]!.toLowerCase().trim());
      }
    }
  }
  return {
    file,
    segments: [...byKey.values()],
    systems,
    docs: docOrder.map((doc) => ({ doc, segIds: [...segsOfDoc.get(doc)!].sort((a, b) => a - b) })),
  };
}
