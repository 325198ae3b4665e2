import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PACKAGE_ROOT } from "../version.js";

/**
 * `proneval --version`: the version and the default scorer's signature (as `score` prints it, for
 * the checkpoint's own context), read from the config files alone so no model is loaded.
 */
export function versionText(version: string): string {
  try {
    const dir = join(PACKAGE_ROOT, "checkpoints", "ensemble");
    const read = (d: string) => JSON.parse(readFileSync(join(d, "config.json"), "utf8"));
    const e = read(dir);
    const c = read(join(dir, e.ranker.path));
    const lm = read(join(dir, e.lm.path));
    const r = `${c.encoder.kind}-${c.head.head}-${c.contextMode}@${String(c.files.weights.sha256).slice(0, 8)}`;
    const l = `pronoun-lm-pmi@${String(lm.files.weights.sha256).slice(0, 8)}`;
    const sig = [`proneval-pronoun`, `model:ensemble(${r}+${Number(e.weight).toPrecision(4)}*${l})`, `ctx:${c.contextMode}`, `keys:${c.prepare.maxLen}`, `tie:0.00001`, `version:${version}`].join("|");
    return `${version}\ndefault model (checkpoints/ensemble): ${sig}`;
  } catch (err) {
    return `${version}\ndefault model: not found (${(err as Error).message})`;
  }
}
