/**
 * Random items for hand-checking from the recall runs' `ours.<phenomenon>.<pair>.json` files, one line each
 * (rule, the English/other token, expected form, antecedent, segments). The shuffle is an LCG seeded by --seed.
 *
 *   node dist/scripts/ctxpro-sample.js auxiliary 50 11 /tmp/r24/clitic:en-es /tmp/r24/lex:en-de ...
 */
import { existsSync, readFileSync } from "node:fs";
import type { CtxproItem } from "../src/ctxpro/items.js";

const [ph, n, seed, ...specs] = process.argv.slice(2);
if (!ph || !n || !seed || specs.length === 0) {
  console.error("usage: ctxpro-sample PHENOMENON N SEED DIR:PAIR ...");
  process.exit(2);
}
const pool: Array<CtxproItem & { p: string }> = [];
for (const sp of specs) {
  const [dir, p] = sp.split(":") as [string, string];
  const f = `${dir}/ours.${ph}.${p}.json`;
  if (existsSync(f)) for (const x of JSON.parse(readFileSync(f, "utf8")) as CtxproItem[]) pool.push({ ...x, p });
}
let s = Number(seed);
// Plain double arithmetic (not Math.imul), as in the one-off snippet the judged samples were drawn with.
const r = () => (s = (s * 1103515245 + 12345) >>> 0) / 4294967296;
for (let i = pool.length - 1; i > 0; i--) {
  const j = Math.floor(r() * (i + 1));
  [pool[i], pool[j]] = [pool[j]!, pool[i]!];
}
const ctx = (x: CtxproItem, side: "src" | "ref") => (x["ante distance"] ? `${x[`${side} ante segment`]} || ` : "");
pool.slice(0, Number(n)).forEach((x, k) => {
  const head = `${k + 1}. [${x.p}] ${x.rule}:`;
  if (ph === "auxiliary") console.log(`${head} ${x["src verb"]} -> **${x.expected}** (ante verb ${x["src ante verb lemma"]}) | ${ctx(x, "src")}${x["src segment"]} | ${ctx(x, "ref")}${x["ref segment"]}`);
  else if (ph === "inflection") console.log(`${head} ${x["src noun"]} -> **${x.expected}** | ${ctx(x, "src")}${x["src segment"]} | ${ctx(x, "ref")}${x["ref segment"]}`);
  else console.log(`${head} ${x["src pronoun"]} -> **${x.expected}** (ante ${x["src ante head"] ?? "-"} -> ${x["ref ante head"] ?? "-"}) | ${ctx(x, "src")}${x["src segment"]} | ${ctx(x, "ref")}${x["ref segment"]}`);
});
console.error(`pool: ${pool.length} items`);
