// Per-pronoun calibration of zero-shot scores (the `calibrated` aggregate). PMI subtracts one fixed
// quantity per pronoun, its corpus log-prior, and that prior favours rare pronouns in some pairs and
// frequent ones in others (his/its, her/its, their/its). Calibration fits that quantity instead: a bias
// per pronoun, subtracted from log P(pronoun | window), chosen so that a pronoun and each pronoun that
// could stand in its place (PronounInventory.confusable: one sharing a case) win equally often when each
// is the right one. The pairs are synthetic: a pronoun of a real corpus sentence against each of its
// alternatives at the same slot, every ordered pronoun pair weighted the same. Only differences between
// confusable pronouns enter a decision, so the biases matter within each confusion set. The corpus is
// the pretraining corpus: never evaluation pairs or human judgements.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { InputError } from "../io/errors.js";
import { writeFileAtomic } from "../io/atomic.js";
import { streamLines } from "../io/lines.js";
import { Rng } from "../core/prng.js";
import { pronouns } from "../text/pronouns.js";
import { VERSION } from "../version.js";
import { Vocab } from "../nn/glove.js";
import { prepareSide, type PrepareOptions } from "../nn/inputs.js";
import { sha256 } from "../nn/sha256.js";
import { fileSignature } from "../nn/data.js";
import { N_PRONOUNS, type PronounLm } from "./model.js";
import { singlePassLogDists, type MultiMaskWindow } from "./single-pass.js";

export const CALIBRATION_FILE = "calibration.json";
export const CALIBRATION_FORMAT = 1;

/** calibration.json in a masked-pronoun model directory. */
export interface ZeroShotCalibration {
  format: "proneval-zeroshot-calibration";
  formatVersion: number;
  proneval: string;
  /** sha256 of the weights it was fitted for (config.json files.weights.sha256): another model's is refused. */
  weightsSha256: string;
  /** Per pronoun class, in the order of data/pronouns.json: subtracted from log P(pronoun | window). */
  bias: number[];
  fit: CalibrationFitInfo;
}

export interface CalibrationFitInfo {
  /** "name:sha256 prefix:documents read", as a pretraining run records its corpus. */
  corpus: string;
  seed: number;
  slotsPerPronoun: number;
  maxDocs: number;
  lambda: number;
  docs: number;
  /** Pronoun slots in the documents read, and those sampled (at most slotsPerPronoun per pronoun). */
  pronounSlots: number;
  slots: number;
  /** Ordered pronoun pairs (true pronoun, substitute) with samples; each weighs the same. */
  orderedPairs: number;
  iterations: number;
  /** Balanced accuracy on the synthetic pairs: per unordered pronoun pair the mean of both directions, averaged over pairs. */
  synthetic: { sum: number; pmi: number | null; calibrated: number };
}

/** One sampled slot: the log-distribution over the pronouns at a masked pronoun whose class is `label`. */
export interface CalibrationSample {
  label: number;
  logDist: ArrayLike<number>;
}

/** Synthetic pairs as flat arrays: for each sample and each alternative y of its label x, d[x] - d[y], weighted 1 / (samples of x). */
interface Terms {
  x: Int32Array;
  y: Int32Array;
  diff: Float64Array;
  w: Float64Array;
  orderedPairs: number;
}

function terms(samples: CalibrationSample[], confusable: readonly (readonly number[])[]): Terms {
  const count = new Int32Array(N_PRONOUNS);
  for (const s of samples) count[s.label]!++;
  const xs: number[] = [];
  const ys: number[] = [];
  const ds: number[] = [];
  const ws: number[] = [];
  const pairs = new Set<number>();
  for (const s of samples) {
    const x = s.label;
    const dx = s.logDist[x]!;
    for (const y of confusable[x] ?? []) {
      const d = dx - s.logDist[y]!;
      if (!Number.isFinite(d)) continue;
      xs.push(x);
      ys.push(y);
      ds.push(d);
      ws.push(1 / count[x]!);
      pairs.add(x * N_PRONOUNS + y);
    }
  }
  return { x: Int32Array.from(xs), y: Int32Array.from(ys), diff: Float64Array.from(ds), w: Float64Array.from(ws), orderedPairs: pairs.size };
}

const softplus = (z: number): number => (z > 0 ? z + Math.log1p(Math.exp(-z)) : Math.log1p(Math.exp(z)));

/**
 * Fits one bias per pronoun class: minimises, over every synthetic pair (x right, y its alternative),
 * weighted so that each ordered pronoun pair counts the same, the logistic loss of the calibrated margin
 * (d[x] - b[x]) - (d[y] - b[y]), plus (lambda / 2) * sum (b - start)^2, which keeps a pronoun without
 * samples at `start` (the PMI prior) and fixes the constant that decisions cannot see. Convex: Newton's
 * method with step halving.
 */
export function fitPronounBias(
  samples: CalibrationSample[],
  opts: { confusable: readonly (readonly number[])[]; start: ArrayLike<number>; lambda?: number; maxIterations?: number },
): { bias: Float64Array; orderedPairs: number; iterations: number } {
  const lambda = opts.lambda ?? 0.1;
  if (!(lambda > 0)) throw new InputError(`the calibration's lambda must be > 0, got ${lambda}`);
  const K = N_PRONOUNS;
  const t = terms(samples, opts.confusable);
  const start = Float64Array.from({ length: K }, (_, i) => opts.start[i] ?? 0);
  const loss = (b: Float64Array): number => {
    let l = 0;
    for (let k = 0; k < t.diff.length; k++) l += t.w[k]! * softplus(-(t.diff[k]! - b[t.x[k]!]! + b[t.y[k]!]!));
    for (let i = 0; i < K; i++) l += (lambda / 2) * (b[i]! - start[i]!) ** 2;
    return l;
  };
  let b = Float64Array.from(start);
  let cur = loss(b);
  let it = 0;
  for (; it < (opts.maxIterations ?? 100); it++) {
    const g = new Float64Array(K);
    const H = new Float64Array(K * K);
    for (let k = 0; k < t.diff.length; k++) {
      const x = t.x[k]!;
      const y = t.y[k]!;
      const m = t.diff[k]! - b[x]! + b[y]!;
      const p = 1 / (1 + Math.exp(m)); // P(wrong) = sigmoid(-m)
      const w = t.w[k]!;
      g[x] += w * p;
      g[y] -= w * p;
      const h = w * p * (1 - p);
      H[x * K + x] += h;
      H[y * K + y] += h;
      H[x * K + y] -= h;
      H[y * K + x] -= h;
    }
    for (let i = 0; i < K; i++) {
      g[i] += lambda * (b[i]! - start[i]!);
      H[i * K + i] += lambda;
    }
    const step = solveSpd(H, g, K);
    let scale = 1;
    let next = b;
    let nextLoss = cur;
    for (let h = 0; h < 30; h++, scale /= 2) {
      const c = Float64Array.from(b, (v, i) => v - scale * step[i]!);
      const l = loss(c);
      if (l <= cur) {
        next = c;
        nextLoss = l;
        break;
      }
    }
    const moved = Math.max(...Array.from(next, (v, i) => Math.abs(v - b[i]!)));
    b = next;
    cur = nextLoss;
    if (moved < 1e-9) break;
  }
  return { bias: b, orderedPairs: t.orderedPairs, iterations: it + 1 };
}

/** Solves H s = g for a symmetric positive definite H (Cholesky). */
function solveSpd(H: Float64Array, g: Float64Array, n: number): Float64Array {
  const L = new Float64Array(n * n);
  for (let i = 0; i < n; i++)
    for (let j = 0; j <= i; j++) {
      let s = H[i * n + j]!;
      for (let k = 0; k < j; k++) s -= L[i * n + k]! * L[j * n + k]!;
      L[i * n + j] = i === j ? Math.sqrt(Math.max(s, 1e-300)) : s / L[j * n + j]!;
    }
  const z = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = g[i]!;
    for (let k = 0; k < i; k++) s -= L[i * n + k]! * z[k]!;
    z[i] = s / L[i * n + i]!;
  }
  const x = new Float64Array(n);
  for (let i = n - 1; i >= 0; i--) {
    let s = z[i]!;
    for (let k = i + 1; k < n; k++) s -= L[k * n + i]! * x[k]!;
    x[i] = s / L[i * n + i]!;
  }
  return x;
}

/**
 * Per ordered pronoun pair (x right, y substituted) the share of samples where x wins under the
 * given bias (a tie is wrong), and the balanced accuracy: per unordered pair seen in both
 * directions the mean of the two, averaged over the pairs.
 */
export function syntheticAccuracy(samples: CalibrationSample[], confusable: readonly (readonly number[])[], bias: ArrayLike<number> | null): { byPair: Map<string, { n: number; correct: number }>; balanced: number } {
  const inv = pronouns();
  const byPair = new Map<string, { n: number; correct: number }>();
  for (const s of samples) {
    const x = s.label;
    const vx = s.logDist[x]! - (bias ? bias[x]! : 0);
    for (const y of confusable[x] ?? []) {
      const k = `${inv.list[x]!.pronoun}>${inv.list[y]!.pronoun}`;
      const c = byPair.get(k) ?? { n: 0, correct: 0 };
      c.n++;
      if (vx > s.logDist[y]! - (bias ? bias[y]! : 0)) c.correct++;
      byPair.set(k, c);
    }
  }
  let sum = 0;
  let pairs = 0;
  for (const [k, c] of byPair) {
    const [x, y] = k.split(">") as [string, string];
    if (x >= y) continue;
    const r = byPair.get(`${y}>${x}`);
    if (!r) continue;
    sum += (c.correct / c.n + r.correct / r.n) / 2;
    pairs++;
  }
  return { byPair, balanced: pairs ? sum / pairs : NaN };
}

/** A sampled pronoun slot of the corpus: the k-th pronoun of class `label` in `sentence`, with its context. */
export interface CalibrationSlot {
  context: string[];
  sentence: string;
  label: number;
  occurrence: number;
}

/**
 * Draws up to `perPronoun` slots of every pronoun class, uniformly over the corpus (one reservoir per
 * class, seeded), each with the previous `contextSentences` sentences of its document.
 */
export async function sampleCalibrationSlots(
  file: string,
  opts: { perPronoun: number; seed: number; contextSentences: number; maxDocs?: number; onDocs?: (docs: number) => void },
): Promise<{ slots: CalibrationSlot[]; docs: number; pronounSlots: number }> {
  if (!existsSync(file)) throw new InputError("corpus file not found", file);
  const inv = pronouns();
  const rng = new Rng(opts.seed);
  const res: CalibrationSlot[][] = Array.from({ length: N_PRONOUNS }, () => []);
  const seen = new Float64Array(N_PRONOUNS);
  let docs = 0;
  let line = 0;
  for await (const text of streamLines(file)) {
    line++;
    if (!text.trim()) continue;
    let sents: unknown;
    try {
      sents = (JSON.parse(text) as { sents?: unknown }).sents;
    } catch (e) {
      throw new InputError(`invalid JSON (${(e as Error).message})`, file, line);
    }
    if (!Array.isArray(sents) || sents.some((s) => typeof s !== "string")) throw new InputError("not a corpus document (expected {id, source, sents: [string]})", file, line);
    docs++;
    (sents as string[]).forEach((sentence, k, all) => {
      const occ = new Int32Array(N_PRONOUNS);
      for (const tok of sentence.split(" ")) {
        const c = inv.indexOf(tok);
        if (c < 0) continue;
        const occurrence = occ[c]!++;
        const n = ++seen[c]!;
        const r = res[c]!;
        // Reservoir sampling: the first perPronoun slots, then slot n replaces a random one with probability perPronoun / n.
        const at = r.length < opts.perPronoun ? r.length : rng.int(n);
        if (at < opts.perPronoun) r[at] = { context: all.slice(Math.max(0, k - opts.contextSentences), k), sentence, label: c, occurrence };
      }
    });
    if (docs % 1000 === 0) opts.onDocs?.(docs);
    if (opts.maxDocs && docs >= opts.maxDocs) break;
  }
  return { slots: res.flat(), docs, pronounSlots: seen.reduce((a, x) => a + x, 0) };
}

/** The model's log-distribution over the pronouns at each slot (scored as zero-shot scoring prepares a side). */
export function slotDistributions(lm: PronounLm, prepare: PrepareOptions, slots: CalibrationSlot[], onDone?: (done: number, total: number) => void): CalibrationSample[] {
  const inv = pronouns();
  const vocab = new Vocab(lm.table.words);
  const windows: Array<{ w: MultiMaskWindow; label: number }> = [];
  for (const s of slots) {
    const p = prepareSide({ context: s.context, sentence: s.sentence }, prepare);
    const at = p.pronounPos.filter((q) => inv.indexOf(p.tokens[q]!) === s.label)[s.occurrence];
    if (at === undefined) continue; // tokenised differently from the corpus's spaces: skipped
    windows.push({ w: { rows: Int32Array.from(p.tokens, (t) => vocab.row(t)), masks: [at], labels: [s.label] }, label: s.label });
  }
  const out: CalibrationSample[] = [];
  const chunk = 2048;
  for (let b = 0; b < windows.length; b += chunk) {
    const part = windows.slice(b, b + chunk);
    const d = singlePassLogDists(lm, part.map((x) => x.w));
    part.forEach((x, i) => out.push({ label: x.label, logDist: d[i]! }));
    onDone?.(Math.min(b + chunk, windows.length), windows.length);
  }
  return out;
}

export interface CalibrateOptions {
  corpus: string;
  seed: number;
  perPronoun: number;
  maxDocs: number;
  lambda: number;
  onStage?: (text: string) => void;
}

/** Samples the corpus, scores the slots with the model and fits the biases (starting from, and pulled towards, the PMI prior). */
export async function calibrateZeroShot(lm: PronounLm, prepare: PrepareOptions, weightsSha256: string, opts: CalibrateOptions): Promise<ZeroShotCalibration> {
  const inv = pronouns();
  const confusable = inv.list.map((_, i) => inv.confusable(i));
  const { slots, docs, pronounSlots } = await sampleCalibrationSlots(opts.corpus, {
    perPronoun: opts.perPronoun,
    seed: opts.seed,
    contextSentences: prepare.contextSentences,
    maxDocs: opts.maxDocs,
    onDocs: (n) => opts.onStage?.(`reading ${opts.corpus}: ${n} documents`),
  });
  if (!slots.length) throw new InputError("no pronoun in the corpus: nothing to calibrate on", opts.corpus);
  const samples = slotDistributions(lm, prepare, slots, (d, n) => opts.onStage?.(`scoring sampled slots: ${d}/${n}`));
  const start = lm.logPrior ?? new Float32Array(N_PRONOUNS);
  const fit = fitPronounBias(samples, { confusable, start, lambda: opts.lambda });
  return {
    format: "proneval-zeroshot-calibration",
    formatVersion: CALIBRATION_FORMAT,
    proneval: VERSION,
    weightsSha256,
    bias: Array.from(fit.bias),
    fit: {
      corpus: await fileSignature(opts.corpus, docs),
      seed: opts.seed,
      slotsPerPronoun: opts.perPronoun,
      maxDocs: opts.maxDocs,
      lambda: opts.lambda,
      docs,
      pronounSlots,
      slots: samples.length,
      orderedPairs: fit.orderedPairs,
      iterations: fit.iterations,
      synthetic: {
        sum: syntheticAccuracy(samples, confusable, null).balanced,
        pmi: lm.logPrior ? syntheticAccuracy(samples, confusable, lm.logPrior).balanced : null,
        calibrated: syntheticAccuracy(samples, confusable, fit.bias).balanced,
      },
    },
  };
}

export function writeCalibration(file: string, cal: ZeroShotCalibration): void {
  writeFileAtomic(file, JSON.stringify(cal, null, 1) + "\n");
}

/** A model directory's calibration.json with its sha256, checked against the model's weights; errors name the file. */
export function readCalibration(dir: string, weightsSha256: string): { calibration: ZeroShotCalibration; sha256: string } {
  const file = join(dir, CALIBRATION_FILE);
  if (!existsSync(file)) throw new InputError(`no ${CALIBRATION_FILE} in the model directory: fit one with 'proneval calibrate -c ${dir} --corpus FILE'`, dir);
  const buf = readFileSync(file);
  let cal: ZeroShotCalibration;
  try {
    cal = JSON.parse(buf.toString("utf8"));
  } catch (e) {
    throw new InputError(`invalid JSON (${(e as Error).message})`, file);
  }
  if (cal?.format !== "proneval-zeroshot-calibration") throw new InputError(`not a zero-shot calibration (format is ${JSON.stringify(cal?.format)})`, file);
  if (cal.formatVersion !== CALIBRATION_FORMAT) throw new InputError(`calibration format version ${cal.formatVersion} cannot be read by proneval ${VERSION} (reads ${CALIBRATION_FORMAT})`, file);
  if (!Array.isArray(cal.bias) || cal.bias.length !== N_PRONOUNS || !cal.bias.every((v) => typeof v === "number" && Number.isFinite(v)))
    throw new InputError(`bias must hold ${N_PRONOUNS} finite numbers`, file);
  if (cal.weightsSha256 !== weightsSha256) throw new InputError(`fitted for other weights (sha256 ${String(cal.weightsSha256).slice(0, 8)}, the model's are ${weightsSha256.slice(0, 8)}): fit it again with 'proneval calibrate'`, file);
  return { calibration: cal, sha256: sha256(buf) };
}
