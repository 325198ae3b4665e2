// The E-step split over threads without changing a single bit of the result.
//
// Expected counts are sums, and floating-point sums depend on their order, so shards with merged
// counts would not reproduce the one-thread (= C++ fast_align) numbers. Instead the corpus is cut
// into chunks of CHUNK_LINES lines dealt round-robin to the threads. For its chunk a thread first
// computes every posterior and the slot it goes to (the expensive part: table probes, prior, one
// division per cell) into its own buffer; then it waits for its turn and adds the buffer into the
// shared count column in corpus order. Turns pass chunk by chunk through an Atomics counter, so
// additions happen in exactly the sequential order while the next chunk's posteriors are already
// being computed on the other core.
import { PriorCache } from "./prior.js";

/** Lines per chunk: small, so that the cells a chunk's posteriors looked up are still in this core's cache when its counts are added (at 512 lines the adding cost as much as the lookups; 16 measured best on 25k lines, 4-64 tried). */
export const CHUNK_LINES = 16;
/** fast_align's thread_buffer_size: lines per UpdateFromPairs call (one OpenMP reduction each). */
export const CPP_BUFFER_LINES = 10000;

/** Everything the threads share (SharedArrayBuffer-backed when threads > 1). */
export interface EStepShared {
  size: number;
  condTok: Int32Array;
  condOff: Int32Array;
  predTok: Int32Array;
  predOff: Int32Array;
  weights?: Float64Array;
  rowStart: Int32Array;
  /** The translation table's cells [f, t(f|e), count] (stride 3). */
  cells: Float64Array;
  /** [next chunk to accumulate, failure flag]. */
  ctl: Int32Array;
  /** Running totals, accumulated in turn: [likelihood, c0, empFeat, block likelihood, block c0, block empFeat]. */
  sums: Float64Array;
}

export interface EStepParams {
  useNull: boolean;
  favorDiagonal: boolean;
  probAlignNull: number;
  tension: number;
  needFeat: boolean;
}

const GOLDEN = 0x9e3779b1 | 0;
const TWO_TO_MINUS_32 = 2.3283064365386963e-10;
const WAIT_MS = 1000;

/** Resets the turn counter and totals before an E-step. */
export function resetEStep(sh: EStepShared): void {
  Atomics.store(sh.ctl, 0, 0);
  Atomics.store(sh.ctl, 1, 0);
  sh.sums.fill(0);
}

/** Totals after every chunk was accumulated (adds the last block, as fast_align's last buffer). */
export function finishEStep(sh: EStepShared): { likelihood: number; c0: number; empFeat: number } {
  const s = sh.sums;
  return { likelihood: s[0]! + s[3]!, c0: s[1]! + s[4]!, empFeat: s[2]! + s[5]! };
}

/** Marks the E-step failed so that the other threads stop waiting for a turn that will not come. */
export function failEStep(sh: EStepShared): void {
  Atomics.store(sh.ctl, 1, 1);
  Atomics.notify(sh.ctl, 0);
}

/** Thread `thread` of `nThreads`: its chunks' posteriors, then their counts in turn. */
export function eStepThread(sh: EStepShared, p: EStepParams, thread: number, nThreads: number): void {
  const { condTok, condOff, predTok, predOff, weights, rowStart, cells, ctl, sums } = sh;
  const { useNull, favorDiagonal } = p;
  const cache = new PriorCache(p.tension, 1.0 - p.probAlignNull);
  const nullStart = rowStart[0]!;
  const nullCap = rowStart[1]! - nullStart;
  let probs = new Float64Array(256);
  let slotTmp = new Int32Array(256);
  let slotBuf = new Int32Array(1 << 16);
  let valBuf = new Float64Array(1 << 16);
  const lineLik = new Float64Array(CHUNK_LINES);
  const nChunks = Math.ceil(sh.size / CHUNK_LINES);
  for (let c = thread; c < nChunks; c += nThreads) {
    const k0 = c * CHUNK_LINES;
    const k1 = Math.min(sh.size, k0 + CHUNK_LINES);
    // Posteriors of the chunk (reads t(f|e) only; counts are untouched here).
    let q = 0;
    for (let k = k0; k < k1; k++) {
      lineLik[k - k0] = 0;
      const cb = condOff[k]!;
      const n = condOff[k + 1]! - cb;
      const pb = predOff[k]!;
      const m = predOff[k + 1]! - pb;
      if (n === 0 || m === 0) continue;
      if (probs.length < n) {
        probs = new Float64Array(n * 2);
        slotTmp = new Int32Array(n * 2);
      }
      const need = q + m * (n + 1);
      if (slotBuf.length < need) {
        const cap = Math.max(need, slotBuf.length * 2);
        const s2 = new Int32Array(cap);
        s2.set(slotBuf.subarray(0, q));
        slotBuf = s2;
        const v2 = new Float64Array(cap);
        v2.set(valBuf.subarray(0, q));
        valBuf = v2;
      }
      const prior = favorDiagonal ? cache.get(m, n) : undefined;
      const uniform = 1.0 / (n + (useNull ? 1 : 0));
      const nullPrior = favorDiagonal ? p.probAlignNull : uniform;
      const w = weights !== undefined ? weights[k]! : 1;
      let lik = 0;
      for (let j = 0; j < m; j++) {
        const f = predTok[pb + j]!;
        const fh = (Math.imul(f, GOLDEN) >>> 0) * TWO_TO_MINUS_32;
        let sum = 0;
        let nullSlot = -1;
        let pNull = 0;
        if (useNull) {
          let h = (fh * nullCap) | 0;
          while (cells[3 * (nullStart + h)] !== f) if (++h === nullCap) h = 0;
          nullSlot = 3 * (nullStart + h);
          pNull = cells[nullSlot + 1]! * nullPrior;
          sum += pNull;
        }
        const row = j * n;
        for (let i = 0; i < n; i++) {
          const e = condTok[cb + i]!;
          const st = rowStart[e]!;
          const cap = rowStart[e + 1]! - st;
          let h = (fh * cap) | 0;
          while (cells[3 * (st + h)] !== f) if (++h === cap) h = 0;
          const slot = 3 * (st + h);
          slotTmp[i] = slot;
          const pr = cells[slot + 1]! * (prior !== undefined ? prior[row + i]! : uniform);
          probs[i] = pr;
          sum += pr;
        }
        if (useNull) {
          slotBuf[q] = nullSlot;
          valBuf[q++] = (pNull / sum) * w;
        }
        for (let i = 0; i < n; i++) {
          slotBuf[q] = slotTmp[i]!;
          valBuf[q++] = (probs[i]! / sum) * w;
        }
        lik += Math.log(sum);
      }
      lineLik[k - k0] = lik;
    }
    // Wait for this chunk's turn, then add in corpus order.
    for (;;) {
      const turn = Atomics.load(ctl, 0);
      if (Atomics.load(ctl, 1) !== 0) throw new Error("E-step aborted by another thread");
      if (turn === c) break;
      Atomics.wait(ctl, 0, turn, WAIT_MS);
    }
    let likelihood = sums[0]!;
    let c0 = sums[1]!;
    let empFeat = sums[2]!;
    let blockL = sums[3]!;
    let blockC0 = sums[4]!;
    let blockF = sums[5]!;
    q = 0;
    for (let k = k0; k < k1; k++) {
      if (k > 0 && k % CPP_BUFFER_LINES === 0) {
        likelihood += blockL;
        c0 += blockC0;
        empFeat += blockF;
        blockL = blockC0 = blockF = 0;
      }
      const n = condOff[k + 1]! - condOff[k]!;
      const m = predOff[k + 1]! - predOff[k]!;
      if (n === 0 || m === 0) continue;
      for (let j = 0; j < m; j++) {
        if (useNull) {
          const v = valBuf[q]!;
          blockC0 += v;
          cells[slotBuf[q++]! + 2] += v;
        }
        if (p.needFeat) {
          const jOverM = j / m;
          for (let i = 0; i < n; i++) {
            const v = valBuf[q]!;
            cells[slotBuf[q++]! + 2] += v;
            blockF += -Math.abs((i + 1) / n - jOverM) * v;
          }
        } else {
          for (let i = 0; i < n; i++) {
            cells[slotBuf[q]! + 2] += valBuf[q]!;
            q++;
          }
        }
      }
      blockL += lineLik[k - k0]! * (weights !== undefined ? weights[k]! : 1);
    }
    sums[0] = likelihood;
    sums[1] = c0;
    sums[2] = empFeat;
    sums[3] = blockL;
    sums[4] = blockC0;
    sums[5] = blockF;
    Atomics.store(ctl, 0, c + 1);
    Atomics.notify(ctl, 0);
  }
}
