// Public API of the learned pronoun ranker (Jwalapuram et al. 2019, Sec. 4-5).
export { loadRankerScorer, RankerScorer, defaultCheckpointDir } from "./scorer.js";
export type { LoadScorerOptions } from "../metric/scorer.js";
export { trainRanker, TRAIN_DEFAULTS } from "./train.js";
export type { TrainOptions, TrainResult, CurvePoint } from "./train.js";
export { loadCheckpoint, saveCheckpoint, readCheckpointConfig, CHECKPOINT_FORMAT } from "./checkpoint.js";
export type { CheckpointConfig } from "./checkpoint.js";
export { selectBackend, describeBackend } from "../nn/backend.js";
export type { BackendInfo, BackendName } from "../nn/backend.js";
export { accuracyReport, preparePairs } from "../nn/evaluate.js";
export { scorePairs } from "./run-model.js";
export type { EvalReport, AccuracyCell } from "../nn/evaluate.js";
export { readRankerPairs } from "../nn/data.js";
export { prepareSide, pairSides } from "../nn/inputs.js";
export type { Side, PreparedSide, PrepareOptions } from "../nn/inputs.js";
export type { Encoder } from "../nn/encoder.js";
export { GloveBiLstmEncoder } from "../nn/encoder.js";
export { RankerModel, marginLoss } from "./model.js";
export { buildEmbeddingTable, readEmbeddingTable, writeEmbeddingTable } from "../nn/glove.js";
