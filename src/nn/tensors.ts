import * as tf from "@tensorflow/tfjs";
import { InputError } from "../io/errors.js";

export interface TensorEntry {
  name: string;
  shape: number[];
  /** Offset in float32 elements. */
  offset: number;
}

/**
 * Brings tensors' values to host memory, where the backend keeps them for later synchronous reads
 * (dataSync). WebGPU under Node cannot read synchronously at all, so code that may run there awaits this
 * before packing or reading; on the CPU backends it costs nothing.
 */
export async function toHost(ts: Iterable<tf.Tensor>): Promise<void> {
  await Promise.all([...ts].map((t) => t.data()));
}

/** Packs named float32 tensors into one little-endian buffer plus a manifest. */
export function packTensors(named: Map<string, tf.Tensor>): { manifest: TensorEntry[]; data: Buffer } {
  const manifest: TensorEntry[] = [];
  const parts: Float32Array[] = [];
  let offset = 0;
  for (const [name, t] of named) {
    const v = t.dataSync() as Float32Array;
    manifest.push({ name, shape: t.shape.slice(), offset });
    parts.push(Float32Array.from(v));
    offset += v.length;
  }
  const all = new Float32Array(offset);
  let o = 0;
  for (const p of parts) {
    all.set(p, o);
    o += p.length;
  }
  return { manifest, data: Buffer.from(all.buffer, all.byteOffset, all.byteLength) };
}

/** The little-endian float32 values of a packed buffer (copied: a Buffer's offset need not be 4-aligned). */
export function floatsOf(data: Buffer): Float32Array {
  const floats = new Float32Array(data.byteLength / 4);
  Buffer.from(floats.buffer).set(data.subarray(0, floats.length * 4));
  return floats;
}

/** Reads tensors of a manifest out of a buffer, checking names and shapes against the expected variables. */
export function assignTensors(targets: Map<string, tf.Variable>, manifest: TensorEntry[], data: Buffer, file: string): void {
  const floats = floatsOf(data);
  const byName = new Map(manifest.map((e) => [e.name, e]));
  for (const [name, v] of targets) {
    const e = byName.get(name);
    if (!e) throw new InputError(`checkpoint has no tensor '${name}' (it was made with a different model configuration)`, file);
    if (e.shape.join("x") !== v.shape.join("x"))
      throw new InputError(`tensor '${name}' has shape [${e.shape}] in the checkpoint but the model expects [${v.shape}]`, file);
    const n = v.size;
    if (e.offset + n > floats.length) throw new InputError(`weights file is truncated (tensor '${name}')`, file);
    tf.tidy(() => v.assign(tf.tensor(floats.subarray(e.offset, e.offset + n), v.shape)));
  }
  for (const e of manifest) if (!targets.has(e.name)) throw new InputError(`checkpoint has an unexpected tensor '${e.name}'`, file);
}
