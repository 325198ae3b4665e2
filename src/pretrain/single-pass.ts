import * as tf from "@tensorflow/tfjs";
import { lstmForestStates, lstmStepZeroInput } from "../nn/bilstm.js";
import { PAD_ROW } from "../nn/glove.js";
import { N_PRONOUNS, type PronounLm } from "./model.js";

/** A window with several positions to score, each as if it alone were masked. */
export interface MultiMaskWindow {
  /** Table rows of context + sentence tokens (unmasked). */
  rows: Int32Array;
  /** Positions to mask one at a time (any order, each < rows.length). */
  masks: number[];
  /** Pronoun class (0..41) really at each masked position, parallel to masks. */
  labels: number[];
}

/**
 * Exact single-pass masked scoring. With one position i masked, every other input is the true
 * token, so the forward state after token i-1 and the backward state after token i+1 of ONE
 * unmasked pass are exactly those of the masked pass; the masked output at i is one LSTM step
 * from them with input 0 in each direction. So a window costs one pass per direction (the forward
 * one only up to its last masked position, the backward one only down to its first) plus one
 * batched step per masked position, instead of one full pass per masked position; results equal
 * PronounLm.logProbs on the masked windows up to float rounding in the matrix products.
 * Each direction runs over a trie of the windows' token sequences (lstmForestStates): a prefix
 * shared by several windows (the reference and a system output with the same context, several
 * systems' outputs) is computed once, one product per level. Input projections x W + b are
 * computed once per distinct word. Returns, per window, log P(label) at each masked position.
 */
export function singlePassLogProbs(lm: PronounLm, ws: MultiMaskWindow[]): Float32Array[] {
  const dist = singlePassLogDists(lm, ws);
  return ws.map((w, i) => Float32Array.from(w.labels, (l, k) => dist[i]![k * N_PRONOUNS + l]!));
}

/**
 * As singlePassLogProbs, but the whole distribution: per window, masks.length rows of the
 * N_PRONOUNS log-probabilities (row k = masked position masks[k]). The labels are not read.
 */
export function singlePassLogDists(lm: PronounLm, ws: MultiMaskWindow[]): Float32Array[] {
  const out = ws.map((w) => new Float32Array(w.masks.length * N_PRONOUNS));
  const h = lm.hidden;
  const first = new Int32Array(ws.length + 1);
  ws.forEach((w, i) => {
    for (const m of w.masks) if (!(m >= 0 && m < w.rows.length)) throw new Error(`masked position ${m} outside a window of ${w.rows.length} tokens`);
    first[i + 1] = first[i]! + w.masks.length;
  });
  const N = first[ws.length]!;
  if (N === 0) return out;
  if (!lm.params.has("lm/W")) throw new Error("single-pass masked scoring needs a masked-pronoun model (objective masked)");
  if (!lm.singlePass) throw new Error("single-pass masked scoring needs a one-layer BiLSTM encoder (other encoders: zeroShotScores takes the masked path)");
  const p = (k: string): tf.Variable => lm.encoder.params.get(k)!;
  const dirs = [
    // Forward: tokens 0..max(mask)-1; the state before token m is the prefix of length m.
    { W: p("lstm/Wf"), U: p("lstm/Uf"), b: p("lstm/bf"), steps: (w: MultiMaskWindow) => Math.max(...w.masks), token: (_w: MultiMaskWindow, s: number) => s, depth: (_w: MultiMaskWindow, m: number) => m - 1 },
    // Backward: step s reads token n-1-s; the state after token m+1 is at depth n-2-m.
    { W: p("lstm/Wb"), U: p("lstm/Ub"), b: p("lstm/bb"), steps: (w: MultiMaskWindow) => w.rows.length - 1 - Math.min(...w.masks), token: (w: MultiMaskWindow, s: number) => w.rows.length - 1 - s, depth: (w: MultiMaskWindow, m: number) => w.rows.length - 2 - m },
  ];
  const V = lm.encoder.table.words.length + 2;
  const outs: Float32Array[] = [];
  for (const dir of dirs) {
    // Trie of the token sequences this direction reads; path[i][s] = node of window i after s+1 tokens.
    const key = new Map<number, number>();
    const nodeRow: number[] = [];
    const nodeParent: number[] = [];
    const nodeDepth: number[] = [];
    const paths = ws.map((w) => {
      const n = w.masks.length ? dir.steps(w) : 0;
      const path = new Int32Array(n);
      let parent = -1;
      for (let s = 0; s < n; s++) {
        const row = w.rows[dir.token(w, s)]!;
        const k = (parent + 1) * V + row;
        let node = key.get(k);
        if (node === undefined) {
          node = nodeRow.length;
          key.set(k, node);
          nodeRow.push(row);
          nodeParent.push(parent);
          nodeDepth.push(s);
        }
        path[s] = node;
        parent = node;
      }
      return path;
    });
    // Renumber in depth order (parents precede children, a level is contiguous).
    const M = nodeRow.length;
    let L = 0;
    for (const d of nodeDepth) if (d + 1 > L) L = d + 1;
    const levelStart = new Int32Array(L + 1);
    for (const d of nodeDepth) levelStart[d + 1]!++;
    for (let t = 0; t < L; t++) levelStart[t + 1]! += levelStart[t]!;
    const fill = levelStart.slice(0, L);
    const id = new Int32Array(M);
    for (let k = 0; k < M; k++) id[k] = fill[nodeDepth[k]!]!++;
    const parent = new Int32Array(M);
    const rows = new Int32Array(M);
    for (let k = 0; k < M; k++) {
      parent[id[k]!] = nodeParent[k]! < 0 ? -1 : id[nodeParent[k]!]!;
      rows[id[k]!] = nodeRow[k]!;
    }
    const proj = projectRows(lm, rows, dir.W, dir.b);
    // Wanted nodes: the neighbour state of each masked position (-1: the sequence's start state).
    const want = new Int32Array(N).fill(-1);
    ws.forEach((w, i) => w.masks.forEach((m, j) => {
      const d = dir.depth(w, m);
      if (d >= 0) want[first[i]! + j] = id[paths[i]![d]!]!;
    }));
    const wanted = Int32Array.from(want.filter((x) => x >= 0));
    const st = lstmForestStates(proj.table, proj.slots, parent, levelStart, dir.U, h, wanted);
    const hPrev = new Float32Array(N * h); // zeros = the start state
    const cPrev = new Float32Array(N * h);
    let k = 0;
    for (let q = 0; q < N; q++) {
      if (want[q]! < 0) continue;
      hPrev.set(st.hs.subarray(k * h, (k + 1) * h), q * h);
      cPrev.set(st.cs.subarray(k * h, (k + 1) * h), q * h);
      k++;
    }
    outs.push(lstmStepZeroInput(hPrev, cPrev, dir.U, dir.b, N, h));
  }
  const feat = new Float32Array(N * 2 * h);
  for (let q = 0; q < N; q++) {
    feat.set(outs[0]!.subarray(q * h, (q + 1) * h), q * 2 * h);
    feat.set(outs[1]!.subarray(q * h, (q + 1) * h), q * 2 * h + h);
  }
  const lpT = tf.tidy(() => {
    const logits = tf.add(tf.matMul(tf.tensor2d(feat, [N, 2 * h]), lm.params.get("lm/W")! as tf.Tensor2D), lm.params.get("lm/b")!);
    return tf.logSoftmax(logits);
  });
  const lp = lpT.dataSync() as Float32Array;
  lpT.dispose();
  ws.forEach((w, i) => out[i]!.set(lp.subarray(first[i]! * N_PRONOUNS, (first[i]! + w.masks.length) * N_PRONOUNS)));
  return out;
}

/**
 * x W + b of each distinct table row among `rows`, in one product (the padding row is the zero
 * input): `table` [R*4h] and, per entry of rows, its row in the table.
 */
function projectRows(lm: PronounLm, rows: Int32Array, W: tf.Tensor, bias: tf.Tensor): { table: Float32Array; slots: Int32Array } {
  const d = lm.encoder.table.dim;
  const vec = lm.encoder.table.vectors;
  const slot = new Map<number, number>();
  const slots = Int32Array.from(rows, (r) => {
    let k = slot.get(r);
    if (k === undefined) {
      k = slot.size;
      slot.set(r, k);
    }
    return k;
  });
  const R = Math.max(1, slot.size);
  const x = new Float32Array(R * d);
  for (const [r, k] of slot) if (r !== PAD_ROW) x.set(vec.subarray(r * d, (r + 1) * d), k * d);
  const t = tf.tidy(() => tf.add(tf.matMul(tf.tensor2d(x, [R, d]), W as tf.Tensor2D), bias));
  const table = Float32Array.from(t.dataSync() as Float32Array);
  t.dispose();
  return { table, slots };
}
