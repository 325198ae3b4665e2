import * as tf from "@tensorflow/tfjs";

/**
 * A one-layer bidirectional LSTM as a single tfjs op with a hand-written backward pass.
 *
 * Why: built from tfjs primitives, an LSTM costs ~15 kernel launches per time step, and on the
 * wasm backend slices, unstack, tanh and transposed/batched matMuls are slow; the backward pass
 * of the primitive version was ~18x its forward. Here only the matrix products run in tfjs (plain
 * 2-D matMuls, the fast path of XNNPACK); the gate arithmetic runs in plain JS over Float32Arrays,
 * and the weight gradients are two large matMuls over all time steps instead of one per step.
 *
 * Layout: inputs are time-major, row t*B+b; sequences are right-padded and the backward
 * direction receives each sequence reversed within its own length, so padding never reaches a
 * real token in either direction. Output [B, T, 2h] = [forward h_t ; backward h_t] in reading
 * order, zero at padded positions. Gate order i, f, o, g.
 */
export interface BiLstmInputs {
  B: number;
  T: number;
  d: number;
  lengths: Int32Array;
  /** [T*B, d] forward-direction inputs (reading order), and their transpose [d, T*B]. */
  xf: Float32Array;
  /** [T*B, d] backward-direction inputs (each sequence reversed). */
  xb: Float32Array;
}

/**
 * Inputs given as a tensor instead (a lower layer's output, so the op must pass gradients down to
 * it): x is [B, T, d] in reading order, zero or ignored at padded positions.
 */
export interface BiLstmTensorInputs {
  B: number;
  T: number;
  d: number;
  lengths: Int32Array;
  x: tf.Tensor3D;
}

export interface BiLstmParams {
  Wf: tf.Variable; // [d, 4h]
  Uf: tf.Variable; // [h, 4h]
  bf: tf.Variable; // [4h]
  Wb: tf.Variable;
  Ub: tf.Variable;
  bb: tf.Variable;
}

function transposeJs(a: Float32Array, rows: number, cols: number): Float32Array {
  const out = new Float32Array(a.length);
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) out[c * rows + r] = a[r * cols + c]!;
  return out;
}

/**
 * tanh as Eigen's float32 rational approximation (clamped to +-7.905, where tanh is 1 in float32):
 * absolute error ~1e-7, i.e. float32 precision, at a fraction of the cost of Math.tanh/Math.exp,
 * which dominated the recurrence. sigmoid(x) = (1 + tanh(x/2)) / 2.
 */
export function fastTanh(x0: number): number {
  const x = x0 > 7.90531110763549805 ? 7.90531110763549805 : x0 < -7.90531110763549805 ? -7.90531110763549805 : x0;
  const x2 = x * x;
  let p = x2 * -2.76076847742355e-16 + 2.00018790482477e-13;
  p = x2 * p + -8.60467152213735e-11;
  p = x2 * p + 5.12229709037114e-8;
  p = x2 * p + 1.48572235717979e-5;
  p = x2 * p + 6.37261928875436e-4;
  p = x2 * p + 4.89352455891786e-3;
  p = x * p;
  let q = x2 * 1.19825839466702e-6 + 1.18534705686654e-4;
  q = x2 * q + 2.268434632439e-3;
  q = x2 * q + 4.89352518554385e-3;
  return p / q;
}

interface DirState {
  gates: Float32Array; // [T*B*4h] activated
  cs: Float32Array; // [T*B*h]
  tcs: Float32Array; // tanh(c)
  hs: Float32Array; // [T*B*h]
}

/**
 * Runs one direction forward; returns per-step activations (kept for the backward pass).
 * Steps past a sequence's end are skipped: their outputs are never read (right padding), which
 * also keeps padding from costing time.
 */
function runDirection(x: Float32Array, W: tf.Tensor, U: tf.Tensor, bias: tf.Tensor, B: number, T: number, d: number, h: number, lengths: Int32Array): DirState {
  const G = 4 * h;
  const xw = tf.tidy(() => tf.add(tf.matMul(tf.tensor2d(x, [T * B, d]), W as tf.Tensor2D), bias)).dataSync() as Float32Array;
  const gates = xw; // activated in place
  const cs = new Float32Array(T * B * h);
  const tcs = new Float32Array(T * B * h);
  const hs = new Float32Array(T * B * h);
  for (let t = 0; t < T; t++) {
    // Batches are length-sorted, so the active rows are usually a prefix; multiply only those.
    let active = 0;
    for (let b = 0; b < B; b++) if (lengths[b]! > t) active = b + 1;
    if (active === 0) break;
    const rec =
      t > 0 ? (tf.tidy(() => tf.matMul(tf.tensor2d(hs.subarray((t - 1) * B * h, ((t - 1) * B + active) * h), [active, h]), U as tf.Tensor2D)).dataSync() as Float32Array) : null;
    for (let b = 0; b < active; b++) {
      if (lengths[b]! <= t) continue;
      const go = (t * B + b) * G;
      const so = (t * B + b) * h;
      const po = so - B * h;
      const r = b * G;
      for (let j = 0; j < h; j++) {
        let ai = gates[go + j]!;
        let af = gates[go + h + j]!;
        let ao = gates[go + 2 * h + j]!;
        let ag = gates[go + 3 * h + j]!;
        if (rec) {
          ai += rec[r + j]!;
          af += rec[r + h + j]!;
          ao += rec[r + 2 * h + j]!;
          ag += rec[r + 3 * h + j]!;
        }
        const i = 0.5 + 0.5 * fastTanh(0.5 * ai);
        const f = 0.5 + 0.5 * fastTanh(0.5 * af);
        const o = 0.5 + 0.5 * fastTanh(0.5 * ao);
        const g = fastTanh(ag);
        gates[go + j] = i;
        gates[go + h + j] = f;
        gates[go + 2 * h + j] = o;
        gates[go + 3 * h + j] = g;
        const c = (t > 0 ? f * cs[po + j]! : 0) + i * g;
        const tc = fastTanh(c);
        cs[so + j] = c;
        tcs[so + j] = tc;
        hs[so + j] = o * tc;
      }
    }
  }
  return { gates, cs, tcs, hs };
}

/**
 * BPTT for one direction; dh is [T*B*h] (time-major) gradient w.r.t. the outputs. Returns [dW, dU, db],
 * and with `W` also the gradient w.r.t. the inputs, dX = dA W^T ([T*B, d], time-major, this direction's order).
 */
function backDirection(st: DirState, dh: Float32Array, x: Float32Array, U: tf.Tensor, B: number, T: number, d: number, h: number, lengths: Int32Array, W?: tf.Tensor): tf.Tensor[] {
  const G = 4 * h;
  const dA = new Float32Array(T * B * G);
  const dcNext = new Float32Array(B * h);
  let dhRec: Float32Array | null = null;
  const UT = tf.transpose(U); // [4h, h], once, so the per-step product is a plain matMul
  try {
    for (let t = T - 1; t >= 0; t--) {
      for (let b = 0; b < B; b++) {
        if (lengths[b]! <= t) continue; // dA stays 0 past the end
        const go = (t * B + b) * G;
        const so = (t * B + b) * h;
        const po = ((t - 1) * B + b) * h;
        for (let j = 0; j < h; j++) {
          const gdh = dh[so + j]! + (dhRec ? dhRec[b * h + j]! : 0);
          const i = st.gates[go + j]!;
          const f = st.gates[go + h + j]!;
          const o = st.gates[go + 2 * h + j]!;
          const g = st.gates[go + 3 * h + j]!;
          const tc = st.tcs[so + j]!;
          const dc = dcNext[b * h + j]! + gdh * o * (1 - tc * tc);
          const cPrev = t > 0 ? st.cs[po + j]! : 0;
          dA[go + j] = dc * g * i * (1 - i);
          dA[go + h + j] = dc * cPrev * f * (1 - f);
          dA[go + 2 * h + j] = gdh * tc * o * (1 - o);
          dA[go + 3 * h + j] = dc * i * (1 - g * g);
          dcNext[b * h + j] = dc * f;
        }
      }
      if (t > 0) {
        const slice = dA.subarray(t * B * G, (t + 1) * B * G);
        dhRec = tf.tidy(() => tf.matMul(tf.tensor2d(slice, [B, G]), UT as tf.Tensor2D)).dataSync() as Float32Array;
      }
    }
  } finally {
    UT.dispose();
  }
  // Weight gradients over all steps at once: dW = X^T dA, dU = Hprev^T dA, db = sum dA.
  const hPrevT = new Float32Array(h * T * B); // [h, T*B], column t*B+b holds h_{t-1}
  for (let t = 1; t < T; t++)
    for (let b = 0; b < B; b++) {
      const so = ((t - 1) * B + b) * h;
      const col = t * B + b;
      for (let j = 0; j < h; j++) hPrevT[j * T * B + col] = st.hs[so + j]!;
    }
  return tf.tidy(() => {
    const dAt = tf.tensor2d(dA, [T * B, G]);
    const dW = tf.matMul(tf.tensor2d(transposeJs(x, T * B, d), [d, T * B]), dAt);
    const dU = tf.matMul(tf.tensor2d(hPrevT, [h, T * B]), dAt);
    const db = tf.sum(dAt, 0);
    // W^T transposed explicitly: a plain 2-D product is the fast path on wasm.
    return W ? [dW, dU, db, tf.matMul(dAt, tf.transpose(W as tf.Tensor2D))] : [dW, dU, db];
  });
}

/** [B, T, 2h] BiLSTM outputs, differentiable w.r.t. the six parameters (and the inputs, when they are a tensor). */
export function biLstm(inp: BiLstmInputs | BiLstmTensorInputs, p: BiLstmParams, h: number): tf.Tensor3D {
  const { B, T, d, lengths } = inp;
  const withX = "x" in inp;
  // customGrad passes its `save` function after the inputs: the 7th argument is x only when withX.
  const fwd = (Wf: tf.Tensor, Uf: tf.Tensor, bf: tf.Tensor, Wb: tf.Tensor, Ub: tf.Tensor, bb: tf.Tensor, x7?: unknown) => {
    const x = withX ? (x7 as tf.Tensor) : undefined;
    const { xf, xb } = x ? timeMajorInputs(x.dataSync() as Float32Array, B, T, d, lengths) : (inp as BiLstmInputs);
    const fw = runDirection(xf, Wf, Uf, bf, B, T, d, h, lengths);
    const bw = runDirection(xb, Wb, Ub, bb, B, T, d, h, lengths);
    const out = new Float32Array(B * T * 2 * h);
    for (let b = 0; b < B; b++) {
      const n = lengths[b]!;
      for (let t = 0; t < n; t++) {
        const o = (b * T + t) * 2 * h;
        out.set(fw.hs.subarray((t * B + b) * h, (t * B + b + 1) * h), o);
        const tb = n - 1 - t; // backward step that read token t
        out.set(bw.hs.subarray((tb * B + b) * h, (tb * B + b + 1) * h), o + h);
      }
    }
    const value = tf.tensor3d(out, [B, T, 2 * h]);
    const gradFunc = (dy: tf.Tensor): tf.Tensor[] => {
      const g = dy.dataSync() as Float32Array;
      const dhf = new Float32Array(T * B * h);
      const dhb = new Float32Array(T * B * h);
      for (let b = 0; b < B; b++) {
        const n = lengths[b]!;
        for (let t = 0; t < n; t++) {
          const o = (b * T + t) * 2 * h;
          dhf.set(g.subarray(o, o + h), (t * B + b) * h);
          const tb = n - 1 - t;
          dhb.set(g.subarray(o + h, o + 2 * h), (tb * B + b) * h);
        }
      }
      const [dWf, dUf, dbf, dxf] = backDirection(fw, dhf, xf, Uf, B, T, d, h, lengths, x ? Wf : undefined);
      const [dWb, dUb, dbb, dxb] = backDirection(bw, dhb, xb, Ub, B, T, d, h, lengths, x ? Wb : undefined);
      if (!x) return [dWf!, dUf!, dbf!, dWb!, dUb!, dbb!];
      // Back to [B, T, d] reading order: token t of sequence b was step t forward and step n-1-t backward.
      const gf = dxf!.dataSync() as Float32Array;
      const gb = dxb!.dataSync() as Float32Array;
      tf.dispose([dxf!, dxb!]);
      const dx = new Float32Array(B * T * d);
      for (let b = 0; b < B; b++) {
        const n = lengths[b]!;
        for (let t = 0; t < n; t++) {
          const o = (b * T + t) * d;
          const of = (t * B + b) * d;
          const ob = ((n - 1 - t) * B + b) * d;
          for (let j = 0; j < d; j++) dx[o + j] = gf[of + j]! + gb[ob + j]!;
        }
      }
      return [dWf!, dUf!, dbf!, dWb!, dUb!, dbb!, tf.tensor3d(dx, [B, T, d])];
    };
    return { value, gradFunc };
  };
  const op = tf.customGrad(fwd as unknown as Parameters<typeof tf.customGrad>[0]);
  return (withX ? op(p.Wf, p.Uf, p.bf, p.Wb, p.Ub, p.bb, (inp as BiLstmTensorInputs).x) : op(p.Wf, p.Uf, p.bf, p.Wb, p.Ub, p.bb)) as tf.Tensor3D;
}

/** [B, T, d] reading-order inputs -> time-major forward rows and per-sequence reversed backward rows (padding 0). */
export function timeMajorInputs(x: Float32Array, B: number, T: number, d: number, lengths: Int32Array): { xf: Float32Array; xb: Float32Array } {
  const xf = new Float32Array(T * B * d);
  const xb = new Float32Array(T * B * d);
  for (let b = 0; b < B; b++) {
    const n = lengths[b]!;
    for (let t = 0; t < n; t++) {
      const src = x.subarray((b * T + t) * d, (b * T + t + 1) * d);
      xf.set(src, (t * B + b) * d);
      xb.set(src, ((n - 1 - t) * B + b) * d);
    }
  }
  return { xf, xb };
}

/** Hidden and cell states ([n*h] each). */
export interface DirectionStates {
  hs: Float32Array;
  cs: Float32Array;
}

/**
 * One LSTM step with an all-zero input from given states ([N*h] each; zeros = the start state):
 * gates = bias + hPrev U, the arithmetic of a step of runDirection whose input row is 0.
 * Returns the new hidden states [N*h].
 */
export function lstmStepZeroInput(hPrev: Float32Array, cPrev: Float32Array, U: tf.Tensor, bias: tf.Tensor, N: number, h: number): Float32Array {
  const G = 4 * h;
  const recT = tf.tidy(() => tf.matMul(tf.tensor2d(hPrev, [N, h]), U as tf.Tensor2D));
  const rec = recT.dataSync() as Float32Array;
  recT.dispose();
  const bv = bias.dataSync() as Float32Array;
  const out = new Float32Array(N * h);
  for (let n = 0; n < N; n++) {
    const r = n * G;
    for (let j = 0; j < h; j++) {
      const i = 0.5 + 0.5 * fastTanh(0.5 * (bv[j]! + rec[r + j]!));
      const f = 0.5 + 0.5 * fastTanh(0.5 * (bv[h + j]! + rec[r + h + j]!));
      const o = 0.5 + 0.5 * fastTanh(0.5 * (bv[2 * h + j]! + rec[r + 2 * h + j]!));
      const g = fastTanh(bv[3 * h + j]! + rec[r + 3 * h + j]!);
      const c = f * cPrev[n * h + j]! + i * g;
      out[n * h + j] = o * fastTanh(c);
    }
  }
  return out;
}

/**
 * Inference only: LSTM states over a forest of token sequences sharing prefixes (a trie: one node
 * per distinct prefix, so a shared prefix is computed once), level by level, one product per
 * level. Nodes are in depth order: the nodes of depth t are levelStart[t]..levelStart[t+1]-1 and
 * each node's parent (parent[k], -1 at depth 0) is on the level before. nodeProj[k] is the row of
 * `proj` ([R*4h], x W + bias of the node's token) to use. The arithmetic of each node is that of
 * a step of runDirection. Returns the states of the nodes listed in `want` ([want.length*h] each).
 */
export function lstmForestStates(proj: Float32Array, nodeProj: Int32Array, parent: Int32Array, levelStart: Int32Array, U: tf.Tensor, h: number, want: Int32Array): DirectionStates {
  const G = 4 * h;
  const hsOut = new Float32Array(want.length * h);
  const csOut = new Float32Array(want.length * h);
  const wantOrder = Array.from(want.keys()).sort((a, b) => want[a]! - want[b]!);
  let w = 0;
  let prevH = new Float32Array(0);
  let prevC = new Float32Array(0);
  let prevStart = 0;
  for (let t = 0; t + 1 < levelStart.length; t++) {
    const s0 = levelStart[t]!;
    const n = levelStart[t + 1]! - s0;
    if (n === 0) break;
    let rec: Float32Array | null = null;
    if (t > 0) {
      const hp = new Float32Array(n * h);
      for (let k = 0; k < n; k++) {
        const pk = parent[s0 + k]! - prevStart;
        hp.set(prevH.subarray(pk * h, (pk + 1) * h), k * h);
      }
      const r = tf.tidy(() => tf.matMul(tf.tensor2d(hp, [n, h]), U as tf.Tensor2D));
      rec = r.dataSync() as Float32Array;
      r.dispose();
    }
    const curH = new Float32Array(n * h);
    const curC = new Float32Array(n * h);
    for (let k = 0; k < n; k++) {
      const go = nodeProj[s0 + k]! * G;
      const r = k * G;
      const po = t > 0 ? (parent[s0 + k]! - prevStart) * h : 0;
      for (let j = 0; j < h; j++) {
        let ai = proj[go + j]!;
        let af = proj[go + h + j]!;
        let ao = proj[go + 2 * h + j]!;
        let ag = proj[go + 3 * h + j]!;
        if (rec) {
          ai += rec[r + j]!;
          af += rec[r + h + j]!;
          ao += rec[r + 2 * h + j]!;
          ag += rec[r + 3 * h + j]!;
        }
        const i = 0.5 + 0.5 * fastTanh(0.5 * ai);
        const f = 0.5 + 0.5 * fastTanh(0.5 * af);
        const o = 0.5 + 0.5 * fastTanh(0.5 * ao);
        const g = fastTanh(ag);
        const c = (t > 0 ? f * prevC[po + j]! : 0) + i * g;
        curC[k * h + j] = c;
        curH[k * h + j] = o * fastTanh(c);
      }
    }
    const s1 = s0 + n;
    while (w < wantOrder.length && want[wantOrder[w]!]! < s1) {
      const q = wantOrder[w++]!;
      const k = want[q]! - s0;
      hsOut.set(curH.subarray(k * h, (k + 1) * h), q * h);
      csOut.set(curC.subarray(k * h, (k + 1) * h), q * h);
    }
    prevH = curH;
    prevC = curC;
    prevStart = s0;
  }
  return { hs: hsOut, cs: csOut };
}
