/**
 * Builds the masked-pronoun pretraining corpus (docs/pretrain.md) from the English text in
 * ../shared/data. Sources (`--sources a,b,...`; default: the modern set, without the novels):
 *   news-wiki   text/english-news-wiki: Wikipedia 2015, blogs 2004, BBC/Reuters/Emergent news, U.S. government news
 *   wmt-ref     references of wmt21 + wmt22 into English (never system outputs, never wmt23: the dev year)
 *   wmt-en-src  English sources of the wmt21-24 en-X test sets (sentences of wmt23's into-English side left out)
 *   ctxpro      the English side of CTXPRO (en-X inputs, subtitles)
 *   gum         GUM/GENTLE
 *   litbank     LitBank novels (19th-century fiction)
 * `--news` (older spelling) adds wmt-en-src. Streaming, deterministic (fixed file order); tokens, sentences
 * with a pronoun and pronoun slots printed per source. Usage:
 *   node dist/scripts/build-pretrain-corpus.js [--data ../shared/data] [-o out/pretrain/corpus.jsonl.gz] [--sources LIST]
 */
import { join } from "node:path";
import { buildCorpus, type CorpusSources } from "../src/pretrain/corpus.js";

const ALL = ["news-wiki", "wmt-ref", "wmt-en-src", "ctxpro", "gum", "litbank"] as const;
const DEFAULT = ["news-wiki", "wmt-ref", "wmt-en-src", "ctxpro", "gum"];

function arg(names: string[], def: string): string {
  for (const n of names) {
    const i = process.argv.indexOf(n);
    if (i >= 0 && process.argv[i + 1]) return process.argv[i + 1]!;
  }
  return def;
}

const USAGE = `usage: node dist/scripts/build-pretrain-corpus.js [--data DIR] [-o FILE] [--sources LIST] [--news]
  --data DIR      the shared data folder (default ../shared/data)
  -o, --out FILE  output corpus, JSONL.gz (default out/pretrain/corpus.jsonl.gz)
  --sources LIST  comma-separated, from: ${ALL.join(", ")} (default: ${DEFAULT.join(",")})
  --news          the older spelling: the default sources plus litbank and wmt-en-src
`;

/** Refuses what this script does not know (a misspelt option would otherwise build the default corpus). */
function checkArgs(argv: string[]): void {
  const withValue = new Set(["--data", "-o", "--out", "--sources"]);
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "-h" || a === "--help") {
      process.stdout.write(USAGE);
      process.exit(0);
    }
    if (withValue.has(a)) {
      if (argv[i + 1] === undefined) fail(`${a} needs a value`);
      i++;
    } else if (a !== "--news") fail(`unknown argument '${a}'`);
  }
}

function fail(message: string): never {
  process.stderr.write(`build-pretrain-corpus: error: ${message}\n${USAGE}`);
  process.exit(2);
}

async function main(): Promise<void> {
  checkArgs(process.argv.slice(2));
  const data = arg(["--data"], "../shared/data");
  const out = arg(["-o", "--out"], "out/pretrain/corpus.jsonl.gz");
  const listed = process.argv.includes("--sources") ? arg(["--sources"], "").split(",").map((x) => x.trim()).filter(Boolean) : null;
  const chosen = new Set<string>(listed ?? (process.argv.includes("--news") ? [...DEFAULT, "litbank"] : DEFAULT));
  if (process.argv.includes("--news")) chosen.add("wmt-en-src");
  for (const c of chosen) {
    if (!(ALL as readonly string[]).includes(c)) throw new Error(`unknown source '${c}' (known: ${ALL.join(", ")})`);
  }
  const src: CorpusSources = {
    ...(chosen.has("litbank") ? { litbank: join(data, "text/litbank-novels") } : {}),
    ...(chosen.has("wmt-ref") ? { wmt: [join(data, "wmt/wmt21"), join(data, "wmt/wmt22")] } : {}),
    ...(chosen.has("ctxpro") ? { ctxpro: join(data, "ctxpro") } : {}),
    ...(chosen.has("gum") ? { gum: join(data, "coref/gum") } : {}),
    ...(chosen.has("wmt-en-src")
      ? { wmtEnSources: ["wmt21", "wmt22", "wmt23", "wmt24"].map((y) => join(data, "wmt", y)), exclude: [join(data, "wmt/wmt23")] }
      : {}),
    ...(chosen.has("news-wiki") ? { newsWiki: join(data, "text/english-news-wiki") } : {}),
  };
  const t0 = Date.now();
  const stats = await buildCorpus(src, out, (m) => process.stderr.write(m + "\n"));
  let total = { docs: 0, sentences: 0, tokens: 0, pronounSentences: 0, pronounSlots: 0 };
  console.log(`sources: ${[...chosen].join(",")}`);
  console.log("source\tdocs\tsentences\ttokens\tsentences with a pronoun\tpronoun slots");
  for (const [k, s] of Object.entries(stats.bySource)) {
    console.log(`${k}\t${s.docs}\t${s.sentences}\t${s.tokens}\t${s.pronounSentences}\t${s.pronounSlots}`);
    total = {
      docs: total.docs + s.docs,
      sentences: total.sentences + s.sentences,
      tokens: total.tokens + s.tokens,
      pronounSentences: total.pronounSentences + s.pronounSentences,
      pronounSlots: total.pronounSlots + s.pronounSlots,
    };
  }
  console.log(`total\t${total.docs}\t${total.sentences}\t${total.tokens}\t${total.pronounSentences}\t${total.pronounSlots}`);
  console.log(`skipped files/documents: ${stats.skipped.length}`);
  console.log(`wrote ${out} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

main().catch((e) => {
  process.stderr.write(`build-pretrain-corpus: error: ${(e as Error).message}\n`);
  process.exit(2);
});
