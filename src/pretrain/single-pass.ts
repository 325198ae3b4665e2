import * as tf from "@tensorflow/tfjs";
import { lstmDirectionStates, lstmStepZeroInput } from "../ranker/bilstm.js";
import { PAD_ROW } from "../ranker/glove.js";
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
 * Each direction is batched on its own (windows sorted by the steps it needs, so little is spent
 * on padding) and its input projections x W + b are computed once per distinct word.
 * Returns, per window, log P(label) at each masked position (parallel to masks).
 */
export function singlePassLogProbs(lm: PronounLm, ws: MultiMaskWindow[], batchSize = 128): Float32Array[] {
  const out = ws.map((w) => new Float32Array(w.masks.length));
  const h = lm.hidden;
  // Global index of each masked position, and what each direction needs per window.
  const first = new Int32Array(ws.length + 1);
  ws.forEach((w, i) => {
    for (const m of w.masks) if (!(m >= 0 && m < w.rows.length)) throw new Error(`masked position ${m} outside a window of ${w.rows.length} tokens`);
    first[i + 1] = first[i]! + w.masks.length;
  });
  const N = first[ws.length]!;
  if (N === 0) return out;
  const p = (k: string): tf.Variable => lm.encoder.params.get(k)!;
  const dirs = [
    // Forward: states after tokens 0..max(mask)-1; the state before token m is step m-1.
    { W: p("lstm/Wf"), U: p("lstm/Uf"), b: p("lstm/bf"), steps: (w: MultiMaskWindow) => Math.max(...w.masks), token: (_w: MultiMaskWindow, s: number) => s, stateStep: (_w: MultiMaskWindow, m: number) => m - 1 },
    // Backward: step s reads token n-1-s; the state after token m+1 is step n-2-m.
    { W: p("lstm/Wb"), U: p("lstm/Ub"), b: p("lstm/bb"), steps: (w: MultiMaskWindow) => w.rows.length - 1 - Math.min(...w.masks), token: (w: MultiMaskWindow, s: number) => w.rows.length - 1 - s, stateStep: (w: MultiMaskWindow, m: number) => w.rows.length - 2 - m },
  ];
  const outs: Float32Array[] = [];
  const labels = new Int32Array(N);
  ws.forEach((w, i) => w.labels.forEach((l, k) => (labels[first[i]! + k] = l)));
  for (const dir of dirs) {
    const hPrev = new Float32Array(N * h); // zeros = the start state (mask at the sequence's start)
    const cPrev = new Float32Array(N * h);
    const steps = ws.map((w) => (w.masks.length ? dir.steps(w) : 0));
    const order = ws.map((_, i) => i).filter((i) => steps[i]! > 0);
    order.sort((a, b) => steps[b]! - steps[a]!); // decreasing: the active rows of a step are a prefix
    const needed: number[] = [];
    for (const i of order) for (let s = 0; s < steps[i]!; s++) needed.push(ws[i]!.rows[dir.token(ws[i]!, s)]!);
    const proj = projectRows(lm, needed, dir.W, dir.b);
    const G = 4 * h;
    for (let k = 0; k < order.length; k += batchSize) {
      const part = order.slice(k, k + batchSize);
      const B = part.length;
      const T = steps[part[0]!]!;
      const xw = new Float32Array(T * B * G);
      const st = Int32Array.from(part, (i) => steps[i]!);
      part.forEach((i, b) => {
        const w = ws[i]!;
        for (let s = 0; s < st[b]!; s++) xw.set(proj.row(w.rows[dir.token(w, s)]!), (s * B + b) * G);
      });
      const states = lstmDirectionStates(xw, dir.U, B, T, h, st);
      part.forEach((i, b) => {
        const w = ws[i]!;
        w.masks.forEach((m, j) => {
          const s = dir.stateStep(w, m);
          if (s < 0) return; // the pronoun is this direction's first token
          const o = (s * B + b) * h;
          const q = first[i]! + j;
          hPrev.set(states.hs.subarray(o, o + h), q * h);
          cPrev.set(states.cs.subarray(o, o + h), q * h);
        });
      });
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
    return tf.sum(tf.mul(tf.logSoftmax(logits), tf.oneHot(tf.tensor1d(labels, "int32"), N_PRONOUNS)), 1);
  });
  const lp = lpT.dataSync() as Float32Array;
  lpT.dispose();
  ws.forEach((w, i) => out[i]!.set(lp.subarray(first[i]!, first[i]! + w.masks.length)));
  return out;
}

/** x W + b of each distinct table row among `rows`, in one product (the padding row is the zero input). */
function projectRows(lm: PronounLm, rows: number[], W: tf.Tensor, bias: tf.Tensor): { row: (r: number) => Float32Array } {
  const d = lm.encoder.table.dim;
  const G = W.shape[1]!;
  const vec = lm.encoder.table.vectors;
  const slot = new Map<number, number>();
  for (const r of rows) if (!slot.has(r)) slot.set(r, slot.size);
  const x = new Float32Array(Math.max(1, slot.size) * d);
  for (const [r, k] of slot) if (r !== PAD_ROW) x.set(vec.subarray(r * d, (r + 1) * d), k * d);
  const t = tf.tidy(() => tf.add(tf.matMul(tf.tensor2d(x, [Math.max(1, slot.size), d]), W as tf.Tensor2D), bias));
  const v = Float32Array.from(t.dataSync() as Float32Array);
  t.dispose();
  return { row: (r) => v.subarray(slot.get(r)! * G, (slot.get(r)! + 1) * G) };
}
