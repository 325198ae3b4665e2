import { Vocab } from "./corpus.js";
import { TTable } from "./ttable.js";
import type { AlignModel, ResolvedOptions } from "./train.js";

const MAGIC = "PRONEVAL-FASTALIGN-3\n";

interface Header {
  reverse: boolean;
  tension: number;
  meanSrcLenMultiplier: number;
  options: ResolvedOptions;
  words: string[];
  rows: number;
  slots: number;
}

function align8(n: number): number {
  return (n + 7) & ~7;
}

/**
 * Serialises a trained model (options, final tension, vocabulary, translation table) into one
 * binary blob: magic line, 4-byte little-endian header length, JSON header, then the table's
 * typed arrays (8-byte aligned). Loading it back gives the same probabilities bit for bit.
 */
export function serializeModel(model: AlignModel): Uint8Array {
  const tt = model.ttable;
  const cells = tt.keyProbCells();
  const header: Header = {
    reverse: model.reverse,
    tension: model.tension,
    meanSrcLenMultiplier: model.meanSrcLenMultiplier,
    options: model.options,
    words: model.vocab.words,
    rows: tt.rows,
    slots: tt.slots,
  };
  const magic = Buffer.from(MAGIC, "utf8");
  const json = Buffer.from(JSON.stringify(header), "utf8");
  const headEnd = align8(magic.length + 4 + json.length);
  const sizes = [tt.rowStart.byteLength, cells.byteLength];
  let total = headEnd;
  for (const s of sizes) total += align8(s);
  const out = new Uint8Array(total);
  out.set(magic, 0);
  new DataView(out.buffer).setUint32(magic.length, json.length, true);
  out.set(json, magic.length + 4);
  let off = headEnd;
  for (const arr of [tt.rowStart, cells]) {
    out.set(new Uint8Array(arr.buffer, arr.byteOffset, arr.byteLength), off);
    off += align8(arr.byteLength);
  }
  return out;
}

/** Reads a model written by serializeModel; throws a SyntaxError when the data is not one. */
export function deserializeModel(data: Uint8Array): AlignModel {
  const magic = Buffer.from(MAGIC, "utf8");
  const head = Buffer.from(data.subarray(0, magic.length)).toString("utf8");
  const other = /^PRONEVAL-FASTALIGN-(\d+)\n/.exec(head);
  if (other && head !== MAGIC) throw new SyntaxError(`aligner model format ${other[1]} (this proneval reads format ${MAGIC.trim().split("-").pop()}); retrain it with proneval align --save-model`);
  if (data.length < magic.length + 4 || !Buffer.from(data.subarray(0, magic.length)).equals(magic)) {
    throw new SyntaxError("not a proneval aligner model (bad magic)");
  }
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const jsonLen = view.getUint32(magic.length, true);
  const header = JSON.parse(Buffer.from(data.subarray(magic.length + 4, magic.length + 4 + jsonLen)).toString("utf8")) as Header;
  let off = align8(magic.length + 4 + jsonLen);
  const take = (bytes: number): Uint8Array => {
    if (off + bytes > data.length) throw new SyntaxError("truncated aligner model");
    // A copy with its own buffer (Buffer#slice would share the pooled buffer).
    const copy = new Uint8Array(bytes);
    copy.set(data.subarray(off, off + bytes));
    off += align8(bytes);
    return copy;
  };
  const rowStart = new Int32Array(take((header.rows + 1) * 4).buffer);
  const cells = new Float64Array(take(header.slots * 16).buffer);
  if (rowStart[header.rows] !== header.slots) throw new SyntaxError("corrupt aligner model (row index)");
  return {
    reverse: header.reverse,
    tension: header.tension,
    meanSrcLenMultiplier: header.meanSrcLenMultiplier,
    options: header.options,
    vocab: Vocab.fromWords(header.words),
    ttable: new TTable(rowStart, cells, 2),
  };
}
