import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { InputError } from "../io/errors.js";
import type { TestSet } from "../io/model.js";
import type { ContextMode } from "../mine/pair-format.js";
import { PACKAGE_ROOT, VERSION } from "../version.js";
import { selectBackend, type BackendInfo } from "./backend.js";
import { loadCheckpoint, type CheckpointConfig } from "./checkpoint.js";
import { prepareSide, type PreparedSide, type Side } from "./inputs.js";
import type { RankerModel } from "./model.js";
import { scoreSides } from "./run-model.js";
import { Rng } from "./prng.js";

/** Scores closer than this are ties (identical inputs score identically; this absorbs float noise). */
export const TIE_EPS = 1e-5;

/**
 * The shipped default: the ensemble of the GloVe ranker (checkpoints/default) and the zero-shot
 * masked-pronoun model (checkpoints/pronoun-lm), the best scorer on wmt23 dev (docs/pretrain.md).
 */
export function defaultCheckpointDir(): string {
  return join(PACKAGE_ROOT, "checkpoints", "ensemble");
}

export interface PronounScore {
  /** The pronoun as written. */
  token: string;
  /** Token index in the sentence (tokenize.ts tokens). */
  index: number;
  /** Its contribution u (Eq. 3) before the slot weight. */
  score: number;
  /** Attention over the keys (context + sentence tokens), when asked for. */
  attention?: number[];
}

export interface ScoredSide {
  /** y (Eq. 4); 0 when the sentence has no pronoun. */
  score: number;
  pronouns: PronounScore[];
  /** Keys as the model saw them (context tokens, then sentence tokens). */
  tokens: string[];
  sentStart: number;
  truncatedContext: number;
}

export interface SegmentResult {
  doc: string;
  seg: string;
  /** 0-based position in the test set. */
  index: number;
  status: "scored" | "no-pronoun";
  ref: number | null;
  sys: number | null;
  /** sys - ref. */
  diff: number | null;
  refPronouns: string[];
  sysPronouns: string[];
  /** Per-pronoun scores u (Eq. 3), parallel to refPronouns / sysPronouns. */
  refPronounScores: number[];
  sysPronounScores: number[];
  /**
   * With `withAttention`: the scored sides (tokens, per-pronoun scores, attention rounded to 4 decimals),
   * for heat maps. The reference side is stored once, in the first system's segments.
   */
  refSide?: ScoredSide;
  sysSide?: ScoredSide;
}

export interface SystemSummary {
  segments: number;
  /** Segments where the reference or the system has at least one pronoun. */
  pronounSegments: number;
  noPronounSegments: number;
  /** Share of pronoun segments where the system is not ranked below the reference (sys >= ref - TIE_EPS). */
  notBelow: number;
  /** Mean of sys - ref over pronoun segments. */
  meanDiff: number;
  /** System-level score: 100 * notBelow. */
  score: number;
}

export interface SystemResult {
  system: string;
  summary: SystemSummary;
  segments: SegmentResult[];
}

export interface ScoreSetOptions {
  context?: ContextMode;
  reference?: string;
  batchSize?: number;
  onProgress?: (done: number, total: number) => void;
  /** Keep every side's tokens and attention weights in the segment results (for `proneval report`). */
  withAttention?: boolean;
}

/** Attention rounded to 4 decimals: heat maps need no more, and it keeps JSON outputs small. */
function roundedSide(s: ScoredSide): ScoredSide {
  return { ...s, pronouns: s.pronouns.map((p) => (p.attention ? { ...p, attention: p.attention.map((a) => Math.round(a * 1e4) / 1e4) } : p)) };
}

function summarize(segs: SegmentResult[]): SystemSummary {
  const scored = segs.filter((s) => s.status === "scored");
  const n = scored.length;
  const notBelow = n ? scored.filter((s) => s.sys! >= s.ref! - TIE_EPS).length / n : 0;
  const meanDiff = n ? scored.reduce((a, s) => a + s.diff!, 0) / n : 0;
  return { segments: segs.length, pronounSegments: n, noPronounSegments: segs.length - n, notBelow, meanDiff, score: 100 * notBelow };
}

/** A loaded checkpoint ready to score (library entry point: `await loadScorer(dir?)`). */
export class Scorer {
  constructor(
    readonly dir: string,
    readonly config: CheckpointConfig,
    readonly model: RankerModel,
    readonly backend: BackendInfo,
    /** Threads used by score() for large inputs (1 = this thread only); see scoreParallel. */
    readonly threads = 1,
    private readonly loadOpts: LoadScorerOptions = {},
  ) {}

  /**
   * Scores sides on `threads` threads: this one plus worker threads that load the same checkpoint.
   * Sides are length-sorted and dealt round-robin, so every shard batches well. Scores do not
   * depend on batch composition (masking), so the result equals single-threaded scoring up to float
   * rounding in the matrix products (~1e-7, far inside the tie tolerance).
   */
  private async scoreParallel(sides: PreparedSide[], batchSize: number, onBatch?: (done: number) => void): Promise<Array<{ y: number; u: number[] }>> {
    const n = this.threads;
    const order = sides.map((_, i) => i).sort((a, b) => sides[a]!.tokens.length - sides[b]!.tokens.length);
    const shards: number[][] = Array.from({ length: n }, () => []);
    order.forEach((i, k) => shards[k % n]!.push(i));
    const workerUrl = new URL("./score-worker.js", import.meta.url);
    const runWorker = (idx: number[]): Promise<Array<{ y: number; u: number[] }>> =>
      new Promise((resolve, reject) => {
        const w = new Worker(workerUrl, { workerData: { dir: this.dir, backend: this.backend.requested, modelDir: this.loadOpts.modelDir, batchSize } });
        w.on("message", (m: { ready?: boolean; ok?: boolean; error?: string; y?: Float32Array; u?: number[][] }) => {
          if (m.ready) w.postMessage(idx.map((i) => sides[i]!));
          else if (m.ok) resolve(Array.from(m.y!, (y, k) => ({ y, u: m.u![k]! })));
          else reject(new Error(`scoring worker failed: ${m.error}`));
        });
        w.on("error", reject);
        w.on("exit", (code) => {
          if (code !== 0) reject(new Error(`scoring worker exited with code ${code}`));
        });
      });
    const pending = shards.slice(1).map(runWorker);
    // Keep the worker promises handled while this thread scores its own shard synchronously.
    const settled = Promise.allSettled(pending);
    const mine = await scoreSides(this.model, shards[0]!.map((i) => sides[i]!), { batchSize, onBatch: onBatch ? (d) => onBatch(Math.min(sides.length, d * n)) : undefined });
    const results = await settled;
    const out: Array<{ y: number; u: number[] }> = new Array(sides.length);
    shards[0]!.forEach((i, k) => (out[i] = { y: mine[k]!.y, u: mine[k]!.u }));
    results.forEach((r, w) => {
      if (r.status === "rejected") throw r.reason;
      shards[w + 1]!.forEach((i, k) => (out[i] = r.value[k]!));
    });
    onBatch?.(sides.length);
    return out;
  }

  get contextMode(): ContextMode {
    return this.config.contextMode;
  }

  /** sacrebleu-style signature of everything that determines the numbers. */
  signature(context: ContextMode = this.contextMode, reference?: string): string {
    const w = this.config.files.weights.sha256.slice(0, 8);
    return [`proneval-pronoun`, `model:${this.config.encoder.kind}-${this.config.head.head}-${this.config.contextMode}@${w}`, `ctx:${context}`, `keys:${this.config.prepare.maxLen}`, ...(reference ? [`ref:${reference}`] : []), `tie:${TIE_EPS}`, `version:${VERSION}`].join("|");
  }

  prepare(side: Side): PreparedSide {
    return prepareSide(side, this.config.prepare);
  }

  /** Scores sides independently: score, per-pronoun scores and (optionally) attention weights. */
  async score(sides: Side[], opts: { withAttention?: boolean; batchSize?: number; onBatch?: (done: number) => void } = {}): Promise<ScoredSide[]> {
    return this.scorePrepared(sides.map((s) => this.prepare(s)), opts);
  }

  /** As score(), for sides already prepared with this checkpoint's input options. */
  async scorePrepared(prepared: PreparedSide[], opts: { withAttention?: boolean; batchSize?: number; onBatch?: (done: number) => void } = {}): Promise<ScoredSide[]> {
    // Identical inputs (systems that agree with each other or with the reference) are scored once.
    const keyOf = (p: PreparedSide): string => `${p.sentStart}\u0001${p.tokens.join("\u0000")}`;
    const uniq = new Map<string, number>();
    const uniqueSides: PreparedSide[] = [];
    const slot = prepared.map((p) => {
      const k = keyOf(p);
      let i = uniq.get(k);
      if (i === undefined) {
        i = uniqueSides.length;
        uniq.set(k, i);
        uniqueSides.push(p);
      }
      return i;
    });
    const batchSize = opts.batchSize ?? 128;
    const parallel = this.threads > 1 && !opts.withAttention && uniqueSides.length >= 256 * this.threads;
    const res: Array<{ y: number; u: number[]; attention?: number[][] }> = parallel
      ? await this.scoreParallel(uniqueSides, batchSize, opts.onBatch)
      : await scoreSides(this.model, uniqueSides, { batchSize, withAttention: opts.withAttention, onBatch: opts.onBatch });
    return prepared.map((p, k) => {
      const r = res[slot[k]!]!;
      return {
        score: r.y,
        pronouns: p.pronounPos.map((pos, j) => ({ token: p.tokens[pos]!, index: pos - p.sentStart, score: r.u[j]!, ...(r.attention ? { attention: r.attention[j] } : {}) })),
        tokens: p.tokens,
        sentStart: p.sentStart,
        truncatedContext: p.truncated,
      };
    });
  }

  /**
   * Scores systems of a test set against its (primary) reference, segment by segment, with the
   * context mode of the checkpoint unless overridden: CRC gives both sides the reference's
   * previous segments of the same document, RC each side its own, NC none.
   */
  async scoreTestSet(ts: TestSet, systems: string[], opts: ScoreSetOptions = {}): Promise<SystemResult[]> {
    const ctxMode = opts.context ?? this.contextMode;
    const refName = opts.reference ?? ts.references[0];
    if (!refName || !ts.references.includes(refName)) throw new InputError(`test set has no reference '${refName ?? ""}' (has: ${ts.references.join(", ") || "none"})`);
    for (const s of systems) if (!ts.systems.includes(s)) throw new InputError(`test set has no system '${s}' (has: ${ts.systems.join(", ")})`);
    const n = this.config.prepare.contextSentences;
    const sides: Side[] = [];
    const meta: Array<{ doc: string; seg: string }> = [];
    for (const d of ts.docs) {
      const ref = d.refs[refName]!;
      ref.forEach((r, i) => {
        sides.push({ context: ctxMode === "nc" ? [] : ref.slice(Math.max(0, i - n), i), sentence: r });
        meta.push({ doc: d.id, seg: d.segIds[i]! });
      });
    }
    const total = sides.length;
    for (const sys of systems) {
      for (const d of ts.docs) {
        const ref = d.refs[refName]!;
        const hyp = d.hyps[sys]!;
        hyp.forEach((h, i) => {
          const ctx = ctxMode === "nc" ? [] : ctxMode === "rc" ? hyp.slice(Math.max(0, i - n), i) : ref.slice(Math.max(0, i - n), i);
          sides.push({ context: ctx, sentence: h });
        });
      }
    }
    const scored = await this.score(sides, { batchSize: opts.batchSize, withAttention: opts.withAttention, onBatch: opts.onProgress ? (k) => opts.onProgress!(k, sides.length) : undefined });
    const out: SystemResult[] = [];
    systems.forEach((sys, si) => {
      const segs: SegmentResult[] = [];
      for (let i = 0; i < total; i++) {
        const r = scored[i]!;
        const s = scored[total * (si + 1) + i]!;
        const has = r.pronouns.length > 0 || s.pronouns.length > 0;
        segs.push({
          doc: meta[i]!.doc,
          seg: meta[i]!.seg,
          index: i,
          status: has ? "scored" : "no-pronoun",
          ref: has ? r.score : null,
          sys: has ? s.score : null,
          diff: has ? s.score - r.score : null,
          refPronouns: r.pronouns.map((p) => p.token),
          sysPronouns: s.pronouns.map((p) => p.token),
          refPronounScores: r.pronouns.map((p) => p.score),
          sysPronounScores: s.pronouns.map((p) => p.score),
          ...(opts.withAttention ? { ...(si === 0 ? { refSide: roundedSide(r) } : {}), sysSide: roundedSide(s) } : {}),
        });
      }
      out.push({ system: sys, summary: summarize(segs), segments: segs });
    });
    return out;
  }

  dispose(): void {
    this.model.dispose();
  }
}

export interface LoadScorerOptions {
  backend?: string;
  modelDir?: string;
  /**
   * Threads for scoring large inputs: a number, or "auto" = 1 on the native tfjs-node backends
   * and for transformers encoders (both multi-threaded already), else up to 2 (the cores of the target machines). Default 1.
   * Worker threads need the compiled dist/ build.
   */
  threads?: number | "auto";
}

/** Loads a checkpoint directory (default: the shipped checkpoints/ensemble) on a tfjs backend. */
export async function loadScorer(dir?: string, opts: LoadScorerOptions = {}): Promise<Scorer> {
  const d = dir ?? defaultCheckpointDir();
  if (!dir && !existsSync(join(d, "config.json")))
    throw new InputError(`no checkpoint given and the default checkpoint is missing (${d}); train one with 'proneval train' and pass --checkpoint`);
  // An ensemble directory (ranker + a * zero-shot PMI, docs/pretrain.md) loads its components itself.
  const ensemble = await import("../pretrain/ensemble.js");
  if (ensemble.isEnsembleDir(d)) return ensemble.loadEnsembleScorer(d, opts);
  const backend = await selectBackend(opts.backend ?? "auto");
  const { config, model } = await loadCheckpoint(d, opts.modelDir);
  // ONNX Runtime (transformers encoders) already uses every core: a second worker would only oversubscribe them.
  const oneThread = backend.backend === "tensorflow" || config.encoder.kind.startsWith("transformers:");
  const threads = opts.threads === "auto" ? (oneThread ? 1 : Math.min(2, availableParallelism())) : Math.max(1, opts.threads ?? 1);
  return new Scorer(d, config, model, backend, threads, opts);
}

export interface CompareResult {
  a: string;
  b: string;
  pronounSegments: number;
  /** Each system's not-below-reference share on the common pronoun segments. */
  scoreA: number;
  scoreB: number;
  /** Mean of yA - yB over the common pronoun segments. */
  meanDiff: number;
  wins: { a: number; b: number; ties: number };
  bootstrap: { samples: number; seed: number; pValue: number; ci95: [number, number]; winsA: number };
  segments: Array<{ doc: string; seg: string; index: number; a: number; b: number; ref: number; better: "a" | "b" | "tie" }>;
}

/**
 * Which of two systems translates pronouns better. Segments where the reference or either system
 * has a pronoun are compared; per segment the higher score wins (ties within TIE_EPS). Paired
 * bootstrap resampling (Koehn 2004) over those segments of the difference of the system scores
 * (100 * share not ranked below the reference): the p-value is the share of resamples in which
 * the observed better system is not better.
 */
export function compareSystems(ra: SystemResult, rb: SystemResult, samples = 1000, seed = 12345): CompareResult {
  const segs: CompareResult["segments"] = [];
  for (let i = 0; i < ra.segments.length; i++) {
    const x = ra.segments[i]!;
    const y = rb.segments[i]!;
    if (x.status === "no-pronoun" && y.status === "no-pronoun") continue;
    // Either side's `ref` is the same reference score; recover the others from diff where needed.
    const ref = (x.ref ?? y.ref)!;
    const a = x.sys ?? ref;
    const b = y.sys ?? ref;
    segs.push({ doc: x.doc, seg: x.seg, index: i, a, b, ref, better: a > b + TIE_EPS ? "a" : b > a + TIE_EPS ? "b" : "tie" });
  }
  const n = segs.length;
  const okA = Uint8Array.from(segs, (s) => (s.a >= s.ref - TIE_EPS ? 1 : 0));
  const okB = Uint8Array.from(segs, (s) => (s.b >= s.ref - TIE_EPS ? 1 : 0));
  const sum = (u: Uint8Array): number => u.reduce((x, y) => x + y, 0);
  const scoreA = n ? (100 * sum(okA)) / n : 0;
  const scoreB = n ? (100 * sum(okB)) / n : 0;
  const observed = scoreA - scoreB;
  const rng = new Rng(seed);
  const deltas: number[] = [];
  let notBetter = 0;
  let winsA = 0;
  for (let k = 0; k < samples && n > 0; k++) {
    let da = 0;
    let db = 0;
    for (let j = 0; j < n; j++) {
      const i = rng.int(n);
      da += okA[i]!;
      db += okB[i]!;
    }
    const d = (100 * (da - db)) / n;
    deltas.push(d);
    if (d > 0) winsA++;
    if (observed > 0 ? d <= 0 : observed < 0 ? d >= 0 : true) notBetter++;
  }
  deltas.sort((x, y) => x - y);
  const q = (p: number): number => (deltas.length ? deltas[Math.min(deltas.length - 1, Math.floor(p * deltas.length))]! : 0);
  return {
    a: ra.system,
    b: rb.system,
    pronounSegments: n,
    scoreA,
    scoreB,
    meanDiff: n ? segs.reduce((acc, s) => acc + s.a - s.b, 0) / n : 0,
    wins: { a: segs.filter((s) => s.better === "a").length, b: segs.filter((s) => s.better === "b").length, ties: segs.filter((s) => s.better === "tie").length },
    bootstrap: { samples, seed, pValue: samples ? (notBetter + 1) / (samples + 1) : 1, ci95: [q(0.025), q(0.975)], winsA },
    segments: segs,
  };
}

export interface ScoringInput {
  testSet: TestSet;
  systems: string[];
}

/**
 * Reads `-r REF -t HYP...`: for WMT XML the reference file holds the systems too and HYP are
 * system names (none = all); for text and SGML, HYP are files (text: previous lines of the same
 * document are the context; one pseudo-document per file unless a --docs file gives ids).
 */
export async function readScoringInput(ref: string, hyps: string[], opts: { format?: "wmt-xml" | "sgml" | "text"; docs?: string; reference?: string } = {}): Promise<ScoringInput> {
  const { readTestSetAuto, detectFormat } = await import("../io/readers.js");
  const format = opts.format ?? (await detectFormat(ref));
  if (format === "wmt-xml") {
    const ts = await readTestSetAuto(ref, { format, allowEmpty: true });
    const systems = hyps.length ? hyps : ts.systems;
    if (systems.length === 0) throw new InputError("the XML file has no system translations to score", ref);
    for (const s of systems) if (!ts.systems.includes(s)) throw new InputError(`no system '${s}' in the XML file (has: ${ts.systems.join(", ")})`, ref);
    return { testSet: ts, systems };
  }
  if (hyps.length === 0) throw new InputError("give at least one system output with -t");
  const ts = await readTestSetAuto([ref, ...hyps], { format, allowEmpty: true, ...(opts.docs ? { docs: opts.docs } : {}) });
  return { testSet: ts, systems: ts.systems };
}
