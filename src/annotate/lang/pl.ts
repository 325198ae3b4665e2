/**
 * Polish: the cases its prepositions govern and its endings leave (it has no dictionary here, so a word's ending
 * and the preposition before it restrict the tagger's case labels), the case of *jej*, and, after alignment, the
 * words of verb-less fragments that the tagger reads as verbs or in a case their ending rules out.
 */
import type { AnnToken, SentenceAlignment } from "../types.js";
import type { AlignmentPass, EndingCases, LanguageRules, SingularCases, TaggerView, Tagged } from "../language-rules.js";
import { nounOnlyForms, verbOnlyForms } from "../reread.js";
import { alignedNounsPass, alignedNumbersPass, copiedNames, misTaggedNominals } from "../aligned-retag.js";

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
 * Polish: the cases an open-class word's ending leaves (UD Case values), for MorphTagger.endingCases:
 * endings that only some cases have. `adjectival`: the restriction holds for adjective,
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
 *   4 letters or more): not Gen, Dat or Voc ("Z Benem/PROPN|Gen" before);
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
 * Checked against UD Polish-LFG dev+test (gold tags; docs/lab/annotate.md): at most 5 % (-owi, -emu: 1 token each)
 * of the tokens a rule covers have a case it rules out, after the exceptions below.
 */
export function plEndingCases(lower: string, name = false): EndingCases | undefined {
  if (!/^\p{Ll}+$/u.test(lower) || PL_ENDING_EXCEPTIONS.has(lower)) return undefined;
  if (plNoCase(lower, name)) return { cases: [], noCase: true };
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
  const sing = plSingularNounCases(lower);
  return sing ? { cases: PL_CASES, sing } : undefined;
}


/**
 * Polish words that take no case: adverbs, particles and interjections, which the tagger, reading
 * a verb-less fragment, may label as a noun or adjective with a case (*Rety/NOUN|Nom* "gosh", *wielce/ADJ|Nom*
 * "greatly"). Two sources, none of them CTXPRO items:
 *
 * - every form of UD Polish-LFG dev (the tagger's training data) tagged only ADV, PART or INTJ there, not a
 *   preposition, less the forms with a noun, determiner or verb reading in Polish (*rano* "morning", *dziś,
 *   dzisiaj, wczoraj* as nouns after *od*, *otwarcie* "opening", *trochę*, *trudno*): 218 forms;
 * - the common interjections and a few degree adverbs of Polish grammars (*ach, och, oj, ojej, rety, jejku, aha,
 *   hej, halo, hura, ups, fuj, wielce, nader, ...*);
 * - adverbs in *-owo* of 7 letters or more, made from adjectives in *-owy* (*zawodowo, naukowo, stopniowo,
 *   częściowo*; not *słowo* and its compounds; not a capitalised word inside a line, `name`: place names
 *   *Grabowo*). UD: 11 tokens, all ADV.
 */
export function plNoCase(lower: string, name = false): boolean {
  if (PL_NO_CASE.has(lower)) return true;
  return !name && lower.length >= 7 && /owo$/.test(lower) && !/słowo$/.test(lower);
}
const PL_NO_CASE = new Set([
  // UD Polish-LFG dev: ADV, PART or INTJ only
  ..."ależ bardziej bardzo bezinteresownie bezpowrotnie bezprawnie bezradnie błyskawicznie błędnie całkiem całkowicie celowo chciwie chyba chętnie ciągle ciężko codziennie coraz czemu czyżby często częściej częściowo dalej dawno dlaczego dlatego dobrowolnie dobrze dokładnie dopiero dotychczas dotąd duszno dwukrotnie dyskretnie długo dłużej faktycznie gdzie gdzieś gwałtownie głośno głównie głęboko ha idealnie istotnie jakoś jakże jednak jedynie jeszcze już karnie kiedyś kilkakrotnie kompleksowo krótko lekko lepiej machinalnie mało mniej mocniej mocno nadal nadspodziewanie nagle najbardziej najczęściej najgorzej najmniej najmocniej najpierw naprawdę naprzód następnie natychmiast nawet nazajutrz niby niechętnie nieco niedawno niedługo niekiedy nieludzko niemal nieodwołalnie niepewnie niepomiernie niepostrzeżenie nieraz niespodziewanie niestety niewinnie niewątpliwie niezależnie nieznacznie niełatwo nigdy nigdzie no normalnie obecnie ociężale oczywiście odkąd odręcznie odtąd opiekuńczo osobiście ostatecznie ostatnio ostro ostrożnie oto paskudnie pewnie pewno pilnie podobnie podobno ponownie poprawnie potem poważnie powoli prawdopodobnie prawie precz prosto przecież przynajmniej prędzej publicznie punktualnie później raczej regularnie rychło rzadko rzeczywiście również różnie satyrycznie serdecznie skąd specjalnie spokojnie sprawnie stamtąd stopniowo stąd szczególnie szeroko szybko słabo tak także tam teraz też tu tutaj twardo tymczasem typowo uważnie wcale wciąż wcześnie wcześniej widocznie wkrótce wnet wprost wprzód wraz wreszcie wspólnie wtedy wulgarnie wyczekująco wygodniej wyjątkowo wyraźnie wyraźniej wysoko wytrwale wówczas właściwie właśnie zaledwie zapewne zaraz zawczasu zawsze zbyt zgodnie znakomicie znowu znów zresztą zupełnie zwycięsko zwykle zwłaszcza łatwiej łatwo ściśle śmiertelnie świadomie świetnie źle żarliwie".split(" "),
  // Polish grammar: interjections and degree adverbs
  ..."ach ech eh och oj ojej ojejku ojoj ojojoj jejku jejciu rety aha acha aj au auć fuj hej halo hola hura hurra ups uff psst cii sza haha hehe hm hmm mhm łał wow tja ejże nuże wielce nader".split(" "),
]);

const PL_CASES: readonly string[] = ["Nom", "Gen", "Dat", "Acc", "Ins", "Loc", "Voc"];

/**
 * Polish: the cases a singular noun's ending leaves, for the noun, proper-noun and pronoun labels of some genders
 * (EndingCases's `sing`). From the declensions, then checked against UD Polish-LFG dev+test gold tags
 * (docs/lab/annotate.md):
 *
 * - *-ie* after a hard consonant (*-mie, -nie, -cie, -dzie, -bie, -pie, -wie, -fie, -sie, -zie*) and *-rze*
 *   (the hard stem softened before the ending *-e*: *Obama → Obamie, plan → planie, jubilat → jubilacie,
 *   Marta → Marcie, doktor → doktorze*), and *-le* (*stół → stole, szkoła → szkole*; not *-lle*, foreign
 *   names: *Michelle*): a masculine or feminine singular noun so ending is dative, locative or vocative,
 *   never nominative, genitive, accusative or instrumental (the nominative of masculine nouns ends in a
 *   consonant or *-a*, of feminine ones in *-a, -i* or a consonant; neuter nouns in *-nie, -cie, -wie, -le,
 *   -rze*, *zdanie, życie, zdrowie, pole, morze*, are nominative or accusative, so neuter labels keep every
 *   case; plurals, *konie, ludzie, lekarze*, too). UD: 215 + 18 tokens, 0 and 1 (*Michelle*, before the
 *   *-lle* exception) ruled out. After *-mie, -bie, -pie, -fie, -sie, -zie* (not *-dzie*) the same holds for
 *   neuter nouns (their locative: *niebie, Rzymie*; no neuter nominative ends so), which the tagger picks for
 *   a fragment's *Obamie/NOUN|Neut|Nom*: UD 50 tokens, 0 ruled out; neuter *-nie, -cie, -wie, -le, -rze* are
 *   often nominative or accusative (*błonie, Zawrocie, zdrowie, pole, morze*) and keep every case. No
 *   masculine or feminine singular adjective or determiner ends in *-ie* (UD: 0 of 27 adjectives in *-cie,
 *   -nie, -wie, -pie, -dzie, -rze, -le*), and no adjective or determiner at all in *-mie, -bie, -fie, -sie, -zie*
 *   (UD: none; *głupie* has *-pie*): those labels are ruled out too (the tagger's escape from a ruled-out noun
 *   label: *glebie/ADJ|Neut|Plur*).
 *
 * Not kept: *-y* after a consonant and *-i* after a consonant other than *n* leave a feminine singular noun Gen, Dat
 * or Loc (UD: 168 and 182 tokens, 1 each ruled out: *lady, Pepsi*), and masculine *-gi, -ki* the genitive (*kolegi*),
 * but the tagger, held off a singular label there, escapes to a worse one (*próby/ADJ*, *wysiągi/VERB*) and no
 * inflection item gained.
 */
export function plSingularNounCases(lower: string): readonly SingularCases[] | undefined {
  if (lower.length < 4) return undefined;
  if (/([bfms]ie|[^d]zie)$/.test(lower)) return PL_SG_MIE_ADJ;
  if (/pie$/.test(lower)) return PL_SG_MIE;
  if (/([cnw]ie|dzie|rze)$/.test(lower) || (/le$/.test(lower) && !/lle$/.test(lower))) return PL_SG_IE;
  return undefined;
}
const PL_SG_IE: readonly SingularCases[] = [
  { upos: ["NOUN", "PROPN", "PRON"], genders: ["Masc", "Fem"], cases: ["Dat", "Loc", "Voc"] },
  { upos: ["ADJ", "DET"], genders: ["Masc", "Fem"], cases: [] },
];
const PL_SG_MIE: readonly SingularCases[] = [{ upos: ["NOUN", "PROPN", "PRON"], genders: ["Masc", "Fem", "Neut"], cases: ["Dat", "Loc", "Voc"] }];
const PL_SG_MIE_ADJ: readonly SingularCases[] = [...PL_SG_MIE, { upos: ["ADJ", "DET"], genders: ["Masc", "Fem", "Neut"], cases: [], anyNumber: true }];

/**
 * Whether a Polish word read with this label, in a verb-less line where it renders an English singular noun
 * or proper noun, is to be re-read as a singular masculine or feminine noun in the dative or vocative (the
 * locative needs a preposition; the re-reading after alignment's `oblique`): its ending is one of plSingularNounCases' *-ie* endings (*Obamie, Marcie,
 * Rodionie, Jubilacie*), which no singular nominative, genitive, accusative or instrumental has but a neuter
 * noun's (*zdanie, życie, zdrowie, pole, morze, narzędzie*), and its label is none of those three cases in
 * the singular. The tagger, reading a one-word fragment, escapes to a plural, neuter, adjective or
 * determiner label (*Rodionie/NOUN|Masc|Plur|Nom*, *Marcie/DET|Nom*, *Obamie/ADJ|Neut|Plur|Nom*); the English
 * noun's number decides the plural, and the neuter nominative is kept only for the shapes neuter nouns have:
 * verbal nouns in *-anie, -enie* and *-cie* after *y, i, u, ę, ś* (*pytanie, życie, zajęcie, wejście*), *-owie*,
 * *-ole, -ele*, *-orze, -órze*, *-ędzie*, *-dnie*.
 */
export function plObliqueSingular(lower: string, upos: string, feats: Readonly<Record<string, string>>): boolean {
  if (!/^\p{Ll}+$/u.test(lower) || PL_ENDING_EXCEPTIONS.has(lower)) return false;
  const rules = plSingularNounCases(lower);
  if (rules !== PL_SG_IE && rules !== PL_SG_MIE && rules !== PL_SG_MIE_ADJ) return false;
  if (!["NOUN", "PROPN", "PRON", "ADJ", "DET", "NUM"].includes(upos)) return false;
  if (feats.Number === "Sing" && ["Dat", "Loc", "Voc"].includes(feats.Case ?? "") && feats.Gender !== "Neut") return false;
  if (rules === PL_SG_IE && feats.Gender === "Neut" && /([ae]nie|[yiuęś]cie|owie|[oe]le|[oó]rze|ędzie|dnie)$/.test(lower)) return false;
  return true;
}

/**
 * Whether a Polish word read with this label, in a verb-less line where it renders an English singular person
 * noun, is to be re-read in the dative or vocative (RetagOptions.oblique, after alignment): a masculine noun in
 * consonant + *-u* (5 letters or more) read as a singular noun or proper noun in another case than the dative,
 * locative or vocative (*Skrzypku/NOUN|Gen* "Fiddler!"). A personal masculine noun's genitive ends in *-a*
 * (*skrzypka, człowieka*); its *-u* forms are the dative (*panu, bratu*), locative and vocative (*wujku,
 * człowieku, synu*). UD Polish-LFG dev+test: 24 personal masculine singular nouns so ending, none genitive.
 */
export function plPersonU(lower: string, upos: string, feats: Readonly<Record<string, string>>): boolean {
  if (!/^\p{Ll}{4,}[bcdfghjklłmnprstwzżźćńś]u$/u.test(lower) || PL_ENDING_EXCEPTIONS.has(lower)) return false;
  if (upos !== "NOUN" && upos !== "PROPN") return false;
  return !(feats.Number === "Sing" && ["Dat", "Loc", "Voc"].includes(feats.Case ?? ""));
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
 * Polish verbs whose object in the dative is the only object they take with a third-person pronoun:
 * *pomóc jej*, *ufam jej*, *przyglądać się jej*. Lemmas, and the stems their forms begin with
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

/** Parts of speech after a possessive *jej* (its noun phrase). */
const PL_POSSESSED = new Set(["NOUN", "PROPN", "ADJ", "NUM", "DET"]);
/** Polish dative-only personal pronouns (with one of them in the clause, *jej* is not the dative object). */
const PL_DATIVE_PRONOUNS = new Set(["mi", "mu", "ci", "nam", "wam", "im", "jemu", "tobie", "sobie", "niemu"]);

/** Forms of Polish *być* (be) that a predicate noun or adjective follows. */
const PL_BYC = new Set(["być", "jest", "są", "jestem", "jesteś", "jesteśmy", "jesteście", "był", "była", "było", "byli", "były", "byłem", "byłam", "byłeś", "byłaś", "byliśmy", "byłyśmy", "byliście", "byłyście", "będzie", "będą", "będę", "będziesz", "będziemy", "będziecie", "bądź", "bądźcie", "byłby", "byłaby", "byłoby", "byliby", "byłyby", "zostać", "został", "została", "zostanie", "zostaniesz"]);

const PL_YM_CASES: readonly string[] = ["Ins", "Loc", "Dat"];
/** Words in *-ym, -im* that are no adjective form: the conjunction *zanim* and nouns whose nominative ends so. */
const PL_YM_NOT = new Set(["zanim", "pielgrzym", "olbrzym", "synonim", "antonim", "homonim", "pseudonim", "anonim", "akronim", "toponim", "reżim"]);
/**
 * Polish: whether word k is an adjectival modifier in *-ym, -im* (4 letters or more: *jakim, twoim, nowym,
 * wielkim*; not *tym, nim*), whose noun right after it agrees in the instrumental, locative or dative
 * ("Jakim planie?" Loc, not *planie/NOUN|Neut|Acc*). Not a capitalised word after the line's first word
 * (names: *Joachim*, *Hakim*), not *zanim* nor a noun in *-ym, -im* (*pseudonim, pielgrzym*; PL_YM_NOT), not an
 * active participle in *-ącym, -ącim*, which takes its own object (*otaczającym fort*, *niosącym pomoc*). UD
 * Polish-LFG dev+test: 122 nouns after a word in *-ym, -im*, 4 in another case, 3 of them after *-ącym*; without
 * those, 1 of 109 (*w lutym emisje*, the noun *luty*).
 */
function plYmModifier(words: readonly string[], lower: readonly string[], k: number): boolean {
  const w = lower[k]!;
  if (!/^\p{Ll}{2,}[yi]m$/u.test(w) || /ąc[yi]m$/.test(w) || PL_YM_NOT.has(w)) return false;
  return !/^\p{Lu}/u.test(words[k]!) || !words.slice(0, k).some((x) => /\p{L}/u.test(x));
}

/**
 * The labels left to a Polish open-class word (no dictionary here): the word's ending's cases (`plEndingCases`,
 * applied by the tagger), then, right after an adjectival modifier in *-ym, -im*, the cases a noun agreeing with
 * it can have ("Jakim planie?" Loc, not *planie/NOUN|Neut|Acc*), and, right after a form of *być*, no verb for a
 * word in *-ą*: it is the predicate's instrumental (or accusative), not a third-person plural verb ("jesteście
 * drużyną/VERB", "być ofiarą/VERB").
 */
function polishOpenClassLabels(t: TaggerView, words: readonly string[], lower: readonly string[], i: number, ids: readonly number[] | undefined): readonly number[] | undefined {
  let byEnding = ids;
  if (i > 0 && plYmModifier(words, lower, i - 1)) byEnding = t.nounCases(byEnding, PL_YM_CASES);
  return i > 0 && PL_BYC.has(lower[i - 1]!) && /\p{Ll}{3,}ą$/u.test(lower[i]!) ? t.withoutVerbLabels(byEnding) : byEnding;
}

/**
 * Polish *jej* (Gen or Dat of *ona*) as the object of a verb that governs the dative (plDativeVerb: *pomóc
 * jej*, *Ufam jej*, *Pozwól jej się gotować*, *udało jej się*) is Dat: in its clause (between
 * punctuation and conjunctions), not after a preposition, not before a noun, adjective, numeral or
 * determiner (the possessive *jej nazwę*), and with no other dative pronoun there (*mi jej dać*: then
 * *jej* is the thing given). A *jej* with a verb in its clause that governs no dative is Gen; other *jej*
 * keep the tagger's case.
 */
export function polishJejCase(tg: TaggerView, _words: readonly string[], lower: readonly string[], out: Tagged[]): void {
  for (let i = 0; i < out.length; i++) {
    const t = out[i]!;
    if (lower[i] !== "jej" || t.upos !== "PRON" || t.feats.Poss === "Yes") continue;
    if (i > 0 && out[i - 1]!.upos === "ADP") continue;
    const next = out[i + 1];
    if (next && PL_POSSESSED.has(next.upos)) continue;
    const bound = (u: string) => u === "PUNCT" || u === "SCONJ" || u === "CCONJ";
    let lo = i;
    while (lo > 0 && !bound(out[lo - 1]!.upos)) lo--;
    let hi = i;
    while (hi + 1 < out.length && !bound(out[hi + 1]!.upos)) hi++;
    const clause = lower.slice(lo, hi + 1);
    if (clause.some((w) => PL_DATIVE_PRONOUNS.has(w))) continue;
    const sie = clause.includes("się");
    let dat = false;
    let verb = false;
    for (let k = lo; k <= hi && !dat; k++) {
      const u = out[k]!.upos;
      if (u !== "VERB" && u !== "AUX") continue;
      verb = true;
      if (plDativeVerb(lower[k]!, out[k]!.lemma, sie)) dat = true;
    }
    // The object of any other verb is genitive (negation, genitive verbs: *Nie możesz jej dotknąć*,
    // *szukać jej*); the tagger reads such *jej* Gen or Dat about at random.
    const c = dat ? "Dat" : verb ? "Gen" : undefined;
    if (!c || t.feats.Case === c) continue;
    const a = (tg.table.get("jej") ?? []).find((x) => x.upos === "PRON" && x.feats.Case === c && x.feats.Poss !== "Yes");
    if (a) out[i] = { upos: a.upos, feats: { ...a.feats }, lemma: t.lemma };
  }
}


const VERB_TAGS = new Set(["VERB", "AUX"]);

/**
 * Polish words of a verb-less English line's target whose every link goes to an English singular noun or
 * proper noun and whose *-ie* ending rules out their label (plObliqueSingular: *Obamie/ADJ|Nom* for "Obama",
 * *Marcie/DET|Nom* for "Marta", *Rodionie/NOUN|Plur|Nom* for "Rodion"), and words in consonant + *-u* read in
 * another case than Dat, Loc, Voc whose every link goes to an English singular person noun (plPersonU: *Skrzypku*
 * GEN for "Fiddler!"; `person`, the resolver's lexicons): re-tagged as singular masculine or feminine nouns in the
 * dative or vocative (the locative these endings also leave needs a preposition). Not the names copiedNames
 * keeps in the nominative (*Annie* for "Annie"), nor words right after a preposition, whose case it restricts.
 */
export function obliqueNouns(
  en: readonly AnnToken[],
  tgt: readonly AnnToken[],
  links: SentenceAlignment,
  names: ReadonlySet<number> = new Set(),
  person?: (lemma: string) => boolean,
): Set<number> {
  const at = new Set<number>();
  if (en.some((t) => VERB_TAGS.has(t.upos))) return at;
  tgt.forEach((t, j) => {
    if (names.has(j) || (j > 0 && tgt[j - 1]!.upos === "ADP")) return;
    const ls = links.filter((l) => l[1] === j);
    if (!ls.length) return;
    const lower = t.text.toLowerCase();
    const singular = (upos: readonly string[]) => ls.every((l) => upos.includes(en[l[0]]!.upos) && en[l[0]]!.feats.Number !== "Plur");
    if (plObliqueSingular(lower, t.upos, t.feats) && singular(["NOUN", "PROPN"])) at.add(j);
    // A masculine noun in consonant + *-u* that renders an English person noun: not its genitive (*-a* for
    // persons: *skrzypka*) nor nominative, accusative or instrumental, but its dative or vocative (*panu,
    // Skrzypku!*); UD Polish-LFG: 24 personal masculine nouns so ending, none genitive.
    else if (person && plPersonU(lower, t.upos, t.feats) && singular(["NOUN", "PROPN"]) && ls.every((l) => person((en[l[0]]!.lemma || en[l[0]]!.text).toLowerCase()))) at.add(j);
  });
  return at;
}

/**
 * In a verb-less English line's target, the words the tagger reads as verbs although every link of theirs goes
 * to an English nominal (`misTaggedNominals`: the Polish tagger reads the first word of a verb-less fragment as a
 * verb) and the names copied from English (`copiedNames`) are tagged again, held to nominal labels and the
 * nominative; then the singular nouns whose ending leaves the dative or vocative (`obliqueNouns`).
 */
const polishFragments: AlignmentPass = (tagger, { en, tgt, alignment, person }) => {
  for (let i = 0; i < tgt.length; i++) {
    const text = tgt[i]!.text;
    const at = misTaggedNominals(en[i]!.tokens, tgt[i]!.tokens, alignment[i]!);
    const names = copiedNames(en[i]!.tokens, tgt[i]!.tokens, alignment[i]!, tagger.prepositionCases);
    if (at.size || names.size) tgt[i] = tagger.annotate(text, { nominal: at, names });
    const oblique = obliqueNouns(en[i]!.tokens, tgt[i]!.tokens, alignment[i]!, names, person);
    if (oblique.size) tgt[i] = tagger.annotate(text, { nominal: at, names, oblique });
  }
};

export const POLISH: LanguageRules = {
  lang: "pl",
  nounLexicon: "all",
  prepositionCases: PL_PREPOSITION_CASES,
  // *ze* before a verb is *że* written without its diacritic in subtitles ("Chyba ze przejdzie").
  verbAfterPreposition: (preposition) => preposition === "ze",
  endingCases: plEndingCases,
  openClassLabels: polishOpenClassLabels,
  labelPasses: [verbOnlyForms, nounOnlyForms],
  wordPasses: [polishJejCase],
  knownNoun: (t: TaggerView, lower: string) => t.nouns?.lookup(lower, lower) !== undefined,
  alignmentPasses: [polishFragments, alignedNounsPass(), alignedNumbersPass],
};
