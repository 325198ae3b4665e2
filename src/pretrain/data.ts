import { existsSync } from "node:fs";
import { InputError } from "../io/errors.js";
import { streamLines } from "../io/lines.js";
import { readJsonl } from "../io/jsonl.js";
import { pronouns } from "../text/pronouns.js";
import { Vocab } from "../nn/glove.js";
import { Rng } from "../core/prng.js";
import type { CorpusDoc } from "./corpus.js";
import type { MaskedWindow } from "./model.js";

/** Parses one corpus line; errors name file and line. */
function parseDoc(line: string, file: string, n: number): CorpusDoc {
  let d: CorpusDoc;
  try {
    d = JSON.parse(line);
  } catch (e) {
    throw new InputError(`invalid JSON (${(e as Error).message})`, file, n);
  }
  if (!d || !Array.isArray(d.sents) || d.sents.some((s) => typeof s !== "string")) throw new InputError("not a corpus document (expected {id, source, sents: [string]})", file, n);
  return d;
}

/** Token counts of a corpus (for the embedding vocabulary). */
export async function corpusCounts(file: string): Promise<Map<string, number>> {
  if (!existsSync(file)) throw new InputError("corpus file not found", file);
  const counts = new Map<string, number>();
  let n = 0;
  for await (const line of streamLines(file)) {
    n++;
    if (!line.trim()) continue;
    for (const s of parseDoc(line, file, n).sents) for (const w of s.split(" ")) counts.set(w, (counts.get(w) ?? 0) + 1);
  }
  return counts;
}

/**
 * The corpus in memory as embedding rows: every sentence's rows packed in one Int32Array, with the
 * positions and classes of its pronouns, and the sentences usable as targets (>= 1 pronoun, not
 * longer than maxLen).
 */
export interface PretrainData {
  rows: Int32Array;
  /** Sentence k spans rows[sentOff[k], sentOff[k+1]). */
  sentOff: Int32Array;
  /** Index of the first sentence of sentence k's document. */
  docStart: Int32Array;
  /** Pronouns of sentence k: pronPos/pronLabel[pronOff[k], pronOff[k+1]). */
  pronOff: Int32Array;
  pronPos: Int32Array;
  pronLabel: Int8Array;
  /** Target sentences. */
  targets: Int32Array;
  tokens: number;
  skippedLong: number;
}

class IntBuf {
  a: Int32Array = new Int32Array(1 << 16);
  n = 0;
  push(v: number): void {
    if (this.n === this.a.length) {
      const b = new Int32Array(this.a.length * 2);
      b.set(this.a);
      this.a = b;
    }
    this.a[this.n++] = v;
  }
  done(): Int32Array {
    return this.a.slice(0, this.n);
  }
}

export async function loadPretrainData(file: string, vocab: Vocab, maxLen: number, maxDocs = 0): Promise<PretrainData> {
  if (!existsSync(file)) throw new InputError("corpus file not found", file);
  const inv = pronouns();
  const rows = new IntBuf();
  const sentOff = new IntBuf();
  const docStart = new IntBuf();
  const pronOff = new IntBuf();
  const pronPos = new IntBuf();
  const pronLabel = new IntBuf();
  const targets = new IntBuf();
  let skippedLong = 0;
  let n = 0;
  let docs = 0;
  let k = 0;
  for await (const line of streamLines(file)) {
    n++;
    if (!line.trim()) continue;
    if (maxDocs && docs >= maxDocs) break;
    docs++;
    const first = k;
    for (const s of parseDoc(line, file, n).sents) {
      sentOff.push(rows.n);
      pronOff.push(pronPos.n);
      docStart.push(first);
      const toks = s.split(" ");
      toks.forEach((w, i) => {
        rows.push(vocab.row(w));
        const p = inv.indexOf(w);
        if (p >= 0) {
          pronPos.push(i);
          pronLabel.push(p);
        }
      });
      const hasPron = pronPos.n > pronOff.a[k]!;
      if (hasPron && toks.length <= maxLen) targets.push(k);
      else if (hasPron) skippedLong++;
      k++;
    }
  }
  sentOff.push(rows.n);
  pronOff.push(pronPos.n);
  if (targets.n === 0) throw new InputError("corpus has no sentence with a pronoun", file);
  return {
    rows: rows.done(),
    sentOff: sentOff.done(),
    docStart: docStart.done(),
    pronOff: pronOff.done(),
    pronPos: pronPos.done(),
    pronLabel: Int8Array.from(pronLabel.done()),
    targets: targets.done(),
    tokens: rows.n,
    skippedLong,
  };
}

/**
 * The window of target sentence k with its j-th pronoun masked: up to `contextSentences` previous
 * sentences of the same document (cut from the left to fit maxLen, as the ranker's prepareSide
 * does), then the sentence.
 */
export function makeWindow(d: PretrainData, k: number, j: number, maxLen: number, contextSentences: number): MaskedWindow {
  const s0 = d.sentOff[k]!;
  const s1 = d.sentOff[k + 1]!;
  const c0 = d.sentOff[Math.max(d.docStart[k]!, k - contextSentences)]!;
  const ctxStart = Math.max(c0, s1 - maxLen);
  const rows = d.rows.slice(ctxStart, s1);
  const pi = d.pronOff[k]! + j;
  return { rows, mask: s0 - ctxStart + d.pronPos[pi]!, label: d.pronLabel[pi]! };
}

/**
 * Batches of one epoch: targets shuffled with the epoch's own seed (so a resumed run rebuilds the
 * same order), one pronoun drawn per target, bucketed by length inside chunks of 50 batches so that
 * padding stays small while the batch order stays random.
 */
export function epochBatches(d: PretrainData, epoch: number, seed: number, batchSize: number, maxLen: number, contextSentences: number): Array<Array<[number, number]>> {
  const rng = new Rng((seed * 1000003 + epoch * 7919) >>> 0);
  const order = rng.shuffle(Array.from(d.targets));
  const items: Array<[number, number, number]> = order.map((k) => {
    const nP = d.pronOff[k + 1]! - d.pronOff[k]!;
    const len = d.sentOff[k + 1]! - d.sentOff[Math.max(d.docStart[k]!, k - contextSentences)]!;
    return [k, rng.int(nP), Math.min(len, maxLen)];
  });
  const chunk = batchSize * 50;
  const batches: Array<Array<[number, number]>> = [];
  for (let c = 0; c < items.length; c += chunk) {
    const part = items.slice(c, c + chunk).sort((a, b) => a[2] - b[2]);
    for (let b = 0; b < part.length; b += batchSize) batches.push(part.slice(b, b + batchSize).map(([k, j]) => [k, j]));
  }
  return rng.shuffle(batches);
}

/**
 * Replaced objective: for each pronoun class, the classes real systems put in its place, from the
 * R-vs-S pairs of a pair file (`ref_pronoun` -> `sys_pronoun`, several joined by "," zipped in order),
 * as cumulative distributions; a class never confused gets none (replacement then uniform).
 */
export interface Confusions {
  /** cumulative[c] over the 42 classes, or null. */
  cumulative: Array<Float64Array | null>;
  /** Confusion pairs read. */
  pairs: number;
}

export async function readConfusions(file: string): Promise<Confusions> {
  if (!existsSync(file)) throw new InputError("confusion pair file not found", file);
  const inv = pronouns();
  const counts = Array.from({ length: inv.list.length }, () => new Float64Array(inv.list.length));
  let pairs = 0;
  for await (const { value } of readJsonl(file)) {
    const r = (value ?? {}) as { kind?: string; ref_pronoun?: unknown; sys_pronoun?: unknown };
    if (r.kind !== "system" || typeof r.ref_pronoun !== "string" || typeof r.sys_pronoun !== "string") continue;
    const refs = r.ref_pronoun.split(",");
    const syss = r.sys_pronoun.split(",");
    refs.forEach((rp, i) => {
      const a = inv.indexOf(rp);
      const b = inv.indexOf(syss[i] ?? "");
      if (a >= 0 && b >= 0 && a !== b) {
        counts[a]![b]!++;
        pairs++;
      }
    });
  }
  if (pairs === 0) throw new InputError("no (reference, system) pronoun confusions found (expected R-vs-S pairs from proneval pairs)", file);
  const cumulative = counts.map((c) => {
    const tot = c.reduce((x, y) => x + y, 0);
    if (!tot) return null;
    let acc = 0;
    return Float64Array.from(c, (x) => (acc += x / tot));
  });
  return { cumulative, pairs };
}

/**
 * With probability 1/2 swaps the window's pronoun (at `mask`) for a confusion drawn for its class
 * (label 1), else keeps it (label 0). `pronounRows[c]` is class c's embedding row.
 */
export function replaceWindow(w: MaskedWindow, conf: Confusions, pronounRows: Int32Array, rng: Rng): MaskedWindow {
  if (rng.next() < 0.5) return { rows: w.rows, mask: w.mask, label: 0 };
  const cum = conf.cumulative[w.label];
  let c: number;
  if (cum) {
    const u = rng.next();
    c = 0;
    while (c < cum.length - 1 && cum[c]! <= u) c++;
  } else {
    c = rng.int(pronounRows.length - 1);
    if (c >= w.label) c++;
  }
  const rows = w.rows.slice();
  rows[w.mask] = pronounRows[c]!;
  return { rows, mask: w.mask, label: 1 };
}
