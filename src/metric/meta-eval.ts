// Meta-evaluation of a pronoun scorer against people and bias probes (docs/meta-eval.md), in the
// spirit of Google's mt-metrics-eval: pair accuracy (incl. balanced R vs R'), human pronoun errors
// from MQM annotations (same-source pairs, segment AUC, system-level correlation), hand-judged pairs
// (accuracy, Gwet's AC1) and an appended-clause probe.
//
// Its parts: meta-eval-inputs.ts (what is read), meta-eval-measures.ts (each measure of one scorer),
// meta-eval-tables.ts (the reports as tables).
import type { ContextMode } from "../core/pair-format.js";
import type { PronounScorer } from "../core/scorer.js";
import { DEFAULT_MODE, type Aggregate, type CompareMode } from "./decide.js";
import { compareMany, marginsOf, pairAccuracy, pairItems } from "./pairs.js";
import type { MetaEvalInputs } from "./meta-eval-inputs.js";
import { appendProbe, judgedReport, mqmReport, pairSamples, pronounPairReport, type MeasureSamples, type PronounPairReport, type ScorerMetaEval } from "./meta-eval-measures.js";

export { readJudgements, mqmSourceLang, type Judgement, type JudgementLabel, type MetaEvalInputs } from "./meta-eval-inputs.js";
export {
  gwetAc1,
  kendallTau,
  pearson,
  auc,
  mqmReferenceFor,
  mqmMeasures,
  aptSignature,
  aptMqmReport,
  metaEvalSignificance,
  identityCeiling,
  pronounPairReport,
  MIN_PER_DIRECTION,
  PROBE_CLAUSES,
  type MeasureSamples,
  type ScorerMetaEval,
  type JudgedReport,
  type MqmReport,
  type SystemScorePart,
  type ProbeReport,
  type PronounPairDirections,
  type PronounPairReport,
} from "./meta-eval-measures.js";
export { metaEvalTable, significanceTable, pronounPairTables } from "./meta-eval-tables.js";

/** Every measure of one scorer on the inputs (each input that is given), with the bootstrap's samples. */
export async function metaEvaluate(
  name: string,
  scorer: PronounScorer,
  signature: string,
  inputs: MetaEvalInputs,
  opts: { aggregate: Aggregate; mode?: CompareMode; context?: ContextMode; onStage?: (stage: string) => void },
): Promise<ScorerMetaEval> {
  const context = opts.context ?? scorer.contextMode;
  const mode = opts.mode ?? DEFAULT_MODE;
  const samples: MeasureSamples = new Map();
  const out: ScorerMetaEval = { name, kind: scorer.kind, signature, pairs: [], samples };
  const pronounPairs: PronounPairReport[] = [];
  for (const p of inputs.pairs) {
    opts.onStage?.(`${name}: pairs ${p.file}`);
    const values = await compareMany(scorer, pairItems(p.pairs, context), opts.aggregate, mode);
    const margins = marginsOf(values);
    const acc = pairAccuracy(p.file, p.pairs, margins);
    out.pairs.push(acc);
    pronounPairs.push(pronounPairReport(p.file, p.pairs, acc));
    pairSamples(samples, p.file, p.pairs, margins);
  }
  if (inputs.judgements) {
    opts.onStage?.(`${name}: judgements`);
    out.judged = await judgedReport(scorer, inputs.judgements.file, inputs.judgements.items, opts.aggregate, context, mode, samples);
  }
  if (inputs.mqm) {
    opts.onStage?.(`${name}: MQM`);
    out.mqm = await mqmReport(scorer, inputs.mqm, opts.aggregate, context, mode, samples);
  }
  const probe = inputs.probe ?? inputs.pairs[0];
  if (probe) {
    opts.onStage?.(`${name}: probe`);
    out.probe = await appendProbe(scorer, probe.file, probe.pairs, opts.aggregate, context, inputs.probeLimit ?? 1000, inputs.seed ?? 1, mode, samples);
  }
  if (pronounPairs.length) out.pronounPairs = pronounPairs;
  return out;
}
