import { digamma } from "./diagonal.js";
import { StlOrder } from "./stl-order.js";

/** Probability fast_align gives to a pair it has no entry for (and to every pair before the first M-step). */
export const UNSEEN_PROB = 1e-9;

const EMPTY = -1;
const GOLDEN = 0x9e3779b1 | 0;
const TWO_TO_MINUS_32 = 2.3283064365386963e-10;

/**
 * Home slot of f in a row of `cap` slots: the Fibonacci hash of f scaled to [0, cap) (Lemire's
 * multiply-shift range reduction, exact in doubles and always < cap).
 */
export function homeSlot(f: number, cap: number): number {
  return ((Math.imul(f, GOLDEN) >>> 0) * cap * TWO_TO_MINUS_32) | 0;
}

/**
 * Lexical translation table t(f | e) over integer word ids, as one flat open-addressing hash:
 * row e (a conditioning word, 0 = NULL) owns the slots [rowStart[e], rowStart[e+1]), about 1.25 per
 * entry (at least one empty), probed linearly from homeSlot(f, cap). Slot s lives in `cells` at s * stride as
 * [key f (-1 = empty), probability, expected count]: one cache line serves the lookup, the read of
 * t(f|e) and the E-step's count update. Tables read from a saved model have no counts (stride 2).
 * The set of (e, f) pairs is fixed when the table is built (fast_align's InitialPass + Freeze).
 */
export class TTable {
  constructor(
    readonly rowStart: Int32Array,
    public cells: Float64Array,
    public stride: 2 | 3,
    /**
     * Per row, its occupied slots in the order C++ fast_align's std::unordered_map iterates them
     * (at rowStart[e] .., one per entry): the M-step sums a row's counts in this order so that its
     * normaliser rounds exactly like the C++ tool's. Absent: slot order.
     */
    readonly sumOrder?: Int32Array,
  ) {}

  get rows(): number {
    return this.rowStart.length - 1;
  }

  get slots(): number {
    return this.rowStart[this.rows]!;
  }

  /** Number of (e, f) entries. */
  get entries(): number {
    let n = 0;
    const { cells, stride } = this;
    for (let s = 0; s < cells.length; s += stride) if (cells[s] !== EMPTY) n++;
    return n;
  }

  /** Slot of (e, f), or -1 when the pair has no entry. */
  find(e: number, f: number): number {
    if (e < 0 || e >= this.rows || f < 0) return -1;
    const start = this.rowStart[e]!;
    const cap = this.rowStart[e + 1]! - start;
    if (cap === 0) return -1;
    const { cells, stride } = this;
    let h = homeSlot(f, cap);
    for (;;) {
      const k = cells[(start + h) * stride]!;
      if (k === f) return start + h;
      if (k === EMPTY) return -1;
      if (++h === cap) h = 0;
    }
  }

  /** t(f | e), or UNSEEN_PROB when the pair was never seen (fast_align's safe_prob). */
  safeProb(e: number, f: number): number {
    const s = this.find(e, f);
    return s < 0 ? UNSEEN_PROB : this.cells[s * this.stride + 1]!;
  }

  /** M-step: t(f|e) = c(e,f) / sum_f' c(e,f'); counts are then cleared (ttables.h Normalize). */
  normalize(r0?: number, r1?: number): void {
    this.mStep((c, tot) => c / tot, (tot) => tot, 0, r0, r1);
  }

  /** Variational Bayes M-step with a symmetric Dirichlet(alpha) prior (ttables.h NormalizeVB). */
  normalizeVB(alpha: number, r0?: number, r1?: number): void {
    // prob = exp(digamma(c + alpha) - digamma(sum_f (c + alpha))), exactly as fast_align.
    this.mStep((c, digammaTot) => Math.exp(digamma(c + alpha) - digammaTot), digamma, alpha, r0, r1);
  }

  /** Rows [r0, r1) (all by default): rows are independent, so threads can split them. */
  private mStep(update: (count: number, tot: number) => number, finishTot: (tot: number) => number, add = 0, r0 = 0, r1 = this.rows): void {
    if (this.stride !== 3) throw new Error("TTable: counts were dropped; this table is frozen");
    const { rowStart, cells, sumOrder } = this;
    for (let e = r0; e < r1; e++) {
      const a = rowStart[e]! * 3;
      const b = rowStart[e + 1]! * 3;
      let tot = 0;
      if (sumOrder) {
        for (let q = rowStart[e]!; q < rowStart[e + 1]!; q++) {
          const slot = sumOrder[q]!;
          if (slot < 0) break;
          tot += cells[3 * slot + 2]! + add;
        }
      } else {
        for (let s = a; s < b; s += 3) if (cells[s] !== EMPTY) tot += cells[s + 2]! + add;
      }
      if (!tot) tot = 1;
      const t = finishTot(tot);
      for (let s = a; s < b; s += 3) {
        if (cells[s] !== EMPTY) cells[s + 1] = update(cells[s + 2]!, t);
        cells[s + 2] = 0;
      }
    }
  }

  /** [key, prob] pairs of every slot (stride 2), e.g. for saving; the table itself is unchanged. */
  keyProbCells(): Float64Array {
    if (this.stride === 2) return this.cells;
    const n = this.slots;
    const out = new Float64Array(2 * n);
    const c = this.cells;
    for (let s = 0; s < n; s++) {
      out[2 * s] = c[3 * s]!;
      out[2 * s + 1] = c[3 * s + 1]!;
    }
    return out;
  }

  /** Calls fn(e, f, prob) for every entry, rows in id order, each row in C++ fast_align's order when known. */
  forEachCppOrder(fn: (e: number, f: number, p: number) => void): void {
    const { rowStart, cells, stride, sumOrder } = this;
    if (!sumOrder) return this.forEach(fn);
    for (let e = 0; e < this.rows; e++) {
      for (let q = rowStart[e]!; q < rowStart[e + 1]!; q++) {
        const slot = sumOrder[q]!;
        if (slot < 0) break;
        fn(e, cells[slot * stride]!, cells[slot * stride + 1]!);
      }
    }
  }

  /** Calls fn(e, f, prob) for every entry, rows in id order. */
  forEach(fn: (e: number, f: number, p: number) => void): void {
    const { rowStart, cells, stride } = this;
    for (let e = 0; e < this.rows; e++) {
      for (let s = rowStart[e]!; s < rowStart[e + 1]!; s++) {
        const k = cells[s * stride]!;
        if (k !== EMPTY) fn(e, k, cells[s * stride + 1]!);
      }
    }
  }
}

/** Slots of a row with deg entries: load factor <= 0.8 and always one empty slot (ends failed lookups). */
function rowCapacity(deg: number): number {
  return deg + Math.max(1, Math.ceil(deg / 4));
}

/**
 * Builds the table with an entry for every (e, f) that co-occur in a sentence pair, plus
 * (NULL, f) for every target word when useNull (fast_align's InitialPass). e ranges over the
 * conditioning side (cond), f over the predicted side (pred). Probabilities start at UNSEEN_PROB,
 * which is what fast_align uses in its first iteration. Entries are inserted in fast_align's order
 * (sentence by sentence, first occurrence), which with `cppIdOffset` (our word id + offset = the C++
 * tool's id) fixes the order in which the M-step sums each row (TTable.sumOrder).
 */
export function buildTTable(
  vocabSize: number,
  size: number,
  condTok: Int32Array,
  condOff: Int32Array,
  predTok: Int32Array,
  predOff: Int32Array,
  useNull: boolean,
  cppIdOffset = 2,
): TTable {
  // Inverted index: the sentences each conditioning word occurs in (once per sentence).
  const occ = new Int32Array(vocabSize + 1);
  const stamp = new Int32Array(vocabSize).fill(-1);
  for (let k = 0; k < size; k++) {
    if (condOff[k + 1] === condOff[k] || predOff[k + 1] === predOff[k]) continue;
    for (let p = condOff[k]!; p < condOff[k + 1]!; p++) {
      const e = condTok[p]!;
      if (stamp[e] !== k) {
        stamp[e] = k;
        occ[e + 1]!++;
      }
    }
  }
  for (let e = 0; e < vocabSize; e++) occ[e + 1]! += occ[e]!;
  const sentOf = new Int32Array(occ[vocabSize]!);
  const fill = occ.slice(0, vocabSize);
  stamp.fill(-1);
  for (let k = 0; k < size; k++) {
    if (condOff[k + 1] === condOff[k] || predOff[k + 1] === predOff[k]) continue;
    for (let p = condOff[k]!; p < condOff[k + 1]!; p++) {
      const e = condTok[p]!;
      if (stamp[e] !== k) {
        stamp[e] = k;
        sentOf[fill[e]!++] = k;
      }
    }
  }

  // Per row: distinct f's (a stamp per f avoids a set), then the row's hash region.
  const rowStart = new Int32Array(vocabSize + 1);
  let pairF = new Int32Array(1 << 20);
  let nPairs = 0;
  const rowDeg = new Int32Array(vocabSize);
  const seen = new Int32Array(vocabSize).fill(-1);
  const push = (f: number): void => {
    if (nPairs === pairF.length) {
      const next = new Int32Array(pairF.length * 2);
      next.set(pairF);
      pairF = next;
    }
    pairF[nPairs++] = f;
  };
  for (let e = 0; e < vocabSize; e++) {
    const before = nPairs;
    if (e === 0) {
      if (!useNull) continue;
      for (let k = 0; k < size; k++) {
        if (condOff[k + 1] === condOff[k]) continue;
        for (let p = predOff[k]!; p < predOff[k + 1]!; p++) {
          const f = predTok[p]!;
          if (seen[f] !== 0) {
            seen[f] = 0;
            push(f);
          }
        }
      }
    } else {
      for (let q = occ[e]!; q < occ[e + 1]!; q++) {
        const k = sentOf[q]!;
        for (let p = predOff[k]!; p < predOff[k + 1]!; p++) {
          const f = predTok[p]!;
          if (seen[f] !== e) {
            seen[f] = e;
            push(f);
          }
        }
      }
    }
    rowDeg[e] = nPairs - before;
  }
  let total = 0;
  for (let e = 0; e < vocabSize; e++) {
    rowStart[e] = total;
    if (rowDeg[e]! > 0) total += rowCapacity(rowDeg[e]!);
  }
  rowStart[vocabSize] = total;
  const cells = new Float64Array(3 * total);
  for (let s = 0; s < total; s++) {
    cells[3 * s] = EMPTY;
    cells[3 * s + 1] = UNSEEN_PROB;
  }
  // sumOrder: slots in C++ iteration order, then -1 up to the row's end.
  const sumOrder = new Int32Array(total).fill(-1);
  const stl = new StlOrder();
  let hashes = new Float64Array(256);
  let slotOf = new Int32Array(256);
  let perm = new Int32Array(256);
  let q = 0;
  for (let e = 0; e < vocabSize; e++) {
    const deg = rowDeg[e]!;
    if (deg === 0) continue;
    const start = rowStart[e]!;
    const cap = rowStart[e + 1]! - start;
    if (hashes.length < deg) {
      hashes = new Float64Array(deg * 2);
      slotOf = new Int32Array(deg * 2);
      perm = new Int32Array(deg * 2);
    }
    for (let d = 0; d < deg; d++) {
      const f = pairF[q++]!;
      let h = homeSlot(f, cap);
      while (cells[3 * (start + h)] !== EMPTY) if (++h === cap) h = 0;
      cells[3 * (start + h)] = f;
      // C++ fast_align's Dict numbers words from 1 ("<eps>") and 2 ("|||"), ours from 1: f + cppIdOffset.
      hashes[d] = f + cppIdOffset;
      slotOf[d] = start + h;
    }
    stl.order(hashes, deg, perm);
    for (let d = 0; d < deg; d++) sumOrder[start + d] = slotOf[perm[d]!]!;
  }
  return new TTable(rowStart, cells, 3, sumOrder);
}
