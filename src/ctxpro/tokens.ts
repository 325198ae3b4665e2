/**
 * Token-level helpers of the CTXPRO engine and its heuristics: coarse part-of-speech classes, feature values,
 * the text of a span, and the case constraints of the rules.
 */
import type { AnnSentence, AnnToken } from "../annotate/types.js";

/** Tags that may stand inside an English noun phrase before its head. */
export const NP_PRE = new Set(["DET", "ADJ", "NUM", "NOUN", "PROPN"]);

export const NOUNS = new Set(["NOUN", "PROPN"]);

export const VERBS = new Set(["VERB", "AUX"]);

export function values(tok: AnnToken, feat: string): string[] {
  const v = tok.feats[feat];
  return v ? v.split(",") : [];
}

/** FEATS in UD order (sorted by name, case-insensitively), as spaCy prints a token's morphology. */
export function morphoString(tok: AnnToken): string {
  return Object.keys(tok.feats)
    .sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()))
    .map((k) => `${k}=${tok.feats[k]}`)
    .join("|");
}

/** Text of tokens [start, end) of a sentence: from the character offsets when known, else joined by spaces. */
export function spanText(s: AnnSentence, start: number, end: number): string {
  const first = s.tokens[start];
  const last = s.tokens[end - 1];
  if (first?.start !== undefined && last?.end !== undefined && last.end >= first.start) return s.text.slice(first.start, last.end);
  return s.tokens
    .slice(start, end)
    .map((t) => t.text)
    .join(" ");
}

/** "*" any; "X" must have case X; "-X" must not have case X (a token without Case passes "-X"). */
export function matchesCase(tok: AnnToken, constraint: string): boolean {
  if (constraint === "*") return true;
  const cases = values(tok, "Case");
  if (constraint.startsWith("-")) return !cases.includes(constraint.slice(1));
  return cases.includes(constraint);
}
