// A context-free test scorer shared by the metric tests.
import type { PronounScorer, ScoredSide } from "../src/core/scorer.js";
import { prepareSide } from "../src/nn/inputs.js";
import type { PreparedSide, Side } from "../src/core/scorer.js";

export /** A context-free scorer: each pronoun is worth a fixed value; `perSide` divides by the side's pronoun count (count-dependent). */
class FixedScorer implements PronounScorer {
  readonly kind = "fixed";
  readonly contextMode = "crc" as const;
  readonly backendLine = "none";
  readonly maxKeys = 128;
  readonly dir = "fixed";
  constructor(
    private readonly values: Record<string, number>,
    private readonly perSide = false,
  ) {}
  modelSignature(): string {
    return "model:fixed";
  }
  prepare(side: Side): PreparedSide {
    return prepareSide(side, { contextSentences: 2, maxLen: 128 });
  }
  async scorePrepared(prepared: PreparedSide[]): Promise<ScoredSide[]> {
    return prepared.map((p) => {
      const n = p.pronounPos.length;
      const prons = p.pronounPos.map((pos) => {
        const v = (this.values[p.tokens[pos]!.toLowerCase()] ?? 0) / (this.perSide ? n : 1);
        return { token: p.tokens[pos]!, index: pos - p.sentStart, score: v, contribution: v };
      });
      return { score: prons.reduce((s, x) => s + x.contribution, 0), pronouns: prons, tokens: p.tokens, sentStart: p.sentStart, truncatedContext: 0 };
    });
  }
  dispose(): void {}
}
