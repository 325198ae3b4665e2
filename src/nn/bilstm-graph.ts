import * as tf from "@tensorflow/tfjs";
import type { BiLstmInputs, BiLstmParams } from "./bilstm.js";
import { onGpu } from "./backend.js";
import type { LstmImpl } from "./lstm-impl.js";
import { mm } from "./matmul.js";

export { LSTM_IMPLS, type LstmImpl } from "./lstm-impl.js";

/** `auto` resolved against the running backend. */
export function resolveLstmImpl(impl: LstmImpl | undefined): "js" | "graph" {
  if (impl === "js" || impl === "graph") return impl;
  return onGpu() ? "graph" : "js";
}

/**
 * The BiLSTM of bilstm.ts (same inputs, parameters, gate order i, f, o, g, output [B, T, 2h] zero at
 * padded positions) built from tfjs ops. Per time step both directions share one plain 2-D matMul
 * with a block-diagonal [2h, 8h] recurrent matrix (half the kernel launches of two products, and 2-D
 * matMuls are the fast path of every backend); the input projections of all steps are two large
 * matMuls up front. Steps past a sequence's end compute values that only ever feed later padded
 * steps (right padding, backward inputs reversed within each length) and are zeroed at the end.
 * The backward direction's outputs return to reading order by a per-sequence permutation matMul
 * (gather has no gradient on wasm).
 */
export function biLstmGraph(inp: BiLstmInputs, p: BiLstmParams, h: number): tf.Tensor3D {
  const { B, T, d, lengths } = inp;
  const mask = new Float32Array(B * T);
  const rev = new Float32Array(B * T * T);
  for (let b = 0; b < B; b++) {
    const n = lengths[b]!;
    mask.fill(1, b * T, b * T + n);
    for (let t = 0; t < n; t++) rev[(b * T + t) * T + (n - 1 - t)] = 1;
  }
  const xf = tf.tensor2d(inp.xf, [T * B, d]);
  const xb = tf.tensor2d(inp.xb, [T * B, d]);
  // [T*B, 8h]: row t*B+b = [forward gates | backward gates] of step t.
  const xw = tf.concat([tf.add(mm(xf, p.Wf), p.bf), tf.add(mm(xb, p.Wb), p.bb)], 1);
  const steps = tf.unstack(tf.reshape(xw, [T, B, 8 * h]), 0) as tf.Tensor2D[];
  const zero = tf.zeros([h, 4 * h]);
  const U = tf.concat([tf.concat([p.Uf, zero], 1), tf.concat([zero, p.Ub], 1)], 0) as tf.Tensor2D; // [2h, 8h]
  const hs: tf.Tensor2D[] = [];
  let hPrev: tf.Tensor2D | null = null;
  let c: tf.Tensor2D | null = null;
  for (let t = 0; t < T; t++) {
    const a = hPrev ? tf.add(steps[t]!, mm(hPrev, U)) : steps[t]!;
    const a2 = tf.reshape(a, [2 * B, 4 * h]); // row 2b + direction
    const ifo = tf.sigmoid(tf.slice(a2, [0, 0], [2 * B, 3 * h]));
    const g = tf.tanh(tf.slice(a2, [0, 3 * h], [2 * B, h]));
    const [i, f, o] = tf.split(ifo, 3, 1) as [tf.Tensor2D, tf.Tensor2D, tf.Tensor2D];
    c = (c ? tf.add(tf.mul(f, c), tf.mul(i, g)) : tf.mul(i, g)) as tf.Tensor2D;
    hPrev = tf.reshape(tf.mul(o, tf.tanh(c)), [B, 2 * h]) as tf.Tensor2D; // row b = [h forward | h backward]
    hs.push(hPrev);
  }
  const H = tf.reshape(tf.stack(hs, 1), [B, T, 2, h]);
  const fwd = tf.mul(tf.reshape(tf.slice(H, [0, 0, 0, 0], [B, T, 1, h]), [B, T, h]), tf.tensor3d(mask, [B, T, 1]));
  const bwd = tf.matMul(tf.tensor3d(rev, [B, T, T]), tf.reshape(tf.slice(H, [0, 0, 1, 0], [B, T, 1, h]), [B, T, h]));
  return tf.concat([fwd, bwd], 2) as tf.Tensor3D;
}
