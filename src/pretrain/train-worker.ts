/**
 * Worker thread of data-parallel pretraining (`pretrain --workers N`): a replica of the masked-pronoun
 * model on its own tfjs backend, computing the gradient of its shard of each global batch
 * (src/nn/data-parallel.ts has the protocol).
 */
import { selectBackend } from "../nn/backend.js";
import { serveShards } from "../nn/data-parallel.js";
import { Rng } from "../core/prng.js";
import type { LstmImpl } from "../nn/lstm-impl.js";
import { PronounLm, type MaskedWindow, type PretrainObjective } from "./model.js";
import type { LmArch } from "./arch.js";
import { shardGradients } from "./shard.js";

export interface PretrainWorkerInit {
  backend: string;
  words: string[];
  vectors: Float32Array;
  dim: number;
  source: string;
  hidden: number;
  dropout: number;
  objective: PretrainObjective;
  lstmImpl?: LstmImpl;
  arch: LmArch;
  /** Tests only: the worker thread exits when asked for this step (a worker that dies). */
  exitAtStep?: number;
}

export interface PretrainShardRequest {
  step: number;
  dropSeed: number;
  windows: MaskedWindow[];
}

await serveShards<PretrainWorkerInit>(async (init) => {
  await selectBackend(init.backend);
  const table = { dim: init.dim, words: init.words, vectors: init.vectors, source: init.source };
  const lm = new PronounLm(table, init.hidden, init.dropout, new Rng(0), init.objective, init.lstmImpl, init.arch);
  const params = lm.allParams();
  return {
    params,
    shard: (r: unknown) => {
      const req = r as PretrainShardRequest;
      if (init.exitAtStep !== undefined && req.step === init.exitAtStep) process.exit(3);
      return shardGradients(lm, params, req.windows, req.dropSeed);
    },
  };
});
