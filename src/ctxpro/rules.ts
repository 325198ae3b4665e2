/**
 * CTXPRO rules as data (Wicks & Post 2023, Sec. 3 and App. A): typed model, validation, and the
 * built-in rule sets shipped under data/ctxpro/rules (Apache-2.0, see data/ctxpro/NOTICE.md).
 */
import { existsSync, readdirSync } from "node:fs";
import { basename, join } from "node:path";
import { InputError } from "../io/errors.js";
import { readText } from "../io/lines.js";
import { PACKAGE_ROOT } from "../version.js";

export const LANGUAGES = ["de", "es", "fr", "it", "pl", "pt", "ru"] as const;
export type Lang = (typeof LANGUAGES)[number];

export const PHENOMENA = ["gender", "formality", "auxiliary", "inflection", "animacy"] as const;
export type Phenomenon = (typeof PHENOMENA)[number];

/** A case constraint: "*" (any), "Nom" (must have), "-Nom" (must not have). */
export type CaseConstraint = string;

/** Gender, formality (and, reversed, animacy): T_s and T_t are an aligned pronoun pair. */
export interface PronounRule {
  type: "pronoun";
  label: string;
  englishForm: string;
  englishCase: CaseConstraint;
  alignedForm: string;
  alignedCase: CaseConstraint;
  /** The surface form a translation must contain (the rule's "expected", else the aligned form). */
  expected: string;
  requiresCoref: boolean;
  /** UPOS of the English antecedent head C_s (gender only). */
  englishCorefPos: string;
  /** UPOS, Gender ("*" = any) and Number of the aligned antecedent head C_t (gender only). */
  alignedCorefPos: string;
  alignedCorefGender: string;
  alignedCorefNumber: string;
}

/** Isolated auxiliaries (verb phrase ellipsis): "do", "will", "would", ... */
export interface AuxiliaryRule {
  type: "auxiliary";
  label: string;
  englishLemma: string;
  /** Lemmas of direct translations: an aligned verb with one of these is not an ellipsis. */
  disallowedAlignedLemmas: string[];
}

/** Inflection of verb-less nouns (PL, RU): T_t carries `case`, like the most recent noun before it. */
export interface InflectionRule {
  type: "inflection";
  label: string;
  case: string;
}

export type Rule = PronounRule | AuxiliaryRule | InflectionRule;

export interface RuleSet {
  /** DE_GENDER, FR_ANIMACY, ... or the file's base name for user rule files. */
  name: string;
  lang: string;
  phenomenon: Phenomenon | "custom";
  /** Animacy: the items are reversed (the non-English side becomes the source). */
  reversed: boolean;
  rules: Rule[];
  /** Where the rules were read from. */
  file: string;
}

const PRONOUN_FIELDS = [
  "english_case",
  "aligned_case",
  "english_form",
  "aligned_form",
  "english_coref_pos",
  "aligned_coref_gender",
  "aligned_coref_number",
  "aligned_coref_pos",
  "requires_coref",
] as const;

function str(obj: Record<string, unknown>, key: string, where: string): string {
  const v = obj[key];
  if (typeof v !== "string") throw new InputError(`${where}: field "${key}" must be a string`);
  return v;
}

function checkCase(c: string, where: string, key: string): string {
  if (c === "*" || /^-?[A-Z][a-z]+$/.test(c)) return c;
  throw new InputError(`${where}: field "${key}" must be "*", a UD case like "Nom" or a negation like "-Nom", got "${c}"`);
}

/** Validates one rule object of a CTXPRO rule file (the released JSON layout). */
export function parseRule(label: string, raw: unknown, where: string): Rule {
  const at = `${where}: rule "${label}"`;
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw new InputError(`${at}: must be an object`);
  const r = raw as Record<string, unknown>;
  const type = str(r, "type", at);
  if (type === "pronoun") {
    for (const f of PRONOUN_FIELDS) str(r, f, at);
    const requires = str(r, "requires_coref", at);
    if (requires !== "true" && requires !== "false") throw new InputError(`${at}: "requires_coref" must be "true" or "false"`);
    const alignedForm = str(r, "aligned_form", at).toLowerCase();
    const expected = r.expected === undefined ? alignedForm : str(r, "expected", at);
    const rule: PronounRule = {
      type: "pronoun",
      label,
      englishForm: str(r, "english_form", at).toLowerCase(),
      englishCase: checkCase(str(r, "english_case", at), at, "english_case"),
      alignedForm,
      alignedCase: checkCase(str(r, "aligned_case", at), at, "aligned_case"),
      expected,
      requiresCoref: requires === "true",
      englishCorefPos: str(r, "english_coref_pos", at),
      alignedCorefPos: str(r, "aligned_coref_pos", at),
      alignedCorefGender: str(r, "aligned_coref_gender", at),
      alignedCorefNumber: str(r, "aligned_coref_number", at),
    };
    if (!rule.englishForm || !rule.alignedForm) throw new InputError(`${at}: empty english_form or aligned_form`);
    if (rule.requiresCoref && (!rule.englishCorefPos || !rule.alignedCorefPos || !rule.alignedCorefNumber)) {
      throw new InputError(`${at}: a rule that requires coreference needs english_coref_pos, aligned_coref_pos and aligned_coref_number`);
    }
    return rule;
  }
  // The released JSON says "do_ellipsis", the Python modules say "auxiliary": same checker.
  if (type === "do_ellipsis" || type === "auxiliary") {
    const lemmas = r.disallowed_aligned_lemmas;
    if (!Array.isArray(lemmas) || lemmas.some((l) => typeof l !== "string")) {
      throw new InputError(`${at}: "disallowed_aligned_lemmas" must be a list of strings`);
    }
    const englishLemma = str(r, "english_lemma", at).toLowerCase();
    if (!englishLemma) throw new InputError(`${at}: empty english_lemma`);
    return { type: "auxiliary", label, englishLemma, disallowedAlignedLemmas: lemmas as string[] };
  }
  if (type === "inflection") {
    const c = str(r, "case", at);
    if (!/^[A-Z][a-z]+$/.test(c)) throw new InputError(`${at}: "case" must be a UD case like "Gen", got "${c}"`);
    return { type: "inflection", label, case: c };
  }
  throw new InputError(`${at}: unknown rule type "${type}" (expected pronoun, do_ellipsis/auxiliary or inflection)`);
}

/**
 * The parts a rule label is built from, dot-separated (a "+" joins two: ACC.INFORM+FORM.PLUR): the case or
 * function (NOM, ACC, DAT, GEN, LOC, INS/INST, DISJ; DO, WILL, ... for auxiliaries; ELL for inflection), formality,
 * gender, number, the possessor's person (1S ... 3P, 2FORM) and variants (ALT, ALT1, ALT2). The engine reads the
 * labels (object rules ACC/DAT, the animacy subset, plural *it*), so a label outside this vocabulary is refused.
 */
export const LABEL_PARTS: ReadonlySet<string> = new Set(
  ("NOM ACC DAT GEN LOC INS INST DISJ DO WILL WOULD MAY MIGHT CON DE EM LIAS ELL FORM INFORM MASC FEM NEUT MIXED SING PLUR " +
    "1S 2S 3SM 3SF 3SN 3M 3F 3N 1P 2P 3P 2FORM ALT ALT1 ALT2").split(" "),
);

/** Whether every part of a label is in LABEL_PARTS. */
export function knownLabel(label: string): boolean {
  return label.length > 0 && label.split(/[.+]/).every((p) => LABEL_PARTS.has(p));
}

/** Parses a whole rule file: an object mapping labels to rules. */
export function parseRuleFile(text: string, file: string): Rule[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new InputError(`not valid JSON (${(e as Error).message})`, file);
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    throw new InputError("a rule file must be a JSON object mapping rule labels to rules", file);
  }
  const rules = Object.entries(json as Record<string, unknown>).map(([label, r]) => parseRule(label, r, file));
  const unknown = rules.map((r) => r.label).filter((l) => !knownLabel(l));
  if (unknown.length) {
    throw new InputError(`unknown rule label${unknown.length > 1 ? "s" : ""} ${unknown.map((l) => `"${l}"`).join(", ")}: a label is dot-separated parts from ${[...LABEL_PARTS].join(" ")}`, file);
  }
  if (rules.length === 0) throw new InputError("the rule file has no rules", file);
  return rules;
}

export function rulesDir(): string {
  return join(PACKAGE_ROOT, "data", "ctxpro", "rules");
}

/**
 * Gender rules that define ANIMACY when reversed: English "it" with a masculine or feminine singular,
 * case-marked target pronoun (NOM/ACC/DAT/LOC/INS), i.e. the places where into-English translation
 * must choose "it" over "he"/"she" (a neuter pronoun is "it" anyway). This reproduces the label
 * inventory of the released animacy sets (no NEUT, DISJ, GEN or plural labels there).
 */
export function isAnimacyRule(r: Rule): boolean {
  return (
    r.type === "pronoun" &&
    r.requiresCoref &&
    r.englishForm === "it" &&
    /^(NOM|ACC|DAT|LOC|INS|INST)\./.test(r.label) &&
    /\.(MASC|FEM)\.SING(\.|$)/.test(r.label)
  );
}

const SET_NAME = /^([A-Z]{2})_([A-Z]+)$/;

export interface RuleSetInfo {
  name: string;
  lang: string;
  phenomenon: Phenomenon;
  file: string;
}

/** The built-in rule sets (DE_GENDER, ..., PL_INFLECTION, and the derived XX_ANIMACY). */
export function builtinRuleSets(): RuleSetInfo[] {
  const dir = rulesDir();
  const out: RuleSetInfo[] = [];
  for (const lang of LANGUAGES) {
    const langDir = join(dir, lang);
    if (!existsSync(langDir)) continue;
    const files = readdirSync(langDir).filter((f) => f.endsWith(".json")).sort();
    for (const f of files) {
      const m = /^([a-z]{2})_([a-z]+)\.json$/.exec(f);
      if (!m || m[1] !== lang || !(PHENOMENA as readonly string[]).includes(m[2])) continue;
      const phenomenon = m[2] as Phenomenon;
      out.push({ name: `${lang.toUpperCase()}_${phenomenon.toUpperCase()}`, lang, phenomenon, file: join(langDir, f) });
      if (phenomenon === "gender") {
        out.push({ name: `${lang.toUpperCase()}_ANIMACY`, lang, phenomenon: "animacy", file: join(langDir, f) });
      }
    }
  }
  const order = (p: Phenomenon) => PHENOMENA.indexOf(p);
  return out.sort((a, b) => a.lang.localeCompare(b.lang) || order(a.phenomenon) - order(b.phenomenon));
}

function validNamesMessage(lang?: string): string {
  const names = builtinRuleSets()
    .filter((s) => !lang || s.lang === lang)
    .map((s) => s.name);
  return names.join(", ");
}

/** Checks a language code for identify/score; the error lists the valid ones. */
export function checkLang(lang: string): Lang {
  const l = lang.toLowerCase();
  if (!(LANGUAGES as readonly string[]).includes(l)) {
    throw new InputError(`unknown language '${lang}'; CTXPRO languages are: ${LANGUAGES.join(", ")} (English is always the other side)`);
  }
  return l as Lang;
}

/**
 * Loads a rule set by built-in name (case-insensitive, e.g. DE_GENDER) or from a JSON rule file.
 * `lang` is the non-English language of the data; a built-in set for another language is refused.
 */
export function loadRuleSet(nameOrFile: string, lang: string): RuleSet {
  const upper = nameOrFile.toUpperCase();
  const builtin = builtinRuleSets().find((s) => s.name === upper);
  if (builtin) {
    if (builtin.lang !== lang) {
      throw new InputError(`rule set ${builtin.name} is for '${builtin.lang}', but the language is '${lang}'; rule sets for '${lang}': ${validNamesMessage(lang)}`);
    }
    let rules = parseRuleFile(readText(builtin.file), builtin.file);
    if (builtin.phenomenon === "animacy") rules = rules.filter(isAnimacyRule);
    return { name: builtin.name, lang, phenomenon: builtin.phenomenon, reversed: builtin.phenomenon === "animacy", rules, file: builtin.file };
  }
  if (nameOrFile.toLowerCase().endsWith(".json") && existsSync(nameOrFile)) {
    const rules = parseRuleFile(readText(nameOrFile), nameOrFile);
    return { name: basename(nameOrFile).replace(/\.json$/i, ""), lang, phenomenon: "custom", reversed: false, rules, file: nameOrFile };
  }
  const hint = SET_NAME.test(upper) ? "" : " (or a path to a .json rule file)";
  throw new InputError(`unknown rule set '${nameOrFile}'${hint}; valid names: ${validNamesMessage()}`);
}

/** One-line description of a rule, for `ctxpro rules NAME`. */
export function describeRule(r: Rule): string {
  if (r.type === "pronoun") {
    const en = `${r.englishForm}${r.englishCase === "*" ? "" : ` [${r.englishCase}]`}`;
    const tgt = `${r.alignedForm}${r.alignedCase === "*" ? "" : ` [${r.alignedCase}]`}`;
    const ante = r.requiresCoref
      ? `; antecedent ${r.englishCorefPos} -> ${r.alignedCorefPos} ${r.alignedCorefGender}/${r.alignedCorefNumber}`
      : "; no antecedent";
    const exp = r.expected !== r.alignedForm ? `; expected "${r.expected}"` : "";
    return `${en} -> ${tgt}${ante}${exp}`;
  }
  if (r.type === "auxiliary") return `lemma ${r.englishLemma}; aligned verb lemma not in {${r.disallowedAlignedLemmas.join(", ")}}`;
  return `verb-less segment, target token in case ${r.case}, antecedent noun in the same case`;
}
