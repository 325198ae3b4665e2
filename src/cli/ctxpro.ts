import type { Command } from "commander";
import { basename, join } from "node:path";
import { InputError } from "../io/errors.js";
import { writeFilesAtomic, checkOutputDir, checkOutputFile } from "../io/atomic.js";
import { action, emit, floatOption, intOption, outputFormat, tableOptions, BOOTSTRAP_HELP, SEED_HELP } from "./run.js";
import { formatResult, formatTable, type TableBlock } from "../io/table.js";
import { bar, fmtDuration, ProgressLine } from "../core/progress.js";
import { builtinRuleSets, checkLang, describeRule, loadRuleSet, LANGUAGES } from "../ctxpro/rules.js";
import { defaultAnnotators, type BuiltinAnnotators } from "../ctxpro/annotators.js";
import { PrecomputedAnnotations } from "../ctxpro/annotations.js";
import { identifyFiles, outputName, parseShardSpec, prepareFiles, readTsvDocs, type Annotators, type IdentifyPhase } from "../ctxpro/identify.js";
import { loadAligner, saveAligner } from "../ctxpro/aligner-file.js";
import { fileSha256, inputIdentity, ItemsFilesWriter, mergeShards, PRONEVAL_VERSION, SHARD_MANIFEST, shardManifest, type RunIdentity } from "../ctxpro/shards.js";
import { readEvalSet } from "../ctxpro/items.js";
import { buildInputs, splitItems } from "../ctxpro/extract.js";
import { FALLBACK_MODES, type FallbackMode } from "../ctxpro/engine.js";
import { COMPAT_NAMES, reportTables, scoreFiles, type ScoreMode } from "../ctxpro/score.js";
import { readLines } from "../io/lines.js";
import { checkLanguage } from "../text/language.js";

/** "gender.opensubtitles.en-de.dev.json.gz" -> "de": the language the translations are in. */
function langFromSetName(path: string): string | undefined {
  const m = /(?:^|\.)([a-z]{2})-([a-z]{2})(?:\.|$)/.exec(basename(path));
  return m?.[2];
}

function stemOf(path: string): string {
  return basename(path).replace(/\.gz$/i, "").replace(/\.json$/i, "");
}

/** The progress line of identify's and train-aligner's phases. */
function progressReporter(line: ProgressLine, command = "identify"): (phase: IdentifyPhase, done: number, total?: number) => void {
  const state = { phase: "", start: 0 };
  return (phase, done, total) => {
    const now = Date.now();
    if (phase !== state.phase) {
      state.start = now;
      state.phase = phase;
    }
    const rate = done / Math.max(1e-3, (now - state.start) / 1000);
    if (phase === "tokenise") line.update(`${command}: tokenising for the aligner: ${done} segment pairs`);
    else if (phase === "train") line.update(`${command}: training the aligner (fast_align, both directions) ...`, true);
    else if (phase === "count") line.update(`${command}: counting the input's segment pairs for the shard: ${done}`);
    else {
      const eta = total ? ` ETA ${fmtDuration((total - done) / Math.max(rate, 1e-9))}` : "";
      line.update(`identify: ${total ? bar(done, total) + " " : ""}${done}${total ? `/${total}` : ""} segment pairs, ${rate.toFixed(0)}/s${eta}`);
    }
  };
}

export function registerCtxpro(program: Command): void {
  const ctx = program
    .command("ctxpro")
    .description("CTXPRO (Wicks & Post 2023): find context-dependent translations with rules, build and score evaluation sets");

  tableOptions(
    ctx
      .command("rules")
      .description("list the built-in rule sets, or the labels of the named ones")
      .argument("[names...]", "rule set names (e.g. DE_GENDER) whose labels to list")
      .option("-l, --lang <lang>", `only rule sets for this language (${LANGUAGES.join(", ")})`)
      .option("-o, --output <file>", "write the list here ('-' = stdout, the default)"),
    "the rule sets (or labels)",
  ).action(
    action(async (names: string[], o: { lang?: string; format?: string; json?: boolean; output?: string }) => {
      const format = await outputFormat(o);
      if (o.output) checkOutputFile(o.output);
      const lang = o.lang ? checkLang(o.lang) : undefined;
      const tables: TableBlock[] = [];
      const sets: Array<{ name: string; phenomenon: string; direction: string; file: string; labels: Array<{ label: string; rule: string }> }> = [];
      if (names.length === 0) {
        const rows = builtinRuleSets()
          .filter((x) => !lang || x.lang === lang)
          .map((s) => {
            const set = loadRuleSet(s.name, s.lang);
            return [s.name, s.lang, s.phenomenon, set.reversed ? `${s.lang}-en` : `en-${s.lang}`, set.rules.length];
          });
        tables.push({ header: ["name", "language", "phenomenon", "direction", "labels"], rows });
      } else {
        for (const n of names) {
          const info = builtinRuleSets().find((s) => s.name === n.toUpperCase());
          const set = loadRuleSet(n, lang ?? info?.lang ?? "");
          const direction = set.reversed ? `${set.lang}-en` : `en-${set.lang}`;
          const labels = set.rules.map((r) => ({ label: r.label, rule: describeRule(r) }));
          sets.push({ name: set.name, phenomenon: set.phenomenon, direction, file: set.file, labels });
          tables.push({ title: `${set.name} (${set.phenomenon}, ${direction}): ${set.file}`, header: ["label", "rule"], rows: labels.map((l) => [l.label, l.rule]) });
        }
      }
      let text: string;
      if (format !== "json") text = await formatResult(tables, format);
      else if (names.length) text = JSON.stringify(sets, null, 1) + "\n";
      else text = await formatTable(tables[0]!.header, tables[0]!.rows, "json");
      await emit(text, o.output);
    }),
  );

  ctx
    .command("identify")
    .description("find the segments of parallel documents that match the rules (TSV rows: docid, English, other language)")
    .requiredOption("-i, --input <files...>", "TSV files: docid<TAB>English<TAB>other language (plain or .gz)")
    .option("--rules <names...>", "rule sets (e.g. DE_GENDER DE_FORMALITY) or .json rule files (default: every built-in rule set of -l's language; `proneval ctxpro rules -l LANG` lists them)")
    .requiredOption("-l, --lang <lang>", "the non-English language")
    .option("-o, --output <dir>", "where to write <phenomenon>.<pair>.json (its parent must exist)", "ctxpro-jsons")
    .option("--window-size <n>", "sentences a rule sees: the segment and n-1 before it (CTXPRO's -w; here -w is --width)", "10")
    .option("-a, --annotations <file>", "precomputed annotations (JSON, see docs/ctxpro.md) instead of the built-in annotators")
    .option("--align-corpus <files...>", "extra parallel text for the built-in aligner: 'en ||| other', 'en<TAB>other' or the input's TSV layout")
    .option("--aligner <file>", "a built-in aligner trained and saved before (`ctxpro train-aligner`) instead of training one on the input (docs/ctxpro-scale.md)")
    .option("--shard <i/n>", "identify only shard i of n of the input's documents and write a shard.json for `ctxpro merge` (docs/ctxpro-scale.md)")
    .option("--align-threshold <x>", "built-in aligner: drop links whose combined posterior is below x", "0.1")
    .option("--no-align-tags", "built-in aligner: do not re-score links by the taggers' parts of speech and person (tag anchors)")
    .option("--inflection <mode>", "inflection matching: 'paper' (nouns, Sec. 3) or 'ctxpro' (the released code)", "paper")
    .option("--fallback-antecedent [mode]", "gender/animacy: when the resolver gives a pronoun no noun antecedent (or one whose translation clashes), take an agreeing noun: 'unique' (default: only where one noun of the reach can be it), 'nearest' (the flag alone: the nearest one; more items, fewer of them right) or 'off'")
    .option("--polish-je-any-gender", "pl: take 'je' for a masculine or feminine singular antecedent, as the released rules define ACC.MASC.SING and GEN.MASC.SING; off by default, since Polish grammar rules it out (docs/ctxpro-labels.md)")
    .option("--uncovered-case", "animacy: a source pronoun our tagger reads in a case the set has no rule for takes the set's one rule for its form, as CTXPRO's own labels do (pl genitive 'jej' -> DAT.FEM.SING); off by default: the case label is then wrong (docs/ctxpro.md)")
    .option("--no-apertium", "pl: do not use Debian's Apertium analyser (apertium-pol-szl, run by lt-proc) for noun gender, number and case even where it is installed (docs/ctxpro.md)")
    .option("--no-check", "skip the script/language checks of the input columns")
    .option("--keep-unscorable", "keep items whose expected form is not a whole word of the reference (enclitics, contractions)")
    .option("--quoted", "the TSV quotes its cells (\"...\", \"\" for a quote; as proneval's --format tsv writes them), so a sentence may hold a tab or newline; default: a quote is text (sacrebleu --echo)")
    .option("-q, --quiet", "no progress line or summary")
    .option("--gzip", "write .json.gz files")
    .action(
      action(async (o: {
        input: string[]; rules?: string[]; lang: string; output: string; windowSize: string; annotations?: string; alignCorpus?: string[];
        aligner?: string; shard?: string; alignThreshold: string; alignTags: boolean; inflection: string; fallbackAntecedent?: boolean | string; uncoveredCase?: boolean; polishJeAnyGender?: boolean; apertium: boolean; check: boolean; keepUnscorable?: boolean; quoted?: boolean; quiet?: boolean; gzip?: boolean;
      }) => {
        checkOutputDir(o.output);
        const lang = checkLang(o.lang);
        const windowSize = intOption("--window-size", o.windowSize, 1);
        const threshold = floatOption("--align-threshold", o.alignThreshold);
        if (threshold < 0 || threshold > 1) throw new InputError(`--align-threshold must be between 0 and 1, got ${threshold}`);
        if (o.inflection !== "paper" && o.inflection !== "ctxpro") throw new InputError(`--inflection must be 'paper' or 'ctxpro', got '${o.inflection}'`);
        if (typeof o.fallbackAntecedent === "string" && !FALLBACK_MODES.includes(o.fallbackAntecedent as FallbackMode))
          throw new InputError(`--fallback-antecedent must be one of ${FALLBACK_MODES.join(", ")}, got '${o.fallbackAntecedent}'`);
        if (o.annotations && o.alignCorpus) throw new InputError("--align-corpus trains the built-in aligner; it cannot be combined with --annotations");
        if (o.annotations && o.aligner) throw new InputError("--aligner is the built-in aligner; it cannot be combined with --annotations");
        if (o.aligner && o.alignCorpus) throw new InputError("--aligner is trained already; give --align-corpus to `ctxpro train-aligner` instead");
        const shard = o.shard !== undefined ? parseShardSpec(o.shard) : undefined;
        if (shard && o.input.includes("-")) throw new InputError("--shard reads the input twice (to count its rows, then its shard); give a file, not standard input");
        const sets = (o.rules ?? builtinRuleSets().filter((s) => s.lang === lang).map((s) => s.name)).map((r) => loadRuleSet(r, lang));
        const names = sets.map((s) => outputName(s, !!o.gzip));
        const dup = names.find((n, k) => names.indexOf(n) !== k);
        if (dup) throw new InputError(`two rule sets would both be written to ${dup}; pass each rule set once`);
        const saved = o.aligner ? loadAligner(o.aligner, lang) : undefined;
        const line = new ProgressLine(process.stderr, !!o.quiet);
        const warn = (m: string) => {
          line.done();
          process.stderr.write(m + "\n");
        };
        let builtin: BuiltinAnnotators | undefined;
        const ann: Annotators = o.annotations
          ? PrecomputedAnnotations.fromFile(o.annotations, lang)
          : (builtin = await defaultAnnotators(lang, {
              threshold,
              tagAnchors: o.alignTags,
              apertium: o.apertium,
              alignCorpus: o.alignCorpus,
              onCorpus: (f, n) => (o.quiet ? undefined : warn(`aligner: ${n} extra sentence pairs from ${f}`)),
            }));
        if (builtin && saved) builtin.aligner.useModels(saved.models, saved.header.pairs);
        const t0 = Date.now();
        const dropped = new Map<string, number>();
        const engine = {
          windowSize,
          keepUnscorable: !!o.keepUnscorable,
          inflection: o.inflection,
          fallbackAntecedent: o.fallbackAntecedent === undefined ? "unique" : o.fallbackAntecedent === true ? "nearest" : (o.fallbackAntecedent as FallbackMode),
          uncoveredCase: !!o.uncoveredCase,
          polishJeAnyGender: !!o.polishJeAnyGender,
        } as const;
        // Items stream into their files as documents are done; the files (and a shard's manifest) appear together at the end.
        const writer = new ItemsFilesWriter(names.map((n) => join(o.output, n)));
        const writerOf = new Map(sets.map((s, k) => [s.name, writer.writers[k]!]));
        let stats;
        try {
          ({ stats } = await identifyFiles(o.input, lang, sets, ann, {
            ...engine,
            dropped,
            onItems: (set, items) => {
              const w = writerOf.get(set)!;
              for (const it of items) w.add(it);
            },
            warn,
            check: o.check,
            quoted: o.quoted,
            shard,
            progress: progressReporter(line),
          }));
          line.done();
          if (shard) {
            const run: RunIdentity = {
              proneval: PRONEVAL_VERSION,
              lang,
              inputs: await inputIdentity(o.input),
              pairs: stats.inputPairs!,
              docs: stats.inputDocs!,
              rules: sets.map((s) => (s.phenomenon === "custom" ? `${s.name}:${s.file}` : s.name)),
              aligner: o.annotations
                ? `annotations:${await fileSha256(o.annotations)}`
                : saved
                  ? `saved:${saved.sha256}`
                  : `trained on the input${o.alignCorpus?.length ? ` after ${JSON.stringify(await inputIdentity(o.alignCorpus))}` : ""}`,
              options: {
                ...engine,
                ...(o.annotations ? {} : { alignThreshold: threshold, alignTags: o.alignTags, nounLexicon: builtin?.morph.tgt.nouns?.name ?? "none" }),
              },
            };
            const manifest = shardManifest(shard, run, {
              docs: stats.docs,
              pairs: stats.pairs,
              firstDoc: stats.firstDoc,
              lastDoc: stats.lastDoc,
              files: names.map((n, k) => ({ name: n, items: writer.writers[k]!.count })),
            });
            writer.addText(join(o.output, SHARD_MANIFEST), JSON.stringify(manifest, null, 2) + "\n");
          }
          writer.commit();
        } catch (e) {
          writer.abort();
          throw e;
        }
        if (o.quiet) return;
        const secs = ((Date.now() - t0) / 1000).toFixed(1);
        const of = shard ? ` (shard ${shard.index}/${shard.count} of ${stats.inputPairs} pairs in ${stats.inputDocs} documents)` : "";
        process.stderr.write(`identify: ${stats.pairs} segment pairs in ${stats.docs} documents${of}, ${secs} s\n`);
        // Which noun lexicon tagged the target side: for pl it depends on what the machine has installed.
        if (builtin) process.stderr.write(`identify: ${lang} noun lexicon: ${builtin.morph.tgt.nouns?.name ?? "none"}\n`);
        sets.forEach((s, k) => {
          const d = dropped.get(s.name);
          const note = d ? ` (${d} more dropped: expected form not a whole word of the reference, e.g. an enclitic; --keep-unscorable keeps them)` : "";
          process.stderr.write(`${s.name}: ${writer.writers[k]!.count} items -> ${join(o.output, names[k]!)}${note}\n`);
        });
        if (shard) process.stderr.write(`identify: shard manifest -> ${join(o.output, SHARD_MANIFEST)}\n`);
      }),
    );

  ctx
    .command("train-aligner")
    .description("train the built-in aligner of identify once on a corpus and save it, for `identify --aligner` runs (e.g. --shard i/n) to reuse")
    .requiredOption("-i, --input <files...>", "TSV files: docid<TAB>English<TAB>other language (plain or .gz), as identify reads them")
    .requiredOption("-l, --lang <lang>", "the non-English language")
    .requiredOption("-o, --output <file>", "aligner file to write (.gz: gzipped)")
    .option("--align-corpus <files...>", "extra parallel text, as for identify")
    .option("--no-check", "skip the script/language checks of the input columns")
    .option("--quoted", "the TSV quotes its cells (as for identify)")
    .option("-q, --quiet", "no progress line or summary")
    .action(
      action(async (o: { input: string[]; lang: string; output: string; alignCorpus?: string[]; check: boolean; quoted?: boolean; quiet?: boolean }) => {
        checkOutputFile(o.output);
        const lang = checkLang(o.lang);
        const line = new ProgressLine(process.stderr, !!o.quiet);
        const warn = (m: string) => {
          line.done();
          process.stderr.write(m + "\n");
        };
        const extra: Array<{ file: string; pairs: number }> = [];
        const builtin = await defaultAnnotators(lang, { alignCorpus: o.alignCorpus, onCorpus: (f, n) => extra.push({ file: basename(f), pairs: n }) });
        const t0 = Date.now();
        const prep = await prepareFiles(o.input, lang, builtin, { warn, check: o.check, quoted: o.quoted, progress: progressReporter(line, "train-aligner") });
        line.done();
        const models = builtin.aligner.trainedModels;
        if (!models) throw new InputError("no sentence pair to train the aligner on", o.input[0]);
        // Extra text first, as it was added; the input's pairs are counted together.
        const sources = [...extra, ...o.input.map((f, k) => ({ file: basename(f), ...(k === 0 ? { pairs: prep.pairs } : {}) }))];
        saveAligner(o.output, { pair: `en-${lang}`, pairs: builtin.aligner.size, sources }, models);
        if (o.quiet) return;
        const secs = ((Date.now() - t0) / 1000).toFixed(1);
        process.stderr.write(
          `train-aligner: ${prep.pairs} segment pairs in ${prep.docs} documents (${builtin.aligner.size} trained on${extra.length ? `, with ${extra.reduce((a, e) => a + e.pairs, 0)} extra` : ""}), ${secs} s -> ${o.output}\n`,
        );
      }),
    );

  ctx
    .command("merge")
    .description("merge the output folders of all shards of one `identify --shard i/n` run into the files one run writes")
    .argument("<dirs...>", "the shard output folders (each with its shard.json), in any order")
    .requiredOption("-o, --output <dir>", "where to write <phenomenon>.<pair>.json (its parent must exist)")
    .option("-q, --quiet", "no summary")
    .action(
      action(async (dirs: string[], o: { output: string; quiet?: boolean }) => {
        checkOutputDir(o.output);
        const r = mergeShards(dirs, o.output);
        if (o.quiet) return;
        process.stderr.write(`merge: ${r.shards} shards, ${r.pairs} segment pairs in ${r.docs} documents\n`);
        for (const f of r.files) process.stderr.write(`${f.items} items -> ${f.path}\n`);
      }),
    );

  ctx
    .command("extract")
    .description("write model inputs (segment + previous sentences) for an evaluation set, or split identified items into dev/devtest/test")
    .requiredOption("-e, --eval-set <file>", "evaluation set or identified items (.json or .json.gz)")
    .option("-i, --input <files...>", "the TSV files the items were identified from (needed for inputs)")
    .option("-o, --output <file>", "inputs file, one line per item ('-' = stdout, the default)")
    .option("--splits <dir>", "write <name>.{dev,devtest,test}.json.gz (and inputs <name>.<split>.gz with -i) into dir")
    .option("--name <name>", "file name stem for --splits (default: the eval set's file name)")
    .option("--seed <n>", "seed of the split shuffle", "1")
    .option("--min-per-label <n>", "labels with fewer items go to test only", "100")
    .option("--max-test-per-label <n>", "most test items per label", "5000")
    .option("--max-sentences <n>", "sentences per input line, the segment included", "10")
    .option("--max-tokens <n>", "whitespace tokens per input line", "10000")
    .option("-j, --joining-string <s>", "string joining the sentences", "<eos> ")
    .option("-T, --target", "take the context from the translation side")
    .option("--quoted", "the input TSV quotes its cells (as for identify)")
    .option("-q, --quiet", "no summary on stderr")
    .action(
      action(async (o: {
        evalSet: string; input?: string[]; output?: string; splits?: string; name?: string; seed: string;
        minPerLabel: string; maxTestPerLabel: string; maxSentences: string; maxTokens: string; joiningString: string; target?: boolean; quoted?: boolean; quiet?: boolean;
      }) => {
        if (o.output) checkOutputFile(o.output);
        if (o.splits) checkOutputDir(o.splits);
        const items = readEvalSet(o.evalSet);
        const ctxOpts = {
          maxSentences: intOption("--max-sentences", o.maxSentences, 1),
          maxTokens: intOption("--max-tokens", o.maxTokens, 1),
          joiner: o.joiningString,
          target: !!o.target,
        };
        const docs = o.input ? await readTsvDocs(o.input, { quoted: o.quoted }) : undefined;
        if (!o.splits) {
          if (!docs) throw new InputError("extract needs the input TSV (-i) to build inputs, or --splits DIR to split the items");
          const lines = buildInputs(items, docs, o.evalSet, ctxOpts);
          await emit(lines.map((l) => l + "\n").join(""), o.output);
          return;
        }
        const splits = splitItems(items, {
          seed: intOption("--seed", o.seed, 0),
          minPerLabel: intOption("--min-per-label", o.minPerLabel, 1),
          maxTestPerLabel: intOption("--max-test-per-label", o.maxTestPerLabel, 1),
        });
        const stem = o.name ?? stemOf(o.evalSet);
        // Build everything before writing anything, so a bad TSV leaves no partial output.
        const files: Array<[string, string]> = [];
        for (const [split, list] of Object.entries(splits)) {
          files.push([`${o.splits}/${stem}.${split}.json.gz`, JSON.stringify(list, null, 2) + "\n"]);
          if (docs) files.push([`${o.splits}/${stem}.${split}.gz`, buildInputs(list, docs, o.evalSet, ctxOpts).map((l) => l + "\n").join("")]);
        }
        // All split files appear, or none.
        writeFilesAtomic(files);
        if (!o.quiet) process.stderr.write(`dev ${splits.dev.length}, devtest ${splits.devtest.length}, test ${splits.test.length} items -> ${o.splits}\n`);
      }),
    );

  tableOptions(
    ctx
      .command("score")
      .description("generative accuracy of translations on an evaluation set, with paired bootstrap between systems")
      .requiredOption("-e, --eval-set <file>", "evaluation set (.json or .json.gz)")
      .requiredOption("-t, --translations <files...>", "one file per system, one translation per item; the first is the bootstrap baseline")
      .option("-l, --lang <lang>", "language of the translations, for the sentence segmenter (default: from the set's file name)")
      .option("--complete", "per-rule breakdown: a table per system")
      .option("--last-sentence", "score only the last sentence of each translation (default: the last k sentences, k = sentences of the item's reference segment)")
      .option("--whole", "score the whole translation (no sentence splitting)")
      .option("--compat <name>", `reproduce another scorer exactly: ${COMPAT_NAMES.join(", ")} (CTXPRO's score.py: last sentence by sentence_splitter, punctuation-stripped substring match)`)
      .option("--separator <s>", "score only the text after the last occurrence of this separator (e.g. '<eos>')")
      .option("--match <mode>", "'word' (whole words, Unicode punctuation) or 'ctxpro' (the original substring test)", "word")
      .option("--allow-empty", "accept empty translations instead of failing: scored as wrong (the expected form is missing)")
      .option("--no-check", "skip the check that the translations are in the set's language")
      .option("-b, --bootstrap <n>", BOOTSTRAP_HELP)
      .option("--seed <n>", SEED_HELP, "12345")
      .option("-o, --output <file>", "write the report here ('-' = stdout, the default)")
      .option("-q, --quiet", "print only the tables (no notes, no signature)"),
    "the report (options, signature, per-rule scores, bootstrap)",
  ).action(
    action(async (o: {
      evalSet: string; translations: string[]; lang?: string; complete?: boolean; json?: boolean; lastSentence?: boolean;
      whole?: boolean; compat?: string; separator?: string; match: string; allowEmpty?: boolean; bootstrap?: string; seed: string; output?: string;
      format?: string; quiet?: boolean; check: boolean;
    }, cmd: Command) => {
      const format = await outputFormat(o);
      if (o.output) checkOutputFile(o.output);
      if (o.match !== "word" && o.match !== "ctxpro") throw new InputError(`--match must be 'word' or 'ctxpro', got '${o.match}'`);
      if (o.compat !== undefined && !(COMPAT_NAMES as readonly string[]).includes(o.compat.toLowerCase())) {
        throw new InputError(`unknown --compat '${o.compat}'; valid: ${COMPAT_NAMES.join(", ")}`);
      }
      if (o.lastSentence && o.whole) throw new InputError("--last-sentence and --whole exclude each other");
      if (o.compat !== undefined) {
        // The released scorer has no such choices: refuse them rather than silently ignoring them.
        const fixed = [o.lastSentence && "--last-sentence", o.whole && "--whole", o.separator !== undefined && "--separator",
          cmd.getOptionValueSource("match") === "cli" && "--match"].filter(Boolean);
        if (fixed.length) throw new InputError(`--compat ${o.compat} fixes how translations are split and matched; drop ${fixed.join(", ")}`);
      }
      const mode: ScoreMode = o.compat !== undefined ? "compat-ctxpro" : o.lastSentence ? "last-sentence" : o.whole ? "whole" : "last-k";
      const guessed = langFromSetName(o.evalSet);
      const known = guessed !== undefined && (LANGUAGES as readonly string[]).includes(guessed);
      const lang = o.lang ? (o.lang.toLowerCase() === "en" ? "en" : checkLang(o.lang)) : known ? guessed : "en";
      const notes: string[] = [];
      if (!o.lang && !known) {
        // The sentence segmenter decides which part of each translation is scored: say which one was used.
        const why = `the set's file name names no language of ${LANGUAGES.join(", ")}${guessed ? ` (it names '${guessed}')` : ""}, so translations are split into sentences as English; give -l for another segmenter`;
        notes.push(why);
        if (!o.quiet) process.stderr.write(`proneval ctxpro score: note: ${why}\n`);
      }
      if (o.check && (o.lang || known) && lang !== "en") {
        const hint = `the evaluation set's translations should be ${lang}; is -l (or the set's file name) right? (--no-check skips this)`;
        for (const f of o.translations) checkLanguage(readLines(f), lang, f, hint);
      }
      const samples = o.bootstrap !== undefined ? intOption("--bootstrap", o.bootstrap, 0) : o.translations.length > 1 ? 1000 : 0;
      const items = readEvalSet(o.evalSet);
      const report = scoreFiles(
        o.evalSet,
        items,
        o.translations,
        { mode, separator: o.separator, lang, match: o.match as "word" | "ctxpro", allowEmpty: o.allowEmpty },
        { samples, seed: intOption("--seed", o.seed, 0) },
      );
      if (format === "json") return emit(JSON.stringify(report, null, 2) + "\n", o.output);
      const { tables, notes: own } = reportTables(report, !!o.complete);
      await emit(await formatResult(tables, format, { notes: [...own, ...notes], signature: report.signature, quiet: o.quiet }), o.output);
    }),
  );
}
