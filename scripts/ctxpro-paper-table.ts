/**
 * CTXPRO paper, Table 6 (DeepL, sentence-level vs with context): scores of the released DeepL outputs
 * on the paper's test sets, with `--compat ctxpro` (the released scorer), the default (last k
 * sentences, whole words), `--last-sentence` and `--whole`. The paper's files are not in the shared
 * data: point --paper at the `paper/` folder of rewicks/ctxpro (jsons/ and outputs/; several of its
 * large files are not retrievable, and cells without both files are skipped).
 *
 *   node dist/scripts/ctxpro-paper-table.js --paper /tmp/paper
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { readEvalSet } from "../src/ctxpro/items.js";
import { readLines } from "../src/io/lines.js";
import { scoreSystem, type ScoreMode } from "../src/ctxpro/score.js";
import { parseArgs, str } from "./args.js";

const { opts } = parseArgs({
  name: "ctxpro-paper-table",
  summary: "CTXPRO paper, Table 6: scores of the released DeepL outputs on the paper's test sets under each scoring mode.",
  options: {
    paper: str("the paper/ folder of rewicks/ctxpro (jsons/, outputs/)", undefined, { value: "DIR", required: true }),
  },
});
const dir = opts.paper;
if (!existsSync(join(dir, "jsons")) || !existsSync(join(dir, "outputs"))) {
  console.error("usage: ctxpro-paper-table --paper DIR (DIR/jsons/*.test.json, DIR/outputs/deepl.*)");
  process.exit(2);
}
const modes: ScoreMode[] = ["compat-ctxpro", "last-k", "last-sentence", "whole"];
console.log(["set", "input", "items", ...modes].join("\t"));
for (const f of readdirSync(join(dir, "jsons")).sort()) {
  const m = /^(.*\.([a-z]{2})-([a-z]{2}))\.test\.json$/.exec(f);
  if (!m) continue;
  for (const end of ["sentences", "contexts"]) {
    const out = join(dir, "outputs", `deepl.${m[1]}.test.${end}`);
    if (!existsSync(out)) continue;
    const items = readEvalSet(join(dir, "jsons", f));
    // score.py zips translations with items; the released files have one line per item.
    const hyps = readLines(out).slice(0, items.length);
    const cells = modes.map((mode) => scoreSystem(out, items, hyps, { mode, lang: m[3] }).accuracy.toFixed(1));
    console.log([m[1], end, items.length, ...cells].join("\t"));
  }
}
