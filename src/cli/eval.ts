import type { Command } from "commander";
import { action, intOption } from "./run.js";
import { writeFileAtomic } from "../io/atomic.js";
import { readRankerPairs } from "../ranker/data.js";
import { ProgressLine, bar } from "../ranker/progress.js";
import { parseContext, exitQuietlyOnEpipe } from "./score.js";

export function registerEval(program: Command): void {
  program
    .command("eval")
    .description("Ranker accuracy on a pair file (positive scored above negative): overall, by kind, by language, by pronoun pair")
    .requiredOption("--pairs <file>", "pair file (JSONL, .gz ok)")
    .option("-c, --checkpoint <dir>", "ranker or ensemble checkpoint (default: checkpoints/ensemble = checkpoints/default + zero-shot checkpoints/pronoun-lm)")
    .option("--model-dir <dir>", "directory holding transformers models")
    .option("--zero-shot [dir]", "score with the masked-pronoun model instead of a ranker (default dir: checkpoints/pronoun-lm; docs/pretrain.md)")
    .option("--zero-shot-aggregate <a>", "zero-shot: sum (of masked log-probabilities) | pmi (minus corpus log-priors)", "sum")
    .option("--context <mode>", "crc | rc | nc (default: the checkpoint's)")
    .option("--json <file>", "write the report as JSON ('-' = stdout instead of the table)")
    .option("--top <n>", "pronoun pairs shown in the table", "25")
    .option("--backend <name>", "auto | gpu | node | wasm | cpu", "auto")
    .option("--threads <n>", "scoring threads (auto = up to 2 on wasm/cpu)", "auto")
    .option("--quiet", "no progress on stderr", false)
    .action(
      action(async (o: Record<string, unknown>) => {
        exitQuietlyOnEpipe();
        const top = intOption("--top", String(o.top), 0);
        const { loadScorer } = await import("../ranker/scorer.js");
        const { accuracyReport, formatEvalReport, preparePairs } = await import("../ranker/evaluate.js");
        const scorer = o.zeroShot ? await (await import("../pretrain/scorer.js")).loadZeroShotFromCli(o.zeroShot, o.zeroShotAggregate, String(o.backend)) : await loadScorer(o.checkpoint as string | undefined, { backend: String(o.backend), modelDir: o.modelDir as string | undefined, threads: o.threads === "auto" ? "auto" : intOption("--threads", String(o.threads), 1) });
        const mode = parseContext(o.context) ?? scorer.contextMode;
        const line = new ProgressLine(process.stderr, Boolean(o.quiet));
        try {
          const pairs = await readRankerPairs(String(o.pairs), mode);
          const { pos, neg } = preparePairs(pairs, mode, scorer.config.prepare);
          const t0 = Date.now();
          const all = await scorer.scorePrepared(pos.concat(neg), { onBatch: (done) => line.update(`scoring ${bar(done, 2 * pairs.length)} ${done}/${2 * pairs.length} unique sides`) });
          const scores = { pos: Float32Array.from(all.slice(0, pairs.length), (s) => s.score), neg: Float32Array.from(all.slice(pairs.length), (s) => s.score) };
          line.done();
          const report = accuracyReport(pairs, scores, mode);
          const signature = scorer.signature(mode);
          if (o.json) {
            const json = JSON.stringify({ signature, checkpoint: scorer.dir, pairsFile: o.pairs, seconds: (Date.now() - t0) / 1000, ...report }, null, 1) + "\n";
            if (o.json === "-") process.stdout.write(json);
            else writeFileAtomic(String(o.json), json);
          }
          if (o.json !== "-") process.stdout.write(formatEvalReport(report, top) + `\nsignature: ${signature}\n`);
        } finally {
          line.done();
          scorer.dispose();
        }
      }),
    );
}
