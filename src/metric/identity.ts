// The "pronoun identity only" baseline: a scorer that knows which pronouns tend to win in the
// training pairs and nothing else. A pronoun's contribution is log((wins + 1) / (losses + 1)), counted
// over the training pairs (a reference pronoun of a pair wins, the system's loses); context and
// sentence are ignored. On balanced R vs R' it is right in one direction of each pronoun pair and
// wrong in the other: 50%. Meta-eval prints it beside every scorer to show how much is context.
import type { ContextMode, PairRecord } from "../core/pair-format.js";
import { prepareSide } from "../nn/inputs.js";
import type { PreparedSide, Side } from "../core/scorer.js";
import type { PronounScorer, ScoredSide } from "../core/scorer.js";

export class IdentityPriorScorer implements PronounScorer {
  readonly kind = "identity-prior";
  readonly contextMode: ContextMode = "crc";
  readonly backendLine = "no model (pronoun counts)";
  readonly maxKeys = 128;
  constructor(
    readonly dir: string,
    private readonly value: Map<string, number>,
    private readonly pairsUsed: number,
  ) {}

  static fromPairs(name: string, pairs: PairRecord[]): IdentityPriorScorer {
    const wins = new Map<string, number>();
    const losses = new Map<string, number>();
    const add = (m: Map<string, number>, list: string): void => {
      for (const p of list.split(",").map((x) => x.trim().toLowerCase()).filter(Boolean)) m.set(p, (m.get(p) ?? 0) + 1);
    };
    for (const p of pairs) {
      add(wins, p.ref_pronoun);
      add(losses, p.sys_pronoun);
    }
    const value = new Map<string, number>();
    for (const k of new Set([...wins.keys(), ...losses.keys()])) value.set(k, Math.log(((wins.get(k) ?? 0) + 1) / ((losses.get(k) ?? 0) + 1)));
    return new IdentityPriorScorer(name, value, pairs.length);
  }

  modelSignature(): string {
    return `model:identity-prior(${this.pairsUsed} pairs)`;
  }

  prepare(side: Side): PreparedSide {
    return prepareSide({ context: [], sentence: side.sentence }, { contextSentences: 0, maxLen: this.maxKeys });
  }

  async scorePrepared(prepared: PreparedSide[]): Promise<ScoredSide[]> {
    return prepared.map((p) => {
      const prons = p.pronounPos.map((pos) => {
        const token = p.tokens[pos]!;
        const v = this.value.get(token.toLowerCase()) ?? 0;
        return { token, index: pos - p.sentStart, score: v, contribution: v };
      });
      return { score: prons.reduce((s, x) => s + x.contribution, 0), pronouns: prons, tokens: p.tokens, sentStart: p.sentStart, truncatedContext: 0 };
    });
  }

  dispose(): void {}
}
