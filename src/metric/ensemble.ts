import { existsSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { Worker } from "node:worker_threads";
import { InputError } from "../io/errors.js";
import { writeFileAtomic } from "../io/atomic.js";
import { VERSION } from "../version.js";
import type { ContextMode, PairRecord } from "../core/pair-format.js";
import type { PreparedSide, Side } from "../core/scorer.js";
import { preparePairs } from "../nn/evaluate.js";
import { readRankerPairs, fileSignature } from "../nn/data.js";
import { loadRankerScorer, RankerScorer } from "../ranker/scorer.js";
import { dedupePrepared, type LoadScorerOptions, type PronounScorer, type ScoredSide, type ScoreOptions } from "../core/scorer.js";
import { loadPronounLm, type PronounLmConfig } from "../pretrain/checkpoint.js";
import type { PronounLm } from "../pretrain/model.js";
import { zeroShotScores, type ZeroShotSide } from "../pretrain/zeroshot.js";

export const ENSEMBLE_FORMAT = 1;

/** How the weight a was chosen, with every candidate (all from training pairs, none from dev). */
export interface EnsembleChoice {
  method: EnsembleMethod;
  candidates: WeightFit;
  note: string;
}

/**
 * config.json of an ensemble checkpoint directory: a side's score is
 * ranker score + weight * (sum over its sentence pronouns of log P(p | masked window) - log P(p)).
 * Components are referenced by path relative to this directory (nothing large is copied) and
 * pinned by their weights' sha256, so a retrained component is noticed instead of silently
 * combined with a weight fitted for another one.
 */
export interface EnsembleConfig {
  format: "proneval-ensemble";
  kind: "ensemble";
  formatVersion: number;
  proneval: string;
  ranker: { path: string; weightsSha256: string };
  lm: { path: string; weightsSha256: string };
  weight: number;
  aggregate: "pmi";
  choice: EnsembleChoice;
  /** Signature of the pair file the weight was fitted on. */
  data: Record<string, unknown>;
}

export type EnsembleMethod = "train-accuracy" | "logistic" | "equal-spread" | "given";

/** True when `dir` holds an ensemble config.json (cheap: reads only the config). */
export function isEnsembleDir(dir: string): boolean {
  const file = join(dir, "config.json");
  if (!existsSync(file)) return false;
  try {
    return JSON.parse(readFileSync(file, "utf8"))?.kind === "ensemble";
  } catch {
    return false;
  }
}

export function readEnsembleConfig(dir: string): EnsembleConfig {
  const file = join(dir, "config.json");
  if (!existsSync(file)) throw new InputError("not a proneval checkpoint (no config.json)", dir);
  let cfg: EnsembleConfig;
  try {
    cfg = JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    throw new InputError(`invalid JSON (${(e as Error).message})`, file);
  }
  if (cfg?.format !== "proneval-ensemble" || cfg.kind !== "ensemble") throw new InputError(`not an ensemble checkpoint (format ${JSON.stringify(cfg?.format)})`, file);
  if (cfg.formatVersion !== ENSEMBLE_FORMAT) throw new InputError(`ensemble format version ${cfg.formatVersion} cannot be read by proneval ${VERSION} (reads ${ENSEMBLE_FORMAT})`, file);
  if (typeof cfg.ranker?.path !== "string" || typeof cfg.lm?.path !== "string") throw new InputError("ensemble config needs ranker.path and lm.path", file);
  if (typeof cfg.weight !== "number" || !Number.isFinite(cfg.weight) || cfg.weight < 0) throw new InputError(`ensemble weight must be a finite number >= 0, got ${JSON.stringify(cfg.weight)}`, file);
  if (cfg.aggregate !== "pmi") throw new InputError(`unknown ensemble aggregate ${JSON.stringify(cfg.aggregate)} (expected pmi)`, file);
  return cfg;
}

/** Per-pronoun LM values added to the ranker's pronoun entries (in score --json with --attention). */
/**
 * The ensemble scorer: ranker score + weight * zero-shot PMI. Context mode, input preparation and
 * attention are the ranker's (the LM must prepare inputs the same way); a pronoun's contribution is
 * the ranker's plus weight * its PMI term, and its `parts` keep the LM's log-probability and PMI.
 */
export class EnsembleScorer implements PronounScorer {
  readonly kind = "ensemble";
  constructor(
    readonly dir: string,
    readonly ensemble: EnsembleConfig,
    readonly ranker: RankerScorer,
    readonly lm: PronounLm,
    readonly lmConfig: PronounLmConfig,
    /** Where the masked-pronoun model was loaded from (for the worker thread). */
    readonly lmDir: string,
  ) {}

  get weight(): number {
    return this.ensemble.weight;
  }

  get contextMode(): ContextMode {
    return this.ranker.contextMode;
  }

  get backendLine(): string {
    return this.ranker.backendLine;
  }

  modelSignature(): string {
    const c = this.ranker.config;
    const r = `${c.encoder.kind}-${c.head.head}-${c.contextMode}@${c.files.weights.sha256.slice(0, 8)}`;
    const l = `pronoun-lm-pmi@${this.lmConfig.files.weights.sha256.slice(0, 8)}`;
    return `model:ensemble(${r}+${this.weight.toPrecision(4)}*${l})`;
  }

  get maxKeys(): number {
    return this.ranker.maxKeys;
  }

  prepare(side: Side): PreparedSide {
    return this.ranker.prepare(side);
  }

  async scorePrepared(prepared: PreparedSide[], opts: ScoreOptions = {}): Promise<ScoredSide[]> {
    const n = prepared.length;
    const { unique, slot } = dedupePrepared(prepared);
    let z: ZeroShotSide[];
    if (this.ranker.threads > 1 && unique.length >= 512) {
      // The masked-pronoun model scores on a worker thread while the ranker scores here (and on
      // its own workers): the two components are independent.
      const lmRun = zeroShotInWorker(this.lmDir, this.ranker.backend.requested, unique);
      const settled = Promise.allSettled([lmRun]);
      const r = await this.ranker.scorePrepared(prepared, opts);
      const [res] = await settled;
      if (res!.status === "rejected") throw res!.reason;
      z = slot.map((i) => res!.value[i]!);
      return this.combine(r, z);
    }
    // Progress: the ranker's sides count for the first half, the LM's for the second.
    const r = await this.ranker.scorePrepared(prepared, { ...opts, onBatch: opts.onBatch ? (d) => opts.onBatch!(Math.round(d / 2)) : undefined });
    const zu = zeroShotScores(this.lm, unique, 128, opts.onBatch ? (d, t) => opts.onBatch!(Math.round(n / 2 + (d / Math.max(1, t)) * (n / 2))) : undefined);
    z = slot.map((i) => zu[i]!);
    return this.combine(r, z);
  }

  private combine(r: ScoredSide[], z: ZeroShotSide[]): ScoredSide[] {
    const prior = this.lm.logPrior!;
    return r.map((s, k) => {
      const lm = z[k]!;
      return {
        ...s,
        score: s.score + this.weight * lm.pmi,
        pronouns: s.pronouns.map((p, j) => {
          const lmPmi = lm.logProbs[j]! - prior[lm.labels[j]!]!;
          return { ...p, contribution: p.contribution + this.weight * lmPmi, parts: { ranker: p.contribution, lmLogProb: lm.logProbs[j]!, lmPmi } };
        }),
      };
    });
  }

  dispose(): void {
    this.ranker.dispose();
    this.lm.dispose();
  }
}

/** Zero-shot values of prepared sides, identical inputs scored once. */
export function uniqueZeroShot(lm: PronounLm, prepared: PreparedSide[], onBatch?: (done: number, total: number) => void): ZeroShotSide[] {
  const { unique, slot } = dedupePrepared(prepared);
  const res = zeroShotScores(lm, unique, 128, onBatch);
  return slot.map((i) => res[i]!);
}

/** Zero-shot values on a worker thread (needs the compiled dist/ build, as the ranker's workers). */
function zeroShotInWorker(lmDir: string, backend: string, sides: PreparedSide[]): Promise<ZeroShotSide[]> {
  return new Promise((resolvePromise, reject) => {
    const w = new Worker(new URL("../pretrain/zeroshot-worker.js", import.meta.url), { workerData: { dir: lmDir, backend, batchSize: 128 } });
    w.on("message", (m: { ready?: boolean; ok?: boolean; error?: string; res?: ZeroShotSide[] }) => {
      if (m.ready) w.postMessage(sides);
      else if (m.ok) resolvePromise(m.res!);
      else reject(new Error(`zero-shot worker failed: ${m.error}`));
    });
    w.on("error", reject);
    w.on("exit", (code) => {
      if (code !== 0) reject(new Error(`zero-shot worker exited with code ${code}`));
    });
  });
}

function componentDir(dir: string, ref: string, what: string): string {
  const d = resolve(dir, ref);
  if (!existsSync(join(d, "config.json"))) throw new InputError(`ensemble component '${what}' not found: ${d} (referenced as ${JSON.stringify(ref)})`, join(dir, "config.json"));
  return d;
}

/** Loads both components and checks they are the ones the weight was fitted for. */
export async function loadEnsembleScorer(dir: string, opts: LoadScorerOptions = {}): Promise<EnsembleScorer> {
  const cfg = readEnsembleConfig(dir);
  const file = join(dir, "config.json");
  const rankerDir = componentDir(dir, cfg.ranker.path, "ranker");
  const lmDir = componentDir(dir, cfg.lm.path, "lm");
  if (isEnsembleDir(rankerDir)) throw new InputError(`the ranker of an ensemble cannot itself be an ensemble (${rankerDir})`, file);
  const ranker = await loadRankerScorer(rankerDir, opts);
  let loaded: ReturnType<typeof loadPronounLm> | undefined;
  try {
    if (cfg.ranker.weightsSha256 && ranker.config.files.weights.sha256 !== cfg.ranker.weightsSha256)
      throw new InputError(`the ranker at ${rankerDir} is not the one this ensemble's weight was fitted for (weights sha256 differs); rebuild it with proneval ensemble`, file);
    loaded = loadPronounLm(lmDir);
    if (cfg.lm.weightsSha256 && loaded.config.files.weights.sha256 !== cfg.lm.weightsSha256)
      throw new InputError(`the masked-pronoun model at ${lmDir} is not the one this ensemble's weight was fitted for (weights sha256 differs); rebuild it with proneval ensemble`, file);
    checkCompatible(ranker, loaded.lm, loaded.config, file);
  } catch (e) {
    ranker.dispose();
    loaded?.lm.dispose();
    throw e;
  }
  return new EnsembleScorer(dir, cfg, ranker, loaded.lm, loaded.config, lmDir);
}

function checkCompatible(ranker: RankerScorer, lm: PronounLm, lmConfig: PronounLmConfig, file: string): void {
  if (lm.objective !== "masked") throw new InputError(`the ensemble needs a masked-pronoun model (this one was trained with --objective ${lm.objective})`, file);
  if (!lm.logPrior) throw new InputError("the masked-pronoun model has no pronoun prior (pronounLogPrior): PMI is unavailable", file);
  const a = ranker.config.prepare;
  const b = lmConfig.prepare;
  if (a.contextSentences !== b.contextSentences || a.maxLen !== b.maxLen)
    throw new InputError(`ranker and masked-pronoun model prepare their inputs differently (ranker ${JSON.stringify(a)}, model ${JSON.stringify(b)})`, file);
}

/** Candidate weights fitted on score differences d = pos - neg (ranker r, PMI z) of training pairs. */
export interface WeightFit {
  pairs: number;
  /** Accuracy of each component alone (pos strictly above neg). */
  rankerAccuracy: number;
  lmAccuracy: number;
  /** The a >= 0 maximising pairwise accuracy of r + a z (midpoint of the best interval). */
  trainAccuracy: { a: number; accuracy: number; interval: [number, number] };
  /** Logistic (Bradley-Terry) fit without intercept, P(pos > neg) = sigmoid(wr r + wz z): a = wz / wr. */
  logistic: { a: number; wRanker: number; wLm: number; accuracy: number };
  /** Label-free: both terms with the same spread, a = sd(r) / sd(z). */
  equalSpread: { a: number; accuracy: number };
}

export function pairAccuracy(dr: ArrayLike<number>, dz: ArrayLike<number>, a: number): number {
  let c = 0;
  for (let i = 0; i < dr.length; i++) if (dr[i]! + a * dz[i]! > 0) c++;
  return dr.length ? c / dr.length : 0;
}

/**
 * Fits the weight three ways. The accuracy maximiser is exact: r_i + a z_i > 0 changes truth only
 * at a = -r_i / z_i, so accuracy is piecewise constant in a and a sweep over those breakpoints finds
 * the best interval.
 */
export function fitEnsembleWeight(dr: ArrayLike<number>, dz: ArrayLike<number>): WeightFit {
  const n = dr.length;
  if (n === 0 || dz.length !== n) throw new InputError("fitting the ensemble weight needs at least one pair with both scores");
  // Sweep over a in [0, inf): count at a = 0+ then apply the changes at each breakpoint.
  let count = 0;
  const events: Array<{ t: number; delta: number }> = [];
  for (let i = 0; i < n; i++) {
    const r = dr[i]!;
    const z = dz[i]!;
    if (z === 0) {
      if (r > 0) count++;
      continue;
    }
    const t = -r / z;
    // Correct for a > t when z > 0, for a < t when z < 0.
    if (t <= 0) {
      if (z > 0) count++;
    } else if (z > 0) events.push({ t, delta: +1 });
    else {
      count++;
      events.push({ t, delta: -1 });
    }
  }
  events.sort((x, y) => x.t - y.t);
  let best = count;
  let lo = 0;
  let hi = events.length ? events[0]!.t : Infinity;
  for (let k = 0; k < events.length; ) {
    const t = events[k]!.t;
    while (k < events.length && events[k]!.t === t) count += events[k++]!.delta;
    const next = k < events.length ? events[k]!.t : Infinity;
    if (count > best) {
      best = count;
      lo = t;
      hi = next;
    }
  }
  const aAcc = Number.isFinite(hi) ? (lo + hi) / 2 : lo * 2 + 1;
  // Logistic: Newton on the 2x2 problem (concave log-likelihood), from equal weights.
  let w = [1, 0];
  for (let it = 0; it < 100; it++) {
    let g0 = 0, g1 = 0, h00 = 0, h01 = 0, h11 = 0;
    for (let i = 0; i < n; i++) {
      const x0 = dr[i]!, x1 = dz[i]!;
      const p = 1 / (1 + Math.exp(-(w[0]! * x0 + w[1]! * x1)));
      g0 += (1 - p) * x0;
      g1 += (1 - p) * x1;
      const v = p * (1 - p);
      h00 += v * x0 * x0;
      h01 += v * x0 * x1;
      h11 += v * x1 * x1;
    }
    // Small ridge keeps the step defined when the data are (nearly) separable.
    h00 += 1e-6;
    h11 += 1e-6;
    const det = h00 * h11 - h01 * h01;
    const s0 = (h11 * g0 - h01 * g1) / det;
    const s1 = (h00 * g1 - h01 * g0) / det;
    w = [w[0]! + s0, w[1]! + s1];
    if (Math.abs(s0) + Math.abs(s1) < 1e-10) break;
  }
  const aLog = w[0]! > 0 ? Math.max(0, w[1]! / w[0]!) : 0;
  const sd = (x: ArrayLike<number>): number => {
    let m = 0;
    for (let i = 0; i < n; i++) m += x[i]!;
    m /= n;
    let v = 0;
    for (let i = 0; i < n; i++) v += (x[i]! - m) ** 2;
    return Math.sqrt(v / n);
  };
  const sdz = sd(dz);
  const aSpread = sdz > 0 ? sd(dr) / sdz : 0;
  return {
    pairs: n,
    rankerAccuracy: pairAccuracy(dr, dz, 0),
    lmAccuracy: pairAccuracy(dz, dr, 0),
    trainAccuracy: { a: aAcc, accuracy: best / n, interval: [lo, hi] },
    logistic: { a: aLog, wRanker: w[0]!, wLm: w[1]!, accuracy: pairAccuracy(dr, dz, aLog) },
    equalSpread: { a: aSpread, accuracy: pairAccuracy(dr, dz, aSpread) },
  };
}

/** Both components' scores on a pair file's pairs: differences pos - neg. */
export async function componentDiffs(
  ranker: RankerScorer,
  lm: PronounLm,
  pairs: PairRecord[],
  mode: ContextMode,
  onProgress?: (what: string, done: number, total: number) => void,
): Promise<{ dr: Float64Array; dz: Float64Array }> {
  const { pos, neg } = preparePairs(pairs, mode, ranker.config.prepare);
  const all = pos.concat(neg);
  const r = await ranker.scorePrepared(all, { onBatch: onProgress ? (d) => onProgress("ranker", d, all.length) : undefined });
  const z = uniqueZeroShot(lm, all, onProgress ? (d, t) => onProgress("masked-pronoun model", d, t) : undefined);
  const n = pairs.length;
  return { dr: Float64Array.from({ length: n }, (_, i) => r[i]!.score - r[n + i]!.score), dz: Float64Array.from({ length: n }, (_, i) => z[i]!.pmi - z[n + i]!.pmi) };
}

export interface BuildEnsembleOptions {
  ranker: string;
  lm: string;
  train: string;
  out: string;
  method: EnsembleMethod;
  /** With method "given". */
  weight?: number;
  maxTrainPairs?: number;
  backend?: string;
  threads?: number | "auto";
}

/**
 * Builds an ensemble checkpoint: scores the training pairs with both components, fits the weight
 * (all candidates recorded), writes config.json with paths relative to `out`. Never reads dev data.
 */
export async function buildEnsemble(opts: BuildEnsembleOptions, onProgress?: (what: string, done: number, total: number) => void): Promise<EnsembleConfig> {
  const rankerDir = resolve(opts.ranker);
  const lmDir = resolve(opts.lm);
  if (isEnsembleDir(rankerDir)) throw new InputError("the ranker of an ensemble cannot itself be an ensemble", rankerDir);
  const ranker = await loadRankerScorer(rankerDir, { backend: opts.backend ?? "auto", threads: opts.threads ?? "auto" });
  let lm: PronounLm | undefined;
  try {
    const loaded = loadPronounLm(lmDir);
    lm = loaded.lm;
    checkCompatible(ranker, lm, loaded.config, join(lmDir, "config.json"));
    const mode = ranker.contextMode;
    let pairs = await readRankerPairs(opts.train, mode);
    const total = pairs.length;
    if (opts.maxTrainPairs && opts.maxTrainPairs < pairs.length) pairs = pairs.slice(0, opts.maxTrainPairs);
    const { dr, dz } = await componentDiffs(ranker, lm, pairs, mode, onProgress);
    const fit = fitEnsembleWeight(dr, dz);
    let weight: number;
    switch (opts.method) {
      case "train-accuracy":
        weight = fit.trainAccuracy.a;
        break;
      case "logistic":
        weight = fit.logistic.a;
        break;
      case "equal-spread":
        weight = fit.equalSpread.a;
        break;
      case "given":
        if (opts.weight === undefined || !Number.isFinite(opts.weight) || opts.weight < 0) throw new InputError("--method given needs --weight >= 0");
        weight = opts.weight;
        break;
      default:
        throw new InputError(`unknown --method '${String(opts.method)}' (expected train-accuracy, logistic, equal-spread or given)`);
    }
    const outDir = resolve(opts.out);
    const cfg: EnsembleConfig = {
      format: "proneval-ensemble",
      kind: "ensemble",
      formatVersion: ENSEMBLE_FORMAT,
      proneval: VERSION,
      ranker: { path: relative(outDir, rankerDir) || ".", weightsSha256: ranker.config.files.weights.sha256 },
      lm: { path: relative(outDir, lmDir) || ".", weightsSha256: loaded.config.files.weights.sha256 },
      weight,
      aggregate: "pmi",
      choice: {
        method: opts.method,
        candidates: fit,
        note: "fitted on the training pairs only (no dev labels); the ranker was trained on these pairs, so its training scores are optimistic and the supervised fits under-weight the masked-pronoun model; equal-spread uses no labels",
      },
      data: { train: await fileSignature(opts.train, total), trainUsed: pairs.length, context: mode },
    };
    writeFileAtomic(join(outDir, "config.json"), JSON.stringify(cfg, null, 2) + "\n");
    return cfg;
  } finally {
    ranker.dispose();
    lm?.dispose();
  }
}
