import type { Command } from "commander";
import { join } from "node:path";
import { existsSync } from "node:fs";
import { action, intOption, floatOption, emit, checkOutputs } from "./run.js";
import { InputError } from "../io/errors.js";
import { ProgressLine } from "../core/progress.js";
import { makeSignature } from "../signature.js";

export function registerCalibrate(program: Command): void {
  program
    .command("calibrate")
    .description(
      "Fit per-pronoun biases for zero-shot scoring (--zero-shot-aggregate calibrated) on balanced synthetic pairs of a pretraining corpus: each sampled pronoun against every pronoun that could stand in its place; writes calibration.json into the model directory (docs/meta-eval.md)",
    )
    .requiredOption("-c, --checkpoint <dir>", "masked-pronoun model directory")
    .requiredOption("--corpus <file>", "pretraining corpus (JSONL of {id, source, sents}, .gz ok; scripts/build-pretrain-corpus.ts), never evaluation pairs")
    .option("--per-pronoun <n>", "corpus slots sampled per pronoun (uniformly, seeded)", "500")
    .option("--max-docs <n>", "read only the first N documents (0 = all)", "0")
    .option("--lambda <x>", "pull of each bias towards the model's PMI prior (keeps unseen pronouns there)", "0.1")
    .option("--seed <n>", "seed of the sampling", "1")
    .option("--backend <name>", "auto | gpu | node | wasm | cpu", "auto")
    .option("-o, --output <file>", "write the calibration here instead ('-' = stdout); scoring reads DIR/calibration.json")
    .option("--force", "replace an existing DIR/calibration.json", false)
    .option("-q, --quiet", "no progress on stderr, no signature on stdout", false)
    .action(
      action(async (o: Record<string, unknown>) => {
        const dir = String(o.checkpoint);
        const perPronoun = intOption("--per-pronoun", String(o.perPronoun), 1);
        const maxDocs = intOption("--max-docs", String(o.maxDocs), 0);
        const seed = intOption("--seed", String(o.seed), 0);
        const lambda = floatOption("--lambda", String(o.lambda));
        if (!(lambda > 0)) throw new InputError(`--lambda must be > 0, got ${lambda}`);
        const { CALIBRATION_FILE, calibrateZeroShot, writeCalibration } = await import("../pretrain/calibration.js");
        const output = (o.output as string | undefined) ?? join(dir, CALIBRATION_FILE);
        if (o.output === undefined && existsSync(output) && !o.force) throw new InputError("a calibration exists already; --force replaces it", output);
        await checkOutputs(o.output as string | undefined);
        if (!existsSync(String(o.corpus))) throw new InputError("corpus file not found", String(o.corpus));
        const { loadPronounLm } = await import("../pretrain/checkpoint.js");
        const { selectBackend } = await import("../nn/backend.js");
        await selectBackend(String(o.backend));
        const { config, lm } = loadPronounLm(dir);
        const line = new ProgressLine(process.stderr, Boolean(o.quiet));
        let cal;
        try {
          cal = await calibrateZeroShot(lm, config.prepare, config.files.weights.sha256, { corpus: String(o.corpus), seed, perPronoun, maxDocs, lambda, onStage: (s) => line.update(s) });
        } finally {
          line.done();
          lm.dispose();
        }
        if (output === "-") await emit(JSON.stringify(cal, null, 1) + "\n");
        else writeCalibration(output, cal);
        if (output === "-") return;
        const f = cal.fit;
        const pct = (x: number | null): string => (x === null || Number.isNaN(x) ? "n/a" : (100 * x).toFixed(2));
        const signature = makeSignature("proneval-calibrate", [
          ["model", `pronoun-lm@${cal.weightsSha256.slice(0, 8)}`],
          ["corpus", f.corpus],
          ["per-pronoun", perPronoun],
          ["max-docs", maxDocs || undefined],
          ["lambda", lambda],
          ["seed", seed],
        ]);
        process.stdout.write(
          [
            `corpus: ${f.docs} documents, ${f.pronounSlots} pronoun slots; ${f.slots} slots sampled (at most ${perPronoun} per pronoun), ${f.orderedPairs} ordered pronoun pairs`,
            `synthetic pairs, balanced accuracy % (each pronoun pair's two directions averaged): sum ${pct(f.synthetic.sum)}, pmi ${pct(f.synthetic.pmi)}, calibrated ${pct(f.synthetic.calibrated)}`,
            `wrote ${output} (${f.iterations} Newton iterations); score with --zero-shot-aggregate calibrated`,
            ...(o.quiet ? [] : [`signature: ${signature}`]),
          ].join("\n") + "\n",
        );
      }),
    );
}
