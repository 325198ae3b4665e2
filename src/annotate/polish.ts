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
