import type { Command } from "commander";
import { action, intOption, emit, checkOutputs } from "./run.js";
import { InputError } from "../io/errors.js";
import { englishShare } from "./scoring.js";
import { readRankerPairs } from "../ranker/data.js";
import { ProgressLine, bar } from "../ranker/progress.js";
import { parseContext, exitQuietlyOnEpipe } from "./score.js";

export function registerEval(program: Command): void {
  program
    .command("eval")
    .description("Ranker accuracy on a pair file (positive scored above negative): overall, by kind, by language, by pronoun pair")
    .requiredOption("--pairs <file>", "pair file (JSONL, .gz ok; '-' = stdin)")
    .option("-c, --checkpoint <dir>", "ranker or ensemble checkpoint (default: checkpoints/ensemble = checkpoints/default + zero-shot checkpoints/pronoun-lm)")
    .option("--model-dir <dir>", "directory holding transformers models")
    .option("--zero-shot [dir]", "score with the masked-pronoun model instead of a ranker (default dir: checkpoints/pronoun-lm; docs/pretrain.md)")
    .option("--zero-shot-aggregate <a>", "zero-shot: pmi (masked log-probabilities minus corpus log-priors, as in the README) | sum", "pmi")
    .option("--context <mode>", "crc | rc | nc (default: the checkpoint's)")
    .option("--json", "print the report as JSON instead of the table", false)
    .option("-o, --output <file>", "write the output here ('-' = stdout, the default)")
    .option("--allow-non-english", "evaluate although the pairs do not look English (the metric is for English targets)")
    .option("--top <n>", "pronoun pairs shown in the table", "25")
    .option("--backend <name>", "auto | gpu | node | wasm | cpu", "auto")
    .option("--threads <n>", "scoring threads (auto = up to 2 on wasm/cpu)", "auto")
    .option("-q, --quiet", "no progress on stderr", false)
    .action(
      action(async (o: Record<string, unknown>) => {
        exitQuietlyOnEpipe();
        const top = intOption("--top", String(o.top), 0);
        await checkOutputs(o.output as string | undefined);
        const { loadScorer } = await import("../ranker/scorer.js");
        const { accuracyReport, formatEvalReport, preparePairs } = await import("../ranker/evaluate.js");
        const scorer = o.zeroShot ? await (await import("../pretrain/scorer.js")).loadZeroShotFromCli(o.zeroShot, o.zeroShotAggregate, String(o.backend)) : await loadScorer(o.checkpoint as string | undefined, { backend: String(o.backend), modelDir: o.modelDir as string | undefined, threads: o.threads === "auto" ? "auto" : intOption("--threads", String(o.threads), 1) });
        const mode = parseContext(o.context) ?? scorer.contextMode;
        const line = new ProgressLine(process.stderr, Boolean(o.quiet));
        try {
          const pairs = await readRankerPairs(String(o.pairs), mode);
          if (!o.allowNonEnglish) {
            const share = englishShare(pairs.slice(0, 2000).map((p) => p.positive));
            if (share !== null && share < 0.1)
              throw new InputError(`the pairs do not look English (${(100 * share).toFixed(1)}% frequent English words, English text has about 30%): the pronoun metric is for English targets; --allow-non-english evaluates anyway`, String(o.pairs));
          }
          const { pos, neg } = preparePairs(pairs, mode, scorer.config.prepare);
          const t0 = Date.now();
          const all = await scorer.scorePrepared(pos.concat(neg), { onBatch: (done) => line.update(`scoring ${bar(done, 2 * pairs.length)} ${done}/${2 * pairs.length} unique sides`) });
          const scores = { pos: Float32Array.from(all.slice(0, pairs.length), (s) => s.score), neg: Float32Array.from(all.slice(pairs.length), (s) => s.score) };
          line.done();
          const report = accuracyReport(pairs, scores, mode);
          const signature = scorer.signature(mode);
          const text = o.json
            ? JSON.stringify({ signature, checkpoint: scorer.dir, pairsFile: o.pairs, seconds: (Date.now() - t0) / 1000, ...report }, null, 1) + "\n"
            : formatEvalReport(report, top) + `\nsignature: ${signature}\n`;
          await emit(text, o.output as string | undefined);
        } finally {
          line.done();
          scorer.dispose();
        }
      }),
    );
}
