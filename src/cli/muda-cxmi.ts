import type { Command } from "commander";
import { basename } from "node:path";
import { loadDefaultMorph } from "../annotate/morph.js";
import { writeFilesAtomic } from "../io/atomic.js";
import { InputError } from "../io/errors.js";
import { groupDocIds, readAllLines, readDocIdFile, splitLangPair } from "../io/plaintext.js";
import { formatResult } from "../io/table.js";
import {
  CXMI_INPUT_FORMATS,
  parseLogBase,
  readScores,
  type CxmiInputFormat,
  type ScoredRun,
  type ScoredSegment,
} from "../muda/cxmi-formats.js";
import {
  checkReferenceText,
  cxmiAnalysis,
  cxmiTables,
  detectSubwordScheme,
  pairRuns,
  previousSegments,
  SUBWORD_SCHEMES,
  tagWords,
  type SubwordScheme,
} from "../muda/cxmi.js";
import { applyCxmi, checkCxmiSegments, CXMI_TAG, readCxmiReport, type CxmiWordsFile } from "../muda/cxmi-tags.js";
import { ForcedDecoder, scoreWithContext, type ContextDoc } from "../muda/forced-decode.js";
import type { TaggedSide } from "../muda/pipeline.js";
import { makeSignature } from "../signature.js";
import { action, checkOneStdin, checkOutputs, emit, floatOption, intOption, outputFormat, tableOptions } from "./run.js";

/** Target languages with a shipped tagger (UPOS and features for the per-part-of-speech means). */
const TAGGED = new Set(["en", "de", "es", "fr", "it", "pl", "pt", "ru"]);

interface CxmiOpts {
  withoutContext?: string;
  withContext?: string;
  modelDir?: string;
  lang?: string;
  source?: string;
  reference?: string;
  docs?: string;
  inputFormat?: string;
  logBase?: string;
  subword?: string;
  contextSize: string;
  separator: string;
  saveScores?: string;
  top: string;
  minCount: string;
  textCheck: boolean;
  format?: string;
  json?: boolean;
  quiet?: boolean;
  output?: string;
}

function choice<T extends string>(name: string, v: string | undefined, allowed: readonly T[]): T | undefined {
  if (v === undefined) return undefined;
  if (!allowed.includes(v as T)) throw new InputError(`${name} must be one of ${allowed.join(", ")}, got '${v}'`);
  return v as T;
}

/** One document id per line: from --docs, else the scores' own (JSONL `doc`), else one document. */
async function docIds(o: CxmiOpts, n: number, fallback: ReadonlyArray<string | undefined>): Promise<Array<string | undefined>> {
  if (!o.docs) return [...fallback];
  const entries = await readDocIdFile(o.docs);
  if (entries.length !== n) throw new InputError(`has ${entries.length} lines, but there are ${n} segments`, o.docs);
  const out: string[] = [];
  for (const b of groupDocIds(entries, o.docs)) for (let i = b.start; i < b.end; i++) out.push(b.id);
  return out;
}

const toJsonl = (segs: readonly ScoredSegment[]) =>
  segs.map((s) => JSON.stringify({ id: s.id, doc: s.doc, source: s.source, tokens: s.tokens, logprobs: s.logprobs })).join("\n") + "\n";

export function registerMudaCxmi(muda: Command): void {
  tableOptions(
    muda
      .command("cxmi")
      .description("P-CXMI (the MuDA paper, Sec. 2-3): how much context raises the probability of each reference word, from two scorings by the same model")
      .option("--without-context <file>", "per-token log-probabilities of the reference scored without context (JSONL, fairseq-generate output or TSV; docs/muda.md)")
      .option("--with-context <file>", "the same reference tokens scored with context, by the same model")
      .option("--model-dir <dir>", "instead of the two files: score -r against -s with a local ONNX sequence-to-sequence model (transformers.js layout), with and without context")
      .option("-l, --lang <xx-yy>", "language pair; the target's tagger gives the parts of speech (en de es fr it pl pt ru)")
      .option("-s, --source <file>", "source, one segment a line (shown with the top words; needed with --model-dir)")
      .option("-r, --reference <file>", "the reference the model scored, one segment a line: counts and text are checked against the scores (needed with --model-dir)")
      .option("--docs <file>", "document ids, one a line (or 'domain<TAB>docid'); default: JSONL `doc` fields, else one document")
      .option("--input-format <f>", `format of the score files: ${CXMI_INPUT_FORMATS.join(" | ")} (default: detected)`)
      .option("--log-base <b>", "base of the log-probabilities in JSONL/TSV files: e (default), 2 or 10 (fairseq-generate: always 2)")
      .option("--subword <s>", `how tokens make words: sp (SentencePiece ▁), bpe (@@), none (default: detected)`)
      .option("--context-size <n>", "previous sentences of the document used as context (--model-dir) and shown with the top words", "1")
      .option("--separator <text>", "--model-dir: what follows each context sentence; whitespace = nothing (running text), a vocabulary token such as '</s>' = that token", " ")
      .option("--save-scores <prefix>", "--model-dir: also write the log-probabilities as PREFIX.without.jsonl and PREFIX.with.jsonl")
      .option("--top <n>", "vocabulary items, words and segments listed", "20")
      .option("--min-count <n>", "occurrences a vocabulary item needs to be listed", "5")
      .option("--no-text-check", "accept a reference whose text differs from what the scored tokens spell (the segment count is still checked)")
      .option("-q, --quiet", "no progress on stderr; only the tables on stdout (no notes, no signature)")
      .option("-o, --output <file>", "write the report here ('-' = stdout, the default)"),
    "the report (summary, parts of speech, vocabulary, top words and segments, every segment's words and token log-probabilities, signature)",
  ).action(
    action(async (o: CxmiOpts) => {
      const format = await outputFormat(o);
      const saved = o.saveScores ? [`${o.saveScores}.without.jsonl`, `${o.saveScores}.with.jsonl`] : [];
      await checkOutputs(o.output, ...saved);
      checkOneStdin([o.withoutContext, o.withContext, o.source, o.reference, o.docs]);
      const inputFormat = choice("--input-format", o.inputFormat, CXMI_INPUT_FORMATS) as CxmiInputFormat | undefined;
      const subwordOpt = choice("--subword", o.subword, SUBWORD_SCHEMES);
      const logBase = parseLogBase(o.logBase);
      const contextSize = intOption("--context-size", o.contextSize, 0);
      const top = intOption("--top", o.top, 0);
      const minCount = intOption("--min-count", o.minCount, 1);
      const tgtLang = o.lang ? splitLangPair(o.lang)[1] : undefined;
      const fromFiles = o.withoutContext !== undefined || o.withContext !== undefined;
      if (o.modelDir && fromFiles) throw new InputError("give either --model-dir or --without-context/--with-context, not both");
      if (!o.modelDir && !(o.withoutContext && o.withContext)) throw new InputError("give both --without-context FILE and --with-context FILE (or --model-dir DIR with -s and -r)");
      if (o.saveScores && !o.modelDir) throw new InputError("--save-scores writes the scores of --model-dir");
      const ref = o.reference ? await readAllLines(o.reference) : undefined;
      const src = o.source ? await readAllLines(o.source) : undefined;
      if (ref && src && ref.length !== src.length) throw new InputError(`has ${ref.length} lines, but the source has ${src.length}`, o.reference);

      let without: ScoredRun;
      let withCtx: ScoredRun;
      let modelFields: Array<[string, string | number | undefined]> = [];
      const notes: string[] = [];
      if (o.modelDir) {
        if (!src || !ref) throw new InputError("--model-dir scores the reference (-r FILE) against the source (-s FILE): give both");
        const ids = await docIds(o, ref.length, []);
        const docs: ContextDoc[] = [];
        ref.forEach((r, i) => {
          const id = ids[i] ?? "1";
          const last = docs[docs.length - 1];
          if (last && last.id === id) {
            last.src.push(src[i]!);
            last.tgt.push(r);
          } else docs.push({ id, src: [src[i]!], tgt: [r] });
        });
        const dec = await ForcedDecoder.load(o.modelDir);
        let scored;
        try {
          scored = await scoreWithContext(dec, docs, {
            contextSize,
            separator: o.separator,
            onSegment: o.quiet ? undefined : (d, n) => (d % 50 === 0 || d === n) && process.stderr.write(`muda cxmi: scored ${d}/${n} segments\n`),
          });
        } finally {
          await dec.dispose();
        }
        const name = `model:${basename(dec.dir.path)}`;
        without = { path: `${name} (without context)`, format: "jsonl", segments: scored.without };
        withCtx = { path: `${name} (with context)`, format: "jsonl", segments: scored.with };
        modelFields = [
          ["model", basename(dec.dir.path)],
          ["onnx", dec.onnxSha256.slice(0, 12) + (dec.dir.quantized ? "-quantized" : "")],
          ["ctx", contextSize],
          ["sep", o.separator.trim() === "" ? "space" : o.separator],
        ];
        notes.push(`context: the previous ${contextSize} source and reference sentence(s) of the document, each followed by ${o.separator.trim() === "" ? "a space (running text)" : `'${o.separator}'`}; the reference sentences are a forced decoder prefix`);
        if (scored.shortened) notes.push(`context shortened to fit the model's positions for ${scored.shortened} segment(s)`);
      } else {
        without = await readScores(o.withoutContext!, { format: inputFormat, logBase });
        withCtx = await readScores(o.withContext!, { format: inputFormat, logBase });
      }

      const scheme: SubwordScheme = subwordOpt ?? detectSubwordScheme(without.segments);
      const segments = pairRuns(without, withCtx, scheme);
      if (ref) {
        // With --model-dir the tokens are the reference's own (tokenised here): nothing to check.
        if (o.textCheck && !o.modelDir) checkReferenceText(segments, ref, o.reference!, withCtx.path);
        else if (ref.length !== segments.length) throw new InputError(`has ${ref.length} segments, but ${withCtx.path} has ${segments.length} scored segments`, o.reference);
      }
      if (src && src.length !== segments.length) throw new InputError(`has ${src.length} lines, but there are ${segments.length} scored segments`, o.source);
      const docs = await docIds(o, segments.length, segments.map((s) => s.doc));
      segments.forEach((s, i) => {
        if (docs[i] !== undefined) s.doc = docs[i];
        if (src) s.source = src[i]!;
      });

      let tagger: string | undefined;
      if (tgtLang && TAGGED.has(tgtLang)) {
        tagWords(segments, loadDefaultMorph(tgtLang));
        tagger = "proneval-morph";
      } else notes.push(tgtLang ? `no tagger for '${tgtLang}': no parts of speech; vocabulary items are words without attached punctuation` : "no -l: no parts of speech");
      const contexts = previousSegments(ref ?? segments.map((s) => s.text), docs, Math.max(contextSize, 1));
      const analysis = cxmiAnalysis(segments, contexts, { top, minCount });
      const signature = makeSignature("muda-cxmi", [
        ["pair", o.lang],
        ...modelFields,
        ["scores", o.modelDir ? undefined : without.format === withCtx.format ? without.format : `${without.format}+${withCtx.format}`],
        ["subword", scheme],
        ["eos", segments.some((s) => s.eos) ? "yes" : "no"],
        ["tagger", tagger],
        ["min-count", minCount],
      ]);
      notes.unshift(
        `P-CXMI in nats: log q(y | x, C) - log q(y | x), per word (sum over its ${scheme === "none" ? "tokens" : `subword tokens, ${scheme}`}); above 0: the context made the reference more likely`,
        "cxmi: per segment, the mean token P-CXMI (end of sentence included), averaged over segments, as the paper's code; cxmi_per_sentence: the same without dividing by the length",
      );
      const report = {
        signature,
        units: "nats" as const,
        withoutContext: without.path,
        withContext: withCtx.path,
        format: o.modelDir ? "model" : without.format === withCtx.format ? without.format : `${without.format}+${withCtx.format}`,
        subword: scheme,
        ...(o.lang ? { lang: o.lang } : {}),
        ...(tagger ? { tagger } : {}),
        notes,
        ...analysis,
      };
      const text = format === "json" ? JSON.stringify(report) + "\n" : await formatResult(cxmiTables(analysis), format, { notes, signature, quiet: o.quiet });
      // The scores are saved once everything else has worked: nothing is written for a run that fails.
      if (saved.length) writeFilesAtomic([[saved[0]!, toJsonl(without.segments)], [saved[1]!, toJsonl(withCtx.segments)]]);
      await emit(text, o.output);
    }),
  );
}

/** `muda tag --cxmi FILE --threshold T`: the options' help. */
export const CXMI_OPTION = `the JSON report of 'muda cxmi' on this side: tokens above --threshold get the tag ${CXMI_TAG}, compared with the MuDA tags (docs/muda.md)`;
export const THRESHOLD_OPTION = "with --cxmi: the P-CXMI (nats) a token must exceed";

/** Reads the --cxmi report before any work (a bad file fails fast), with its threshold. */
export function readCxmiOption(o: { cxmi?: string; threshold?: string }): { file: CxmiWordsFile; threshold: number } | undefined {
  if (!o.cxmi) {
    if (o.threshold !== undefined) throw new InputError("--threshold goes with --cxmi FILE");
    return undefined;
  }
  if (o.threshold === undefined) throw new InputError("--cxmi needs --threshold T (the P-CXMI in nats above which a token is tagged)");
  const threshold = floatOption("--threshold", o.threshold);
  return { file: readCxmiReport(o.cxmi), threshold };
}

/** Before tagging: the --cxmi report covers the side's segments (one line in muda tag). */
export function checkCxmiOption(cx: { file: CxmiWordsFile } | undefined, side: { docs: ReadonlyArray<readonly string[]> }, docIds: readonly string[]): void {
  if (cx) checkCxmiSegments(cx.file, side.docs, docIds);
}

/** Adds P-CXMI and the high_pcxmi tag to a tagged side; returns the documents and the comparison for the JSON output. */
export function tagWithCxmi(side: TaggedSide, texts: ReadonlyArray<readonly string[]>, cx: { file: CxmiWordsFile; threshold: number }, labels: readonly string[], quiet?: boolean) {
  const r = applyCxmi(side, texts, cx.file, cx.threshold, labels);
  if (!quiet) {
    const c = r.comparison;
    const parts = c.high.byTag.filter((x) => x.tokens > 0).map((x) => `${x.label} ${x.tokens}`);
    process.stderr.write(`muda: ${c.high.tokens} tokens above P-CXMI ${c.threshold} (${CXMI_TAG})${parts.length ? `: ${parts.join(", ")}` : ""}\n`);
  }
  return r;
}
