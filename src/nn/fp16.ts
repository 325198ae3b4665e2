/** IEEE half-precision conversion, used to halve the size of the stored GloVe cache. */

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

export function toHalf(x: number): number {
  f32[0] = x;
  const b = u32[0]!;
  const sign = (b >>> 16) & 0x8000;
  const exp = (b >>> 23) & 0xff;
  let mant = b & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0);
  let e = exp - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00; // overflow -> inf
  if (e <= 0) {
    if (e < -10) return sign; // underflow -> 0
    mant |= 0x800000;
    const shift = 14 - e;
    let h = mant >>> shift;
    if ((mant >>> (shift - 1)) & 1) h += 1; // round half up
    return sign | h;
  }
  let h = sign | (e << 10) | (mant >>> 13);
  if (mant & 0x1000) h += 1; // round to nearest (carry may bump the exponent, which is correct)
  return h;
}

export function fromHalf(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const e = (h >>> 10) & 0x1f;
  const m = h & 0x3ff;
  if (e === 0) return sign * m * 2 ** -24;
  if (e === 0x1f) return m ? NaN : sign * Infinity;
  return sign * (1 + m / 1024) * 2 ** (e - 15);
}

export function encodeHalf(a: Float32Array): Uint16Array {
  const out = new Uint16Array(a.length);
  for (let i = 0; i < a.length; i++) out[i] = toHalf(a[i]!);
  return out;
}

let table: Float32Array | undefined;

export function decodeHalf(a: Uint16Array): Float32Array {
  // A 65536-entry table: decoding the 4M values of a GloVe cache then costs a lookup each.
  if (!table) {
    table = new Float32Array(65536);
    for (let i = 0; i < 65536; i++) table[i] = fromHalf(i);
  }
  const out = new Float32Array(a.length);
  for (let i = 0; i < a.length; i++) out[i] = table[a[i]!]!;
  return out;
}
