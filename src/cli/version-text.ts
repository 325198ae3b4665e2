import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_MODEL, defaultModelDir } from "../version.js";
import { makeSignature } from "../signature.js";
import { TIE_EPS } from "../core/scorer.js";

/**
 * `proneval --version`: the version and the default scorer's signature (as `score` prints it, for
 * the model's own context and the default aggregate), read from the config file alone so no model is loaded.
 */
export function versionText(version: string): string {
  try {
    const dir = defaultModelDir();
    const c = JSON.parse(readFileSync(join(dir, "config.json"), "utf8"));
    const sig = makeSignature("proneval-pronoun", [`model:pronoun-lm-zeroshot-pmi@${String(c.files.weights.sha256).slice(0, 8)}`, ["ctx", "crc"], ["agg", "mean"], ["keys", c.prepare.maxLen], ["tie", TIE_EPS]]);
    return `${version}\ndefault model (checkpoints/${DEFAULT_MODEL}, zero-shot PMI): ${sig}`;
  } catch (err) {
    return `${version}\ndefault model: not found (${(err as Error).message})`;
  }
}
