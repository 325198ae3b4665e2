// Public API of the learned pronoun ranker (Jwalapuram et al. 2019, Sec. 4-5).
export { loadRankerScorer, RankerScorer, defaultCheckpointDir } from "./scorer.js";
export type { LoadScorerOptions } from "./scorer.js";
export { trainRanker, TRAIN_DEFAULTS } from "./train.js";
export type { TrainOptions, TrainResult, CurvePoint } from "./train.js";
export { loadCheckpoint, saveCheckpoint, readCheckpointConfig, CHECKPOINT_FORMAT } from "./checkpoint.js";
export type { CheckpointConfig } from "./checkpoint.js";
export { selectBackend, describeBackend } from "./backend.js";
export type { BackendInfo, BackendName } from "./backend.js";
export { accuracyReport, preparePairs, scorePairs } from "./evaluate.js";
export type { EvalReport, AccuracyCell } from "./evaluate.js";
export { readRankerPairs } from "./data.js";
export { prepareSide, pairSides } from "./inputs.js";
export type { Side, PreparedSide, PrepareOptions } from "./inputs.js";
export type { Encoder } from "./encoder.js";
export { GloveBiLstmEncoder } from "./encoder.js";
export { RankerModel, marginLoss } from "./model.js";
export { buildEmbeddingTable, readEmbeddingTable, writeEmbeddingTable } from "./glove.js";
