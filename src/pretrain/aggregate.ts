// How a masked-pronoun model's per-pronoun log-probabilities become a side's score when it is used as a
// scorer zero-shot. In a module without tfjs, so that the CLI can check the option before loading a model.

/**
 * sum: log P of each pronoun; pmi: minus its corpus log-prior; margin: a pronoun's PMI minus the
 * best PMI of a pronoun that could stand there instead, capped at 0 (0 = the model would not
 * change it), so pronouns the model agrees with add nothing whatever their number; calibrated:
 * minus a bias per pronoun fitted on balanced synthetic pairs of the pretraining corpus
 * (calibration.json in the model directory, `proneval calibrate`).
 */
export type ZeroShotAggregate = "sum" | "pmi" | "margin" | "calibrated";

export const ZERO_SHOT_AGGREGATES: readonly ZeroShotAggregate[] = ["pmi", "sum", "margin", "calibrated"];

/**
 * The aggregate of every zero-shot scorer unless one is asked for: the library's loaders and every
 * command use this one constant. PMI is the shipped default, chosen by `proneval meta-eval`
 * (docs/meta-eval.md): the raw log-probabilities of `sum` favour frequent pronouns.
 */
export const DEFAULT_ZERO_SHOT_AGGREGATE: ZeroShotAggregate = "pmi";

export function isZeroShotAggregate(v: unknown): v is ZeroShotAggregate {
  return ZERO_SHOT_AGGREGATES.includes(v as ZeroShotAggregate);
}
