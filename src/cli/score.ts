import { DEFAULT_MODEL } from "../version.js";
import type { Command } from "commander";
import { action, intOption, emit, checkOutputs, checkOneStdin, outputFormat, parseWidth, tableOptions } from "./run.js";
import { InputError } from "../io/errors.js";
import type { ScoringInput, SystemResult } from "../metric/testset.js";
import { AGGREGATES, COMPARE_MODES, DEFAULT_MODE, type Aggregate, type CompareMode } from "../metric/decide.js";
import { CONTEXT_MODES } from "../nn/inputs.js";
import { ProgressLine, bar } from "../core/progress.js";
import type { ContextMode } from "../core/pair-format.js";
import { ZERO_SHOT_AGGREGATE_HELP } from "./scoring.js";

export function parseContext(v: unknown): ContextMode | undefined {
  if (v === undefined) return undefined;
  if (!CONTEXT_MODES.includes(v as ContextMode)) throw new InputError(`--context must be nc, rc or crc, got '${String(v)}'`);
  return v as ContextMode;
}

export function parseFormat(v: unknown): "wmt-xml" | "sgml" | "text" | undefined {
  if (v === undefined) return undefined;
  if (v !== "wmt-xml" && v !== "sgml" && v !== "text") throw new InputError(`--input-format must be wmt-xml, sgml or text, got '${String(v)}'`);
  return v;
}

function fmt(x: number | null, d = 4): string {
  return x === null ? "" : x.toFixed(d);
}

/** A system-level score for print: `n/a` when no segment had a pronoun (not 0, which reads as a verdict). */
export function scoreText(pronounSegments: number, score: number, width = 2): string {
  return pronounSegments === 0 ? "n/a" : score.toFixed(width);
}

/** Options that `score` and `compare` share, named as in docs/cli.md. */
export function scoringOptions(cmd: Command, what: string): Command {
  return cmd
    .requiredOption("-r, --reference <file>", "reference: text file, SGML refset, or a WMT XML file holding reference and systems ('-' = stdin)")
    .option("-t, --translations <files...>", `${what}: files (text/SGML; '-' = stdin) or system names (WMT XML; none = all); -t A B or -t A -t B`)
    .option("--input-format <f>", "wmt-xml | sgml | text (default: detected)")
    .option("--docs <file>", "document ids, one per line (plain text only), so context stops at document boundaries")
    .option("--ref-name <name>", "which reference of a multi-reference XML file")
    .option("--context <mode>", "crc | rc | nc (default: the checkpoint's)")
    .option("-c, --checkpoint <dir>", `ranker, ensemble or masked-pronoun model directory (default: checkpoints/${DEFAULT_MODEL}, scored zero-shot with PMI; docs/meta-eval.md)`)
    .option("--model-dir <dir>", "directory holding transformers models")
    .option("--zero-shot-aggregate <a>", ZERO_SHOT_AGGREGATE_HELP)
    .option("--allow-empty", "accept empty reference segments instead of failing: skipped (nothing to score against), counted in the output and the signature")
    .option("--allow-non-english", "score although the target is not English (the metric is for English targets)")
    .option("--backend <name>", "auto | gpu | node | wasm | cpu", "auto")
    .option("--threads <n>", "scoring threads (auto = up to 2 on wasm/cpu)", "auto")
    .option("--aggregate <a>", "how two sides of a segment are compared: mean (mean contribution per pronoun; default) | pronoun (per-pronoun decisions where the pronouns differ) | sum (the paper's y) | min (the worst pronoun; not count-free)", "mean")
    .option("--mode <m>", `${MODE_HELP}; default ${DEFAULT_MODE}`, DEFAULT_MODE)
    .option("-q, --quiet", "no progress on stderr", false);
}

/**
 * What `score` and `compare` do before any model is loaded: check stdin use and the output path,
 * read the reference and systems, refuse a non-English target and handle empty references.
 */
export async function readCheckedScoringInput(o: Record<string, unknown>, command: string, systems?: (input: ScoringInput) => void): Promise<{ refFile: string; input: ScoringInput; refName: string; dropped: number }> {
  const { checkEnglishTarget, handleEmptyReferences, checkDocsOption } = await import("./scoring.js");
  const { readScoringInput } = await import("../metric/testset.js");
  const { detectFormat } = await import("../io/readers.js");
  const refFile = String(o.reference);
  const hyps = (o.translations as string[] | undefined) ?? [];
  checkOneStdin([refFile, ...hyps, o.docs as string | undefined]);
  await checkOutputs(o.output as string | undefined);
  const format = parseFormat(o.inputFormat) ?? (await detectFormat(refFile));
  checkDocsOption(o.docs as string | undefined, format, refFile);
  const input = await readScoringInput(refFile, hyps, { format, docs: o.docs as string | undefined });
  systems?.(input);
  const refName = (o.refName as string | undefined) ?? input.testSet.references[0]!;
  checkEnglishTarget(input.testSet, refName, Boolean(o.allowNonEnglish), refFile);
  const dropped = handleEmptyReferences(input, refName, Boolean(o.allowEmpty), refFile);
  if (dropped && !o.quiet) process.stderr.write(`proneval ${command}: ${dropped} empty reference segment(s) skipped (--allow-empty)\n`);
  return { refFile, input, refName, dropped };
}

/** The comparison modes, for --help (docs/meta-eval.md). */
export const MODE_HELP =
  "sentence (the scorer reads the system output) | aligned (fast_align the output to the reference; score the reference with each aligned pronoun substituted) | aligned-lcs (the same, aligned by longest common subsequence: no training, any test-set size) | hybrid (the reference with the output's LCS-paired differing pronouns substituted, else the output itself, compared as in sentence mode)";

export function parseMode(v: unknown): CompareMode {
  const m = String(v ?? DEFAULT_MODE);
  if (!COMPARE_MODES.includes(m as CompareMode)) throw new InputError(`--mode must be ${COMPARE_MODES.join(", ")}, got '${m}'`);
  return m as CompareMode;
}

export function parseAggregate(v: unknown): Aggregate {
  const a = String(v ?? "mean");
  if (!AGGREGATES.includes(a as Aggregate)) throw new InputError(`--aggregate must be ${AGGREGATES.join(", ")}, got '${a}'`);
  return a as Aggregate;
}

export function registerScore(program: Command): void {
  tableOptions(
    scoringOptions(
      program
        .command("score")
        .description("Pronoun scores of system outputs against a reference, per system (with --confidence, its bootstrap interval) or per segment; the default model is the masked-pronoun model scored zero-shot (PMI), -c takes a ranker or ensemble"),
      "systems",
    )
      .option("--zero-shot [dir]", `score with a masked-pronoun model zero-shot (default dir: checkpoints/${DEFAULT_MODEL}; docs/pretrain.md)`)
      .option("--segments", "per-segment rows instead of the system table", false)
      .option("--confidence", "each system's score with its 95% bootstrap interval over its pronoun segments (sacrebleu --confidence)", false),
    "everything (segments, pronouns, summaries, signature)",
    " | mtme: MT-metrics-eval score files proneval-REF.sys.score and .seg.score into the directory -o names",
  )
    .option("-b, --bootstrap <n>", "with --confidence: bootstrap resamples", "1000")
    .option("--seed <n>", "with --confidence: seed of the bootstrap draws", "12345")
    .option("-w, --width <n>", "decimals of the printed scores", "2")
    .option("--attention", "with --json: also each side's tokens and attention weights (heat maps in `proneval report`)")
    .option("-o, --output <file>", "write the output here ('-' = stdout, the default); with --format mtme a directory")
    .option("--batch-size <n>", "sides per forward batch", "128")
    .action(
      action(async (o: Record<string, unknown>) => {
        const { formatResult } = await import("../io/table.js");
        const { withContextTag, contextNote, backendTag, scoringProgress } = await import("./scoring.js");
        const context = parseContext(o.context);
        // --format mtme: MT-metrics-eval score files, into the directory -o names (docs/cli.md).
        const mtme = o.format === "mtme";
        const tableFormat = mtme ? "tsv" : await outputFormat(o);
        if (mtme && o.json) throw new InputError("--json is --format json; it cannot be combined with --format mtme");
        if (mtme && (o.output === undefined || o.output === "-")) throw new InputError("--format mtme writes two files (NAME-REF.sys.score, NAME-REF.seg.score): give their directory with -o DIR");
        if (mtme) (await import("../io/atomic.js")).checkOutputDir(String(o.output));
        const batchSize = intOption("--batch-size", String(o.batchSize), 1);
        const width = parseWidth(o.width, 2);
        const samples = intOption("--bootstrap", String(o.bootstrap), 0);
        const seed = intOption("--seed", String(o.seed), 0);
        const confidence = Boolean(o.confidence) && samples > 0;
        const aggregate = parseAggregate(o.aggregate);
        const mode = parseMode(o.mode);
        const { scoreTestSet, signature: fullSignature, scoreDefinition, scoreConfidence } = await import("../metric/testset.js");
        const { input, refName, dropped } = await readCheckedScoringInput({ ...o, output: mtme ? undefined : o.output }, "score");
        if (mtme && dropped) throw new InputError(`--format mtme needs a score for every segment, but --allow-empty skipped ${dropped} empty reference segment(s)`);
        const scorer = await (await import("./scoring.js")).loadCliScorer(o);
        const line = new ProgressLine(process.stderr, Boolean(o.quiet));
        const progress = scoringProgress(line);
        if (!o.quiet) process.stderr.write(`proneval score: ${scorer.backendLine}; checkpoint ${scorer.dir}\n`);
        const t0 = Date.now();
        let results: SystemResult[];
        try {
          results = await scoreTestSet(scorer, input.testSet, input.systems, {
            context,
            aggregate,
            mode,
            reference: o.refName as string | undefined,
            batchSize,
            withAttention: Boolean(o.attention && tableFormat === "json"),
            onProgress: progress.onProgress,
          });
          progress.finish(results.reduce((a, r) => a + r.segments.length, 0) + (results[0]?.segments.length ?? 0));
        } finally {
          line.done();
          scorer.dispose();
        }
        const ctx = context ?? scorer.contextMode;
        const conf = confidence ? results.map((r) => scoreConfidence(r, { samples, seed })) : undefined;
        const signature = withContextTag(
          fullSignature(scorer, {
            context: ctx,
            reference: refName,
            aggregate,
            mode,
            backend: await backendTag(scorer),
            extra: [["bootstrap", conf ? samples : undefined], ["seed", conf ? seed : undefined], ["empty-refs-skipped", dropped || undefined]],
          }),
          ctx,
          input.testSet,
        );
        const seconds = (Date.now() - t0) / 1000;
        if (mtme) {
          const { mtmeFiles } = await import("../io/mtme.js");
          const { writeFilesAtomic } = await import("../io/atomic.js");
          const files = mtmeFiles(
            String(o.output),
            "proneval",
            refName,
            results.map((r) => ({ name: r.system, score: r.summary.score, segments: r.segments.map((g) => g.diff ?? 0) })),
          );
          writeFilesAtomic(files);
          if (!o.quiet) process.stderr.write(`proneval score: ${files.map((f) => f[0]).join(", ")}; ${signature}\n`);
          return;
        }
        let text: string;
        if (tableFormat === "json") {
          text =
            JSON.stringify(
              {
                signature,
                checkpoint: scorer.dir,
                context: ctx,
                contextSource: input.testSet.documentIds === "none" ? "lines" : "docs",
                reference: refName,
                emptyReferencesSkipped: dropped,
                testSet: { name: input.testSet.name, langPair: input.testSet.langPair, format: input.testSet.format, documentIds: input.testSet.documentIds },
                aggregate,
                mode,
                systemScoreDefinition: scoreDefinition(aggregate, mode) + "; with pronounSegments 0 there is no score (the table prints n/a, score is 0 here)",
                systems: results.map((r, i) => (conf ? { ...r, confidence: conf[i] } : r)),
              },
              null,
              1,
            ) + "\n";
        } else {
          const f = (x: number) => x.toFixed(width);
          const table = o.segments
            ? {
                header: ["system", "doc", "seg", "status", "ref_score", "sys_score", "diff", "ref_pronouns", "sys_pronouns", "decisions", ...(mode === "hybrid" ? ["sys_side"] : [])],
                rows: results.flatMap((r) =>
                  r.segments.map((s) => [
                    r.system,
                    s.doc,
                    s.seg,
                    s.status,
                    fmt(s.ref),
                    fmt(s.sys),
                    fmt(s.diff),
                    s.refPronouns.join(" "),
                    s.sysPronouns.join(" "),
                    (s.decisions ?? []).map((d) => `${d.aToken}>${d.bToken}:${d.diff.toFixed(4)}`).join(" "),
                    ...(mode === "hybrid" ? [s.status === "no-pronoun" ? "" : s.substituted ? "substituted" : "output"] : []),
                  ]),
                ),
              }
            : {
                header: ["system", "score", ...(conf ? ["mean", "ci95_low", "ci95_high"] : []), "pronoun_segments", "segments"],
                rows: results.map((r, i) => {
                  const c = conf?.[i];
                  return [r.system, scoreText(r.summary.pronounSegments, r.summary.score, width), ...(conf ? (c ? [f(c.mean), f(c.ci95[0]), f(c.ci95[1])] : ["", "", ""]) : []), r.summary.pronounSegments, r.summary.segments];
                }),
              };
          // sacrebleu style: the legend and the signature follow the table on stdout; --quiet keeps only the table.
          const notes = [
            o.segments
              ? `ref_score, sys_score: the scorer's side scores (sum of pronoun contributions); diff: system vs reference under --aggregate ${aggregate}${aggregate === "pronoun" ? " (mean over the pronouns the system chose differently; empty: no such pronoun)" : ""}; decisions: ref>sys pronoun (contribution difference); status no-pronoun: not scored${mode === "hybrid" ? "; sys_side: substituted (the reference with the output's differing pronouns, as scored) or output (the output itself)" : ""}`
              : `score: % of pronoun segments (reference or system has a pronoun) where the system is not ranked below the reference${mode === "hybrid" ? ` under --aggregate ${aggregate}, the system read as the reference with its differing pronouns substituted where the LCS pairs them, else as its own sentence (--mode hybrid)` : mode !== "sentence" ? ` in the reference's context with the system's aligned pronouns substituted (--mode ${mode}; mean over the substitutions)` : aggregate === "pronoun" ? " in any pronoun it chose differently (per-pronoun decisions, mean)" : ` (--aggregate ${aggregate})`}; n/a: no pronoun segments`,
            contextNote(ctx, input.testSet),
          ];
          if (conf && !o.segments) notes.push(`mean, ci95_low, ci95_high: mean and 95% percentile interval of the score over ${samples} bootstrap resamples of the system's pronoun segments (seed ${seed}); docs/cli.md`);
          const counts = new Set(results.map((r) => r.summary.pronounSegments));
          if (!o.segments && counts.size > 1) notes.push("systems are scored on different pronoun segments (a segment counts when the reference or that system has one); `proneval compare` tests systems on the same ones");
          if (dropped) notes.push(`${dropped} empty reference segment(s) skipped`);
          text = await formatResult([table], tableFormat, { notes, signature, quiet: Boolean(o.quiet) });
        }
        await emit(text, o.output as string | undefined);
        if (!o.quiet) process.stderr.write(`proneval score: ${input.systems.length} system(s), ${results[0]?.segments.length ?? 0} segments, ${seconds.toFixed(1)} s\n`);
      }),
    );
}
