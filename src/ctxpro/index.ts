// CTXPRO public API (re-exported from src/index.ts as `ctxpro`). Each module's public names are listed here;
// the engine's heuristics (english-clauses.ts, target-heads.ts, fallback.ts, aligned-doc.ts) stay internal.
export {
  LANGUAGES, PHENOMENA, LABEL_PARTS, knownLabel, parseRule, parseRuleFile, rulesDir, isAnimacyRule, builtinRuleSets, checkLang, loadRuleSet, describeRule,
  type Lang, type Phenomenon, type CaseConstraint, type PronounRule, type AuxiliaryRule, type InflectionRule, type Rule, type RuleSet, type RuleSetInfo,
} from "./rules.js";
export { KEY_ORDER, ordered, reverseGenderItem, readEvalSet, itemLocation, type CtxproItem } from "./items.js";
export { matchDocument, FALLBACK_MODES, type EngineOptions, type FallbackMode } from "./engine.js";
export { morphoString, spanText, matchesCase } from "./tokens.js";
export { validateDoc } from "./aligned-doc.js";
export {
  CorpusAligner, agreementOf, defaultAnnotators, readAlignCorpus,
  type CorpusAlignerOptions, type BuiltinAnnotators, type DefaultAnnotatorOptions,
} from "./annotators.js";
export { parseFeats, parseAlignment, parseAnnotatedDocs, PrecomputedAnnotations } from "./annotations.js";
export {
  streamTsvRows, streamTsvDocs, readTsvDocs, scriptOf, scriptShare, functionWordHits, InputChecker, annotateDoc, scorableWithReference,
  identify, identifyFiles, prepareFiles, countTsv, parseShardSpec, shardOfRow, outputName, writeIdentified,
  type Annotators, type TsvDoc, type TsvRow, type TsvReadOptions, type InputCheckOptions, type IdentifyOptions, type IdentifyPhase,
  type IdentifyFilesOptions, type IdentifyStats, type ShardSpec, type PrepareResult,
} from "./identify.js";
export { ALIGNER_FORMAT, serializeAligner, saveAligner, loadAligner, type AlignerHeader, type SavedAligner } from "./aligner-file.js";
export {
  ItemsFileWriter, ItemsFilesWriter, mergeShards, shardManifest, inputIdentity, fileSha256, SHARD_MANIFEST,
  type RunIdentity, type ShardManifest, type MergeResult,
} from "./shards.js";
export { splitItems, buildInputs, type SplitOptions, type Splits, type ContextOptions } from "./extract.js";
export {
  words, ExpectedForm, ctxproPasses, COMPAT_NAMES, scoreMode, segmentPart, targetSentenceCounts, scoreSignature, checkHypotheses, scoreSystem,
  pairedBootstrap, scoreFiles, reportTables,
  type ScoreMode, type ScoreOptions, type RuleScore, type SystemScore, type BootstrapSystem, type BootstrapComparison, type BootstrapResult,
  type ScoreReport,
} from "./score.js";
export { mulberry32 } from "../core/prng.js";
