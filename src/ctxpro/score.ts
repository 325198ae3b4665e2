/**
 * Generative accuracy (Post & Junczys-Dowmunt 2023, as used by CTXPRO): an item is correct when its
 * expected form occurs as a whole word (or word sequence) in the system's translation of the segment.
 * Per-rule breakdown, and paired bootstrap resampling between systems.
 */
import { InputError } from "../io/errors.js";
import { readLines } from "../io/lines.js";
import { inputName } from "../io/stdin.js";
import { lastSentence, splitSentences } from "../text/sentences.js";
import { lastSentenceCtxpro, pyStrip } from "../text/sentence-splitter.js";
import { makeSignature, type SignatureField } from "../signature.js";
import type { TableBlock } from "../io/table.js";
import { bootstrapTables } from "../stats/bootstrap.js";
import type { CtxproItem } from "./items.js";

interface Word {
  w: string;
  /** The word is directly followed by an apostrophe (French/Italian elision: t', l', dell'). */
  apos: boolean;
}

const WORD = /[\p{L}\p{M}\p{N}]+/gu;
const APOSTROPHES = new Set(["'", "\u2019", "\u02bc"]);

/** Lowercased (NFC) words of a text; punctuation, spaces and hyphens separate words. */
export function words(text: string): Word[] {
  const s = text.normalize("NFC").toLowerCase();
  const out: Word[] = [];
  for (const m of s.matchAll(WORD)) {
    const next = s[m.index! + m[0].length];
    out.push({ w: m[0], apos: next !== undefined && APOSTROPHES.has(next) });
  }
  return out;
}

/**
 * A compiled expected form. "la nôtre" must appear as two consecutive words; "t'" must be the word
 * "t" followed by an apostrophe. Case and punctuation are ignored, and "l'a" does not contain "la".
 */
export class ExpectedForm {
  readonly words: Word[];

  constructor(readonly form: string) {
    this.words = words(form);
  }

  /**
   * `raw` is the hypothesis text: a form with no letters or digits (a few released inflection items
   * expect "-") must then occur as a whitespace-separated token of it.
   */
  foundIn(hyp: Word[], raw = ""): boolean {
    const ws = this.words;
    const n = ws.length;
    if (n === 0) {
      const form = this.form.trim();
      return form !== "" && raw.split(/\s+/u).includes(form);
    }
    outer: for (let i = 0; i + n <= hyp.length; i++) {
      for (let k = 0; k < n; k++) {
        const h = hyp[i + k];
        if (h.w !== ws[k].w || (ws[k].apos && !h.apos)) continue outer;
      }
      return true;
    }
    return false;
  }
}

const ASCII_PUNCT = new Set("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~");

/** CTXPRO's own test (score.py passes_test): lowercase, drop ASCII punctuation, find " form ". */
export function ctxproPasses(translation: string, expected: string): boolean {
  let stripped = "";
  for (const ch of translation.toLowerCase()) if (!ASCII_PUNCT.has(ch)) stripped += ch;
  return ` ${stripped} `.includes(` ${expected.toLowerCase()} `);
}

/**
 * What part of each translation is scored:
 * - "last-k" (default): the last k sentences, k = the number of sentences of the item's own target
 *   segment (`ref segment`), so a sentence-level output is scored whole and a context-level output
 *   loses exactly its context sentences;
 * - "last-sentence": the last sentence only;
 * - "whole": all of it;
 * - "compat-ctxpro": CTXPRO's released scorer (score.py): last sentence by the sentence_splitter
 *   algorithm, then its punctuation-stripped substring test (`match` and `separator` do not apply).
 */
export type ScoreMode = "last-k" | "last-sentence" | "whole" | "compat-ctxpro";

/** Names accepted by `--compat`. */
export const COMPAT_NAMES = ["ctxpro"] as const;

export interface ScoreOptions {
  mode?: ScoreMode;
  /** Keep only the last sentence of each hypothesis; the same as mode "last-sentence" (kept for `suite`). */
  lastSentence?: boolean;
  /** Keep only the text after the last occurrence of this separator (e.g. "<eos>"). */
  separator?: string;
  /** Language of the hypotheses, for the sentence segmenter. */
  lang?: string;
  /** "word" (default): whole-word matching above; "ctxpro": the original substring test. */
  match?: "word" | "ctxpro";
  /** Score empty hypotheses as wrong instead of refusing them. */
  allowEmpty?: boolean;
  /** The evaluation set's file, for error messages. */
  evalSet?: string;
}

/** The mode that `opts` asks for. */
export function scoreMode(opts: ScoreOptions): ScoreMode {
  return opts.mode ?? (opts.lastSentence ? "last-sentence" : "last-k");
}

/** The part of a hypothesis that translates the segment itself; `k` keeps its last k sentences. */
export function segmentPart(hyp: string, opts: ScoreOptions, k?: number): string {
  let h = hyp;
  if (opts.separator) {
    const at = h.lastIndexOf(opts.separator);
    if (at >= 0) h = h.slice(at + opts.separator.length);
  }
  if (opts.lastSentence || opts.mode === "last-sentence") h = lastSentence(h, opts.lang ?? "en");
  else if (k !== undefined && opts.mode !== "whole") {
    const s = splitSentences(h, opts.lang ?? "en");
    if (s.length > k) h = s.slice(s.length - k).join(" ");
  }
  return h.trim();
}

/**
 * k per item: the number of sentences of its `ref segment` (at least 1). An item without one cannot
 * say how much of a translation is its own: an error naming the item, unless another mode is chosen.
 */
export function targetSentenceCounts(items: CtxproItem[], lang: string, evalSet?: string): Int32Array {
  const ks = new Int32Array(items.length);
  for (let i = 0; i < items.length; i++) {
    const ref = items[i]["ref segment"];
    if (typeof ref !== "string" || ref.trim() === "") {
      throw new InputError(
        `item ${i + 1}: no "ref segment", needed to count the sentences of the segment (the default scores the last k sentences); ` +
          "pass --last-sentence, --whole or --compat ctxpro to score without it",
        evalSet,
      );
    }
    ks[i] = Math.max(1, splitSentences(ref, lang).length);
  }
  return ks;
}

/** How a score was computed (sacrebleu style, src/signature.ts), printed with every report. */
export function scoreSignature(opts: ScoreOptions, bootstrap?: { samples: number; seed: number }): string {
  const mode = scoreMode(opts);
  const lang = opts.lang ?? "en";
  const on = bootstrap && bootstrap.samples > 0 ? bootstrap : undefined;
  const boot: SignatureField[] = [["bootstrap", on?.samples], ["seed", on?.seed]];
  if (mode === "compat-ctxpro") return makeSignature("ctxpro", [["mode", mode], ["split", `sentence_splitter-1.4-port.${lang}`], ["match", "ctxpro"], ...boot]);
  return makeSignature("ctxpro", [
    ["mode", mode],
    ["split", mode === "whole" ? "none" : `proneval-moses.${lang}`],
    ["match", opts.match ?? "word"],
    ["sep", opts.separator === undefined ? "none" : JSON.stringify(opts.separator)],
    ...boot,
  ]);
}

export interface RuleScore {
  rule: string;
  /** The expected form of the rule's first item (auxiliary and inflection forms vary by item). */
  form: string;
  correct: number;
  total: number;
  accuracy: number;
}

export interface SystemScore {
  name: string;
  correct: number;
  total: number;
  /** Percent. */
  accuracy: number;
  perRule: RuleScore[];
  /** 1 where the item is correct. */
  hits: Uint8Array;
}

/** Checks a hypothesis list against the set: same length, no empty lines unless allowed. */
export function checkHypotheses(hyps: string[], nItems: number, file: string, setName: string, allowEmpty = false): void {
  if (hyps.length !== nItems) {
    throw new InputError(`has ${hyps.length} lines but the evaluation set ${setName} has ${nItems} items (one translation per item is needed)`, file);
  }
  if (!allowEmpty) {
    const k = hyps.findIndex((h) => h.trim() === "");
    if (k >= 0) throw new InputError("empty hypothesis (pass --allow-empty to score empty lines as wrong)", file, k + 1);
  }
}

/** Scores one system's hypotheses (one per item, in item order). */
export function scoreSystem(name: string, items: CtxproItem[], hyps: string[], opts: ScoreOptions = {}): SystemScore {
  if (hyps.length !== items.length) throw new InputError(`${name}: ${hyps.length} hypotheses for ${items.length} items`);
  const hits = new Uint8Array(items.length);
  const byRule = new Map<string, RuleScore>();
  const forms = new Map<string, ExpectedForm>();
  const mode = scoreMode(opts);
  const lang = opts.lang ?? "en";
  const ks = mode === "last-k" ? targetSentenceCounts(items, lang, opts.evalSet) : undefined;
  const ctxpro = opts.match === "ctxpro";
  let correct = 0;
  for (let i = 0; i < items.length; i++) {
    const expected = String(items[i].expected);
    const rule = String(items[i].rule);
    let r = byRule.get(rule);
    if (!r) {
      r = { rule, form: expected, correct: 0, total: 0, accuracy: 0 };
      byRule.set(rule, r);
    }
    let ok: boolean;
    if (mode === "compat-ctxpro") {
      // score.py: line.strip(), translation.strip(), get_last, passes_test.
      ok = ctxproPasses(lastSentenceCtxpro(pyStrip(hyps[i]), lang), expected);
    } else {
      const text = segmentPart(hyps[i], opts, ks?.[i]);
      if (ctxpro) ok = ctxproPasses(text, expected);
      else {
        let f = forms.get(expected);
        if (!f) {
          f = new ExpectedForm(expected);
          forms.set(expected, f);
        }
        ok = f.foundIn(words(text), text);
      }
    }
    r.total++;
    if (ok) {
      hits[i] = 1;
      r.correct++;
      correct++;
    }
  }
  const perRule = [...byRule.values()].map((r) => ({ ...r, accuracy: (100 * r.correct) / r.total }));
  return { name, correct, total: items.length, accuracy: items.length ? (100 * correct) / items.length : 0, perRule, hits };
}

export interface BootstrapSystem {
  name: string;
  accuracy: number;
  /** 95% percentile interval of the accuracy over the bootstrap samples. */
  ci: [number, number];
}

export interface BootstrapComparison {
  baseline: string;
  system: string;
  /** system - baseline, percentage points. */
  delta: number;
  ci: [number, number];
  /** Two-sided p-value of "no difference" (centred bootstrap distribution, as sacrebleu's paired-bs). */
  p: number;
}

export interface BootstrapResult {
  samples: number;
  seed: number;
  systems: BootstrapSystem[];
  comparisons: BootstrapComparison[];
}

function percentile(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return NaN;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

/**
 * Paired bootstrap resampling (Koehn 2004): every sample draws the same item indices for all
 * systems. Each system after the first is compared with the first (the baseline).
 */
export function pairedBootstrap(systems: SystemScore[], samples = 1000, seed = 12345): BootstrapResult {
  if (!Number.isInteger(samples) || samples < 1) throw new InputError(`bootstrap samples must be an integer >= 1, got ${samples}`);
  const n = systems[0]?.total ?? 0;
  if (systems.some((s) => s.total !== n)) throw new Error("paired bootstrap needs systems scored on the same items");
  const acc = systems.map(() => new Float64Array(samples));
  const sums = new Float64Array(systems.length);
  const hits = systems.map((s) => s.hits);
  // Per item, the systems' hits packed as bits, so one draw costs one lookup. The per-pattern counters grow as
  // 2^systems, so beyond 16 systems (64k counters) the plain per-system loop is used instead.
  const packed = systems.length <= 16 ? new Int32Array(n) : undefined;
  if (packed) for (let s = 0; s < hits.length; s++) for (let i = 0; i < n; i++) packed[i] |= hits[s][i] << s;
  const counts = new Int32Array(packed ? 1 << systems.length : 0);
  // mulberry32 (src/core/prng.ts), inlined: this loop runs samples * n times.
  let state = seed >>> 0;
  for (let b = 0; b < samples; b++) {
    sums.fill(0);
    if (packed) counts.fill(0);
    for (let k = 0; k < n; k++) {
      state = (state + 0x6d2b79f5) >>> 0;
      let t = state;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      const i = Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
      if (packed) counts[packed[i]]++;
      else for (let s = 0; s < hits.length; s++) sums[s] += hits[s][i];
    }
    if (packed) for (let m = 0; m < counts.length; m++) if (counts[m]) for (let s = 0; s < hits.length; s++) if (m & (1 << s)) sums[s] += counts[m];
    for (let s = 0; s < systems.length; s++) acc[s][b] = n ? (100 * sums[s]) / n : 0;
  }
  const out: BootstrapResult = { samples, seed, systems: [], comparisons: [] };
  systems.forEach((sys, s) => {
    const sorted = Float64Array.from(acc[s]).sort();
    out.systems.push({ name: sys.name, accuracy: sys.accuracy, ci: [percentile(sorted, 0.025), percentile(sorted, 0.975)] });
  });
  for (let s = 1; s < systems.length; s++) {
    const diffs = new Float64Array(samples);
    let mean = 0;
    for (let b = 0; b < samples; b++) {
      diffs[b] = acc[s][b] - acc[0][b];
      mean += diffs[b];
    }
    mean /= samples;
    const delta = systems[s].accuracy - systems[0].accuracy;
    let extreme = 0;
    for (let b = 0; b < samples; b++) if (Math.abs(diffs[b] - mean) >= Math.abs(delta) - 1e-12) extreme++;
    const sorted = Float64Array.from(diffs).sort();
    out.comparisons.push({
      baseline: systems[0].name,
      system: systems[s].name,
      delta,
      ci: [percentile(sorted, 0.025), percentile(sorted, 0.975)],
      p: (extreme + 1) / (samples + 1),
    });
  }
  return out;
}

export interface ScoreReport {
  evalSet: string;
  items: number;
  options: { mode: ScoreMode; lastSentence: boolean; separator: string | null; lang: string; match: string };
  /** How the score was computed (mode, segmenter, matching, version): quote it with the number. */
  signature: string;
  systems: Array<Omit<SystemScore, "hits">>;
  bootstrap?: BootstrapResult;
}

/** Reads hypothesis files and scores them all against one evaluation set. */
export function scoreFiles(
  setName: string,
  items: CtxproItem[],
  hypFiles: string[],
  opts: ScoreOptions,
  bootstrap?: { samples: number; seed: number },
): ScoreReport {
  if (hypFiles.length === 0) throw new InputError("no hypothesis file given (-t FILE ...)");
  if (items.length === 0) throw new InputError(`the evaluation set ${setName} has no items`);
  const systems = hypFiles.map((f) => {
    const hyps = readLines(f);
    checkHypotheses(hyps, items.length, f, setName, opts.allowEmpty);
    return scoreSystem(inputName(f), items, hyps, { ...opts, evalSet: opts.evalSet ?? setName });
  });
  const mode = scoreMode(opts);
  const report: ScoreReport = {
    evalSet: setName,
    items: items.length,
    options: {
      mode,
      lastSentence: mode === "last-sentence",
      separator: mode === "compat-ctxpro" ? null : opts.separator ?? null,
      lang: opts.lang ?? "en",
      match: mode === "compat-ctxpro" ? "ctxpro" : opts.match ?? "word",
    },
    signature: scoreSignature(opts, bootstrap),
    systems: systems.map(({ hits: _hits, ...rest }) => rest),
  };
  if (bootstrap && bootstrap.samples > 0) report.bootstrap = pairedBootstrap(systems, bootstrap.samples, bootstrap.seed);
  return report;
}

const pct = (x: number) => x.toFixed(1);

/**
 * The report's tables: per system correct, total, accuracy (%), or with `complete` CTXPRO's per-rule
 * table for each system; then the paired bootstrap (intervals, and each system against the first).
 * The notes say what the numbers are.
 */
export function reportTables(r: ScoreReport, complete: boolean): { tables: TableBlock[]; notes: string[] } {
  const tables: TableBlock[] = [];
  if (!complete) tables.push({ header: ["system", "correct", "total", "accuracy (%)"], rows: r.systems.map((s) => [s.name, s.correct, s.total, pct(s.accuracy)]) });
  else {
    for (const s of r.systems) {
      tables.push({
        title: r.systems.length > 1 ? s.name : undefined,
        header: ["rule (expected)", "correct", "total", "accuracy (%)"],
        rows: [...s.perRule.map((x) => [`${x.rule} (${x.form})`, x.correct, x.total, `${pct(x.accuracy)}%`]), ["total", s.correct, s.total, pct(s.accuracy)]],
      });
    }
  }
  const notes = [`ctxpro score: ${inputName(r.evalSet)}, ${r.items} items; accuracy in % of items`];
  if (r.bootstrap) tables.push(...bootstrapTables(r.bootstrap, r.bootstrap.systems.map((s) => ({ ...s, value: s.accuracy })), r.bootstrap.comparisons));
  return { tables, notes };
}
