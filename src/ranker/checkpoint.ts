import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type * as tf from "@tensorflow/tfjs";
import { InputError } from "../io/errors.js";
import { writeFileAtomic } from "../io/atomic.js";
import { VERSION } from "../version.js";
import type { ContextMode } from "../core/pair-format.js";
import { CONTEXT_MODES, type PrepareOptions } from "../nn/inputs.js";
import { GloveBiLstmEncoder, type Encoder } from "../nn/encoder.js";
import type { LstmImpl } from "../nn/bilstm-graph.js";
import { TransformersEncoder } from "./transformers.js";
import { UseLiteEncoder, USE_LITE_KIND } from "./use-lite.js";
import { decodeEmbeddingTable, encodeEmbeddingTable, type EmbeddingTable } from "../nn/glove.js";
import { RankerModel, type HeadConfig } from "./model.js";
import { packTensors, assignTensors, type TensorEntry } from "../nn/tensors.js";
import { Rng } from "../core/prng.js";
import { sha256 } from "../nn/sha256.js";
import { readCheckpointEmbeddings, type EmbeddingsEntry } from "../nn/shared-vectors.js";

/** Bumped whenever the layout of a checkpoint or the meaning of a weight changes. */
export const CHECKPOINT_FORMAT = 1;

export interface EncoderSpec {
  kind: string;
  [k: string]: unknown;
}

/** config.json of a checkpoint directory. */
export interface CheckpointConfig {
  format: "proneval-ranker";
  formatVersion: number;
  proneval: string;
  encoder: EncoderSpec;
  head: HeadConfig;
  contextMode: ContextMode;
  prepare: PrepareOptions;
  dims: { embedding: number | null; encoder: number };
  files: {
    weights: { file: string; sha256: string; tensors: TensorEntry[] };
    embeddings?: EmbeddingsEntry;
  };
  /** Signatures of the pair files it was trained and selected on. */
  data: Record<string, unknown>;
  /** How it was trained (seed, steps, dev accuracy, backend, ...). */
  training: Record<string, unknown>;
}

export interface ModelSpec {
  encoder: EncoderSpec;
  head: HeadConfig;
}

/** Builds an (untrained) model from a spec; glove needs its embedding table. */
export async function createModel(spec: ModelSpec, table: EmbeddingTable | undefined, rng: Rng, modelDir?: string): Promise<RankerModel> {
  let enc: Encoder;
  if (spec.encoder.kind === "glove-bilstm") {
    if (!table) throw new InputError("glove-bilstm needs an embedding table");
    // lstmImpl is a runtime choice (train --lstm-impl); saved configs lack it and get "auto".
    enc = new GloveBiLstmEncoder(table, { hidden: Number(spec.encoder.hidden), dropout: Number(spec.encoder.dropout ?? 0), impl: spec.encoder.lstmImpl as LstmImpl | undefined }, rng);
  } else if (spec.encoder.kind.startsWith("transformers:")) {
    enc = await TransformersEncoder.load(spec.encoder, { modelDir });
  } else if (spec.encoder.kind === USE_LITE_KIND) {
    enc = await UseLiteEncoder.load(spec.encoder, { modelDir });
  } else {
    throw new InputError(`unknown encoder '${spec.encoder.kind}' (expected glove-bilstm, use-lite or transformers:<model>)`);
  }
  return new RankerModel(enc, spec.head, rng);
}

export interface SaveMeta {
  contextMode: ContextMode;
  prepare: PrepareOptions;
  data: Record<string, unknown>;
  training: Record<string, unknown>;
}

/**
 * Writes a checkpoint directory. Each file is written atomically and config.json last, holding
 * the sha256 of the others, so a kill at any point leaves either the old or the new checkpoint
 * detectably (a loader refuses weights whose hash does not match).
 */
export function saveCheckpoint(dir: string, model: RankerModel, meta: SaveMeta): CheckpointConfig {
  const { manifest, data } = packTensors(model.allParams() as Map<string, tf.Tensor>);
  const files: CheckpointConfig["files"] = { weights: { file: "weights.bin", sha256: sha256(data), tensors: manifest } };
  if (model.encoder instanceof GloveBiLstmEncoder) {
    const emb = encodeEmbeddingTable(model.encoder.table);
    const hash = sha256(emb);
    const path = join(dir, "embeddings.bin");
    // The table is frozen: rewrite it only when it differs (saves 8 MB of writes per checkpoint).
    if (!existsSync(path) || statSync(path).size !== emb.length || sha256(readFileSync(path)) !== hash) writeFileAtomic(path, emb);
    files.embeddings = { file: "embeddings.bin", sha256: hash, vocabSize: model.encoder.table.words.length };
  }
  writeFileAtomic(join(dir, "weights.bin"), data);
  const cfg: CheckpointConfig = {
    format: "proneval-ranker",
    formatVersion: CHECKPOINT_FORMAT,
    proneval: VERSION,
    encoder: model.encoder.config() as EncoderSpec,
    head: model.head,
    contextMode: meta.contextMode,
    prepare: meta.prepare,
    dims: { embedding: model.encoder instanceof GloveBiLstmEncoder ? model.encoder.table.dim : null, encoder: model.encoder.dim },
    files,
    data: meta.data,
    training: meta.training,
  };
  writeFileAtomic(join(dir, "config.json"), JSON.stringify(cfg, null, 2) + "\n");
  return cfg;
}

function compatibleVersion(a: string, b: string): boolean {
  const [am, an] = a.split(".");
  const [bm, bn] = b.split(".");
  return am === bm && (am !== "0" || an === bn);
}

/** Reads and validates config.json; every problem is an InputError naming the file. */
export function readCheckpointConfig(dir: string): CheckpointConfig {
  const file = join(dir, "config.json");
  if (!existsSync(dir)) throw new InputError(`checkpoint directory not found`, dir);
  if (!existsSync(file)) throw new InputError(`not a proneval checkpoint (no config.json)`, dir);
  let cfg: CheckpointConfig;
  try {
    cfg = JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    throw new InputError(`invalid JSON (${(e as Error).message})`, file);
  }
  if (cfg?.format !== "proneval-ranker") throw new InputError(`not a proneval ranker checkpoint (format is ${JSON.stringify(cfg?.format)})`, file);
  if (cfg.formatVersion !== CHECKPOINT_FORMAT)
    throw new InputError(`checkpoint format version ${cfg.formatVersion} (written by proneval ${cfg.proneval}) cannot be read by proneval ${VERSION}, which reads format ${CHECKPOINT_FORMAT}; retrain it with this version`, file);
  if (typeof cfg.proneval !== "string" || !compatibleVersion(cfg.proneval, VERSION))
    throw new InputError(`checkpoint was written by proneval ${cfg.proneval}, incompatible with this proneval ${VERSION}; retrain it with this version`, file);
  if (!CONTEXT_MODES.includes(cfg.contextMode)) throw new InputError(`unknown context mode ${JSON.stringify(cfg.contextMode)}`, file);
  if (!cfg.encoder || typeof cfg.encoder.kind !== "string") throw new InputError("missing encoder specification", file);
  if (!cfg.head || (cfg.head.head !== "attention" && cfg.head.head !== "baseline") || !(cfg.head.slots >= 1)) throw new InputError("missing or invalid head configuration", file);
  if (!cfg.prepare || !(cfg.prepare.maxLen > 0) || !(cfg.prepare.contextSentences >= 0)) throw new InputError("missing or invalid input configuration (prepare)", file);
  if (!cfg.files?.weights?.file || !Array.isArray(cfg.files.weights.tensors)) throw new InputError("missing weights entry", file);
  return cfg;
}

function readChecked(dir: string, entry: { file: string; sha256: string }): Buffer {
  const path = join(dir, entry.file);
  if (!existsSync(path)) throw new InputError(`checkpoint file missing`, path);
  const buf = readFileSync(path);
  if (sha256(buf) !== entry.sha256) throw new InputError(`checksum mismatch: the file does not belong to this config.json (interrupted write or mixed checkpoints)`, path);
  return buf;
}

export interface LoadedCheckpoint {
  dir: string;
  config: CheckpointConfig;
  model: RankerModel;
}

export async function loadCheckpoint(dir: string, modelDir?: string): Promise<LoadedCheckpoint> {
  const config = readCheckpointConfig(dir);
  let table: EmbeddingTable | undefined;
  if (config.encoder.kind === "glove-bilstm") {
    if (!config.files.embeddings) throw new InputError("glove-bilstm checkpoint without an embeddings entry", join(dir, "config.json"));
    const path = join(dir, config.files.embeddings.file);
    table = decodeEmbeddingTable(readCheckpointEmbeddings(dir, config.files.embeddings), path);
    if (table.words.length !== config.files.embeddings.vocabSize) throw new InputError(`vocabulary has ${table.words.length} words, config.json says ${config.files.embeddings.vocabSize}`, path);
  }
  const model = await createModel({ encoder: config.encoder, head: config.head }, table, new Rng(0), modelDir);
  try {
    assignTensors(model.allParams(), config.files.weights.tensors, readChecked(dir, config.files.weights), join(dir, config.files.weights.file));
  } catch (e) {
    model.dispose();
    throw e;
  }
  return { dir, config, model };
}
