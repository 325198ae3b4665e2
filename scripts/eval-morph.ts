/**
 * Evaluates the shipped morphology models on the UD test files (gold tokenisation) and checks the
 * closed-class tables against the training treebanks' conventions.
 *
 *   npx tsc -p . && node dist/scripts/eval-morph.js [--lang en,...] [--data ../shared/data] [--models data/models] [--check-tables]
 *       [--lexicon off|on|default] [--verbs off|on|default]
 *
 * --lexicon: the noun lexicons (src/annotate/lexicons.ts) off, forced on, or as shipped; --verbs: the verb
 * lexicons (src/annotate/verb-lexicons.ts) likewise.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { readConllu } from "../src/annotate/conllu.js";
import { closedClassTable } from "../src/annotate/closed-class.js";
import { loadDefaultMorph, trainingWords } from "../src/annotate/morph.js";
import { makeLabel, TAG_FEATS } from "../src/annotate/tagger.js";
import { SUPPORTED_LANGS, isSupportedLang, tokenize } from "../src/annotate/tokenize.js";
import { TREEBANKS, trainingFiles } from "../src/annotate/splits.js";
import { flag, parseArgs, str } from "./args.js";

const { opts } = parseArgs({
  name: "eval-morph",
  summary: "Evaluates the shipped morphology models on the UD test files and checks the closed-class tables.",
  options: {
    lang: str("languages", SUPPORTED_LANGS.join(","), { value: "LIST" }),
    data: str("the shared data folder", "../shared/data", { value: "DIR" }),
    models: str("morphology models", "data/models", { value: "DIR" }),
    checkTables: flag("also list closed-class forms whose treebank analyses the tables lack"),
    lexicon: str("noun lexicons off, forced on, or as shipped", "default", { value: "off|on|default" }),
    verbs: str("verb lexicons off, forced on, or as shipped", "default", { value: "off|on|default" }),
  },
});

const pct = (a: number, b: number) => (b ? ((100 * a) / b).toFixed(1) : "-");

function main(): void {
  const data = opts.data;
  const models = opts.models;
  const langs = opts.lang.split(",");
  const rows: string[] = [];
  const verbRows: string[] = [];
  for (const lang of langs) {
    if (!isSupportedLang(lang)) throw new Error(`unsupported language ${lang}`);
    // --lexicon off|on|default: noun lexicons (src/annotate/lexicons.ts) off, forced on, or as shipped.
    const lx = opts.lexicon;
    // --verbs off|on|default: verb lexicons (src/annotate/verb-lexicons.ts) likewise.
    const vx = opts.verbs;
    const m = loadDefaultMorph(lang, models, { ...(lx === "default" ? {} : { lexicon: lx === "on" }), ...(vx === "default" ? {} : { verbs: vx === "on" }) });
    const dir = join(data, "ud", TREEBANKS[lang]);
    const testFile = readdirSync(dir).find((f) => /-ud-test\.conllu(\.gz)?$/.test(f))!;
    const sents = readConllu(join(dir, testFile));
    const lex = m.lexicon;
    let nounG = 0, nounGOk = 0;
    // Verbs: lemma accuracy over gold VERB/AUX words, and gold VERBs tagged as a noun or adjective.
    let verbs = 0, verbLemmaOk = 0, goldVerb = 0, verbAsNoun = 0;
    let n = 0, upos = 0, lemma = 0, allFeats = 0, tokOk = 0, tokGold = 0, tokPred = 0;
    const feat: Record<string, [number, number]> = {};
    const annotated: Record<string, number> = {};
    const t0 = process.hrtime.bigint();
    // An external analyser (Apertium, pl) looks up all the test words in one batch first.
    m.prefetchNouns(sents.flatMap((s) => trainingWords(s, lang, lex).map((w) => w.form)));
    for (const s of sents) {
      const words = trainingWords(s, lang, lex);
      const pred = m.tagWords(words.map((w) => w.form));
      words.forEach((w, i) => {
        const p = pred[i]!;
        n++;
        if (p.upos === w.upos) upos++;
        if (p.lemma === w.lemma) lemma++;
        if (w.upos === "VERB" || w.upos === "AUX") {
          verbs++;
          if (p.lemma === w.lemma) verbLemmaOk++;
        }
        if (w.upos === "VERB") {
          goldVerb++;
          if (p.upos === "NOUN" || p.upos === "ADJ" || p.upos === "PROPN") verbAsNoun++;
        }
        if (w.upos === "NOUN" && w.feats.Gender !== undefined) {
          nounG++;
          if (p.feats.Gender === w.feats.Gender) nounGOk++;
        }
        if (makeLabel(p.upos, p.feats) === makeLabel(w.upos, w.feats)) allFeats++;
        for (const k of ["Gender", "Number", "Case", "Tense"]) {
          const f = (feat[k] ??= [0, 0]);
          if (w.feats[k] !== undefined) annotated[k] = (annotated[k] ?? 0) + 1;
          if (w.feats[k] === undefined && p.feats[k] === undefined) continue;
          f[1]++;
          if (w.feats[k] === p.feats[k]) f[0]++;
        }
      });
      // Tokenizer: words of the raw text vs the treebank's syntactic words (multiset match per sentence).
      if (s.text !== undefined) {
        const gold = new Map<string, number>();
        for (const w of words) gold.set(w.form, (gold.get(w.form) ?? 0) + 1);
        const toks = tokenize(s.text, lang, lex);
        tokPred += toks.length;
        for (const v of gold.values()) tokGold += v;
        for (const t of toks) {
          const c = gold.get(t.text) ?? 0;
          if (c > 0) {
            tokOk++;
            gold.set(t.text, c - 1);
          }
        }
      }
    }
    const secs = Number(process.hrtime.bigint() - t0) / 1e9;
    const tokF = (2 * tokOk) / Math.max(1, tokGold + tokPred);
    const fcell = (k: string) => (annotated[k] && m.predictedFeats.has(k) ? pct(feat[k]![0], feat[k]![1]) : "n/a");
    verbRows.push(`| ${lang} | ${verbs} | ${pct(verbLemmaOk, verbs)} | ${goldVerb} | ${verbAsNoun} (${pct(verbAsNoun, goldVerb)}%) |`);
    rows.push(
      `| ${lang} | ${testFile.replace(/\.conllu(\.gz)?$/, "")} | ${n} | ${pct(upos, n)} | ${fcell("Gender")} | ${fcell("Number")} | ${fcell("Case")} | ${fcell("Tense")} | ${pct(allFeats, n)} | ${nounG ? pct(nounGOk, nounG) : "n/a"} | ${pct(lemma, n)} | ${(100 * tokF).toFixed(1)} | ${Math.round(n / secs)} |`,
    );
    if (opts.checkTables) checkTable(lang, trainingFiles(data, lang));
  }
  console.log(`| lang | test file | words | UPOS | Gender | Number | Case | Tense | UPOS+${TAG_FEATS.length} feats | noun gender | lemma | tok F1 | words/s |`);
  console.log("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
  for (const r of rows) console.log(r);
  console.log("\n| lang | gold VERB/AUX words | their lemma | gold VERB | tagged NOUN/ADJ/PROPN |");
  console.log("| --- | ---: | ---: | ---: | ---: |");
  for (const r of verbRows) console.log(r);
}

/** Lists closed-class forms whose treebank analyses the table does not contain. */
function checkTable(lang: string, files: string[]): void {
  const table = closedClassTable(lang);
  const miss = new Map<string, number>();
  const seen = new Map<string, number>();
  for (const f of files.slice(0, 3))
    for (const s of readConllu(f))
      for (const w of s.words) {
        const lf = w.form.toLowerCase();
        const analyses = table.get(lf);
        if (!analyses) continue;
        const gold = makeLabel(w.upos, w.feats);
        seen.set(lf, (seen.get(lf) ?? 0) + 1);
        if (!analyses.some((a) => makeLabel(a.upos, a.feats) === gold)) {
          const key = `${lf} ${gold} (${w.lemma})`;
          miss.set(key, (miss.get(key) ?? 0) + 1);
        }
      }
  const list = [...miss.entries()].sort((a, b) => b[1] - a[1]).slice(0, 40);
  console.error(`[${lang}] table: ${seen.size} forms seen; analyses missing from the table (top 40):`);
  for (const [k, v] of list) console.error(`  ${v}\t${k}`);
}

main();
