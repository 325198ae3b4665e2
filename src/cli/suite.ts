import { DEFAULT_MODEL } from "../version.js";
import type { Command } from "commander";
import { basename } from "node:path";
import { action, rangeOption, intOption, emit, checkOutputs, checkOneStdin, outputFormat, tableOptions, BOOTSTRAP_HELP, SEED_HELP } from "./run.js";
import { formatResult } from "../io/table.js";
import { makeSignature } from "../signature.js";
import { InputError } from "../io/errors.js";
import { readLines } from "../io/lines.js";
import { inputName } from "../io/stdin.js";
import { checkOutputDir, writeFilesAtomic } from "../io/atomic.js";
import { readMismatches } from "../mine/mismatch-io.js";
import type { MismatchRecord } from "../mine/mismatch.js";
import { loadPronounPairJudgements } from "../mine/pairs.js";
import { buildSuites } from "../suite/build.js";
import { readSuite, suiteFiles } from "../suite/io.js";
import { suiteStats, suiteStatsTable } from "../suite/stats.js";
import { scoreSuite, suiteTables } from "../suite/score.js";

export function registerSuite(program: Command): void {
  const suite = program.command("suite").description("pronoun test suites built from real WMT system errors (the paper's Sec. 3.2)");

  suite
    .command("build")
    .description("build one suite per source language from mined mismatches (records need a source side)")
    .argument("<mismatches...>", "mismatch JSONL files written by `proneval mine`")
    .requiredOption("-o, --output <dir>", "output directory (its parent must exist)")
    .option("-q, --quiet", "no summary on stderr")
    .option("--user-study", "keep only errors whose (reference, system) pronoun pair passed the user-study filter")
    .option("--threshold <x>", "agreement threshold with --user-study", "0.8")
    .option("--langs <list>", "only these source languages, comma-separated")
    .option("--separator <s>", "joins context and sentence in the .ctx.src inputs", "<eos>")
    .action(
      action(async (inputs: string[], o: { output: string; quiet?: boolean; userStudy?: boolean; threshold: string; langs?: string; separator: string }) => {
        const threshold = rangeOption("--threshold", o.threshold, 0, 1);
        checkOutputDir(o.output);
        const langs = o.langs?.split(",").map((s) => s.trim());
        const records: MismatchRecord[] = [];
        for (const f of inputs) for await (const r of readMismatches(f)) if (!langs || langs.includes(r.lang_pair.split("-")[0]!)) records.push(r);
        const { suites, counts } = buildSuites(records, {
          judgements: o.userStudy ? loadPronounPairJudgements() : undefined,
          threshold,
        });
        if (suites.length === 0)
          throw new InputError(`no suite items: ${counts.mismatches} mismatches, ${counts.withoutSource} without a source side, ${counts.filteredOut} filtered out`);
        // Every suite's files appear together, or none (an interrupted build leaves no partial set).
        const files = suites.map((s) => suiteFiles(o.output, s, o.separator));
        writeFilesAtomic(files.flat());
        if (!o.quiet) suites.forEach((s, k) => process.stderr.write(`${files[k]![0]![0]}: ${s.items.length} items (${s.testsets.join(", ")})\n`));
        if (!o.quiet) process.stderr.write(`${counts.mismatches} mismatches -> ${counts.items} items; ${counts.withoutSource} without source, ${counts.filteredOut} filtered out\n`);
      }),
    );

  tableOptions(
    suite
      .command("stats")
      .description("the paper's Table 2 for the suites (source language, years, unique source contexts) and counts per error type")
      .argument("<suites...>", "suite files (.json.gz)")
      .option("-o, --output <file>", "write the output here ('-' = stdout, the default)"),
    "the counts",
  ).action(
    action(async (files: string[], o: { json?: boolean; format?: string; output?: string }) => {
      const format = await outputFormat(o);
      await checkOutputs(o.output);
      const all = files.map((f) => suiteStats(readSuite(f)));
      await emit(format === "json" ? `${JSON.stringify(all, null, 1)}\n` : await formatResult([suiteStatsTable(all)], format), o.output);
    }),
  );

  tableOptions(
    suite
      .command("score")
      .description("score systems' translations of a suite's sources: generative pronoun accuracy per error type, paired bootstrap")
      .requiredOption("--suite <file>", "suite file (.json.gz)")
      .requiredOption("-t, --translations <files...>", "translations, one line per item, in item order (-t A B or -t A -t B; '-' = stdin)")
      .option("--separator <s>", "keep only the text after the last separator (context-translated inputs)", "<eos>")
      .option("--last-sentence", "keep only the last sentence of each output (context translated without separators)")
      .option("--allow-empty", "accept empty translations instead of failing: scored as wrong (the expected pronoun is missing)")
      .option("-b, --bootstrap <n>", BOOTSTRAP_HELP)
      .option("--seed <n>", SEED_HELP, "12345")
      .option("-o, --output <file>", "write the output here ('-' = stdout, the default)")
      .option("--ranker", `also rank each output against the reference with the pronoun metric (the default scorer: checkpoints/${DEFAULT_MODEL}, zero-shot PMI)`)
      .option("-c, --checkpoint <dir>", "scorer directory: ranker, ensemble or masked-pronoun model (implies --ranker)")
      .option("-q, --quiet", "print only the tables (no notes, no signature)"),
    "the full report (per-item verdicts, signature)",
  ).action(
    action(async (o: { suite: string; translations: string[]; separator: string; lastSentence?: boolean; allowEmpty?: boolean; bootstrap?: string; seed: string; json?: boolean; format?: string; quiet?: boolean; output?: string; ranker?: boolean; checkpoint?: string }) => {
      const format = await outputFormat(o);
      checkOneStdin(o.translations);
      await checkOutputs(o.output);
      const s = readSuite(o.suite);
      const systems = o.translations.map((file) => ({ name: basename(inputName(file)).replace(/\.(txt|gz)$/g, ""), file, hyps: readLines(file) }));
      const bootstrapSamples = o.bootstrap !== undefined ? intOption("--bootstrap", o.bootstrap, 0) : o.translations.length > 1 ? 1000 : 0;
      const seed = intOption("--seed", o.seed);
      const scorer = o.ranker || o.checkpoint ? await (await import("../metric/load.js")).loadScorer(o.checkpoint) : undefined;
      const report = await scoreSuite(s, basename(o.suite), systems, { separator: o.separator, lastSentence: o.lastSentence, allowEmpty: o.allowEmpty, bootstrapSamples, seed, scorer });
      const boot = report.bootstrap !== undefined;
      const signature = makeSignature("suite", [
        ["suite", basename(o.suite)],
        ["sep", o.lastSentence ? undefined : JSON.stringify(o.separator)],
        ["last-sentence", Boolean(o.lastSentence)],
        ["align", "fast_align-gdfa"],
        ["ranker", scorer?.modelSignature().replace(/^model:/, "")],
        ["backend", scorer ? await (await import("./scoring.js")).backendTag(scorer) : undefined],
        ["bootstrap", boot ? bootstrapSamples : undefined],
        ["seed", boot ? seed : undefined],
      ]);
      let text: string;
      if (format === "json") text = JSON.stringify({ kind: "proneval-suite-score", version: 1, signature, ...report, systems: report.systems.map((x) => ({ ...x, hits: undefined })) }, null, 1) + "\n";
      else {
        const { tables, notes } = suiteTables(report);
        text = await formatResult(tables, format, { notes, signature, quiet: o.quiet });
      }
      await emit(text, o.output);
    }),
  );
}
