import type { Command } from "commander";
import { action, rangeOption } from "./run.js";
import { writePairFiles, pairFileName } from "../mine/build.js";
import { InputError } from "../io/errors.js";
import { checkOutputDir } from "../io/atomic.js";
import type { ContextMode } from "../core/pair-format.js";

export function registerPairs(program: Command): void {
  program
    .command("pairs")
    .description("build R-vs-S and noisy R-vs-R' pairs (train = wmt21+22, dev = wmt23) from mined mismatches")
    .argument("<mismatches...>", "mismatch JSONL files written by `proneval mine` (plain or .gz)")
    .requiredOption("-o, --output <dir>", "output directory (its parent must exist)")
    .option("--context <mode>", "context mode: crc | rc | nc | all", "all")
    .option("--keep-all", "keep every mismatch (skip the agreement filter of Sec. 5.1)")
    .option("--threshold <x>", "minimum pooled user-study agreement", "0.8")
    .option("--judgements <file>", "pronoun-pair judgements (default: data/pronoun_pairs.json)")
    .option("--no-gzip", "write plain .jsonl")
    .option("-q, --quiet", "no summary on stderr")
    .action(
      action(async (inputs: string[], o: { output: string; quiet?: boolean; context: string; keepAll?: boolean; threshold: string; judgements?: string; gzip: boolean }) => {
        const all: ContextMode[] = ["crc", "rc", "nc"];
        if (o.context !== "all" && !all.includes(o.context as ContextMode))
          throw new InputError(`unknown context mode '${o.context}' (expected crc, rc, nc or all)`);
        const modes = o.context === "all" ? all : [o.context as ContextMode];
        // An agreement is a share: a threshold outside [0, 1] would silently keep all or nothing.
        const threshold = rangeOption("--threshold", o.threshold, 0, 1);
        checkOutputDir(o.output);
        const res = await writePairFiles(inputs, {
          outDir: o.output,
          modes,
          keepAll: o.keepAll,
          threshold,
          judgementsFile: o.judgements,
          gzip: o.gzip,
        });
        if (o.quiet) return;
        const first = res[modes[0]!];
        const c = first.counts;
        process.stderr.write(
          `mismatches: ${c.mismatches} read, ${c.outsideSplits} outside the train/dev years, ${c.mismatchesKept} kept by the filter\n` +
            `duplicates removed: ${c.duplicateSystemPairs} system, ${c.duplicateNoisyPairs} noisy; train pairs dropped for overlapping dev: ${c.trainDroppedOverlap}\n`,
        );
        for (const mode of modes) {
          for (const split of ["train", "dev"] as const) {
            const ps = res[mode].pairs[split];
            const sys = ps.filter((p) => p.kind === "system").length;
            process.stderr.write(`${o.output}/${pairFileName(split, mode, o.gzip)}: ${sys} system, ${ps.length - sys} noisy\n`);
          }
        }
      }),
    );
}
