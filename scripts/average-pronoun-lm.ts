/**
 * Averages the weights of snapshots of one masked-pronoun pretraining run into one model (src/pretrain/average.ts;
 * docs/lab/pretrain.md, "Checkpoint averaging"):
 *   node dist/scripts/average-pronoun-lm.js -o OUT_DIR SNAPSHOT_DIR SNAPSHOT_DIR [...] [--prior-of DIR] [--force]
 * --prior-of DIR (one of the inputs): average a model with its continuation on another corpus (`pretrain --init`),
 * keeping DIR's pronoun prior; without it every input must have the same prior.
 */
import { InputError } from "../src/io/errors.js";
import { averagePronounLms } from "../src/pretrain/average.js";

const args = process.argv.slice(2);
let out: string | undefined;
let force = false;
let priorOf: string | undefined;
const dirs: string[] = [];
for (let i = 0; i < args.length; i++) {
  const a = args[i]!;
  if (a === "-o" || a === "--output") out = args[++i];
  else if (a === "--force") force = true;
  else if (a === "--prior-of") priorOf = args[++i];
  else if (a.startsWith("-")) {
    process.stderr.write(`average-pronoun-lm: unknown option ${a}\n`);
    process.exit(2);
  } else dirs.push(a);
}
if (!out) {
  process.stderr.write("usage: average-pronoun-lm -o OUT_DIR SNAPSHOT_DIR SNAPSHOT_DIR [...] [--prior-of DIR] [--force]\n");
  process.exit(2);
}
const priorIndex = priorOf === undefined ? undefined : dirs.indexOf(priorOf);
if (priorIndex === -1) {
  process.stderr.write(`average-pronoun-lm: --prior-of ${priorOf} is not one of the averaged directories\n`);
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
