import { join } from "node:path";
import { InputError } from "../io/errors.js";
import { defaultModelDir } from "../version.js";
import { describeBackend, selectBackend, type BackendInfo } from "../nn/backend.js";
import { prepareSide } from "../nn/inputs.js";
import type { PreparedSide, Side } from "../core/scorer.js";
import { dedupePrepared, type LoadScorerOptions, type PronounScorer, type ScoredSide, type ScoreOptions } from "../core/scorer.js";
import type { ContextMode } from "../core/pair-format.js";
import { loadPronounLm, type PronounLmConfig } from "./checkpoint.js";
import type { PronounLm } from "./model.js";
import { zeroShotScores } from "./zeroshot.js";
import { DEFAULT_ZERO_SHOT_AGGREGATE, type ZeroShotAggregate } from "./aggregate.js";
import { readCalibration } from "./calibration.js";

export function defaultPronounLmDir(): string {
  return defaultModelDir();
}

/**
 * The zero-shot scorer: a pronoun's value is log P(pronoun | context + sentence with that pronoun
 * masked) under the masked-pronoun model ("pmi": minus the pronoun's corpus log-prior; "calibrated":
 * minus its fitted bias, calibration.ts); a side's score is their sum. A PronounScorer like the ranker
 * (src/core/scorer.ts).
 */
export class ZeroShotScorer implements PronounScorer {
  readonly kind = "zero-shot";
  constructor(
    readonly dir: string,
    readonly lmConfig: PronounLmConfig,
    readonly lm: PronounLm,
    readonly backend: BackendInfo,
    readonly contextMode: ContextMode,
    /** "pmi" subtracts each pronoun's corpus log-prior (needs a model saved with one). */
    readonly aggregate: ZeroShotAggregate = DEFAULT_ZERO_SHOT_AGGREGATE,
    /** For "calibrated": the per-pronoun biases of the model's calibration.json and that file's sha256. */
    readonly calibration?: { bias: Float32Array; sha256: string },
  ) {
    if (aggregate === "calibrated" && !calibration) throw new Error("the calibrated aggregate needs a calibration");
  }

  get backendLine(): string {
    return describeBackend(this.backend);
  }

  modelSignature(): string {
    const w = this.lmConfig.files.weights.sha256.slice(0, 8);
    // The calibration is part of the model: its file's hash is named beside the weights'.
    const cal = this.aggregate === "calibrated" ? `+cal@${this.calibration!.sha256.slice(0, 8)}` : "";
    return `model:pronoun-lm-zeroshot-${this.aggregate}@${w}${cal}`;
  }

  get maxKeys(): number {
    return this.lmConfig.prepare.maxLen;
  }

  prepare(side: Side): PreparedSide {
    return prepareSide(side, this.lmConfig.prepare);
  }

  async scorePrepared(prepared: PreparedSide[], opts: ScoreOptions = {}): Promise<ScoredSide[]> {
    const { unique: uniqueSides, slot } = dedupePrepared(prepared);
    const res = zeroShotScores(this.lm, uniqueSides, opts.batchSize ?? 128, opts.onBatch ? (done, total) => opts.onBatch!(Math.round((done / Math.max(1, total)) * uniqueSides.length)) : undefined);
    const prior = this.aggregate === "sum" ? null : this.aggregate === "calibrated" ? this.calibration!.bias : this.lm.logPrior;
    return prepared.map((p, k) => {
      const r = res[slot[k]!]!;
      const pronouns = p.pronounPos.map((pos, j) => {
        const v = r.logProbs[j]! - (prior ? prior[r.labels[j]!]! : 0);
        // margin: how far the best pronoun that could stand here is above this one (0 if none is).
        const c = this.aggregate === "margin" ? Math.min(0, v - (prior ? r.altPmi! : r.altLogProbs!)[j]!) : v;
        return { token: p.tokens[pos]!, index: pos - p.sentStart, score: v, contribution: c };
      });
      return {
        score: pronouns.reduce((a, x) => a + x.contribution, 0),
        pronouns,
        tokens: p.tokens,
        sentStart: p.sentStart,
        truncatedContext: p.truncated,
      };
    });
  }

  dispose(): void {
    this.lm.dispose();
  }
}

/** Loads a masked-pronoun model directory (default: the shipped default, src/version.ts) as a zero-shot scorer (CRC context unless given). */
export async function loadZeroShotScorer(dir?: string, opts: LoadScorerOptions & { context?: ContextMode; aggregate?: ZeroShotAggregate } = {}): Promise<ZeroShotScorer> {
  const backend = await selectBackend(opts.backend ?? "auto");
  const d = dir ?? defaultPronounLmDir();
  const { config, lm } = loadPronounLm(d);
  const agg = opts.aggregate ?? DEFAULT_ZERO_SHOT_AGGREGATE;
  if ((agg === "pmi" || agg === "margin") && !lm.logPrior) {
    lm.dispose();
    throw new InputError("this model has no pronoun prior (pronounLogPrior in config.json): PMI scoring is unavailable; use sum", join(d, "config.json"));
  }
  let calibration: { bias: Float32Array; sha256: string } | undefined;
  if (agg === "calibrated") {
    try {
      const c = readCalibration(d, config.files.weights.sha256);
      calibration = { bias: Float32Array.from(c.calibration.bias), sha256: c.sha256 };
    } catch (e) {
      lm.dispose();
      throw e;
    }
  }
  return new ZeroShotScorer(d, config, lm, backend, opts.context ?? "crc", agg, calibration);
}
