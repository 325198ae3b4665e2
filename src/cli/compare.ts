import type { Command } from "commander";
import { action, intOption, floatOption, emit } from "./run.js";
import { InputError } from "../io/errors.js";
import { ProgressLine, bar } from "../core/progress.js";
import { parseContext, scoringOptions, parseAggregate, parseMode, readCheckedScoringInput } from "./score.js";

/** Cohen's h for two proportions (in %): the effect size of a difference of scores. */
export function cohensH(scoreA: number, scoreB: number): number {
  const t = (p: number): number => 2 * Math.asin(Math.sqrt(Math.min(1, Math.max(0, p / 100))));
  return t(scoreA) - t(scoreB);
}

function effectWord(h: number): string {
  const a = Math.abs(h);
  return a < 0.2 ? "negligible" : a < 0.5 ? "small" : a < 0.8 ? "medium" : "large";
}

export function registerCompare(program: Command): void {
  scoringOptions(
    program.command("compare").description("Which of two systems translates pronouns better: per segment and overall, with paired bootstrap resampling"),
    "exactly two systems",
  )
    .option("--bootstrap <n>", "bootstrap resamples", "1000")
    .option("--seed <n>", "bootstrap seed", "12345")
    .option("--alpha <p>", "say 'better' only when the paired bootstrap p-value is below this", "0.05")
    .option("--json", "print the comparison with per-segment results as JSON instead of the text", false)
    .option("-o, --output <file>", "write the output here ('-' = stdout, the default)")
    .action(
      action(async (o: Record<string, unknown>) => {
        const { withContextTag, contextNote, loadCliScorer } = await import("./scoring.js");
        const hyps = (o.translations as string[] | undefined) ?? [];
        if (hyps.length !== 2) throw new InputError(`compare needs exactly two systems (-t A B), got ${hyps.length}`);
        const context = parseContext(o.context);
        const samples = intOption("--bootstrap", String(o.bootstrap), 0);
        const seed = intOption("--seed", String(o.seed), 0);
        const alpha = floatOption("--alpha", String(o.alpha));
        if (!(alpha > 0 && alpha < 1)) throw new InputError(`--alpha must be between 0 and 1, got ${alpha}`);
        const { compareSystems, scoreTestSet, signature: fullSignature } = await import("../metric/testset.js");
        const aggregate = parseAggregate(o.aggregate);
        const mode = parseMode(o.mode);
        const { input, refName, dropped } = await readCheckedScoringInput(o, "compare", (inp) => {
          if (inp.systems.length !== 2) throw new InputError(`compare needs two distinct systems, got ${inp.systems.join(", ")}`);
        });
        const scorer = await loadCliScorer(o);
        const line = new ProgressLine(process.stderr, Boolean(o.quiet));
        let res;
        try {
          res = await scoreTestSet(scorer, input.testSet, input.systems, {
            context,
            aggregate,
            mode,
            reference: o.refName as string | undefined,
            onProgress: (done, total) => line.update(`scoring ${bar(done, total)} ${done}/${total} unique sides`, done === total),
          });
        } finally {
          line.done();
          scorer.dispose();
        }
        const cmp = compareSystems(res[0]!, res[1]!, samples, seed);
        const ctx = context ?? scorer.contextMode;
        const signature = withContextTag(fullSignature(scorer, { context: ctx, reference: refName, aggregate, mode }), ctx, input.testSet) + `|bootstrap:${samples}|seed:${seed}|alpha:${alpha}` + (dropped ? `|empty-refs-skipped:${dropped}` : "");
        const h = cohensH(cmp.scoreA, cmp.scoreB);
        const significant = cmp.pronounSegments > 0 && cmp.scoreA !== cmp.scoreB && cmp.bootstrap.pValue < alpha;
        const better = significant ? (cmp.scoreA > cmp.scoreB ? cmp.a : cmp.b) : null;
        let text: string;
        if (o.json) {
          text = JSON.stringify({ signature, alpha, better, effectSize: { scoreDifference: cmp.scoreA - cmp.scoreB, cohensH: h }, emptyReferencesSkipped: dropped, ...cmp }, null, 1) + "\n";
        } else if (cmp.pronounSegments === 0) {
          text = [`A: ${cmp.a}\tscore n/a`, `B: ${cmp.b}\tscore n/a`, "no pronoun segments: nothing to compare", `signature: ${signature}`].join("\n") + "\n";
        } else {
          const diff = cmp.scoreA - cmp.scoreB;
          const verdict = better
            ? `better: ${better} (p = ${cmp.bootstrap.pValue.toFixed(4)} < ${alpha})`
            : `better: neither significantly (p = ${cmp.bootstrap.pValue.toFixed(4)}, not below ${alpha})`;
          text =
            [
              `A: ${cmp.a}\tscore ${cmp.scoreA.toFixed(2)}`,
              `B: ${cmp.b}\tscore ${cmp.scoreB.toFixed(2)}`,
              `pronoun segments: ${cmp.pronounSegments} (where the reference or either system has a pronoun); per segment A better ${cmp.wins.a}, B better ${cmp.wins.b}, ties ${cmp.wins.ties}; mean(yA - yB) ${cmp.meanDiff.toFixed(4)}`,
              `effect size: A - B = ${diff >= 0 ? "+" : ""}${diff.toFixed(2)} points, 95% CI [${cmp.bootstrap.ci95[0].toFixed(2)}, ${cmp.bootstrap.ci95[1].toFixed(2)}]; Cohen's h = ${h.toFixed(3)} (${effectWord(h)})`,
              `${verdict}; paired bootstrap, ${samples} resamples`,
              `# score: % of those segments where the system is not ranked below the reference; ${contextNote(ctx, input.testSet)}`,
              `signature: ${signature}`,
            ].join("\n") + "\n";
        }
        await emit(text, o.output as string | undefined);
      }),
    );
}
