// fast_align's diagonal alignment prior (Dyer, Chahuneau & Smith 2013), written to match da.h
// expression by expression so that probabilities agree with the C++ tool bit for bit.
// Naming follows da.h: i = target position (1-based), j = source position (1-based),
// m = target length, n = source length, tension = lambda.

/** h(i, j, m, n) = -|j/n - i/m|. */
export function feature(i: number, j: number, m: number, n: number): number {
  return -Math.abs(j / n - i / m);
}

export function unnormalizedProb(i: number, j: number, m: number, n: number, tension: number): number {
  return Math.exp(feature(i, j, m, n) * tension);
}

/** Normaliser of the prior over source positions 1..n, in closed form (two geometric series). */
export function computeZ(i: number, m: number, n: number, tension: number): number {
  const split = (i * n) / m;
  const floor = Math.trunc(split);
  const ceil = floor + 1;
  const ratio = Math.exp(-tension / n);
  // unsigned in da.h: computeDLogZ's swapped call can make it wrap around (then pow(...) is 0).
  const numTop = (n - floor) >>> 0;
  let ezt = 0;
  let ezb = 0;
  if (numTop) ezt = (unnormalizedProb(i, ceil, m, n, tension) * (1.0 - Math.pow(ratio, numTop))) / (1.0 - ratio);
  if (floor) ezb = (unnormalizedProb(i, floor, m, n, tension) * (1.0 - Math.pow(ratio, floor))) / (1.0 - ratio);
  return ezb + ezt;
}

/**
 * d log Z / d tension: the model's expected feature value at target position i.
 * fast_align's da.h calls ComputeZ(i, n, m) with m and n swapped (clab/fast_align issue #11),
 * so its normaliser belongs to the transposed sentence pair and the fitted tension differs from
 * the true optimum. With `exact` false we reproduce that call (alignments and tension equal the
 * C++ tool's); with `exact` true we compute the true expectation. The arithmetico-geometric sum is
 * the same, correct, formula in both modes (upstream's `arithmetico_geometric_series`).
 */
export function computeDLogZ(i: number, m: number, n: number, tension: number, exact = false): number {
  const z = exact ? computeZ(i, m, n, tension) : computeZ(i, n, m, tension);
  const split = (i * n) / m;
  const floor = Math.trunc(split);
  const ceil = floor + 1;
  const ratio = Math.exp(-tension / n);
  const d = -1.0 / n;
  const numTop = n - floor;
  let pct = 0;
  let pcb = 0;
  if (numTop) pct = arithmeticoGeometricSeries(feature(i, ceil, m, n), unnormalizedProb(i, ceil, m, n, tension), ratio, d, numTop);
  if (floor) pcb = arithmeticoGeometricSeries(feature(i, floor, m, n), unnormalizedProb(i, floor, m, n, tension), ratio, d, floor);
  return (pct + pcb) / z;
}

/** sum_{k<n} (a1 + k d) g1 r^k in closed form, written as da.h's arithmetico_geometric_series. */
function arithmeticoGeometricSeries(a1: number, g1: number, r: number, d: number, n: number): number {
  const gNp1 = g1 * Math.pow(r, n);
  const aN = d * (n - 1) + a1;
  const x1 = a1 * g1;
  const g2 = g1 * r;
  const rm1 = r - 1;
  return (aN * gNp1 - x1) / rm1 - (d * (gNp1 - g2)) / (rm1 * rm1);
}

/** fast_align's digamma (ttables.h Md::digamma): recurrence up to 7, then the asymptotic series. */
export function digamma(x: number): number {
  let result = 0;
  for (; x < 7; ++x) result -= 1 / x;
  x -= 1.0 / 2.0;
  const xx = 1.0 / x;
  const xx2 = xx * xx;
  const xx4 = xx2 * xx2;
  result += Math.log(x) + (1 / 24) * xx2 - (7.0 / 960.0) * xx4 + (31.0 / 8064.0) * xx4 * xx2 - (127.0 / 30720.0) * xx4 * xx4;
  return result;
}
