/**
 * Trains the English resolver under several data / feature-group configurations and seeds, loading and
 * tagging the corpora once, and scores each on the held-out splits (the ablation in
 * docs/lab/annotate.md). Models are not written.
 *
 *   npx tsc -p . && nice -n 10 node dist/scripts/coref-ablation.js --seeds 1,2,3 \
 *       --configs "old=gum,litbank:" "data=gum,gentle,litbank,parcor:" "wn=gum,gentle,litbank,parcor:wn"
 *
 * A configuration is NAME=CORPORA:FEATURES (comma lists; corpora gum, gentle, litbank, parcor; feature
 * groups as in src/annotate/coref.ts). Prints F1 per held-out corpus and pooled P/R/F1, per seed and mean.
 * Other options: --data ../shared/data, --epochs 10, --ensemble 1 (K models averaged per seed, as
 * train-coref.ts --ensemble), --wordnet data/lexicons/en-wordnet-animacy.tsv.gz.
 */
import { join } from "node:path";
import { loadDefaultMorph } from "../src/annotate/morph.js";
import { animacyToTsv, deriveAnimacy, loadGum, loadLitbank, loadParcor, trainDoc, type TaggedGoldDoc } from "../src/annotate/coref-corpora.js";
import { averageCorefModels, COREF_FEATURE_GROUPS, PronounResolver, parseAnimacy, trainCoref, type CorefFeatureGroup } from "../src/annotate/coref.js";
import { addTally, evaluateCoref, prf, zeroTally } from "../src/annotate/coref-eval.js";
import { readText } from "../src/io/lines.js";
import { int, many, nums, parseArgs, str } from "./args.js";

const { opts } = parseArgs({
  name: "coref-ablation",
  summary: "Trains the English resolver under several data / feature-group configurations and seeds, and scores each on the held-out splits.",
  options: {
    configs: many("configurations NAME=CORPORA:FEATURES", { value: "CONFIG..." }),
    seeds: nums("seeds", "1"),
    epochs: int("training epochs", 10),
    ensemble: int("models averaged per seed", 1),
    data: str("the shared data folder", "../shared/data", { value: "DIR" }),
    wordnet: str("WordNet animacy lexicon", "data/lexicons/en-wordnet-animacy.tsv.gz", { value: "FILE" }),
  },
});
const data = opts.data;
const seeds = opts.seeds;
const epochs = opts.epochs;
const ensemble = opts.ensemble;
const configs = opts.configs.map((c) => {
  const m = /^([^=]+)=([^:]*):(.*)$/.exec(c);
  if (!m) throw new Error(`bad config '${c}' (NAME=CORPORA:FEATURES)`);
  const features = m[3]!.split(",").filter(Boolean) as CorefFeatureGroup[];
  for (const f of features) if (!COREF_FEATURE_GROUPS.includes(f)) throw new Error(`unknown feature group '${f}'`);
  return { name: m[1]!, corpora: m[2]!.split(",").filter(Boolean), features };
});
const t0 = Date.now();
const morph = loadDefaultMorph("en");
const gumDir = join(data, "coref", "gum");
const pc = (sub: string) => join(data, "coref", "parcor-full", "corpus", sub, "EN");
const train: Record<string, TaggedGoldDoc[]> = {
  gum: loadGum(gumDir, false, morph),
  gentle: loadGum(gumDir, false, morph, "GENTLE"),
  litbank: loadLitbank(join(data, "coref", "litbank"), morph, false),
  parcor: ["news", "TED", "DiscoMT"].flatMap((s) => loadParcor(pc(s), morph, false)),
};
const held: Array<[string, TaggedGoldDoc[], boolean]> = [
  ["GUM", loadGum(gumDir, true, morph), true],
  ["GENTLE", loadGum(gumDir, true, morph, "GENTLE"), true],
  ["LitBank", loadLitbank(join(data, "coref", "litbank"), morph, true), false],
  ["ParCorFull", ["news", "TED", "DiscoMT"].flatMap((s) => loadParcor(pc(s), morph, true)), false],
];
const wn = parseAnimacy(readText(opts.wordnet));
console.error(`loaded in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
const f1 = (x: number) => (100 * x).toFixed(1);
console.log(`| config | corpora | features | seed | GUM F1 | GENTLE F1 | LitBank F1 | ParCorFull F1 | pooled P | pooled R | pooled F1 | model features |`);
console.log(`| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |`);
for (const c of configs) {
  const docs = c.corpora.flatMap((k) => {
    const d = train[k];
    if (!d) throw new Error(`unknown corpus '${k}'`);
    return d;
  });
  const lex = parseAnimacy(animacyToTsv(deriveAnimacy(docs))); // as train-coref.ts reads it back
  const sums = new Array<number>(8).fill(0);
  for (const seed of seeds) {
    // --ensemble K: "seed" s is the average of the models of seeds (s-1)K+1 .. sK (train-coref.ts --seed s --ensemble K).
    const model = ensemble > 1
      ? averageCorefModels(Array.from({ length: ensemble }, (_, k) => trainCoref(docs.map(trainDoc), lex, { epochs, seed: (seed - 1) * ensemble + k + 1, features: c.features, wn })))
      : trainCoref(docs.map(trainDoc), lex, { epochs, seed, features: c.features, wn });
    const r = new PronounResolver(model, lex, undefined, wn);
    const pooled = zeroTally();
    const fs: number[] = [];
    for (const [, hd, ex] of held) {
      const t = evaluateCoref(hd, (d) => r.decisions(d.sentences), ex).get("all") ?? zeroTally();
      addTally(pooled, t);
      fs.push(prf(t).f);
    }
    const pp = prf(pooled);
    const row = [...fs, pp.p, pp.r, pp.f, Object.keys(model.perceptron.weights).length];
    row.forEach((v, k) => (sums[k]! += v));
    console.log(`| ${c.name} | ${c.corpora.join(",")} | ${c.features.join(",") || "-"} | ${seed} | ${row.slice(0, 7).map(f1).join(" | ")} | ${row[7]} |`);
  }
  const n = seeds.length;
  console.log(`| **${c.name}** | | | mean of ${n} | ${sums.slice(0, 7).map((v) => f1(v / n)).join(" | ")} | ${Math.round(sums[7]! / n)} |`);
}
console.error(`${((Date.now() - t0) / 1000).toFixed(0)} s`);
