/**
 * Makes the checkpoints in one folder share one copy of their GloVe rows (src/nn/shared-vectors.ts;
 * docs/formats.md, "Checkpoints"): writes FOLDER/vectors/<sha256>.bin and each checkpoint's vocab.json.gz,
 * names the store in each config.json and removes the local embeddings.bin files. Scores do not change: the
 * loader rebuilds each table byte for byte and checks it against its sha256. Rerun after adding a checkpoint.
 *   node dist/scripts/share-vectors.js checkpoints
 */
import { InputError } from "../src/io/errors.js";
import { shareVectors } from "../src/nn/shared-vectors.js";
import { parseArgs } from "./args.js";

const { args } = parseArgs({
  name: "share-vectors",
  summary: "Makes the checkpoints in one folder share one copy of their GloVe rows.",
  options: {},
  positionals: [{ name: "FOLDER", description: "the folder holding the checkpoint directories" }],
});
const parent = args[0]!;
try {
  const r = shareVectors(parent);
  const mib = (b: number): string => (b / 1048576).toFixed(2);
  process.stdout.write(`store ${r.store}: ${r.words} words, ${mib(r.storeBytes)} MiB\n`);
  for (const c of r.checkpoints) process.stdout.write(`${c.dir}: ${c.words} words${c.removedBytes ? `, removed embeddings.bin (${mib(c.removedBytes)} MiB)` : ""}\n`);
} catch (e) {
  if (e instanceof InputError) {
    process.stderr.write(`share-vectors: ${e.message}\n`);
    process.exit(2);
  }
  throw e;
}
