/**
 * The measurement switches of issue 24's levers (docs/annotate.md, "Issue 24: levers on extraction recall
 * and precision"): each lever that can be turned off, or set to another mode, to reproduce the "before" rows
 * of that table. The library takes them as a typed value (`Levers`, default `DEFAULT_LEVERS`: every lever as
 * shipped) through its options: `loadDefaultMorph`'s and `MorphTagger`'s (the taggers), `TagAnchorOptions`
 * (the aligner's tag anchors), `defaultAnnotators`' (both), `annotateDoc`'s and `EngineOptions` (identify and
 * the engine), and the Polish ending functions' parameters. It never reads the environment for them: the
 * entry points that document such switches (scripts/ctxpro-recall.ts, scripts/eval-morph.ts,
 * scripts/bench-ctxpro-identify.ts, `proneval ctxpro identify`) read it once with `leversFromEnv` and pass
 * the result down, so `PRONEVAL_X=0 node dist/scripts/ctxpro-recall.js ...` works as before.
 */

/** How the verb lexicon re-reads NOUN-tagged words it knows only as verb forms (`MorphTagger.verbRead`). */
export type VerbReadMode = "all" | "verbless" | "off";
const VERB_READ_MODES: readonly VerbReadMode[] = ["all", "verbless", "off"];

export interface Levers {
  // --- the taggers (src/annotate/morph.ts) ---
  /** Verb lexicons attached where a language has one (lever 8; PRONEVAL_VERB_LEXICON=0 off). */
  readonly verbLexicon: boolean;
  /** Re-read of NOUN-tagged words the verb lexicon knows only as verb forms: every line, verb-less lines only, or off (lever 8; PRONEVAL_VERB_READ=all|verbless|off). */
  readonly verbRead: VerbReadMode;
  /** Russian labels restricted by az's dictionary, `MorphTagger.labelTest` (lever 11c; PRONEVAL_LEXICON_TAGS=0 off). */
  readonly lexiconTags: boolean;
  /** The cases a preposition governs restrict the next word's labels, Russian and Polish (levers 11d, 15b; PRONEVAL_PREP_CASES=0 off). */
  readonly prepositionCases: boolean;
  /** "Article + noun" re-read as "object clitic + verb" in verb-less lines (issue 13's clitic re-reading; PRONEVAL_CLITIC_VERB=0 off). */
  readonly cliticVerb: boolean;
  /** Object-clitic homograph before a hidden verb re-read in lines with a verb too (lever 14a; PRONEVAL_CLITIC_VERB_ALL=0 off). */
  readonly cliticVerbAll: boolean;
  /** A word tagged VERB right after a determiner that only the noun lists know re-read as a noun (lever 14g; PRONEVAL_NOUN_READ=0 off). */
  readonly nounRead: boolean;
  /** English *it* after a lexical verb or preposition, no verb following, read as Acc (lever 14h; PRONEVAL_IT_CASE=0 off). */
  readonly englishItCase: boolean;
  /** No locative without a governing preposition in a line with a verb, `MorphTagger.withoutLocative` (lever 15c; PRONEVAL_NO_LOC=0 off). */
  readonly withoutLocative: boolean;
  /** Polish endings restrict the cases of open-class words, `MorphTagger.endingCases` (lever 19b; PRONEVAL_ENDING_CASES=0 off). */
  readonly endingCases: boolean;
  /** Polish *jej* as the object of a dative-governing verb read as Dat, `polishJejCase` (lever 19c; PRONEVAL_PL_DATIVE=0 off). */
  readonly plJejCase: boolean;
  /** Polish *jej* with a verb in its clause that governs no dative read as Gen, 19c's genitive side (lever 19c; PRONEVAL_PL_JEJ_GEN=0 off). */
  readonly plJejGenitive: boolean;
  /** Spanish clitic homographs read by the article's agreement, `esAgreementClitic` (lever 20a; PRONEVAL_ES_AGREE=0 off). */
  readonly esAgreement: boolean;
  /** English clause-initial *you* before a comma, with a verb later, read as Nom (lever 20d; PRONEVAL_YOU_COMMA=0 off). */
  readonly youCommaNominative: boolean;
  /** Polish singular noun endings (*-ie, -le, -rze*) rule out cases, `plSingularNounCases` in `plEndingCases` (lever 22a; PRONEVAL_PL_NOUN_ENDINGS=0 off). */
  readonly plNounEndings: boolean;
  /** Polish adverbs, particles and interjections take no case, `plNoCase` in `plEndingCases` (lever 22b; PRONEVAL_PL_NO_CASE=0 off). */
  readonly plNoCase: boolean;
  /** A Polish noun after an adjectival modifier in *-ym, -im* keeps only Ins, Loc, Dat (lever 22d; PRONEVAL_PL_YM_AGREE=0 off). */
  readonly plYmAgreement: boolean;

  // --- the aligner's tag anchors (src/annotate/tag-anchors.ts) ---
  /** An English nominative pronoun and an accusative-only target pronoun penalised like a person clash, `caseClash` (lever 20b; PRONEVAL_CASE_CLASH=0 off). */
  readonly caseClash: boolean;
  /** The formal-you link also for a *you* linked only to target function words (lever 20c; PRONEVAL_FORMAL_YOU_FREE=0 off). */
  readonly formalYouFree: boolean;

  // --- identify's re-reading of the target (src/ctxpro/identify.ts) ---
  /** Target words tagged as verbs in verb-less lines re-read as nominals by their English links (lever 19a; PRONEVAL_NOMINAL_RETAG=0 off). */
  readonly nominalRetag: boolean;
  /** Polish singular nouns in *-ie* (and person nouns in *-u*) re-read as oblique, `obliqueNouns` (lever 22a; PRONEVAL_PL_OBLIQUE=0 off). */
  readonly plOblique: boolean;

  // --- the engine (src/ctxpro/engine.ts) ---
  /** Head moves in force: "cop" the copula's subject (lever 18a), "pp" the prepositional host (lever 18b) (PRONEVAL_HEAD_RULES, comma-separated; empty: none). */
  readonly headRules: readonly string[];
  /** Head moves also for an antecedent that gives no item itself, adding items (lever 18a/18b variant; PRONEVAL_HEAD_NEW=1 on). */
  readonly headNew: boolean;
  /** The subject of a coordinated verb phrase refused as an object pronoun's antecedent, `sharedSubject` (lever 18c; PRONEVAL_SHARED_SUBJECT=0 off). */
  readonly sharedSubject: boolean;
  /** Polish *je* never for a masculine or feminine singular antecedent, `polishPronounAgrees` (lever 18f; PRONEVAL_PL_JE=0 off). */
  readonly plJe: boolean;
  /** Unique fallback: positions levers 16b/17c/18c refuse are no candidates (lever 21b; PRONEVAL_UNIQUE_POSITION=0 off). */
  readonly uniquePosition: boolean;
  /** Unique fallback: none for an expletive or identificational *it* (lever 21c; PRONEVAL_UNIQUE_EXPLETIVE=0 off). */
  readonly uniqueExpletive: boolean;
  /** Unique fallback: none after an earlier unresolved object pronoun in reach (lever 21c; PRONEVAL_UNIQUE_CHAIN=0 off). */
  readonly uniqueChain: boolean;
  /** Unique fallback: nouns of time are no candidates (lever 21c; PRONEVAL_UNIQUE_TIME=0 off). */
  readonly uniqueTime: boolean;
  /** Unique fallback: none for subject *they* (lever 21c; PRONEVAL_UNIQUE_THEY=0 off). */
  readonly uniqueThey: boolean;
  /** Lever 23's steps in force: "a", "b", "d" (23c was not kept) (lever 23; PRONEVAL_L23, comma-separated, e.g. "none"). */
  readonly l23Steps: readonly string[];
  /** One stderr line per lever-23 step applied (document id, segment), for measuring (lever 23; PRONEVAL_L23_TRACE=1 on). */
  readonly l23Trace: boolean;
  /** Items from a fallback antecedent carry `_fallback` ("none" / "clash"), for diagnosis (levers 14b/21; PRONEVAL_FALLBACK_TRACE=1 on). */
  readonly fallbackTrace: boolean;
}

/** Every lever as shipped (what an empty environment gives). */
export const DEFAULT_LEVERS: Levers = Object.freeze({
  verbLexicon: true,
  verbRead: "all",
  lexiconTags: true,
  prepositionCases: true,
  cliticVerb: true,
  cliticVerbAll: true,
  nounRead: true,
  englishItCase: true,
  withoutLocative: true,
  endingCases: true,
  plJejCase: true,
  plJejGenitive: true,
  esAgreement: true,
  youCommaNominative: true,
  plNounEndings: true,
  plNoCase: true,
  plYmAgreement: true,
  caseClash: true,
  formalYouFree: true,
  nominalRetag: true,
  plOblique: true,
  headRules: Object.freeze(["cop", "pp"]),
  headNew: false,
  sharedSubject: true,
  plJe: true,
  uniquePosition: true,
  uniqueExpletive: true,
  uniqueChain: true,
  uniqueTime: true,
  uniqueThey: true,
  l23Steps: Object.freeze(["a", "b", "d"]),
  l23Trace: false,
  fallbackTrace: false,
} satisfies Levers);

/**
 * The levers an environment sets, by the PRONEVAL_* names documented in docs/annotate.md: a switch that is on
 * by default is off only when its variable is "0"; PRONEVAL_HEAD_NEW, PRONEVAL_L23_TRACE and
 * PRONEVAL_FALLBACK_TRACE are on only when "1"; PRONEVAL_VERB_READ takes "all", "verbless" or "off" (anything
 * else: "all"); PRONEVAL_L23 and PRONEVAL_HEAD_RULES are comma-separated lists (unset: "a,b,d" and "cop,pp";
 * set but empty: one empty entry, so none in force). For entry points only: read it once, pass it down.
 */
export function leversFromEnv(env: NodeJS.ProcessEnv): Levers {
  const on = (name: string) => env[name] !== "0";
  return Object.freeze({
    verbLexicon: on("PRONEVAL_VERB_LEXICON"),
    verbRead: VERB_READ_MODES.find((m) => m === env.PRONEVAL_VERB_READ) ?? "all",
    lexiconTags: on("PRONEVAL_LEXICON_TAGS"),
    prepositionCases: on("PRONEVAL_PREP_CASES"),
    cliticVerb: on("PRONEVAL_CLITIC_VERB"),
    cliticVerbAll: on("PRONEVAL_CLITIC_VERB_ALL"),
    nounRead: on("PRONEVAL_NOUN_READ"),
    englishItCase: on("PRONEVAL_IT_CASE"),
    withoutLocative: on("PRONEVAL_NO_LOC"),
    endingCases: on("PRONEVAL_ENDING_CASES"),
    plJejCase: on("PRONEVAL_PL_DATIVE"),
    plJejGenitive: on("PRONEVAL_PL_JEJ_GEN"),
    esAgreement: on("PRONEVAL_ES_AGREE"),
    youCommaNominative: on("PRONEVAL_YOU_COMMA"),
    plNounEndings: on("PRONEVAL_PL_NOUN_ENDINGS"),
    plNoCase: on("PRONEVAL_PL_NO_CASE"),
    plYmAgreement: on("PRONEVAL_PL_YM_AGREE"),
    caseClash: on("PRONEVAL_CASE_CLASH"),
    formalYouFree: on("PRONEVAL_FORMAL_YOU_FREE"),
    nominalRetag: on("PRONEVAL_NOMINAL_RETAG"),
    plOblique: on("PRONEVAL_PL_OBLIQUE"),
    headRules: Object.freeze((env.PRONEVAL_HEAD_RULES ?? "cop,pp").split(",")),
    headNew: env.PRONEVAL_HEAD_NEW === "1",
    sharedSubject: on("PRONEVAL_SHARED_SUBJECT"),
    plJe: on("PRONEVAL_PL_JE"),
    uniquePosition: on("PRONEVAL_UNIQUE_POSITION"),
    uniqueExpletive: on("PRONEVAL_UNIQUE_EXPLETIVE"),
    uniqueChain: on("PRONEVAL_UNIQUE_CHAIN"),
    uniqueTime: on("PRONEVAL_UNIQUE_TIME"),
    uniqueThey: on("PRONEVAL_UNIQUE_THEY"),
    l23Steps: Object.freeze((env.PRONEVAL_L23 ?? "a,b,d").split(",")),
    l23Trace: env.PRONEVAL_L23_TRACE === "1",
    fallbackTrace: env.PRONEVAL_FALLBACK_TRACE === "1",
  });
}
