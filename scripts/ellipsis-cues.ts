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
import { int, parseArgs } from "./args.js";

const { opts, args } = parseArgs({
  name: "ellipsis-cues",
  summary: "Lists the English sentences in which the MuDA ellipsis detector fires, for hand-checking its precision.",
  options: {
    n: int("sentences to print", 50),
    seed: int("shuffle seed", 7),
  },
  positionals: [{ name: "FILE", description: "one English sentence a line (.gz ok)" }],
});
const file = args[0]!;
const lines = readLines(file);
const m = loadDefaultMorph("en");
const hits: Array<[number, string, string]> = [];
lines.forEach((l, i) => {
  const a = m.annotate(l);
  const c = ellipsisCues(a.tokens);
  if (c.length) hits.push([i + 1, c.map((k) => a.tokens[k]!.text).join(","), l]);
});
shuffle(hits, rng(opts.seed));
console.log(`# ${hits.length} cue sentences of ${lines.length}`);
for (const h of hits.slice(0, opts.n)) console.log(h.join("\t"));
