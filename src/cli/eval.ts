import { DEFAULT_MODEL } from "../version.js";
import type { Command } from "commander";
import { action, intOption, emit, checkOutputs, outputFormat, tableOptions } from "./run.js";
import { InputError } from "../io/errors.js";
import { englishShare, loadCliScorer, ZERO_SHOT_AGGREGATE_HELP } from "./scoring.js";
import { readRankerPairs } from "../nn/data.js";
import { ProgressLine, bar } from "../core/progress.js";
import { MODE_HELP, parseContext, parseAggregate, parseMode } from "./score.js";
import { DEFAULT_MODE } from "../metric/decide.js";

export function registerEval(program: Command): void {
  tableOptions(
    program
      .command("eval")
      .description("Scorer accuracy on a pair file (positive preferred over negative): overall, R vs S, R vs R', balanced R vs R', by language, by pronoun pair")
      .requiredOption("--pairs <file>", "pair file (JSONL, .gz ok; '-' = stdin)")
      .option("-c, --checkpoint <dir>", `ranker, ensemble or masked-pronoun model directory (default: checkpoints/${DEFAULT_MODEL}, scored zero-shot with PMI; docs/meta-eval.md)`)
      .option("--model-dir <dir>", "directory holding transformers models")
      .option("--zero-shot [dir]", `score with a masked-pronoun model zero-shot (default dir: checkpoints/${DEFAULT_MODEL}; docs/pretrain.md)`)
      .option("--zero-shot-aggregate <a>", ZERO_SHOT_AGGREGATE_HELP)
      .option("--context <mode>", "crc | rc | nc (default: the checkpoint's)")
      .option("--aggregate <a>", "how the two sides are compared: mean (mean contribution per pronoun; default) | pronoun (per-pronoun decisions) | sum (the paper's y) | min (the worst pronoun; not count-free)", "mean")
      .option("--mode <m>", `${MODE_HELP}; default ${DEFAULT_MODE} (on a pair that differs only in pronouns it equals sentence mode)`, DEFAULT_MODE)
      .option("-o, --output <file>", "write the output here ('-' = stdout, the default)")
      .option("--allow-non-english", "evaluate although the pairs do not look English (the metric is for English targets)")
      .option("--top <n>", "pronoun pairs shown in the table", "25")
      .option("--backend <name>", "auto | gpu | node | wasm | cpu", "auto")
      .option("--threads <n>", "scoring threads (auto = up to 2 on wasm/cpu)", "auto")
      .option("-q, --quiet", "no progress on stderr; only the tables on stdout (no signature)", false),
    "the report (every pronoun pair, signature)",
  ).action(
    action(async (o: Record<string, unknown>) => {
      const format = await outputFormat(o);
      const top = intOption("--top", String(o.top), 0);
      await checkOutputs(o.output as string | undefined);
      const { compareMany, marginsOf, pairItems, pairAccuracy, pairAccuracyTables } = await import("../metric/pairs.js");
      const { formatResult } = await import("../io/table.js");
      const { signature: fullSignature } = await import("../metric/testset.js");
      const aggregate = parseAggregate(o.aggregate);
      const compareMode = parseMode(o.mode);
      const scorer = await loadCliScorer(o);
      const mode = parseContext(o.context) ?? scorer.contextMode;
      const line = new ProgressLine(process.stderr, Boolean(o.quiet));
      try {
        const pairs = await readRankerPairs(String(o.pairs), mode);
        if (!o.allowNonEnglish) {
          const share = englishShare(pairs.slice(0, 2000).map((p) => p.positive));
          if (share !== null && share < 0.1)
            throw new InputError(`the pairs do not look English (${(100 * share).toFixed(1)}% frequent English words, English text has about 30%): the pronoun metric is for English targets; --allow-non-english evaluates anyway`, String(o.pairs));
        }
        const t0 = Date.now();
        const { scoringProgress, backendTag } = await import("./scoring.js");
        const progress = scoringProgress(line);
        const items = pairItems(pairs, mode);
        const values = await compareMany(scorer, items, aggregate, compareMode, progress.onProgress);
        progress.finish(2 * items.length);
        const report = pairAccuracy(String(o.pairs), pairs, marginsOf(values));
        const signature = fullSignature(scorer, { context: mode, aggregate, mode: compareMode, backend: await backendTag(scorer) });
        const text =
          format === "json"
            ? JSON.stringify({ signature, checkpoint: scorer.dir, pairsFile: o.pairs, seconds: (Date.now() - t0) / 1000, ...report }, null, 1) + "\n"
            : await formatResult(pairAccuracyTables(report, top), format, { notes: ["acc%: % of pairs where the positive side is scored above the negative (ties count as wrong)"], signature, quiet: Boolean(o.quiet) });
        await emit(text, o.output as string | undefined);
      } finally {
        line.done();
        scorer.dispose();
      }
    }),
  );
}
