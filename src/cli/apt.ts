import type { Command } from "commander";
import { basename } from "node:path";
import { InputError } from "../io/errors.js";
import { readLines } from "../io/lines.js";
import { inputName } from "../io/stdin.js";
import { writeFileAtomic } from "../io/atomic.js";
import { action, floatOption, intOption, emit, checkOutputs, checkOneStdin, outputFormat, parseWidth, tableOptions, BOOTSTRAP_HELP, SEED_HELP } from "./run.js";
import { aptOfSums, computeApt, aptTables, formatAptDetail } from "../apt/index.js";
import { bootstrapTables, pairedBootstrapStats } from "../stats/bootstrap.js";
import { checkLanguage } from "../text/language.js";
import { formatResult } from "../io/table.js";
import { makeSignature } from "../signature.js";

function parsePair(pair: string | undefined, files: string[]): [string, string] {
  const p = pair ?? files.map((f) => /(?:^|[^a-z])([a-z]{2})-([a-z]{2})(?:[^a-z]|$)/.exec(f)).find(Boolean)?.slice(1, 3).join("-");
  if (!p) throw new InputError("give the language pair with -l xx-yy (it is not in the file names)");
  const m = /^([a-z]{2,3})-([a-z]{2,3})$/.exec(p);
  if (!m) throw new InputError(`-l expects a pair like en-de, got '${p}'`);
  return [m[1]!, m[2]!];
}

export function registerApt(program: Command): void {
  tableOptions(
    program
      .command("apt")
      .description("APT: reference-based accuracy of pronoun translation (exact / equivalent / different / missing)")
      .requiredOption("-s, --source <file>", "source segments, one a line ('-' = stdin)")
      .requiredOption("-r, --reference <file>", "reference segments, one a line ('-' = stdin)")
      .requiredOption("-t, --translations <files...>", "system outputs, one file per system (-t A B or -t A -t B)")
      .option("-l, --lang <xx-yy>", "language pair (default: from the file names); English on one side")
      .option("--weights <w>", "weights of cases 1-6", "1,0.5,0,0,0,0")
      .option("--equivalent <groups>", "extra equivalent pronouns: groups separated by ';', words by ',' (e.g. 'it,this;they,those')")
      .option("--detail <file>", "write every instance (APT.py's .detail) here, as TSV")
      .option("-b, --bootstrap <n>", BOOTSTRAP_HELP)
      .option("--seed <n>", SEED_HELP, "12345")
      .option("-w, --width <n>", "decimals of the printed scores", "4")
      .option("--no-check", "skip the check that the source and the target files are in the languages of -l")
      .option("-o, --output <file>", "write the report here ('-' = stdout, the default)")
      .option("-q, --quiet", "print only the table (no notes, no signature)"),
    "the report (cases per pronoun, signature)",
  ).action(
    action(async (o: {
      source: string; reference: string; translations: string[]; lang?: string; weights: string; equivalent?: string; detail?: string; json?: boolean; format?: string; quiet?: boolean; output?: string;
      bootstrap?: string; seed: string; width: string; check: boolean;
    }) => {
      const format = await outputFormat(o);
      checkOneStdin([o.source, o.reference, ...o.translations]);
      await checkOutputs(o.output, o.detail);
      const [srcLang, tgtLang] = parsePair(o.lang, [o.source, o.reference, ...o.translations]);
      const weights = o.weights.split(",").map((w) => floatOption("--weights", w.trim()));
      const extra = o.equivalent ? o.equivalent.split(";").map((g) => g.split(",").map((w) => w.trim().toLowerCase()).filter(Boolean)) : [];
      const src = readLines(o.source);
      if (src.length === 0) throw new InputError("file has no lines", o.source);
      const ref = readLines(o.reference);
      if (ref.length !== src.length) throw new InputError(`has ${ref.length} lines but the source ${o.source} has ${src.length}`, o.reference);
      const hyps = o.translations.map((f) => {
        const lines = readLines(f);
        if (lines.length !== src.length) throw new InputError(`has ${lines.length} lines but the source ${o.source} has ${src.length}`, f);
        return { name: inputName(f), lines };
      });
      const width = parseWidth(o.width, 4);
      const seed = intOption("--seed", o.seed, 0);
      const samples = o.bootstrap !== undefined ? intOption("--bootstrap", o.bootstrap, 0) : hyps.length > 1 ? 1000 : 0;
      if (o.check) {
        // Swapped files (-s and -r exchanged, a wrong -l) would be scored silently.
        const hint = `is -l ${srcLang}-${tgtLang} right, and are -s (source), -r and -t (translations) in their places? (--no-check skips this)`;
        checkLanguage(src, srcLang, o.source, hint);
        checkLanguage(ref, tgtLang, o.reference, hint);
        o.translations.forEach((f, i) => checkLanguage(hyps[i]!.lines, tgtLang, f, hint));
      }
      const names = new Set(hyps.map((h) => basename(h.name)));
      if (names.size === hyps.length) for (const h of hyps) h.name = basename(h.name);
      // Each system aligned on its own corpus: its score does not change when other systems are added.
      const report = await computeApt({ srcLang, tgtLang, src, ref, hyps }, { weights, extraEquivalents: extra, keepInstances: !!o.detail, aligner: "per-system" });
      const boot = samples > 0 && hyps.length > 1 ? pairedBootstrapStats(report.systems.map((s, i) => ({ name: s.name, stats: report.segmentStats![i]! })), 2, aptOfSums, samples, seed) : undefined;
      const signature = makeSignature("apt", [
        ["pair", `${srcLang}-${tgtLang}`],
        ["mode", report.mode],
        ["weights", weights.join(",")],
        ["equiv", extra.length ? `builtin+${extra.length}` : "builtin"],
        ["align", "fast_align-gdfa-per-system"],
        ["bootstrap", boot ? samples : undefined],
        ["seed", boot ? seed : undefined],
      ]);
      const { segmentStats: _st, ...rest } = report;
      let text: string;
      if (format === "json") text = JSON.stringify({ signature, ...rest, systems: report.systems.map(({ instances: _i, ...s }) => s), ...(boot ? { bootstrap: boot } : {}) }, null, 2) + "\n";
      else {
        const { tables, notes } = aptTables(report, width);
        if (boot) tables.push(...bootstrapTables(boot, boot.systems, boot.comparisons, "APT", width, "APT"));
        text = await formatResult(tables, format, { notes, signature, quiet: o.quiet });
      }
      if (o.detail) writeFileAtomic(o.detail, await formatAptDetail(report));
      await emit(text, o.output);
    }),
  );
}
