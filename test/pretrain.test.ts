import { describe, it, expect, beforeAll } from "vitest";
import { mkdtempSync, writeFileSync, readFileSync, mkdirSync, existsSync, readdirSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildCorpus, novelSentences, rejectReason } from "../src/pretrain/corpus.js";
import { loadPretrainData, makeWindow, epochBatches, readConfusions, replaceWindow } from "../src/pretrain/data.js";
import { replacedScores } from "../src/pretrain/replaced.js";
import { pronouns } from "../src/text/pronouns.js";
import { pretrain } from "../src/pretrain/train.js";
import { PRETRAIN_DEFAULTS } from "../src/pretrain/defaults.js";
import { loadPronounLm } from "../src/pretrain/checkpoint.js";
import { zeroShotScores } from "../src/pretrain/zeroshot.js";
import { loadZeroShotScorer } from "../src/pretrain/scorer.js";
import { scoreSidesWith } from "../src/core/scorer.js";
import { signature } from "../src/metric/testset.js";
import { trainOnTop } from "../src/ontop/train.js";
import { registerPretrainOnTop } from "../src/cli/pretrain.js";
import { runCli } from "./cli-helper.js";
import { writeEmbeddingTable, Vocab, type EmbeddingTable } from "../src/nn/glove.js";
import { prepareSide } from "../src/nn/inputs.js";
import { selectBackend } from "../src/nn/backend.js";
import { Rng } from "../src/core/prng.js";
import { decodeHalf, encodeHalf } from "../src/nn/fp16.js";

const dir = mkdtempSync(join(tmpdir(), "proneval-pretrain-"));

const NOVEL = `Chapter 1

Anne walked to the house. She saw her sister there, and he
greeted them both.  It was late.

They talked for hours. We never knew what they said to him.
`;

function tinyTable(words: string[]): EmbeddingTable {
  const rng = new Rng(3);
  const dim = 8;
  const v = new Float32Array((words.length + 2) * dim);
  for (let i = dim; i < v.length; i++) v[i] = rng.next() - 0.5;
  return { dim, words, vectors: decodeHalf(encodeHalf(v)), source: "test" };
}

describe("pretraining corpus", () => {
  it("splits novels into tokenised sentences across wrapped lines", () => {
    const s = novelSentences(NOVEL);
    expect(s).toContain("Anne walked to the house .");
    expect(s).toContain("She saw her sister there , and he greeted them both .");
    expect(s).toContain("It was late .");
  });

  it("rejects empty and non-English texts", () => {
    expect(rejectReason([])).toMatch(/empty/);
    expect(rejectReason(["Der Hund lief schnell über die Wiese und bellte laut , weil er Hunger hatte , sagte man uns damals im Dorf ."])).toMatch(/not English/);
    expect(rejectReason(["It was the best of times , it was the worst of times , it was the age of wisdom ."])).toBeNull();
  });

  it("builds from LitBank-like and GUM-like files, skipping bad ones with counts", async () => {
    const lit = join(dir, "lit");
    mkdirSync(lit);
    writeFileSync(join(lit, "1_novel.txt.gz"), gzipSync(NOVEL));
    writeFileSync(join(lit, "2_empty.txt"), "");
    writeFileSync(join(lit, "3_binary.txt"), Buffer.from([0x41, 0x00, 0x42, 0x00]));
    writeFileSync(join(lit, "4_german.txt"), "Der Hund lief schnell über die Wiese und bellte laut, weil er Hunger hatte, sagte man uns damals im Dorf.\n");
    const gum = join(dir, "gum");
    mkdirSync(gum);
    writeFileSync(join(gum, "GUM_x.conllu"), "# newdoc id = x\n# text = He left it.\n1\tHe\the\tPRON\t_\t_\t2\tnsubj\t_\t_\n2\tleft\tleave\tVERB\t_\t_\t0\troot\t_\t_\n3\tit\tit\tPRON\t_\t_\t2\tobj\t_\tSpaceAfter=No\n4\t.\t.\tPUNCT\t_\t_\t2\tpunct\t_\t_\n\n");
    const out = join(dir, "corpus.jsonl.gz");
    const stats = await buildCorpus({ litbank: lit, gum }, out);
    expect(stats.bySource.litbank!.docs).toBe(1);
    expect(stats.bySource.gum!.docs).toBe(1);
    expect(stats.skipped.map((s) => s.reason).join("|")).toMatch(/empty.*binary.*not English/);
    const docs = readFileSync(out);
    expect(docs[0]).toBe(0x1f); // gzipped
    await expect(buildCorpus({ wmt: [join(dir, "wmt23")] }, join(dir, "bad.jsonl"))).rejects.toThrow(/wmt23/);
    expect(existsSync(join(dir, "bad.jsonl"))).toBe(false);
  });

  it("adds English sources of en-X test sets once per document, without the dev year's into-English sentences", async () => {
    const year = (name: string, files: Record<string, string>): string => {
      const root = join(dir, name);
      for (const [rel, text] of Object.entries(files)) {
        mkdirSync(join(root, "txt", rel.split("/")[0]!), { recursive: true });
        writeFileSync(join(root, "txt", rel), text);
      }
      return root;
    };
    const src = "The minister said he would resign .\nShe denied it .\nThey met in Paris .\n";
    const w22 = year("news22", {
      "sources/newstest2022.en-de.src.en": src,
      "references/newstest2022.en-de.ref.A.de": "a\nb\nc\n",
      "sources/newstest2022.en-ru.src.en": src,
      "references/newstest2022.en-ru.ref.A.ru": "a\nb\nc\n",
    });
    const w23 = year("wmt23", {
      "sources/generaltest2023.de-en.src.de": "x\n",
      "references/generaltest2023.de-en.ref.A.en": "She denied it.\n",
    });
    const out = join(dir, "news.jsonl");
    const stats = await buildCorpus({ wmtEnSources: [w22], exclude: [w23] }, out);
    expect(stats.bySource["wmt-en-src"]).toMatchObject({ docs: 1, sentences: 2 });
    const doc = JSON.parse(readFileSync(out, "utf8").trim());
    expect(doc.sents).toEqual(["The minister said he would resign .", "They met in Paris ."]);
  });
  it("reads modern prose folders: one paragraph a line, documents split at blank lines, pronoun slots counted", async () => {
    const nw = join(dir, "news-wiki");
    mkdirSync(nw);
    writeFileSync(
      join(nw, "news-a.txt.gz"),
      gzipSync("The minister said she would resign. Her party asked her to stay.\nThey met in Paris on Monday.\n\nThe bank raised its rates. It said the move was expected.\n"),
    );
    const out = join(dir, "modern.jsonl");
    const stats = await buildCorpus({ newsWiki: nw }, out);
    expect(stats.bySource["news-wiki/news-a"]).toMatchObject({ docs: 2, sentences: 5, pronounSentences: 5, pronounSlots: 6 });
    const docs = readFileSync(out, "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(docs.map((d) => d.id)).toEqual(["news-wiki/news-a/1", "news-wiki/news-a/2"]);
    expect(docs[1].sents).toEqual(["The bank raised its rates .", "It said the move was expected ."]);
  });

  it("stops on a modern prose file that is not UTF-8, naming file and line, and writes nothing", async () => {
    const nw = join(dir, "news-bad");
    mkdirSync(nw);
    writeFileSync(join(nw, "bad.txt"), Buffer.concat([Buffer.from("Fine line one.\nSecond line "), Buffer.from([0xff, 0xfe]), Buffer.from(" here.\n")]));
    const out = join(dir, "modern-bad.jsonl");
    await expect(buildCorpus({ newsWiki: nw }, out)).rejects.toThrow(/bad\.txt:2: invalid UTF-8/);
    expect(existsSync(out)).toBe(false);
  });
});

describe("masked-pronoun data and training", () => {
  const corpus = join(dir, "train.jsonl");
  const words = ["i", "he", "it", "she", "they", "her", "him", "them", "we", "you", "the", "house", "saw", "walked", "to", "sister", "."];
  beforeAll(async () => {
    await selectBackend("cpu");
    const lines: string[] = [];
    for (let d = 0; d < 6; d++)
      lines.push(JSON.stringify({ id: `d${d}`, source: "t", sents: ["she walked to the house .", "the sister saw him .", "he saw her .", "they saw the house .", "it walked to them ."] }));
    writeFileSync(corpus, lines.join("\n") + "\n");
  });

  it("windows keep context within the document and mask the right pronoun", async () => {
    const vocab = new Vocab(words);
    const d = await loadPretrainData(corpus, vocab, 128);
    expect(d.targets.length).toBe(30); // every sentence has a pronoun
    const w = makeWindow(d, 2, 1, 128, 2); // "he saw her ." with 2 previous sentences, pronoun "her"
    expect(w.rows.length).toBe(6 + 5 + 4);
    expect(w.label).toBe(18); // index of "her" in data/pronouns.json
    expect(w.rows[w.mask]).toBe(vocab.row("her"));
    const first = makeWindow(d, 5, 0, 128, 2); // first sentence of doc 2: no context from doc 1
    expect(first.rows.length).toBe(6);
    const tight = makeWindow(d, 2, 0, 6, 2); // maxLen cuts the context from the left
    expect(tight.rows.length).toBe(6);
    expect(tight.rows[tight.mask]).toBe(vocab.row("he"));
    // epoch order depends on (seed, epoch) only
    expect(epochBatches(d, 3, 1, 4, 128, 2)).toEqual(epochBatches(d, 3, 1, 4, 128, 2));
    expect(epochBatches(d, 3, 1, 4, 128, 2)).not.toEqual(epochBatches(d, 4, 1, 4, 128, 2));
  });

  const run = async (out: string, maxSteps: number, resume: boolean) => {
    mkdirSync(out, { recursive: true });
    if (!existsSync(join(out, "embeddings.bin"))) writeEmbeddingTable(join(out, "embeddings.bin"), tinyTable(words));
    return pretrain({ ...PRETRAIN_DEFAULTS, corpus, out, hidden: 6, batchSize: 4, checkpointEvery: 2, evalEvery: 1000, maxSteps, resume, backend: "cpu", dev: undefined }, () => {});
  };

  it("a resumed run ends with the same weights as an uninterrupted one", async () => {
    const a = join(dir, "a");
    const b = join(dir, "b");
    const ra = await run(a, 20, false); // 30 targets / batch 4 = 8 batches per epoch: crosses epochs
    await run(b, 9, false);
    const rb = await run(b, 20, true);
    expect(rb.steps).toBe(20);
    expect(readFileSync(join(b, "weights.bin")).equals(readFileSync(join(a, "weights.bin")))).toBe(true);
    const losses = ra.curve.filter((c) => Number.isFinite(c.loss)).map((c) => c.loss);
    expect(losses.length).toBeGreaterThan(0);
    const curve = JSON.parse(readFileSync(join(a, "curve.json"), "utf8"));
    expect(curve.curve.length).toBe(ra.curve.length);
    await expect(pretrain({ ...PRETRAIN_DEFAULTS, corpus, out: b, hidden: 7, batchSize: 4, maxSteps: 25, resume: true, backend: "cpu" }, () => {})).rejects.toThrow(/cannot resume/);
  });

  it("--keep-snapshots keeps the model of every evaluation, equal to the run's model at that step", async () => {
    const c = join(dir, "c");
    const d = join(dir, "d");
    mkdirSync(c, { recursive: true });
    writeEmbeddingTable(join(c, "embeddings.bin"), tinyTable(words));
    await pretrain({ ...PRETRAIN_DEFAULTS, corpus, out: c, hidden: 6, batchSize: 4, checkpointEvery: 2, evalEvery: 5, maxSteps: 12, backend: "cpu", dev: undefined, keepSnapshots: true }, () => {});
    expect(readdirSync(join(c, "snapshots")).sort()).toEqual(["step-10", "step-5"]);
    await run(d, 10, false);
    expect(readFileSync(join(c, "snapshots", "step-10", "weights.bin")).equals(readFileSync(join(d, "weights.bin")))).toBe(true);
    expect(loadPronounLm(join(c, "snapshots", "step-5")).config.training.step).toBe(5);
  });

  it("--init continues from a saved model: its weights and vocabulary, a fresh optimiser; another shape is refused before anything is written", async () => {
    const from = join(dir, "init-from");
    await run(from, 9, false);
    const start = loadPronounLm(from);
    const cont = join(dir, "init-cont");
    // A learning rate so small that one step leaves the weights where --init put them.
    await pretrain({ ...PRETRAIN_DEFAULTS, corpus, out: cont, init: from, hidden: 6, batchSize: 4, lr: 1e-12, evalEvery: 1000, maxSteps: 1, backend: "cpu", dev: undefined }, () => {});
    const got = loadPronounLm(cont);
    expect(readFileSync(join(cont, "embeddings.bin")).equals(readFileSync(join(from, "embeddings.bin")))).toBe(true);
    expect(got.config.training.init).toEqual({ dir: from, weightsSha256: start.config.files.weights.sha256 });
    const fresh = join(dir, "init-fresh");
    mkdirSync(fresh, { recursive: true });
    writeEmbeddingTable(join(fresh, "embeddings.bin"), tinyTable(words));
    await pretrain({ ...PRETRAIN_DEFAULTS, corpus, out: fresh, hidden: 6, batchSize: 4, lr: 1e-12, evalEvery: 1000, maxSteps: 1, backend: "cpu", dev: undefined }, () => {});
    const random = loadPronounLm(fresh);
    for (const [name, t] of start.lm.allParams()) {
      const a = t.dataSync();
      const b = got.lm.allParams().get(name)!.dataSync();
      const r = random.lm.allParams().get(name)!.dataSync();
      let dStart = 0;
      let dRandom = 0;
      for (let i = 0; i < a.length; i++) {
        dStart = Math.max(dStart, Math.abs(a[i]! - b[i]!));
        dRandom = Math.max(dRandom, Math.abs(r[i]! - b[i]!));
      }
      expect(dStart, name).toBeLessThan(1e-6);
      if (!name.endsWith("b") && !name.endsWith("bf") && !name.endsWith("bb")) expect(dRandom, name).toBeGreaterThan(1e-3);
    }
    for (const m of [start, got, random]) m.lm.dispose();
    const other = join(dir, "init-other");
    await expect(pretrain({ ...PRETRAIN_DEFAULTS, corpus, out: other, init: from, hidden: 7, batchSize: 4, maxSteps: 1, backend: "cpu", dev: undefined }, () => {})).rejects.toThrow(
      /--init: cannot continue from this model: it is a BiLSTM 1 x 6, this command asks for a BiLSTM 1 x 7/,
    );
    expect(existsSync(other)).toBe(false);
    // A run folder whose vocabulary is not the starting model's.
    writeEmbeddingTable(join(cont, "embeddings.bin"), tinyTable([...words, "extra"]));
    await expect(pretrain({ ...PRETRAIN_DEFAULTS, corpus, out: cont, init: from, hidden: 6, batchSize: 4, maxSteps: 2, resume: true, backend: "cpu", dev: undefined }, () => {})).rejects.toThrow(
      /embeddings\.bin is not the vocabulary of the --init model/,
    );
  });

  it("replaced objective: swaps follow the real confusions, training learns to detect them, resume is exact", async () => {
    const pairsFile = join(dir, "conf.jsonl");
    const rec = (ref: string, sys: string, kind = "system") => JSON.stringify({ id: "x", lang: "de", context: [], positive: "a", negative: "b", kind, ref_pronoun: ref, sys_pronoun: sys, origin: "o" });
    writeFileSync(pairsFile, [rec("he", "she"), rec("he", "she"), rec("he,her", "it,him"), rec("they", "you", "noisy")].join("\n") + "\n");
    const conf = await readConfusions(pairsFile);
    expect(conf.pairs).toBe(4); // he>she x2, he>it, her>him; the noisy pair is not a system confusion
    const vocab = new Vocab(words);
    const d = await loadPretrainData(corpus, vocab, 128);
    const rowsOf = Int32Array.from(pronouns().list, (p) => vocab.row(p.pronoun));
    const w = makeWindow(d, 2, 0, 128, 2); // "he" of "he saw her ."
    const rng = new Rng(3);
    const seen = new Map<number, number>();
    for (let i = 0; i < 400; i++) {
      const r = replaceWindow(w, conf, rowsOf, rng);
      expect(r.rows.length).toBe(w.rows.length);
      if (r.label === 1) seen.set(r.rows[r.mask]!, (seen.get(r.rows[r.mask]!) ?? 0) + 1);
      else expect(r.rows[r.mask]).toBe(vocab.row("he"));
    }
    expect([...seen.keys()].sort()).toEqual([vocab.row("she"), vocab.row("it")].sort()); // only the confusions of "he"
    expect(seen.get(vocab.row("she"))!).toBeGreaterThan(seen.get(vocab.row("it"))!);
    const wt = makeWindow(d, 0, 0, 128, 2); // "she": never confused, so uniform over the other 41
    expect(replaceWindow(wt, conf, rowsOf, new Rng(1)).rows.length).toBe(wt.rows.length);
    await expect(readConfusions(corpus)).rejects.toThrow(/no \(reference, system\) pronoun confusions/);

    const runR = async (out: string, maxSteps: number, resume: boolean) => {
      mkdirSync(out, { recursive: true });
      if (!existsSync(join(out, "embeddings.bin"))) writeEmbeddingTable(join(out, "embeddings.bin"), tinyTable(words));
      return pretrain({ ...PRETRAIN_DEFAULTS, corpus, out, hidden: 6, batchSize: 4, lr: 0.02, checkpointEvery: 2, evalEvery: 1000, maxSteps, resume, backend: "cpu", dev: undefined, objective: "replaced", confusions: pairsFile }, () => {});
    };
    const a = join(dir, "ra");
    const b = join(dir, "rb");
    const ra = await runR(a, 60, false);
    await runR(b, 9, false);
    await runR(b, 60, true);
    expect(readFileSync(join(b, "weights.bin")).equals(readFileSync(join(a, "weights.bin")))).toBe(true);
    const losses = ra.curve.filter((c) => Number.isFinite(c.loss)).map((c) => c.loss);
    expect(losses[losses.length - 1]!).toBeLessThan(losses[0]!);
    // a masked run cannot resume a replaced one
    await expect(pretrain({ ...PRETRAIN_DEFAULTS, corpus, out: b, hidden: 6, batchSize: 4, checkpointEvery: 2, evalEvery: 1000, maxSteps: 70, resume: true, backend: "cpu" }, () => {})).rejects.toThrow(/cannot resume/);
    await expect(pretrain({ ...PRETRAIN_DEFAULTS, corpus, out: join(dir, "rc"), hidden: 6, maxSteps: 1, backend: "cpu", objective: "replaced" }, () => {})).rejects.toThrow(/needs --confusions/);

    const { config, lm } = loadPronounLm(a);
    expect(config.objective).toBe("replaced");
    const prep = { contextSentences: 2, maxLen: 128 };
    const sides = [
      prepareSide({ context: ["the sister saw him ."], sentence: "he saw her ." }, prep),
      prepareSide({ context: [], sentence: "the house ." }, prep),
      prepareSide({ context: ["she walked to the house ."], sentence: "she saw him ." }, prep),
    ];
    const all = replacedScores(lm, sides, 2);
    const one = sides.map((s) => replacedScores(lm, [s], 1)[0]!);
    all.forEach((s, i) => expect(s.score).toBeCloseTo(one[i]!.score, 5));
    expect(all[1]!.score).toBe(0);
    expect(all[0]!.logProbs.length).toBe(2);
    expect(all[0]!.logProbs.every((x) => x < 0)).toBe(true);
    // a real sentence of the corpus looks more original than the same sentence with its pronoun swapped to a seen confusion
    const orig = replacedScores(lm, [prepareSide({ context: ["she walked to the house .", "the sister saw him ."], sentence: "he saw her ." }, prep)])[0]!;
    const swapped = replacedScores(lm, [prepareSide({ context: ["she walked to the house .", "the sister saw him ."], sentence: "she saw her ." }, prep)])[0]!;
    expect(orig.logProbs[0]!).toBeGreaterThan(swapped.logProbs[0]!);
    lm.dispose();
  }, 60000);

  it("zero-shot scores do not depend on batching; no pronoun scores 0", async () => {
    const { lm } = loadPronounLm(join(dir, "a"));
    const prep = { contextSentences: 2, maxLen: 128 };
    const sides = [
      prepareSide({ context: ["the sister saw him ."], sentence: "he saw her ." }, prep),
      prepareSide({ context: [], sentence: "the house ." }, prep),
      prepareSide({ context: ["she walked to the house .", "x"], sentence: "it walked to them ." }, prep),
    ];
    const all = zeroShotScores(lm, sides, 2);
    const one = sides.map((s) => zeroShotScores(lm, [s], 1)[0]!);
    all.forEach((s, i) => expect(s.score).toBeCloseTo(one[i]!.score, 5));
    expect(all[1]!.score).toBe(0);
    expect(all[0]!.logProbs.length).toBe(2);
    expect(all[0]!.logProbs.every((x) => x < 0)).toBe(true);
    lm.dispose();
  });

  it("the zero-shot Scorer gives the summed masked log-probabilities and per-pronoun values", async () => {
    const scorer = await loadZeroShotScorer(join(dir, "a"), { backend: "cpu", aggregate: "sum" });
    const side = { context: ["the sister saw him ."], sentence: "he saw her ." };
    const [r] = await scoreSidesWith(scorer, [side, side]);
    const { lm } = loadPronounLm(join(dir, "a"));
    const direct = zeroShotScores(lm, [prepareSide(side, { contextSentences: 2, maxLen: 128 })])[0]!;
    lm.dispose();
    expect(r!.score).toBeCloseTo(direct.score, 6);
    expect(r!.pronouns.map((p) => p.token)).toEqual(["he", "her"]);
    expect(r!.pronouns[0]!.score).toBeCloseTo(direct.logProbs[0]!, 6);
    expect(signature(scorer)).toMatch(/model:pronoun-lm-zeroshot-sum@[0-9a-f]{8}\|ctx:crc/);
    scorer.dispose();
    // PMI: each pronoun's corpus log-prior (saved by pretrain) is subtracted.
    const pmi = await loadZeroShotScorer(join(dir, "a"), { backend: "cpu", aggregate: "pmi" });
    const [q] = await scoreSidesWith(pmi, [side]);
    expect(pmi.lm.logPrior).not.toBeNull();
    expect(q!.score).toBeCloseTo(direct.score - pmi.lm.logPrior![1]! - pmi.lm.logPrior![18]!, 5);
    pmi.dispose();
    // margin: each pronoun's PMI minus the best PMI of a pronoun sharing its case, capped at 0.
    const mg = await loadZeroShotScorer(join(dir, "a"), { backend: "cpu", aggregate: "margin" });
    const [m] = await scoreSidesWith(mg, [side]);
    expect(signature(mg)).toMatch(/model:pronoun-lm-zeroshot-margin@/);
    m!.pronouns.forEach((p, k) => {
      expect(p.score).toBeCloseTo(q!.pronouns[k]!.score, 5);
      expect(p.contribution).toBeCloseTo(Math.min(0, p.score - direct.altPmi![k]!), 5);
      expect(p.contribution).toBeLessThanOrEqual(0);
    });
    expect(m!.score).toBeCloseTo(m!.pronouns[0]!.contribution + m!.pronouns[1]!.contribution, 6);
    mg.dispose();
  });

  it("the frozen+lp ranker on top starts exactly at the zero-shot ranking", async () => {
    const pairs = join(dir, "pairs.jsonl");
    const mk = (i: number, pos: string, neg: string, kind: string) =>
      JSON.stringify({ id: `p${i}`, lang: "de", context: ["the sister saw him ."], positive: pos, negative: neg, kind, ref_pronoun: "he", sys_pronoun: "she", origin: "t", split: "dev", context_mode: "crc" });
    writeFileSync(pairs, [mk(1, "he saw her .", "she saw her .", "noisy"), mk(2, "they saw the house .", "it saw the house .", "system"), mk(3, "it walked to them .", "it walked to him .", "noisy")].join("\n") + "\n");
    const r = await trainOnTop({ lmDir: join(dir, "a"), train: pairs, dev: pairs, variant: "frozen+lp", epochs: 1, batchSize: 2, lr: 0, seed: 1, maxTrainPairs: 0, maxDevPairs: 0, maxMinutes: 0 }, () => {});
    // lr 0: no update, so its dev ranking is the zero-shot ranking, pair by pair.
    expect(r.dev[0]!.overall.correct).toBe(r.zeroShotDev.overall.correct);
    expect(r.a).toBe(1);
    // The CLI prints the accuracies with a signature naming the model and options; -q keeps only the numbers.
    const args = ["--lm", join(dir, "a"), "--train", pairs, "--dev", pairs, "--epochs", "1", "--batch-size", "2", "--lr", "0", "--backend", "cpu"];
    const cli = await runCli(registerPretrainOnTop, "pretrain-ontop", args);
    expect(cli.code, cli.err).toBe(0);
    expect(cli.out).toMatch(/^zero-shot: .*\nfrozen\+lp epoch 1: .*\nsignature: proneval-ontop\|lm:pronoun-lm@[0-9a-f]{8}\|variant:frozen\+lp\|epochs:1\|lr:0\|seed:1\|train-pairs:3\|dev:pairs\.jsonl\|backend:\w+\|version:\S+\n$/);
    const quiet = await runCli(registerPretrainOnTop, "pretrain-ontop", [...args, "-q"]);
    expect(quiet.err).toBe("");
    expect(quiet.out).not.toMatch(/signature/);
  });

  it("the finetune variant trains encoder and head on margin + masked-pronoun loss", async () => {
    const pairs = join(dir, "pairs-ft.jsonl");
    const mk = (i: number, pos: string, neg: string, kind: string) =>
      JSON.stringify({ id: `p${i}`, lang: "de", context: ["the sister saw him ."], positive: pos, negative: neg, kind, ref_pronoun: "he", sys_pronoun: "she", origin: "t" });
    const lines = [];
    for (let i = 0; i < 8; i++) lines.push(mk(i, "he saw her .", "she saw her .", i % 2 ? "noisy" : "system"));
    writeFileSync(pairs, lines.join("\n") + "\n");
    const logs: string[] = [];
    const r = await trainOnTop({ lmDir: join(dir, "a"), train: pairs, dev: pairs, variant: "finetune", epochs: 3, batchSize: 4, lr: 0.02, seed: 1, maxTrainPairs: 0, maxDevPairs: 0, maxMinutes: 0, corpus, lmBatchSize: 4 }, (m) => logs.push(m));
    expect(r.dev.length).toBe(3);
    expect(r.dev[2]!.overall.accuracy).toBe(1); // one repeated pair: learnt
    expect(logs.some((l) => /masked-pronoun loss [0-9.]+/.test(l))).toBe(true);
    await expect(trainOnTop({ lmDir: join(dir, "a"), train: pairs, dev: pairs, variant: "finetune", epochs: 1, batchSize: 4, lr: 0.02, seed: 1, maxTrainPairs: 0, maxDevPairs: 0, maxMinutes: 0 }, () => {})).rejects.toThrow(/needs --corpus/);
  }, 60000);

  it("refuses a missing or foreign model directory", () => {
    expect(() => loadPronounLm(join(dir, "nope"))).toThrow(/not found/);
    writeFileSync(join(dir, "config.json"), JSON.stringify({ format: "proneval-ranker" }));
    expect(() => loadPronounLm(dir)).toThrow(/not a masked-pronoun model/);
  });
});
