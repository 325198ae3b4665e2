/**
 * Builds the masked-pronoun pretraining corpus (docs/pretrain.md) from the English text in
 * ../shared/data: LitBank novels, the references of wmt21 + wmt22 into English (never system
 * outputs, never wmt23: the dev year), the English side of CTXPRO (en-X inputs), GUM/GENTLE.
 * Streaming, deterministic (fixed file order), counts printed. Usage:
 *   node dist/scripts/build-pretrain-corpus.js [--data ../shared/data] [-o out/pretrain/corpus.jsonl.gz] [--news]
 * --news adds the English sources of the wmt21-24 en-X test sets (sentences of wmt23's into-English side
 * left out).
 */
import { join } from "node:path";
import { buildCorpus } from "../src/pretrain/corpus.js";

function arg(names: string[], def: string): string {
  for (const n of names) {
    const i = process.argv.indexOf(n);
    if (i >= 0 && process.argv[i + 1]) return process.argv[i + 1]!;
  }
  return def;
}

async function main(): Promise<void> {
  const data = arg(["--data"], "../shared/data");
  const out = arg(["-o", "--out"], "out/pretrain/corpus.jsonl.gz");
  const t0 = Date.now();
  const stats = await buildCorpus(
    {
      litbank: join(data, "text/litbank-novels"),
      wmt: [join(data, "wmt/wmt21"), join(data, "wmt/wmt22")],
      ctxpro: join(data, "ctxpro"),
      gum: join(data, "coref/gum"),
      ...(process.argv.includes("--news")
        ? { wmtEnSources: ["wmt21", "wmt22", "wmt23", "wmt24"].map((y) => join(data, "wmt", y)), exclude: [join(data, "wmt/wmt23")] }
        : {}),
    },
    out,
    (m) => process.stderr.write(m + "\n"),
  );
  let total = { docs: 0, sentences: 0, tokens: 0, pronounSentences: 0 };
  console.log("source\tdocs\tsentences\ttokens\tsentences with a pronoun");
  for (const [k, s] of Object.entries(stats.bySource)) {
    console.log(`${k}\t${s.docs}\t${s.sentences}\t${s.tokens}\t${s.pronounSentences}`);
    total = { docs: total.docs + s.docs, sentences: total.sentences + s.sentences, tokens: total.tokens + s.tokens, pronounSentences: total.pronounSentences + s.pronounSentences };
  }
  console.log(`total\t${total.docs}\t${total.sentences}\t${total.tokens}\t${total.pronounSentences}`);
  console.log(`skipped files/documents: ${stats.skipped.length}`);
  console.log(`wrote ${out} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

main().catch((e) => {
  process.stderr.write(`build-pretrain-corpus: error: ${(e as Error).message}\n`);
  process.exit(2);
});
