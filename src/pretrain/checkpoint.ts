import type { PretrainedEncoder } from "../nn/encoder.js";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { InputError } from "../io/errors.js";
import { writeFileAtomic } from "../io/atomic.js";
import { VERSION } from "../version.js";
import { encodeEmbeddingTable, decodeEmbeddingTable } from "../nn/glove.js";
import { packTensors, assignTensors, type TensorEntry } from "../nn/tensors.js";
import { sha256 } from "../nn/sha256.js";
import { readCheckpointEmbeddings, type EmbeddingsEntry } from "../nn/shared-vectors.js";
import { Rng } from "../core/prng.js";
import { PronounLm, type PretrainObjective } from "./model.js";
import { describeArch, type LmArch } from "./arch.js";

export const PRONOUN_LM_FORMAT = 1;

/** config.json of a masked-pronoun model directory (docs/pretrain.md). */
export interface PronounLmConfig {
  format: "proneval-pronoun-lm";
  formatVersion: number;
  proneval: string;
  /**
   * The encoder: a BiLSTM (`layers` absent = 1, as in every model saved before stacked ones existed) or a
   * Transformer (src/nn/transformer.ts).
   */
  encoder:
    | { kind: "glove-bilstm"; hidden: number; layers?: number; dropout: number; embeddingDim: number; vocabSize: number; embeddingSource: string }
    | { kind: "glove-transformer"; layers: number; width: number; heads: number; ffn: number; positions: "learned" | "sinusoidal"; maxPositions: number; dropout: number; embeddingDim: number; vocabSize: number; embeddingSource: string };
  prepare: { contextSentences: number; maxLen: number };
  /** Pretraining objective; absent = "masked" (models saved before the replaced objective existed). */
  objective?: PretrainObjective;
  /** log P(pronoun) in the pretraining corpus, in the order of data/pronouns.json (for PMI scoring). */
  pronounLogPrior?: number[];
  files: { weights: { file: string; sha256: string; tensors: TensorEntry[] }; embeddings: EmbeddingsEntry };
  training: Record<string, unknown>;
}

/** Writes weights.bin, embeddings.bin (only when changed) and config.json last (holding both hashes). */
export function savePronounLm(dir: string, lm: PronounLm, meta: { prepare: PronounLmConfig["prepare"]; training: Record<string, unknown> }): PronounLmConfig {
  const { manifest, data } = packTensors(lm.allParams());
  const emb = encodeEmbeddingTable(lm.table);
  const embHash = sha256(emb);
  const embPath = join(dir, "embeddings.bin");
  if (!existsSync(embPath) || statSync(embPath).size !== emb.length || sha256(readFileSync(embPath)) !== embHash) writeFileAtomic(embPath, emb);
  writeFileAtomic(join(dir, "weights.bin"), data);
  const cfg: PronounLmConfig = {
    format: "proneval-pronoun-lm",
    formatVersion: PRONOUN_LM_FORMAT,
    proneval: VERSION,
    encoder: lm.encoder.config() as PronounLmConfig["encoder"],
    prepare: meta.prepare,
    ...(lm.objective !== "masked" ? { objective: lm.objective } : {}),
    ...(lm.logPrior ? { pronounLogPrior: Array.from(lm.logPrior) } : {}),
    files: { weights: { file: "weights.bin", sha256: sha256(data), tensors: manifest }, embeddings: { file: "embeddings.bin", sha256: embHash, vocabSize: lm.table.words.length } },
    training: meta.training,
  };
  writeFileAtomic(join(dir, "config.json"), JSON.stringify(cfg, null, 2) + "\n");
  return cfg;
}

/** A checkpoint file named by config.json, refused unless its sha256 is the one recorded there. */
export function readChecked(dir: string, entry: { file: string; sha256: string }): Buffer {
  const path = join(dir, entry.file);
  if (!existsSync(path)) throw new InputError("checkpoint file missing", path);
  const buf = readFileSync(path);
  if (sha256(buf) !== entry.sha256) throw new InputError("checksum mismatch: the file does not belong to this config.json (interrupted write or mixed checkpoints)", path);
  return buf;
}

export function readPronounLmConfig(dir: string): PronounLmConfig {
  const file = join(dir, "config.json");
  if (!existsSync(dir)) throw new InputError("model directory not found", dir);
  if (!existsSync(file)) throw new InputError("not a proneval model directory (no config.json)", dir);
  let cfg: PronounLmConfig;
  try {
    cfg = JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    throw new InputError(`invalid JSON (${(e as Error).message})`, file);
  }
  if (cfg?.format !== "proneval-pronoun-lm") throw new InputError(`not a masked-pronoun model (format is ${JSON.stringify(cfg?.format)}; train one with proneval pretrain)`, file);
  if (cfg.formatVersion !== PRONOUN_LM_FORMAT) throw new InputError(`model format version ${cfg.formatVersion} cannot be read by proneval ${VERSION} (reads ${PRONOUN_LM_FORMAT})`, file);
  if (cfg.objective !== undefined && cfg.objective !== "masked" && cfg.objective !== "replaced") throw new InputError(`unknown pretraining objective ${JSON.stringify(cfg.objective)} (masked or replaced)`, file);
  if (!cfg.files?.weights || !cfg.files?.embeddings || !(cfg.prepare?.maxLen > 0)) throw new InputError("incomplete model configuration", file);
  archOfConfig(cfg, file);
  return cfg;
}

/** The encoder shape recorded in a config.json (InputError naming the file when it is not a known one). */
export function archOfConfig(cfg: PronounLmConfig, file = "config.json"): LmArch {
  const e = cfg.encoder as Record<string, unknown> | undefined;
  const pos = (k: string): boolean => Number.isInteger(e?.[k]) && (e![k] as number) > 0;
  if (e?.kind === "glove-bilstm" && pos("hidden") && (e.layers === undefined || pos("layers"))) return { kind: "glove-bilstm", hidden: e.hidden as number, layers: (e.layers as number | undefined) ?? 1 };
  if (e?.kind === "glove-transformer" && ["layers", "width", "heads", "ffn", "maxPositions"].every(pos) && (e.positions === "learned" || e.positions === "sinusoidal"))
    return { kind: "glove-transformer", layers: e.layers as number, width: e.width as number, heads: e.heads as number, ffn: e.ffn as number, positions: e.positions, maxPositions: e.maxPositions as number };
  throw new InputError(`unknown or incomplete encoder ${JSON.stringify(e?.kind ?? null)} (expected glove-bilstm with hidden, or glove-transformer with layers, width, heads, ffn, positions, maxPositions)`, file);
}

/** Loads a masked-pronoun model; every problem is an InputError naming the file. */
export function loadPronounLm(dir: string): { config: PronounLmConfig; lm: PronounLm } {
  const config = readPronounLmConfig(dir);
  const table = decodeEmbeddingTable(readCheckpointEmbeddings(dir, config.files.embeddings), join(dir, config.files.embeddings.file));
  const arch = archOfConfig(config, join(dir, "config.json"));
  const lm = new PronounLm(table, arch.kind === "glove-bilstm" ? arch.hidden : arch.width, 0, new Rng(0), config.objective ?? "masked", undefined, arch);
  if (config.pronounLogPrior) {
    if (config.pronounLogPrior.length !== 42) throw new InputError("pronounLogPrior must have 42 values", join(dir, "config.json"));
    lm.logPrior = Float32Array.from(config.pronounLogPrior);
  }
  try {
    assignTensors(lm.allParams(), config.files.weights.tensors, readChecked(dir, config.files.weights), join(dir, config.files.weights.file));
  } catch (e) {
    lm.dispose();
    throw e;
  }
  return { config, lm };
}

/** A masked-pronoun model's BiLSTM as the start of a ranker (`train --init-from DIR`). */
export function loadPretrainedEncoder(dir: string): PretrainedEncoder {
  const arch = archOfConfig(readPronounLmConfig(dir), join(dir, "config.json"));
  if (arch.kind !== "glove-bilstm" || arch.layers !== 1) throw new InputError(`--init-from needs a one-layer BiLSTM masked-pronoun model (the ranker's encoder); this one is a ${describeArch(arch)}`, join(dir, "config.json"));
  const { config, lm } = loadPronounLm(dir);
  return { hidden: arch.hidden, table: lm.table, params: lm.encoder.params, sha256: config.files.weights.sha256, dispose: () => lm.dispose() };
}
