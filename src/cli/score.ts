import type { Command } from "commander";
import { action, intOption } from "./run.js";
import { InputError } from "../io/errors.js";
import { writeFileAtomic } from "../io/atomic.js";
import type { SystemResult } from "../ranker/scorer.js";
import { CONTEXT_MODES } from "../ranker/inputs.js";
import { ProgressLine, bar } from "../ranker/progress.js";
import type { ContextMode } from "../mine/pair-format.js";

function collect(v: string, prev: string[]): string[] {
  return prev.concat([v]);
}

export function parseContext(v: unknown): ContextMode | undefined {
  if (v === undefined) return undefined;
  if (!CONTEXT_MODES.includes(v as ContextMode)) throw new InputError(`--context must be nc, rc or crc, got '${String(v)}'`);
  return v as ContextMode;
}

export function parseFormat(v: unknown): "wmt-xml" | "sgml" | "text" | undefined {
  if (v === undefined) return undefined;
  if (v !== "wmt-xml" && v !== "sgml" && v !== "text") throw new InputError(`--format must be wmt-xml, sgml or text, got '${String(v)}'`);
  return v;
}

/** `proneval score ... | head` must end quietly, not with an EPIPE stack trace. */
export function exitQuietlyOnEpipe(): void {
  process.stdout.on("error", (e: NodeJS.ErrnoException) => {
    if (e.code === "EPIPE") process.exit(0);
    throw e;
  });
}

function fmt(x: number | null, d = 4): string {
  return x === null ? "" : x.toFixed(d);
}

export function registerScore(program: Command): void {
  program
    .command("score")
    .description("Pronoun scores of system outputs against a reference with the learned ranker (per segment and per system)")
    .requiredOption("-r, --ref <file>", "reference: text file, SGML refset, or a WMT XML file holding reference and systems")
    .option("-t, --hyp <file-or-system>", "system output file (text/SGML) or system name (WMT XML; none = all); repeatable", collect, [] as string[])
    .option("--format <f>", "wmt-xml | sgml | text (default: detected)")
    .option("--docs <file>", "document ids, one per line (text format), so context stops at document boundaries")
    .option("--reference <name>", "which reference of a multi-reference XML file")
    .option("--context <mode>", "crc | rc | nc (default: the checkpoint's)")
    .option("-c, --checkpoint <dir>", "ranker or ensemble checkpoint (default: checkpoints/ensemble = checkpoints/default + zero-shot checkpoints/pronoun-lm)")
    .option("--model-dir <dir>", "directory holding transformers models")
    .option("--zero-shot [dir]", "score with the masked-pronoun model instead of a ranker (default dir: checkpoints/pronoun-lm; docs/pretrain.md)")
    .option("--zero-shot-aggregate <a>", "zero-shot: sum (of masked log-probabilities) | pmi (minus corpus log-priors)", "sum")
    .option("--segments", "print per-segment TSV rows instead of the system table", false)
    .option("--to-json <file>", "write everything (segments, pronouns, summaries, signature) as JSON ('-' = stdout)")
    .option("--attention", "with --to-json: also write each side's tokens and attention weights (heat maps in `proneval report`)")
    .option("--batch-size <n>", "sides per forward batch", "128")
    .option("--backend <name>", "auto | gpu | node | wasm | cpu", "auto")
    .option("--threads <n>", "scoring threads (auto = up to 2 on wasm/cpu)", "auto")
    .option("--quiet", "no progress on stderr", false)
    .action(
      action(async (o: Record<string, unknown>) => {
        exitQuietlyOnEpipe();
        const context = parseContext(o.context);
        const format = parseFormat(o.format);
        const batchSize = intOption("--batch-size", String(o.batchSize), 1);
        const { loadScorer, readScoringInput } = await import("../ranker/scorer.js");
        const { describeBackend } = await import("../ranker/backend.js");
        const input = await readScoringInput(String(o.ref), o.hyp as string[], { format, docs: o.docs as string | undefined });
        const scorer = o.zeroShot ? await (await import("../pretrain/scorer.js")).loadZeroShotFromCli(o.zeroShot, o.zeroShotAggregate, String(o.backend)) : await loadScorer(o.checkpoint as string | undefined, { backend: String(o.backend), modelDir: o.modelDir as string | undefined, threads: o.threads === "auto" ? "auto" : intOption("--threads", String(o.threads), 1) });
        const line = new ProgressLine(process.stderr, Boolean(o.quiet));
        if (!o.quiet) process.stderr.write(`proneval score: ${describeBackend(scorer.backend)}; checkpoint ${scorer.dir}\n`);
        const t0 = Date.now();
        let results: SystemResult[];
        try {
          results = await scorer.scoreTestSet(input.testSet, input.systems, {
            context,
            reference: o.reference as string | undefined,
            batchSize,
            withAttention: Boolean(o.attention && o.toJson),
            onProgress: (done, total) => line.update(`scoring ${bar(done, total)} ${done}/${total} unique sides`, done === total),
          });
        } finally {
          line.done();
          scorer.dispose();
        }
        const ctx = context ?? scorer.contextMode;
        const refName = (o.reference as string | undefined) ?? input.testSet.references[0]!;
        const signature = scorer.signature(ctx, refName);
        const seconds = (Date.now() - t0) / 1000;
        if (o.toJson) {
          const json = JSON.stringify(
            {
              signature,
              checkpoint: scorer.dir,
              context: ctx,
              reference: refName,
              testSet: { name: input.testSet.name, langPair: input.testSet.langPair, format: input.testSet.format, documentIds: input.testSet.documentIds },
              systemScoreDefinition: "score = 100 * share of pronoun segments (reference or system has a pronoun) where the system's score is not below the reference's (sys >= ref - 1e-5); meanDiff = mean(sys - ref) over those segments",
              systems: results,
            },
            null,
            1,
          );
          if (o.toJson === "-") process.stdout.write(json + "\n");
          else writeFileAtomic(String(o.toJson), json + "\n");
        }
        if (o.toJson !== "-") {
          const out: string[] = [];
          if (o.segments) {
            out.push(["system", "doc", "seg", "status", "ref_score", "sys_score", "diff", "ref_pronouns", "sys_pronouns"].join("\t"));
            for (const r of results)
              for (const s of r.segments) out.push([r.system, s.doc, s.seg, s.status, fmt(s.ref), fmt(s.sys), fmt(s.diff), s.refPronouns.join(" "), s.sysPronouns.join(" ")].join("\t"));
          } else {
            out.push(["system", "score", "not_below", "mean_diff", "pronoun_segments", "no_pronoun_segments"].join("\t"));
            for (const r of results) out.push([r.system, r.summary.score.toFixed(2), r.summary.notBelow.toFixed(4), r.summary.meanDiff.toFixed(4), r.summary.pronounSegments, r.summary.noPronounSegments].join("\t"));
          }
          process.stdout.write(out.join("\n") + "\n");
        }
        if (!o.quiet) process.stderr.write(`proneval score: ${input.systems.length} system(s), ${results[0]?.segments.length ?? 0} segments, ${seconds.toFixed(1)} s\nsignature: ${signature}\n`);
      }),
    );
}
