/**
 * A fixed split of CTXPRO's released dev sets into a tuning sample and a held-back part, so that extraction
 * recall can be reported on items no rule or heuristic was ever adjusted to.
 *
 * The tuning sample of a set is what `scripts/ctxpro-recall.ts` has always measured: of the items with ante
 * distance 0 or 1 (`recallEligible`), shuffled with mulberry32(13), the first 800. The held-back part is every
 * other eligible item whose identity (document id, segment id, rule, expected form, source pronoun, source
 * segment) hashes (FNV-1a, 32 bits) to 0 modulo 3: about a third of what the tuning sample leaves. Both are
 * functions of the released file alone, so the split never moves; a set of at most 800 eligible items has no
 * held-back part (it was tuned on whole).
 */
import { mulberry32, shuffle } from "../core/prng.js";
import type { CtxproItem } from "./items.js";

/** The seed and size of the tuning sample. */
export const TUNING_SEED = 13;
export const TUNING_SIZE = 800;
/** An item is held back when its hash is 0 modulo this (and it is not in the tuning sample). */
export const HELD_BACK_MODULUS = 3;

export type DevPart = "tuning" | "held-back" | "all";
export const DEV_PARTS: readonly DevPart[] = ["tuning", "held-back", "all"];

/** Items recall is measured on: formality (no antecedent) or an antecedent in the segment or the one before. */
export function recallEligible(items: readonly CtxproItem[]): CtxproItem[] {
  return items.filter((it) => it["ante distance"] === undefined || it["ante distance"] === 0 || it["ante distance"] === 1);
}

/** FNV-1a (32 bits) of a string's UTF-16 code units. */
export function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** The fields that identify an item within its set. */
export function itemKey(it: CtxproItem): string {
  return JSON.stringify([it["document id"], it["segment id"], it.rule, it.expected, it["src pronoun"] ?? it["src verb"] ?? it["src noun"], it["src segment"]]);
}

/** Eligible items in the order of a seeded shuffle (mulberry32). */
function shuffled(eligible: readonly CtxproItem[], seed: number): CtxproItem[] {
  return shuffle([...eligible], mulberry32(seed));
}

/** The held-back part of a set's eligible items (in file order). */
export function heldBack(eligible: readonly CtxproItem[]): CtxproItem[] {
  const tuning = new Set(shuffled(eligible, TUNING_SEED).slice(0, TUNING_SIZE));
  return eligible.filter((it) => !tuning.has(it) && fnv1a(itemKey(it)) % HELD_BACK_MODULUS === 0);
}

/**
 * Up to `max` items of a set's eligible items for recall. "tuning": the seeded sample, held-back items left
 * out (with the default seed 13 and max 800 this is exactly the tuning sample); "held-back": a seeded sample
 * of the held-back part; "all": the seeded sample of every eligible item, held back or not.
 */
export function recallSample(eligible: readonly CtxproItem[], part: DevPart, max: number, seed: number): CtxproItem[] {
  if (part === "all") return shuffled(eligible, seed).slice(0, max);
  const held = new Set(heldBack(eligible));
  if (part === "held-back") return shuffled(eligible, seed).filter((it) => held.has(it)).slice(0, max);
  return shuffled(eligible, seed).filter((it) => !held.has(it)).slice(0, max);
}
