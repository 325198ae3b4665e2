// fast_align's diagonal prior P(a_j = i | j, m, n), normalised per target position and cached per
// sentence-length pair (m, n) for one tension value: one exp per cell per length pair instead of
// one per cell per sentence, with the same expressions as fast_align.cc, so values are bit-identical.
import { computeZ, unnormalizedProb } from "./diagonal.js";

const PRIOR_CACHE_CELLS = 8 << 20;

/** Per-(m, n) cache of the normalised diagonal prior, valid for one tension value. */
export class PriorCache {
  private readonly map = new Map<number, Float64Array>();
  private cells = 0;
  private scratch = new Float64Array(1024);

  constructor(
    readonly tension: number,
    private readonly probAlignNotNull: number,
    private readonly limitCells = PRIOR_CACHE_CELLS,
  ) {}

  /** prior[j*n + i] = P(a_j = i+1 | j, m, n) for target position j (0-based), as fast_align computes it. */
  get(m: number, n: number): Float64Array {
    const key = m * 65536 + n;
    const hit = this.map.get(key);
    if (hit) return hit;
    const size = m * n;
    let out: Float64Array;
    if (this.cells + size <= this.limitCells) {
      out = new Float64Array(size);
      this.map.set(key, out);
      this.cells += size;
    } else {
      if (this.scratch.length < size) this.scratch = new Float64Array(size);
      out = this.scratch;
    }
    fillPrior(out, m, n, this.tension, this.probAlignNotNull);
    return out;
  }
}

export function fillPrior(out: Float64Array, m: number, n: number, tension: number, probAlignNotNull: number): void {
  for (let j = 0; j < m; j++) {
    const az = computeZ(j + 1, m, n, tension) / probAlignNotNull;
    const row = j * n;
    for (let i = 0; i < n; i++) out[row + i] = unnormalizedProb(j + 1, i + 1, m, n, tension) / az;
  }
}

