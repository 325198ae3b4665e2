import type { Command } from "commander";
import { action, intOption, floatOption, checkOutputs, SEED_HELP } from "./run.js";
import { InputError } from "../io/errors.js";
import { BUILD_DEFAULTS, DEFAULT_MAX_BYTES, generateReport } from "../report/index.js";

export function registerReport(program: Command): void {
  program
    .command("report")
    .description("One self-contained HTML report (chart.js inlined) from the JSON the other commands write: train and pretrain (curve.json), eval, score, compare, ctxpro score, suite score, apt, muda score, contrastive, meta-eval, pretrain-ontop, stats and suite stats --json")
    .argument("<json...>", "input JSON files (.gz ok); the kind of each is detected")
    .option("-o, --output <file>", "HTML file to write ('-' = stdout, the default)", "-")
    .option("-q, --quiet", "no summary on stderr")
    .option("--title <text>", "page title", "proneval report")
    .option("--png <dir>", "also write every chart as a PNG into this directory (needs the optional @napi-rs/canvas)")
    .option("--png-width <px>", "PNG width in CSS pixels (drawn at 2x)", "1000")
    .option("-b, --bootstrap <n>", "paired bootstrap resamples for the intervals of score files that hold none (0 = none)", String(BUILD_DEFAULTS.bootstrap))
    .option("--seed <n>", SEED_HELP, String(BUILD_DEFAULTS.seed))
    .option("--max-heatmaps <n>", "segments per score file that get attention heat maps (a sample, within the size bound)", String(BUILD_DEFAULTS.maxHeatmaps))
    .option("--max-mb <x>", "target size of the HTML file in MB", String(DEFAULT_MAX_BYTES / 1e6))
    .option("--system-names <names>", "comma-separated names of the CTXPRO/suite systems, in the order of their translation files")
    .action(
      action(async (files: string[], o: Record<string, string | undefined>) => {
        const maxMb = floatOption("--max-mb", String(o.maxMb));
        if (maxMb <= 0) throw new InputError(`option --max-mb expects a positive number, got '${o.maxMb}'`);
        await checkOutputs(String(o.output));
        const res = await generateReport(files, {
          out: String(o.output),
          title: o.title,
          bootstrap: intOption("--bootstrap", String(o.bootstrap), 0),
          seed: intOption("--seed", String(o.seed), 0),
          maxHeatmaps: intOption("--max-heatmaps", String(o.maxHeatmaps), 0),
          maxBytes: Math.round(maxMb * 1e6),
          systemNames: o.systemNames ? o.systemNames.split(",").map((s) => s.trim()) : undefined,
          pngDir: o.png,
          png: { width: intOption("--png-width", String(o.pngWidth), 200) },
        });
        for (const w of res.data.warnings) process.stderr.write(`proneval report: warning: ${w}\n`);
        const charts = res.data.sections.reduce((a, s) => a + s.blocks.filter((b) => b.type === "chart").length, 0);
        if (!o.quiet) process.stderr.write(
          `proneval report: ${o.output}: ${(res.bytes / 1e6).toFixed(2)} MB, ${res.data.sections.length} section(s), ${charts} chart(s) from ${files.length} file(s)` +
            (res.pngs.length ? `; ${res.pngs.length} PNG file(s) in ${o.png}` : "") +
            "\n",
        );
      }),
    );
}
