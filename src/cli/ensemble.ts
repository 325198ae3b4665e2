import type { Command } from "commander";
import { action, emit, intOption, floatOption } from "./run.js";
import { ProgressLine, bar } from "../core/progress.js";
import { checkOutputDir } from "../io/atomic.js";
import { makeSignature } from "../signature.js";

export function registerEnsemble(program: Command): void {
  program
    .command("ensemble")
    .description("Build an ensemble checkpoint: ranker score + a * zero-shot PMI of the masked-pronoun model, a fitted on training pairs (docs/pretrain.md)")
    .requiredOption("--ranker <dir>", "ranker checkpoint directory")
    .requiredOption("--lm <dir>", "masked-pronoun model directory (with a pronoun prior)")
    .requiredOption("--train <file>", "training pair file the weight is fitted on (never dev)")
    .requiredOption("-o, --output <dir>", "output directory (config.json only; components are referenced by relative path)")
    .option("--force", "overwrite an existing checkpoint in the output directory", false)
    .option("--method <m>", "train-accuracy | logistic | equal-spread | given", "train-accuracy")
    .option("--weight <a>", "with --method given: the weight a")
    .option("--max-train-pairs <n>", "use only the first N training pairs (0 = all)", "0")
    .option("--backend <name>", "auto | gpu | node | wasm | cpu", "auto")
    .option("--threads <n>", "ranker scoring threads (auto = up to 2 on wasm/cpu)", "auto")
    .option("-q, --quiet", "no progress on stderr, no signature on stdout", false)
    .action(
      action(async (o: Record<string, unknown>) => {
        const { buildEnsemble } = await import("../metric/ensemble.js");
        checkOutputDir(String(o.output), { overwrite: Boolean(o.force), what: "a checkpoint", flags: "--force" });
        const line = new ProgressLine(process.stderr, Boolean(o.quiet));
        try {
          const cfg = await buildEnsemble(
            {
              ranker: String(o.ranker),
              lm: String(o.lm),
              train: String(o.train),
              out: String(o.output),
              method: String(o.method) as "train-accuracy",
              weight: o.weight === undefined ? undefined : floatOption("--weight", String(o.weight)),
              maxTrainPairs: intOption("--max-train-pairs", String(o.maxTrainPairs), 0),
              backend: String(o.backend),
              threads: o.threads === "auto" ? "auto" : intOption("--threads", String(o.threads), 1),
            },
            (what, done, total) => line.update(`${what} ${bar(done, total)} ${done}/${total}`),
          );
          line.done();
          const c = cfg.choice.candidates;
          const pct = (x: number): string => (100 * x).toFixed(2);
          await emit(
            [
              `training pairs: ${c.pairs} (ranker alone ${pct(c.rankerAccuracy)}%, zero-shot PMI alone ${pct(c.lmAccuracy)}%)`,
              `train-accuracy: a = ${c.trainAccuracy.a.toPrecision(4)} (best interval ${c.trainAccuracy.interval.map((x) => x.toPrecision(4)).join("..")}), ${pct(c.trainAccuracy.accuracy)}%`,
              `logistic:       a = ${c.logistic.a.toPrecision(4)}, ${pct(c.logistic.accuracy)}%`,
              `equal-spread:   a = ${c.equalSpread.a.toPrecision(4)}, ${pct(c.equalSpread.accuracy)}%`,
              `chosen (${cfg.choice.method}): a = ${cfg.weight.toPrecision(4)}; wrote ${String(o.output)}/config.json (ranker ${cfg.ranker.path}, lm ${cfg.lm.path})`,
              // The accuracies above are numbers too: name what produced them, as every scoring command does.
              ...(o.quiet
                ? []
                : [
                    `signature: ${makeSignature("proneval-ensemble", [
                      ["ranker", `@${cfg.ranker.weightsSha256.slice(0, 8)}`],
                      ["lm", `pronoun-lm-pmi@${cfg.lm.weightsSha256.slice(0, 8)}`],
                      ["method", cfg.choice.method],
                      ["a", cfg.weight.toPrecision(4)],
                      ["train", String(cfg.data.train)],
                      ["backend", (await import("../nn/backend.js")).currentBackend()?.backend],
                    ])}`,
                  ]),
            ].join("\n") + "\n",
          );
        } finally {
          line.done();
        }
      }),
    );
}
