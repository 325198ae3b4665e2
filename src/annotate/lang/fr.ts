/**
 * French: its object clitics (*le, la, les, l'* are also articles), the words only a verb can follow, and its
 * auxiliaries.
 */
import type { LanguageRules } from "../language-rules.js";
import { nounOnlyForms, verbOnlyForms } from "../reread.js";
import { redecideClitics, verbAfterClitic } from "./romance.js";

export const FRENCH: LanguageRules = {
  lang: "fr",
  nounLexicon: "all",
  objectClitics: new Set(["me", "te", "se", "le", "la", "les", "lui", "leur", "y", "en", "m'", "t'", "s'", "l'"]),
  nounLexiconTellsArticle: true,
  articleClitics: true,
  auxLemmas: new Set(["être", "avoir", "pouvoir", "devoir", "faire", "aller", "venir", "vouloir", "savoir"]),
  // Subject pronouns, "ne", non-article clitics: only a verb (or another clitic) follows them.
  verbAfter: new Set(["je", "j'", "tu", "il", "elle", "on", "nous", "vous", "ils", "elles", "ne", "n'", "me", "m'", "te", "t'", "se", "s'", "lui", "leur", "y"]),
  labelPasses: [verbAfterClitic, verbOnlyForms, nounOnlyForms, redecideClitics],
};
