/**
 * Synthetic substitution pairs of a corpus, scored by a masked-pronoun model under sum, PMI and its
 * calibration (calibration.json): per pronoun pair both directions (x>y: x is the corpus's pronoun, y
 * substituted at its slot) and their mean. Use another --seed than the calibration's to read it on slots
 * the calibration was not fitted on. Prints TSV: the balanced accuracy over every confusable pronoun pair,
 * then the pronoun pairs asked for (default: the ones PMI gets most wrong in evaluation: his/its, her/its,
 * their/its, it/she, he/it, that/which, that/this).
 *   node dist/scripts/calibration-pairs.js -c DIR --corpus FILE [--seed 2] [--per-pronoun 500] [--max-docs 0] [--backend wasm] [--pairs his/its,her/its]
 */
import { selectBackend } from "../src/nn/backend.js";
import { loadPronounLm } from "../src/pretrain/checkpoint.js";
import { readCalibration, sampleCalibrationSlots, slotDistributions, syntheticAccuracy } from "../src/pretrain/calibration.js";
import { pronouns } from "../src/text/pronouns.js";
import { int, parseArgs, str } from "./args.js";

const { opts } = parseArgs({
  name: "calibration-pairs",
  summary: "Synthetic substitution pairs of a corpus, scored by a masked-pronoun model under sum, PMI and its calibration.",
  options: {
    checkpoint: str("masked-pronoun model (with calibration.json)", undefined, { short: "c", value: "DIR", required: true }),
    corpus: str("pretraining corpus to draw the slots from", undefined, { value: "FILE", required: true }),
    seed: int("slot sampling seed", 2),
    perPronoun: int("slots per pronoun", 500),
    maxDocs: int("read at most this many documents (0: all)", 0),
    backend: str("tfjs backend", "wasm", { value: "NAME" }),
    pairs: str("pronoun pairs to print", "his/its,her/its,its/their,it/she,he/it,that/which,that/this", { value: "x/y,..." }),
  },
});
const dir = opts.checkpoint;
const corpus = opts.corpus;
const seed = opts.seed;
const pairs = opts.pairs.split(",").map((p) => p.split("/") as [string, string]);
await selectBackend(opts.backend);
const { config, lm } = loadPronounLm(dir);
const { calibration } = readCalibration(dir, config.files.weights.sha256);
const inv = pronouns();
const confusable = inv.list.map((_, i) => inv.confusable(i));
const { slots } = await sampleCalibrationSlots(corpus, { perPronoun: opts.perPronoun, seed, contextSentences: config.prepare.contextSentences, maxDocs: opts.maxDocs });
const samples = slotDistributions(lm, config.prepare, slots);
const ways = { sum: syntheticAccuracy(samples, confusable, null), pmi: syntheticAccuracy(samples, confusable, lm.logPrior), calibrated: syntheticAccuracy(samples, confusable, calibration.bias) };
lm.dispose();
const pct = (c: { n: number; correct: number } | undefined): string => (c && c.n ? ((100 * c.correct) / c.n).toFixed(1) : "n/a");
const lines = [`# ${samples.length} corpus slots, seed ${seed}; calibration fitted with seed ${calibration.fit.seed}`, ["pronoun pair", "n x>y", "n y>x", ...Object.keys(ways).flatMap((w) => [`${w} x>y %`, `${w} y>x %`, `${w} balanced %`])].join("\t")];
lines.push(["all confusable pairs", "", "", ...Object.values(ways).flatMap((a) => ["", "", (100 * a.balanced).toFixed(2)])].join("\t"));
for (const [x, y] of pairs) {
  const xy = ways.sum.byPair.get(`${x}>${y}`);
  const yx = ways.sum.byPair.get(`${y}>${x}`);
  const cells = Object.values(ways).flatMap((a) => {
    const f = a.byPair.get(`${x}>${y}`);
    const b = a.byPair.get(`${y}>${x}`);
    const bal = f && b && f.n && b.n ? (50 * (f.correct / f.n + b.correct / b.n)).toFixed(1) : "n/a";
    return [pct(f), pct(b), bal];
  });
  lines.push([`${x}/${y}`, String(xy?.n ?? 0), String(yx?.n ?? 0), ...cells].join("\t"));
}
process.stdout.write(lines.join("\n") + "\n");
