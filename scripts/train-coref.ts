/**
 * Trains the English pronoun resolver and derives the corpus animacy lexicon.
 *
 *   npx tsc -p . && nice -n 10 node dist/scripts/train-coref.js [--data ../shared/data] [--epochs 10] [--seed 1] [--ensemble 3]
 *       [--prefer-nominal on|off] [--null-bias 0]
 *       [--corpora gum,gentle,litbank,parcor] [--features wn,agree,syn] [--out-dir data] [--window 3] [--min-weight 0.01]
 *
 * Training documents (src/annotate/splits.ts; the held-out parts are never read here):
 * GUM and GENTLE minus the held-out fifth, LitBank minus 14 held-out excerpts, ParCorFull English minus
 * 16 held-out documents, each tagged by our own English tagger (data/models/morph-en.json.gz) so that
 * training sees the same part-of-speech errors as use. Writes <out-dir>/models/coref-en.json.gz and
 * <out-dir>/lexicons/en-animacy.tsv.gz; reads <out-dir>/lexicons/en-wordnet-animacy.tsv.gz (else
 * data/lexicons/) for the "wn" and "agree" features.
 */
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../src/io/atomic.js";
import { readText } from "../src/io/lines.js";
import { loadDefaultMorph } from "../src/annotate/morph.js";
import { animacyToTsv, deriveAnimacy, loadGum, loadLitbank, loadParcor, trainDoc, type TaggedGoldDoc } from "../src/annotate/coref-corpora.js";
import { averageCorefModels, COREF_FEATURE_GROUPS, parseAnimacy, trainCoref, type CorefFeatureGroup } from "../src/annotate/coref.js";
import { int, num, parseArgs, str } from "./args.js";

const { opts } = parseArgs({
  name: "train-coref",
  summary: "Trains the English pronoun resolver and derives the corpus animacy lexicon.",
  options: {
    data: str("the shared data folder", "../shared/data", { value: "DIR" }),
    epochs: int("training epochs", 10),
    seed: int("seed (with --ensemble K: seeds (S-1)K+1 .. SK)", 1, { value: "S" }),
    ensemble: int("models averaged", 3, { value: "K" }),
    preferNominal: str("store prefer-nominal in the model", "on", { value: "on|off" }),
    nullBias: num("null bias stored in the model", 0, { value: "B" }),
    corpora: str("training corpora", "gum,gentle,litbank,parcor", { value: "LIST" }),
    features: str("feature groups", "wn,agree,syn", { value: "LIST" }),
    outDir: str("writes DIR/models/coref-en.json.gz and DIR/lexicons/en-animacy.tsv.gz", "data", { value: "DIR" }),
    window: int("antecedent window in sentences", 3),
    minWeight: num("prune weights below this from the saved model", 0.01),
  },
});
const data = opts.data;
const outDir = opts.outDir;
const corpora = opts.corpora.split(",").filter(Boolean);
const features = opts.features.split(",").filter(Boolean) as CorefFeatureGroup[];
for (const c of corpora) if (!["gum", "gentle", "litbank", "parcor"].includes(c)) throw new Error(`unknown corpus '${c}' (gum, gentle, litbank, parcor)`);
for (const f of features) if (!COREF_FEATURE_GROUPS.includes(f)) throw new Error(`unknown feature group '${f}' (${COREF_FEATURE_GROUPS.join(", ")})`);
const t0 = Date.now();
const morph = loadDefaultMorph("en");
const parts: Array<[string, TaggedGoldDoc[]]> = [];
if (corpora.includes("gum")) parts.push(["GUM", loadGum(join(data, "coref", "gum"), false, morph)]);
if (corpora.includes("gentle")) parts.push(["GENTLE", loadGum(join(data, "coref", "gum"), false, morph, "GENTLE")]);
if (corpora.includes("litbank")) parts.push(["LitBank", loadLitbank(join(data, "coref", "litbank"), morph, false)]);
if (corpora.includes("parcor"))
  parts.push(["ParCorFull", ["news", "TED", "DiscoMT"].flatMap((sub) => loadParcor(join(data, "coref", "parcor-full", "corpus", sub, "EN"), morph, false))]);
const trainedOn = parts.map(([n, d]) => `${n} ${d.length}`).join(" + ") + " docs (held-out splits excluded)";
console.error(`loaded ${trainedOn} in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
const docs = parts.flatMap(([, d]) => d);
mkdirSync(join(outDir, "lexicons"), { recursive: true });
mkdirSync(join(outDir, "models"), { recursive: true });
const lexPath = join(outDir, "lexicons", "en-animacy.tsv.gz");
writeFileAtomic(lexPath, animacyToTsv(deriveAnimacy(docs)));
const lex = parseAnimacy(readText(lexPath));
console.error(`animacy lexicon: ${lex.size} entries -> ${lexPath}`);
let wn: Map<string, number[]> | undefined;
if (features.includes("wn") || features.includes("agree")) {
  const own = join(outDir, "lexicons", "en-wordnet-animacy.tsv.gz");
  const wnPath = existsSync(own) ? own : "data/lexicons/en-wordnet-animacy.tsv.gz";
  wn = parseAnimacy(readText(wnPath));
  console.error(`WordNet lexicon: ${wn.size} entries <- ${wnPath}`);
}
// --ensemble K: the average of the rankers trained with seeds (S-1)K+1 .. SK (S = --seed).
const seed = opts.seed;
const ensemble = opts.ensemble;
const seeds = ensemble > 1 ? Array.from({ length: ensemble }, (_, k) => (seed - 1) * ensemble + k + 1) : [seed];
const docsT = docs.map(trainDoc);
const models = seeds.map((s) =>
  trainCoref(docsT, lex, {
    epochs: opts.epochs,
    window: opts.window,
    seed: s,
    minWeight: opts.minWeight,
    features,
    wn,
    trainedOn,
    log: (m) => console.error(`seed ${s}: ${m}`),
  }),
);
const model = models.length > 1 ? averageCorefModels(models, `${trainedOn}; average of seeds ${seeds.join(",")}`) : models[0]!;
// Use-time settings stored in the model (not used in training): see CorefModel.
if (opts.preferNominal === "on") model.preferNominal = true;
if (opts.nullBias !== 0) model.nullBias = opts.nullBias;
const out = join(outDir, "models", "coref-en.json.gz");
writeFileAtomic(out, JSON.stringify(model));
console.error(`wrote ${out}: ${Object.keys(model.perceptron.weights).length} features, ${(readFileSync(out).length / 1e3).toFixed(0)} kB, ${((Date.now() - t0) / 1000).toFixed(0)} s`);
