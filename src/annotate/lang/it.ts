/**
 * Italian: its object clitics (*lo, la, li, le, l'* are also articles), the words that rule out an article before
 * a homograph, and its auxiliaries; after alignment, the clitic homographs and nouns its links reveal.
 */
import type { LanguageRules, TaggerView } from "../language-rules.js";
import { nounOnlyForms, verbOnlyForms } from "../reread.js";
import { alignedNounsPass } from "../aligned-retag.js";
import { alignedCliticsPass, cliticForms, redecideClitics, verbAfterClitic } from "./romance.js";

/** The article homographs of the accusative clitics; *le* is also the feminine dative *to her*: only for *them*. */
export const IT_CLITIC_FORMS = cliticForms(["la", "lo", "li", "l'", "l’"], [["le", ["them"]]]);

export const ITALIAN: LanguageRules = {
  lang: "it",
  nounLexicon: "all",
  objectClitics: new Set(["mi", "ti", "ci", "vi", "si", "lo", "la", "li", "le", "gli", "ne", "me", "te", "glielo", "gliela"]),
  // italian-words-dict tells an article + noun from a clitic + verb.
  nounLexiconTellsArticle: true,
  articleClitics: true,
  auxLemmas: new Set(["essere", "avere", "stare", "potere", "dovere", "volere", "venire", "andare", "sapere"]),
  beforeClitic: new Set(["non", "me", "te", "ce", "ve", "glie", "io", "tu", "lui", "noi", "voi", "chi", "qualcuno", "nessuno"]),
  // Its noun lexicon lists the nouns that are also verb forms, so a clitic homograph's next word is re-read in
  // a line with a verb too ("Non lo usi nemmeno").
  homographVerb: () => ({ inVerbLine: true }),
  labelPasses: [verbAfterClitic, verbOnlyForms, nounOnlyForms, redecideClitics],
  knownNoun: (t: TaggerView, lower: string) => t.nouns?.lookup(lower, lower) !== undefined,
  alignmentPasses: [alignedCliticsPass(IT_CLITIC_FORMS), alignedNounsPass()],
};
