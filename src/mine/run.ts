import { statSync } from "node:fs";
import { AtomicLineWriter } from "../io/atomic.js";
import { InputError } from "../io/errors.js";
import type { TestSet } from "../io/model.js";
import { findTestSets, loadTestSet } from "../io/discover.js";
import { readTestSetAuto } from "../io/readers.js";
import { alignBidirectional } from "../align/index.js";
import { bar, fmtDuration, ProgressLine } from "../core/progress.js";
import { mineMismatches, type CorpusAligner, type MineStats } from "./mismatch.js";

export interface MineRunOptions {
  output: string;
  /** Only these language pairs (e.g. ["de-en"]); default every into-English pair. */
  pairs?: string[];
  allReferences?: boolean;
  contextSize?: number;
  iterations?: number;
  threads?: number;
  /** fast_align's tension gradient (false, fast_align's behaviour) or the corrected one (true). */
  exactTension?: boolean;
  log?: (msg: string) => void;
  /** No progress bar on stderr. */
  quiet?: boolean;
}

/** Loads every test set named by the inputs: WMT year directories or test-set files. */
export async function loadInputs(inputs: string[], pairs?: string[], log: (m: string) => void = () => {}): Promise<TestSet[]> {
  const out: TestSet[] = [];
  for (const input of inputs) {
    let isDir = false;
    try {
      isDir = statSync(input).isDirectory();
    } catch {
      throw new InputError("no such file or directory", input);
    }
    if (isDir) {
      const locs = findTestSets(input, { intoEnglish: true, pairs });
      for (const loc of locs) {
        const ts = await loadTestSet(loc);
        log(`read ${ts.name} ${ts.langPair} (${ts.format}, ${ts.docs.length} docs, ${ts.systems.length} systems)`);
        out.push(ts);
      }
    } else {
      const ts = await readTestSetAuto(input);
      if (pairs && !pairs.includes(ts.langPair)) continue;
      log(`read ${ts.name} ${ts.langPair} (${ts.format}, ${ts.docs.length} docs, ${ts.systems.length} systems)`);
      out.push(ts);
    }
  }
  if (out.length === 0) throw new InputError(`no test set found in ${inputs.join(", ")}${pairs ? ` for pairs ${pairs.join(",")}` : ""}`);
  return out;
}

/** fast_align both directions + grow-diag-final-and, trained on the corpus being mined. */
export function fastAlignCorpusAligner(opts: { iterations?: number; threads?: number; exactTension?: boolean; quiet?: boolean } = {}): CorpusAligner {
  return async (src, tgt) => {
    const iterations = opts.iterations ?? 5;
    const progress = new ProgressLine(process.stderr, opts.quiet);
    const t0 = Date.now();
    const done = { forward: 0, reverse: 0 };
    const show = (): void => {
      const n = done.forward + done.reverse;
      const elapsed = (Date.now() - t0) / 1000;
      const eta = n > 0 ? (elapsed * (2 * iterations - n)) / n : NaN;
      progress.update(
        `aligning ${src.length} pairs ${bar(n, 2 * iterations)} forward ${done.forward}/${iterations}, reverse ${done.reverse}/${iterations} EM iterations, ` +
          `${fmtDuration(elapsed)} elapsed, ~${fmtDuration(eta)} left`,
        true,
      );
    };
    show();
    const res = await alignBidirectional(src, tgt, {
      iterations,
      threads: opts.threads,
      symmetrize: "grow-diag-final-and",
      exactTensionGradient: opts.exactTension ?? true,
      onIteration: (st) => {
        done[st.reverse ? "reverse" : "forward"] = st.iteration;
        show();
      },
    });
    progress.done();
    return res.symmetrized;
  };
}

/** `proneval mine`: read, align, find mismatches, write JSONL atomically. */
export async function runMine(inputs: string[], opts: MineRunOptions): Promise<MineStats> {
  const log = opts.log ?? (() => {});
  const testsets = await loadInputs(inputs, opts.pairs, log);
  const { records, stats } = await mineMismatches(testsets, fastAlignCorpusAligner(opts), {
    allReferences: opts.allReferences,
    contextSize: opts.contextSize,
    log,
  });
  const w = new AtomicLineWriter(opts.output);
  try {
    for (const r of records) w.write(JSON.stringify(r));
    w.commit();
  } catch (e) {
    w.abort();
    throw e;
  }
  return stats;
}
