import * as tf from "@tensorflow/tfjs";

/**
 * a b for 2-D tensors, with the gradients as plain matMuls of explicitly transposed operands: tfjs's
 * own matMul gradient uses transposed-operand products, which on wasm miss XNNPACK's fast path and
 * cost ~5x (measured: 330 of 620 ms of a BiLSTM step). Still pure tensor ops, so nothing leaves the device.
 */
export const mm = tf.customGrad(((a: tf.Tensor2D, b: tf.Tensor2D, save: (ts: tf.Tensor[]) => void) => {
  save([a, b]); // inputs are kept for the backward pass only when saved
  return {
    value: tf.matMul(a, b),
    gradFunc: (dy: tf.Tensor2D, saved: tf.Tensor2D[]) => [tf.matMul(dy, tf.transpose(saved[1]!)), tf.matMul(tf.transpose(saved[0]!), dy)],
  };
}) as unknown as Parameters<typeof tf.customGrad>[0]) as unknown as (a: tf.Tensor, b: tf.Tensor) => tf.Tensor2D;

/** Batched a b for 3-D tensors [N, m, k] x [N, k, n], gradients likewise from explicitly transposed operands. */
export const bmm = tf.customGrad(((a: tf.Tensor3D, b: tf.Tensor3D, save: (ts: tf.Tensor[]) => void) => {
  save([a, b]);
  return {
    value: tf.matMul(a, b),
    gradFunc: (dy: tf.Tensor3D, saved: tf.Tensor3D[]) => [tf.matMul(dy, tf.transpose(saved[1]!, [0, 2, 1])), tf.matMul(tf.transpose(saved[0]!, [0, 2, 1]), dy)],
  };
}) as unknown as Parameters<typeof tf.customGrad>[0]) as unknown as (a: tf.Tensor, b: tf.Tensor) => tf.Tensor3D;
