/**
 * Averages the weights of snapshots of one masked-pronoun pretraining run into one model (src/pretrain/average.ts;
 * docs/lab/pretrain.md, "Checkpoint averaging"):
 *   node dist/scripts/average-pronoun-lm.js -o OUT_DIR SNAPSHOT_DIR SNAPSHOT_DIR [...] [--prior-of DIR] [--force]
 * --prior-of DIR (one of the inputs): average a model with its continuation on another corpus (`pretrain --init`),
 * keeping DIR's pronoun prior; without it every input must have the same prior.
 */
import { InputError } from "../src/io/errors.js";
import { averagePronounLms } from "../src/pretrain/average.js";
import { flag, parseArgs, str } from "./args.js";

const { opts, args: dirs } = parseArgs({
  name: "average-pronoun-lm",
  summary: "Averages the weights of snapshots of one masked-pronoun pretraining run (or a model and its continuation) into one model.",
  options: {
    output: str("the averaged model's folder", undefined, { short: "o", value: "OUT_DIR", required: true }),
    priorOf: str("one of the inputs: keep its pronoun prior (inputs whose priors differ: a run and its continuation on another corpus)", undefined, { value: "DIR" }),
    force: flag("overwrite OUT_DIR"),
  },
  positionals: [{ name: "SNAPSHOT_DIR", description: "snapshot folders of one run", variadic: true }],
});
const out = opts.output;
const force = opts.force;
const priorIndex = opts.priorOf === undefined ? undefined : dirs.indexOf(opts.priorOf);
if (priorIndex === -1) {
  process.stderr.write(`average-pronoun-lm: --prior-of ${opts.priorOf} is not one of the averaged directories\n`);
  process.exit(2);
}
try {
  const cfg = averagePronounLms(dirs, out, { overwrite: force, priorOf: priorIndex });
  process.stderr.write(`average of ${dirs.length} models -> ${out} (weights sha256 ${cfg.files.weights.sha256.slice(0, 8)})\n`);
} catch (e) {
  if (e instanceof InputError) {
    process.stderr.write(`average-pronoun-lm: ${e.message}\n`);
    process.exit(2);
  }
  throw e;
}
