/**
 * Draws N mismatch records at random (seeded, reproducible) for hand-checking the aligner's precision.
 * Usage: node dist/scripts/sample-mismatches.js FILE [N=50] [SEED=1], e.g.
 *   node dist/scripts/sample-mismatches.js out/mined/all.mismatches.jsonl.gz 50 1
 * Prints a markdown list: reference and system sentence with the two aligned pronouns in [[ ]].
 */
import { readMismatches } from "../src/mine/mismatch-io.js";
import type { MismatchRecord } from "../src/mine/mismatch.js";
import { mulberry32 } from "../src/core/prng.js";
import { parseArgs } from "./args.js";

const { args } = parseArgs({
  name: "sample-mismatches",
  summary: "Draws N mismatch records at random (seeded) for hand-checking the aligner's precision.",
  options: {},
  positionals: [
    { name: "FILE", description: "mined mismatch records (JSONL, .gz ok)" },
    { name: "N", description: "records to draw", optional: true, kind: "int", defaultText: "50" },
    { name: "SEED", description: "sampling seed", optional: true, kind: "int", defaultText: "1" },
  ],
});
const [file, nArg = "50", seedArg = "1"] = args as [string, string?, string?];
const all: MismatchRecord[] = [];
for await (const r of readMismatches(file)) all.push(r);
const rnd = mulberry32(Number(seedArg));
// Partial Fisher-Yates: the first N of a seeded shuffle.
const n = Math.min(Number(nArg), all.length);
for (let i = 0; i < n; i++) {
  const j = i + Math.floor(rnd() * (all.length - i));
  [all[i], all[j]] = [all[j]!, all[i]!];
}
const mark = (s: string, [a, b]: [number, number]) => `${s.slice(0, a)}[[${s.slice(a, b)}]]${s.slice(b)}`;
for (let i = 0; i < n; i++) {
  const r = all[i]!;
  process.stdout.write(
    `${i + 1}. ${r.testset} ${r.lang_pair} ${r.doc_id}#${r.seg_id} ${r.system}: ${r.ref_pronoun} -> ${r.sys_pronoun}\n` +
      `   - R: ${mark(r.ref_sentence, r.ref_offsets)}\n   - S: ${mark(r.sys_sentence, r.sys_offsets)}\n`,
  );
}
