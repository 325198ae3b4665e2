import { computeDLogZ } from "./diagonal.js";
import type { EncodedCorpus, Vocab } from "./corpus.js";
import { Links, LinksBuilder } from "./links.js";
import { CPP_BUFFER_LINES } from "./estep.js";
import { fillPrior, PriorCache } from "./prior.js";
import { StlOrder } from "./stl-order.js";
import { buildTTable, TTable, UNSEEN_PROB } from "./ttable.js";

/** Options of one alignment direction; names follow fast_align's long options. */
export interface AlignOptions {
  /** EM iterations including the final Viterbi pass (fast_align -I, default 5). */
  iterations?: number;
  /** Diagonal prior (fast_align -d). Library default true (fast_align's recommended -d -o -v). */
  favorDiagonal?: boolean;
  /** Starting tension lambda of the diagonal prior (-T, default 4). */
  diagonalTension?: number;
  /** Optimise the tension between iterations (-o). Library default true. */
  optimizeTension?: boolean;
  /**
   * Use the true gradient in the tension optimisation. fast_align's (da.h ComputeDLogZ) calls
   * ComputeZ with m and n swapped; false (the default) reproduces it, so output equals the C++
   * tool's (docs/align.md). The miner uses the true gradient (its hand-checked precision is higher).
   */
  exactTensionGradient?: boolean;
  /** Prior probability of aligning to NULL under the diagonal prior (fast_align -q / old -p, default 0.08). */
  probAlignNull?: number;
  /** Variational Bayes with a symmetric Dirichlet prior on t(f|e) (-v). Library default true. */
  variationalBayes?: boolean;
  /** Dirichlet concentration for -v (-a, default 0.01). */
  alpha?: number;
  /** No NULL word (-N). */
  noNullWord?: boolean;
  /** Reverse direction (-r): each source word picks a target word (or NULL). */
  reverse?: boolean;
  /** Called after every iteration with fast_align's diagnostics (what it prints on stderr). */
  onIteration?: (stats: IterationStats) => void;
}

export type ResolvedOptions = Required<Omit<AlignOptions, "onIteration">>;

export function resolveOptions(opts: AlignOptions = {}): ResolvedOptions {
  const r: ResolvedOptions = {
    iterations: opts.iterations ?? 5,
    favorDiagonal: opts.favorDiagonal ?? true,
    diagonalTension: opts.diagonalTension ?? 4.0,
    optimizeTension: opts.optimizeTension ?? true,
    exactTensionGradient: opts.exactTensionGradient ?? false,
    probAlignNull: opts.probAlignNull ?? 0.08,
    variationalBayes: opts.variationalBayes ?? true,
    alpha: opts.alpha ?? 0.01,
    noNullWord: opts.noNullWord ?? false,
    reverse: opts.reverse ?? false,
  };
  if (!Number.isInteger(r.iterations) || r.iterations < 1) throw new RangeError(`iterations must be an integer >= 1, got ${r.iterations}`);
  if (r.variationalBayes && !(r.alpha > 0)) throw new RangeError(`alpha must be > 0 with variational Bayes, got ${r.alpha}`);
  if (!(r.probAlignNull >= 0 && r.probAlignNull < 1)) throw new RangeError(`probAlignNull must be in [0, 1), got ${r.probAlignNull}`);
  if (!(r.diagonalTension > 0)) throw new RangeError(`diagonalTension must be > 0, got ${r.diagonalTension}`);
  return r;
}

export interface IterationStats {
  /** Direction: false = forward (target words pick source words), true = reverse. */
  reverse: boolean;
  iteration: number;
  final: boolean;
  logLikelihood: number;
  crossEntropy: number;
  perplexity: number;
  /** Expected share of target tokens aligned to NULL (0 on the final, Viterbi-only pass). */
  posteriorP0: number;
  /** Empirical diagonal feature (fast_align's "posterior al-feat"; 0 when not needed). */
  posteriorAlFeat: number;
  /** Tension used in this iteration's E-step. */
  tension: number;
  seconds: number;
}

/**
 * A trained direction. `ttable` is t(pred | cond): for a forward model cond = source words,
 * pred = target words; for a reverse model the other way round. Ids come from `vocab`.
 */
export interface AlignModel {
  readonly reverse: boolean;
  readonly vocab: Vocab;
  readonly ttable: TTable;
  readonly tension: number;
  readonly options: ResolvedOptions;
  /** Mean target/source length ratio of the training corpus (fast_align's mean_srclen_multiplier). */
  readonly meanSrcLenMultiplier: number;
}


// Same hash as ttable.ts homeSlot, split so that the f-dependent part is computed once per row.
const GOLDEN = 0x9e3779b1 | 0;
const TWO_TO_MINUS_32 = 2.3283064365386963e-10;

/** Side arrays seen from one direction: cond = conditioning side (gets NULL), pred = predicted side. */
export interface Sides {
  size: number;
  weights: Float64Array | undefined;
  condTok: Int32Array;
  condOff: Int32Array;
  predTok: Int32Array;
  predOff: Int32Array;
}

export function sides(corpus: EncodedCorpus, reverse: boolean): Sides {
  return reverse
    ? { size: corpus.size, weights: corpus.weights, condTok: corpus.tgtTok, condOff: corpus.tgtOff, predTok: corpus.srcTok, predOff: corpus.srcOff }
    : { size: corpus.size, weights: corpus.weights, condTok: corpus.srcTok, condOff: corpus.srcOff, predTok: corpus.tgtTok, predOff: corpus.tgtOff };
}

export interface TrainResult {
  model: AlignModel;
  /** Viterbi links of the training corpus from the final iteration (fast_align's output). */
  links: Links;
  stats: IterationStats[];
}

/** What training needs before the first iteration (fast_align's InitialPass). */
export interface Prepared {
  o: ResolvedOptions;
  s: Sides;
  ttable: TTable;
  nTargetTokens: number;
  meanSrcLenMultiplier: number;
  /** Length histogram in the C++ tool's order (cppSizeOrder). */
  sizeOrder: Float64Array;
}

export function prepareTraining(corpus: EncodedCorpus, o: ResolvedOptions): Prepared {
  const s = sides(corpus, o.reverse);
  const ttable = buildTTable(corpus.vocab.size, s.size, s.condTok, s.condOff, s.predTok, s.predOff, !o.noNullWord);
  // fast_align's InitialPass statistics over non-empty pairs.
  const sizeCounts = new Map<number, number>();
  let nTargetTokens = 0;
  let totLenRatio = 0;
  let nPairs = 0;
  for (let k = 0; k < s.size; k++) {
    const n = s.condOff[k + 1]! - s.condOff[k]!;
    const m = s.predOff[k + 1]! - s.predOff[k]!;
    if (n === 0 || m === 0) continue;
    const w = s.weights ? s.weights[k]! : 1;
    nPairs += w;
    totLenRatio += w * (m / n);
    nTargetTokens += w * m;
    const key = m * 65536 + n;
    sizeCounts.set(key, (sizeCounts.get(key) ?? 0) + w);
  }
  return { o, s, ttable, nTargetTokens, meanSrcLenMultiplier: nPairs ? totLenRatio / nPairs : 1, sizeOrder: cppSizeOrder(sizeCounts) };
}

/** One request of the iteration schedule to whoever runs the passes (one thread or several). */
export type PassRequest =
  | { kind: "em"; tension: number; needFeat: boolean }
  | { kind: "mstep" }
  | { kind: "viterbi"; model: AlignModel };
export type PassResponse = PassResult | { links: Links; likelihood: number } | undefined;

/**
 * fast_align's iteration schedule as a generator: it yields the passes to run and does the rest
 * (statistics, tension updates), so that the one-thread and the threaded trainer share it.
 */
export function* schedule(p: Prepared, vocab: Vocab, onIteration?: (s: IterationStats) => void): Generator<PassRequest, TrainResult, PassResponse> {
  const { o, ttable, nTargetTokens, meanSrcLenMultiplier } = p;
  let tension = o.diagonalTension;
  const stats: IterationStats[] = [];
  let links: Links | undefined;
  for (let iter = 0; iter < o.iterations; iter++) {
    const t0 = performance.now();
    const final = iter === o.iterations - 1;
    let pass: PassResult;
    if (final) {
      const model: AlignModel = { reverse: o.reverse, vocab, ttable, tension, options: o, meanSrcLenMultiplier };
      const r = (yield { kind: "viterbi", model }) as { links: Links; likelihood: number };
      links = r.links;
      pass = { likelihood: r.likelihood, c0: 0, empFeat: 0 };
    } else {
      pass = (yield { kind: "em", tension, needFeat: o.favorDiagonal && o.optimizeTension }) as PassResult;
    }
    const empFeat = pass.empFeat / nTargetTokens;
    const base2 = pass.likelihood / Math.log(2);
    const st: IterationStats = {
      reverse: o.reverse,
      iteration: iter + 1,
      final,
      logLikelihood: pass.likelihood,
      crossEntropy: -base2 / nTargetTokens,
      perplexity: Math.pow(2, -base2 / nTargetTokens),
      posteriorP0: pass.c0 / nTargetTokens,
      posteriorAlFeat: empFeat,
      tension,
      seconds: 0,
    };
    if (!final) {
      if (o.favorDiagonal && o.optimizeTension && iter > 0) tension = optimizeTension(tension, empFeat, p.sizeOrder, nTargetTokens, o.exactTensionGradient);
      yield { kind: "mstep" };
    }
    st.seconds = (performance.now() - t0) / 1000;
    stats.push(st);
    onIteration?.(st);
  }
  const model: AlignModel = { reverse: o.reverse, vocab, ttable, tension, options: o, meanSrcLenMultiplier };
  return { model, links: links!, stats };
}

/** M-step of rows [r0, r1) (all by default) with the options' update rule. */
export function mStep(ttable: TTable, o: ResolvedOptions, r0?: number, r1?: number): void {
  if (o.variationalBayes) ttable.normalizeVB(o.alpha, r0, r1);
  else ttable.normalize(r0, r1);
}

/** Trains one direction on an encoded corpus in this thread, exactly following fast_align's iteration schedule. */
export function trainEncoded(corpus: EncodedCorpus, opts: AlignOptions = {}): TrainResult {
  const p = prepareTraining(corpus, resolveOptions(opts));
  const gen = schedule(p, corpus.vocab, opts.onIteration);
  let res: PassResponse;
  for (;;) {
    const step = gen.next(res);
    if (step.done) return step.value;
    const req = step.value;
    if (req.kind === "em") res = emPass(p.ttable, p.s, p.o, req.tension, req.needFeat);
    else if (req.kind === "viterbi") res = viterbiPass(req.model, corpus);
    else {
      mStep(p.ttable, p.o);
      res = undefined;
    }
  }
}

/**
 * The (m, n) -> count table in the order C++ fast_align iterates its unordered_map (keys inserted
 * in corpus order, PairHash = m << 16 | n), as [m, n, count] triples: the tension gradient sums
 * over it in this order, so its rounding (and the tension) equals the C++ tool's.
 */
export function cppSizeOrder(sizeCounts: Map<number, number>): Float64Array {
  const keys = Array.from(sizeCounts.keys());
  const perm = new Int32Array(keys.length);
  new StlOrder().order(keys, keys.length, perm);
  const out = new Float64Array(3 * keys.length);
  for (let q = 0; q < keys.length; q++) {
    const key = keys[perm[q]!]!;
    out[3 * q] = Math.floor(key / 65536);
    out[3 * q + 1] = key % 65536;
    out[3 * q + 2] = sizeCounts.get(key)!;
  }
  return out;
}

/** fast_align's tension update: 8 gradient steps matching the model's expected feature to the empirical one. */
export function optimizeTension(tension: number, empFeat: number, sizes: Float64Array, nTargetTokens: number, exact: boolean): number {
  for (let ii = 0; ii < 8; ii++) {
    let modFeat = 0;
    for (let q = 0; q < sizes.length; q += 3) {
      const m = sizes[q]!;
      const n = sizes[q + 1]!;
      const count = sizes[q + 2]!;
      for (let j = 1; j <= m; j++) modFeat += count * computeDLogZ(j, m, n, tension, exact);
    }
    modFeat /= nTargetTokens;
    tension += (empFeat - modFeat) * 20.0;
    if (tension <= 0.1) tension = 0.1;
    if (tension > 14) tension = 14;
  }
  return tension;
}

export interface PassResult {
  likelihood: number;
  c0: number;
  empFeat: number;
}

/** One E-step over the corpus: expected counts into the table's count column (the hot loop). */
function emPass(tt: TTable, s: Sides, o: ResolvedOptions, tension: number, needFeat: boolean): PassResult {
  const { condTok, condOff, predTok, predOff, weights } = s;
  const { rowStart, cells } = tt;
  if (tt.stride !== 3) throw new Error("emPass: frozen translation table");
  const useNull = !o.noNullWord;
  const favorDiagonal = o.favorDiagonal;
  const cache = new PriorCache(tension, 1.0 - o.probAlignNull);
  const nullStart = rowStart[0]!;
  const nullCap = rowStart[1]! - nullStart;
  let probs = new Float64Array(256);
  let slots = new Int32Array(256);
  let starts = new Int32Array(256);
  let caps = new Int32Array(256);
  let iOverN = new Float64Array(256);
  // Totals are summed per block of CPP_BUFFER_LINES lines and then added, like fast_align's
  // per-buffer OpenMP reductions, so that they (and the tension fitted to empFeat) round alike.
  let likelihood = 0;
  let c0 = 0;
  let empFeat = 0;
  let blockLikelihood = 0;
  let blockC0 = 0;
  let blockFeat = 0;
  for (let k = 0; k < s.size; k++) {
    if (k > 0 && k % CPP_BUFFER_LINES === 0) {
      likelihood += blockLikelihood;
      c0 += blockC0;
      empFeat += blockFeat;
      blockLikelihood = blockC0 = blockFeat = 0;
    }
    const cb = condOff[k]!;
    const n = condOff[k + 1]! - cb;
    const pb = predOff[k]!;
    const m = predOff[k + 1]! - pb;
    if (n === 0 || m === 0) continue;
    if (probs.length < n) {
      const c = Math.max(n, probs.length * 2);
      probs = new Float64Array(c);
      slots = new Int32Array(c);
      starts = new Int32Array(c);
      caps = new Int32Array(c);
      iOverN = new Float64Array(c);
    }
    for (let i = 0; i < n; i++) {
      const e = condTok[cb + i]!;
      const st = rowStart[e]!;
      starts[i] = st;
      caps[i] = rowStart[e + 1]! - st;
      iOverN[i] = (i + 1) / n;
    }
    const prior = favorDiagonal ? cache.get(m, n) : undefined;
    const uniform = 1.0 / (n + (useNull ? 1 : 0));
    const nullPrior = favorDiagonal ? o.probAlignNull : uniform;
    // A deduplicated pair stands for w copies; w = 1 leaves every value bit-identical.
    const w = weights !== undefined ? weights[k]! : 1;
    let lineLikelihood = 0;
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
        const st = starts[i]!;
        const cap = caps[i]!;
        let h = (fh * cap) | 0;
        while (cells[3 * (st + h)] !== f) if (++h === cap) h = 0;
        const slot = 3 * (st + h);
        slots[i] = slot;
        const p = cells[slot + 1]! * (prior !== undefined ? prior[row + i]! : uniform);
        probs[i] = p;
        sum += p;
      }
      if (useNull) {
        const c = (pNull / sum) * w;
        blockC0 += c;
        cells[nullSlot + 2] += c;
      }
      if (needFeat) {
        const jOverM = j / m;
        for (let i = 0; i < n; i++) {
          const p = (probs[i]! / sum) * w;
          cells[slots[i]! + 2] += p;
          blockFeat += -Math.abs(iOverN[i]! - jOverM) * p;
        }
      } else {
        for (let i = 0; i < n; i++) cells[slots[i]! + 2] += (probs[i]! / sum) * w;
      }
      lineLikelihood += Math.log(sum);
    }
    blockLikelihood += lineLikelihood * w;
  }
  likelihood += blockLikelihood;
  c0 += blockC0;
  empFeat += blockFeat;
  return { likelihood, c0, empFeat };
}

/**
 * Viterbi pass with a model: per predicted word the best conditioning position (or NULL, which
 * gives no link), with fast_align's tie-breaking (NULL first, then the lowest index).
 * Words without a table entry (id -1, or pairs never seen) score UNSEEN_PROB, as fast_align's
 * safe_prob. Pairs with an empty side get no links.
 */
export function viterbiPass(model: AlignModel, corpus: EncodedCorpus, k0 = 0, k1 = corpus.size): { links: Links; likelihood: number } {
  const s = sides(corpus, model.reverse);
  const { condTok, condOff, predTok, predOff } = s;
  const o = model.options;
  const tt = model.ttable;
  const { rowStart, cells, stride } = tt;
  const rows = tt.rows;
  const useNull = !o.noNullWord;
  const cache = new PriorCache(model.tension, 1.0 - o.probAlignNull);
  const out = new LinksBuilder(k1 - k0);
  const nullStart = rows > 0 ? rowStart[0]! : 0;
  const nullCap = rows > 0 ? rowStart[1]! - nullStart : 0;
  let starts = new Int32Array(256);
  let caps = new Int32Array(256);
  let likelihood = 0;
  for (let k = k0; k < k1; k++) {
    const cb = condOff[k]!;
    const n = condOff[k + 1]! - cb;
    const pb = predOff[k]!;
    const m = predOff[k + 1]! - pb;
    if (n === 0 || m === 0) {
      out.endSentence();
      continue;
    }
    if (starts.length < n) {
      const c = Math.max(n, starts.length * 2);
      starts = new Int32Array(c);
      caps = new Int32Array(c);
    }
    for (let i = 0; i < n; i++) {
      const e = condTok[cb + i]!;
      if (e >= 0 && e < rows) {
        starts[i] = rowStart[e]!;
        caps[i] = rowStart[e + 1]! - rowStart[e]!;
      } else caps[i] = 0;
    }
    const prior = o.favorDiagonal ? cache.get(m, n) : undefined;
    const uniform = 1.0 / (n + (useNull ? 1 : 0));
    const nullPrior = o.favorDiagonal ? o.probAlignNull : uniform;
    for (let j = 0; j < m; j++) {
      const f = predTok[pb + j]!;
      const fh = (Math.imul(f, GOLDEN) >>> 0) * TWO_TO_MINUS_32;
      let sum = 0;
      let maxP = -1;
      let maxIndex = -1;
      if (useNull) {
        let t = UNSEEN_PROB;
        if (nullCap > 0 && f >= 0) {
          let h = (fh * nullCap) | 0;
          for (;;) {
            const key = cells[(nullStart + h) * stride]!;
            if (key === f) {
              t = cells[(nullStart + h) * stride + 1]!;
              break;
            }
            if (key === -1) break;
            if (++h === nullCap) h = 0;
          }
        }
        maxP = t * nullPrior;
        maxIndex = 0;
        sum += maxP;
      }
      const row = j * n;
      for (let i = 0; i < n; i++) {
        let t = UNSEEN_PROB;
        const cap = caps[i]!;
        if (cap > 0 && f >= 0) {
          const st = starts[i]!;
          let h = (fh * cap) | 0;
          for (;;) {
            const key = cells[(st + h) * stride]!;
            if (key === f) {
              t = cells[(st + h) * stride + 1]!;
              break;
            }
            if (key === -1) break;
            if (++h === cap) h = 0;
          }
        }
        const p = t * (prior !== undefined ? prior[row + i]! : uniform);
        sum += p;
        if (p > maxP) {
          maxIndex = i + 1;
          maxP = p;
        }
      }
      likelihood += Math.log(sum) * (s.weights !== undefined ? s.weights[k]! : 1);
      if (maxIndex > 0) {
        if (model.reverse) out.add(j, maxIndex - 1);
        else out.add(maxIndex - 1, j);
      }
    }
    out.endSentence();
  }
  return { links: out.finish(), likelihood };
}

/**
 * Unnormalised alignment scores of predicted word f at position j: probs[0] = NULL,
 * probs[i] = source position i (1-based). Unknown pairs score UNSEEN_PROB (fast_align's safe_prob).
 * Returns their sum.
 */
function scoreRow(
  tt: TTable,
  condTok: Int32Array,
  cb: number,
  n: number,
  f: number,
  j: number,
  prior: Float64Array | undefined,
  o: ResolvedOptions,
  probs: Float64Array,
): number {
  const useNull = !o.noNullWord;
  const uniform = 1.0 / (n + (useNull ? 1 : 0));
  let sum = 0;
  probs[0] = 0;
  if (useNull) {
    probs[0] = tt.safeProb(0, f) * (o.favorDiagonal ? o.probAlignNull : uniform);
    sum += probs[0];
  }
  const row = j * n;
  for (let i = 1; i <= n; i++) {
    const p = tt.safeProb(condTok[cb + i - 1]!, f) * (prior !== undefined ? prior[row + i - 1]! : uniform);
    probs[i] = p;
    sum += p;
  }
  return sum;
}

/**
 * Posterior alignment matrix of one sentence pair under a model: row-major, one row per predicted
 * position (target positions for a forward model, source positions for a reverse one), one column
 * per conditioning position plus a last column for NULL (0 with noNullWord). Rows sum to 1.
 */
export function posteriorsEncoded(model: AlignModel, cond: Int32Array, pred: Int32Array): Float64Array {
  const n = cond.length;
  const m = pred.length;
  const out = new Float64Array(m * (n + 1));
  if (n === 0 || m === 0) return out;
  const o = model.options;
  const prior = o.favorDiagonal ? new Float64Array(m * n) : undefined;
  if (prior) fillPrior(prior, m, n, model.tension, 1.0 - o.probAlignNull);
  const probs = new Float64Array(n + 1);
  for (let j = 0; j < m; j++) {
    const sum = scoreRow(model.ttable, cond, 0, n, pred[j]!, j, prior, o, probs);
    const row = j * (n + 1);
    for (let i = 1; i <= n; i++) out[row + i - 1] = probs[i]! / sum;
    out[row + n] = probs[0]! / sum;
  }
  return out;
}

export { UNSEEN_PROB };
