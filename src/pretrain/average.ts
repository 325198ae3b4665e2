// Checkpoint averaging of masked-pronoun models: the element-wise mean of the weights of several
// snapshots of one pretraining run (same encoder, same embeddings, same pronoun prior). Averaging
// late snapshots smooths the noise of the last Adam steps (Polyak averaging) at no scoring cost:
// the result is one model of the same size and speed. A run continued on another corpus (`pretrain
// --init`) has that corpus's pronoun prior; averaging it with the model it started from ("weight
// averaging along one lineage") needs the prior named explicitly, since PMI subtracts it.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { InputError } from "../io/errors.js";
import { checkOutputDir, writeFilesAtomic } from "../io/atomic.js";
import { VERSION } from "../version.js";
import { sha256 } from "../nn/sha256.js";
import { floatsOf } from "../nn/tensors.js";
import { readCheckpointEmbeddings } from "../nn/shared-vectors.js";
import { readChecked, readPronounLmConfig, type PronounLmConfig } from "./checkpoint.js";

/** Element-wise mean of equally long float32 vectors, summed in float64 (order-independent up to rounding). */
export function meanOf(vectors: Float32Array[]): Float32Array {
  if (vectors.length === 0) throw new Error("meanOf: nothing to average");
  const n = vectors[0]!.length;
  const acc = new Float64Array(n);
  for (const v of vectors) {
    if (v.length !== n) throw new Error(`meanOf: lengths differ (${v.length} vs ${n})`);
    for (let i = 0; i < n; i++) acc[i] += v[i]!;
  }
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = acc[i]! / vectors.length;
  return out;
}

/** What must be equal for two snapshots to be averaged (everything but the weights and the training record). */
function shapeKey(cfg: PronounLmConfig, withPrior: boolean): string {
  return JSON.stringify({
    encoder: cfg.encoder,
    prepare: cfg.prepare,
    objective: cfg.objective ?? "masked",
    prior: withPrior ? cfg.pronounLogPrior ?? null : undefined,
    tensors: cfg.files.weights.tensors,
    embeddings: cfg.files.embeddings.sha256,
  });
}

export interface AverageOptions {
  overwrite?: boolean;
  /**
   * Index into `dirs` of the model whose pronoun prior the average takes. Without it the inputs must share
   * their prior; with it they may differ in the prior only (a run and its continuation on another corpus).
   */
  priorOf?: number;
}

/**
 * Writes the average of the model directories `dirs` to `outDir` (weights.bin, embeddings.bin copied from the
 * first, config.json last) and returns its config. Refuses snapshots that differ in anything but their weights
 * (and their pronoun prior, where `priorOf` names whose prior to keep).
 */
export function averagePronounLms(dirs: string[], outDir: string, opts: AverageOptions = {}): PronounLmConfig {
  if (dirs.length < 2) throw new InputError(`averaging needs at least two model directories (got ${dirs.length})`);
  const priorOf = opts.priorOf;
  if (priorOf !== undefined && !(Number.isInteger(priorOf) && priorOf >= 0 && priorOf < dirs.length))
    throw new InputError(`the model whose prior to keep must be one of the ${dirs.length} averaged (got index ${priorOf})`);
  const cfgs = dirs.map((d) => readPronounLmConfig(d));
  const withPrior = priorOf === undefined;
  const key0 = shapeKey(cfgs[0]!, withPrior);
  cfgs.forEach((c, i) => {
    if (shapeKey(c, withPrior) !== key0) {
      const sameButPrior = withPrior && shapeKey(c, false) === shapeKey(cfgs[0]!, false);
      throw new InputError(
        sameButPrior
          ? `its pronoun prior differs from that of ${dirs[0]} (a run continued on another corpus?); name the model whose prior the average keeps (--prior-of)`
          : `not a snapshot of the same model as ${dirs[0]} (encoder, inputs, ${withPrior ? "pronoun prior, " : ""}tensors or embeddings differ); only snapshots of one run, or a run and its continuation, can be averaged`,
        join(dirs[i]!, "config.json"),
      );
    }
  });
  const mean = meanOf(dirs.map((d, i) => floatsOf(readChecked(d, cfgs[i]!.files.weights))));
  checkOutputDir(outDir, { overwrite: opts.overwrite ?? false, what: "a model" });
  const data = Buffer.from(mean.buffer, mean.byteOffset, mean.byteLength);
  const first = cfgs[0]!;
  // Written self-contained, also when the first snapshot shares its vectors with others.
  const embeddings = readCheckpointEmbeddings(dirs[0]!, first.files.embeddings);
  const cfg: PronounLmConfig = {
    ...first,
    pronounLogPrior: cfgs[priorOf ?? 0]!.pronounLogPrior,
    proneval: VERSION,
    files: { weights: { ...first.files.weights, file: "weights.bin", sha256: sha256(data) }, embeddings: { file: "embeddings.bin", sha256: first.files.embeddings.sha256, vocabSize: first.files.embeddings.vocabSize } },
    training: {
      averageOf: dirs.map((d, i) => ({ dir: d, weightsSha256: cfgs[i]!.files.weights.sha256, step: cfgs[i]!.training?.step ?? null })),
      ...Object.fromEntries(Object.entries(cfgs[priorOf ?? 0]!.training ?? {}).filter(([k]) => ["corpus", "seed", "batchSize", "lr", "backend", "lstmImpl"].includes(k))),
      ...(priorOf !== undefined ? { priorOf: { dir: dirs[priorOf]!, corpus: cfgs[priorOf]!.training?.corpus ?? null } } : {}),
    },
  };
  mkdirSync(outDir, { recursive: true });
  // All three files or none (config.json names the other two by hash).
  writeFilesAtomic([
    [join(outDir, "embeddings.bin"), embeddings],
    [join(outDir, "weights.bin"), data],
    [join(outDir, "config.json"), JSON.stringify(cfg, null, 2) + "\n"],
  ]);
  return cfg;
}
