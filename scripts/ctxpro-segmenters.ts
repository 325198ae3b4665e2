/**
 * Which sentence segmenter recovers the segment of a context-level output: for every shared CTXPRO dev
 * set with an inputs file, the inputs line (up to 9 context sentences and the segment, "<eos> " removed)
 * stands for a context-level output; k = the sentences of the item's `src segment`; a segmenter scores
 * when the last k sentences of the line are exactly the segment (whitespace normalised).
 * Compared: ours (src/text/sentences.ts) and Intl.Segmenter (ICU, built into Node).
 *
 *   node dist/scripts/ctxpro-segmenters.js [--data ../shared/data/ctxpro]
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { readEvalSet } from "../src/ctxpro/items.js";
import { readLines } from "../src/io/lines.js";
import { splitSentences } from "../src/text/sentences.js";
import { parseArgs, str } from "./args.js";

const { opts } = parseArgs({
  name: "ctxpro-segmenters",
  summary: "Which sentence segmenter recovers the segment of a context-level output, on the shared CTXPRO dev sets.",
  options: {
    data: str("CTXPRO release data (evalsets/, inputs/)", "../shared/data/ctxpro", { value: "DIR" }),
  },
});
const data = opts.data;
const norm = (s: string) => s.replace(/\s+/gu, " ").trim();
const icu = (text: string, lang: string) =>
  [...new Intl.Segmenter(lang, { granularity: "sentence" }).segment(text)].map((x) => x.segment.trim()).filter(Boolean);
const segmenters: Array<[string, (t: string, l: string) => string[]]> = [["ours", splitSentences], ["Intl.Segmenter", icu]];

console.log(["set", "items", ...segmenters.map(([n]) => `${n} (%)`)].join("\t"));
for (const f of readdirSync(join(data, "evalsets")).sort()) {
  const name = f.replace(/\.json(\.gz)?$/, "");
  const inputs = join(data, "inputs", `${name}.gz`);
  if (!existsSync(inputs)) continue;
  const items = readEvalSet(join(data, "evalsets", f));
  const lines = readLines(inputs);
  const lang = /\.([a-z]{2})-[a-z]{2}\./.exec(name)![1]!;
  const cells = segmenters.map(([, split]) => {
    let ok = 0;
    items.forEach((it, k) => {
      const seg = norm(String(it["src segment"]));
      const n = Math.max(1, split(seg, lang).length);
      if (norm(split(lines[k]!.replace(/<eos> /g, " "), lang).slice(-n).join(" ")) === seg) ok++;
    });
    return ((100 * ok) / items.length).toFixed(1);
  });
  console.log([name, items.length, ...cells].join("\t"));
}
