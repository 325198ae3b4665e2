/** Input checks shared by `score` and `compare` (and the English-target check of `eval`), and how they load their scorer. */
import { InputError } from "../io/errors.js";
import type { TestSet } from "../io/model.js";
import type { ScoringInput } from "../metric/testset.js";
import type { ContextMode } from "../core/pair-format.js";
import type { PronounScorer } from "../core/scorer.js";
import { bar, type ProgressLine } from "../core/progress.js";
import { intOption } from "./run.js";
import { DEFAULT_ZERO_SHOT_AGGREGATE, ZERO_SHOT_AGGREGATES, isZeroShotAggregate, type ZeroShotAggregate } from "../pretrain/aggregate.js";

// Frequent English function words: in English text about a third of the word tokens are among them;
// in other languages (even Latin-script ones) a few percent at most.
const ENGLISH = new Set(
  "the of and to a in is it that for you he she they was with on as i we his her be at by this are not have but from or an had my me what so if all there their would were been one can do will no".split(" "),
);

/** Share of word tokens that are frequent English function words (null when there are too few words). */
export function englishShare(segments: string[]): number | null {
  let n = 0;
  let hits = 0;
  for (const s of segments) {
    for (const w of s.toLowerCase().match(/\p{L}+/gu) ?? []) {
      n++;
      if (ENGLISH.has(w)) hits++;
    }
    if (n > 20000) break;
  }
  return n < 20 ? null : hits / n;
}

/**
 * The metric scores English pronouns: refuse a test set whose declared target language is not English,
 * or whose reference does not look English, unless overridden.
 */
export function checkEnglishTarget(ts: TestSet, refName: string, allow: boolean, file: string): void {
  if (allow) return;
  const how = "the pronoun metric is for English targets (into-English test sets); --allow-non-english scores anyway";
  if (ts.tgtLang && ts.tgtLang !== "und" && ts.tgtLang !== "en") throw new InputError(`the target language is '${ts.tgtLang}' (${ts.langPair}): ${how}`, file);
  const share = englishShare(ts.docs.flatMap((d) => d.refs[refName] ?? []));
  if (share !== null && share < 0.1)
    throw new InputError(`the reference does not look English (${(100 * share).toFixed(1)}% frequent English words, English text has about 30%): ${how}`, file);
}

/**
 * Empty reference segments cannot be scored: an error naming the segment, or with allowEmpty they are
 * dropped from every side (counted and reported). Returns how many were dropped.
 */
export function handleEmptyReferences(input: ScoringInput, refName: string, allowEmpty: boolean, file: string): number {
  let dropped = 0;
  for (const d of input.testSet.docs) {
    const ref = d.refs[refName];
    if (!ref) continue;
    const keep: number[] = [];
    ref.forEach((s, i) => {
      if (s.trim() !== "") keep.push(i);
      else if (!allowEmpty) {
        const where = d.lines?.[i] !== undefined ? `line ${d.lines[i]}` : `document "${d.id}" segment ${d.segIds[i]}`;
        throw new InputError(`empty reference segment (${where}); --allow-empty skips such segments`, file, d.lines?.[i]);
      }
    });
    if (keep.length === ref.length) continue;
    dropped += ref.length - keep.length;
    const pick = <T>(xs: T[] | undefined): T[] | undefined => xs && keep.map((i) => xs[i]!);
    d.segIds = pick(d.segIds)!;
    if (d.lines) d.lines = pick(d.lines);
    if (d.src) d.src = pick(d.src);
    for (const k of Object.keys(d.refs)) d.refs[k] = pick(d.refs[k])!;
    for (const k of Object.keys(d.hyps)) d.hyps[k] = pick(d.hyps[k])!;
  }
  return dropped;
}

/** `ctx:crc` becomes `ctx:crc-lines` (previous lines of the file) or `ctx:crc-docs` (documents). */
export function contextTag(context: ContextMode, ts: TestSet): string {
  return `${context}-${ts.documentIds === "none" ? "lines" : "docs"}`;
}

export function withContextTag(signature: string, context: ContextMode, ts: TestSet): string {
  return signature.replace(`|ctx:${context}|`, `|ctx:${contextTag(context, ts)}|`);
}

/** One line saying where the context came from (the table output states it, not only the JSON). */
export function contextNote(context: ContextMode, ts: TestSet): string {
  if (context === "nc") return "context: none (nc)";
  return ts.documentIds === "none"
    ? `context: the previous lines of the file (${context}; no document ids, so it crosses document boundaries: --docs FILE stops it there)`
    : `context: previous sentences of the same document (${context})`;
}

/** `--docs` is for plain text; XML and SGML carry their own document ids. */
export function checkDocsOption(docs: string | undefined, format: string, file: string): void {
  if (docs !== undefined && format !== "text") throw new InputError(`--docs is for plain text; this ${format} file has its own document ids`, file);
}

/**
 * The tfjs backend a model scorer ran on, for the signature (`backend:wasm`, `backend:tensorflow-gpu`):
 * float order of operations differs between backends, so scores can differ in the last digits. Undefined
 * for a scorer without a model (pronoun counts).
 */
export async function backendTag(scorer: PronounScorer): Promise<string | undefined> {
  if (!scorer.backendLine.startsWith("backend:")) return undefined;
  // Loaded here, not at the top: tfjs must not load for commands that never score.
  const b = (await import("../nn/backend.js")).currentBackend();
  return b ? `${b.backend}${b.device && b.backend === "tensorflow" ? "-gpu" : ""}` : undefined;
}

/**
 * Progress of scoring sides on a ProgressLine: the scorers count unique sides, so the last batch may stop
 * short of the total; finish() prints the line at 100% (logs then end with it instead of a frozen bar).
 */
export function scoringProgress(line: ProgressLine): { onProgress: (done: number, total: number) => void; finish: (total: number) => void } {
  return {
    onProgress: (done, total) => line.update(`scoring ${bar(done, total)} ${done}/${total} sides`),
    finish: (total) => {
      line.update(`scoring ${bar(1, 1)} ${total} sides done`, true);
      line.done();
    },
  };
}

/**
 * The scorer of `score`, `compare` and `eval`: `-c DIR` (a ranker, ensemble or masked-pronoun model
 * directory), `--zero-shot [DIR]` (a masked-pronoun model; default the shipped one) or neither (the shipped
 * default, a masked-pronoun model). `--zero-shot-aggregate` is checked before any model is loaded and
 * applies whenever the scorer is zero-shot, the default model included; given for a ranker or an ensemble,
 * whose scores do not use it, it is refused rather than ignored. So is `-c` beside `--zero-shot`: both name a model.
 */
export async function loadCliScorer(o: Record<string, unknown>): Promise<PronounScorer> {
  const aggregate = parseZeroShotAggregate(o.zeroShotAggregate);
  const zeroShot = o.zeroShot !== undefined && o.zeroShot !== false;
  if (zeroShot && o.checkpoint !== undefined)
    throw new InputError("-c/--checkpoint and --zero-shot both name a model: give one (-c DIR scores a masked-pronoun model directory zero-shot too)");
  const backend = String(o.backend ?? "auto");
  if (zeroShot) {
    const { loadZeroShotScorer } = await import("../pretrain/scorer.js");
    return loadZeroShotScorer(o.zeroShot === true ? undefined : String(o.zeroShot), { backend, aggregate });
  }
  const { loadScorer } = await import("../metric/load.js");
  const threads = o.threads === undefined || o.threads === "auto" ? "auto" : intOption("--threads", String(o.threads), 1);
  const scorer = await loadScorer(o.checkpoint as string | undefined, { backend, modelDir: o.modelDir as string | undefined, threads, zeroShotAggregate: aggregate });
  if (o.zeroShotAggregate !== undefined && scorer.kind !== "zero-shot") {
    scorer.dispose();
    throw new InputError(`--zero-shot-aggregate is for masked-pronoun models scored zero-shot; ${scorer.dir} is a ${scorer.kind} scorer, whose scores do not use it`);
  }
  return scorer;
}

/** Help of `--zero-shot-aggregate` (score, compare, eval, meta-eval). */
export const ZERO_SHOT_AGGREGATE_HELP =
  "masked-pronoun models scored zero-shot (the default model, --zero-shot, or -c with such a model): pmi (log-probabilities minus corpus log-priors) | sum (log-probabilities) | margin (PMI minus the best PMI of a pronoun that could stand there, capped at 0) | calibrated (minus per-pronoun biases fitted by proneval calibrate)" +
  ` (default: ${DEFAULT_ZERO_SHOT_AGGREGATE}; docs/meta-eval.md)`;

/** `--zero-shot-aggregate` (masked-pronoun models scored zero-shot); absent: the library's default. */
export function parseZeroShotAggregate(v: unknown): ZeroShotAggregate {
  const a = v === undefined ? DEFAULT_ZERO_SHOT_AGGREGATE : String(v);
  if (!isZeroShotAggregate(a)) throw new InputError(`--zero-shot-aggregate must be ${ZERO_SHOT_AGGREGATES.join(", ")}, got '${a}'`);
  return a;
}
