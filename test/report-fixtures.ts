/**
 * Small synthetic inputs for the report tests, in the exact shapes the commands write (see
 * src/report/inputs.ts). Deterministic (seeded), so sizes and screenshots are stable.
 */
import { rng } from "../src/annotate/perceptron.js";
import type { AptJson, CompareJson, ContrastiveJson, CtxproJson, EvalJson, MetaEvalJson, MudaJson, OnTopJson, PretrainCurveJson, ScoreJson, ScoredSideJson, SuiteJson, TrainCurveJson } from "../src/report/inputs.js";


export function curveJson(epochs = 6): TrainCurveJson {
  const curve = [];
  let best = 0;
  for (let e = 1; e <= epochs; e++) {
    const acc = 0.62 + 0.14 * (1 - Math.exp(-e / 2)) - (e === 5 ? 0.01 : 0);
    const isBest = acc > best;
    if (isBest) best = acc;
    curve.push({ epoch: e, step: e * 400, trainLoss: 0.09 * Math.exp(-e / 3) + 0.01, devAccuracy: acc, devByKind: { system: acc - 0.05, noisy: acc + 0.04 }, seconds: 300 + e, pairsPerSec: 85.5, best: isBest });
  }
  const lossTrace = [];
  for (let s = 20; s <= epochs * 400; s += 20) lossTrace.push({ step: s, loss: 0.09 * Math.exp(-s / 1200) + 0.01 + 0.005 * Math.sin(s / 50) });
  return { curve, lossTrace };
}

export function evalJson(shift = 0): EvalJson {
  const cell = (n: number, acc: number) => {
    const correct = Math.round(n * acc);
    return { n, correct, accuracy: correct / n };
  };
  const pairs: Record<string, ReturnType<typeof cell>> = {};
  const refs = ["it", "he", "she", "they", "his", "her", "him", "them", "its", "their"];
  let k = 0;
  for (const r of refs)
    for (const s of ["it", "he", "they", "she"]) {
      if (r === s) continue;
      pairs[`${r}>${s}`] = cell(400 - 9 * k, 0.55 + ((k * 7) % 40) / 100 + shift);
      k++;
    }
  return {
    signature: "proneval-pronoun|model:glove-bilstm-attention-crc@abcd1234|ctx:crc|keys:128|tie:0.00001|version:0.1.0",
    checkpoint: "checkpoints/default",
    pairsFile: "data/pairs/wmt23.dev.jsonl.gz",
    pairs: 5000,
    overall: cell(5000, 0.74 + shift),
    byKind: { system: cell(3100, 0.7 + shift), noisy: cell(1900, 0.81 + shift) },
    byLang: { de: cell(2100, 0.75 + shift), ru: cell(1500, 0.72 + shift), zh: cell(900, 0.7 + shift), cs: cell(500, 0.78 + shift) },
    byPronounPair: pairs,
    contextMode: "crc",
  };
}

const WORDS = "the minister said that report was late but committee wanted answers before vote on tuesday morning in parliament".split(" ");
const PRONOUNS = ["it", "he", "she", "they", "his", "her", "them"];

function side(r: () => number, ctx: string[], sent: string[]): ScoredSideJson {
  const tokens = ctx.concat(sent);
  const pronouns = sent.flatMap((t, i) => (PRONOUNS.includes(t) ? [i] : [])).map((i) => {
    const raw = tokens.map(() => Math.exp(3 * r()));
    const z = raw.reduce((a, b) => a + b, 0);
    return { token: sent[i]!, index: i, score: r() * 2 - 0.5, attention: raw.map((x) => x / z) };
  });
  return { score: pronouns.reduce((a, p) => a + p.score, 0) / Math.max(1, pronouns.length), pronouns, tokens, sentStart: ctx.length, truncatedContext: 0 };
}

function sentence(r: () => number, len: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < len; i++) out.push(r() < 0.18 ? PRONOUNS[Math.floor(r() * PRONOUNS.length)]! : WORDS[Math.floor(r() * WORDS.length)]!);
  return out;
}

/** A score file: `systems` systems over `segments` segments (10 per document), with scored sides when `sides`. */
export function scoreJson(systems: number, segments: number, opts: { sides?: boolean; seed?: number; ctxLen?: number; sentLen?: number } = {}): ScoreJson {
  const r = rng(opts.seed ?? 7);
  const ctxLen = opts.ctxLen ?? 24;
  const sentLen = opts.sentLen ?? 12;
  const refs = Array.from({ length: segments }, () => sentence(r, sentLen));
  const refSides = refs.map((s, i) => side(r, refs.slice(Math.max(0, i - 2), i).flat().slice(-ctxLen), s));
  const out: ScoreJson = {
    signature: "proneval-pronoun|model:glove-bilstm-attention-crc@abcd1234|ctx:crc|keys:128|ref:ref-A|tie:0.00001|version:0.1.0",
    checkpoint: "checkpoints/default",
    context: "crc",
    reference: "ref-A",
    testSet: { name: "wmt23.de-en.fixture", langPair: "de-en", format: "wmt-xml", documentIds: true },
    systemScoreDefinition: "score = 100 * share of pronoun segments (reference or system has a pronoun) where the system's score is not below the reference's (sys >= ref - 1e-5); meanDiff = mean(sys - ref) over those segments",
    systems: [],
  };
  for (let s = 0; s < systems; s++) {
    const quality = 0.35 + (0.5 * (systems - s)) / systems;
    const segs = refs.map((ref, i) => {
      const hyp = r() < quality ? ref.slice() : ref.map((t) => (PRONOUNS.includes(t) && r() < 0.7 ? PRONOUNS[Math.floor(r() * PRONOUNS.length)]! : t));
      const refSide = refSides[i]!;
      const sysSide = hyp.join(" ") === ref.join(" ") ? refSide : side(r, refSide.tokens.slice(0, refSide.sentStart), hyp);
      const has = refSide.pronouns.length > 0 || sysSide.pronouns.length > 0;
      const g = {
        doc: `doc${Math.floor(i / 10) + 1}`,
        seg: String((i % 10) + 1),
        index: i,
        status: has ? ("scored" as const) : ("no-pronoun" as const),
        ref: has ? refSide.score : null,
        sys: has ? sysSide.score : null,
        diff: has ? sysSide.score - refSide.score : null,
        refPronouns: refSide.pronouns.map((p) => p.token),
        sysPronouns: sysSide.pronouns.map((p) => p.token),
        ...(opts.sides ? { refSide, sysSide } : {}),
      };
      return g;
    });
    const scored = segs.filter((g) => g.status === "scored");
    const notBelow = scored.length ? scored.filter((g) => g.sys! >= g.ref! - 1e-5).length / scored.length : 0;
    out.systems.push({
      system: `system-${String.fromCharCode(65 + (s % 26))}${s >= 26 ? s : ""}`,
      summary: {
        segments: segs.length,
        pronounSegments: scored.length,
        noPronounSegments: segs.length - scored.length,
        notBelow,
        meanDiff: scored.length ? scored.reduce((a, g) => a + g.diff!, 0) / scored.length : 0,
        score: 100 * notBelow,
      },
      segments: segs,
    });
  }
  return out;
}

export function compareJson(): CompareJson {
  const cmp = (system: string, score: number, baselineScore: number, ci95: [number, number], p: number, wins: [number, number, number]) => ({
    baseline: "system-A",
    system,
    pronounSegments: wins[0] + wins[1] + wins[2],
    score,
    baselineScore,
    delta: score - baselineScore,
    meanDiff: 0.041,
    wins: { system: wins[0], baseline: wins[1], ties: wins[2] },
    bootstrap: { samples: 1000, seed: 12345, ci95, p },
    cohensH: 0.1,
    verdict: p < 0.05 ? (score > baselineScore ? "better" : "worse") : "n.s.",
  });
  return {
    kind: "proneval-compare",
    version: 2,
    signature: "proneval-pronoun|...|bootstrap:1000|seed:12345|alpha:0.05|version:0.1.0",
    aggregate: "mean",
    baseline: "system-A",
    alpha: 0.05,
    bootstrap: { samples: 1000, seed: 12345 },
    systems: [
      { system: "system-A", pronounSegments: 178, score: 76.5 },
      { system: "system-B", pronounSegments: 175, score: 81.0 },
      { system: "system-C", pronounSegments: 179, score: 75.9 },
    ],
    comparisons: [cmp("system-B", 81.2, 76.5, [0.6, 8.9], 0.031, [70, 48, 62]), cmp("system-C", 75.8, 76.4, [-4.1, 2.9], 0.71, [40, 44, 98])],
  };
}

export function ctxproJson(set: string, systems: string[], seed = 3): CtxproJson {
  const r = rng(seed);
  const rules = ["er", "sie", "es", "ihn", "ihm", "ihr", "sein", "seine"];
  const items = 240;
  const sys = systems.map((name, k) => {
    const perRule = rules.map((rule, ri) => {
      const total = 60 - 6 * ri;
      const correct = Math.round(total * (0.35 + 0.12 * k + 0.3 * r()));
      return { rule: `DE_${rule.toUpperCase()}`, form: rule, correct: Math.min(total, correct), total, accuracy: (100 * Math.min(total, correct)) / total };
    });
    const correct = Math.round(items * (0.42 + 0.1 * k + 0.05 * r()));
    return { name, correct, total: items, accuracy: (100 * correct) / items, perRule };
  });
  return {
    evalSet: set,
    items,
    options: { lastSentence: true, separator: null, lang: "de", match: "word" },
    systems: sys,
    bootstrap: {
      samples: 1000,
      seed: 12345,
      systems: sys.map((s) => ({ name: s.name, accuracy: s.accuracy, ci: [s.accuracy - 5.5, s.accuracy + 5.8] as [number, number] })),
      comparisons: sys.slice(1).map((s) => ({ baseline: sys[0]!.name, system: s.name, delta: s.accuracy - sys[0]!.accuracy, ci: [s.accuracy - sys[0]!.accuracy - 6, s.accuracy - sys[0]!.accuracy + 6] as [number, number], p: 0.012 })),
    },
  };
}

export function suiteJson(systems = 3): SuiteJson {
  const items = 120;
  const types = { gender: 40, number: 30, case: 20, possessive: 18, other: 12 };
  const verdictKinds = ["aligned-correct", "count-correct", "aligned-other-pronoun", "aligned-error", "count-wrong"];
  const r = rng(11);
  const sys = Array.from({ length: systems }, (_, k) => {
    const byType: SuiteJson["systems"][number]["byType"] = {};
    let correct = 0;
    for (const [t, n] of Object.entries(types)) {
      const c = Math.round(n * (0.4 + 0.15 * k + 0.2 * r()));
      byType[t] = { correct: c, total: n, accuracy: (100 * c) / n };
      correct += c;
    }
    const verdicts = Array.from({ length: items }, (_, i) => (i < correct ? verdictKinds[i % 2]! : verdictKinds[2 + (i % 3)]!));
    return { name: `sys${k + 1}`, file: `out/sys${k + 1}.txt`, accuracy: (100 * correct) / items, correct, total: items, byType, knownErrors: verdicts.filter((v) => v === "aligned-error").length, verdicts, ranker: { notBelowReference: 50 + 10 * k, meanDiff: -0.1 + 0.05 * k, diffs: [] } };
  });
  return {
    kind: "proneval-suite-score",
    version: 1,
    suite: "suite.de-en.json.gz",
    lang: "de",
    items,
    systems: sys,
    bootstrap: {
      samples: 1000,
      seed: 12345,
      systems: sys.map((s) => ({ name: s.name, accuracy: s.accuracy, ci: [s.accuracy - 8, s.accuracy + 8] as [number, number] })),
      comparisons: sys.slice(1).map((s) => ({ baseline: "sys1", system: s.name, delta: s.accuracy - sys[0]!.accuracy, ci: [s.accuracy - sys[0]!.accuracy - 9, s.accuracy - sys[0]!.accuracy + 9] as [number, number], p: 0.04 })),
    },
  };
}

/** Paired bootstrap in src/stats/bootstrap.ts's shape: values with intervals, differences to the first. */
function statsBootstrap(names: string[], values: number[], width: number) {
  return {
    samples: 1000,
    seed: 12345,
    systems: names.map((name, i) => ({ name, value: values[i]!, ci: [values[i]! - width, values[i]! + width] as [number, number], mean: values[i]! })),
    comparisons: names.slice(1).map((name, i) => ({ baseline: names[0]!, system: name, delta: values[i + 1]! - values[0]!, ci: [values[i + 1]! - values[0]! - width, values[i + 1]! - values[0]! + width] as [number, number], p: i % 2 ? 0.31 : 0.002 })),
  };
}

export function aptJson(): AptJson {
  const names = ["ONLINE-A", "NLLB_Greedy", "GPT4-5shot"];
  const scores = [0.7843, 0.6533, 0.8012];
  return {
    signature: "apt|pair:de-en|mode:target-en|weights:1,0.5,0,0,0,0|equiv:builtin|align:fast_align-gdfa-per-system|bootstrap:1000|seed:12345|version:0.1.0",
    mode: "target-en",
    srcLang: "de",
    tgtLang: "en",
    segments: 549,
    weights: [1, 0.5, 0, 0, 0, 0],
    systems: names.map((name, i) => ({ name, cases: [1288 - 100 * i, 20, 272, 75, 0, 0], unanchored: 331, score: scores[i]!, byPronoun: {} })),
    bootstrap: statsBootstrap(names, scores, 0.02),
  };
}

export function mudaJson(): MudaJson {
  const names = ["AIRC", "GPT4-5shot"];
  const labels = ["all", "lexical", "formality", "pronouns", "ellipsis", "no_tag"];
  const f = (s: number, l: number) => 0.5 + 0.07 * l + 0.1 * s;
  return {
    signature: "muda|pair:en-de|ref:refA|tags:all,lexical,formality,pronouns,ellipsis,no_tag|tagger:proneval-morph|align:fast_align-gdfa|align-corpus:ref+2-outputs|bootstrap:1000|seed:12345|version:0.1.0",
    testset: "generaltest2023",
    langPair: "en-de",
    reference: "refA",
    tags: ["lexical", "formality", "pronouns", "ellipsis"],
    referenceCounts: { segments: 557, tokens: 13000, taggedTokens: 2100, tags: { lexical: 1500, formality: 120, pronouns: 400, ellipsis: 80 } },
    systems: names.map((name, s) => ({ name, labels: labels.map((label, l) => ({ label, f: f(s, l), recall: f(s, l), precision: f(s, l), refCount: 100, hypCount: 100 })) })),
    bootstrap: Object.fromEntries(labels.map((l, k) => [l, statsBootstrap(names, names.map((_, s) => f(s, k)), 0.03)])),
  };
}

export function contrastiveJson(): ContrastiveJson {
  const result = (system: string, acc: number) => ({
    set: "deixis_dev",
    system,
    overall: { items: 500, correct: Math.round(5 * acc), accuracy: acc, chance: 50 },
    byDistance: ["1", "2", "3"].map((key, k) => ({ key, items: 170 - k * 5, correct: Math.round(((170 - k * 5) * (acc - k)) / 100), accuracy: acc - k, chance: 50 })),
    ties: 0,
  });
  return {
    set: "deixis_dev",
    file: "deixis_dev.json.gz",
    signature: "contrastive|set:deixis_dev|scores:lower-better|scoring-data:checked|bootstrap:1000|seed:12345|version:0.1.0",
    results: [result("sentence-level", 60.6), result("context-aware", 69.0)],
    bootstrap: statsBootstrap(["sentence-level", "context-aware"], [60.6, 69.0], 4),
  };
}

export function metaEvalJson(): MetaEvalJson {
  const cell = (n: number, acc: number) => ({ n, correct: Math.round(n * acc), accuracy: Math.round(n * acc) / n });
  const report = (name: string, shift: number) => ({
    name,
    kind: "zero-shot",
    signature: `proneval-pronoun|model:${name}@abcd1234|ctx:crc|agg:mean|keys:128|tie:0.00001|backend:wasm|version:0.1.0`,
    pairs: [{ file: "out/pairs/dev.jsonl.gz", pairs: 7804, overall: cell(7804, 0.8 + shift), system: cell(3100, 0.74 + shift), noisy: cell(4704, 0.84 + shift), balanced: { accuracy: 0.7 + shift } }],
    judged: { items: 420, decided: 296, accuracy: 0.86 + shift, ac1: 0.6 + shift },
  });
  const m = (measure: string, a: number, b: number) => ({
    measure,
    scorers: [
      { name: "pronoun-lm-news", value: a, lo: a - 0.03, hi: a + 0.03 },
      { name: "default", value: b, lo: b - 0.04, hi: b + 0.04, delta: b - a, p: 0.001 },
    ],
  });
  return {
    aggregate: "mean",
    mode: "sentence",
    reports: [report("pronoun-lm-news", 0), report("default", -0.1)],
    significance: { draws: 1000, seed: 1, baseline: "pronoun-lm-news", measures: [m("out/pairs/dev.jsonl.gz: R vs S", 0.74, 0.64), m("out/pairs/dev.jsonl.gz: R vs R'", 0.84, 0.74), m("judged: accuracy", 0.86, 0.76), m("judged: AC1", 0.6, 0.5)] },
  };
}

/** `pretrain`'s curve.json: an evaluation every 500 steps. */
export function pretrainCurveJson(points = 8): PretrainCurveJson {
  return {
    curve: Array.from({ length: points }, (_, k) => {
      const step = 500 * (k + 1);
      const acc = 0.6 + 0.15 * (1 - Math.exp(-k / 3));
      return { step, epoch: step / 4000, loss: 2.5 * Math.exp(-k / 4) + 0.8, seconds: 900 * (k + 1), tokensPerSec: 5200, dev: { overall: acc, pairs: 2000, pmi: { overall: acc + 0.03 } } };
    }),
  };
}

/** `pretrain-ontop --json`: zero-shot, then one eval report per epoch. */
export function onTopJson(): OnTopJson {
  const ev = evalJson(-0.05);
  return { signature: "proneval-ontop|lm:pronoun-lm@abcd1234|variant:frozen+lp|epochs:2|lr:1e-3|seed:1|train-pairs:3000|dev:dev.jsonl.gz|version:0.1.0", variant: "frozen+lp", zeroShotDev: ev, dev: [evalJson(-0.02), evalJson(0)], trainPairs: 3000 };
}
