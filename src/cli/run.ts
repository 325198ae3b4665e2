import type { Command } from "commander";
import { statSync } from "node:fs";
import { InputError, StdoutClosedError } from "../io/errors.js";
import { STDOUT, writeError } from "../io/atomic.js";

/**
 * Wraps a subcommand action: user errors print one clear line and exit 2;
 * anything else is a bug and keeps its stack trace, after a one-line summary.
 */
export function action<A extends unknown[]>(fn: (...args: A) => Promise<void> | void): (...args: A) => Promise<void> {
  return async (...args: A) => {
    try {
      const cmd = args[args.length - 1] as Command | undefined;
      if (cmd && typeof cmd.opts === "function") checkOutputsAreNotInputs(cmd);
      await fn(...args);
    } catch (e) {
      if (e instanceof StdoutClosedError) return; // `| head` closed the pipe: quiet, exit 0
      if (e instanceof InputError) {
        process.stderr.write(`proneval: error: ${e.message}\n`);
        process.exitCode = 2;
        return;
      }
      const err = e as Error;
      process.stderr.write(`proneval: internal error: ${err?.message ?? String(e)}\n`);
      if (process.env.PRONEVAL_DEBUG) process.stderr.write(`${err?.stack ?? ""}\n`);
      else process.stderr.write("(set PRONEVAL_DEBUG=1 for the stack trace)\n");
      process.exitCode = 1;
    }
  };
}

/** Options that name files a command writes (every other path given on the command line is read). */
const OUTPUT_OPTIONS = new Set(["--output", "--detail", "--png", "--splits", "--save-model", "--posteriors", "--conditional-probabilities"]);

function fileId(path: string): string | undefined {
  try {
    const st = statSync(path);
    return st.isFile() ? `${st.dev}:${st.ino}` : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Refuses, before any work, an output that is one of the command's inputs (`-o ref.txt` would replace the
 * reference): by device and inode, so links and other spellings of the same file are caught too.
 */
export function checkOutputsAreNotInputs(cmd: Command): void {
  const opts = cmd.opts() as Record<string, unknown>;
  const outputs: Array<[string, string]> = [];
  const inputs: string[] = [];
  const strings = (v: unknown): string[] => (typeof v === "string" ? [v] : Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);
  for (const o of cmd.options) {
    const v = opts[o.attributeName()];
    if (o.long && OUTPUT_OPTIONS.has(o.long)) outputs.push(...strings(v).map((p): [string, string] => [o.long!, p]));
    else inputs.push(...strings(v));
  }
  for (const a of cmd.processedArgs ?? []) inputs.push(...strings(a));
  const read = new Map<string, string>();
  for (const p of inputs) {
    const id = p !== "-" ? fileId(p) : undefined;
    if (id && !read.has(id)) read.set(id, p);
  }
  for (const [flag, p] of outputs) {
    const id = p !== "-" ? fileId(p) : undefined;
    const input = id ? read.get(id) : undefined;
    if (input !== undefined) throw new InputError(`${flag} names an input of this command (${input}); it would be overwritten: write the output elsewhere`, p);
  }
}

/** Parses an integer option, failing with the option's name. */
export function intOption(name: string, value: string, min = 0): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new InputError(`option ${name} expects an integer >= ${min}, got '${value}'`);
  return n;
}

/**
 * `-b/--bootstrap N` and `--seed N` on every command that resamples (docs/cli.md): one spelling, one
 * default seed (12345, as sacrebleu's SACREBLEU_SEED). Where systems are compared with the first, the
 * default is 1000 resamples with several systems and none with one.
 */
export const BOOTSTRAP_HELP = "paired bootstrap resamples between the systems, the first the baseline (default 1000 with several systems; 0 = none)";
export const SEED_HELP = "seed of the bootstrap draws";

export function bootstrapOptions(cmd: Command, what: string, dflt = "1000", seed = "12345"): Command {
  return cmd.option("-b, --bootstrap <n>", `paired bootstrap resamples for ${what} (0 = none)`, dflt).option("--seed <n>", SEED_HELP, seed);
}

/** `-w/--width N`: decimals of the printed scores (as sacrebleu's -w). */
export function widthOption(cmd: Command, dflt: number): Command {
  return cmd.option("-w, --width <n>", "decimals of the printed scores", String(dflt));
}

/** The decimals asked for with -w (0..10). */
export function parseWidth(v: unknown, dflt: number): number {
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 10) throw new InputError(`option -w/--width expects an integer from 0 to 10, got '${String(v)}'`);
  return n;
}

export function floatOption(name: string, value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n)) throw new InputError(`option ${name} expects a number, got '${value}'`);
  return n;
}

/** A number in [lo, hi] (`[lo, hi)` with hiOpen, `(lo, hi]` with loOpen), failing with the option's name and the range. */
export function rangeOption(name: string, value: string, lo: number, hi: number, open: { lo?: boolean; hi?: boolean } = {}): number {
  const n = floatOption(name, value);
  if ((open.lo ? n <= lo : n < lo) || (open.hi ? n >= hi : n > hi))
    throw new InputError(`option ${name} expects a number in ${open.lo ? "(" : "["}${lo}, ${hi === Infinity ? "∞" : hi}${open.hi || hi === Infinity ? ")" : "]"}, got '${value}'`);
  return n;
}

/**
 * Prints a command's main output: to stdout when there is no -o or it is `-`, else to the file
 * (atomically for a regular file, written through for a FIFO or device).
 */
export async function emit(text: string, output?: string): Promise<void> {
  const { writeFileAtomic } = await import("../io/atomic.js");
  // A failed write to stdout (a full disk behind a redirect) is reported by the handler of
  // exitQuietlyOnEpipe: one line, exit 2.
  if (output === undefined || output === "-") process.stdout.write(text);
  else writeFileAtomic(output, text);
}

/** Checks every output file given on the command line before the work starts (exit 2 naming it). */
export async function checkOutputs(...paths: Array<string | undefined>): Promise<void> {
  const { checkOutputFile } = await import("../io/atomic.js");
  for (const p of paths) if (p !== undefined) checkOutputFile(p);
}

/** At most one input may be `-` (standard input can be read once). */
export function checkOneStdin(paths: Array<string | undefined>): void {
  if (paths.filter((p) => p === "-").length > 1) throw new InputError("standard input (-) can be given for one input only");
}

/**
 * `--format tsv|csv|json` and `--json` on a command that prints a table (docs/cli.md): tsv and csv go
 * through fast-csv (a cell holding a tab, quote or newline is quoted); json is the command's full JSON
 * report, and `--json` is short for `--format json`.
 */
export function tableOptions(cmd: Command, json = "the full report", more = ""): Command {
  return cmd
    .option("--format <f>", `tsv (default) | csv: tables through fast-csv, a cell holding a tab, quote or newline quoted | json: ${json} as JSON (= --json)${more}`)
    .option("--json", `print ${json} as JSON (= --format json)`);
}

/** The format chosen by --format/--json; `--json --format csv` contradicts itself (exit 2). */
export async function outputFormat(o: { format?: unknown; json?: unknown }): Promise<"tsv" | "csv" | "json"> {
  const { parseTableFormat } = await import("../io/table.js");
  const f = parseTableFormat(o.format);
  if (o.json && o.format !== undefined && f !== "json") throw new InputError(`--json is --format json; it cannot be combined with --format ${f}`);
  return o.json ? "json" : f;
}

/**
 * `proneval ... | head` must end quietly, not with an EPIPE stack trace: installed once for every
 * command (synchronous writes to stdout get the same treatment through StdoutClosedError).
 */
export function exitQuietlyOnEpipe(): void {
  const fail = (stream: "stdout" | "stderr") => (e: NodeJS.ErrnoException) => {
    if (e.code === "EPIPE" && stream === "stdout") process.exit(0);
    // Any other write error (a full disk behind a redirect): one line, exit 2, no stack trace; nothing
    // is left to say where stderr itself failed.
    if (stream === "stdout") process.stderr.write(`proneval: error: ${writeError(STDOUT, e).message}\n`);
    process.exit(2);
  };
  process.stdout.on("error", fail("stdout"));
  process.stderr.on("error", fail("stderr"));
}
