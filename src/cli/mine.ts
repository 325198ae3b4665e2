import type { Command } from "commander";
import { join } from "node:path";
import { action, intOption, checkOutputs } from "./run.js";
import { InputError } from "../io/errors.js";
import { runMine } from "../mine/run.js";
import { PACKAGE_ROOT } from "../version.js";

export function registerMine(program: Command): void {
  program
    .command("mine")
    .description("align system outputs with their reference and record every pronoun translated as a different pronoun")
    .argument("[inputs...]", "WMT year directories (e.g. ../shared/data/wmt/wmt23) or test-set files; default: the shipped sample")
    .option("-o, --output <file>", "output JSONL (.gz to compress; '-' = stdout, the default)", "-")
    .option("-q, --quiet", "no progress on stderr")
    .option("-l, --lang <pairs>", "only these language pairs, comma-separated (e.g. de-en,ru-en)")
    .option("--all-refs", "mine against every reference, not only the first")
    .option("--context-size <n>", "previous sentences kept as context", "2")
    .option("-I, --iterations <n>", "fast_align EM iterations", "5")
    .option("--threads <n>", "worker threads for the two alignment directions", "2")
    .option("--fast-align-tension", "use C++ fast_align's tension gradient (biased towards 0.1) instead of the corrected one")
    .action(
      action(async (inputs: string[], o: { output: string; quiet?: boolean; lang?: string; allRefs?: boolean; contextSize: string; iterations: string; threads: string; fastAlignTension?: boolean }) => {
        if (inputs.includes("-")) throw new InputError("mine reads WMT year directories or test-set files by name (their names give the test set, language pair and systems); standard input ('-') cannot be mined: save it to a file");
        const src = inputs.length ? inputs : [join(PACKAGE_ROOT, "data", "sample", "wmttest2023.ru-en.sample.xml.gz")];
        await checkOutputs(o.output);
        const t0 = Date.now();
        const stats = await runMine(src, {
          output: o.output,
          pairs: o.lang?.split(",").map((s) => s.trim()).filter(Boolean),
          allReferences: o.allRefs,
          contextSize: intOption("--context-size", o.contextSize),
          iterations: intOption("--iterations", o.iterations, 1),
          threads: intOption("--threads", o.threads, 1),
          exactTension: !o.fastAlignTension,
          quiet: o.quiet,
          log: (m) => (o.quiet ? undefined : process.stderr.write(`${m}\n`)),
        });
        if (stats.segmentPairs === 0) throw new InputError(`no reference/system segment pairs in ${src.join(", ")}: give WMT year directories or test sets with system outputs (a plain text file alone has none)`);
        if (!o.quiet) process.stderr.write(
          `mined ${stats.testsets} test sets: ${stats.segmentPairs} reference/system segment pairs (${stats.skippedEmpty} empty skipped), ` +
            `${stats.mismatches} pronoun mismatches in ${stats.pairsWithMismatch} segment pairs -> ${o.output} (${((Date.now() - t0) / 1000).toFixed(1)} s)\n`,
        );
      }),
    );
}
