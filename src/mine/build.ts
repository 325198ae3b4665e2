import { join } from "node:path";
import { AtomicLineWriter, commitAll } from "../io/atomic.js";
import { InputError } from "../io/errors.js";
import { readMismatches } from "./mismatch-io.js";
import type { MismatchRecord } from "./mismatch.js";
import type { ContextMode, PairRecord } from "../core/pair-format.js";
import { buildPairs, loadPronounPairJudgements, type PairBuildResult, type Split } from "./pairs.js";

export interface PairFilesOptions {
  outDir: string;
  modes: ContextMode[];
  keepAll?: boolean;
  threshold?: number;
  judgementsFile?: string;
  /** Compress outputs (default true). */
  gzip?: boolean;
}

/** File name of a split/mode: CRC, the default of every consumer, gets the plain name. */
export function pairFileName(split: Split, mode: ContextMode, gzip = true): string {
  return `${split}${mode === "crc" ? "" : `.${mode}`}.jsonl${gzip ? ".gz" : ""}`;
}

/** Reads mismatch files, builds pairs for each context mode and writes them atomically. */
export async function writePairFiles(inputs: string[], opts: PairFilesOptions): Promise<Record<ContextMode, PairBuildResult>> {
  if (inputs.length === 0) throw new InputError("no mismatch files given");
  const records: MismatchRecord[] = [];
  for (const f of inputs) for await (const r of readMismatches(f)) records.push(r);
  if (records.length === 0) throw new InputError(`no mismatch records in ${inputs.join(", ")}`);
  const judgements = opts.keepAll ? undefined : loadPronounPairJudgements(opts.judgementsFile);
  const results = {} as Record<ContextMode, PairBuildResult>;
  const writers: AtomicLineWriter[] = [];
  try {
    for (const mode of opts.modes) {
      const res = buildPairs(records, { context: mode, keepAll: opts.keepAll, threshold: opts.threshold, judgements });
      results[mode] = res;
      for (const split of ["train", "dev"] as Split[]) {
        const w = new AtomicLineWriter(join(opts.outDir, pairFileName(split, mode, opts.gzip ?? true)));
        writers.push(w);
        for (const p of res.pairs[split]) w.write(JSON.stringify(p satisfies PairRecord));
      }
    }
    // All pair files appear, or none (a failure or a signal while staging leaves none).
    commitAll(writers);
  } catch (e) {
    for (const w of writers) w.abort();
    throw e;
  }
  return results;
}
