// What meta-eval reads besides the pair files (src/core/pair-format.ts) and MQM files (./mqm.ts):
// hand-judged pairs, the bundle of inputs that every scorer is evaluated on, and the language pair of
// an MQM file.
import { basename } from "node:path";
import { InputError } from "../io/errors.js";
import { readLines } from "../io/lines.js";
import type { PairRecord } from "../core/pair-format.js";
import type { MqmData } from "./mqm.js";

export type JudgementLabel = "reference" | "substitute" | "both" | "invalid";
const LABELS: readonly JudgementLabel[] = ["reference", "substitute", "both", "invalid"];

export interface Judgement {
  id: string;
  context: string[];
  reference: string;
  substitute: string;
  label: JudgementLabel;
}

export function readJudgements(file: string): Judgement[] {
  const out: Judgement[] = [];
  readLines(file).forEach((line, i) => {
    if (!line.trim()) return;
    let j: Record<string, unknown>;
    try {
      j = JSON.parse(line);
    } catch (e) {
      throw new InputError(`not JSON (${(e as Error).message})`, file, i + 1);
    }
    if (!LABELS.includes(j.label as JudgementLabel)) throw new InputError(`unknown label ${JSON.stringify(j.label)} (expected ${LABELS.join(", ")})`, file, i + 1);
    if (typeof j.reference !== "string" || typeof j.substitute !== "string" || !Array.isArray(j.context))
      throw new InputError("a judgement needs reference, substitute (strings) and context (array)", file, i + 1);
    out.push({ id: String(j.id ?? i + 1), context: j.context as string[], reference: j.reference, substitute: j.substitute, label: j.label as JudgementLabel });
  });
  if (!out.length) throw new InputError("no judgements", file);
  return out;
}

export interface MetaEvalInputs {
  pairs: Array<{ file: string; pairs: PairRecord[] }>;
  mqm?: MqmData;
  judgements?: { file: string; items: Judgement[] };
  /** Pair file and pairs for the appended-clause probe (default: the first pair file). */
  probe?: { file: string; pairs: PairRecord[] };
  probeLimit?: number;
  seed?: number;
}

/** The source language of an MQM file into English: `--mqm-lang xx-en`, else from its name (`mqm_ted_zhen` -> zh). */
export function mqmSourceLang(file: string, given?: string): string {
  if (given !== undefined) {
    const m = /^([a-z]{2,3})-en$/.exec(given);
    if (!m) throw new InputError(`--mqm-lang must be xx-en (the metric is for English targets), got '${given}'`);
    return m[1]!;
  }
  const m = /(?:^|[_.-])([a-z]{2})-?en(?:[_.-]|$)/.exec(basename(file));
  if (!m || m[1] === "en") throw new InputError("cannot tell the MQM file's language pair from its name: give --mqm-lang xx-en", file);
  return m[1]!;
}
