import type { Command } from "commander";
import { action, checkOneStdin, checkOutputs, emit, intOption, outputFormat, tableOptions } from "./run.js";
import { InputError } from "../io/errors.js";
import { ProgressLine } from "../core/progress.js";
import { MODE_HELP, parseAggregate, parseContext, parseMode } from "./score.js";
import { DEFAULT_MODE } from "../metric/decide.js";
import { parseZeroShotAggregate, ZERO_SHOT_AGGREGATE_HELP } from "./scoring.js";

export function registerMetaEval(program: Command): void {
  tableOptions(
    program
      .command("meta-eval")
      .description("How well scorers agree with people: pair accuracy (incl. balanced R vs R'), MQM pronoun errors, hand-judged pairs, bias probes (docs/meta-eval.md)")
      .option("-c, --checkpoint <dirs...>", "scorers to evaluate: ranker, ensemble or masked-pronoun model directories (zero-shot PMI); default: the shipped default")
      .option("--pairs <files...>", "pair files (R vs S and R vs R'; e.g. out/pairs/dev.jsonl.gz and a --keep-all dev file)")
      .option("--mqm <file>", "MQM annotations TSV (e.g. ../shared/data/mqm/ted-zhen/mqm_ted_zhen.tsv.gz)")
      .option("--apt", "add APT (reference-based, src/apt) as a column of the MQM measures; the pair, judged and probe measures do not apply to it", false)
      .option("--mqm-lang <pair>", "language pair of the MQM file, xx-en (default: from its name, e.g. ted_zhen -> zh-en)")
      .option("--judgements <file>", "hand-judged R vs R' pairs (data/judgements/wmt23-noisy.jsonl)")
      .option("--train-pairs <file>", "training pairs: adds the pronoun-identity-only baseline fitted on them")
      .option("--probe-pairs <file>", "pairs for the appended-clause probe (default: the first --pairs file)")
      .option("--probe-limit <n>", "pairs drawn for the probe", "1000")
      .option("--aggregate <a>", "mean (default) | pronoun | sum | min", "mean")
      .option("--zero-shot-aggregate <a...>", `${ZERO_SHOT_AGGREGATE_HELP}; one for every -c, or one per -c (each scorer is then named DIR:AGGREGATE, so one model can be compared with itself under two aggregates)`)
      .option("--mode <m...>", `${MODE_HELP}; one for every -c (default ${DEFAULT_MODE}), or one per -c (each scorer is then named DIR:MODE, so one model can be compared with itself in two modes)`)
      .option("--context <mode>", "crc | rc | nc (default: each scorer's)")
      .option("--seed <n>", "seed of the probe's draw and of the bootstrap", "1")
      .option("-b, --bootstrap <n>", "paired bootstrap resamples for 95% intervals and differences between scorers (0 = none)", "1000")
      .option("--baseline <name>", "scorer the others are compared with in the bootstrap (as named in the table; default: the first -c)")
      .option("--backend <name>", "auto | gpu | webgpu | node | wasm | cpu", "auto")
      .option("--threads <n>", "scoring threads (auto = up to 2 on wasm/cpu)", "auto")
      .option("-o, --output <file>", "write the output here ('-' = stdout, the default)")
      .option("-q, --quiet", "no progress on stderr; only the table on stdout (no signatures)", false),
    "the reports",
  ).action(
    action(async (o: Record<string, unknown>) => {
      const format = await outputFormat(o);
      const aggregate = parseAggregate(o.aggregate);
      const modes = ((o.mode as string[] | undefined) ?? [DEFAULT_MODE]).map(parseMode);
      // Inputs scored by no -c (the identity prior) take the first mode.
      const mode = modes[0]!;
      const context = parseContext(o.context);
      const zeroShotAggregates = ((o.zeroShotAggregate as string[] | undefined) ?? [undefined]).map(parseZeroShotAggregate);
      const pairFiles = (o.pairs as string[] | undefined) ?? [];
      if (!pairFiles.length && !o.mqm && !o.judgements) throw new InputError("nothing to evaluate on: give --pairs, --mqm and/or --judgements");
      if (o.apt && !o.mqm) throw new InputError("--apt needs --mqm (APT is evaluated on the MQM measures only)");
      checkOneStdin([...pairFiles, o.mqm as string | undefined, o.judgements as string | undefined, o.trainPairs as string | undefined, o.probePairs as string | undefined]);
      await checkOutputs(o.output as string | undefined);
      const { readRankerPairs } = await import("../nn/data.js");
      const { readMqm } = await import("../metric/mqm.js");
      const { readJudgements, metaEvaluate, metaEvalTable, metaEvalSignificance, significanceTable, pronounPairTables } = await import("../metric/meta-eval.js");
      const { formatResult } = await import("../io/table.js");
      const { loadScorer } = await import("../metric/load.js");
      const { IdentityPriorScorer } = await import("../metric/identity.js");
      const { signature } = await import("../metric/testset.js");
      // Read every input before loading any model: a bad file fails fast.
      const pairs = [];
      for (const f of pairFiles) pairs.push({ file: f, pairs: await readRankerPairs(f, "crc") });
      const mqm = o.mqm ? await readMqm(String(o.mqm)) : undefined;
      const judgements = o.judgements ? { file: String(o.judgements), items: readJudgements(String(o.judgements)) } : undefined;
      const probe = o.probePairs ? { file: String(o.probePairs), pairs: await readRankerPairs(String(o.probePairs), "crc") } : undefined;
      const inputs = { pairs, mqm, judgements, probe, probeLimit: intOption("--probe-limit", String(o.probeLimit), 1), seed: intOption("--seed", String(o.seed), 0) };
      const dirs = (o.checkpoint as string[] | undefined) ?? [undefined];
      if (zeroShotAggregates.length > 1 && zeroShotAggregates.length !== dirs.length)
        throw new InputError(`--zero-shot-aggregate takes one value, or one per -c (${dirs.length}), got ${zeroShotAggregates.length}`);
      if (modes.length > 1 && modes.length !== dirs.length) throw new InputError(`--mode takes one value, or one per -c (${dirs.length}), got ${modes.length}`);
      const scorers = dirs.map((dir, k) => {
        const agg = zeroShotAggregates[zeroShotAggregates.length > 1 ? k : 0]!;
        const m = modes[modes.length > 1 ? k : 0]!;
        return { dir, agg, mode: m, name: `${dir ?? "default"}${zeroShotAggregates.length > 1 ? `:${agg}` : ""}${modes.length > 1 ? `:${m}` : ""}` };
      });
      const names = [...(o.apt ? ["apt"] : []), ...(o.trainPairs ? ["identity-prior"] : []), ...scorers.map((s) => s.name)];
      if (o.baseline !== undefined && !names.includes(String(o.baseline))) throw new InputError(`--baseline '${String(o.baseline)}' is none of the scorers (${names.join(", ")})`);
      const draws = intOption("--bootstrap", String(o.bootstrap), 0);
      const line = new ProgressLine(process.stderr, Boolean(o.quiet));
      const reports = [];
      if (o.apt && mqm) {
        const { aptMqmReport, mqmSourceLang, aptSignature } = await import("../metric/meta-eval.js");
        const srcLang = mqmSourceLang(String(o.mqm), o.mqmLang as string | undefined);
        line.update("APT: MQM", true);
        const samples = new Map();
        reports.push({ name: "apt", kind: "apt", signature: aptSignature(srcLang), pairs: [], mqm: await aptMqmReport(mqm, srcLang, { samples }), samples });
      }
      if (o.trainPairs) {
        const train = await readRankerPairs(String(o.trainPairs), "crc");
        const prior = IdentityPriorScorer.fromPairs(String(o.trainPairs), train);
        reports.push(await metaEvaluate("identity-prior", prior, signature(prior, { aggregate, mode, context: context ?? prior.contextMode }), inputs, { aggregate, mode, context, onStage: (s) => line.update(s, true) }));
      }
      const threads = o.threads === "auto" ? "auto" : intOption("--threads", String(o.threads), 1);
      for (const { dir, agg, mode, name } of scorers) {
        const scorer = await loadScorer(dir, { backend: String(o.backend), threads, zeroShotAggregate: agg });
        try {
          const backend = await (await import("./scoring.js")).backendTag(scorer);
          reports.push(await metaEvaluate(name, scorer, signature(scorer, { aggregate, mode, context: context ?? scorer.contextMode, backend }), inputs, { aggregate, mode, context, onStage: (s) => line.update(s, true) }));
        } finally {
          scorer.dispose();
        }
      }
      // Default baseline: the first checkpoint (the scorer under study), not APT or the prior listed before it.
      const baseline = o.baseline === undefined ? scorers[0]!.name : String(o.baseline);
      const sig = draws > 0 && reports.some((r) => r.samples?.size) ? metaEvalSignificance(reports, draws, inputs.seed, baseline) : undefined;
      line.done();
      let text: string;
      if (format === "json") text = JSON.stringify({ aggregate, mode: modes.length > 1 ? modes : mode, reports: reports.map(({ samples: _, ...r }) => r), ...(sig ? { significance: { draws, seed: inputs.seed, baseline: baseline ?? reports[0]?.name, measures: sig } } : {}) }, null, 1) + "\n";
      else {
        const { table, signatures } = metaEvalTable(reports);
        const tables = [table, ...(sig ? [significanceTable(sig, reports, draws, inputs.seed, baseline)] : []), ...pronounPairTables(reports)];
        text = await formatResult(tables, format, { signature: signatures, quiet: Boolean(o.quiet) });
      }
      await emit(text, o.output as string | undefined);
    }),
  );
}
