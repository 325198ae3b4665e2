import type { Command } from "commander";
import { action, intOption } from "./run.js";
import { InputError } from "../io/errors.js";
import { writeFileAtomic } from "../io/atomic.js";
import { ProgressLine, bar } from "../ranker/progress.js";
import { parseContext, parseFormat, exitQuietlyOnEpipe } from "./score.js";

function collect(v: string, prev: string[]): string[] {
  return prev.concat([v]);
}

export function registerCompare(program: Command): void {
  program
    .command("compare")
    .description("Which of two systems translates pronouns better: per segment and overall, with paired bootstrap resampling")
    .requiredOption("-r, --ref <file>", "reference (text/SGML) or WMT XML file")
    .option("-t, --hyp <file-or-system>", "exactly two systems (files, or names for WMT XML)", collect, [] as string[])
    .option("--format <f>", "wmt-xml | sgml | text (default: detected)")
    .option("--docs <file>", "document ids, one per line (text format)")
    .option("--reference <name>", "which reference of a multi-reference XML file")
    .option("--context <mode>", "crc | rc | nc (default: the checkpoint's)")
    .option("-c, --checkpoint <dir>", "ranker or ensemble checkpoint (default: checkpoints/ensemble = checkpoints/default + zero-shot checkpoints/pronoun-lm)")
    .option("--model-dir <dir>", "directory holding transformers models")
    .option("--bootstrap <n>", "bootstrap resamples", "1000")
    .option("--seed <n>", "bootstrap seed", "12345")
    .option("--to-json <file>", "write the comparison with per-segment results as JSON ('-' = stdout)")
    .option("--backend <name>", "auto | gpu | node | wasm | cpu", "auto")
    .option("--threads <n>", "scoring threads (auto = up to 2 on wasm/cpu)", "auto")
    .option("--quiet", "no progress on stderr", false)
    .action(
      action(async (o: Record<string, unknown>) => {
        exitQuietlyOnEpipe();
        const hyps = o.hyp as string[];
        if (hyps.length !== 2) throw new InputError(`compare needs exactly two systems (-t A -t B), got ${hyps.length}`);
        const context = parseContext(o.context);
        const samples = intOption("--bootstrap", String(o.bootstrap), 0);
        const seed = intOption("--seed", String(o.seed), 0);
        const { compareSystems, loadScorer, readScoringInput } = await import("../ranker/scorer.js");
        const input = await readScoringInput(String(o.ref), hyps, { format: parseFormat(o.format), docs: o.docs as string | undefined });
        if (input.systems.length !== 2) throw new InputError(`compare needs two distinct systems, got ${input.systems.join(", ")}`);
        const scorer = await loadScorer(o.checkpoint as string | undefined, { backend: String(o.backend), modelDir: o.modelDir as string | undefined, threads: o.threads === "auto" ? "auto" : intOption("--threads", String(o.threads), 1) });
        const line = new ProgressLine(process.stderr, Boolean(o.quiet));
        let res;
        try {
          res = await scorer.scoreTestSet(input.testSet, input.systems, {
            context,
            reference: o.reference as string | undefined,
            onProgress: (done, total) => line.update(`scoring ${bar(done, total)} ${done}/${total} unique sides`, done === total),
          });
        } finally {
          line.done();
          scorer.dispose();
        }
        const cmp = compareSystems(res[0]!, res[1]!, samples, seed);
        const signature = scorer.signature(context ?? scorer.contextMode, (o.reference as string | undefined) ?? input.testSet.references[0]) + `|bootstrap:${samples}|seed:${seed}`;
        if (o.toJson) {
          const json = JSON.stringify({ signature, ...cmp }, null, 1) + "\n";
          if (o.toJson === "-") process.stdout.write(json);
          else writeFileAtomic(String(o.toJson), json);
        }
        if (o.toJson !== "-") {
          const better = cmp.scoreA === cmp.scoreB ? "neither" : cmp.scoreA > cmp.scoreB ? cmp.a : cmp.b;
          process.stdout.write(
            [
              `A: ${cmp.a}\tscore ${cmp.scoreA.toFixed(2)}`,
              `B: ${cmp.b}\tscore ${cmp.scoreB.toFixed(2)}`,
              `pronoun segments: ${cmp.pronounSegments}; per segment A better ${cmp.wins.a}, B better ${cmp.wins.b}, ties ${cmp.wins.ties}; mean(yA - yB) ${cmp.meanDiff.toFixed(4)}`,
              `better: ${better} (score difference ${(cmp.scoreA - cmp.scoreB).toFixed(2)}, 95% CI [${cmp.bootstrap.ci95[0].toFixed(2)}, ${cmp.bootstrap.ci95[1].toFixed(2)}], paired bootstrap p = ${cmp.bootstrap.pValue.toFixed(4)}, ${samples} resamples)`,
              `signature: ${signature}`,
            ].join("\n") + "\n",
          );
        }
      }),
    );
}
