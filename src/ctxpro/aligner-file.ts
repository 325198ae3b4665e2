/**
 * A trained identify aligner on disk: both fast_align directions of `CorpusAligner`, trained once on a corpus
 * (`ctxpro train-aligner`) and loaded by every `identify --aligner FILE` run, so that shards of a corpus align
 * with the same models and none of them trains.
 *
 * Layout: the line `PRONEVAL-CTXPRO-ALIGNER-<format>\n`, a 4-byte little-endian header length, the JSON header
 * (format, proneval version, language pair, training pairs and sources), then the forward and the reverse
 * model (src/align/model-io.ts), each preceded by its 8-byte little-endian length. Written atomically;
 * a name ending in .gz is gzipped. A file of another format, proneval version or language is refused, since
 * its alignments, and so the items, could differ from this version's.
 */
import { createHash } from "node:crypto";
import { InputError } from "../io/errors.js";
import { readBytes } from "../io/lines.js";
import { writeFileAtomic } from "../io/atomic.js";
import { deserializeModel, serializeModel, type AlignModel } from "../align/index.js";
import { VERSION } from "../version.js";

export const ALIGNER_FORMAT = 1;
const MAGIC_PREFIX = "PRONEVAL-CTXPRO-ALIGNER-";

export interface AlignerHeader {
  format: number;
  /** proneval version that trained it. */
  proneval: string;
  /** Language pair, English first: "en-de". */
  pair: string;
  /** Sentence pairs trained on (after skipping empty and over-long ones). */
  pairs: number;
  /**
   * What it was trained on, in order: extra text files with their pairs, then the input files (the first with
   * the segment pairs of all input files).
   */
  sources: Array<{ file: string; pairs?: number }>;
}

export interface SavedAligner {
  header: AlignerHeader;
  models: { fwd: AlignModel; rev: AlignModel };
  /** sha256 of the file's bytes as stored (names the aligner in shard manifests). */
  sha256: string;
}

/** The file's bytes for a trained pair of models. */
export function serializeAligner(header: Omit<AlignerHeader, "format" | "proneval">, models: { fwd: AlignModel; rev: AlignModel }): Uint8Array {
  const full: AlignerHeader = { format: ALIGNER_FORMAT, proneval: VERSION, ...header };
  const magic = Buffer.from(`${MAGIC_PREFIX}${ALIGNER_FORMAT}\n`, "utf8");
  const json = Buffer.from(JSON.stringify(full), "utf8");
  const len = Buffer.alloc(4);
  len.writeUInt32LE(json.length);
  const parts: Uint8Array[] = [magic, len, json];
  for (const m of [models.fwd, models.rev]) {
    const blob = serializeModel(m);
    const n = Buffer.alloc(8);
    n.writeBigUInt64LE(BigInt(blob.length));
    parts.push(n, blob);
  }
  return Buffer.concat(parts);
}

/** Writes a trained aligner to `path` (atomically; gzipped when the name ends in .gz). */
export function saveAligner(path: string, header: Omit<AlignerHeader, "format" | "proneval">, models: { fwd: AlignModel; rev: AlignModel }): void {
  writeFileAtomic(path, serializeAligner(header, models));
}

/**
 * Reads an aligner saved by saveAligner for English and `lang`. Anything else (not an aligner file, another
 * format, another proneval version, another language pair, a truncated file) is an InputError naming `path`.
 */
export function loadAligner(path: string, lang: string): SavedAligner {
  const data = readBytes(path);
  const retrain = `train it again with this version: proneval ctxpro train-aligner -i DOCS.tsv -l ${lang} -o ${path}`;
  const nl = data.indexOf(10);
  const first = nl > 0 && nl < 64 ? data.subarray(0, nl).toString("latin1") : "";
  if (!first.startsWith(MAGIC_PREFIX)) throw new InputError("not a proneval ctxpro aligner (it does not start with PRONEVAL-CTXPRO-ALIGNER-)", path);
  const format = Number(first.slice(MAGIC_PREFIX.length));
  if (format !== ALIGNER_FORMAT) throw new InputError(`aligner file format ${first.slice(MAGIC_PREFIX.length)}, this proneval reads format ${ALIGNER_FORMAT}; ${retrain}`, path);
  let off = nl + 1;
  const need = (n: number) => {
    if (off + n > data.length) throw new InputError("truncated aligner file", path);
  };
  need(4);
  const jsonLen = data.readUInt32LE(off);
  off += 4;
  need(jsonLen);
  let header: AlignerHeader;
  try {
    header = JSON.parse(data.subarray(off, off + jsonLen).toString("utf8")) as AlignerHeader;
  } catch {
    throw new InputError("corrupt aligner file (header is not JSON)", path);
  }
  off += jsonLen;
  if (header.proneval !== VERSION) throw new InputError(`aligner trained by proneval ${header.proneval}, this is proneval ${VERSION}; ${retrain}`, path);
  if (header.pair !== `en-${lang}`) throw new InputError(`aligner for ${header.pair}, but -l ${lang} asks for en-${lang}`, path);
  const models: AlignModel[] = [];
  for (let k = 0; k < 2; k++) {
    need(8);
    const n = Number(data.readBigUInt64LE(off));
    off += 8;
    need(n);
    try {
      models.push(deserializeModel(data.subarray(off, off + n)));
    } catch (e) {
      throw new InputError(`corrupt aligner file (${(e as Error).message})`, path);
    }
    off += n;
  }
  if (models[0]!.reverse || !models[1]!.reverse) throw new InputError("corrupt aligner file (directions)", path);
  const sha256 = createHash("sha256").update(data).digest("hex");
  return { header, models: { fwd: models[0]!, rev: models[1]! }, sha256 };
}
