import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";

/** Root of the installed package (works from src/ under vitest and from dist/src/ after tsc). */
export const PACKAGE_ROOT: string = (() => {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
      if (pkg.name === "proneval") return dir;
    } catch {
      /* keep climbing */
    }
    dir = dirname(dir);
  }
  throw new Error("proneval: cannot locate package.json");
})();

export const VERSION: string = JSON.parse(readFileSync(join(PACKAGE_ROOT, "package.json"), "utf8")).version;

/**
 * The shipped default scorer, a masked-pronoun model scored zero-shot (PMI), chosen by `proneval meta-eval`
 * (README, docs/meta-eval.md): checkpoints/<DEFAULT_MODEL>. The one place that names it.
 */
export const DEFAULT_MODEL = "pronoun-lm-modern";

export function defaultModelDir(): string {
  return join(PACKAGE_ROOT, "checkpoints", DEFAULT_MODEL);
}
