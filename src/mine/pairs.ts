import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PACKAGE_ROOT } from "../version.js";
import { InputError } from "../io/errors.js";
import { matchCase } from "../text/tokenize.js";
import type { MismatchRecord } from "./mismatch.js";
import type { ContextMode, PairRecord } from "../core/pair-format.js";

/** One (reference pronoun, system pronoun) pair of the user study, pooled over language pairs. */
export interface PronounPairJudgement {
  reference: string;
  system: string;
  /** Vote-weighted mean of the study's per-language agreements. */
  agreement: number;
  refVotes: number;
  sysVotes: number;
  tieVotes: number;
}

/**
 * Pools `pronoun_pairs.json` (one entry per study language) by (reference, system) pronoun.
 * The paper keeps pairs with agreement >= 0.8 where the reference won; with several entries per
 * pair we weight each entry's agreement by its number of votes and add the votes up.
 */
export function loadPronounPairJudgements(path?: string): Map<string, PronounPairJudgement> {
  const file = path ?? join(PACKAGE_ROOT, "data", "pronoun_pairs.json");
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    throw new InputError(`cannot read pronoun-pair judgements (${(e as Error).message})`, file);
  }
  if (!Array.isArray(raw)) throw new InputError("expected a JSON array of {reference, system, agreement, votes}", file);
  const acc = new Map<string, { ref: string; sys: string; w: number; agr: number; r: number; s: number; t: number }>();
  raw.forEach((e: any, i: number) => {
    if (typeof e?.reference !== "string" || typeof e?.system !== "string" || typeof e?.agreement !== "number" || typeof e?.votes !== "object")
      throw new InputError(`entry ${i} lacks reference/system/agreement/votes`, file);
    const key = `${e.reference.toLowerCase()}\t${e.system.toLowerCase()}`;
    const v = e.votes;
    const n = (v.reference ?? 0) + (v.system ?? 0) + (v.tie ?? 0);
    const a = acc.get(key) ?? { ref: e.reference.toLowerCase(), sys: e.system.toLowerCase(), w: 0, agr: 0, r: 0, s: 0, t: 0 };
    a.w += n;
    a.agr += e.agreement * n;
    a.r += v.reference ?? 0;
    a.s += v.system ?? 0;
    a.t += v.tie ?? 0;
    acc.set(key, a);
  });
  const out = new Map<string, PronounPairJudgement>();
  for (const [k, a] of acc)
    out.set(k, { reference: a.ref, system: a.sys, agreement: a.w ? a.agr / a.w : 0, refVotes: a.r, sysVotes: a.s, tieVotes: a.t });
  return out;
}

/** The Sec. 5.1 filter: agreement >= threshold and the reference won the vote. */
export function passesFilter(j: PronounPairJudgement | undefined, threshold = 0.8): boolean {
  return j !== undefined && j.agreement >= threshold && j.refVotes > j.sysVotes;
}

export type Split = "train" | "dev";

/**
 * Train = wmt21 + wmt22, dev = wmt23 (into English); other years belong to no split.
 * The year is read from the test-set name (newstest2021, generaltest2022, wmttest2023, ...).
 */
export function splitOf(testset: string): Split | undefined {
  const m = /(20\d\d)/.exec(testset);
  if (!m) return undefined;
  if (m[1] === "2021" || m[1] === "2022") return "train";
  if (m[1] === "2023") return "dev";
  return undefined;
}

export interface PairBuildOptions {
  context: ContextMode;
  /** Keep every mismatch instead of applying the Sec. 5.1 filter. */
  keepAll?: boolean;
  threshold?: number;
  judgements?: Map<string, PronounPairJudgement>;
  /** Assign splits by year (default); with false every pair goes to split "train"... unless splitFn given. */
  splitFn?: (testset: string) => Split | undefined;
}

export interface PairBuildResult {
  pairs: Record<Split, PairRecord[]>;
  counts: {
    mismatches: number;
    mismatchesKept: number;
    /** Mismatch records of test sets that belong to no split. */
    outsideSplits: number;
    /** Train pairs dropped because their reference sentence also occurs in dev. */
    trainDroppedOverlap: number;
    duplicateSystemPairs: number;
    duplicateNoisyPairs: number;
  };
}

function originOf(r: MismatchRecord): string {
  return `${r.testset}/${r.lang_pair}/${r.doc_id}/${r.seg_id}/${r.system}`;
}

function srcLang(langPair: string): string {
  return langPair.split("-")[0] ?? langPair;
}

/**
 * Case of a substituted pronoun: copy the original's, except that "I" is capitalised by grammar,
 * not position, so a replacement for a mid-sentence "I" stays lowercase (I -> we, not We).
 */
export function substituteCase(sentence: string, start: number, original: string, replacement: string): string {
  if (original === "I") {
    const sentenceInitial = !/\p{L}/u.test(sentence.slice(0, start)) || /[.!?]["'”’)]*\s+$/u.test(sentence.slice(0, start));
    return matchCase(replacement, sentenceInitial ? "It" : "it");
  }
  return matchCase(replacement, original);
}

/**
 * Builds R-vs-S pairs (one per unique (reference, system sentence) with mismatches) and noisy
 * R-vs-R' pairs (the reference with one system pronoun substituted, one per differing pronoun).
 */
export function buildPairs(records: Iterable<MismatchRecord>, opts: PairBuildOptions): PairBuildResult {
  const judgements = opts.keepAll ? undefined : (opts.judgements ?? loadPronounPairJudgements());
  const threshold = opts.threshold ?? 0.8;
  const splitFn = opts.splitFn ?? splitOf;
  const counts = { mismatches: 0, mismatchesKept: 0, outsideSplits: 0, trainDroppedOverlap: 0, duplicateSystemPairs: 0, duplicateNoisyPairs: 0 };

  // Group kept mismatches by the sentence pair they occur in.
  const groups = new Map<string, { split: Split; recs: MismatchRecord[] }>();
  for (const r of records) {
    counts.mismatches++;
    const split = splitFn(r.testset);
    if (!split) {
      counts.outsideSplits++;
      continue;
    }
    if (judgements && !passesFilter(judgements.get(`${r.ref_pronoun}\t${r.sys_pronoun}`), threshold)) continue;
    counts.mismatchesKept++;
    const key = `${originOf(r)}\t${r.reference}`;
    const g = groups.get(key);
    if (g) g.recs.push(r);
    else groups.set(key, { split, recs: [r] });
  }

  const pairs: Record<Split, PairRecord[]> = { train: [], dev: [] };
  const seenSystem = new Set<string>();
  const seenNoisy = new Set<string>();
  for (const { split, recs } of groups.values()) {
    const r0 = recs[0]!;
    recs.sort((a, b) => a.ref_token - b.ref_token || a.sys_token - b.sys_token);
    const ctx = opts.context === "nc" ? [] : r0.ref_context;
    const sysKey = `${split}\t${ctx.join("\n")}\t${r0.ref_sentence}\t${r0.sys_sentence}`;
    if (seenSystem.has(sysKey)) counts.duplicateSystemPairs++;
    else {
      seenSystem.add(sysKey);
      const p: PairRecord = {
        id: `S:${originOf(r0)}`,
        lang: srcLang(r0.lang_pair),
        context: ctx,
        positive: r0.ref_sentence,
        negative: r0.sys_sentence,
        kind: "system",
        ref_pronoun: recs.map((r) => r.ref_pronoun).join(","),
        sys_pronoun: recs.map((r) => r.sys_pronoun).join(","),
        origin: originOf(r0),
        split,
        context_mode: opts.context,
        positive_positions: recs.map((r) => r.ref_token),
        negative_positions: recs.map((r) => r.sys_token),
      };
      if (opts.context === "rc") p.negative_context = r0.sys_context;
      pairs[split].push(p);
    }
    for (const r of recs) {
      const [s, e] = r.ref_offsets;
      const original = r.ref_sentence.slice(s, e);
      const noisy = r.ref_sentence.slice(0, s) + substituteCase(r.ref_sentence, s, original, r.sys_pronoun) + r.ref_sentence.slice(e);
      const noisyKey = `${split}\t${ctx.join("\n")}\t${r.ref_sentence}\t${noisy}`;
      if (seenNoisy.has(noisyKey)) {
        counts.duplicateNoisyPairs++;
        continue;
      }
      seenNoisy.add(noisyKey);
      const p: PairRecord = {
        id: `N:${originOf(r)}/${r.ref_token}`,
        lang: srcLang(r.lang_pair),
        context: ctx,
        positive: r.ref_sentence,
        negative: noisy,
        kind: "noisy",
        ref_pronoun: r.ref_pronoun,
        sys_pronoun: r.sys_pronoun,
        origin: originOf(r),
        split,
        context_mode: opts.context,
        positive_positions: [r.ref_token],
        negative_positions: [r.ref_token],
      };
      // R' is a reference too, so in RC mode its "own" context is the reference context.
      if (opts.context === "rc") p.negative_context = r.ref_context;
      pairs[split].push(p);
    }
  }

  // No segment of dev may appear in train: drop train pairs whose reference sentence is a dev sentence.
  const devSentences = new Set(pairs.dev.map((p) => p.positive));
  const before = pairs.train.length;
  pairs.train = pairs.train.filter((p) => !devSentences.has(p.positive));
  counts.trainDroppedOverlap = before - pairs.train.length;
  return { pairs, counts };
}
