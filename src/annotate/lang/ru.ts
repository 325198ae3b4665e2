/**
 * Russian: the tagger's labels restricted by az's dictionary and by the cases a preposition governs, the answer
 * particle *нет*, and the lemma the treebank tags AUX.
 */
import type { LanguageRules, TaggerView } from "../language-rules.js";
import { azLabelTest } from "../russian-az.js";
import { nounOnlyForms, verbOnlyForms } from "../reread.js";

/**
 * Cases a Russian preposition governs (UD Case values; its object and the modifiers before it are in
 * one of them): "о машине" Loc, not Dat; "у меня" Gen, not Acc.
 */
export const RU_PREPOSITION_CASES: ReadonlyMap<string, readonly string[]> = new Map<string, readonly string[]>([
  ...["о", "об", "обо"].map((p) => [p, ["Loc", "Acc"]] as const),
  ...["в", "во", "на"].map((p) => [p, ["Acc", "Loc"]] as const),
  ["при", ["Loc"]],
  ["по", ["Dat", "Loc", "Acc"]],
  ...["к", "ко", "благодаря", "согласно", "навстречу"].map((p) => [p, ["Dat"]] as const),
  ...["у", "без", "безо", "для", "из", "изо", "от", "ото", "до", "около", "вокруг", "после", "кроме", "из-за", "из-под", "среди", "возле", "мимо", "против", "вместо", "ради", "вдоль", "насчёт", "насчет", "вроде", "позади", "внутри", "напротив"].map((p) => [p, ["Gen"]] as const),
  ...["с", "со"].map((p) => [p, ["Ins", "Gen", "Acc"]] as const),
  ...["за", "под", "подо"].map((p) => [p, ["Ins", "Acc"]] as const),
  ...["над", "надо", "перед", "передо", "между", "меж"].map((p) => [p, ["Ins"]] as const),
  ...["через", "про", "сквозь", "сквозь"].map((p) => [p, ["Acc"]] as const),
]);

const PUNCT_ONLY = /^[\p{P}\p{S}]+$/u;
/**
 * Russian "нет" as the answer "no" (a particle), not the existential verb ("Денег нет."): the first word of
 * the line (after punctuation only) followed by punctuation or nothing ("Нет, вам!", "- Нет."), or a tag
 * question after a comma (", нет?").
 */
function answerNo(words: readonly string[], i: number): boolean {
  const next = words[i + 1];
  const endsHere = next === undefined || PUNCT_ONLY.test(next);
  if (!endsHere) return false;
  if (words.slice(0, i).every((w) => PUNCT_ONLY.test(w))) return true;
  return i > 0 && words[i - 1] === "," && (next === undefined || next === "?");
}

export const RUSSIAN: LanguageRules = {
  lang: "ru",
  nounLexicon: "all",
  labelTest: azLabelTest,
  prepositionCases: RU_PREPOSITION_CASES,
  // The preposition cases need az to spot a modifier between the preposition and its noun ("о вашей машине").
  prepositionCasesNeedDictionary: true,
  fixedLabels(t: TaggerView, words, lower, i) {
    if (!t.labelTest || lower[i] !== "нет" || !answerNo(words, i)) return undefined;
    const part = t.labelIds("PART");
    return { ids: part.length ? part : undefined };
  },
  auxLemmas: new Set(["быть"]),
  labelPasses: [verbOnlyForms, nounOnlyForms],
};
