// Loads any scorer from a directory, by what its config.json says it is: an ensemble
// (proneval-ensemble), a masked-pronoun model (proneval-pronoun-lm, scored zero-shot) or a ranker.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { InputError } from "../io/errors.js";
import { isEnsembleDir, loadEnsembleScorer } from "./ensemble.js";
import { loadZeroShotScorer } from "../pretrain/scorer.js";
import { DEFAULT_ZERO_SHOT_AGGREGATE, type ZeroShotAggregate } from "../pretrain/aggregate.js";
import { defaultCheckpointDir, loadRankerScorer } from "../ranker/scorer.js";
import type { LoadScorerOptions, PronounScorer } from "../core/scorer.js";

export interface LoadOptions extends LoadScorerOptions {
  /** For a masked-pronoun model (scored zero-shot): how its log-probabilities are aggregated (default DEFAULT_ZERO_SHOT_AGGREGATE). */
  zeroShotAggregate?: ZeroShotAggregate;
}

function formatOf(dir: string): string | undefined {
  try {
    return JSON.parse(readFileSync(join(dir, "config.json"), "utf8"))?.format;
  } catch {
    return undefined;
  }
}

/** Loads a scorer directory (default: the shipped default, src/version.ts, scored zero-shot). */
export async function loadScorer(dir?: string, opts: LoadOptions = {}): Promise<PronounScorer> {
  const d = dir ?? defaultCheckpointDir();
  if (!dir && !existsSync(join(d, "config.json")))
    throw new InputError(`no checkpoint given and the default checkpoint is missing (${d}); train one with 'proneval train' and pass --checkpoint`);
  if (isEnsembleDir(d)) return loadEnsembleScorer(d, opts);
  if (formatOf(d) === "proneval-pronoun-lm") return loadZeroShotScorer(d, { ...opts, aggregate: opts.zeroShotAggregate ?? DEFAULT_ZERO_SHOT_AGGREGATE });
  return loadRankerScorer(d, opts);
}
