import { VERSION } from "./version.js";

/** A signature field: `[key, value]` (left out when the value is undefined, null or false) or a ready `key:value` part. */
export type SignatureField = [string, string | number | boolean | null | undefined] | string;

/**
 * sacrebleu-style signature, `name|key:value|...|version:X`: one line naming the metric, model and
 * options, to quote with every number. Every command that prints a score builds its own through this.
 */
export function makeSignature(name: string, fields: SignatureField[]): string {
  const parts = [name];
  for (const f of fields) {
    if (typeof f === "string") parts.push(f);
    else if (f[1] !== undefined && f[1] !== null && f[1] !== false) parts.push(f[1] === true ? f[0] : `${f[0]}:${f[1]}`);
  }
  parts.push(`version:${VERSION}`);
  return parts.join("|");
}
