import { alignBidirectional } from "../align/index.js";
import { checkHypotheses, pairedBootstrap, segmentPart, type BootstrapResult, type ScoreOptions, type SystemScore } from "../ctxpro/score.js";
import { tokenize } from "../text/tokenize.js";
import { pronouns } from "../text/pronouns.js";
import { ERROR_TYPES, type ErrorType } from "./error-type.js";
import type { SuiteFile } from "./build.js";
import type { TableBlock } from "../io/table.js";
import { bootstrapTables } from "../stats/bootstrap.js";
// The scorer interface only (no tfjs): loading a model is left to callers that actually rank.
import { scoreSidesWith, TIE_EPS, type PronounScorer } from "../core/scorer.js";

/** How a generative verdict was reached, for the per-item output. */
export type Verdict = "aligned-correct" | "aligned-error" | "aligned-other-pronoun" | "count-correct" | "count-wrong";

export interface SuiteSystemResult {
  name: string;
  file: string;
  /** Percent of items whose pronoun the system got right (generative). */
  accuracy: number;
  correct: number;
  total: number;
  byType: Record<string, { correct: number; total: number; accuracy: number }>;
  /** Items where the system produced one of the errors that WMT systems made. */
  knownErrors: number;
  verdicts: Verdict[];
  hits: Uint8Array;
  /** Ranker scores (sys - ref per item, and the share of items not ranked below the reference), when computed. */
  ranker?: { notBelowReference: number; meanDiff: number; diffs: Array<number | null> };
}

export interface SuiteScoreReport {
  suite: string;
  lang: string;
  items: number;
  systems: SuiteSystemResult[];
  bootstrap?: BootstrapResult;
}

export interface SuiteScoreOptions extends ScoreOptions {
  bootstrapSamples?: number;
  seed?: number;
  /** Also rank each output against the reference with this scorer (CRC: both sides get the reference context). */
  scorer?: PronounScorer;
}

/**
 * Generative scoring: the reference pronoun is located in the system output through a fast_align model
 * trained on all (reference, output) pairs being scored plus each reference paired with itself (which teaches
 * it that identical words align). Verdicts, in order:
 *  - a word aligned to the reference pronoun is the expected pronoun -> correct;
 *  - it is one of the suite's known erroneous pronouns -> wrong (counted as a known error);
 *  - it is another pronoun -> wrong;
 *  - nothing pronoun-like is aligned: correct when the output has the expected pronoun at least as often as the
 *    reference does, else wrong.
 */
export async function scoreSuite(
  suite: SuiteFile,
  suiteName: string,
  systems: Array<{ name: string; file: string; hyps: string[] }>,
  opts: SuiteScoreOptions = {},
): Promise<SuiteScoreReport> {
  const inv = pronouns();
  const items = suite.items;
  for (const s of systems) checkHypotheses(s.hyps, items.length, s.file, suiteName, opts.allowEmpty);
  const refToks = items.map((it) => tokenize(it["ref segment"]).map((t) => t.text.toLowerCase()));
  const hypToks = systems.map((s) => s.hyps.map((h) => tokenize(segmentPart(h, opts)).map((t) => t.text.toLowerCase())));
  const src: string[][] = [];
  const tgt: string[][] = [];
  for (const hs of hypToks) for (let i = 0; i < items.length; i++) (src.push(refToks[i]!), tgt.push(hs[i]!));
  for (const r of refToks) (src.push(r), tgt.push(r));
  const { symmetrized } = await alignBidirectional(src, tgt, { symmetrize: "grow-diag-final-and" });

  const results: SuiteSystemResult[] = systems.map((s, si) => {
    const hits = new Uint8Array(items.length);
    const verdicts: Verdict[] = [];
    const byType: SuiteSystemResult["byType"] = {};
    let knownErrors = 0;
    for (let i = 0; i < items.length; i++) {
      const it = items[i]!;
      const k = si * items.length + i;
      const hyp = hypToks[si]![i]!;
      const refIdx = it["ref pronoun index"];
      const aligned = symmetrized.get(k).filter(([r]) => r === refIdx).map(([, h]) => hyp[h]!);
      const errorForms = new Set(it.errors.map((e) => e.pronoun));
      let v: Verdict;
      if (aligned.includes(it.expected)) v = "aligned-correct";
      else if (aligned.some((w) => errorForms.has(w))) v = "aligned-error";
      else if (aligned.some((w) => inv.has(w))) v = "aligned-other-pronoun";
      else {
        const inRef = refToks[i]!.filter((w) => w === it.expected).length;
        const inHyp = hyp.filter((w) => w === it.expected).length;
        v = inHyp >= inRef ? "count-correct" : "count-wrong";
      }
      const ok = v === "aligned-correct" || v === "count-correct";
      if (ok) hits[i] = 1;
      if (v === "aligned-error") knownErrors++;
      verdicts.push(v);
      const t = (byType[it.rule] ??= { correct: 0, total: 0, accuracy: 0 });
      t.total++;
      if (ok) t.correct++;
    }
    for (const t of Object.values(byType)) t.accuracy = (100 * t.correct) / t.total;
    const correct = hits.reduce((a, b) => a + b, 0);
    return { name: s.name, file: s.file, accuracy: (100 * correct) / items.length, correct, total: items.length, byType, knownErrors, verdicts, hits };
  });

  if (opts.scorer) {
    const refSides = items.map((it) => ({ context: it["ref context"], sentence: it["ref segment"] }));
    const refScores = await scoreSidesWith(opts.scorer, refSides);
    for (let si = 0; si < systems.length; si++) {
      const sysScores = await scoreSidesWith(opts.scorer, items.map((it, i) => ({ context: it["ref context"], sentence: segmentPart(systems[si]!.hyps[i]!, opts) })));
      // Outputs without any pronoun cannot be ranked by the model (score 0); they count as below the reference.
      const diffs = sysScores.map((s, i) => (s.pronouns.length ? s.score - refScores[i]!.score : null));
      const ranked = diffs.filter((d): d is number => d !== null);
      const notBelow = diffs.filter((d) => d !== null && d >= -TIE_EPS).length;
      results[si]!.ranker = {
        notBelowReference: (100 * notBelow) / items.length,
        meanDiff: ranked.length ? ranked.reduce((a, b) => a + b, 0) / ranked.length : 0,
        diffs,
      };
    }
  }

  const report: SuiteScoreReport = { suite: suiteName, lang: suite.lang, items: items.length, systems: results };
  if (results.length > 1 && (opts.bootstrapSamples ?? 1000) > 0) {
    const asScores: SystemScore[] = results.map((r) => ({ name: r.name, correct: r.correct, total: r.total, accuracy: r.accuracy, perRule: [], hits: r.hits }));
    report.bootstrap = pairedBootstrap(asScores, opts.bootstrapSamples ?? 1000, opts.seed ?? 12345);
  }
  return report;
}

/** Systems side by side: overall and per error type, then the bootstrap (intervals, differences to the first system). */
export function suiteTables(r: SuiteScoreReport): { tables: TableBlock[]; notes: string[] } {
  const types = ERROR_TYPES.filter((t) => r.systems.some((s) => s.byType[t]));
  const ranker = r.systems.some((s) => s.ranker);
  const cell = (c: { correct: number; total: number } | undefined) => (c ? `${((100 * c.correct) / c.total).toFixed(1)} (${c.correct}/${c.total})` : "-");
  const tables: TableBlock[] = [
    {
      header: ["system", "overall", ...types, "known err", ...(ranker ? ["ranker>=ref"] : [])],
      rows: r.systems.map((s) => [s.name, cell(s), ...types.map((t) => cell(s.byType[t as ErrorType])), s.knownErrors, ...(ranker ? [s.ranker ? s.ranker.notBelowReference.toFixed(1) : "-"] : [])]),
    },
  ];
  if (r.bootstrap) tables.push(...bootstrapTables(r.bootstrap, r.bootstrap.systems.map((s) => ({ ...s, value: s.accuracy })), r.bootstrap.comparisons));
  const notes = [`suite ${r.suite} (${r.lang}-en, ${r.items} items): generative accuracy, % (correct/total) overall and per error type; known err: outputs with one of the suite's known wrong pronouns`];
  if (ranker) notes.push("ranker>=ref: % of items where the learned metric does not rank the output below the reference");
  return { tables, notes };
}
