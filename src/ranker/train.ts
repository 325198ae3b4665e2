import { Adam } from "../nn/adam.js";
import * as tf from "@tensorflow/tfjs";
import { existsSync, readFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { InputError } from "../io/errors.js";
import { writeFileAtomic } from "../io/atomic.js";
import type { PairRecord } from "../core/pair-format.js";
import { pronouns } from "../text/pronouns.js";
import { tokenWords } from "../text/tokenize.js";
import { VERSION } from "../version.js";
import { selectBackend, describeBackend, type BackendInfo } from "../nn/backend.js";
import { createModel, saveCheckpoint, type EncoderSpec } from "./checkpoint.js";
import { sha256 } from "../nn/sha256.js";
import { readRankerPairs, fileSignature } from "../nn/data.js";
import { accuracyReport, preparePairs, type EvalReport } from "../nn/evaluate.js";
import { scorePairs } from "./run-model.js";
import { buildEmbeddingTable, decodeEmbeddingTable, encodeEmbeddingTable, type EmbeddingTable } from "../nn/glove.js";
import type { PrepareOptions } from "../nn/inputs.js";
import type { PreparedSide } from "../core/scorer.js";
import type { PretrainedEncoder } from "../nn/encoder.js";
import type { RankerModel } from "./model.js";
import { RankerParallelStepper, rankerShardGradients, rankerWorkerScript } from "./shard.js";
import { WorkerDiedError, dataParallelLine } from "../nn/data-parallel.js";
import { packTensors, assignTensors, toHost } from "../nn/tensors.js";
import { Rng } from "../core/prng.js";
import { modelNameOf } from "./transformers.js";
import { USE_LITE_KIND } from "./use-lite.js";
import { TRAIN_DEFAULTS, type TrainOptions } from "./defaults.js";

export type { TrainOptions };
import { resolveLstmImpl } from "../nn/bilstm-graph.js";


export { TRAIN_DEFAULTS };

export interface ProgressEvent {
  phase: "train" | "dev";
  epoch: number;
  epochs: number;
  done: number;
  total: number;
  loss?: number;
  pairsPerSec?: number;
}

export interface CurvePoint {
  epoch: number;
  step: number;
  trainLoss: number;
  devAccuracy: number | null;
  devByKind: Record<string, number> | null;
  seconds: number;
  pairsPerSec: number;
  best: boolean;
}

export interface TrainResult {
  backend: BackendInfo;
  steps: number;
  epochsDone: number;
  stoppedEarly: boolean;
  best: { epoch: number; devAccuracy: number | null } | null;
  curve: CurvePoint[];
  lossTrace: Array<{ step: number; loss: number }>;
  trainPairs: number;
  devPairs: number;
  seconds: number;
}

/** A worker thread of a data-parallel run died: training stopped; the message says what was written and how to continue. */
export class TrainStoppedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TrainStoppedError";
  }
}

interface ResumeHeader {
  magic: "proneval-resume";
  formatVersion: 1;
  proneval: string;
  optionsKey: string;
  embeddingsSha256: string | null;
  epoch: number;
  batchInEpoch: number;
  step: number;
  adamT: number;
  best: { epoch: number; devAccuracy: number | null } | null;
  curve: CurvePoint[];
  lossTrace: Array<{ step: number; loss: number }>;
  epochLossSum: number;
  epochLossN: number;
  seconds: number;
  /** Data-parallel threads of the run that wrote it (absent: 1). */
  workers?: number;
  tensors: ReturnType<typeof packTensors>["manifest"];
}

/** The options that must be identical for --resume to continue the same run. */
function optionsKey(o: TrainOptions, sigs: Record<string, unknown>): string {
  const { train, dev, encoder, head, context, hidden, dropout, slots, maxLen, contextSentences, epochs, batchSize, lr, clip, margin, seed, maxTrainPairs, trainKinds, maxDevPairs, vocabCap } = o;
  void train;
  void dev;
  // sigs carries initFrom only when set, and encoderLr is added only when set, so runs started before they existed still resume.
  const extra = o.encoderLr !== undefined && o.encoderLr !== o.lr ? { encoderLr: o.encoderLr } : {};
  return JSON.stringify({ encoder, head, context, hidden, dropout, slots, maxLen, contextSentences, epochs, batchSize, lr, clip, margin, seed, maxTrainPairs, trainKinds, maxDevPairs, vocabCap, sigs, ...extra });
}

function encoderSpec(o: TrainOptions): EncoderSpec {
  if (o.encoder === "glove-bilstm") return { kind: "glove-bilstm", hidden: o.hidden, dropout: o.dropout, lstmImpl: o.lstmImpl };
  if (o.encoder.startsWith("transformers:")) return { kind: `transformers:${modelNameOf(o.encoder)}`, dropout: o.dropout };
  if (o.encoder === USE_LITE_KIND) return { kind: USE_LITE_KIND, dropout: o.dropout };
  throw new InputError(`unknown encoder '${o.encoder}' (expected glove-bilstm, use-lite or transformers:<model>)`);
}

/** Buckets by length inside large shuffled chunks, so batches have little padding yet random order. */
function epochBatches(n: number, lengths: (i: number) => number, batchSize: number, rng: Rng): number[][] {
  const order = rng.shuffle(Array.from({ length: n }, (_, i) => i));
  const batches: number[][] = [];
  const chunk = batchSize * 50;
  for (let c = 0; c < n; c += chunk) {
    const part = order.slice(c, c + chunk).sort((a, b) => lengths(a) - lengths(b) || a - b);
    for (let k = 0; k < part.length; k += batchSize) batches.push(part.slice(k, k + batchSize));
  }
  return rng.shuffle(batches);
}

function sample<T>(xs: T[], n: number, rng: Rng): T[] {
  if (!n || n >= xs.length) return xs;
  const idx = rng.shuffle(xs.map((_, i) => i)).slice(0, n).sort((a, b) => a - b);
  return idx.map((i) => xs[i]!);
}

function wordCounts(pairs: PairRecord[]): Map<string, number> {
  const counts = new Map<string, number>();
  const add = (s: string): void => {
    for (const w of tokenWords(s)) counts.set(w, (counts.get(w) ?? 0) + 1);
  };
  for (const p of pairs) {
    add(p.positive);
    add(p.negative);
    for (const c of p.context) add(c);
    for (const c of p.negative_context ?? []) add(c);
  }
  return counts;
}

export interface TrainHooks {
  /**
   * Loads `--init-from DIR` (the CLI passes src/pretrain's loadPretrainedEncoder): the ranker does
   * not depend on the pretraining code, the caller brings the encoder.
   */
  loadInit?: (dir: string) => PretrainedEncoder;
  log?: (msg: string) => void;
  /** Details only `--verbose` shows (the backends `auto` skipped and why). */
  verbose?: (msg: string) => void;
  progress?: (e: ProgressEvent) => void;
}

/**
 * Trains the ranker with the margin loss (Eq. 5). Output directory: the best model so far as a
 * checkpoint (config.json + weights.bin + embeddings.bin), resume.ckpt (weights, Adam moments,
 * position; one atomic file), curve.json. Same seed + backend + data => same weights.
 */
export async function trainRanker(opts: TrainOptions, hooks: TrainHooks = {}): Promise<TrainResult> {
  const log = hooks.log ?? (() => {});
  const t0 = Date.now();
  // A pretrained masked-pronoun model to start from: its hidden size and embedding table are the run's.
  let initLm: PretrainedEncoder | undefined;
  let initSha: string | undefined;
  if (opts.initFrom) {
    if (opts.encoder !== "glove-bilstm") throw new InputError(`--init-from needs --encoder glove-bilstm (got ${opts.encoder})`);
    if (!hooks.loadInit) throw new Error("trainRanker: initFrom needs hooks.loadInit (e.g. loadPretrainedEncoder from src/pretrain/checkpoint.ts)");
    initLm = hooks.loadInit(opts.initFrom);
    initSha = initLm.sha256;
    if (opts.hidden !== initLm.hidden) log(`--init-from: hidden size ${initLm.hidden} of the pretrained model (not ${opts.hidden})`);
    opts = { ...opts, hidden: initLm.hidden };
  }
  const spec = encoderSpec(opts);
  const workers = opts.workers ?? 1;
  if (!(Number.isInteger(workers) && workers >= 1)) throw new InputError(`--workers must be a positive integer, got ${workers}`);
  if (workers > opts.batchSize) throw new InputError(`--workers ${workers} is more than the ${opts.batchSize} pairs of a batch (--batch-size)`);
  if (workers > 1 && spec.kind !== "glove-bilstm") throw new InputError(`--workers > 1 trains the glove-bilstm encoder only (got ${spec.kind})`);
  if (workers > 1 && !rankerWorkerScript()) throw new InputError("--workers > 1 needs the compiled build (npx tsc -p .): dist/src/ranker/train-worker.js is missing");
  const backend = await selectBackend(opts.backend);
  log(describeBackend(backend));
  if (backend.skipped.length) hooks.verbose?.(`skipped backends: ${backend.skipped.join("; ")}`);
  if (spec.kind === "glove-bilstm") log(`BiLSTM implementation: ${resolveLstmImpl(opts.lstmImpl)}${(opts.lstmImpl ?? "auto") === "auto" ? " (auto)" : ""}`);
  if (!(opts.batchSize >= 1) || !(opts.epochs >= 1)) throw new InputError("--batch-size and --epochs must be at least 1");
  if (opts.encoderLr !== undefined && !(opts.encoderLr >= 0)) throw new InputError(`--encoder-lr must be 0 (frozen) or positive, got ${opts.encoderLr}`);

  const rngData = new Rng(opts.seed ^ 0x5eed);
  const trainAll = await readRankerPairs(opts.train, opts.context);
  const kindFiltered = opts.trainKinds === "all" ? trainAll : trainAll.filter((p) => p.kind === opts.trainKinds);
  if (kindFiltered.length === 0) throw new InputError(`no training pairs of kind '${opts.trainKinds}'`, opts.train);
  const train = sample(kindFiltered, opts.maxTrainPairs, rngData);
  const devAll = opts.dev ? await readRankerPairs(opts.dev, opts.context) : [];
  const dev = sample(devAll, opts.maxDevPairs, rngData);
  const sigs = {
    train: await fileSignature(opts.train, trainAll.length),
    trainUsed: train.length,
    trainKinds: opts.trainKinds,
    dev: opts.dev ? await fileSignature(opts.dev, devAll.length) : null,
    devUsed: dev.length,
    ...(initSha ? { initFrom: `pronoun-lm@${initSha.slice(0, 16)}` } : {}),
  };
  log(`training pairs: ${train.length}${opts.trainKinds !== "all" ? ` of kind ${opts.trainKinds}` : ""}${train.length < kindFiltered.length ? ` (seeded subsample of ${kindFiltered.length})` : ""}; dev pairs: ${dev.length}${dev.length < devAll.length ? ` (of ${devAll.length})` : ""}`);

  const resumePath = join(opts.out, "resume.ckpt");
  const embPath = join(opts.out, "embeddings.bin");
  let header: ResumeHeader | undefined;
  let resumeData: Buffer | undefined;
  if (opts.resume && existsSync(resumePath)) {
    const buf = readFileSync(resumePath);
    const hlen = buf.readUInt32LE(0);
    header = JSON.parse(buf.toString("utf8", 4, 4 + hlen)) as ResumeHeader;
    resumeData = buf.subarray(4 + hlen);
    if (header.magic !== "proneval-resume" || header.formatVersion !== 1) throw new InputError("not a proneval resume checkpoint", resumePath);
    if (header.optionsKey !== optionsKey(opts, sigs))
      throw new InputError("cannot resume: options or training data differ from the interrupted run (use the same command, or a new --out)", resumePath);
    log(`resuming at epoch ${header.epoch + 1}, step ${header.step}`);
    if ((header.workers ?? 1) !== workers) log(`the interrupted run used ${header.workers ?? 1} worker(s), this one ${workers}: the same training up to float rounding in the gradient sums`);
  } else if (opts.resume) {
    log("no resume.ckpt in the output directory: starting from scratch");
  }

  let table: EmbeddingTable | undefined;
  if (spec.kind === "glove-bilstm") {
    if (header && existsSync(embPath)) {
      const buf = readFileSync(embPath);
      if (sha256(buf) !== header.embeddingsSha256) throw new InputError("embeddings.bin differs from the one of the interrupted run", embPath);
      table = decodeEmbeddingTable(buf, embPath);
    } else {
      const tb = Date.now();
      // The output directory appears with its first file (embeddings.bin, written atomically): bad input or an
      // interruption while the cache is built (Ctrl-C) leaves no directory behind.
      table = initLm ? initLm.table : buildEmbeddingTable({ counts: wordCounts(train), required: pronouns().list.map((p) => p.pronoun), cap: opts.vocabCap, source: opts.embeddingsSource });
      writeFileAtomic(embPath, encodeEmbeddingTable(table));
      log(`GloVe cache: ${table.words.length} words x ${table.dim} (fp16) built in ${((Date.now() - tb) / 1000).toFixed(1)} s -> ${embPath}`);
    }
  }
  const embSha = existsSync(embPath) && table ? sha256(readFileSync(embPath)) : null;

  const model = await createModel({ encoder: spec, head: { head: opts.head, slots: opts.slots } }, table, new Rng(opts.seed), opts.modelDir, { allowHub: opts.allowHub });
  mkdirSync(opts.out, { recursive: true });
  if (initLm) {
    // Same parameter names (lstm/*) in both encoders; the head starts from its seeded initialisation.
    for (const [name, v] of initLm.params) model.encoder.params.get(name)!.assign(v);
    log(`encoder initialised from the pretrained model ${opts.initFrom} (${[...initLm.params.keys()].join(", ")})`);
    initLm.dispose();
  }
  // A frozen graph encoder's features do not change: keep them (fp16) so that epochs after the first skip it.
  if ("setFeatureCache" in model.encoder) (model.encoder as { setFeatureCache(mb: number): void }).setFeatureCache(opts.featureCacheMb ?? 2048);
  const params = model.allParams();
  // A frozen encoder (--encoder-lr 0) is left out of the optimised set, so tf.variableGrads never
  // differentiates through it; a lower encoder rate scales the Adam step of its parameters.
  const frozenEncoder = opts.encoderLr === 0;
  const trainParams = frozenEncoder ? new Map(model.params) : params;
  const adam = new Adam(trainParams, opts.lr);
  if (opts.encoderLr !== undefined && opts.encoderLr > 0 && opts.encoderLr !== opts.lr) for (const k of model.encoder.params.keys()) adam.lrScale.set(k, opts.encoderLr / opts.lr);
  if (opts.encoderLr !== undefined) log(frozenEncoder ? "encoder frozen: only the head trains" : `encoder learning rate ${opts.encoderLr} (head ${opts.lr})`);
  let step = 0;
  let startEpoch = 0;
  let startBatch = 0;
  let best: TrainResult["best"] = null;
  let curve: CurvePoint[] = [];
  let lossTrace: Array<{ step: number; loss: number }> = [];
  let epochLossSum = 0;
  let epochLossN = 0;
  let secondsBefore = 0;
  if (header && resumeData) {
    const targets = new Map<string, tf.Variable>(params);
    for (const [k, m] of adam.m) targets.set(`adam/m/${k}`, m);
    for (const [k, v] of adam.v) targets.set(`adam/v/${k}`, v);
    assignTensors(targets, header.tensors, resumeData, resumePath);
    adam.t = header.adamT;
    step = header.step;
    startEpoch = header.epoch;
    startBatch = header.batchInEpoch;
    best = header.best;
    curve = header.curve;
    lossTrace = header.lossTrace;
    epochLossSum = header.epochLossSum;
    epochLossN = header.epochLossN;
    secondsBefore = header.seconds;
  }

  const prep: PrepareOptions = { contextSentences: opts.contextSentences, maxLen: opts.maxLen };
  const tr = preparePairs(train, opts.context, prep);
  const dv = dev.length ? preparePairs(dev, opts.context, prep) : null;
  const lenOf = (i: number): number => Math.max(tr.pos[i]!.tokens.length, tr.neg[i]!.tokens.length);

  const runStart = Date.now();
  const writeResume = async (epoch: number, batchInEpoch: number): Promise<void> => {
    const named = new Map<string, tf.Tensor>(params);
    for (const [k, m] of adam.m) named.set(`adam/m/${k}`, m);
    for (const [k, v] of adam.v) named.set(`adam/v/${k}`, v);
    // On the host before packing: a GPU backend may have no synchronous read.
    await toHost(named.values());
    const { manifest, data } = packTensors(named);
    const h: ResumeHeader = {
      magic: "proneval-resume",
      formatVersion: 1,
      proneval: VERSION,
      optionsKey: optionsKey(opts, sigs),
      embeddingsSha256: embSha,
      epoch,
      batchInEpoch,
      step,
      adamT: adam.t,
      best,
      curve,
      lossTrace,
      epochLossSum,
      epochLossN,
      seconds: secondsBefore + (Date.now() - runStart) / 1000,
      ...(workers > 1 ? { workers } : {}),
      tensors: manifest,
    };
    const hb = Buffer.from(JSON.stringify(h), "utf8");
    const len = Buffer.alloc(4);
    len.writeUInt32LE(hb.length);
    writeFileAtomic(resumePath, Buffer.concat([len, hb, data]));
  };
  const writeCurve = (): void => writeFileAtomic(join(opts.out, "curve.json"), JSON.stringify({ curve, lossTrace }, null, 1) + "\n");

  const endEpoch = async (epoch: number, epochStart: number, pairsThisRun: number, partial: boolean, fraction = 1): Promise<void> => {
    const trainLoss = epochLossSum / Math.max(1, epochLossN);
    let report: EvalReport | null = null;
    if (dv) {
      const scores = await scorePairs(model, dv.pos, dv.neg, (done) => hooks.progress?.({ phase: "dev", epoch, epochs: opts.epochs, done, total: 2 * dev.length }));
      report = accuracyReport(dev, scores, opts.context);
    }
    const acc = report ? report.overall.accuracy : null;
    const isBest = !best || acc === null || (best.devAccuracy !== null && acc > best.devAccuracy);
    const secs = (Date.now() - epochStart) / 1000;
    curve.push({
      epoch: partial ? epoch + fraction : epoch + 1,
      step,
      trainLoss,
      devAccuracy: acc,
      devByKind: report ? Object.fromEntries(Object.entries(report.byKind).map(([k, c]) => [k, c.accuracy])) : null,
      seconds: secs,
      pairsPerSec: pairsThisRun / Math.max(1e-3, secs),
      best: isBest,
    });
    log(`epoch ${partial ? `${(epoch + fraction).toFixed(2)} (stopped early)` : epoch + 1}/${opts.epochs}: train loss ${trainLoss.toFixed(4)}${report ? `, dev accuracy ${(100 * report.overall.accuracy).toFixed(2)}% (${Object.entries(report.byKind).map(([k, c]) => `${k} ${(100 * c.accuracy).toFixed(2)}%`).join(", ")})` : ""}${isBest ? " *best*" : ""}`);
    if (isBest) {
      best = { epoch: partial ? epoch + fraction : epoch + 1, devAccuracy: acc };
      await toHost(params.values());
      saveCheckpoint(opts.out, model, {
        contextMode: opts.context,
        prepare: prep,
        data: sigs,
        training: {
          command: "proneval train",
          seed: opts.seed,
          epoch: partial ? epoch + fraction : epoch + 1,
          step,
          batchSize: opts.batchSize,
          lr: opts.lr,
          margin: opts.margin,
          dropout: opts.dropout,
          ...(opts.encoderLr !== undefined ? { encoderLr: opts.encoderLr } : {}),
          backend: backend.backend,
          ...(spec.kind === "glove-bilstm" ? { lstmImpl: resolveLstmImpl(opts.lstmImpl) } : {}),
          ...(workers > 1 ? { workers } : {}),
          devAccuracy: acc,
          devByKind: curve[curve.length - 1]!.devByKind,
        },
      });
    }
  };

  // Data parallel: this thread computes shard 0 of each batch, worker threads 1..N-1 the others.
  let parallel: RankerParallelStepper | undefined;
  if (workers > 1) {
    try {
      parallel = await RankerParallelStepper.start(model, { encoder: spec, head: { head: opts.head, slots: opts.slots } }, table!, trainParams, adam, {
        clip: opts.clip,
        margin: opts.margin,
        threads: workers,
        backend: backend.backend,
        ...(opts.faultWorkerExitAtStep !== undefined ? { exitAtStep: opts.faultWorkerExitAtStep } : {}),
      });
    } catch (e) {
      adam.dispose();
      model.dispose();
      if (e instanceof WorkerDiedError) throw new TrainStoppedError(`train: ${e.message} while starting a ${workers}-thread run; nothing was trained`);
      throw e;
    }
    log(dataParallelLine(workers, opts.batchSize, "pairs"));
  }

  let stoppedEarly = false;
  let epoch = startEpoch;
  try {
    for (; epoch < opts.epochs; epoch++) {
      const batches = epochBatches(train.length, lenOf, opts.batchSize, new Rng((opts.seed * 1000003 + epoch * 7919) >>> 0));
      const epochStart = Date.now();
      let pairsThisRun = 0;
      for (let bi = epoch === startEpoch ? startBatch : 0; bi < batches.length; bi++) {
        const idx = batches[bi]!;
        const pos: PreparedSide[] = idx.map((i) => tr.pos[i]!);
        const neg: PreparedSide[] = idx.map((i) => tr.neg[i]!);
        const n = idx.length;
        const dropoutSeed = (opts.seed * 31 + step * 2) >>> 0;
        let loss: number;
        if (parallel) {
          try {
            loss = await parallel.step(pos, neg, dropoutSeed, step);
          } catch (e) {
            if (!(e instanceof WorkerDiedError)) throw e;
            // The step was not applied: the state is exactly that after `step` steps, at batch bi.
            await writeResume(epoch, bi);
            writeCurve();
            throw new TrainStoppedError(`train: ${e.message} at step ${step + 1} of a ${workers}-thread run; stopped, with ${resumePath} written at step ${step}: continue with the same command and --resume`);
          }
        } else {
          const r = await rankerShardGradients(model, trainParams, pos, neg, opts.margin, dropoutSeed);
          adam.apply(r.grads, opts.clip);
          tf.dispose([...r.grads.values()]);
          loss = r.loss;
        }
        step++;
        epochLossSum += loss * n;
        epochLossN += n;
        pairsThisRun += n;
        if (step % 20 === 0) lossTrace.push({ step, loss: epochLossSum / Math.max(1, epochLossN) });
        const secs = (Date.now() - epochStart) / 1000;
        hooks.progress?.({ phase: "train", epoch, epochs: opts.epochs, done: Math.min(train.length, (bi + 1) * opts.batchSize), total: train.length, loss: epochLossSum / Math.max(1, epochLossN), pairsPerSec: pairsThisRun / Math.max(1e-3, secs) });
        const stopNow = (opts.maxSteps > 0 && step >= opts.maxSteps) || (opts.maxMinutes > 0 && Date.now() - runStart > opts.maxMinutes * 60000);
        if (step % opts.checkpointEvery === 0 || stopNow) {
          await writeResume(epoch, bi + 1);
          writeCurve();
        }
        if (stopNow) {
          stoppedEarly = true;
          // A time-boxed run still yields a usable model: evaluate and keep it if it is the best.
          if (opts.evalAtStop || (opts.maxMinutes > 0 && !(opts.maxSteps > 0 && step >= opts.maxSteps))) {
            await endEpoch(epoch, epochStart, pairsThisRun, true, (bi + 1) / batches.length);
            writeCurve();
          }
          break;
        }
      }
      if (stoppedEarly) break;
      await endEpoch(epoch, epochStart, pairsThisRun, false);
      epochLossSum = 0;
      epochLossN = 0;
      await writeResume(epoch + 1, 0);
      writeCurve();
    }
  } finally {
    await parallel?.close();
    adam.dispose();
    model.dispose();
  }
  return {
    backend,
    steps: step,
    epochsDone: Math.min(epoch, opts.epochs),
    stoppedEarly,
    best,
    curve,
    lossTrace,
    trainPairs: train.length,
    devPairs: dev.length,
    seconds: secondsBefore + (Date.now() - t0) / 1000,
  };
}
