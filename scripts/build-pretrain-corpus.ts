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
 *   node dist/scripts/build-pretrain-corpus.js [--data ../shared/data] [-o out/pretrain/corpus.jsonl.gz] [--sources LIST] [--news]
 */
import { join } from "node:path";
import { buildCorpus, type CorpusSources } from "../src/pretrain/corpus.js";
import { flag, parseArgs, str } from "./args.js";

const ALL = ["news-wiki", "wmt-ref", "wmt-en-src", "ctxpro", "gum", "litbank"] as const;
const DEFAULT = ["news-wiki", "wmt-ref", "wmt-en-src", "ctxpro", "gum"];

// A misspelt option would otherwise build the default corpus: the reader refuses what it does not know.
const { opts } = parseArgs({
  name: "build-pretrain-corpus",
  summary: "Builds the masked-pronoun pretraining corpus (docs/pretrain.md) from the English text in the shared data.",
  options: {
    data: str("the shared data folder", "../shared/data", { value: "DIR" }),
    out: str("output corpus, JSONL.gz", "out/pretrain/corpus.jsonl.gz", { short: "o", value: "FILE" }),
    sources: str(`comma-separated, from: ${ALL.join(", ")}`, undefined, { value: "LIST", defaultText: DEFAULT.join(",") }),
    news: flag("the older spelling: the default sources plus litbank and wmt-en-src"),
  },
});

async function main(): Promise<void> {
  const data = opts.data;
  const out = opts.out;
  const listed = opts.sources !== undefined ? opts.sources.split(",").map((x) => x.trim()).filter(Boolean) : null;
  const chosen = new Set<string>(listed ?? (opts.news ? [...DEFAULT, "litbank"] : DEFAULT));
  if (opts.news) chosen.add("wmt-en-src");
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
