/**
 * Balanced training pairs for the ranker (docs/ranker.md, "Training where identity cannot pay"): for every
 * confusable pronoun pair {x, y}, the same number of pairs in each direction x -> y and y -> x, mixing mined
 * R vs R' pairs (at most --mined-share of each direction) with synthetic substitutions from a monolingual corpus
 * (a sentence with x against the same sentence with y; its two previous sentences as context). Documents of the
 * dev year (wmt23) are never used; a seeded share of documents is held out for a synthetic dev file.
 * Usage:
 *   node dist/scripts/make-synthetic-pairs.js --corpus out/pretrain/corpus-modern.jsonl.gz --pairs out/pairs/train.jsonl.gz \
 *     -o out/pairs-synthetic/train.jsonl.gz [--dev-out out/pairs-synthetic/dev.jsonl.gz] [--per-direction 200] \
 *     [--dev-per-direction 25] [--mined-share 0.5] [--confusions mined|classes] [--min-confusion 3] \
 *     [--dev-fraction 0.02] [--seed 1] [--context-sentences 2] [--max-tokens 100] [--stats FILE.json]
 */
import { writeFileAtomic } from "../src/io/atomic.js";
import { InputError } from "../src/io/errors.js";
import { buildSyntheticPairs } from "../src/mine/synthetic-pairs.js";
import { num, oneOf, parseArgs, str } from "./args.js";

const { opts } = parseArgs({
  name: "make-synthetic-pairs",
  summary: "Balanced training pairs for the ranker: per confusable pronoun pair, as many pairs each way, mined and synthetic.",
  options: {
    corpus: str("monolingual corpus (pretraining JSONL)", undefined, { value: "FILE", required: true }),
    pairs: str("mined pair file (R vs R' pairs)", undefined, { value: "FILE", required: true }),
    out: str("training pairs to write", undefined, { short: "o", value: "FILE", required: true }),
    devOut: str("also write a synthetic dev file from held-out documents", undefined, { value: "FILE" }),
    perDirection: num("training pairs per ordered pronoun pair", 200),
    devPerDirection: num("dev pairs per ordered pronoun pair", 25),
    minedShare: num("at most this share of each direction from mined pairs", 0.5),
    confusions: oneOf("the confusable pronoun pairs: those mined both ways, or the pronoun inventory's confusable classes", ["mined", "classes"], "mined"),
    minConfusion: num("mined confusions each way that make a pair confusable", 3),
    devFraction: num("share of documents held out for the dev file", 0.02),
    seed: num("seed", 1),
    contextSentences: num("context sentences before each sentence", 2),
    maxTokens: num("longest sentence used, in tokens", 100),
    stats: str("write the counts as JSON", undefined, { value: "FILE.json" }),
  },
});

async function main(): Promise<void> {
  const corpus = opts.corpus;
  const pairs = opts.pairs;
  const out = opts.out;
  const confusions = opts.confusions;
  const t0 = Date.now();
  const r = await buildSyntheticPairs({
    corpus,
    pairs,
    out,
    devOut: opts.devOut,
    perDirection: opts.perDirection,
    devPerDirection: opts.devPerDirection,
    minedShare: opts.minedShare,
    minConfusion: opts.minConfusion,
    confusions,
    devFraction: opts.devFraction,
    seed: opts.seed,
    contextSentences: opts.contextSentences,
    maxTokens: opts.maxTokens,
    log: (m) => process.stderr.write(`make-synthetic-pairs: ${m}\n`),
  });
  const sum = (k: "mined" | "synthetic"): number => r.train.directions.reduce((s, d) => s + d.mined * (k === "mined" ? 1 : 0) + d.synthetic * (k === "synthetic" ? 1 : 0), 0);
  console.log(`documents: ${r.docs.train} train, ${r.docs.dev} held out, ${r.docs.devYear} of the dev year skipped; ${r.candidates} substitution candidates`);
  console.log(`train: ${r.train.pairs.length} pairs (${sum("mined")} mined R vs R', ${sum("synthetic")} synthetic) over ${r.train.directions.length} ordered pronoun pairs -> ${out}`);
  if (r.dev) console.log(`dev: ${r.dev.pairs.length} synthetic pairs over ${r.dev.directions.length} ordered pronoun pairs -> ${opts.devOut}`);
  if (r.train.dropped.length) console.log(`left out (no candidate in one direction): ${r.train.dropped.join(" ")}`);
  const short = r.train.directions.filter((d) => d.mined + d.synthetic < opts.perDirection);
  if (short.length) console.log(`below the quota: ${short.map((d) => `${d.pair}:${d.mined + d.synthetic}`).join(" ")}`);
  console.log("pair\tmined\tsynthetic\tmined available\tsynthetic sampled");
  for (const d of r.train.directions) console.log(`${d.pair}\t${d.mined}\t${d.synthetic}\t${d.minedAvailable}\t${d.syntheticAvailable}`);
  const stats = opts.stats;
  if (stats) writeFileAtomic(stats, JSON.stringify({ ...r, train: { directions: r.train.directions, dropped: r.train.dropped, pairs: r.train.pairs.length }, dev: r.dev ? { directions: r.dev.directions, pairs: r.dev.pairs.length } : null }, null, 1) + "\n");
  process.stderr.write(`make-synthetic-pairs: ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
}

main().catch((e: unknown) => {
  if (e instanceof InputError) {
    process.stderr.write(`make-synthetic-pairs: ${e.message}\n`);
    process.exit(2);
  }
  throw e;
});
