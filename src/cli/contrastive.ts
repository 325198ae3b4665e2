import type { Command } from "commander";
import { statSync } from "node:fs";
import { InputError } from "../io/errors.js";
import { writeFileAtomic, checkOutputFile } from "../io/atomic.js";
import { action, intOption } from "./run.js";
import {
  candidateCount,
  checkScoringData,
  formatContrastive,
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
import { pairedBootstrapStats } from "../stats/bootstrap.js";

function emit(text: string, output?: string): void {
  if (output && output !== "-") writeFileAtomic(output, text);
  else process.stdout.write(text);
}

export function registerContrastive(program: Command): void {
  program
    .command("contrastive")
    .description("accuracy on a contrastive test set (Voita et al. 2019 layout) from one model score per candidate")
    .argument("<set>", "a set's .json[.gz], or the directory holding the sets (then --set, or --self-check for all)")
    .option("--set <name>", "set name inside the directory (deixis_test, lex_cohesion_dev, ellipsis_vp, ...)")
    .option("--scores <files...>", "one file per system: one score a line, in scoring_data order (lower is better)")
    .option("--higher-is-better", "scores are log-probabilities or similar (default: lower is better, like a loss)")
    .option("--self-check", "check the harness: constant scores give the chance rate, moving the true candidate changes nothing")
    .option("--no-check-data", "skip checking that scoring_data/<set>.src|dst lists the items' candidates in order")
    .option("-b, --bootstrap <n>", "paired bootstrap samples between systems (default 1000 when there are several; 0 = off)")
    .option("--seed <n>", "bootstrap seed", "12345")
    .option("--json", "JSON report")
    .option("-o, --output <file>", "write the report here ('-' = stdout, the default)")
    .action(
      action((input: string, o: {
        set?: string; scores?: string[]; higherIsBetter?: boolean; selfCheck?: boolean; checkData: boolean;
        bootstrap?: string; seed: string; json?: boolean; output?: string;
      }) => {
        checkOutputFile(o.output ?? "-");
        if (o.selfCheck) {
          const paths = statSync(input, { throwIfNoEntry: false })?.isDirectory() && !o.set ? listContrastiveSets(input) : [resolveSetPath(input, o.set)];
          if (paths.length === 0) throw new InputError("no *.json[.gz] sets here", input);
          const checks = paths.map((p) => {
            const set = readContrastiveJson(p);
            const { constant, failures } = selfCheck(set);
            return { set: set.name, items: set.items.length, candidates: candidateCount(set.items), constantAccuracy: constant.overall.accuracy, chance: constant.overall.chance, byDistance: constant.byDistance.map((g) => ({ dist: g.key, accuracy: g.accuracy, chance: g.chance })), failures };
          });
          const text = o.json
            ? JSON.stringify(checks, null, 2) + "\n"
            : ["set\titems\tcandidates\tconstant-score accuracy\tchance\tcheck",
                ...checks.map((c) => `${c.set}\t${c.items}\t${c.candidates}\t${c.constantAccuracy.toFixed(2)}\t${c.chance.toFixed(2)}\t${c.failures.length ? "FAIL: " + c.failures.join("; ") : "ok"}`)].join("\n") + "\n";
          emit(text, o.output);
          if (checks.some((c) => c.failures.length)) process.exitCode = 1;
          return;
        }
        if (!o.scores?.length) throw new InputError("give the model scores (--scores FILE ...), or --self-check");
        const path = resolveSetPath(input, o.set);
        const set = readContrastiveJson(path);
        if (o.checkData) {
          const sd = scoringDataPaths(path);
          if (sd) checkScoringData(set, sd);
        }
        const n = candidateCount(set.items);
        const results: ContrastiveResult[] = o.scores.map((f) =>
          scoreContrastive(set, readScores(f, n, path), { higherIsBetter: o.higherIsBetter, system: f }),
        );
        const samples = o.bootstrap !== undefined ? intOption("--bootstrap", o.bootstrap, 0) : results.length > 1 ? 1000 : 0;
        const boot = samples > 0 && results.length > 1
          ? pairedBootstrapStats(results.map((r) => ({ name: r.system, stats: r.credits })), 1, (s) => (100 * s[0]!) / set.items.length, samples, intOption("--seed", o.seed, 0))
          : undefined;
        if (o.json) {
          emit(JSON.stringify({ set: set.name, file: path, results: results.map(resultJson), ...(boot ? { bootstrap: boot } : {}) }, null, 2) + "\n", o.output);
          return;
        }
        let text = formatContrastive(results);
        if (boot) {
          text += `# paired bootstrap: ${boot.samples} samples, seed ${boot.seed}; 95% intervals\n`;
          for (const s of boot.systems) text += `${s.name}\t${s.value.toFixed(1)}\t[${s.ci[0].toFixed(1)}, ${s.ci[1].toFixed(1)}]\n`;
          for (const c of boot.comparisons) text += `${c.system} - ${c.baseline}\t${c.delta >= 0 ? "+" : ""}${c.delta.toFixed(1)}\t[${c.ci[0].toFixed(1)}, ${c.ci[1].toFixed(1)}]\tp=${c.p.toFixed(4)}\n`;
        }
        emit(text, o.output);
      }),
    );
}
