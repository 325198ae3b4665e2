/**
 * Polish: the cases a preposition governs (UD Case values), for MorphTagger.prepositionCases. Polish has
 * no lexicon here, so only the word right after the preposition is restricted (Russian also takes one
 * modifier in between, which az recognises): "od niego" Gen, not Acc; "dla niej" Gen, not Dat;
 * "dzięki tobie" Dat, not Loc.
 */
export const PL_PREPOSITION_CASES: ReadonlyMap<string, readonly string[]> = new Map<string, readonly string[]>([
  ...["bez", "beze", "dla", "do", "od", "ode", "u", "obok", "około", "koło", "wśród", "spośród", "podczas", "oprócz", "prócz", "według", "zamiast", "spod", "spode", "znad", "sprzed", "zza", "wokół", "dookoła", "mimo", "naokoło", "wzdłuż", "względem", "zamiast", "śród", "pośród", "wobec"].map((p) => [p, ["Gen"]] as const),
  ...["dzięki", "ku", "przeciw", "przeciwko", "wbrew"].map((p) => [p, ["Dat"]] as const),
  ["naprzeciw", ["Dat", "Gen"]],
  ["naprzeciwko", ["Dat", "Gen"]],
  ...["przez", "przeze"].map((p) => [p, ["Acc"]] as const),
  ...["w", "we", "na", "o", "po"].map((p) => [p, ["Acc", "Loc"]] as const),
  ["przy", ["Loc"]],
  ...["z", "ze"].map((p) => [p, ["Ins", "Gen", "Acc"]] as const),
  ...["za"].map((p) => [p, ["Acc", "Ins", "Gen"]] as const),
  ...["pod", "pode", "nad", "nade", "przed", "przede", "między", "pomiędzy", "poza", "ponad"].map((p) => [p, ["Acc", "Ins"]] as const),
]);

/**
 * Polish: the cases an open-class word's ending leaves (UD Case values), for MorphTagger.endingCases
 * (lever 19b): a few endings that are one case only, and the cases no declined word ending in a given
 * letter takes. `undefined`: the ending decides nothing. Only for words the closed-class table does not
 * list (pronouns and determiners keep the table's analyses).
 *
 * - *-ymi, -imi* (adjectives, plural) and *-ami* (nouns, plural; 5 letters or more), *-łmi, -ćmi, -źmi,
 *   -ńmi, -śmi* (*przyjaciółmi, dziećmi, ludźmi, końmi, gośćmi*): Ins;
 * - *-emu* (adjectives and pronouns, singular; 4 letters or more) and *-owi* (masculine nouns; 5 letters or
 *   more): Dat;
 * - *-ą* (feminine singular of adjectives and nouns): Acc or Ins (Loc and Voc never);
 * - *-a*: no Ins, Dat or Loc (feminine nouns end in *-ą* in the instrumental, *-e, -i, -y* in the dative
 *   and locative; masculine *-a* is Gen or Acc);
 * - *-ę*: no Gen, Dat, Ins or Loc (feminine Acc, neuter Nom/Acc: *imię, zwierzę*).
 */
export function plEndingCases(lower: string): readonly string[] | undefined {
  if (!/^\p{Ll}+$/u.test(lower)) return undefined;
  if (/(ymi|imi)$/.test(lower) && lower.length >= 5) return ["Ins"];
  if (/ami$/.test(lower) && lower.length >= 5) return ["Ins"];
  if (/[łćźńś]mi$/.test(lower)) return ["Ins"];
  if (/emu$/.test(lower) && lower.length >= 4) return ["Dat"];
  if (/owi$/.test(lower) && lower.length >= 5) return ["Dat"];
  if (/ą$/.test(lower)) return ["Acc", "Ins"];
  if (/a$/.test(lower)) return ["Nom", "Gen", "Acc", "Voc"];
  if (/ę$/.test(lower)) return ["Nom", "Acc", "Voc"];
  return undefined;
}
