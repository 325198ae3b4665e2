import { Adam } from "../nn/adam.js";
import * as tf from "@tensorflow/tfjs";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { InputError } from "../io/errors.js";
import { writeFileAtomic } from "../io/atomic.js";
import { VERSION, PACKAGE_ROOT } from "../version.js";
import { selectBackend, describeBackend, type BackendInfo } from "../nn/backend.js";
import { resolveLstmImpl } from "../nn/bilstm-graph.js";
import { buildEmbeddingTable, readEmbeddingTable, writeEmbeddingTable, encodeEmbeddingTable, Vocab, type EmbeddingTable } from "../nn/glove.js";
import { packTensors, assignTensors, toHost } from "../nn/tensors.js";
import { sha256 } from "../nn/sha256.js";
import { readRankerPairs, fileSignature } from "../nn/data.js";
import { Rng } from "../core/prng.js";
import { ProgressLine, fmtDuration } from "../core/progress.js";
import { PronounLm } from "./model.js";
import { corpusCounts, loadPretrainData, makeWindow, epochBatches, readConfusions, replaceWindow, type Confusions } from "./data.js";
import { replacedEval } from "./replaced.js";
import { zeroShotEval, logPriorFromLabels } from "./zeroshot.js";
import { savePronounLm, loadPronounLm, archOfConfig } from "./checkpoint.js";
import { PRETRAIN_DEFAULTS, type PretrainOptions } from "./defaults.js";
import { describeArch, isDefaultBiLstm, type LmArch } from "./arch.js";
import { WorkerDiedError, compiledScript, dataParallelLine } from "../nn/data-parallel.js";
import { DataParallelStepper, shardGradients } from "./shard.js";


export { PRETRAIN_DEFAULTS };
export type { PretrainOptions };

export interface PretrainCurvePoint {
  step: number;
  epoch: number;
  windows: number;
  tokens: number;
  /** Mean training loss since the previous point. */
  loss: number;
  /** Training wall seconds so far (over all resumed runs). */
  seconds: number;
  tokensPerSec: number;
  /** Zero-shot accuracy with the summed log-probabilities, and with PMI (log P - log prior). */
  dev?: { overall: number; system?: number; noisy?: number; pairs: number; seconds: number; pmi?: { overall: number; system?: number; noisy?: number } };
}

interface ResumeHeader {
  magic: "proneval-pretrain-resume";
  /** The encoder's shape (absent in checkpoints written before other encoders existed: a one-layer BiLSTM). */
  arch?: LmArch;
  /** Data-parallel threads of the run that wrote it (absent: 1). */
  workers?: number;
  formatVersion: 1;
  optionsKey: string;
  epoch: number;
  batchInEpoch: number;
  step: number;
  adamT: number;
  windows: number;
  tokens: number;
  seconds: number;
  curve: PretrainCurvePoint[];
  tensors: ReturnType<typeof packTensors>["manifest"];
}

function optionsKey(o: PretrainOptions, arch: LmArch, corpusSig: string, tableSha: string, confSig: string | null, initSha: string | null): string {
  const { hidden, dropout, batchSize, lr, clip, seed, maxLen, contextSentences, vocabCap, maxDocs } = o;
  // The objective and the encoder enter the key only when they are not the original ones, so runs started before they existed still resume.
  const extra = o.objective && o.objective !== "masked" ? { objective: o.objective, confSig } : {};
  const enc = isDefaultBiLstm(arch) ? {} : { arch };
  // Likewise the starting model of a continued run.
  const init = initSha ? { init: initSha } : {};
  return JSON.stringify({ hidden, dropout, batchSize, lr, clip, seed, maxLen, contextSentences, vocabCap, maxDocs, corpusSig, tableSha, ...extra, ...enc, ...init });
}

/** The shape a resume checkpoint holds (before the header recorded it: a one-layer BiLSTM of the key's hidden size). */
function headerArch(h: ResumeHeader): LmArch {
  if (h.arch) return h.arch;
  const hidden = (JSON.parse(h.optionsKey) as { hidden?: number }).hidden ?? 128;
  return { kind: "glove-bilstm", hidden, layers: 1 };
}

/** A data-parallel run stopped because a worker thread died; resume.ckpt and the model are written. */
export class PretrainStoppedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PretrainStoppedError";
  }
}



export interface PretrainResult {
  backend: BackendInfo;
  steps: number;
  curve: PretrainCurvePoint[];
  seconds: number;
  stopped: "max-steps" | "max-minutes" | "signal";
}

/**
 * Masked-pronoun pretraining (docs/pretrain.md). Runs until --max-steps / --max-minutes or a
 * SIGINT/SIGTERM; writes resume.ckpt atomically every --checkpoint-every steps (and on stop), the
 * model (config.json, weights.bin, embeddings.bin) and curve.json at every evaluation and on stop.
 * The batch order of epoch e depends only on (seed, e), dropout seeds on the step, so a resumed run
 * continues exactly where the checkpoint was written.
 */
export async function pretrain(opts: PretrainOptions, log: (m: string) => void = (m) => process.stderr.write(m + "\n")): Promise<PretrainResult> {
  if (!existsSync(opts.corpus)) throw new InputError("corpus file not found", opts.corpus);
  if (opts.dev && !existsSync(opts.dev)) throw new InputError("dev pair file not found", opts.dev);
  const arch: LmArch = opts.arch ?? { kind: "glove-bilstm", hidden: opts.hidden, layers: 1 };
  const hidden = arch.kind === "glove-bilstm" ? arch.hidden : arch.width;
  const workers = opts.workers ?? 1;
  if (!(Number.isInteger(workers) && workers >= 1)) throw new InputError(`--workers must be a positive integer, got ${workers}`);
  if (workers > opts.batchSize) throw new InputError(`--workers ${workers} is more than the ${opts.batchSize} windows of a batch`);
  if (workers > 1 && !compiledScript("pretrain", "train-worker.js", import.meta.url)) throw new InputError("--workers > 1 needs the compiled build (npx tsc -p .): dist/src/pretrain/train-worker.js is missing");
  const backend = await selectBackend(opts.backend);
  log(describeBackend(backend));
  log(`encoder: ${describeArch(arch)}${arch.kind === "glove-bilstm" ? `; BiLSTM implementation: ${resolveLstmImpl(opts.lstmImpl)}` : ""}`);
  // The output directory appears with its first file (embeddings.bin, written atomically): an interruption
  // while the corpus is counted (Ctrl-C) leaves no empty directory behind.
  const embPath = join(opts.out, "embeddings.bin");
  const objective = opts.objective ?? "masked";
  // Continued pretraining reads the starting model first: a wrong shape is refused before the corpus is read.
  const init = opts.init ? loadPronounLm(opts.init) : undefined;
  if (init && opts.init) {
    const initArch = archOfConfig(init.config, join(opts.init, "config.json"));
    const initObjective = init.config.objective ?? "masked";
    const problem =
      describeArch(initArch) !== describeArch(arch) ? `it is a ${describeArch(initArch)}, this command asks for a ${describeArch(arch)} (use its encoder options)`
      : initObjective !== objective ? `it was trained with the ${initObjective} objective, this command asks for ${objective}`
      : null;
    if (problem) {
      init.lm.dispose();
      throw new InputError(`--init: cannot continue from this model: ${problem}`, join(opts.init, "config.json"));
    }
  }
  let table: EmbeddingTable;
  if (init) {
    // The starting model's vocabulary and vectors: its weights were trained on them.
    table = init.lm.table;
    log(`continuing from ${opts.init} (${describeArch(arch)}, ${table.words.length} words, weights ${init.config.files.weights.sha256.slice(0, 8)})`);
  } else if (existsSync(embPath)) {
    table = readEmbeddingTable(embPath);
    log(`embeddings: ${embPath} (${table.words.length} words)`);
  } else {
    if (opts.resume && existsSync(join(opts.out, "resume.ckpt"))) throw new InputError("resume.ckpt exists but embeddings.bin is missing", opts.out);
    log("counting corpus words for the vocabulary ...");
    const counts = await corpusCounts(opts.corpus);
    table = buildEmbeddingTable({ counts, required: pronounList(), cap: opts.vocabCap });
    // The directory is made only once the corpus has been read whole: bad input leaves nothing behind.
    mkdirSync(opts.out, { recursive: true });
    writeEmbeddingTable(embPath, table);
    log(`embeddings: ${table.words.length} words written to ${embPath}`);
  }
  const tableSha = sha256(encodeEmbeddingTable(table));
  if (init && existsSync(embPath) && sha256(readFileSync(embPath)) !== tableSha) {
    init.lm.dispose();
    throw new InputError(`embeddings.bin is not the vocabulary of the --init model ${opts.init} (use the run's own --init, or a new --out)`, embPath);
  }
  const vocab = new Vocab(table.words);
  const t0 = Date.now();
  const data = await loadPretrainData(opts.corpus, vocab, opts.maxLen, opts.maxDocs);
  const corpusSig = await fileSignature(opts.corpus, data.targets.length);
  if (init && !existsSync(embPath)) {
    // As for a fresh vocabulary: the directory appears only once the corpus has been read whole.
    mkdirSync(opts.out, { recursive: true });
    writeEmbeddingTable(embPath, table);
  }
  log(`corpus: ${data.tokens} tokens, ${data.sentOff.length - 1} sentences, ${data.targets.length} target sentences (${data.skippedLong} longer than ${opts.maxLen} tokens skipped), loaded in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

  const devPairs = opts.dev ? subsample(await readRankerPairs(opts.dev, "crc"), opts.maxDevPairs, opts.seed) : [];
  let conf: Confusions | undefined;
  let confSig: string | null = null;
  if (objective === "replaced") {
    if (!opts.confusions) throw new InputError("--objective replaced needs --confusions <pair file> (the R-vs-S training pairs give the replacement distribution)");
    conf = await readConfusions(opts.confusions);
    confSig = await fileSignature(opts.confusions, conf.pairs);
    log(`replacement distribution: ${conf.pairs} (reference, system) pronoun confusions from ${opts.confusions}`);
  }
  const pronounRows = Int32Array.from(pronounList(), (p) => vocab.row(p));
  const lm = new PronounLm(table, hidden, opts.dropout, new Rng(opts.seed), objective, opts.lstmImpl, arch);
  lm.logPrior = logPriorFromLabels(data.pronLabel);
  const params = lm.allParams();
  const initSha = init ? init.config.files.weights.sha256 : null;
  if (init) {
    // Starting weights (a resume below overwrites them with the run's own).
    const { manifest, data: bin } = packTensors(init.lm.allParams());
    assignTensors(params, manifest, bin, join(opts.init!, "weights.bin"));
    init.lm.dispose();
  }
  const adam = new Adam(params, opts.lr);
  const key = optionsKey(opts, arch, corpusSig, tableSha, confSig, initSha);
  const resumePath = join(opts.out, "resume.ckpt");
  let epoch = 0;
  let batchInEpoch = 0;
  let step = 0;
  let windows = 0;
  let tokens = 0;
  let secondsBefore = 0;
  let curve: PretrainCurvePoint[] = [];
  if (opts.resume && existsSync(resumePath)) {
    const buf = readFileSync(resumePath);
    const hlen = buf.readUInt32LE(0);
    const h = JSON.parse(buf.toString("utf8", 4, 4 + hlen)) as ResumeHeader;
    if (h.magic !== "proneval-pretrain-resume" || h.formatVersion !== 1) throw new InputError("not a pretraining resume checkpoint", resumePath);
    const was = headerArch(h);
    if (describeArch(was) !== describeArch(arch)) throw new InputError(`cannot resume: the interrupted run trained a ${describeArch(was)}, this command asks for a ${describeArch(arch)} (use the run's encoder options, or a new --out)`, resumePath);
    if (h.optionsKey !== key) throw new InputError("cannot resume: options or corpus differ from the interrupted run (use the same command, or a new --out)", resumePath);
    const targets = new Map(params);
    for (const [k, m] of adam.m) targets.set(`adam/m/${k}`, m);
    for (const [k, v] of adam.v) targets.set(`adam/v/${k}`, v);
    assignTensors(targets, h.tensors, buf.subarray(4 + hlen), resumePath);
    ({ epoch, batchInEpoch, step, windows, tokens, curve } = h);
    adam.t = h.adamT;
    secondsBefore = h.seconds;
    log(`resumed at step ${step} (epoch ${epoch + 1}, batch ${batchInEpoch})`);
    if ((h.workers ?? 1) !== workers) log(`the interrupted run used ${h.workers ?? 1} worker(s), this one ${workers}: the same training up to float rounding in the gradient sums`);
  } else if (opts.resume) {
    log(`no resume.ckpt in the output directory: starting ${init ? `from ${opts.init}` : "from scratch"}`);
  }

  let died: WorkerDiedError | null = null;
  // Data parallel: this thread computes shard 0, worker threads 1..N-1 the others (src/nn/data-parallel.ts).
  let parallel: DataParallelStepper | undefined;
  if (workers > 1) {
    try {
      parallel = await DataParallelStepper.start(lm, params, adam, opts.clip, workers, {
        backend: opts.backend,
        hidden,
        dropout: opts.dropout,
        objective,
        lstmImpl: opts.lstmImpl,
        ...(opts.faultWorkerExitAtStep !== undefined ? { exitAtStep: opts.faultWorkerExitAtStep } : {}),
      });
    } catch (e) {
      adam.dispose();
      lm.dispose();
      throw e;
    }
    log(dataParallelLine(workers, opts.batchSize, "windows"));
  }
  const runStart = Date.now();
  // Training seconds only: dev evaluations are timed separately (in the curve) and left out.
  let evalSeconds = 0;
  const elapsed = (): number => secondsBefore + (Date.now() - runStart) / 1000 - evalSeconds;
  const writeResume = (): void => {
    const named = new Map<string, tf.Tensor>(params);
    for (const [k, m] of adam.m) named.set(`adam/m/${k}`, m);
    for (const [k, v] of adam.v) named.set(`adam/v/${k}`, v);
    const { manifest, data: bin } = packTensors(named);
    const header: ResumeHeader = { magic: "proneval-pretrain-resume", ...(isDefaultBiLstm(arch) ? {} : { arch }), ...(workers > 1 ? { workers } : {}), formatVersion: 1, optionsKey: key, epoch, batchInEpoch, step, adamT: adam.t, windows, tokens, seconds: elapsed(), curve, tensors: manifest };
    const hb = Buffer.from(JSON.stringify(header), "utf8");
    const len = Buffer.alloc(4);
    len.writeUInt32LE(hb.length);
    writeFileAtomic(resumePath, Buffer.concat([len, hb, bin]));
  };
  // Every tensor a checkpoint holds, on the host before it is packed (a GPU backend reads asynchronously).
  const weightsToHost = (): Promise<void> => toHost([...params.values(), ...adam.m.values(), ...adam.v.values()]);
  const saveModel = (dir = opts.out): void => {
    savePronounLm(dir, lm, {
      prepare: { contextSentences: opts.contextSentences, maxLen: opts.maxLen },
      training: { corpus: corpusSig, ...(objective !== "masked" ? { objective, confusions: confSig } : {}), ...(init ? { init: { dir: opts.init, weightsSha256: initSha } } : {}), step, windows, tokens, seconds: Math.round(elapsed()), seed: opts.seed, batchSize: opts.batchSize, lr: opts.lr, backend: backend.backend, ...(arch.kind === "glove-bilstm" ? { lstmImpl: resolveLstmImpl(opts.lstmImpl) } : {}), ...(workers > 1 ? { workers } : {}), lastDev: [...curve].reverse().find((c) => c.dev)?.dev ?? null, proneval: VERSION },
    });
    writeFileAtomic(join(dir, "curve.json"), JSON.stringify({ options: { ...opts, resume: undefined, quiet: undefined, faultWorkerExitAtStep: undefined }, curve }, null, 1) + "\n");
  };
  const evaluate = (): PretrainCurvePoint["dev"] => {
    if (!devPairs.length) return undefined;
    const e0 = Date.now();
    const prep = { contextSentences: opts.contextSentences, maxLen: opts.maxLen };
    const both = objective === "replaced" ? replacedEval(lm, devPairs, "crc", prep) : zeroShotEval(lm, devPairs, "crc", prep);
    const r = both.sum;
    const pmi = both.pmi ? { overall: both.pmi.overall.accuracy, system: both.pmi.byKind.system?.accuracy, noisy: both.pmi.byKind.noisy?.accuracy } : undefined;
    const seconds = (Date.now() - e0) / 1000;
    evalSeconds += seconds;
    return { overall: r.overall.accuracy, system: r.byKind.system?.accuracy, noisy: r.byKind.noisy?.accuracy, pairs: r.pairs, seconds, ...(pmi ? { pmi } : {}) };
  };

  let stopSignal = false;
  const onSig = (): void => {
    stopSignal = true;
  };
  process.on("SIGINT", onSig);
  process.on("SIGTERM", onSig);
  const line = new ProgressLine(process.stderr, Boolean(opts.quiet));
  let lossSum = 0;
  let lossN = 0;
  let tokSince = 0;
  let secSince = Date.now();
  let stopped: PretrainResult["stopped"] = "max-steps";
  const recordPoint = (withDev: boolean): void => {
    const tokensPerSec = Math.round(tokSince / Math.max(1e-3, (Date.now() - secSince) / 1000));
    const dev = withDev ? evaluate() : undefined;
    curve.push({ step, epoch, windows, tokens, loss: lossN ? lossSum / lossN : NaN, seconds: Math.round(elapsed()), tokensPerSec, dev });
    lossSum = 0;
    lossN = 0;
    tokSince = 0;
    secSince = Date.now();
  };
  try {
    if (step === 0 && devPairs.length) {
      const dev = evaluate();
      curve.push({ step: 0, epoch: 0, windows: 0, tokens: 0, loss: NaN, seconds: 0, tokensPerSec: 0, dev });
      log(`step 0: zero-shot dev ${fmtAcc(dev)}`);
      secSince = Date.now();
    }
    outer: for (;;) {
      const batches = epochBatches(data, epoch, opts.seed, opts.batchSize, opts.maxLen, opts.contextSentences);
      for (; batchInEpoch < batches.length; batchInEpoch++) {
        if (opts.maxSteps && step >= opts.maxSteps) break outer;
        if (opts.maxMinutes && (Date.now() - runStart) / 60000 >= opts.maxMinutes) {
          stopped = "max-minutes";
          break outer;
        }
        // Training is synchronous tfjs work: yield to the event loop so SIGINT/SIGTERM handlers can run.
        await new Promise((r) => setImmediate(r));
        if (stopSignal) {
          stopped = "signal";
          break outer;
        }
        const dropSeed = (opts.seed * 31 + step) >>> 0;
        // Replacements are drawn from a generator seeded by the step, so a resumed run draws the same ones.
        const swapRng = conf ? new Rng((dropSeed * 2654435761) >>> 0) : undefined;
        const ws = batches[batchInEpoch]!.map(([k, j]) => {
          const w = makeWindow(data, k, j, opts.maxLen, opts.contextSentences);
          return conf ? replaceWindow(w, conf, pronounRows, swapRng!) : w;
        });
        let loss: number;
        if (parallel) {
          try {
            loss = await parallel.step(ws, dropSeed, step);
          } catch (e) {
            if (!(e instanceof WorkerDiedError)) throw e;
            // The step was not applied: the state is exactly that after `step` steps, written below.
            died = e;
            break outer;
          }
        } else if (arch.kind === "glove-transformer") {
          // In micro-batches that fit wasm's memory (shard.ts), one Adam step on their mean.
          const r = shardGradients(lm, params, ws, dropSeed);
          loss = r.loss;
          adam.apply(r.grads, opts.clip);
          tf.dispose([...r.grads.values()]);
        } else {
          const { value, grads } = tf.variableGrads(() => lm.loss(ws, true, dropSeed), [...params.values()]);
          loss = (await value.data())[0]!;
          value.dispose();
          // variableGrads keys gradients by the variables' tfjs names, not by our parameter names.
          adam.apply(new Map([...params].map(([k, v]) => [k, grads[v.name]!] as [string, tf.Tensor])), opts.clip);
          tf.dispose(Object.values(grads));
        }
        // Nothing after a non-finite loss is worth keeping: stop before it reaches a checkpoint.
        if (!Number.isFinite(loss))
          throw new PretrainStoppedError(`pretrain: the loss is ${loss} at step ${step + 1} (training diverged, or the backend computed nothing: try a lower --lr or another --backend); ${resumePath} still holds the last good checkpoint`);
        step++;
        windows += ws.length;
        const nt = ws.reduce((a, w) => a + w.rows.length, 0);
        tokens += nt;
        tokSince += nt;
        lossSum += loss;
        lossN++;
        const tps = tokSince / Math.max(1e-3, (Date.now() - secSince) / 1000);
        line.update(`pretrain epoch ${epoch + 1} batch ${batchInEpoch + 1}/${batches.length} step ${step} loss ${(lossSum / lossN).toFixed(3)} ${Math.round(tps)} tokens/s elapsed ${fmtDuration(elapsed())}`);
        if (step % opts.evalEvery === 0) {
          batchInEpoch++;
          line.done();
          await weightsToHost();
          recordPoint(true);
          const last = curve[curve.length - 1]!;
          log(`step ${step}: loss ${last.loss.toFixed(3)}, ${last.tokensPerSec} tokens/s, zero-shot dev ${fmtAcc(last.dev)} (${fmtDuration(last.seconds)} of training)`);
          saveModel();
          if (opts.keepSnapshots) {
            const snap = join(opts.out, "snapshots", `step-${step}`);
            mkdirSync(snap, { recursive: true });
            saveModel(snap);
          }
          writeResume();
          batchInEpoch--;
        } else if (step % opts.checkpointEvery === 0) {
          batchInEpoch++;
          await weightsToHost();
          if (step % (opts.checkpointEvery * 5) === 0) recordPoint(false);
          writeResume();
          batchInEpoch--;
        }
      }
      epoch++;
      batchInEpoch = 0;
    }
    line.done();
    // On a signal, stop fast (no dev evaluation): the caller may be about to kill the process.
    if (curve[curve.length - 1]?.step !== step) recordPoint(devPairs.length > 0 && stopped !== "signal" && !died);
    const last = curve[curve.length - 1]!;
    await weightsToHost();
    if (!died) log(`stopped (${stopped}) at step ${step}: zero-shot dev ${fmtAcc(last.dev)}; ${tokens} tokens in ${fmtDuration(elapsed())}`);
    writeResume();
    saveModel();
    if (died)
      throw new PretrainStoppedError(
        `pretrain: ${died.message} at step ${step + 1} of a ${workers}-thread run; stopped, with ${resumePath} and the model at step ${step} written: continue with the same command and --resume`,
      );
  } finally {
    line.done();
    await parallel?.close();
    process.off("SIGINT", onSig);
    process.off("SIGTERM", onSig);
    adam.dispose();
    lm.dispose();
  }
  return { backend, steps: step, curve, seconds: elapsed(), stopped };
}

function fmtAcc(d: PretrainCurvePoint["dev"]): string {
  if (!d) return "-";
  const p = (x: number | undefined): string => (x === undefined ? "-" : (100 * x).toFixed(2));
  const pm = d.pmi ? `; PMI ${p(d.pmi.overall)}% (R vs S ${p(d.pmi.system)}, R vs R' ${p(d.pmi.noisy)})` : "";
  return `sum ${p(d.overall)}% (R vs S ${p(d.system)}, R vs R' ${p(d.noisy)})${pm}; ${d.pairs} pairs, ${d.seconds.toFixed(0)} s`;
}

function pronounList(): string[] {
  const raw = JSON.parse(readFileSync(join(PACKAGE_ROOT, "data", "pronouns.json"), "utf8")) as { pronouns: Array<{ pronoun: string }> };
  return raw.pronouns.map((p) => p.pronoun);
}

/** A seeded subset of n pairs (all when n is 0 or larger than the file), in file order. */
export function subsample<T>(xs: T[], n: number, seed: number): T[] {
  if (!n || n >= xs.length) return xs;
  const idx = new Rng(seed ^ 0x5eed).shuffle(xs.map((_, i) => i)).slice(0, n).sort((a, b) => a - b);
  return idx.map((i) => xs[i]!);
}
