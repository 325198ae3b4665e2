/**
 * Benchmark of `ctxpro identify` end to end with the built-in annotators: sentence pairs per second
 * (load models, tokenise for the aligner, train fast_align both ways, then tag + align + resolve +
 * match), time per stage, items found, peak memory. Target: >= 200 pairs/s after the
 * aligner is trained, on 2 cores.
 *
 *   node dist/scripts/bench-ctxpro-identify.js -i pairs.tsv -l de [-r DE_GENDER ...] [--align-corpus F]
 *       [--threads 2] [--no-align-tags]
 */
import { availableParallelism, loadavg } from "node:os";
import { parseStrict, strictCommand } from "./args.js";
import { defaultAnnotators } from "../src/ctxpro/annotators.js";
import { identifyFiles, streamTsvRows } from "../src/ctxpro/identify.js";
import { builtinRuleSets, checkLang, loadRuleSet } from "../src/ctxpro/rules.js";
import type { Annotators } from "../src/annotate/types.js";

const program = strictCommand("bench-ctxpro-identify")
  .requiredOption("-i, --input <files...>", "TSV docid<TAB>English<TAB>other")
  .requiredOption("-l, --lang <lang>", "other language")
  .option("-r, --rules <names...>", "rule sets (default: every built-in set of the language)")
  .option("--align-corpus <files...>", "extra aligner training text")
  .option("--threads <n>", "aligner training threads", "2")
  .option("--no-align-tags", "aligner without the tag anchors (parts of speech and person)");
parseStrict(program);
const o = program.opts<{ input: string[]; lang: string; rules?: string[]; alignCorpus?: string[]; threads: string; alignTags: boolean }>();

const lang = checkLang(o.lang);
const t0 = performance.now();
const ann = await defaultAnnotators(lang, { alignCorpus: o.alignCorpus, threads: Number(o.threads), tagAnchors: o.alignTags });
const loadS = (performance.now() - t0) / 1000;
const sets = (o.rules ?? builtinRuleSets().filter((s) => s.lang === lang).map((s) => s.name)).map((r) => loadRuleSet(r, lang));

// Time each annotator inside the identify phase by wrapping it.
const stage = { tagEn: 0, tagTgt: 0, align: 0, coref: 0 };
const timed = <T>(key: keyof typeof stage, f: () => T): T => {
  const s = performance.now();
  const r = f();
  stage[key] += performance.now() - s;
  return r;
};
const wrapped: Annotators = {
  morph: {
    en: { lang: "en", annotate: (s) => timed("tagEn", () => ann.morph.en.annotate(s)) },
    tgt: { lang, annotate: (s) => timed("tagTgt", () => ann.morph.tgt.annotate(s)) },
  },
  aligner: {
    align: async (e, t, tagged) => {
      const s = performance.now();
      const r = await ann.aligner.align(e, t, tagged);
      stage.align += performance.now() - s;
      return r;
    },
  },
  // The resolver's person lexicon keeps the engine's fallback antecedent of *it* off person nouns, as in identify.
  coref: { resolve: (s) => timed("coref", () => ann.coref.resolve(s)), isPerson: ann.coref.isPerson?.bind(ann.coref) },
  // The target's re-reading by the alignment counts as target tagging.
  retag: (d) => timed("tagTgt", () => ann.retag(d)),
};
// The preparing pass first, timed by its phases (the wrapper has no prepare hook, so identifyFiles makes one
// pass only), then the identify pass.
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
const tTok = performance.now();
let pairs0 = 0;
let tTrain = 0;
let cTrain = 0;
const rows = async function* () {
  for await (const r of streamTsvRows(o.input)) {
    pairs0++;
    yield { en: r.en, other: r.other };
  }
};
await ann.prepare(rows(), (phase) => {
  if (phase !== "train") return;
  tTrain = performance.now();
  cTrain = cpu();
});
const tokS = (tTrain - tTok) / 1000;
const trainPairs = ann.aligner.size;
const trainS = (performance.now() - tTrain) / 1000;
const trainCpu = cpu() - cTrain;
const cId = cpu();
const { found, stats } = await identifyFiles(o.input, lang, sets, wrapped, { check: false });
const idCpu = cpu() - cId;
const idS = stats.seconds.identify;
const totalS = loadS + tokS + trainS + idS;
const items = [...found.values()].reduce((a, b) => a + b.length, 0);
const ms = (x: number) => `${(x / 1000).toFixed(2)} s`;
const maxRssMiB = process.resourceUsage().maxRSS / 1024;

console.log(`input: ${o.input.join(", ")} (${pairs0} segment pairs, ${stats.docs} documents), en-${lang}, ${sets.length} rule sets, ${items} items`);
console.log(`load models      ${loadS.toFixed(2)} s`);
console.log(`tokenise (pass 1) ${tokS.toFixed(2)} s`);
console.log(`train aligner    ${trainS.toFixed(2)} s (${trainCpu.toFixed(2)} s CPU, ${trainPairs} pairs incl. extra corpus)`);
console.log(`identify (pass 2) ${idS.toFixed(2)} s (${idCpu.toFixed(2)} s CPU): tag en ${ms(stage.tagEn)}, tag ${lang} ${ms(stage.tagTgt)}, align ${ms(stage.align)}, coref ${ms(stage.coref)}, rules+io ${ms(idS * 1000 - stage.tagEn - stage.tagTgt - stage.align - stage.coref)}`);
console.log(`throughput after training: ${(stats.pairs / idS).toFixed(0)} pairs/s wall, ${(stats.pairs / idCpu).toFixed(0)} pairs per CPU second (target 200/s: ratio ${(stats.pairs / idS / 200).toFixed(2)} wall, ${(stats.pairs / idCpu / 200).toFixed(2)} CPU)`);
console.log(`load average (1 min) at the end: ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores`);
console.log(`throughput end to end:     ${(stats.pairs / totalS).toFixed(0)} pairs/s (${totalS.toFixed(2)} s incl. model loading and training)`);
console.log(`peak memory (maxRSS): ${maxRssMiB.toFixed(0)} MiB`);
