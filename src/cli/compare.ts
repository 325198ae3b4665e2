import type { Command } from "commander";
import { action, intOption, floatOption, emit, bootstrapOptions, widthOption, parseWidth, outputFormat, tableOptions } from "./run.js";
import { InputError } from "../io/errors.js";
import type { PairComparison } from "../metric/testset.js";
import { ProgressLine, bar } from "../core/progress.js";
import { parseContext, scoringOptions, parseAggregate, parseMode, readCheckedScoringInput } from "./score.js";

/** Cohen's h for two proportions (in %): the effect size of a difference of scores. */
export function cohensH(scoreA: number, scoreB: number): number {
  const t = (p: number): number => 2 * Math.asin(Math.sqrt(Math.min(1, Math.max(0, p / 100))));
  return t(scoreA) - t(scoreB);
}

export type Verdict = "better" | "worse" | "n.s." | "not tested" | "n/a";

/** better/worse only when the paired bootstrap's p is below alpha; n.s. otherwise; not tested with --bootstrap 0. */
export function verdictOf(c: PairComparison, alpha: number): Verdict {
  if (c.pronounSegments === 0) return "n/a";
  if (!c.bootstrap) return "not tested";
  return c.delta !== 0 && c.bootstrap.p < alpha ? (c.delta > 0 ? "better" : "worse") : "n.s.";
}

export function registerCompare(program: Command): void {
  tableOptions(
    widthOption(
      bootstrapOptions(
        scoringOptions(
          program
            .command("compare")
            .description("Systems against a baseline (the first -t): per system its score and the baseline's on their pronoun segments, the difference with its 95% interval, and a paired bootstrap p (sacrebleu --paired-bs style)"),
          "the baseline, then one or more systems",
        ),
        "the interval and p-value of each difference",
      ),
      2,
    ).option("--alpha <p>", "say better or worse only when the paired bootstrap p-value is below this", "0.05"),
    "the comparisons with per-segment results",
  )
    .option("-o, --output <file>", "write the output here ('-' = stdout, the default)")
    .action(
      action(async (o: Record<string, unknown>) => {
        const { withContextTag, contextNote, backendTag, scoringProgress, loadCliScorer } = await import("./scoring.js");
        const format = await outputFormat(o);
        const hyps = (o.translations as string[] | undefined) ?? [];
        const context = parseContext(o.context);
        const samples = intOption("--bootstrap", String(o.bootstrap), 0);
        const seed = intOption("--seed", String(o.seed), 0);
        const width = parseWidth(o.width, 2);
        const alpha = floatOption("--alpha", String(o.alpha));
        if (!(alpha > 0 && alpha < 1)) throw new InputError(`--alpha must be between 0 and 1, got ${alpha}`);
        const { compareToBaseline, scoreTestSet, signature: fullSignature } = await import("../metric/testset.js");
        const aggregate = parseAggregate(o.aggregate);
        const mode = parseMode(o.mode);
        if (hyps.length === 1) throw new InputError("compare needs a baseline and at least one system (-t BASELINE SYSTEM ...), got one");
        const { input, refName, dropped } = await readCheckedScoringInput(o, "compare", (inp) => {
          if (inp.systems.length < 2) throw new InputError(`compare needs a baseline and at least one more system, got ${inp.systems.join(", ") || "none"}`);
        });
        const scorer = await loadCliScorer(o);
        const line = new ProgressLine(process.stderr, Boolean(o.quiet));
        const progress = scoringProgress(line);
        let res;
        try {
          res = await scoreTestSet(scorer, input.testSet, input.systems, {
            context,
            aggregate,
            mode,
            reference: o.refName as string | undefined,
            onProgress: progress.onProgress,
          });
          progress.finish(res.reduce((a, r) => a + r.segments.length, 0) + (res[0]?.segments.length ?? 0));
        } finally {
          line.done();
          scorer.dispose();
        }
        const [base, ...others] = res;
        const comparisons = others.map((r) => compareToBaseline(base!, r, { samples, seed }));
        const ctx = context ?? scorer.contextMode;
        const signature = withContextTag(
          fullSignature(scorer, {
            context: ctx,
            reference: refName,
            aggregate,
            mode,
            backend: await backendTag(scorer),
            extra: [["bootstrap", samples], ["seed", samples ? seed : undefined], ["alpha", samples ? alpha : undefined], ["empty-refs-skipped", dropped || undefined]],
          }),
          ctx,
          input.testSet,
        );
        const h = (c: PairComparison) => cohensH(c.score, c.baselineScore);
        if (format === "json") {
          const text =
            JSON.stringify(
              {
                kind: "proneval-compare",
                version: 2,
                signature,
                aggregate,
                baseline: base!.system,
                alpha,
                bootstrap: samples ? { samples, seed } : null,
                emptyReferencesSkipped: dropped,
                systems: res.map((r) => ({ system: r.system, pronounSegments: r.summary.pronounSegments, score: r.summary.score })),
                comparisons: comparisons.map((c) => ({ ...c, cohensH: h(c), verdict: verdictOf(c, alpha) })),
              },
              null,
              1,
            ) + "\n";
          await emit(text, o.output as string | undefined);
          return;
        }
        const f = (x: number) => x.toFixed(width);
        const signed = (x: number) => `${x >= 0 ? "+" : ""}${f(x)}`;
        const table = {
          header: ["system", "score", "baseline", "delta", "ci95_low", "ci95_high", "p", "verdict", "pronoun_segments", "wins", "losses", "ties", "cohens_h"],
          rows: [
            [base!.system, base!.summary.pronounSegments ? f(base!.summary.score) : "n/a", "", "", "", "", "", "baseline", base!.summary.pronounSegments, "", "", "", ""],
            ...comparisons.map((c) =>
              c.pronounSegments === 0
                ? [c.system, "n/a", "n/a", "", "", "", "", "n/a", 0, 0, 0, 0, ""]
                : [
                    c.system,
                    f(c.score),
                    f(c.baselineScore),
                    signed(c.delta),
                    c.bootstrap ? f(c.bootstrap.ci95[0]) : "",
                    c.bootstrap ? f(c.bootstrap.ci95[1]) : "",
                    c.bootstrap ? c.bootstrap.p.toFixed(4) : "",
                    verdictOf(c, alpha),
                    c.pronounSegments,
                    c.wins.system,
                    c.wins.baseline,
                    c.wins.ties,
                    h(c).toFixed(3),
                  ],
            ),
          ],
        };
        const notes = [
          `score, baseline: % of the pair's pronoun segments (where the reference, the system or the baseline has a pronoun) where each is not ranked below the reference; the baseline's own row: its score on its own pronoun segments, as \`proneval score\` prints it`,
          samples
            ? `delta: score - baseline, with the 95% interval of a paired bootstrap over those segments (${samples} resamples, seed ${seed}); p: two-sided, of no difference; verdict: better or worse when p < ${alpha}, else n.s. (docs/cli.md)`
            : "delta: score - baseline; no interval, p or verdict: --bootstrap 0 tests nothing",
          "wins, losses, ties: segments where only the system, only the baseline, or neither or both are not below the reference; cohens_h: effect size of the two shares",
          contextNote(ctx, input.testSet),
        ];
        if (comparisons.some((c) => c.pronounSegments === 0)) notes.push("n/a: no pronoun segments (neither the reference, the system nor the baseline has a pronoun): nothing to compare");
        if (dropped) notes.push(`${dropped} empty reference segment(s) skipped`);
        const { formatResult } = await import("../io/table.js");
        await emit(await formatResult([table], format, { notes, signature, quiet: Boolean(o.quiet) }), o.output as string | undefined);
      }),
    );
}
