/**
 * Seeded random sample of MuDA tags for hand-checking precision (docs/muda.md).
 *
 *   node dist/scripts/muda-sample.js TAGS.json --tag verb_form [--n 50] [--seed 12345] [--window 8]
 *
 * TAGS.json is the output of `proneval muda tag ... --alignment`. Prints, per sampled tag, the target words
 * around it with the tagged word in [brackets], and the English words aligned to it.
 */
import { readText } from "../src/io/lines.js";
import { rng, shuffle } from "../src/annotate/perceptron.js";
import type { TaggedSide } from "../src/muda/pipeline.js";
import { int, parseArgs, str } from "./args.js";

const { opts, args } = parseArgs({
  name: "muda-sample",
  summary: "Seeded random sample of MuDA tags for hand-checking precision.",
  options: {
    tag: str("the tag to sample", "verb_form", { value: "TAG" }),
    n: int("tags to print", 50),
    seed: int("shuffle seed", 12345),
    window: int("target words shown either side", 8),
  },
  positionals: [{ name: "TAGS.json", description: "output of `proneval muda tag ... --alignment`" }],
});

function main(): void {
  const file = args[0]!;
  const tag = opts.tag;
  const n = opts.n;
  const win = opts.window;
  const parsed = JSON.parse(readText(file)) as { documents: TaggedSide["docs"] };
  const docs = parsed.documents;
  const hits: Array<{ doc: string; seg: number; tok: number }> = [];
  for (const d of docs) d.segments.forEach((s, si) => s.tags.forEach((t, ti) => t.includes(tag as never) && hits.push({ doc: d.id, seg: si, tok: ti })));
  shuffle(hits, rng(opts.seed));
  console.log(`# ${hits.length} '${tag}' tags in ${file}; ${Math.min(n, hits.length)} sampled`);
  for (const [k, h] of hits.slice(0, n).entries()) {
    const s = docs.find((d) => d.id === h.doc)!.segments[h.seg]!;
    const ctx = s.tokens.slice(Math.max(0, h.tok - win), h.tok + win + 1).map((w, i) => (i === Math.min(win, h.tok) ? `[${w}]` : w));
    const en = (s.links ?? []).filter(([, t]) => t === h.tok).map(([e]) => s.source?.[e]).join(" ");
    console.log(`${k + 1}\t${h.doc}:${h.seg + 1}\t${ctx.join(" ")}\t<- ${en || "(unaligned)"}`);
  }
}

main();
