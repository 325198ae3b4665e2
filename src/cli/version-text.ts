import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PACKAGE_ROOT } from "../version.js";

/**
 * `proneval --version`: the version and the default scorer's signature (as `score` prints it, for
 * the model's own context and the default aggregate), read from the config file alone so no model is loaded.
 */
export function versionText(version: string): string {
  try {
    const dir = join(PACKAGE_ROOT, "checkpoints", "pronoun-lm");
    const c = JSON.parse(readFileSync(join(dir, "config.json"), "utf8"));
    const sig = [`proneval-pronoun`, `model:pronoun-lm-zeroshot-pmi@${String(c.files.weights.sha256).slice(0, 8)}`, `ctx:crc`, `agg:mean`, `keys:${c.prepare.maxLen}`, `tie:0.00001`, `version:${version}`].join("|");
    return `${version}\ndefault model (checkpoints/pronoun-lm, zero-shot PMI): ${sig}`;
  } catch (err) {
    return `${version}\ndefault model: not found (${(err as Error).message})`;
  }
}
