import { createHash } from "node:crypto";
import { createReadStream, existsSync } from "node:fs";
import { basename } from "node:path";
import { InputError } from "../io/errors.js";
import { streamLines } from "../io/lines.js";
import { isStdin, readStdinBytes } from "../io/stdin.js";
import { validatePair, type PairRecord, type ContextMode } from "../core/pair-format.js";
import { tokenWords } from "../text/tokenize.js";
import { pronouns } from "../text/pronouns.js";

/**
 * Reads a pair file for the ranker, with the checks the model needs beyond the format's:
 * the positive sentence must contain a pronoun (else the pair teaches nothing and the file is
 * wrong), and RC mode needs the negative's own context. Errors name file and line.
 */
export async function readRankerPairs(file: string, mode: ContextMode): Promise<PairRecord[]> {
  if (!isStdin(file) && !existsSync(file)) throw new InputError("pair file not found", file);
  const inv = pronouns();
  const out: PairRecord[] = [];
  let n = 0;
  for await (const line of streamLines(file)) {
    n++;
    if (!line.trim()) continue;
    let obj: unknown;
    try {
      obj = JSON.parse(line);
    } catch (e) {
      throw new InputError(`invalid JSON (${(e as Error).message})`, file, n);
    }
    const p = validatePair(obj, file, n);
    if (!tokenWords(p.positive).some((w) => inv.has(w))) throw new InputError(`positive sentence has no pronoun of the inventory: ${JSON.stringify(p.positive.slice(0, 80))}`, file, n);
    if (mode === "rc" && p.kind === "system" && !p.negative_context)
      throw new InputError("context mode rc needs 'negative_context' (the system's own previous sentences); use a *.rc.* pair file or --context crc", file, n);
    out.push(p);
  }
  if (out.length === 0) throw new InputError("no pairs in file", file);
  return out;
}

/** "name:sha256-prefix:pairs" — identifies the data a checkpoint was trained on. */
export async function fileSignature(file: string, pairs: number): Promise<string> {
  const h = createHash("sha256");
  if (isStdin(file)) h.update(readStdinBytes());
  else for await (const chunk of createReadStream(file)) h.update(chunk as Buffer);
  return `${basename(file)}:${h.digest("hex").slice(0, 16)}:${pairs}`;
}
