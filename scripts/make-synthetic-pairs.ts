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
 *     [--dev-fraction 0.02] [--seed 1] [--stats FILE.json]
 */
import { writeFileAtomic } from "../src/io/atomic.js";
import { InputError } from "../src/io/errors.js";
import { buildSyntheticPairs } from "../src/mine/synthetic-pairs.js";

function arg(names: string[], def?: string): string | undefined {
  for (const n of names) {
    const i = process.argv.indexOf(n);
    if (i >= 0) {
      const v = process.argv[i + 1];
      if (v === undefined || v.startsWith("--")) throw new InputError(`${n} needs a value`);
      return v;
    }
  }
  return def;
}

function num(name: string, def: string): number {
  const v = Number(arg([name], def));
  if (!Number.isFinite(v)) throw new InputError(`${name} must be a number, got '${arg([name], def)}'`);
  return v;
}

async function main(): Promise<void> {
  const corpus = arg(["--corpus"]);
  const pairs = arg(["--pairs"]);
  const out = arg(["-o", "--out"]);
  if (!corpus || !pairs || !out) throw new InputError("need --corpus, --pairs and -o");
  const confusions = arg(["--confusions"], "mined")!;
  if (confusions !== "mined" && confusions !== "classes") throw new InputError(`--confusions must be mined or classes, got '${confusions}'`);
  const t0 = Date.now();
  const r = await buildSyntheticPairs({
    corpus,
    pairs,
    out,
    devOut: arg(["--dev-out"]),
    perDirection: num("--per-direction", "200"),
    devPerDirection: num("--dev-per-direction", "25"),
    minedShare: num("--mined-share", "0.5"),
    minConfusion: num("--min-confusion", "3"),
    confusions,
    devFraction: num("--dev-fraction", "0.02"),
    seed: num("--seed", "1"),
    contextSentences: num("--context-sentences", "2"),
    maxTokens: num("--max-tokens", "100"),
    log: (m) => process.stderr.write(`make-synthetic-pairs: ${m}\n`),
  });
  const sum = (k: "mined" | "synthetic"): number => r.train.directions.reduce((s, d) => s + d.mined * (k === "mined" ? 1 : 0) + d.synthetic * (k === "synthetic" ? 1 : 0), 0);
  console.log(`documents: ${r.docs.train} train, ${r.docs.dev} held out, ${r.docs.devYear} of the dev year skipped; ${r.candidates} substitution candidates`);
  console.log(`train: ${r.train.pairs.length} pairs (${sum("mined")} mined R vs R', ${sum("synthetic")} synthetic) over ${r.train.directions.length} ordered pronoun pairs -> ${out}`);
  if (r.dev) console.log(`dev: ${r.dev.pairs.length} synthetic pairs over ${r.dev.directions.length} ordered pronoun pairs -> ${arg(["--dev-out"])}`);
  if (r.train.dropped.length) console.log(`left out (no candidate in one direction): ${r.train.dropped.join(" ")}`);
  const short = r.train.directions.filter((d) => d.mined + d.synthetic < num("--per-direction", "200"));
  if (short.length) console.log(`below the quota: ${short.map((d) => `${d.pair}:${d.mined + d.synthetic}`).join(" ")}`);
  console.log("pair\tmined\tsynthetic\tmined available\tsynthetic sampled");
  for (const d of r.train.directions) console.log(`${d.pair}\t${d.mined}\t${d.synthetic}\t${d.minedAvailable}\t${d.syntheticAvailable}`);
  const stats = arg(["--stats"]);
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
