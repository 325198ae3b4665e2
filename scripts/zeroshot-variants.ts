/**
 * Zero-shot scoring variants of a masked-pronoun model on a pair file (docs/pretrain.md): mask one
 * pronoun at a time (shipped), mask all the sentence's pronouns at once, and score only the pronoun
 * a pair is about. An experiment, not a product path.
 *
 *   node dist/scripts/zeroshot-variants.js [LM_DIR=checkpoints/pronoun-lm] [PAIRS=out/pretrain/dev2000.jsonl]
 */
// @ts-nocheck -- experiment script kept as run; typed loosely on purpose
import { loadPronounLm } from "../src/pretrain/checkpoint.js";
import { readRankerPairs } from "../src/nn/data.js";
import { preparePairs, accuracyReport } from "../src/nn/evaluate.js";
import { Vocab, PAD_ROW } from "../src/nn/glove.js";
import { pronouns } from "../src/text/pronouns.js";
import { selectBackend } from "../src/nn/backend.js";
import { zeroShotScores } from "../src/pretrain/zeroshot.js";
import { parseArgs } from "./args.js";
const { args } = parseArgs({
  name: "zeroshot-variants",
  summary: "Zero-shot scoring variants of a masked-pronoun model on a pair file (an experiment).",
  options: {},
  positionals: [
    { name: "LM_DIR", description: "masked-pronoun model", optional: true, defaultText: "checkpoints/pronoun-lm" },
    { name: "PAIRS", description: "pair file", optional: true, defaultText: "out/pretrain/dev2000.jsonl" },
  ],
});
await selectBackend("wasm");
const dir = args[0] ?? "checkpoints/pronoun-lm";
const { config, lm } = loadPronounLm(dir);
const pairs = await readRankerPairs(args[1] ?? "out/pretrain/dev2000.jsonl", "crc");
const { pos, neg } = preparePairs(pairs, "crc", config.prepare);
const sides = pos.concat(neg);
const inv = pronouns();
const vocab = new Vocab(lm.table.words);
const prior = lm.logPrior;
const t0 = Date.now();
// mask-all: every sentence pronoun hidden at once; each read at its own position
const jobs = [];
sides.forEach((s, i) => {
  if (!s.pronounPos.length) return;
  const rows = Int32Array.from(s.tokens, (t) => vocab.row(t));
  for (const p of s.pronounPos) rows[p] = PAD_ROW;
  s.pronounPos.forEach((p, k) => jobs.push({ i, k, w: { rows, mask: p, label: inv.indexOf(s.tokens[p]) } }));
});
jobs.sort((a, b) => a.w.rows.length - b.w.rows.length);
const lpAll = sides.map((s) => new Array(s.pronounPos.length).fill(0));
for (let b = 0; b < jobs.length; b += 128) {
  const part = jobs.slice(b, b + 128);
  const lp = lm.logProbs(part.map((j) => j.w));
  part.forEach((j, q) => (lpAll[j.i][j.k] = lp[q]));
}
const one = zeroShotScores(lm, sides);
const n = pairs.length;
const rep = (f) => { const r = accuracyReport(pairs, { pos: Float32Array.from(sides.slice(0, n).map((_, i) => f(i))), neg: Float32Array.from(sides.slice(n).map((_, i) => f(n + i))) }, "crc"); return `all ${r.overall.accuracy.toFixed(2)} ${JSON.stringify(Object.fromEntries(Object.entries(r.byKind).map(([k, v]) => [k, +v.accuracy.toFixed(2)])))}`; };
const pmi = (lps, labels) => lps.reduce((a, x, k) => a + x - (prior ? prior[labels[k]] : 0), 0);
const labels = sides.map((s) => s.pronounPos.map((p) => inv.indexOf(s.tokens[p])));
console.log("mask-one sum", rep((i) => one[i].score));
console.log("mask-one pmi", rep((i) => one[i].pmi));
console.log("mask-all sum", rep((i) => lpAll[i].reduce((a, x) => a + x, 0)));
console.log("mask-all pmi", rep((i) => pmi(lpAll[i], labels[i])));
console.log("mask-all mean pmi", rep((i) => lpAll[i].length ? pmi(lpAll[i], labels[i]) / lpAll[i].length : 0));
console.log("mask-one mean pmi", rep((i) => one[i].logProbs.length ? one[i].pmi / one[i].logProbs.length : 0));
console.log(`${((Date.now() - t0) / 1000).toFixed(0)} s`);
// targeted: only the pronouns the pair is about (pos: ref_pronoun tokens, neg: sys_pronoun tokens)
const sel = (i, want) => { const s = sides[i]; const ws = new Set(want.split(",")); const ks = s.pronounPos.map((p, k) => [k, s.tokens[p].toLowerCase()]).filter(([, t]) => ws.has(t)).map(([k]) => k); return ks; };
const targ = (i, lps, useP) => { const p = pairs[i % n]; const ks = sel(i, i < n ? p.ref_pronoun : p.sys_pronoun); if (!ks.length) return -99; return ks.reduce((a, k) => a + lps[k] - (useP && prior ? prior[labels[i][k]] : 0), 0) / ks.length; };
console.log("targeted mask-one lp", rep((i) => targ(i, one[i].logProbs, false)));
console.log("targeted mask-one pmi", rep((i) => targ(i, one[i].logProbs, true)));
console.log("targeted mask-all lp", rep((i) => targ(i, lpAll[i], false)));
