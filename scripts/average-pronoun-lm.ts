/**
 * Averages the weights of snapshots of one masked-pronoun pretraining run into one model (src/pretrain/average.ts;
 * docs/lab/pretrain.md, "Checkpoint averaging"):
 *   node dist/scripts/average-pronoun-lm.js -o OUT_DIR SNAPSHOT_DIR SNAPSHOT_DIR [...] [--force]
 */
import { InputError } from "../src/io/errors.js";
import { averagePronounLms } from "../src/pretrain/average.js";
import { flag, parseArgs, str } from "./args.js";

const { opts, args: dirs } = parseArgs({
  name: "average-pronoun-lm",
  summary: "Averages the weights of snapshots of one masked-pronoun pretraining run into one model.",
  options: {
    output: str("the averaged model's folder", undefined, { short: "o", value: "OUT_DIR", required: true }),
    force: flag("overwrite OUT_DIR"),
  },
  positionals: [{ name: "SNAPSHOT_DIR", description: "snapshot folders of one run", variadic: true }],
});
const out = opts.output;
const force = opts.force;
try {
  const cfg = averagePronounLms(dirs, out, { overwrite: force });
  process.stderr.write(`average of ${dirs.length} snapshots -> ${out} (weights sha256 ${cfg.files.weights.sha256.slice(0, 8)})\n`);
} catch (e) {
  if (e instanceof InputError) {
    process.stderr.write(`average-pronoun-lm: ${e.message}\n`);
    process.exit(2);
  }
  throw e;
}
