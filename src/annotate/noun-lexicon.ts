/**
 * What a noun lexicon answers (gender, number, case of a noun form), whatever its source: an npm word list
 * (./lexicons.ts) or an external analyser (./apertium.ts).
 */

export interface NounAnalysis {
  gender?: "Masc" | "Fem" | "Neut";
  number?: "Sing" | "Plur";
  /** UD cases whose form this is (German, Russian); several when forms coincide. */
  cases?: string[];
  /** Where `number` is unset because the form is both (pl *twarzy*: gen. sing. and plur.): the numbers it can be. */
  numbers?: Array<"Sing" | "Plur">;
}

export interface NounLexicon {
  readonly name: string;
  /** The analysis of a noun given its surface form and our lemma, or undefined if unknown. */
  lookup(form: string, lemma: string): NounAnalysis | undefined;
  /** Looks up a corpus's words in one batch before the single lookups (an external analyser, ./apertium.ts). */
  prefetch?(words: Iterable<string>): void;
}
