import type { Command } from "commander";
import { existsSync, statSync } from "node:fs";
import { InputError } from "../io/errors.js";
import type { TestSet } from "../io/model.js";
import { namesFromPaths } from "../io/plaintext.js";
import { readPlainTestSet, readTestSetAuto } from "../io/readers.js";
import { action, intOption, emit, checkOutputs, outputFormat, tableOptions, BOOTSTRAP_HELP, SEED_HELP } from "./run.js";
import { formatResult } from "../io/table.js";
import { makeSignature } from "../signature.js";
import { checkLanguage } from "../text/language.js";
import {
  bootstrapLabels,
  countTags,
  scoreTables,
  PlainAnnotator,
  loadMudaLists,
  MUDA_LANGS,
  MUDA_TAGS,
  scoreSides,
  setupMuda,
  supportSummary,
  tagSides,
  tagAgainstReference,
  type TargetSide,
} from "../muda/index.js";
import { CXMI_TAG } from "../muda/cxmi-tags.js";
import { checkCxmiOption, CXMI_OPTION, readCxmiOption, registerMudaCxmi, tagWithCxmi, THRESHOLD_OPTION } from "./muda-cxmi.js";

interface InputOpts {
  lang?: string;
  source?: string;
  docs?: string;
  allowEmpty?: boolean;
}

/** A test set from a WMT directory/file, or from plain files (-s source, then reference/system files). */
async function loadInput(input: string | undefined, files: string[], o: InputOpts): Promise<TestSet> {
  if (input && existsSync(input) && statSync(input).isDirectory()) {
    if (!o.lang) throw new InputError("give the language pair (-l en-xx) to pick a test set from the directory");
    // The directory has its own source, references and document ids: refuse what would be ignored.
    const ignored = [o.source && "-s", files.length && "-r/-t/--target", o.docs && "--docs"].filter(Boolean);
    if (ignored.length) throw new InputError(`${ignored.join(", ")} cannot be combined with a WMT directory (it has its own sides and document ids)`, input);
    return readTestSetAuto(input, { langPair: o.lang, allowEmpty: o.allowEmpty });
  }
  if (input) throw new InputError(existsSync(input) ? "not a directory: give a WMT year directory, or plain files with -s/-r/-t" : "no such directory", input);
  if (!o.source) throw new InputError("give the English source (-s FILE), or a WMT directory");
  if (!o.lang) throw new InputError("give the language pair (-l en-xx)");
  const [ref, ...hyps] = files;
  if (!ref) throw new InputError("no target file given");
  return readPlainTestSet({ refs: [ref], hyps, src: o.source, ...(o.docs ? { docs: o.docs } : {}), langPair: o.lang }, { allowEmpty: o.allowEmpty });
}

function targetLang(ts: TestSet): string {
  if (ts.srcLang !== "en") throw new InputError(`MuDA tags translations from English; this test set is ${ts.langPair}`);
  return ts.tgtLang;
}

/** Plain files given with -s/-r/-t/--target: each must be in its side's language (swapped files are refused; --no-check skips). */
function checkSideLanguages(ts: TestSet, o: InputOpts & { check?: boolean }, files: string[]): void {
  if (o.check === false || !o.source) return;
  const hint = `is -l ${ts.langPair} right, and are -s (English source) and the translations in their places? (--no-check skips this)`;
  checkLanguage(ts.docs.flatMap((d) => d.src ?? []), "en", o.source, hint);
  const pathOf = new Map(namesFromPaths(files).map((n, i) => [n, files[i]!]));
  for (const r of ts.references) checkLanguage(ts.docs.flatMap((d) => d.refs[r] ?? []), ts.tgtLang, pathOf.get(r) ?? r, hint);
  for (const s of ts.systems) checkLanguage(ts.docs.flatMap((d) => d.hyps[s] ?? []), ts.tgtLang, pathOf.get(s) ?? s, hint);
}

function sources(ts: TestSet) {
  return ts.docs.map((d) => {
    if (!d.src) throw new InputError(`test set ${ts.name} ${ts.langPair} has no source side`);
    return { id: d.id, src: d.src };
  });
}

function refSide(ts: TestSet, ref?: string): TargetSide {
  const name = ref ?? ts.references[0];
  if (!name || !ts.references.includes(name)) throw new InputError(`no reference '${name ?? ""}' (has: ${ts.references.join(", ")})`);
  return { name, docs: ts.docs.map((d) => d.refs[name]!) };
}

const progress = (quiet?: boolean) => (quiet ? undefined : (what: string) => process.stderr.write(`muda: ${what} done\n`));

export function registerMuda(program: Command): void {
  const muda = program.command("muda").description("MuDA (Fernandes et al. 2023): tag context-dependent target words, word f-measure per tag");

  muda
    .command("langs")
    .description("supported target languages and the tags each gets")
    .action(
      action(() => {
        const lists = loadMudaLists();
        return emit(supportSummary(lists).split("; ").join("\n") + "\n");
      }),
    );

  muda
    .command("tag")
    .description("tag every target token (JSON: tags per token and counts per tag)")
    .argument("[input]", "a WMT year directory or txt/ folder (with -l), instead of -s/-t")
    .option("-l, --lang <en-xx>", `language pair; targets: ${MUDA_LANGS.join(" ")}`)
    .option("-s, --source <file>", "English source, one segment a line")
    .option("--target <file>", "target side to tag (reference or translation), one segment a line ('-' = stdin)")
    .option("--docs <file>", "document ids, one a line (or 'domain<TAB>docid'); default: one document")
    .option("--ref-name <name>", "with a directory: the reference to tag (default: the first)")
    .option("--align-with <files...>", "more translations of the same source to train the aligner on (not tagged)")
    .option("--allow-empty", "accept empty source and reference segments instead of failing: tagged as they stand (no tokens)")
    .option("--alignment", "also write each segment's English tokens, alignment links and ellipsis cues")
    .option("--no-check", "skip the check that -s is English and the target side in the language of -l")
    .option("-q, --quiet", "no progress on stderr")
    .option("-o, --output <file>", "write the JSON here ('-' = stdout, the default)")
    .option("--cxmi <file>", CXMI_OPTION)
    .option("--threshold <t>", THRESHOLD_OPTION)
    .action(
      action(async (input: string | undefined, o: InputOpts & { target?: string; refName?: string; alignWith?: string[]; alignment?: boolean; quiet?: boolean; output?: string; cxmi?: string; threshold?: string; check?: boolean }) => {
        await checkOutputs(o.output);
        const cx = readCxmiOption(o);
        const ts = await loadInput(input, o.target ? [o.target, ...(o.alignWith ?? [])] : [], o);
        checkSideLanguages(ts, o, o.target ? [o.target, ...(o.alignWith ?? [])] : []);
        const setup = setupMuda(targetLang(ts));
        const side = refSide(ts, input && !o.target ? o.refName : ts.references[0]);
        const extra: TargetSide[] = ts.systems.map((s) => ({ name: s, docs: ts.docs.map((d) => d.hyps[s]!) }));
        checkCxmiOption(cx, side, ts.docs.map((d) => d.id));
        // Every other translation of the source (systems, --align-with) only adds aligner training data.
        const [tagged] = await tagSides(setup, sources(ts), [side, ...extra], { onProgress: progress(o.quiet), keepAlignment: !!o.alignment, keepSpans: !!cx });
        const counts = countTags(tagged!);
        const withCx = cx && tagWithCxmi(tagged!, side.docs, cx, setup.support.tags, o.quiet);
        if (withCx) counts.tags[CXMI_TAG] = withCx.comparison.high.tokens;
        const out = {
          testset: ts.name,
          langPair: ts.langPair,
          side: side.name,
          tags: setup.support.tags,
          missing: setup.support.missing,
          notes: setup.support.notes,
          counts,
          ...(withCx ? { cxmi: withCx.comparison } : {}),
          documents: withCx ? withCx.docs : tagged!.docs,
        };
        const text = JSON.stringify(out) + "\n";
        await emit(text, o.output);
        if (!o.quiet) process.stderr.write(`muda: ${counts.tokens} tokens, ${counts.taggedTokens} tagged: ${MUDA_TAGS.map((t) => `${t} ${counts.tags[t]}`).join(", ")}\n`);
      }),
    );

  registerMudaCxmi(muda);

  tableOptions(
    muda
      .command("score")
      .description("word f-measure per MuDA tag of each system against the reference (compare-mt style), with paired bootstrap")
      .argument("[input]", "a WMT year directory or txt/ folder (with -l), instead of -s/-r/-t")
      .option("-l, --lang <en-xx>", "language pair")
      .option("-s, --source <file>", "English source, one segment a line")
      .option("-r, --reference <file>", "reference, one segment a line (the tagged side)")
      .option("-t, --translations <files...>", "system outputs; the first is the bootstrap baseline (-t A B or -t A -t B)")
      .option("--docs <file>", "document ids, one a line (or 'domain<TAB>docid')")
      .option("--ref-name <name>", "with a directory: which reference (default: the first)")
      .option("--systems <names>", "with a directory: comma-separated systems (default: all)")
      .option("--align-with <files...>", "more translations of the same source to train every aligner on (not scored); a system's scores stay independent of the others scored")
      .option("--tags <tags>", `labels to report (default: all, the language's tags, no_tag); from: all ${MUDA_TAGS.join(" ")} no_tag`)
      .option("-b, --bootstrap <n>", BOOTSTRAP_HELP)
      .option("--seed <n>", SEED_HELP, "12345")
      .option("--allow-empty", "accept empty source and reference segments instead of failing: tagged as they stand (no tokens)")
      .option("--no-check", "skip the check that -s is English and the reference and translations in the language of -l")
      .option("-q, --quiet", "no progress on stderr; only the table on stdout (no notes, no signature)")
      .option("-o, --output <file>", "write the report here ('-' = stdout, the default)"),
    "the report (reference tag counts, scores per label, bootstrap, signature)",
  ).action(
    action(async (input: string | undefined, o: InputOpts & {
      reference?: string; translations?: string[]; alignWith?: string[]; refName?: string; systems?: string; tags?: string; bootstrap?: string; seed: string; json?: boolean; format?: string; quiet?: boolean; output?: string; check?: boolean;
    }) => {
      const format = await outputFormat(o);
      await checkOutputs(o.output);
      const files = o.reference ? [o.reference, ...(o.translations ?? []), ...(o.alignWith ?? [])] : [];
      if (o.alignWith?.length && !o.reference) throw new InputError("--align-with goes with plain files (-s/-r/-t)");
      const ts = await loadInput(input, files, o);
      const setup = setupMuda(targetLang(ts));
      checkSideLanguages(ts, o, files);
      const ref = refSide(ts, input && !o.reference ? o.refName : ts.references[0]);
      let systems = ts.systems;
      if (o.systems) {
        systems = o.systems.split(",").map((s) => s.trim()).filter(Boolean);
        for (const s of systems) if (!ts.systems.includes(s)) throw new InputError(`no system '${s}' (has: ${ts.systems.join(", ")})`);
      } else if (o.translations) {
        // The reader sorts systems by name: keep the command line's order (the first is the baseline).
        systems = namesFromPaths(files).slice(1, 1 + o.translations.length).filter((n) => ts.systems.includes(n));
      }
      if (systems.length === 0) throw new InputError("no system output to score (-t FILE ... or a directory with system outputs)");
      const known = ["all", ...MUDA_TAGS, "no_tag"];
      const labels = o.tags ? o.tags.split(",").map((t) => t.trim()) : ["all", ...setup.support.tags, "no_tag"];
      for (const l of labels) if (!known.includes(l)) throw new InputError(`unknown tag '${l}' (known: ${known.join(", ")})`);
      const sideOf = (s: string): TargetSide => ({ name: s, docs: ts.docs.map((d) => d.hyps[s]!) });
      const extraNames = o.alignWith?.length ? namesFromPaths(files).slice(1 + (o.translations?.length ?? 0)) : [];
      const [taggedRef, ...taggedHyps] = await tagAgainstReference(setup, sources(ts), ref, systems.map(sideOf), extraNames.map(sideOf), { onProgress: progress(o.quiet) });
      const scores = scoreSides(taggedRef!, taggedHyps, labels);
      const samples = o.bootstrap !== undefined ? intOption("--bootstrap", o.bootstrap, 0) : scores.length > 1 ? 1000 : 0;
      const seed = intOption("--seed", o.seed, 0);
      const boot = samples > 0 && scores.length > 1 ? bootstrapLabels(scores, labels, samples, seed) : undefined;
      const counts = countTags(taggedRef!);
      const signature = makeSignature("muda", [
        ["pair", ts.langPair],
        ["ref", ref.name],
        ["tags", labels.join(",")],
        ["tagger", setup.tgt instanceof PlainAnnotator ? "word-lists" : "proneval-morph"],
        // The reference is aligned on (source, reference) alone, each output on (source, reference) + (source,
        // that output): a system's scores do not depend on the outputs scored beside it.
        ["align", "fast_align-gdfa-ref+system"],
        ["align-extra", extraNames.length || undefined],
        ["bootstrap", boot ? samples : undefined],
        ["seed", boot ? seed : undefined],
      ]);
      const report = {
        signature,
        testset: ts.name,
        langPair: ts.langPair,
        reference: ref.name,
        tags: setup.support.tags,
        missing: setup.support.missing,
        referenceCounts: counts,
        systems: scores.map((s) => ({ name: s.name, labels: s.labels })),
        ...(boot ? { bootstrap: boot } : {}),
      };
      if (format === "json") return emit(JSON.stringify(report, null, 2) + "\n", o.output);
      const { tables, notes } = scoreTables(report);
      await emit(await formatResult(tables, format, { notes, signature, quiet: o.quiet }), o.output);
    }),
  );
}
