/**
 * Worker thread of data-parallel ranker training (`train --workers N`): a replica of the ranker on its
 * own tfjs backend, computing the gradient of its shard of each global batch of pairs
 * (src/nn/data-parallel.ts has the protocol).
 */
import { selectBackend } from "../nn/backend.js";
import { serveShards } from "../nn/data-parallel.js";
import { Rng } from "../core/prng.js";
import { createModel } from "./checkpoint.js";
import { rankerShardGradients, type RankerShardRequest, type RankerWorkerInit } from "./shard.js";

await serveShards<RankerWorkerInit>(async (init) => {
  await selectBackend(init.backend);
  // The initial weights do not matter: the main thread's are assigned before the first shard.
  const model = await createModel(init.spec, init.table, new Rng(0));
  const params = model.allParams();
  const trainable = new Map(init.trainable.map((k) => [k, params.get(k)!]));
  return {
    params,
    shard: (r: unknown) => {
      const req = r as RankerShardRequest;
      if (init.exitAtStep !== undefined && req.step === init.exitAtStep) process.exit(3);
      return rankerShardGradients(model, trainable, req.pos, req.neg, init.margin, req.dropoutSeed);
    },
  };
});
