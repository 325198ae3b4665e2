// One shard of a data-parallel pretraining step (src/nn/data-parallel.ts): the same computation in
// the main thread and in every worker thread.
import * as tf from "@tensorflow/tfjs";
import type { MaskedWindow, PronounLm } from "./model.js";

/**
 * Shard k of a global batch: windows k, k+W, k+2W, ... A batch is length-sorted, so every shard gets
 * about the same number of tokens and stays sorted (the BiLSTM skips finished rows of a sorted batch).
 */
export function shardWindows<T>(ws: T[], shards: number): T[][] {
  return Array.from({ length: shards }, (_, k) => ws.filter((_, i) => i % shards === k));
}

/** Dropout seed of shard k (shard 0 keeps the step's own seed). */
export function shardSeed(dropSeed: number, k: number): number {
  return k === 0 ? dropSeed : (dropSeed + Math.imul(k, 0x9e3779b1)) >>> 0;
}

/** Mean loss of a shard's windows and its gradients by parameter name (none for an empty shard). */
export function shardGradients(lm: PronounLm, params: Map<string, tf.Variable>, ws: MaskedWindow[], dropSeed: number): { loss: number; n: number; grads: Map<string, tf.Tensor> } {
  if (ws.length === 0) return { loss: 0, n: 0, grads: new Map() };
  const { value, grads } = tf.variableGrads(() => lm.loss(ws, true, dropSeed), [...params.values()]);
  const loss = value.dataSync()[0]!;
  value.dispose();
  // variableGrads keys gradients by the variables' tfjs names, not by our parameter names.
  return { loss, n: ws.length, grads: new Map([...params].map(([k, v]) => [k, grads[v.name]!] as [string, tf.Tensor])) };
}
