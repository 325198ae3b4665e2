import { readBytes, readLines } from "../io/lines.js";
import { AtomicLineWriter, STDOUT, writeAll, writeError, writeFileAtomic, writeFilesAtomic } from "../io/atomic.js";
import { InputError } from "../io/errors.js";
import { CorpusBuilder, MAX_SENTENCE_TOKENS, type EncodedCorpus } from "./corpus.js";
import { alignBidirectionalEncoded, forceAlign } from "./index.js";
import type { Links } from "./links.js";
import { trainEncodedThreaded } from "./em-parallel.js";
import { deserializeModel, serializeModel } from "./model-io.js";
import type { Heuristic } from "./symmetrize.js";
import { posteriorsEncoded, trainEncoded, type AlignModel, type AlignOptions, type IterationStats } from "./train.js";

/** Options of `proneval align`, already parsed. */
export interface AlignCommandOptions {
  input: string;
  reverse: boolean;
  favorDiagonal: boolean;
  optimizeTension: boolean;
  exactTension: boolean;
  variationalBayes: boolean;
  noNullWord: boolean;
  iterations: number;
  diagonalTension?: number;
  probAlignNull: number;
  alpha: number;
  symmetrize?: Heuristic;
  /** Output file (atomic); stdout when absent. */
  out?: string;
  /** fast_align -p: write the conditional probability table (e TAB f TAB log prob). */
  condProbs?: string;
  beamThreshold: number;
  /** JSONL posterior matrices, one line per sentence pair. */
  posteriors?: string;
  saveModel?: string;
  model?: string;
  threads: number;
  dedupe: boolean;
  verbose: boolean;
}

export interface ParsedInput {
  corpus: EncodedCorpus;
  srcTokens: (k: number) => Int32Array;
  tgtTokens: (k: number) => Int32Array;
  emptyLines: number[];
}

const WS = /[ \t]+/;

/** Reads `src ||| tgt` lines (plain or gzip); a line without the ||| token is an InputError naming file:line. */
export function readParallel(path: string, builder = new CorpusBuilder()): ParsedInput {
  const lines = readLines(path);
  const emptyLines: number[] = [];
  for (let ln = 0; ln < lines.length; ln++) {
    // As in fast_align (cab1e9a), a tab separates source and target like " ||| ".
    const toks = lines[ln]!.replace(/\t/g, " ||| ").split(WS).filter((t) => t.length > 0);
    const sep = toks.indexOf("|||");
    if (sep < 0) throw new InputError("expected 'source ||| target' (no ||| separator)", path, ln + 1);
    if (toks.indexOf("|||", sep + 1) >= 0) throw new InputError("more than one ||| separator", path, ln + 1);
    const src = toks.slice(0, sep);
    const tgt = toks.slice(sep + 1);
    if (src.length > MAX_SENTENCE_TOKENS || tgt.length > MAX_SENTENCE_TOKENS) {
      throw new InputError(`a side has more than ${MAX_SENTENCE_TOKENS} tokens`, path, ln + 1);
    }
    if (src.length === 0 || tgt.length === 0) emptyLines.push(ln + 1);
    builder.add(src, tgt);
  }
  const corpus = builder.finish(true);
  return {
    corpus,
    srcTokens: (k) => corpus.srcTok.subarray(corpus.srcOff[k]!, corpus.srcOff[k + 1]!),
    tgtTokens: (k) => corpus.tgtTok.subarray(corpus.tgtOff[k]!, corpus.tgtOff[k + 1]!),
    emptyLines,
  };
}

function statsLine(s: IterationStats): string {
  const dir = s.reverse ? "reverse" : "forward";
  return (
    `${dir} iteration ${s.iteration}${s.final ? " (final)" : ""}: log_e likelihood ${s.logLikelihood.toPrecision(7)}, ` +
    `cross entropy ${s.crossEntropy.toPrecision(6)}, perplexity ${s.perplexity.toPrecision(6)}, posterior p0 ${s.posteriorP0.toPrecision(5)}, ` +
    `al-feat ${s.posteriorAlFeat.toPrecision(5)}, tension ${s.tension.toPrecision(6)}, ${s.seconds.toFixed(2)}s\n`
  );
}

/** A number as C++ iostreams print it by default (%g, 6 significant digits), e.g. -0.976806, -12.2099, 1e-05. */
export function formatG(x: number): string {
  if (x === 0 || !Number.isFinite(x)) return String(x);
  const exp = Math.floor(Math.log10(Math.abs(Number(x.toPrecision(6)))));
  if (exp < -4 || exp >= 6) {
    const [mant, e] = x.toExponential(5).split("e");
    const m = mant!.includes(".") ? mant!.replace(/0+$/, "").replace(/\.$/, "") : mant!;
    const ev = Number(e);
    return `${m}e${ev < 0 ? "-" : "+"}${String(Math.abs(ev)).padStart(2, "0")}`;
  }
  return String(Number(x.toPrecision(6)));
}

/** fast_align's -p table: for each e, the pairs within the beam of its best f, as natural-log probabilities. */
export function conditionalTable(model: AlignModel, beamThreshold: number): string[] {
  const out: string[] = [];
  const { vocab, ttable } = model;
  const maxP = new Float64Array(ttable.rows).fill(-1);
  ttable.forEach((e, _f, p) => {
    if (p > maxP[e]!) maxP[e] = p;
  });
  ttable.forEachCppOrder((e, f, p) => {
    const c = Math.log(p);
    if (c >= -Math.log(maxP[e]!) * beamThreshold) out.push(`${e === 0 ? "<eps>" : vocab.words[e]}\t${vocab.words[f]}\t${formatG(c)}`);
  });
  return out;
}

/**
 * A synchronous write to stdout: waits out EAGAIN (a slow reader of a non-blocking pipe); a closed
 * pipe (`| head`) ends the command quietly (StdoutClosedError).
 */
function writeStdout(text: string): void {
  try {
    writeAll(1, Buffer.from(text));
  } catch (e) {
    throw writeError(STDOUT, e);
  }
}

function writeLines(path: string | undefined, count: number, line: (k: number) => string): void {
  if (!path) {
    const chunk: string[] = [];
    for (let k = 0; k < count; k++) {
      chunk.push(line(k));
      if (chunk.length === 4096) {
        writeStdout(chunk.join("\n") + "\n");
        chunk.length = 0;
      }
    }
    if (chunk.length) writeStdout(chunk.join("\n") + "\n");
    return;
  }
  const w = new AtomicLineWriter(path);
  try {
    for (let k = 0; k < count; k++) w.write(line(k));
    w.commit();
  } catch (e) {
    w.abort();
    throw e;
  }
}

/** `proneval align`: trains (or loads) and writes Pharaoh alignments like fast_align (+ atools with --symmetrize). */
export async function runAlignCommand(o: AlignCommandOptions, log: (s: string) => void = (s) => process.stderr.write(s)): Promise<void> {
  if (o.symmetrize && o.reverse) throw new InputError("--symmetrize trains both directions; do not combine it with -r");
  if (o.model && o.symmetrize) throw new InputError("--model applies one saved direction; it cannot be combined with --symmetrize");
  if (o.model && o.saveModel) throw new InputError("--model and --save-model exclude each other");
  if (o.symmetrize && (o.condProbs || o.posteriors)) throw new InputError("-p and --posteriors describe one direction; run without --symmetrize");
  const onIteration = o.verbose ? (s: IterationStats) => log(statsLine(s)) : undefined;
  const alignOpts: AlignOptions = {
    iterations: o.iterations,
    favorDiagonal: o.favorDiagonal || o.diagonalTension !== undefined,
    diagonalTension: o.diagonalTension ?? 4.0,
    optimizeTension: o.optimizeTension,
    exactTensionGradient: o.exactTension,
    probAlignNull: o.probAlignNull,
    variationalBayes: o.variationalBayes,
    alpha: o.alpha,
    noNullWord: o.noNullWord,
    reverse: o.reverse,
    onIteration,
  };
  let loaded: AlignModel | undefined;
  if (o.model) {
    try {
      loaded = deserializeModel(readBytes(o.model));
    } catch (e) {
      if (e instanceof SyntaxError) throw new InputError(e.message, o.model);
      throw e;
    }
  }
  const input = readParallel(o.input);
  const { corpus } = input;
  if (input.emptyLines.length) {
    const shown = input.emptyLines.slice(0, 5).join(", ");
    log(
      `proneval align: warning: ${input.emptyLines.length} line(s) of ${o.input} have an empty side (line ${shown}` +
        `${input.emptyLines.length > 5 ? ", ..." : ""}); their output lines are empty, as with fast_align\n`,
    );
  }
  let links: Links;
  let model: AlignModel | undefined;
  if (o.symmetrize) {
    const r = await alignBidirectionalEncoded(corpus, { ...alignOpts, symmetrize: o.symmetrize, threads: o.threads, dedupe: o.dedupe });
    links = r.symmetrized;
    if (o.saveModel) {
      // Both directions or neither: a lone .fwd would load as a half model.
      writeFilesAtomic([
        [`${o.saveModel}.fwd`, serializeModel(r.forwardModel)],
        [`${o.saveModel}.rev`, serializeModel(r.reverseModel)],
      ]);
    }
  } else if (loaded) {
    model = loaded;
    const words = (side: Int32Array): string[] => Array.from(side, (id) => corpus.vocab.words[id]!);
    const src: string[][] = [];
    const tgt: string[][] = [];
    for (let k = 0; k < corpus.size; k++) {
      src.push(words(input.srcTokens(k)));
      tgt.push(words(input.tgtTokens(k)));
    }
    links = forceAlign(loaded, src, tgt);
  } else {
    const r = o.threads > 1 ? await trainEncodedThreaded(corpus, alignOpts, o.threads) : trainEncoded(corpus, alignOpts);
    links = r.links;
    model = r.model;
    if (o.saveModel) writeFileAtomic(o.saveModel, serializeModel(model));
  }
  writeLines(o.out, links.count, (k) => links.pharaoh(k));
  if (model && o.condProbs) {
    writeFileAtomic(o.condProbs, conditionalTable(model, o.beamThreshold).join("\n") + "\n");
  }
  if (model && o.posteriors) {
    const m = model;
    const remap = (side: Int32Array): Int32Array => (m === loaded ? side.map((id) => m.vocab.get(corpus.vocab.words[id]!)) : side);
    const w = new AtomicLineWriter(o.posteriors);
    try {
      for (let k = 0; k < corpus.size; k++) {
        const src = remap(input.srcTokens(k));
        const tgt = remap(input.tgtTokens(k));
        const [cond, pred] = m.reverse ? [tgt, src] : [src, tgt];
        const p = posteriorsEncoded(m, cond, pred);
        w.write(JSON.stringify({ rows: pred.length, cols: cond.length + 1, p: Array.from(p, (x) => Number(x.toPrecision(6))) }));
      }
      w.commit();
    } catch (e) {
      w.abort();
      throw e;
    }
  }
}
