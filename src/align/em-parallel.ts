// One alignment direction trained on several threads (this one plus workers), bit-identical to
// trainEncoded: the E-step runs as in estep.ts (posteriors in parallel, counts added in corpus
// order), the M-step splits the table's independent rows, the Viterbi pass splits the sentences.
import { Worker } from "node:worker_threads";
import type { EncodedCorpus } from "./corpus.js";
import { eStepThread, failEStep, finishEStep, resetEStep, type EStepParams, type EStepShared } from "./estep.js";
import { concatLinks, Links } from "./links.js";
import { toShared, workerScript } from "./parallel.js";
import { TTable } from "./ttable.js";
import {
  mStep,
  prepareTraining,
  resolveOptions,
  schedule,
  viterbiPass,
  type AlignModel,
  type AlignOptions,
  type PassResponse,
  type ResolvedOptions,
  type TrainResult,
} from "./train.js";

/** What a worker gets once: shared corpus and table, and the options. */
export interface EmWorkerData {
  corpus: Omit<EncodedCorpus, "vocab">;
  rowStart: Int32Array;
  cells: Float64Array;
  sumOrder: Int32Array;
  ctl: Int32Array;
  sums: Float64Array;
  options: ResolvedOptions;
}

export type EmRequest =
  | { op: "em"; params: EStepParams; thread: number; threads: number }
  | { op: "mstep"; r0: number; r1: number }
  | { op: "viterbi"; tension: number; k0: number; k1: number };

export type EmReply = { op: "done"; offsets?: Uint32Array; pairs?: Uint16Array; likelihood?: number } | { op: "error"; message: string };

/** The worker side of one request (pure apart from the shared arrays it updates). */
export function serveEmRequest(d: EmWorkerData, sh: EStepShared, ttable: TTable, req: EmRequest): EmReply {
  if (req.op === "em") {
    eStepThread(sh, req.params, req.thread, req.threads);
    return { op: "done" };
  }
  if (req.op === "mstep") {
    mStep(ttable, d.options, req.r0, req.r1);
    return { op: "done" };
  }
  const model: AlignModel = { reverse: d.options.reverse, vocab: { size: 0 } as AlignModel["vocab"], ttable, tension: req.tension, options: d.options, meanSrcLenMultiplier: 1 };
  const r = viterbiPass(model, { ...d.corpus, vocab: model.vocab }, req.k0, req.k1);
  return { op: "done", offsets: r.links.offsets, pairs: r.links.pairs, likelihood: r.likelihood };
}

/** Cuts [0, n) into `parts` ranges of about equal weight (weight(k) of item k; prefix sums). */
function split(n: number, parts: number, weightUpTo: (k: number) => number): number[] {
  const total = weightUpTo(n);
  const cuts = [0];
  let k = 0;
  for (let t = 1; t < parts; t++) {
    const goal = (total * t) / parts;
    while (k < n && weightUpTo(k) < goal) k++;
    cuts.push(k);
  }
  cuts.push(n);
  return cuts;
}

/**
 * trainEncoded on `threads` threads (this one and threads - 1 workers); same result bit for bit.
 * Falls back to trainEncoded's single thread when no compiled worker script exists.
 */
export async function trainEncodedThreaded(corpus: EncodedCorpus, opts: AlignOptions, threads: number): Promise<TrainResult> {
  const script = threads > 1 ? workerScript("em-worker.js") : undefined;
  const o = resolveOptions(opts);
  const shared: EncodedCorpus = {
    size: corpus.size,
    srcTok: toShared(corpus.srcTok),
    srcOff: toShared(corpus.srcOff),
    tgtTok: toShared(corpus.tgtTok),
    tgtOff: toShared(corpus.tgtOff),
    weights: corpus.weights ? toShared(corpus.weights) : undefined,
    vocab: corpus.vocab,
  };
  const p = prepareTraining(shared, o);
  p.ttable = new TTable(toShared(p.ttable.rowStart), toShared(p.ttable.cells), 3, p.ttable.sumOrder ? toShared(p.ttable.sumOrder) : undefined);
  const sh: EStepShared = {
    size: p.s.size,
    condTok: p.s.condTok,
    condOff: p.s.condOff,
    predTok: p.s.predTok,
    predOff: p.s.predOff,
    weights: p.s.weights,
    rowStart: p.ttable.rowStart,
    cells: p.ttable.cells,
    ctl: new Int32Array(new SharedArrayBuffer(8)),
    sums: new Float64Array(new SharedArrayBuffer(6 * 8)),
  };
  const n = script ? threads : 1;
  const workers: Worker[] = [];
  const { vocab: _vocab, ...corpusArrays } = shared;
  const data: EmWorkerData = {
    corpus: corpusArrays,
    rowStart: p.ttable.rowStart,
    cells: p.ttable.cells,
    sumOrder: p.ttable.sumOrder!,
    ctl: sh.ctl,
    sums: sh.sums,
    options: o,
  };
  for (let t = 1; t < n; t++) workers.push(new Worker(script!, { workerData: data }));
  const call = (w: Worker, req: EmRequest): Promise<EmReply & { op: "done" }> =>
    new Promise((resolve, reject) => {
      const onMessage = (r: EmReply): void => {
        cleanup();
        if (r.op === "error") reject(new Error(`aligner worker: ${r.message}`));
        else resolve(r);
      };
      const onError = (e: Error): void => {
        cleanup();
        failEStep(sh);
        reject(e);
      };
      const cleanup = (): void => {
        w.off("message", onMessage);
        w.off("error", onError);
      };
      w.on("message", onMessage);
      w.on("error", onError);
      w.postMessage(req);
    });
  try {
    const gen = schedule(p, corpus.vocab, opts.onIteration);
    let res: PassResponse;
    for (;;) {
      const step = gen.next(res);
      if (step.done) return step.value;
      const req = step.value;
      if (req.kind === "em") {
        resetEStep(sh);
        const params: EStepParams = {
          useNull: !o.noNullWord,
          favorDiagonal: o.favorDiagonal,
          probAlignNull: o.probAlignNull,
          tension: req.tension,
          needFeat: req.needFeat,
        };
        const pending = workers.map((w, t) => call(w, { op: "em", params, thread: t + 1, threads: n }));
        try {
          eStepThread(sh, params, 0, n);
        } catch (e) {
          failEStep(sh);
          await Promise.allSettled(pending);
          throw e;
        }
        await Promise.all(pending);
        res = finishEStep(sh);
      } else if (req.kind === "mstep") {
        const rs = p.ttable.rowStart;
        const cuts = split(p.ttable.rows, n, (k) => rs[k]!);
        const pending = workers.map((w, t) => call(w, { op: "mstep", r0: cuts[t + 1]!, r1: cuts[t + 2]! }));
        mStep(p.ttable, o, cuts[0]!, cuts[1]!);
        await Promise.all(pending);
        res = undefined;
      } else {
        const off = p.s.condOff;
        const poff = p.s.predOff;
        const cuts = split(p.s.size, n, (k) => off[k]! + poff[k]!);
        const pending = workers.map((w, t) => call(w, { op: "viterbi", tension: req.model.tension, k0: cuts[t + 1]!, k1: cuts[t + 2]! }));
        const mine = viterbiPass(req.model, shared, cuts[0]!, cuts[1]!);
        const theirs = await Promise.all(pending);
        let likelihood = mine.likelihood;
        const parts: Links[] = [mine.links];
        for (const r of theirs) {
          likelihood += r.likelihood!;
          parts.push(new Links(r.offsets!, r.pairs!));
        }
        res = { links: parts.length > 1 ? concatLinks(parts) : mine.links, likelihood };
      }
    }
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}
