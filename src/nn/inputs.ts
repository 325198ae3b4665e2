import { tokenWords } from "../text/tokenize.js";
import { pronouns } from "../text/pronouns.js";
import type { ContextMode, PairRecord } from "../core/pair-format.js";
import type { PreparedSide, Side } from "../core/scorer.js";

export interface PrepareOptions {
  /** Context sentences kept (the most recent ones); the paper uses 2. */
  contextSentences: number;
  /** Upper bound on keys (context + sentence tokens); context is cut from the left first, the sentence never. */
  maxLen: number;
}

export function prepareSide(side: Side, opts: PrepareOptions): PreparedSide {
  const inv = pronouns();
  const sent = tokenWords(side.sentence);
  const ctxSents = opts.contextSentences > 0 ? side.context.slice(-opts.contextSentences) : [];
  let ctx: string[] = [];
  for (const s of ctxSents) ctx = ctx.concat(tokenWords(s));
  const room = Math.max(0, opts.maxLen - sent.length);
  const truncated = Math.max(0, ctx.length - room);
  if (truncated) ctx = ctx.slice(truncated);
  const pronounPos: number[] = [];
  sent.forEach((w, i) => {
    if (inv.has(w)) pronounPos.push(ctx.length + i);
  });
  return { tokens: ctx.concat(sent), sentStart: ctx.length, pronounPos, truncated };
}

/** The two sides of a pair under a context mode (Sec. 5.2): NC none, RC each its own, CRC the reference's for both. */
export function pairSides(p: PairRecord, mode: ContextMode): { pos: Side; neg: Side } {
  switch (mode) {
    case "nc":
      return { pos: { context: [], sentence: p.positive }, neg: { context: [], sentence: p.negative } };
    case "crc":
      return { pos: { context: p.context, sentence: p.positive }, neg: { context: p.context, sentence: p.negative } };
    case "rc":
      return { pos: { context: p.context, sentence: p.positive }, neg: { context: p.negative_context ?? p.context, sentence: p.negative } };
  }
}

export const CONTEXT_MODES: readonly ContextMode[] = ["nc", "rc", "crc"];
