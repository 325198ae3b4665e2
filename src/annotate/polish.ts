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
 * (lever 19b): endings that only some cases have. `adjectival`: the restriction holds for adjective,
 * determiner, numeral and pronoun labels only (nouns and names may end so in the nominative: *Andrzej, kolej,
 * Joachim, Zurich*). `undefined`: the ending decides nothing. Only for words the closed-class table does not
 * list.
 *
 * - *-ymi, -imi* (adjectives, plural) and *-ami* (nouns, plural; 5 letters or more), *-łmi, -ćmi, -źmi,
 *   -ńmi, -śmi* (*przyjaciółmi, dziećmi, ludźmi, końmi, gośćmi*): Ins;
 * - *-emu* (adjectives and pronouns, singular; 4 letters or more; not the genitive of nouns in *-em*:
 *   *problemu, systemu*) and *-owi* (nouns; 5 letters or more; not for ADJ labels: adjectives end so in the
 *   virile nominative plural, *wojskowi*): Dat;
 * - *-ego* (adjectives, masculine/neuter singular; 4 letters or more): Gen or Acc;
 * - no verb form ends in *-ymi, -imi, -ami*, soft consonant + *-mi*, *-emu* or *-ego*, so words ending so are
 *   no VERB or AUX either (*przyjaciółmi/VERB* in "jesteśmy przyjaciółmi");
 * - *-ym* (adjectives, masculine/neuter singular, dative plural; 4 letters or more): Ins, Loc or Dat;
 * - *-om* (nouns, dative plural; 6 letters or more; not *poziom, syndrom, idiom*, PL_OM_NOUNS): Dat, no verb;
 * - *-em* (nouns, instrumental singular; *problem, system* Nom/Acc; adjectival place names *w Zakopanem* Loc;
 *   4 letters or more): not Gen, Dat or Voc (lever 19l: "Z Benem/PROPN|Gen" before);
 *   adjectival *-im* the same;
 * - adjectival *-ej*: Gen, Dat or Loc; adjectival *-ych, -ich*: Gen, Loc or Acc;
 * - *-ą* (feminine singular of adjectives and nouns): Acc or Ins;
 * - *-a*: no Ins, Dat or Loc (feminine nouns end in *-ą* in the instrumental, *-e, -i, -y* in the dative
 *   and locative; masculine *-a* is Gen or Acc);
 * - *-ę*: Acc (feminine singular: *próbę, nazwę*); Nom, Acc or Voc for the neuter nouns in *-ę* (*imię, ramię,
 *   zwierzę, szczenię, książę*, PL_NEUTER_E) and words in *-ię* (*ziemię* Acc beside *imię* Nom);
 * - consonant + *-u* (masculine nouns; 5 letters or more): Gen, Dat, Loc or Voc (not *menu, tabu*; not the
 *   numerals *kilku, wielu, -nastu, -dziestu* nor *po prostu, po polsku, po niemiecku*).
 *
 * Checked against UD Polish-LFG dev+test (gold tags; docs/annotate.md, lever 19): at most 5 % (-owi, -emu: 1 token each)
 * of the tokens a rule covers have a case it rules out, after the exceptions below.
 */
export function plEndingCases(lower: string): PlEnding | undefined {
  if (!/^\p{Ll}+$/u.test(lower) || PL_ENDING_EXCEPTIONS.has(lower)) return undefined;
  const n = lower.length;
  if (/(ymi|imi)$/.test(lower) && n >= 5) return { cases: ["Ins"], noVerb: true };
  if (/ami$/.test(lower) && n >= 5) return { cases: ["Ins"], noVerb: true };
  if (/[łćźńś]mi$/.test(lower)) return { cases: ["Ins"], noVerb: true };
  if (/emu$/.test(lower) && n >= 4 && !PL_EM_NOUN_U.test(lower)) return { cases: ["Dat"], noVerb: true };
  if (/owi$/.test(lower) && n >= 5) return { cases: ["Dat"], notAdj: true };
  if (/ego$/.test(lower) && n >= 4) return { cases: ["Gen", "Acc"], noVerb: true };
  if (/ym$/.test(lower) && n >= 4) return { cases: ["Ins", "Loc", "Dat"] };
  if (/om$/.test(lower) && n >= 6 && !PL_OM_NOUNS.test(lower)) return { cases: ["Dat"], noVerb: true };
  if (/em$/.test(lower) && n >= 4) return { cases: ["Nom", "Acc", "Ins", "Loc"] };
  if (/im$/.test(lower) && n >= 4) return { cases: ["Ins", "Loc", "Dat"], adjectival: true };
  if (/ej$/.test(lower) && n >= 4) return { cases: ["Gen", "Dat", "Loc"], adjectival: true };
  if (/[yi]ch$/.test(lower) && n >= 5) return { cases: ["Gen", "Loc", "Acc"], adjectival: true };
  if (/ą$/.test(lower)) return { cases: ["Acc", "Ins"] };
  if (/a$/.test(lower)) return { cases: ["Nom", "Gen", "Acc", "Voc"] };
  if (/ę$/.test(lower)) return PL_NEUTER_E.test(lower) ? { cases: ["Nom", "Acc", "Voc"] } : { cases: ["Acc"] };
  if (/[bcdfghjklłmnprstwzżźćńś]u$/.test(lower) && n >= 5 && !/(stu|sku|cku)$/.test(lower)) return { cases: ["Gen", "Dat", "Loc", "Voc"] };
  return undefined;
}

/** What a Polish ending leaves: its cases; `adjectival`: for adjectival labels only; `noVerb`: no verb form ends so. */
export interface PlEnding {
  cases: readonly string[];
  /** The restriction holds for ADJ, DET, NUM and PRON labels only. */
  adjectival?: boolean;
  /** The restriction holds for every label but ADJ. */
  notAdj?: boolean;
  noVerb?: boolean;
}
/**
 * Words whose ending misleads plEndingCases: names and nouns in *-ego*; adjectives whose stem ends in *-ym,
 * -im* (*olbrzymi* Nom); *więcej, trzej, czterej* (Acc, Nom); *trochę* (Gen); the numerals *kilku, wielu, paru, ilu, tylu*; the
 * instrumentals in *-ma* (*rękoma, oczyma, dwoma, trzema*).
 */
const PL_ENDING_EXCEPTIONS = new Set(["diego", "lego", "olbrzymi", "rodzimi", "więcej", "trzej", "czterej", "trochę", "kilku", "wielu", "paru", "ilu", "tylu",
  "rękoma", "oczyma", "uszyma", "dwoma", "dwiema", "trzema", "czterema", "oboma", "obiema"]);
/** Nouns whose nominative ends in *-ę* (neuter *-mię* and the young of animals; *książę*), and any word in *-ię*. */
const PL_NEUTER_E = /(ię|zwierzę|cielę|źrebię|kurczę|pisklę|niemowlę|książę|dziewczę|chłopię|orlę|lwię|jagnię|szczenię|kocię|prosię|kaczę|gąsię)$/;
/** Nouns whose nominative ends in *-om* (the dative plural ending otherwise). */
const PL_OM_NOUNS = /(poziom|syndrom|symptom|idiom|kondom|pogrom|chromosom|agronom|ekonom|astronom|metronom|palindrom|hipodrom|aerodrom|kilogram)$/;
/** Genitives of nouns in *-em* (*problemu, systemu*), which look like adjectival datives in *-emu*. */
const PL_EM_NOUN_U = /(problem|system|krem|harem|totem|tandem|modem|tlen|poemat)u$/;

/**
 * Polish verbs whose object in the dative is the only object they take with a third-person pronoun
 * (lever 19c): *pomóc jej*, *ufam jej*, *przyglądać się jej*. Lemmas, and the stems their forms begin with
 * where the lemmatizer misses the lemma (imperatives and vowel alternations: *pozwól*, *pomóż*, *wierzono*).
 * General grammar (the verbs of dative rection in Polish grammars), not read off any test item. Verbs marked
 * `sie` govern the dative only with *się* in the clause (*oprzeć się jej*, but *oprzeć ją*).
 */
const PL_DATIVE: ReadonlyArray<{ lemma: string; stems?: readonly string[]; sie?: boolean }> = [
  { lemma: "pomóc", stems: ["pomóc", "pomóż", "pomoż", "pomog", "pomóg"] },
  { lemma: "pomagać", stems: ["pomaga", "pomagaj"] },
  { lemma: "pozwolić", stems: ["pozwol", "pozwól"] },
  { lemma: "pozwalać", stems: ["pozwala"] },
  { lemma: "kazać", stems: ["kaza", "każ"] },
  { lemma: "rozkazać", stems: ["rozkaza", "rozkaż"] },
  { lemma: "ufać", stems: ["ufa", "ufał", "ufaj"] },
  { lemma: "zaufać", stems: ["zaufa"] },
  { lemma: "wierzyć", stems: ["wierz"] },
  { lemma: "uwierzyć", stems: ["uwierz"] },
  { lemma: "dziękować", stems: ["dzięku", "dziękow"] },
  { lemma: "podziękować", stems: ["podzięku", "podziękow"] },
  { lemma: "powiedzieć", stems: ["powiedz", "powiedział", "powiem", "powiesz", "powie"] },
  { lemma: "mówić", stems: ["mówi", "mów"] },
  { lemma: "odpowiedzieć", stems: ["odpowiedz", "odpowiem", "odpowie"] },
  { lemma: "odpowiadać", stems: ["odpowiada"] },
  { lemma: "służyć", stems: ["służ"] },
  { lemma: "szkodzić", stems: ["szkodz", "szkodź"] },
  { lemma: "zaszkodzić", stems: ["zaszkodz", "zaszkodź"] },
  { lemma: "przeszkadzać", stems: ["przeszkadza"] },
  { lemma: "przeszkodzić", stems: ["przeszkodz", "przeszkodź"] },
  { lemma: "sprzyjać", stems: ["sprzyja"] },
  { lemma: "ulegać", stems: ["ulega"] },
  { lemma: "ulec", stems: ["ulegn", "uległ"] },
  { lemma: "zagrażać", stems: ["zagraża"] },
  { lemma: "zagrozić", stems: ["zagroz", "zagroż"] },
  { lemma: "grozić", stems: ["groz", "groż"] },
  { lemma: "towarzyszyć", stems: ["towarzysz"] },
  { lemma: "przeciwdziałać", stems: ["przeciwdziała"] },
  { lemma: "zapobiec", stems: ["zapobie", "zapobiegn"] },
  { lemma: "zapobiegać", stems: ["zapobiega"] },
  { lemma: "sprostać", stems: ["sprosta"] },
  { lemma: "podołać", stems: ["podoła"] },
  { lemma: "dorównać", stems: ["dorówna"] },
  { lemma: "wybaczyć", stems: ["wybacz"] },
  { lemma: "przebaczyć", stems: ["przebacz"] },
  { lemma: "współczuć", stems: ["współczu"] },
  { lemma: "kibicować", stems: ["kibicu", "kibicow"] },
  { lemma: "przypisać", stems: ["przypisa", "przypisz"] },
  { lemma: "przypisywać", stems: ["przypisuj", "przypisywa"] },
  { lemma: "nadać", stems: ["nadał", "nada"] },
  { lemma: "nadawać", stems: ["nadaj", "nadawa"] },
  { lemma: "zawdzięczać", stems: ["zawdzięcza"] },
  { lemma: "udać", stems: ["udał", "uda"], sie: true },
  { lemma: "przyglądać", stems: ["przygląda"], sie: true },
  { lemma: "przyjrzeć", stems: ["przyjrz", "przyjrze"], sie: true },
  { lemma: "przypatrywać", stems: ["przypatru", "przypatryw"], sie: true },
  { lemma: "przysłuchiwać", stems: ["przysłuchu", "przysłuchiw"], sie: true },
  { lemma: "podobać", stems: ["podoba"], sie: true },
  { lemma: "spodobać", stems: ["spodoba"], sie: true },
  { lemma: "oprzeć", stems: ["oprze", "oprz", "opar", "opór"], sie: true },
  { lemma: "opierać", stems: ["opiera"], sie: true },
  { lemma: "poddać", stems: ["podda"], sie: true },
  { lemma: "poddawać", stems: ["poddaj", "poddawa"], sie: true },
  { lemma: "sprzeciwić", stems: ["sprzeciw"], sie: true },
  { lemma: "przeciwstawić", stems: ["przeciwstaw"], sie: true },
  { lemma: "dziwić", stems: ["dziw"], sie: true },
  { lemma: "przydać", stems: ["przyda"], sie: true },
  { lemma: "należeć", stems: ["należ"], sie: true },
  { lemma: "kłaniać", stems: ["kłania"], sie: true },
  { lemma: "wydawać", stems: ["wydaje", "wydawa"], sie: true },
];
const DATIVE_BY_LEMMA = new Map(PL_DATIVE.map((v) => [v.lemma, v]));

/**
 * Whether a Polish verb (its lowercase form and the tagger's lemma) governs the dative of a pronoun object
 * (PL_DATIVE); `sie`: whether *się* stands in the clause.
 */
export function plDativeVerb(form: string, lemma: string, sie: boolean): boolean {
  const byLemma = DATIVE_BY_LEMMA.get(lemma.toLowerCase());
  if (byLemma) return !byLemma.sie || sie;
  for (const v of PL_DATIVE) {
    if (v.sie && !sie) continue;
    if (v.stems?.some((s) => form.startsWith(s) || form.startsWith("nie" + s))) return true;
  }
  return false;
}
