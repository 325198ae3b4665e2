import type { LstmImpl } from "../nn/bilstm-graph.js";
import type { LmArch } from "./arch.js";
import type { PretrainObjective } from "./model.js";

export interface PretrainOptions {
  corpus: string;
  out: string;
  /** wmt23 dev pairs for zero-shot accuracy along the way (optional). */
  dev?: string;
  maxDevPairs: number;
  hidden: number;
  dropout: number;
  batchSize: number;
  lr: number;
  clip: number;
  seed: number;
  maxLen: number;
  contextSentences: number;
  vocabCap: number;
  checkpointEvery: number;
  evalEvery: number;
  maxSteps: number;
  maxMinutes: number;
  maxDocs: number;
  resume: boolean;
  backend: string;
  /** Default masked; replaced needs `confusions`. */
  objective?: PretrainObjective;
  /** BiLSTM implementation (nn/bilstm-graph.ts): same numbers either way, so not in the resume key. */
  lstmImpl?: LstmImpl;
  /** Pair file whose R-vs-S pairs give the replacement distribution (replaced objective). */
  confusions?: string;
  /** No progress line on stderr (the CLI's -q; log lines go through `log`). */
  quiet?: boolean;
  /** Also keep the model of every evaluation in <out>/snapshots/step-N (for checkpoint averaging, src/pretrain/average.ts). */
  keepSnapshots?: boolean;
  /** The encoder (default: a one-layer BiLSTM of `hidden` units). */
  arch?: LmArch;
  /**
   * Data-parallel threads (default 1: this thread alone). With N > 1 the global batch is split into N
   * shards, this thread and N - 1 worker threads compute them on their own tfjs backends, the
   * gradients are averaged and Adam runs once here (src/nn/data-parallel.ts).
   */
  workers?: number;
  /**
   * Continued pretraining: start from this masked-pronoun model's weights, vocabulary and frozen vectors
   * (same encoder shape and objective) instead of a random initialisation; Adam starts afresh.
   */
  init?: string;
  /** Tests only: the worker thread 1 exits when asked for this step. */
  faultWorkerExitAtStep?: number;
}

/** Pretraining defaults, in a module without tfjs so that the CLI can show them without loading it. */
export const PRETRAIN_DEFAULTS: Omit<PretrainOptions, "corpus" | "out"> = {
  maxDevPairs: 2000,
  hidden: 128,
  dropout: 0,
  batchSize: 64,
  lr: 2e-3,
  clip: 5,
  seed: 1,
  maxLen: 128,
  contextSentences: 2,
  vocabCap: 40000,
  checkpointEvery: 200,
  evalEvery: 2000,
  maxSteps: 0,
  maxMinutes: 0,
  maxDocs: 0,
  resume: false,
  backend: "wasm",
};
