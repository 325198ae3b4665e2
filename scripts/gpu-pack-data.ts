/**
 * The data that a GPU pretraining bundle carries (scripts/gpu-pack.sh, docs/gpu.md):
 *  - a systematic slice of the pretraining corpus: every K-th document, so every source keeps its
 *    share, written as plain JSONL (the bundle compresses it with xz, which beats gzip on it);
 *  - the embedding table that `proneval pretrain` builds for the whole corpus (same word counts, same
 *    cap, same pronouns kept), so a model trained on the slice has the vocabulary of a run on the full
 *    corpus here, and its checkpoint resumes and scores here like one of those.
 * Usage:
 *   node dist/scripts/gpu-pack-data.js --corpus corpus.jsonl.gz --every 10 --slice out.jsonl
 *     [--embeddings embeddings.bin] [--vocab-cap 40000]
 * Prints one JSON line: documents read, documents/sentences/tokens of the slice, words of the table.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { streamLines } from "../src/io/lines.js";
import { writeFileAtomic } from "../src/io/atomic.js";
import { InputError } from "../src/io/errors.js";
import { corpusCounts } from "../src/pretrain/data.js";
import { buildEmbeddingTable, writeEmbeddingTable } from "../src/nn/glove.js";
import { PRETRAIN_DEFAULTS } from "../src/pretrain/defaults.js";
import { PACKAGE_ROOT } from "../src/version.js";
import { int, parseArgs, str } from "./args.js";

const { opts } = parseArgs({
  name: "gpu-pack-data",
  summary: "The data that a GPU pretraining bundle carries: a systematic slice of the pretraining corpus and, with --embeddings, the embedding table of the whole corpus.",
  options: {
    corpus: str("the pretraining corpus (JSONL, .gz ok)", undefined, { value: "FILE", required: true }),
    every: int("keep every K-th document", 10, { value: "K" }),
    slice: str("the slice to write (plain JSONL)", undefined, { value: "FILE", required: true }),
    embeddings: str("also write the whole corpus's embedding table here", undefined, { value: "FILE" }),
    vocabCap: int("words of the embedding table", PRETRAIN_DEFAULTS.vocabCap),
  },
});

/** The pronouns that the embedding table always keeps (as src/pretrain/train.ts does). */
function pronounList(): string[] {
  const raw = JSON.parse(readFileSync(join(PACKAGE_ROOT, "data", "pronouns.json"), "utf8")) as { pronouns: Array<{ pronoun: string }> };
  return raw.pronouns.map((p) => p.pronoun);
}

async function main(): Promise<void> {
  const corpus = opts.corpus;
  const slice = opts.slice;
  const every = opts.every;
  if (!Number.isInteger(every) || every < 1) throw new InputError(`--every must be a positive integer, got '${every}'`);
  const embeddings = opts.embeddings;
  const vocabCap = opts.vocabCap;

  const lines: string[] = [];
  let docs = 0;
  let sentences = 0;
  let tokens = 0;
  let n = 0;
  for await (const line of streamLines(corpus)) {
    n++;
    if (!line.trim()) continue;
    if (docs++ % every !== 0) continue;
    let d: { sents?: unknown };
    try {
      d = JSON.parse(line);
    } catch (e) {
      throw new InputError(`invalid JSON (${(e as Error).message})`, corpus, n);
    }
    if (!Array.isArray(d.sents) || d.sents.some((s) => typeof s !== "string")) throw new InputError("not a corpus document (expected {id, source, sents: [string]})", corpus, n);
    sentences += d.sents.length;
    for (const s of d.sents as string[]) tokens += s.split(" ").length;
    lines.push(line);
  }
  writeFileAtomic(slice, lines.join("\n") + "\n");

  let words: number | null = null;
  if (embeddings) {
    const table = buildEmbeddingTable({ counts: await corpusCounts(corpus), required: pronounList(), cap: vocabCap });
    writeEmbeddingTable(embeddings, table);
    words = table.words.length;
  }
  process.stdout.write(JSON.stringify({ corpusDocs: docs, every, sliceDocs: lines.length, sliceSentences: sentences, sliceTokens: tokens, embeddingsWords: words }) + "\n");
}

main().catch((e) => {
  if (e instanceof InputError) {
    process.stderr.write(`gpu-pack-data: error: ${e.message}\n`);
    process.exit(2);
  }
  console.error(e);
  process.exit(1);
});
