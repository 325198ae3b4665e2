/**
 * Random items for hand-checking from the recall runs' `ours.<phenomenon>.<pair>.json` files, one line each
 * (rule, the English/other token, expected form, antecedent, segments). The shuffle is an LCG seeded by SEED.
 *
 *   node dist/scripts/ctxpro-sample.js PHENOMENON N SEED DIR:PAIR ... [--blind KEY.json], e.g.
 *   node dist/scripts/ctxpro-sample.js auxiliary 50 11 /tmp/r24/clitic:en-es /tmp/r24/lex:en-de ...
 *
 * `--blind KEY.json` draws N of our items and N of CTXPRO's own dev items of the same pairs (the run's
 * `ctxpro.<phenomenon>.<pair>.json`, each with its own seeded shuffle), mixes the 2N with a third shuffle and prints
 * them without saying which is which; KEY.json records the origin of each number, to be opened after judging. This
 * is how our pool's precision is compared with CTXPRO's own items under one judge and one protocol.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import type { CtxproItem } from "../src/ctxpro/items.js";
import { parseArgs, str } from "./args.js";

type Drawn = CtxproItem & { p: string };
const { opts, args } = parseArgs({
  name: "ctxpro-sample",
  summary: "Random items for hand-checking from the recall runs' ours.<phenomenon>.<pair>.json files, one line each.",
  options: {
    blind: str("mix N of ours with N of CTXPRO's own items, unlabelled; write which is which to this file", undefined, { value: "KEY.json" }),
  },
  positionals: [
    { name: "PHENOMENON", description: "gender, formality, auxiliary, inflection or animacy" },
    { name: "N", description: "items to draw", kind: "int" },
    { name: "SEED", description: "shuffle seed", kind: "int" },
    { name: "DIR:PAIR", description: "a recall run's folder and a language pair, e.g. /tmp/r24/lex:en-de", variadic: true },
  ],
});
const keyFile = opts.blind;
const [ph, n, seed, ...specs] = args as [string, string, string, ...string[]];

function load(prefix: "ours" | "ctxpro"): Drawn[] {
  const pool: Drawn[] = [];
  for (const sp of specs!) {
    const [dir, p] = sp.split(":") as [string, string];
    const f = `${dir}/${prefix}.${ph}.${p}.json`;
    if (existsSync(f)) for (const x of JSON.parse(readFileSync(f, "utf8")) as CtxproItem[]) pool.push({ ...x, p });
  }
  return pool;
}

function shuffled<T>(pool: T[], seed: number): T[] {
  let s = seed;
  // Plain double arithmetic (not Math.imul), as in the one-off snippet the judged samples were drawn with.
  const r = () => (s = (s * 1103515245 + 12345) >>> 0) / 4294967296;
  const out = [...pool];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

const ctx = (x: CtxproItem, side: "src" | "ref") => (x["ante distance"] ? `${x[`${side} ante segment`]} || ` : "");
function print(x: Drawn, k: number): void {
  const head = `${k + 1}. [${x.p}] ${x.rule}:`;
  if (ph === "auxiliary") console.log(`${head} ${x["src verb"]} -> **${x.expected}** (ante verb ${x["src ante verb lemma"]}) | ${ctx(x, "src")}${x["src segment"]} | ${ctx(x, "ref")}${x["ref segment"]}`);
  else if (ph === "inflection") console.log(`${head} ${x["src noun"]} -> **${x.expected}** | ${ctx(x, "src")}${x["src segment"]} | ${ctx(x, "ref")}${x["ref segment"]}`);
  else console.log(`${head} ${x["src pronoun"]} -> **${x.expected}** (ante ${x["src ante head"] ?? "-"} -> ${x["ref ante head"] ?? "-"}) | ${ctx(x, "src")}${x["src segment"]} | ${ctx(x, "ref")}${x["ref segment"]}`);
}

const N = Number(n);
const ours = load("ours");
if (!keyFile) {
  shuffled(ours, Number(seed)).slice(0, N).forEach(print);
  console.error(`pool: ${ours.length} items`);
} else {
  const theirs = load("ctxpro");
  const mixed = shuffled(
    [...shuffled(ours, Number(seed)).slice(0, N).map((x) => ({ x, origin: "ours" })), ...shuffled(theirs, Number(seed) + 1).slice(0, N).map((x) => ({ x, origin: "ctxpro" }))],
    Number(seed) + 2,
  );
  mixed.forEach((m, k) => print(m.x, k));
  writeFileSync(keyFile, JSON.stringify(mixed.map((m, k) => ({ n: k + 1, origin: m.origin, pair: m.x.p, document: m.x["document id"], segment: m.x["segment id"] })), null, 1) + "\n");
  console.error(`pools: ours ${ours.length}, ctxpro ${theirs.length} items; key in ${keyFile}`);
}
