// The one interface every pronoun scorer implements (the attention ranker, the zero-shot
// masked-pronoun model, their ensemble, APT-like baselines): test-set scoring, compare, eval and
// meta-eval are written once against it (src/metric/*), never against a model class.
import type { ContextMode } from "./pair-format.js";

/** One text to score: a target sentence with the previous sentences of its context (oldest first). */
export interface Side {
  context: string[];
  sentence: string;
}

/** A side as the model sees it: context tokens then sentence tokens, and where the pronouns are. */
export interface PreparedSide {
  tokens: string[];
  /** Index in `tokens` of the first sentence token. */
  sentStart: number;
  /** Absolute positions in `tokens` of the sentence's pronouns (never of the context's). */
  pronounPos: number[];
  /** Context tokens dropped to respect maxLen. */
  truncated: number;
}

/** Scores closer than this are ties (identical inputs score identically; this absorbs float noise). */
export const TIE_EPS = 1e-5;

/**
 * The system-level score's per-segment verdict: a pronoun segment counts as "not below the reference"
 * when its diff under the chosen aggregate is at least -TIE_EPS, or when nothing was compared (diff null).
 * `score`, `compare` and `report` all count with this.
 */
export function notBelowReference(seg: { diff: number | null }): boolean {
  return seg.diff === null || seg.diff >= -TIE_EPS;
}

/** A system's 0/1 verdicts on its pronoun segments (1: not below the reference): the units of its score. */
export function systemVerdicts(segments: ReadonlyArray<{ status: string; diff: number | null }>): number[] {
  return segments.filter((s) => s.status === "scored").map((s) => (notBelowReference(s) ? 1 : 0));
}

export interface PronounScore {
  /** The pronoun as written. */
  token: string;
  /** Token index in the sentence (tokenize.ts tokens). */
  index: number;
  /** The model's own per-pronoun value (ranker: u of Eq. 3 before the slot weight; zero-shot: log P or PMI). */
  score: number;
  /** Its share of the side's score: the side score is the sum of these (higher = better). */
  contribution: number;
  /** Attention over the keys (context + sentence tokens), when asked for. */
  attention?: number[];
  /** Component values of a composite scorer (e.g. the ensemble's lmLogProb, lmPmi). */
  parts?: Record<string, number>;
}

export interface ScoredSide {
  /** The model's side score: sum of the pronouns' contributions (0 without pronouns). */
  score: number;
  pronouns: PronounScore[];
  /** Keys as the model saw them (context tokens, then sentence tokens). */
  tokens: string[];
  sentStart: number;
  truncatedContext: number;
}

export interface ScoreOptions {
  withAttention?: boolean;
  batchSize?: number;
  onBatch?: (done: number) => void;
}

export interface PronounScorer {
  /** Where it was loaded from (checkpoint directory, or a name). */
  readonly dir: string;
  /** Short description for tables ("ranker", "zero-shot", "ensemble", ...). */
  readonly kind: string;
  /** Context the model was trained with (the default of scoring). */
  readonly contextMode: ContextMode;
  /** The backend it runs on, for the one-line report (e.g. "wasm (tfjs-backend-wasm)"). */
  readonly backendLine: string;
  /** sacrebleu-style model part of the signature ("model:..."). */
  modelSignature(): string;
  /** Most keys (context + sentence tokens) the model reads per side. */
  readonly maxKeys: number;
  prepare(side: Side): PreparedSide;
  scorePrepared(prepared: PreparedSide[], opts?: ScoreOptions): Promise<ScoredSide[]>;
  dispose(): void;
}

/** How a scorer is loaded from its directory (every model's loader takes these). */
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

/** Scores sides (prepare + scorePrepared). */
export function scoreSidesWith(scorer: PronounScorer, sides: Side[], opts: ScoreOptions = {}): Promise<ScoredSide[]> {
  return scorer.scorePrepared(
    sides.map((s) => scorer.prepare(s)),
    opts,
  );
}

/** Identical prepared inputs (systems agreeing with each other or with the reference) are scored once. */
export function dedupePrepared(prepared: PreparedSide[]): { unique: PreparedSide[]; slot: number[] } {
  const uniq = new Map<string, number>();
  const unique: PreparedSide[] = [];
  const slot = prepared.map((p) => {
    const k = `${p.sentStart}\u0001${p.tokens.join("\u0000")}`;
    let i = uniq.get(k);
    if (i === undefined) {
      i = unique.length;
      uniq.set(k, i);
      unique.push(p);
    }
    return i;
  });
  return { unique, slot };
}
