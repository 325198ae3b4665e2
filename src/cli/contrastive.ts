import type { Command } from "commander";
import { statSync } from "node:fs";
import { InputError } from "../io/errors.js";
import { checkOutputFile } from "../io/atomic.js";
import { formatResult } from "../io/table.js";
import { inputName } from "../io/stdin.js";
import { makeSignature } from "../signature.js";
import { action, checkOneStdin, emit, intOption, outputFormat, tableOptions, BOOTSTRAP_HELP, SEED_HELP } from "./run.js";
import {
  candidateCount,
  checkScoringData,
  contrastiveTable,
  listContrastiveSets,
  readContrastiveJson,
  readScores,
  resolveSetPath,
  resultJson,
  scoreContrastive,
  scoringDataPaths,
  selfCheck,
  type ContrastiveResult,
} from "../contrastive/index.js";
import { bootstrapTables, pairedBootstrapStats } from "../stats/bootstrap.js";

export function registerContrastive(program: Command): void {
  tableOptions(
    program
      .command("contrastive")
      .description("accuracy on a contrastive test set (Voita et al. 2019 layout) from one model score per candidate")
      .argument("<set>", "a set's .json[.gz] ('-' = stdin), or the directory holding the sets (then --set, or --self-check for all)")
      .option("--set <name>", "set name inside the directory (deixis_test, lex_cohesion_dev, ellipsis_vp, ...)")
      .option("--scores <files...>", "one file per system: one score a line, in scoring_data order (lower is better; '-' = stdin)")
      .option("--higher-is-better", "scores are log-probabilities or similar (default: lower is better, like a loss)")
      .option("--self-check", "check the harness: constant scores give the chance rate, moving the true candidate changes nothing")
      .option("--no-check-data", "skip checking that scoring_data/<set>.src|dst lists the items' candidates in order")
      .option("-b, --bootstrap <n>", BOOTSTRAP_HELP)
      .option("--seed <n>", SEED_HELP, "12345")
      .option("-o, --output <file>", "write the report here ('-' = stdout, the default)")
      .option("-q, --quiet", "print only the tables (no notes, no signature)"),
    "the report (per-item results left out, bootstrap, signature)",
  ).action(
    action(async (input: string, o: {
      set?: string; scores?: string[]; higherIsBetter?: boolean; selfCheck?: boolean; checkData: boolean;
      bootstrap?: string; seed: string; json?: boolean; format?: string; quiet?: boolean; output?: string;
    }) => {
      const format = await outputFormat(o);
      checkOneStdin([input, ...(o.scores ?? [])]);
      checkOutputFile(o.output ?? "-");
      if (o.selfCheck) {
        const paths = statSync(input, { throwIfNoEntry: false })?.isDirectory() && !o.set ? listContrastiveSets(input) : [resolveSetPath(input, o.set)];
        if (paths.length === 0) throw new InputError("no *.json[.gz] sets here", input);
        const checks = paths.map((p) => {
          const set = readContrastiveJson(p);
          const { constant, failures } = selfCheck(set);
          return { set: set.name, items: set.items.length, candidates: candidateCount(set.items), constantAccuracy: constant.overall.accuracy, chance: constant.overall.chance, byDistance: constant.byDistance.map((g) => ({ dist: g.key, accuracy: g.accuracy, chance: g.chance })), failures };
        });
        const text = format === "json"
          ? JSON.stringify(checks, null, 2) + "\n"
          : await formatResult([{
              header: ["set", "items", "candidates", "constant-score accuracy", "chance", "check"],
              rows: checks.map((c) => [c.set, c.items, c.candidates, c.constantAccuracy.toFixed(2), c.chance.toFixed(2), c.failures.length ? "FAIL: " + c.failures.join("; ") : "ok"]),
            }], format);
        await emit(text, o.output);
        if (checks.some((c) => c.failures.length)) process.exitCode = 1;
        return;
      }
      if (!o.scores?.length) throw new InputError("give the model scores (--scores FILE ...), or --self-check");
      const path = resolveSetPath(input, o.set);
      const set = readContrastiveJson(path);
      // Whether the scores were checked against scoring_data: the signature says so (no such files, no check).
      const sd = o.checkData ? scoringDataPaths(path) : undefined;
      if (sd) checkScoringData(set, sd);
      const n = candidateCount(set.items);
      const results: ContrastiveResult[] = o.scores.map((f) =>
        scoreContrastive(set, readScores(f, n, path), { higherIsBetter: o.higherIsBetter, system: inputName(f) }),
      );
      const samples = o.bootstrap !== undefined ? intOption("--bootstrap", o.bootstrap, 0) : results.length > 1 ? 1000 : 0;
      const boot = samples > 0 && results.length > 1
        ? pairedBootstrapStats(results.map((r) => ({ name: r.system, stats: r.credits })), 1, (s) => (100 * s[0]!) / set.items.length, samples, intOption("--seed", o.seed, 0))
        : undefined;
      const signature = makeSignature("contrastive", [
        ["set", set.name],
        ["scores", o.higherIsBetter ? "higher-better" : "lower-better"],
        ["scoring-data", sd ? "checked" : "unchecked"],
        ["bootstrap", boot?.samples],
        ["seed", boot?.seed],
      ]);
      if (format === "json") {
        await emit(JSON.stringify({ set: set.name, file: path, signature, results: results.map(resultJson), ...(boot ? { bootstrap: boot } : {}) }, null, 2) + "\n", o.output);
        return;
      }
      const tables = [contrastiveTable(results)];
      if (boot) tables.push(...bootstrapTables(boot, boot.systems, boot.comparisons));
      const notes = ["accuracy in % of items (a tie with the true candidate earns its share); dist N: items whose context is N sentences back"];
      await emit(await formatResult(tables, format, { notes, signature, quiet: o.quiet }), o.output);
    }),
  );
}
