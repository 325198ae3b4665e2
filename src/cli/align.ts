import { availableParallelism } from "node:os";
import type { Command } from "commander";
import { runAlignCommand } from "../align/command.js";
import { parseHeuristic, HEURISTICS } from "../align/symmetrize.js";
import { InputError } from "../io/errors.js";
import { action, checkOutputs, floatOption, intOption } from "./run.js";

export function registerAlign(program: Command): void {
  program
    .command("align")
    .description("word alignment with fast_align's model (IBM Model 2 + diagonal prior); input 'src ||| tgt' lines, output Pharaoh i-j")
    .requiredOption("-i, --input <file>", "parallel corpus, one 'source ||| target' pair per line (plain or .gz; '-' = stdin)")
    .option("-r, --reverse", "reverse direction: each source word picks a target word", false)
    .option("-d, --favor-diagonal", "diagonal prior (recommended)", false)
    .option("-o, --optimize-tension", "optimise the diagonal tension (recommended)", false)
    .option("--exact-tension", "with -o: the true tension gradient (C++ fast_align calls ComputeZ with m and n swapped; the default reproduces it)", false)
    .option("-v, --variational-bayes", "Dirichlet prior on translation distributions (recommended)", false)
    .option("-N, --no-null-word", "no NULL word")
    .option("-I, --iterations <n>", "EM iterations including the final alignment pass", "5")
    .option("-T, --diagonal-tension <x>", "starting tension (implies -d)")
    .option("-q, --p0 <x>", "NULL alignment prior under -d", "0.08")
    .option("-a, --alpha <x>", "Dirichlet concentration for -v", "0.01")
    .option("-p, --conditional-probabilities <file>", "write the translation table (e TAB f TAB ln p), like fast_align -p")
    .option("-t, --beam-threshold <x>", "beam for -p, as fast_align", "-4")
    .option("--symmetrize <heuristic>", `train both directions and symmetrise: ${HEURISTICS.join(", ")} (or gd, gdf, gdfa)`)
    .option("--output <file>", "write alignments here (atomically) instead of stdout (no -o: that is fast_align's --optimize-tension)")
    .option("--posteriors <file>", "write each pair's posterior matrix P(a_j = i) as JSONL")
    .option("--save-model <file>", "save the trained model (with --symmetrize: FILE.fwd and FILE.rev)")
    .option("--model <file>", "align with a saved model instead of training (like fast_align -f)")
    .option("--threads <n>", "threads: the EM of one direction (same output as 1 thread), or the two directions of --symmetrize", String(Math.min(2, availableParallelism())))
    .option("--dedupe", "with --symmetrize: train on distinct pairs weighted by count (same EM, faster; may differ from fast_align on near-ties)", false)
    .option("--verbose", "print fast_align's per-iteration diagnostics on stderr", false)
    .addHelpText(
      "after",
      "\nThe short flags are fast_align's own (-r reverse, -o optimize tension, -q p0, -t beam threshold, -d, -v, -N, -I, -T, -a, -p)\n" +
        "and hold only under `proneval align`; elsewhere -r is --reference, -o --output, -q --quiet, -t --translations (docs/cli.md).",
    )
    .action(
      action(async (opts: Record<string, string | boolean | undefined>) => {
        await checkOutputs(opts.output as string | undefined, opts.conditionalProbabilities as string | undefined, opts.posteriors as string | undefined, opts.saveModel as string | undefined);
        let symmetrize;
        if (opts.symmetrize !== undefined) {
          symmetrize = parseHeuristic(String(opts.symmetrize));
          if (!symmetrize) throw new InputError(`unknown --symmetrize heuristic '${opts.symmetrize}' (use ${HEURISTICS.join(", ")}, gd, gdf or gdfa)`);
        }
        const alpha = floatOption("--alpha", String(opts.alpha));
        if (opts.variationalBayes && !(alpha > 0)) throw new InputError("--alpha must be > 0");
        const p0 = floatOption("--p0", String(opts.p0));
        if (!(p0 >= 0 && p0 < 1)) throw new InputError(`--p0 must be in [0, 1), got ${p0}`);
        let tension: number | undefined;
        if (opts.diagonalTension !== undefined) {
          tension = floatOption("--diagonal-tension", String(opts.diagonalTension));
          if (!(tension > 0)) throw new InputError(`--diagonal-tension must be > 0, got ${tension}`);
        }
        await runAlignCommand({
          input: String(opts.input),
          reverse: Boolean(opts.reverse),
          favorDiagonal: Boolean(opts.favorDiagonal),
          optimizeTension: Boolean(opts.optimizeTension),
          exactTension: Boolean(opts.exactTension),
          variationalBayes: Boolean(opts.variationalBayes),
          noNullWord: opts.nullWord === false,
          iterations: intOption("--iterations", String(opts.iterations), 1),
          diagonalTension: tension,
          probAlignNull: p0,
          alpha,
          symmetrize,
          out: opts.output as string | undefined,
          condProbs: opts.conditionalProbabilities as string | undefined,
          beamThreshold: floatOption("--beam-threshold", String(opts.beamThreshold)),
          posteriors: opts.posteriors as string | undefined,
          saveModel: opts.saveModel as string | undefined,
          model: opts.model as string | undefined,
          threads: intOption("--threads", String(opts.threads), 1),
          dedupe: Boolean(opts.dedupe),
          verbose: Boolean(opts.verbose),
        });
      }),
    );
}
