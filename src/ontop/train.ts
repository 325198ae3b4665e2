import * as tf from "@tensorflow/tfjs";
import type { PairRecord } from "../core/pair-format.js";
import { readRankerPairs } from "../nn/data.js";
import { preparePairs, accuracyReport, type EvalReport } from "../nn/evaluate.js";
import { RankerModel, marginLoss, type SideBatch } from "../ranker/model.js";
import type { PreparedSide } from "../core/scorer.js";
import { Rng } from "../core/prng.js";
import { ProgressLine } from "../core/progress.js";
import { loadPronounLm } from "../pretrain/checkpoint.js";
import { zeroShotScores } from "../pretrain/zeroshot.js";
import { replacedScores } from "../pretrain/replaced.js";
import { Adam } from "../nn/adam.js";
import { subsample } from "../pretrain/train.js";
import { InputError } from "../io/errors.js";
import { Vocab } from "../nn/glove.js";
import { loadPretrainData, makeWindow, epochBatches } from "../pretrain/data.js";
import type { MaskedWindow } from "../pretrain/model.js";

/**
 * The paper's attention ranker trained with the margin loss on the mined real pairs, on top of
 * the frozen masked-pronoun encoder (docs/pretrain.md, "Ranker on top"). Variants:
 *  - "frozen": the head reads the pretrained BiLSTM vectors, which stay fixed;
 *  - "frozen+lp": in addition, each pronoun's masked log-probability lp_k (from the pretrained
 *    model; minus the pronoun's corpus log-prior, i.e. PMI, when the model has one) enters its score, u_k = LN(...) z + a * lp_k, with a learned a initialised to 1 and
 *    the head's z initialised to 0, so training starts exactly at the zero-shot ranking and the
 *    margin loss can only add to it.
 *  - "finetune": the head and the encoder both train, on the margin loss of the pairs plus
 *    `lmWeight` times the masked-pronoun loss on a batch of pretraining-corpus windows at every step,
 *    so that the encoder keeps predicting pronouns while it learns to rank (needs `corpus`).
 * Pairs are CRC; the masked log-probabilities are computed once (frozen variants).
 */
export type OnTopVariant = "frozen" | "frozen+lp" | "finetune";

export interface OnTopOptions {
  lmDir: string;
  train: string;
  dev: string;
  variant: OnTopVariant;
  epochs: number;
  batchSize: number;
  lr: number;
  seed: number;
  maxTrainPairs: number;
  maxDevPairs: number;
  maxMinutes: number;
  /** finetune: the pretraining corpus (JSONL) whose windows give the masked-pronoun loss. */
  corpus?: string;
  /** finetune: weight of the masked-pronoun loss (default 1). */
  lmWeight?: number;
  /** finetune: corpus windows per step (default 32). */
  lmBatchSize?: number;
  /** No progress line on stderr (the CLI's -q). */
  quiet?: boolean;
}

export interface OnTopResult {
  variant: OnTopVariant;
  zeroShotDev: EvalReport;
  dev: EvalReport[];
  a: number | null;
  trainPairs: number;
  seconds: number;
}

interface Prepared {
  pairs: PairRecord[];
  pos: PreparedSide[];
  neg: PreparedSide[];
  lpPos: number[][];
  lpNeg: number[][];
}

export async function trainOnTop(o: OnTopOptions, log: (m: string) => void = (m) => process.stderr.write(m + "\n")): Promise<OnTopResult> {
  const t0 = Date.now();
  const { config, lm } = loadPronounLm(o.lmDir);
  const prep = config.prepare;
  const line = new ProgressLine(process.stderr, Boolean(o.quiet));
  const finetune = o.variant === "finetune";
  if (finetune && lm.objective !== "masked") throw new InputError("--variant finetune needs a masked-pronoun model (its loss keeps the encoder predicting pronouns)", o.lmDir);
  if (finetune && !o.corpus) throw new InputError("--variant finetune needs --corpus (the pretraining corpus, for the masked-pronoun loss)");
  const load = async (file: string, n: number, withLp = true): Promise<Prepared> => {
    const pairs = subsample(await readRankerPairs(file, "crc"), n, o.seed);
    const { pos, neg } = preparePairs(pairs, "crc", prep);
    if (!withLp) return { pairs, pos, neg, lpPos: pos.map(() => []), lpNeg: neg.map(() => []) };
    if (lm.objective === "replaced") {
      // A replaced-pronoun model's feature is log P(original) of each pronoun (no prior to subtract).
      const rs = replacedScores(lm, pos.concat(neg), 128, (d, t) => line.update(`log P(original) of ${file}: ${d}/${t} sides`));
      line.done();
      return { pairs, pos, neg, lpPos: rs.slice(0, pairs.length).map((r) => r.logProbs), lpNeg: rs.slice(pairs.length).map((r) => r.logProbs) };
    }
    const zs = zeroShotScores(lm, pos.concat(neg), 128, (d, t) => line.update(`masked log-probabilities of ${file}: ${d}/${t} windows`));
    line.done();
    // With a corpus prior, the feature is the PMI (better zero-shot than the raw log-probability).
    const prior = lm.logPrior;
    const feat = (z: (typeof zs)[number]): number[] => (prior ? z.logProbs.map((x, k) => x - prior[z.labels[k]!]!) : z.logProbs);
    return { pairs, pos, neg, lpPos: zs.slice(0, pairs.length).map(feat), lpNeg: zs.slice(pairs.length).map(feat) };
  };
  const train = await load(o.train, o.maxTrainPairs, o.variant === "frozen+lp");
  const dev = await load(o.dev, o.maxDevPairs);
  const zsDev = accuracyReport(dev.pairs, { pos: Float32Array.from(dev.lpPos, sum), neg: Float32Array.from(dev.lpNeg, sum) }, "crc");
  log(`zero-shot on these dev pairs: ${pct(zsDev)}`);

  const rng = new Rng(o.seed);
  const model = new RankerModel(lm.encoder, { head: "attention", slots: 16 }, rng);
  const useLp = o.variant === "frozen+lp";
  const aVar = tf.variable(tf.scalar(1), true, "ontop/a");
  if (useLp) {
    // z = 0 and equal slot weights: the initial score is exactly a * (sum of lp), the zero-shot ranking.
    model.params.get("head/z")!.assign(tf.zeros(model.params.get("head/z")!.shape));
    model.params.get("head/w")!.assign(tf.ones(model.params.get("head/w")!.shape));
  }
  const trainable = new Map<string, tf.Variable>([
    ...(finetune ? [...model.allParams(), ...lm.params] : model.params),
    ...(useLp ? ([["ontop/a", aVar]] as Array<[string, tf.Variable]>) : []),
  ]);
  const adam = new Adam(trainable, o.lr);
  // finetune: an endless seeded stream of masked corpus windows (epochs of the pretraining order, offset so they differ from pretraining's).
  const lmWeight = o.lmWeight ?? 1;
  const corpusData = finetune ? await loadPretrainData(o.corpus!, new Vocab(lm.table.words), prep.maxLen) : undefined;
  let lmEpoch = 1000;
  let lmBatches: Array<Array<[number, number]>> = [];
  let lmCursor = 0;
  const nextLmWindows = (): MaskedWindow[] => {
    if (lmCursor >= lmBatches.length) {
      lmBatches = epochBatches(corpusData!, lmEpoch++, o.seed, o.lmBatchSize ?? 32, prep.maxLen, prep.contextSentences);
      lmCursor = 0;
    }
    return lmBatches[lmCursor++]!.map(([k, j]) => makeWindow(corpusData!, k, j, prep.maxLen, prep.contextSentences));
  };
  let lmLossSum = 0;

  const lpTensor = (lps: number[][], S: number): tf.Tensor2D => {
    const v = new Float32Array(lps.length * S);
    lps.forEach((l, b) => l.forEach((x, k) => (v[b * S + k] = x)));
    return tf.tensor2d(v, [lps.length, S]);
  };
  const scoreY = (batch: SideBatch, lps: number[][]): tf.Tensor1D => {
    const f = model.forward(batch, false);
    if (!useLp) return f.y;
    const w = model.params.get("head/w")!;
    const wEff = tf.matMul(batch.slotW, w.reshape([16, 1])).reshape([batch.S]);
    const u = tf.add(f.u, tf.mul(aVar, lpTensor(lps, batch.S)));
    return tf.sum(tf.mul(u, wEff), 1) as tf.Tensor1D;
  };
  const evaluate = async (d: Prepared): Promise<EvalReport> => {
    const n = d.pairs.length;
    const ys = new Float32Array(2 * n);
    const sides = d.pos.concat(d.neg);
    const lps = d.lpPos.concat(d.lpNeg);
    const order = sides.map((_, i) => i).sort((x, y) => sides[x]!.tokens.length - sides[y]!.tokens.length);
    for (let k = 0; k < order.length; k += 128) {
      const idx = order.slice(k, k + 128);
      const batch = await model.makeBatch(idx.map((i) => sides[i]!));
      const y = tf.tidy(() => scoreY(batch, idx.map((i) => lps[i]!)));
      const yv = y.dataSync();
      idx.forEach((i, b) => (ys[i] = yv[b]!));
      y.dispose();
      model.disposeBatch(batch);
    }
    return accuracyReport(d.pairs, { pos: ys.slice(0, n), neg: ys.slice(n) }, "crc");
  };

  const devReports: EvalReport[] = [];
  const n = train.pairs.length;
  let stop = false;
  for (let ep = 0; ep < o.epochs && !stop; ep++) {
    const order = new Rng((o.seed * 7919 + ep) >>> 0).shuffle(Array.from({ length: n }, (_, i) => i));
    let lossSum = 0;
    for (let k = 0; k < n; k += o.batchSize) {
      if (o.maxMinutes && (Date.now() - t0) / 60000 >= o.maxMinutes) {
        stop = true;
        break;
      }
      const idx = order.slice(k, k + o.batchSize);
      const batch = await model.makeBatch(idx.map((i) => train.pos[i]!).concat(idx.map((i) => train.neg[i]!)));
      const lps = idx.map((i) => train.lpPos[i]!).concat(idx.map((i) => train.lpNeg[i]!));
      const B = idx.length;
      const lmWs = finetune ? nextLmWindows() : undefined;
      let lmLoss: tf.Scalar | undefined;
      const { value, grads } = tf.variableGrads(() => {
        const y = scoreY(batch, lps);
        const margin = marginLoss(y.slice(0, B) as tf.Tensor1D, y.slice(B, B) as tf.Tensor1D);
        if (!lmWs) return margin;
        lmLoss = tf.keep(lm.loss(lmWs, true));
        return tf.add(margin, tf.mul(lmWeight, lmLoss)) as tf.Scalar;
      }, [...trainable.values()]);
      const lmL = lmLoss ? (lmLoss as tf.Scalar).dataSync()[0]! : 0;
      lmLoss?.dispose();
      lmLossSum += lmL * B;
      lossSum += (value.dataSync()[0]! - lmWeight * lmL) * B;
      value.dispose();
      adam.apply(new Map([...trainable].map(([key, v]) => [key, grads[v.name]!] as [string, tf.Tensor])), 5);
      tf.dispose(Object.values(grads));
      model.disposeBatch(batch);
      line.update(`on-top ${o.variant} epoch ${ep + 1}/${o.epochs} pairs ${Math.min(n, k + B)}/${n} loss ${(lossSum / Math.min(n, k + B)).toFixed(4)}${finetune ? ` masked-pronoun loss ${(lmLossSum / Math.min(n, k + B)).toFixed(3)}` : ""}`);
    }
    line.done();
    const r = await evaluate(dev);
    devReports.push(r);
    log(`epoch ${ep + 1}: train loss ${(lossSum / n).toFixed(4)}${finetune ? `, masked-pronoun loss ${(lmLossSum / n).toFixed(3)}` : ""}, dev ${pct(r)}${useLp ? `, a = ${aVar.dataSync()[0]!.toFixed(3)}` : ""}`);
    lmLossSum = 0;
  }
  const a = useLp ? aVar.dataSync()[0]! : null;
  adam.dispose();
  aVar.dispose();
  model.dispose(); // disposes the shared encoder too
  for (const v of lm.params.values()) v.dispose();
  return { variant: o.variant, zeroShotDev: zsDev, dev: devReports, a, trainPairs: n, seconds: (Date.now() - t0) / 1000 };
}

const sum = (xs: number[]): number => xs.reduce((a, x) => a + x, 0);

export function pct(r: EvalReport): string {
  const p = (c: { accuracy: number } | undefined): string => (c ? (100 * c.accuracy).toFixed(2) : "-");
  return `${p(r.overall)}% (R vs S ${p(r.byKind.system)}, R vs R' ${p(r.byKind.noisy)}; ${r.pairs} pairs)`;
}
