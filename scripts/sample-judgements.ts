/**
 * Draws the pairs of the hand-judged sets (docs/judgements.md): pairs of one split (default
 * dev = wmt23) built from *every* mined mismatch (no agreement filter, like `pairs --keep-all`),
 * deduplicated like `proneval pairs`, then a seeded random sample. `--kind rr` (default): R vs R', the
 * reference against itself with the one mismatched pronoun replaced; `--kind rs`: R vs S, the reference
 * against the system output itself (the paper's user study), the two mismatched pronouns marked by their
 * offsets. Each line carries what a judge reads (reference context, the two candidates, the source where
 * the test set has one) and an empty `label` to fill in; no model score is computed or printed here.
 * Usage: node dist/scripts/sample-judgements.js MISMATCHES.jsonl.gz [N=450] [SEED=23] [SPLIT=dev] [--kind rr|rs] > data/judgements/wmt23-noisy.todo.jsonl
 */
import { mulberry32 } from "../src/core/prng.js";
import { readMismatches } from "../src/mine/mismatch-io.js";
import { splitOf, substituteCase } from "../src/mine/pairs.js";
import { oneOf, parseArgs } from "./args.js";

const { opts, args } = parseArgs({
  name: "sample-judgements",
  summary: "Draws the pairs of the hand-judged sets: R vs R' or R vs S pairs of one split from every mined mismatch, a seeded sample.",
  options: {
    kind: oneOf("rr: reference vs reference with one pronoun replaced; rs: reference vs the system output", ["rr", "rs"], "rr"),
  },
  positionals: [
    { name: "MISMATCHES", description: "mined mismatch records (JSONL, .gz ok)" },
    { name: "N", description: "pairs to draw", optional: true, kind: "int", defaultText: "450" },
    { name: "SEED", description: "sampling seed", optional: true, kind: "int", defaultText: "23" },
    { name: "SPLIT", description: "train or dev", optional: true, defaultText: "dev" },
  ],
});
const [file, nArg = "450", seedArg = "23", split = "dev"] = args as [string, string?, string?, string?];
const rs = opts.kind === "rs";

interface Candidate {
  id: string;
  testset: string;
  lang_pair: string;
  doc_id: string;
  seg_id: string;
  system: string;
  ref_pronoun: string;
  sys_pronoun: string;
  context: string[];
  reference: string;
  substitute: string;
  offsets: [number, number];
  /** R vs S: where the system's pronoun is in `substitute`. */
  sub_offsets?: [number, number];
  source?: string;
  source_context?: string[];
}

const seen = new Set<string>();
const pool: Candidate[] = [];
for await (const r of readMismatches(file)) {
  if (splitOf(r.testset) !== split) continue;
  const [s, e] = r.ref_offsets;
  const original = r.ref_sentence.slice(s, e);
  const substitute = rs ? r.sys_sentence : r.ref_sentence.slice(0, s) + substituteCase(r.ref_sentence, s, original, r.sys_pronoun) + r.ref_sentence.slice(e);
  // R vs S: one item per (context, reference, output, reference pronoun); the same output may mismatch twice.
  const key = `${r.ref_context.join("\n")}\t${r.ref_sentence}\t${substitute}${rs ? `\t${r.ref_token}` : ""}`;
  if (seen.has(key) || substitute === r.ref_sentence) continue;
  seen.add(key);
  pool.push({
    id: `${rs ? "JS" : "J"}:${r.testset}/${r.lang_pair}/${r.doc_id}/${r.seg_id}/${r.ref_token}/${r.sys_pronoun}${rs ? `/${r.system}` : ""}`,
    testset: r.testset,
    lang_pair: r.lang_pair,
    doc_id: r.doc_id,
    seg_id: r.seg_id,
    system: r.system,
    ref_pronoun: r.ref_pronoun,
    sys_pronoun: r.sys_pronoun,
    context: r.ref_context,
    reference: r.ref_sentence,
    substitute,
    offsets: [s, e],
    ...(rs ? { sub_offsets: r.sys_offsets } : {}),
    source: r.src_sentence,
    source_context: r.src_context,
  });
}
const rnd = mulberry32(Number(seedArg));
const n = Math.min(Number(nArg), pool.length);
for (let i = 0; i < n; i++) {
  const j = i + Math.floor(rnd() * (pool.length - i));
  [pool[i], pool[j]] = [pool[j]!, pool[i]!];
}
process.stderr.write(`${pool.length} distinct ${rs ? "R vs S" : "R vs R'"} pairs in split ${split}; drew ${n} with seed ${seedArg}\n`);
for (let i = 0; i < n; i++) process.stdout.write(JSON.stringify({ ...pool[i]!, label: null }) + "\n");
