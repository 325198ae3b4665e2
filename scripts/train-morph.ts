/**
 * Trains the morphology models shipped in data/models (one per language).
 *
 *   npx tsc -p . && nice -n 10 node dist/scripts/train-morph.js [--lang en,de,...] [--data ../shared/data] [--out data/models]
 *       [--epochs 8] [--min-weight 0.05]
 *
 * Training data per language: the UD dev file plus any train portion (EN-EWT, PT-Bosque); English also
 * gets the GUM documents not held out for coreference evaluation. The UD test files are never read.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../src/io/atomic.js";
import { readConllu, type UdSentence } from "../src/annotate/conllu.js";
import { serializeMorph, trainMorph } from "../src/annotate/morph.js";
import { trainingFiles } from "../src/annotate/splits.js";
import { SUPPORTED_LANGS, isSupportedLang } from "../src/annotate/tokenize.js";
import { int, num, parseArgs, str } from "./args.js";

const { opts } = parseArgs({
  name: "train-morph",
  summary: "Trains the morphology models shipped in data/models (one per language).",
  options: {
    lang: str("languages", SUPPORTED_LANGS.join(","), { value: "LIST" }),
    data: str("the shared data folder", "../shared/data", { value: "DIR" }),
    out: str("where the models are written", "data/models", { value: "DIR" }),
    epochs: int("training epochs", 8),
    minWeight: num("prune weights below this from the saved model", 0.05),
  },
});

function main(): void {
  const data = opts.data;
  const out = opts.out;
  const epochs = opts.epochs;
  const minWeight = opts.minWeight;
  const langs = opts.lang.split(",");
  for (const lang of langs) {
    if (!isSupportedLang(lang)) throw new Error(`unsupported language ${lang}`);
    const files = trainingFiles(data, lang);
    const sents: UdSentence[] = files.flatMap((f) => readConllu(f));
    const tokens = sents.reduce((a, s) => a + s.words.length, 0);
    const t0 = Date.now();
    const trainedOn = `${files.length} file(s): ${files.map((f) => f.split("/").pop()).slice(0, 4).join(", ")}${files.length > 4 ? ", ..." : ""}; ${sents.length} sentences, ${tokens} words`;
    console.error(`[${lang}] ${trainedOn}`);
    const model = trainMorph(lang, sents, { epochs, minWeight, trainedOn, log: (m) => console.error(`[${lang}] ${m}`) });
    const path = join(out, `morph-${lang}.json.gz`);
    writeFileAtomic(path, serializeMorph(model));
    const buf = readFileSync(path);
    console.error(
      `[${lang}] wrote ${path}: ${(buf.length / 1e6).toFixed(2)} MB, ${Object.keys(model.tagger.perceptron.weights).length} features, ` +
        `${model.tagger.perceptron.labels.length} labels, ${Object.keys(model.lemmatizer.exceptions).length} lemma exceptions, ${((Date.now() - t0) / 1000).toFixed(0)} s`,
    );
  }
}

main();
