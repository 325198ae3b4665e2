/**
 * Training pairs an identity prior cannot pay off on:
 *  1. mined pairs of the train years built with `pairs --keep-all`, the R vs R' (noisy) ones reweighted so that each
 *     ordered pronoun pair counts as much as its reverse: for {x, y} seen n_xy and n_yx times, each direction keeps
 *     min(n_xy, n_yx) pairs (seeded draw); a pronoun pair seen in one direction only keeps no noisy pair (all it can
 *     teach is which pronoun usually wins). R vs S pairs are kept as they are.
 *  2. synthetic substitution pairs from the train years' reference documents (never the dev year): every sentence
 *     with a pronoun x of a confusable pair {x, y} (both directions mined at least --min-confusion times) gives
 *     positive = the sentence, negative = x replaced by y, context = the two previous reference sentences; at most
 *     --per-direction pairs per ordered (x, y), drawn with a seeded reservoir, so x is right in some contexts and y
 *     in others.
 * Usage: node dist/scripts/make-balanced-pairs.js --keep-all out/pairs-all/train.jsonl.gz --wmt ../shared/data/wmt \
 *          --out out/pairs-balanced/train.jsonl.gz [--per-direction 150] [--min-confusion 3] [--seed 1]
 */
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { AtomicLineWriter } from "../src/io/atomic.js";
import { mulberry32 } from "../src/core/prng.js";
import { loadInputs } from "../src/mine/run.js";
import { substituteCase } from "../src/mine/pairs.js";
import type { PairRecord } from "../src/core/pair-format.js";
import { readRankerPairs } from "../src/nn/data.js";
import { pronouns } from "../src/text/pronouns.js";
import { tokenize } from "../src/text/tokenize.js";
import { int, parseArgs, str } from "./args.js";

const { opts } = parseArgs({
  name: "make-balanced-pairs",
  summary: "Training pairs an identity prior cannot pay off on: mined pairs balanced per ordered pronoun pair, plus synthetic substitutions.",
  options: {
    keepAll: str("mined pairs of the train years (`pairs --keep-all`)", "out/pairs-all/train.jsonl.gz", { value: "FILE" }),
    wmt: str("the WMT folder (wmt21, wmt22 references)", "../shared/data/wmt", { value: "DIR" }),
    out: str("the pair file to write", "out/pairs-balanced/train.jsonl.gz", { value: "FILE" }),
    perDirection: int("synthetic pairs per ordered pronoun pair, at most", 150),
    minConfusion: int("mined confusions in each direction that make a pair confusable", 3),
    seed: int("seed", 1),
  },
});
const keepAll = opts.keepAll;
const wmt = opts.wmt;
const out = opts.out;
const perDirection = opts.perDirection;
const minConfusion = opts.minConfusion;
const seed = opts.seed;
const rnd = mulberry32(seed);

const mined = await readRankerPairs(keepAll, "crc");
const dirCount = new Map<string, number>();
for (const p of mined) if (p.kind === "noisy") dirCount.set(`${p.ref_pronoun}>${p.sys_pronoun}`, (dirCount.get(`${p.ref_pronoun}>${p.sys_pronoun}`) ?? 0) + 1);
const rev = (k: string): string => k.split(">").reverse().join(">");

// 1. Mined pairs, noisy ones balanced per ordered pronoun pair.
const byDir = new Map<string, PairRecord[]>();
const kept: PairRecord[] = [];
for (const p of mined) {
  if (p.kind === "system") kept.push(p);
  else {
    const k = `${p.ref_pronoun}>${p.sys_pronoun}`;
    if (!byDir.has(k)) byDir.set(k, []);
    byDir.get(k)!.push(p);
  }
}
let noisyKept = 0;
for (const [k, list] of [...byDir].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
  const m = Math.min(list.length, dirCount.get(rev(k)) ?? 0);
  for (let i = 0; i < m; i++) {
    const j = i + Math.floor(rnd() * (list.length - i));
    [list[i], list[j]] = [list[j]!, list[i]!];
    kept.push(list[i]!);
    noisyKept++;
  }
}

// 2. Synthetic substitutions over the confusable pairs.
const confusable = new Map<string, string[]>();
for (const [k, n] of dirCount) {
  const [x, y] = k.split(">") as [string, string];
  if (n >= minConfusion && (dirCount.get(rev(k)) ?? 0) >= minConfusion) {
    if (!confusable.has(x)) confusable.set(x, []);
    confusable.get(x)!.push(y);
  }
}
for (const v of confusable.values()) v.sort();
const inv = pronouns();
const reservoir = new Map<string, { seen: number; items: PairRecord[] }>();
const testsets = await loadInputs(["wmt21", "wmt22"].map((y) => join(wmt, y)));
for (const ts of testsets) {
  const refName = ts.references[0];
  if (!refName) continue;
  for (const d of ts.docs) {
    const refs = d.refs[refName]!;
    refs.forEach((sentence, i) => {
      for (const t of tokenize(sentence)) {
        const x = t.text.toLowerCase();
        if (!inv.has(x)) continue;
        for (const y of confusable.get(x) ?? []) {
          const original = sentence.slice(t.start, t.end);
          const negative = sentence.slice(0, t.start) + substituteCase(sentence, t.start, original, y) + sentence.slice(t.end);
          if (negative === sentence) continue;
          const rec: PairRecord = {
            id: `Y:${ts.name}/${ts.langPair}/${d.id}/${d.segIds[i]}/${t.start}/${y}`,
            lang: ts.srcLang,
            context: refs.slice(Math.max(0, i - 2), i),
            positive: sentence,
            negative,
            kind: "noisy",
            ref_pronoun: x,
            sys_pronoun: y,
            origin: `${ts.name}/${ts.langPair}/${d.id}/${d.segIds[i]}/synthetic`,
            split: "train",
            context_mode: "crc",
          };
          const key = `${x}>${y}`;
          const r = reservoir.get(key) ?? { seen: 0, items: [] };
          r.seen++;
          if (r.items.length < perDirection) r.items.push(rec);
          else {
            const j = Math.floor(rnd() * r.seen);
            if (j < perDirection) r.items[j] = rec;
          }
          reservoir.set(key, r);
        }
      }
    });
  }
}
let synthetic = 0;
for (const [, r] of [...reservoir].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
  kept.push(...r.items);
  synthetic += r.items.length;
}
// Shuffle so that batches mix mined and synthetic pairs.
for (let i = kept.length - 1; i > 0; i--) {
  const j = Math.floor(rnd() * (i + 1));
  [kept[i], kept[j]] = [kept[j]!, kept[i]!];
}
mkdirSync(dirname(out), { recursive: true });
const w = new AtomicLineWriter(out);
for (const p of kept) w.write(JSON.stringify(p));
w.commit();
process.stderr.write(
  `${kept.length} pairs -> ${out}: ${kept.length - noisyKept - synthetic} mined R vs S, ${noisyKept} mined R vs R' (balanced from ${[...byDir.values()].reduce((s, l) => s + l.length, 0)}), ` +
    `${synthetic} synthetic over ${reservoir.size} ordered pronoun pairs (${confusable.size} pronouns with confusions)\n`,
);
