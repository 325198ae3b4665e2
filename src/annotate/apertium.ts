/**
 * Debian's Apertium morphological analysers as noun lexicons, where they are installed. Polish has no noun
 * lexicon on npm, and our tagger, trained on 20 thousand treebank sentences, guesses the gender of nouns it
 * has not seen ("krew/Masc", "twarzy/Masc", "torbie/Masc"); the Polish analyser of the Polish-Silesian pair
 * (`apt-get install apertium-pol-szl`, GPL-3; run by lttoolbox's `lt-proc`) knows them:
 * `^twarzy/twarz<n><f><sg><gen>/...$`. Nothing of Apertium is copied into this repository: the analyser is
 * run on the user's machine, over all the words of a corpus in one process (`prefetch`), and a word the batch
 * missed in its own process; docs/lab/annotate.md measures what it changes.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { delimiter, join } from "node:path";
import type { NounAnalysis, NounLexicon } from "./noun-lexicon.js";

/** Where Debian installs an analyser of each language, in the order tried. */
export const APERTIUM_ANALYSERS: Readonly<Record<string, readonly string[]>> = {
  pl: ["/usr/share/apertium/apertium-pol/pol.automorf.bin", "/usr/share/apertium/apertium-pol-szl/pol-szl.automorf.bin"],
};

/** One analysis of a word: the lemma and Apertium's tags in order (`n`, `f`, `sg`, `gen`). */
export interface ApertiumReading {
  lemma: string;
  tags: string[];
}

/** Characters the Apertium stream format reserves; words holding one are not sent (they get no reading). */
const RESERVED = /[\^$/<>[\]{}\\@*#+~]/;

/**
 * The readings of each analysed surface form in lt-proc's output (`^form/lemma<t>.../...$`, an unknown word
 * `^form/*form$`, which gets none). Keyed by the surface form, so a word lt-proc split into several units
 * gets none rather than a neighbour's.
 */
export function parseLtProc(out: string): Map<string, ApertiumReading[]> {
  const found = new Map<string, ApertiumReading[]>();
  for (const m of out.matchAll(/\^([^$]*)\$/g)) {
    const [surface, ...rest] = m[1]!.split("/");
    if (!surface) continue;
    const readings: ApertiumReading[] = [];
    for (const r of rest) {
      if (r.startsWith("*")) continue;
      const lt = r.indexOf("<");
      if (lt <= 0) continue;
      readings.push({ lemma: r.slice(0, lt), tags: [...r.slice(lt).matchAll(/<([^>]+)>/g)].map((t) => t[1]!) });
    }
    found.set(surface, readings);
  }
  return found;
}

function onPath(program: string): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    if (dir && existsSync(join(dir, program))) return join(dir, program);
  }
  return undefined;
}

/** A compiled Apertium analyser run by `lt-proc`, with a cache of the words it has analysed. */
export class ApertiumAnalyser {
  private readonly cache = new Map<string, ApertiumReading[]>();

  constructor(
    readonly bin: string,
    readonly ltProc: string,
  ) {}

  /** Analyses every word not seen yet in one lt-proc process (a corpus's words while the aligner trains). */
  prefetch(words: Iterable<string>): void {
    const todo = [...new Set([...words].filter((w) => !this.cache.has(w) && w !== "" && !/\s/.test(w)))];
    const send = todo.filter((w) => !RESERVED.test(w));
    for (const w of todo) this.cache.set(w, []);
    if (!send.length) return;
    // -w: lemmas in the dictionary's case ("Stan" -> stan). One word per line: a line break is a blank.
    const r = spawnSync(this.ltProc, ["-w", this.bin], { input: send.join("\n") + "\n", encoding: "utf8", maxBuffer: 1 << 30 });
    if (r.status !== 0) throw new Error(`${this.ltProc} -w ${this.bin} failed (${r.error?.message ?? `exit ${r.status}: ${r.stderr.trim()}`})`);
    for (const [surface, readings] of parseLtProc(r.stdout)) if (this.cache.has(surface)) this.cache.set(surface, readings);
  }

  /** The readings of `word` (none when the analyser does not know it). */
  readings(word: string): readonly ApertiumReading[] {
    if (!this.cache.has(word)) this.prefetch([word]);
    return this.cache.get(word) ?? [];
  }
}

/** The installed analyser of `lang` with `lt-proc` on PATH, or undefined (the caller then goes without). */
export function findApertium(lang: string): ApertiumAnalyser | undefined {
  const bin = (APERTIUM_ANALYSERS[lang] ?? []).find((p) => existsSync(p));
  const lt = bin ? onPath("lt-proc") : undefined;
  return bin && lt ? new ApertiumAnalyser(bin, lt) : undefined;
}

const GENDER: Record<string, NounAnalysis["gender"]> = { m: "Masc", mi: "Masc", ma: "Masc", mp: "Masc", f: "Fem", nt: "Neut" };
const NUMBER: Record<string, NounAnalysis["number"]> = { sg: "Sing", pl: "Plur" };
const CASE: Record<string, string> = { nom: "Nom", gen: "Gen", dat: "Dat", acc: "Acc", ins: "Ins", loc: "Loc", voc: "Voc" };

/**
 * The noun readings (`<n>`) of a form as a NounAnalysis: gender and number where all readings agree (the
 * plural's non-virile `mf` says no gender), the cases of all of them. Undefined when no reading is a noun.
 */
export function nounAnalysis(readings: readonly ApertiumReading[]): NounAnalysis | undefined {
  const nouns = readings.filter((r) => r.tags[0] === "n");
  if (!nouns.length) return undefined;
  const genders = new Set(nouns.map((r) => r.tags.map((t) => GENDER[t]).find(Boolean)));
  const numbers = new Set(nouns.map((r) => r.tags.map((t) => NUMBER[t]).find(Boolean)));
  const cases = [...new Set(nouns.flatMap((r) => r.tags.map((t) => CASE[t]).filter((c): c is string => c !== undefined)))];
  const out: NounAnalysis = {};
  const [g] = genders;
  if (genders.size === 1 && g) out.gender = g;
  const [n] = numbers;
  if (numbers.size === 1 && n) out.number = n;
  else if (numbers.size > 1 && !numbers.has(undefined)) out.numbers = [...numbers].filter((x): x is "Sing" | "Plur" => x !== undefined);
  if (cases.length) out.cases = cases;
  return out;
}

/** The analyser's nouns as a NounLexicon (form as written, then lower-cased). */
export function apertiumNounLexicon(an: ApertiumAnalyser): NounLexicon {
  return {
    name: `apertium:${an.bin}`,
    prefetch: (words) => an.prefetch([...words].flatMap((w) => (w === w.toLowerCase() ? [w] : [w, w.toLowerCase()]))),
    lookup(form) {
      return nounAnalysis(an.readings(form)) ?? (form !== form.toLowerCase() ? nounAnalysis(an.readings(form.toLowerCase())) : undefined);
    },
  };
}
