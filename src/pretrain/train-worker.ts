/**
 * Worker thread of data-parallel pretraining (`pretrain --workers N`): a replica of the masked-pronoun
 * model on its own tfjs backend, computing the gradient of its shard of each global batch
 * (src/nn/data-parallel.ts has the protocol).
 */
import { selectBackend } from "../nn/backend.js";
import { serveShards } from "../nn/data-parallel.js";
import { Rng } from "../core/prng.js";
import { PronounLm } from "./model.js";
import { shardGradients, type PretrainShardRequest, type PretrainWorkerInit } from "./shard.js";

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
