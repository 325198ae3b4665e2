/**
 * `ctxpro extract`: balanced dev/devtest/test splits of identified items (Sec. 3.1) and the model
 * inputs of an evaluation set: each item's segment with its preceding sentences, joined by a string.
 */
import { InputError } from "../io/errors.js";
import type { CtxproItem } from "./items.js";
import { itemLocation } from "./items.js";
import type { TsvDoc } from "./identify.js";
import { mulberry32, shuffle } from "../core/prng.js";

export interface SplitOptions {
  /** Labels with fewer items go entirely to test (CTXPRO: 100). */
  minPerLabel?: number;
  /** Most test items per label (CTXPRO: 5000); dev and devtest get a fifth of it each. */
  maxTestPerLabel?: number;
  seed?: number;
}

export interface Splits {
  dev: CtxproItem[];
  devtest: CtxproItem[];
  test: CtxproItem[];
}

/**
 * Per label (rule): fewer than minPerLabel items -> all to test; otherwise up to 7/5 * maxTest items,
 * drawn by a seeded shuffle, split 1:1:5 into dev, devtest and test. Items keep their input order
 * inside each split.
 */
export function splitItems(items: CtxproItem[], opts: SplitOptions = {}): Splits {
  const minPer = opts.minPerLabel ?? 100;
  const maxTest = opts.maxTestPerLabel ?? 5000;
  const rand = mulberry32(opts.seed ?? 1);
  const byLabel = new Map<string, number[]>();
  items.forEach((it, i) => {
    const label = String(it.rule);
    const list = byLabel.get(label);
    if (list) list.push(i);
    else byLabel.set(label, [i]);
  });
  const where = new Int8Array(items.length).fill(-1); // 0 dev, 1 devtest, 2 test
  for (const idx of byLabel.values()) {
    if (idx.length < minPer) {
      for (const i of idx) where[i] = 2;
      continue;
    }
    const picked = shuffle([...idx], rand);
    const m = Math.min(picked.length, Math.floor((maxTest * 7) / 5));
    const k = Math.floor(m / 7);
    const nTest = Math.min(m - 2 * k, maxTest);
    picked.slice(0, k).forEach((i) => (where[i] = 0));
    picked.slice(k, 2 * k).forEach((i) => (where[i] = 1));
    picked.slice(2 * k, 2 * k + nTest).forEach((i) => (where[i] = 2));
  }
  const out: Splits = { dev: [], devtest: [], test: [] };
  items.forEach((it, i) => {
    if (where[i] === 0) out.dev.push(it);
    else if (where[i] === 1) out.devtest.push(it);
    else if (where[i] === 2) out.test.push(it);
  });
  return out;
}

export interface ContextOptions {
  /** Sentences per input line, the segment included (CTXPRO's -s; the released inputs use 10). */
  maxSentences?: number;
  /** Whitespace tokens per input line (+1 per sentence); the oldest sentences are dropped first. */
  maxTokens?: number;
  /** Joins the sentences (the released inputs use "<eos> "). */
  joiner?: string;
  /** Take the context from the other side than the items' source segments (CTXPRO's --target). */
  target?: boolean;
}

const countTokens = (s: string) => s.split(/\s+/).filter(Boolean).length;

/**
 * One input line per item. Which TSV column is the items' source side is found from the items
 * themselves (English for out-of-English sets, the other column for animacy), and every item's
 * segment must equal its row, so a mismatched TSV is reported rather than producing wrong contexts.
 */
export function buildInputs(items: CtxproItem[], docs: TsvDoc[], setPath: string, opts: ContextOptions = {}): string[] {
  const maxSentences = opts.maxSentences ?? 10;
  const maxTokens = opts.maxTokens ?? 10000;
  const joiner = opts.joiner ?? "<eos> ";
  if (maxSentences < 1) throw new InputError(`max sentences must be >= 1, got ${maxSentences}`);
  const byId = new Map(docs.map((d) => [d.id, d]));
  let side: "en" | "other" | undefined;
  return items.map((item, i) => {
    const { doc: docId, seg, segment } = itemLocation(item, i, setPath);
    const doc = byId.get(docId);
    if (!doc) throw new InputError(`item ${i + 1}: document '${docId}' is not in the input TSV`, setPath);
    if (seg > doc.en.length) {
      throw new InputError(`item ${i + 1}: segment id ${seg} but document '${docId}' has ${doc.en.length} rows in the input TSV`, setPath);
    }
    const want = segment.trim();
    if (!side) {
      if (doc.en[seg - 1] === want) side = "en";
      else if (doc.other[seg - 1] === want) side = "other";
    }
    const srcCol = side === "other" ? doc.other : doc.en;
    if (srcCol[seg - 1] !== want) {
      throw new InputError(
        `item ${i + 1}: its "src segment" differs from row ${doc.where[seg - 1]} of document '${docId}' (is the TSV the one the set was identified from?)`,
        setPath,
      );
    }
    const col = opts.target ? (side === "other" ? doc.en : doc.other) : srcCol;
    const lines = col.slice(Math.max(seg - maxSentences, 0), seg);
    let length = lines.reduce((n, l) => n + countTokens(l) + 1, 0);
    while (length > maxTokens && lines.length > 1) length -= countTokens(lines.shift()!) + 1;
    return lines.join(joiner);
  });
}
