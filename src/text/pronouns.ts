import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PACKAGE_ROOT } from "../version.js";

export type PronounType = "personal" | "possessive" | "reflexive" | "demonstrative" | "relative/interrogative";

export interface PronounInfo {
  pronoun: string;
  person: 1 | 2 | 3;
  number: "sg" | "pl" | "any";
  gender: "masc" | "fem" | "neut" | "any";
  case: Array<"nom" | "acc" | "gen">;
  type: PronounType;
  animacy: "animate" | "inanimate" | "any";
}

/** The pronoun inventory (data/pronouns.json), in the order of eval-anaphora's list. */
export class PronounInventory {
  readonly list: readonly PronounInfo[];
  private readonly byForm: Map<string, number>;

  constructor(list: PronounInfo[]) {
    this.list = list;
    this.byForm = new Map(list.map((p, i) => [p.pronoun, i]));
  }

  /** Index 0..41 of a pronoun (case-insensitive, curly apostrophes irrelevant), or -1. */
  indexOf(word: string): number {
    const i = this.byForm.get(word) ?? this.byForm.get(word.toLowerCase());
    return i === undefined ? -1 : i;
  }

  has(word: string): boolean {
    return this.indexOf(word) >= 0;
  }

  info(word: string): PronounInfo | undefined {
    const i = this.indexOf(word);
    return i < 0 ? undefined : this.list[i];
  }

  get size(): number {
    return this.list.length;
  }

  /**
   * The pronouns that could stand in the place of pronoun i (indices, i excluded): those sharing
   * one of its cases (*it* nom/acc: *he, they, which, that, him, itself*...; *his* gen: *her,
   * their, its*...). What a translation could have put there instead.
   */
  confusable(i: number): number[] {
    const c = new Set(this.list[i]!.case);
    const out: number[] = [];
    this.list.forEach((p, j) => {
      if (j !== i && p.case.some((x) => c.has(x))) out.push(j);
    });
    return out;
  }
}

let cached: PronounInventory | undefined;

/** Loads data/pronouns.json once (the file is immutable package data, so caching is safe). */
export function pronouns(): PronounInventory {
  if (!cached) {
    const raw = JSON.parse(readFileSync(join(PACKAGE_ROOT, "data", "pronouns.json"), "utf8"));
    cached = new PronounInventory(raw.pronouns as PronounInfo[]);
  }
  return cached;
}
