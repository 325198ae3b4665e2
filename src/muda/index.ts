/** MuDA: tagger, word f-measure per tag, English ellipsis rules (Fernandes et al. 2023). */
import type { PairedBootstrapResult } from "../stats/bootstrap.js";
import type { TagCounts } from "./pipeline.js";
import type { LabelScore } from "./score.js";
import type { TableBlock } from "../io/table.js";

export { MUDA_TAGS, MUDA_LANGS, TAGGER_LANGS, PRO_DROP, loadMudaLists, languageSupport, supportSummary, type MudaTag, type MudaLists, type LangSupport } from "./lists.js";
export { tagDocument, secondPersonVerbs, sentenceIndex, type MudaSegment, type TagOptions } from "./tagger.js";
export { ellipsisCues } from "./ellipsis.js";
export { PlainAnnotator, setupMuda, tagSides, tagAgainstReference, countTags, type MudaSetup, type MudaDocText, type TargetSide, type TaggedSide, type TaggedSegment, type TagCounts } from "./pipeline.js";
export { matchedTokens, segmentStats, fMeasure, scoreSides, bootstrapLabels, STAT_DIMS, type LabelScore, type SystemFScores } from "./score.js";
export { readScores, parseScoresJsonl, parseScoresTsv, parseFairseqScores, readFairseqScores, fileLines, detectScoresFormat, checkLogprob, parseLogBase, EOS_TOKEN, CXMI_INPUT_FORMATS, type ScoredSegment, type ScoredRun, type CxmiInputFormat } from "./cxmi-formats.js";
export { joinSubwords, detectSubwordScheme, pairRuns, tagWords, posGroups, summarize, posMeans, vocabularyMeans, topWords, previousSegments, checkReferenceText, cxmiAnalysis, cxmiTables, SUBWORD_SCHEMES, type SubwordScheme, type CxmiSegment, type CxmiWord, type CxmiSummary, type GroupMean, type TopWord } from "./cxmi.js";
export { applyCxmi, readCxmiReport, tokenValues, charMap, CXMI_TAG, type CxmiTagComparison, type CxmiWordsFile } from "./cxmi-tags.js";
export { ForcedDecoder, scoreWithContext, checkSeq2SeqDir, SEQ2SEQ_FILES, type ContextDoc, type ForcedScores } from "./forced-decode.js";

export interface ScoreReportView {
  testset: string;
  langPair: string;
  reference: string;
  missing: Record<string, string | undefined>;
  referenceCounts: TagCounts;
  systems: Array<{ name: string; labels: LabelScore[] }>;
  bootstrap?: Record<string, PairedBootstrapResult>;
}

/** Systems side by side, one column per label (the paper's Tables 4-6, transposed); notes: reference tag counts, what is missing. */
export function scoreTables(r: ScoreReportView): { tables: TableBlock[]; notes: string[] } {
  const labels = r.systems[0]?.labels.map((l) => l.label) ?? [];
  const rows = r.systems.map((s) => [
    s.name,
    ...s.labels.map((l) => {
      // No token with the tag on either side: nothing was measured, and 0 would read as a verdict.
      if (l.refCount === 0 && l.hypCount === 0) return "n/a";
      const b = r.bootstrap?.[l.label]?.comparisons.find((c) => c.system === s.name);
      return l.f.toFixed(3) + (b && b.p < 0.05 ? (b.delta > 0 ? "+" : "-") : "");
    }),
  ]);
  const notes = [
    `MuDA word f-measure, ${r.testset} ${r.langPair}, reference ${r.reference}`,
    `reference tokens per label: ${labels.map((l) => `${l} ${r.systems[0]!.labels.find((x) => x.label === l)!.refCount}`).join(", ")}`,
  ];
  const missing = Object.entries(r.missing).filter(([, v]) => v);
  if (rows.some((row) => row.includes("n/a"))) notes.push("n/a: neither the reference nor the system has a token with this tag");
  if (missing.length) notes.push(`not available: ${missing.map(([k, v]) => `${k} (${v})`).join("; ")}`);
  if (r.bootstrap) notes.push(`+/-: significantly above/below ${r.systems[0]!.name} (paired bootstrap, p < 0.05, ${Object.values(r.bootstrap)[0]?.samples ?? 0} samples)`);
  return { tables: [{ header: ["system", ...labels], rows }], notes };
}
