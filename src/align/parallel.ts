import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { PACKAGE_ROOT } from "../version.js";
import type { EncodedCorpus, Vocab } from "./corpus.js";
import { Links } from "./links.js";
import { TTable } from "./ttable.js";
import { trainEncoded, type AlignOptions, type IterationStats, type ResolvedOptions, type TrainResult } from "./train.js";

/** What a worker sends back: the trained direction as transferable typed arrays. */
export interface WorkerResult {
  rowStart: Int32Array;
  cells: Float64Array;
  tension: number;
  options: ResolvedOptions;
  meanSrcLenMultiplier: number;
  offsets: Uint32Array;
  pairs: Uint16Array;
  stats: IterationStats[];
}

export interface WorkerRequest {
  size: number;
  vocabSize: number;
  srcTok: Int32Array;
  srcOff: Int32Array;
  tgtTok: Int32Array;
  tgtOff: Int32Array;
  weights?: Float64Array;
  options: Omit<AlignOptions, "onIteration">;
}

/** Trains one direction from a worker request (used inside the worker; pure). */
export function trainRequest(req: WorkerRequest, onIteration?: (s: IterationStats) => void): WorkerResult {
  // The trainer only needs the vocabulary's size; the words stay in the main thread.
  const corpus: EncodedCorpus = { ...req, vocab: { size: req.vocabSize } as Vocab };
  const r = trainEncoded(corpus, { ...req.options, onIteration });
  const tt = r.model.ttable;
  return {
    rowStart: tt.rowStart,
    cells: tt.cells,
    tension: r.model.tension,
    options: r.model.options,
    meanSrcLenMultiplier: r.model.meanSrcLenMultiplier,
    offsets: r.links.offsets,
    pairs: r.links.pairs,
    stats: r.stats,
  };
}

/** A compiled worker script of this folder, or undefined when there is none (e.g. running from sources without a build). */
export function workerScript(name = "worker.js"): URL | undefined {
  const here = new URL(`./${name}`, import.meta.url);
  if (here.protocol === "file:" && existsSync(fileURLToPath(here))) return here;
  const dist = join(PACKAGE_ROOT, "dist", "src", "align", name);
  return existsSync(dist) ? pathToFileURL(dist) : undefined;
}

export function toShared<T extends Int32Array | Float64Array>(a: T): T {
  if (a.buffer instanceof SharedArrayBuffer) return a;
  const s = new (a.constructor as new (b: SharedArrayBuffer) => T)(new SharedArrayBuffer(a.byteLength));
  s.set(a);
  return s;
}

/** Trains one direction in a worker thread; the corpus is shared, not copied. */
export function trainInWorker(script: URL, corpus: EncodedCorpus, opts: AlignOptions): Promise<TrainResult> {
  const { onIteration, ...options } = opts;
  const req: WorkerRequest = {
    size: corpus.size,
    vocabSize: corpus.vocab.size,
    srcTok: toShared(corpus.srcTok),
    srcOff: toShared(corpus.srcOff),
    tgtTok: toShared(corpus.tgtTok),
    tgtOff: toShared(corpus.tgtOff),
    weights: corpus.weights ? toShared(corpus.weights) : undefined,
    options,
  };
  return new Promise((resolve, reject) => {
    const w = new Worker(script, { workerData: req });
    let done = false;
    w.on("message", (msg: { kind: "iteration"; stats: IterationStats } | { kind: "done"; result: WorkerResult }) => {
      if (msg.kind === "iteration") {
        onIteration?.(msg.stats);
        return;
      }
      done = true;
      const r = msg.result;
      const ttable = new TTable(r.rowStart, r.cells, 3);
      resolve({
        model: { reverse: r.options.reverse, vocab: corpus.vocab, ttable, tension: r.tension, options: r.options, meanSrcLenMultiplier: r.meanSrcLenMultiplier },
        links: new Links(r.offsets, r.pairs),
        stats: r.stats,
      });
    });
    w.on("error", (e) => {
      done = true;
      reject(e);
    });
    w.on("exit", (code) => {
      if (!done) reject(new Error(`aligner worker exited with code ${code} before finishing`));
    });
  });
}
