/**
 * A minimal ONNX writer for the tiny random test models (scripts/make-tiny-bert.ts,
 * scripts/make-tiny-marian.ts): the protobuf wire format written by hand, so no Python and no
 * protobuf library is needed, and the same seed gives the same bytes.
 */
import { Rng } from "../src/core/prng.js";

// ---- protobuf wire format (only what ONNX needs: varints, length-delimited fields, packed int64) ----

export class Pb {
  private chunks: Uint8Array[] = [];

  private push(b: Uint8Array | number[]): void {
    this.chunks.push(b instanceof Uint8Array ? b : Uint8Array.from(b));
  }

  private varint(v: number | bigint): void {
    let x = BigInt.asUintN(64, BigInt(v));
    const out: number[] = [];
    do {
      let byte = Number(x & 0x7fn);
      x >>= 7n;
      if (x) byte |= 0x80;
      out.push(byte);
    } while (x);
    this.push(out);
  }

  private key(field: number, wire: number): void {
    this.varint((field << 3) | wire);
  }

  int(field: number, v: number): this {
    this.key(field, 0);
    this.varint(v);
    return this;
  }

  bytes(field: number, b: Uint8Array): this {
    this.key(field, 2);
    this.varint(b.length);
    this.push(b);
    return this;
  }

  str(field: number, s: string): this {
    return this.bytes(field, new TextEncoder().encode(s));
  }

  msg(field: number, m: Pb): this {
    return this.bytes(field, m.finish());
  }

  float(field: number, v: number): this {
    this.key(field, 5);
    const b = new Uint8Array(4);
    new DataView(b.buffer).setFloat32(0, v, true);
    this.push(b);
    return this;
  }

  packedInts(field: number, vs: number[]): this {
    const inner = new Pb();
    for (const v of vs) inner.varint(v);
    return this.bytes(field, inner.finish());
  }

  finish(): Uint8Array {
    const n = this.chunks.reduce((a, c) => a + c.length, 0);
    const out = new Uint8Array(n);
    let o = 0;
    for (const c of this.chunks) {
      out.set(c, o);
      o += c.length;
    }
    return out;
  }
}

// ---- ONNX messages (field numbers from onnx.proto) ----

export const FLOAT = 1;
export const INT64 = 7;
export const BOOL = 9;

export function tensorProto(name: string, dims: number[], type: number, data: Float32Array | BigInt64Array): Pb {
  return new Pb().packedInts(1, dims).int(2, type).str(8, name).bytes(9, new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
}

export type Attr = { name: string } & ({ i: number } | { f: number } | { ints: number[] } | { t: Pb });

export function attrProto(a: Attr): Pb {
  const p = new Pb().str(1, a.name);
  if ("i" in a) return p.int(3, a.i).int(20, 2);
  if ("f" in a) return p.float(2, a.f).int(20, 1);
  if ("ints" in a) return p.packedInts(8, a.ints).int(20, 7);
  return p.msg(5, a.t).int(20, 4);
}

export function valueInfo(name: string, type: number, dims: Array<number | string>): Pb {
  const shape = new Pb();
  for (const d of dims) shape.msg(1, typeof d === "number" ? new Pb().int(1, d) : new Pb().str(2, d));
  return new Pb().str(1, name).msg(2, new Pb().msg(1, new Pb().int(1, type).msg(2, shape)));
}

export class Graph {
  nodes: Pb[] = [];
  inits: Pb[] = [];
  private n = 0;

  constructor(private readonly rng: Rng) {}

  /** Adds a node; returns its (single) output name. */
  op(type: string, inputs: string[], attrs: Attr[] = [], output?: string): string {
    const out = output ?? `${type.toLowerCase()}_${this.n++}`;
    const node = new Pb();
    for (const i of inputs) node.str(1, i);
    node.str(2, out).str(3, `${type}_${this.n++}`).str(4, type);
    for (const a of attrs) node.msg(5, attrProto(a));
    this.nodes.push(node);
    return out;
  }

  floats(name: string, dims: number[], fill: (rng: Rng) => number): string {
    const n = dims.reduce((a, b) => a * b, 1);
    const v = new Float32Array(n);
    for (let k = 0; k < n; k++) v[k] = Math.fround(fill(this.rng));
    this.inits.push(tensorProto(name, dims, FLOAT, v));
    return name;
  }

  /** A float initializer with given values (a fixed table: positions, a mask). */
  constant(name: string, dims: number[], values: Float32Array): string {
    this.inits.push(tensorProto(name, dims, FLOAT, values));
    return name;
  }

  ints(name: string, values: number[]): string {
    this.inits.push(tensorProto(name, [values.length], INT64, BigInt64Array.from(values.map(BigInt))));
    return name;
  }

  scalar(name: string, v: number): string {
    this.inits.push(tensorProto(name, [], FLOAT, Float32Array.of(v)));
    return name;
  }

  /** LayerNorm over the last axis with fresh weights `${p}.weight`/`${p}.bias`; needs the scalar "eps". */
  layerNorm(x: string, p: string, H: number): string {
    const gamma = this.floats(`${p}.weight`, [H], (r) => 1 + r.normal() * 0.05);
    const beta = this.floats(`${p}.bias`, [H], normal(0.05));
    const mean = this.op("ReduceMean", [x], [{ name: "axes", ints: [-1] }, { name: "keepdims", i: 1 }]);
    const c = this.op("Sub", [x, mean]);
    const v = this.op("ReduceMean", [this.op("Mul", [c, c])], [{ name: "axes", ints: [-1] }, { name: "keepdims", i: 1 }]);
    const n = this.op("Div", [c, this.op("Sqrt", [this.op("Add", [v, "eps"])])]);
    return this.op("Add", [this.op("Mul", [n, gamma]), beta]);
  }

  /** x W + b with fresh weights `${p}.weight` [nin, nout] and `${p}.bias`. */
  linear(x: string, p: string, nin: number, nout: number): string {
    return this.op("Add", [this.op("MatMul", [x, this.floats(`${p}.weight`, [nin, nout], normal(1 / Math.sqrt(nin)))]), this.floats(`${p}.bias`, [nout], normal(0.02))]);
  }
}

/** A fill of normal draws with standard deviation sd. */
export const normal = (sd: number) => (r: Rng): number => r.normal() * sd;
