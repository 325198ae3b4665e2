/**
 * Averages the weights of snapshots of one masked-pronoun pretraining run into one model (src/pretrain/average.ts;
 * docs/lab/pretrain.md, "Checkpoint averaging"):
 *   node dist/scripts/average-pronoun-lm.js -o OUT_DIR SNAPSHOT_DIR SNAPSHOT_DIR [...] [--force]
 */
import { InputError } from "../src/io/errors.js";
import { averagePronounLms } from "../src/pretrain/average.js";

const args = process.argv.slice(2);
let out: string | undefined;
let force = false;
const dirs: string[] = [];
for (let i = 0; i < args.length; i++) {
  const a = args[i]!;
  if (a === "-o" || a === "--output") out = args[++i];
  else if (a === "--force") force = true;
  else if (a.startsWith("-")) {
    process.stderr.write(`average-pronoun-lm: unknown option ${a}\n`);
    process.exit(2);
  } else dirs.push(a);
}
if (!out) {
  process.stderr.write("usage: average-pronoun-lm -o OUT_DIR SNAPSHOT_DIR SNAPSHOT_DIR [...] [--force]\n");
  process.exit(2);
}
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
