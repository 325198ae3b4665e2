/**
 * Lists the English sentences in which the MuDA ellipsis detector fires, for hand-checking its precision
 * (docs/muda.md). One sentence a line in FILE (.gz ok); prints line number, cue words and the sentence.
 *
 *   node dist/scripts/ellipsis-cues.js FILE [--n 50] [--seed 7]
 */
import { readLines } from "../src/io/lines.js";
import { loadDefaultMorph } from "../src/annotate/morph.js";
import { ellipsisCues } from "../src/muda/ellipsis.js";
import { rng, shuffle } from "../src/annotate/perceptron.js";

function arg(name: string, def: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : def;
}

const file = process.argv[2];
if (!file || file.startsWith("--")) {
  console.error("usage: ellipsis-cues FILE [--n 50] [--seed 7]");
  process.exit(2);
}
const lines = readLines(file);
const m = loadDefaultMorph("en");
const hits: Array<[number, string, string]> = [];
lines.forEach((l, i) => {
  const a = m.annotate(l);
  const c = ellipsisCues(a.tokens);
  if (c.length) hits.push([i + 1, c.map((k) => a.tokens[k]!.text).join(","), l]);
});
shuffle(hits, rng(Number(arg("seed", "7"))));
console.log(`# ${hits.length} cue sentences of ${lines.length}`);
for (const h of hits.slice(0, Number(arg("n", "50")))) console.log(h.join("\t"));
