import { InputError } from "../io/errors.js";
import { readJsonl } from "../io/jsonl.js";

/** Context modes of the paper (Sec. 5.2): none, respective context, common reference context. */
export type ContextMode = "nc" | "rc" | "crc";

/**
 * One training/evaluation pair: the interface between the miner and every later command.
 * `positive` should be ranked above `negative`. `context` holds the previous sentences of the
 * positive side (oldest first); `negative_context` is present only in RC mode, where the negative
 * keeps its own (system) context. In CRC both sides share `context`; in NC `context` is empty.
 */
export interface PairRecord {
  id: string;
  /** Source language of the test set the pair comes from (the target is English). */
  lang: string;
  context: string[];
  positive: string;
  negative: string;
  negative_context?: string[];
  kind: "system" | "noisy";
  /** Reference pronoun(s) that differ, lowercased; several joined by "," for system pairs. */
  ref_pronoun: string;
  sys_pronoun: string;
  /** Where it comes from: "<testset>/<langpair>/<docid>/<segment>/<system>". */
  origin: string;
  /** Optional extras written by `proneval pairs`. */
  split?: "train" | "dev";
  context_mode?: ContextMode;
  /** Token positions in `positive` / `negative` of the differing pronouns (whitespace-free offsets by token index). */
  positive_positions?: number[];
  negative_positions?: number[];
}

const REQUIRED_STRINGS = ["id", "lang", "positive", "negative", "ref_pronoun", "sys_pronoun", "origin"] as const;

/** Validates one parsed JSON line; errors name the file and line. */
export function validatePair(obj: unknown, file: string, line: number): PairRecord {
  if (typeof obj !== "object" || obj === null || Array.isArray(obj)) throw new InputError("expected a JSON object", file, line);
  const o = obj as Record<string, unknown>;
  for (const k of REQUIRED_STRINGS) {
    if (typeof o[k] !== "string") throw new InputError(`field '${k}' is missing or not a string`, file, line);
  }
  if (!(o.positive as string).trim()) throw new InputError("field 'positive' is empty", file, line);
  if (!(o.negative as string).trim()) throw new InputError("field 'negative' is empty", file, line);
  if (!Array.isArray(o.context) || !o.context.every((s) => typeof s === "string"))
    throw new InputError("field 'context' must be an array of strings", file, line);
  if (o.negative_context !== undefined && (!Array.isArray(o.negative_context) || !o.negative_context.every((s) => typeof s === "string")))
    throw new InputError("field 'negative_context' must be an array of strings", file, line);
  if (o.kind !== "system" && o.kind !== "noisy") throw new InputError(`field 'kind' must be "system" or "noisy", got ${JSON.stringify(o.kind)}`, file, line);
  return o as unknown as PairRecord;
}

/** Streams and validates a pair file (JSONL, plain or .gz). */
export async function* readPairs(file: string): AsyncGenerator<PairRecord> {
  for await (const { value, line } of readJsonl(file)) yield validatePair(value, file, line);
}

export async function readAllPairs(file: string): Promise<PairRecord[]> {
  const out: PairRecord[] = [];
  for await (const p of readPairs(file)) out.push(p);
  if (out.length === 0) throw new InputError("no pairs in file", file);
  return out;
}
