// Public API of the metric: one scorer interface, scoring test sets and pair files, meta-evaluation.
export { TIE_EPS, scoreSidesWith, type PronounScorer, type PronounScore, type ScoredSide, type ScoreOptions } from "../core/scorer.js";
export { AGGREGATES, COMPARE_MODES, DEFAULT_MODE, compareSides, pronounDecisions, type Aggregate, type CompareMode, type PronounDecision } from "./decide.js";
export { hybridCompare, referenceAlignedCompare, type AlignedItem, type HybridResult } from "./ref-aligned.js";
export {
  scoreTestSet,
  compareToBaseline,
  readScoringInput,
  signature,
  scoreDefinition,
  DEFAULT_AGGREGATE,
  type SegmentResult,
  type SystemResult,
  type SystemSummary,
  type PairComparison,
  type ScoreSetOptions,
  type ScoringInput,
} from "./testset.js";
export { compareMany, marginsOf, pairItems, pairAccuracy, balancedAccuracy, pairAccuracyTables, type PairAccuracy, type BalancedAccuracy } from "./pairs.js";
export { loadScorer, type LoadOptions } from "./load.js";
