import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { registerMuda } from "../src/cli/muda.js";
import { readScores, readFairseqScores, checkLogprob, EOS_TOKEN } from "../src/muda/cxmi-formats.js";
import { detectSubwordScheme, spellsReference, joinSubwords, pairRuns, posGroups, previousSegments, summarize, tagWords, unescapeMoses, cxmiAnalysis } from "../src/muda/cxmi.js";
import { charMap, matchPairs, tokenValues } from "../src/muda/cxmi-tags.js";
import { PlainAnnotator } from "../src/muda/index.js";
import { runCli } from "./cli-helper.js";

const FIX = join(dirname(fileURLToPath(import.meta.url)), "fixtures", "cxmi");
const dir = mkdtempSync(join(tmpdir(), "muda-cxmi-"));
const run = (...args: string[]) => runCli(registerMuda, "muda", args);
const file = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};
afterEach(() => {
  process.exitCode = 0;
});

// A hand-made pair of runs whose values are known:
//   segment a: ▁Das ▁Haus </s>            without -1 -2 -0.5          with -1 -1 -0.5          P-CXMI per token 0 1 0
//   segment b: ▁Sie ▁ka m . </s>          without -3 -1 -0.5 -0.2 -0.1  with -1 -1 -0.25 -0.2 -0.3  per token 2 0 0.25 0 -0.2
// words: Das 0, Haus 1, Sie 2, kam. 0.25; sentence P-CXMI 1 and 2.05;
// CXMI (length-normalised, as the paper's code) = (1/3 + 2.05/5) / 2; unnormalised (1 + 2.05) / 2;
// mean token P-CXMI 3.05 / 8; mean word P-CXMI 3.25 / 4.
const jl = (o: object) => JSON.stringify(o);
const BASE = [
  jl({ id: "a", doc: "d1", tokens: ["▁Das", "▁Haus", "</s>"], logprobs: [-1, -2, -0.5] }),
  jl({ id: "b", doc: "d1", tokens: ["▁Sie", "▁ka", "m", ".", "</s>"], logprobs: [-3, -1, -0.5, -0.2, -0.1] }),
].join("\n");
const CTX = [
  jl({ id: "a", doc: "d1", tokens: ["▁Das", "▁Haus", "</s>"], logprobs: [-1, -1, -0.5] }),
  jl({ id: "b", doc: "d1", tokens: ["▁Sie", "▁ka", "m", ".", "</s>"], logprobs: [-1, -1, -0.25, -0.2, -0.3] }),
].join("\n");
const base = file("base.jsonl", BASE + "\n");
const ctx = file("ctx.jsonl", CTX + "\n");
const ref = file("ref.de", "Das Haus\nSie kam.\n");

describe("P-CXMI and CXMI on a hand-made pair of runs", () => {
  it("gives the known token, word, sentence and corpus values", async () => {
    const segs = pairRuns(await readScores(base), await readScores(ctx), "sp");
    expect(segs.map((s) => s.text)).toEqual(["Das Haus", "Sie kam."]);
    expect(segs.map((s) => s.pcxmi)).toEqual([1, expect.closeTo(2.05, 12)]);
    expect(segs[1]!.words.map((w) => [w.text, w.tokens, w.pcxmi])).toEqual([
      ["Sie", [0, 1], 2],
      ["kam.", [1, 4], 0.25],
    ]);
    const s = summarize(segs);
    expect(s.segments).toBe(2);
    expect(s.tokens).toBe(8);
    expect(s.words).toBe(4);
    expect(s.cxmi).toBeCloseTo((1 / 3 + 2.05 / 5) / 2, 12);
    expect(s.cxmiPerSentence).toBeCloseTo(1.525, 12);
    expect(s.tokenPcxmi).toBeCloseTo(3.05 / 8, 12);
    expect(s.wordPcxmi).toBeCloseTo(0.8125, 12);
    expect(s.wordsUp).toBe(0.75);
  });

  it("TSV and base-2 input give the same values; the end of sentence counts for the sentence but is in no word", async () => {
    const tsv = (lines: Array<[string, string, number]>, b2 = false) => lines.map(([s, t, v]) => `${s}\t${t}\t${b2 ? v / Math.LN2 : v}`).join("\n") + "\n";
    const rows = (text: string) =>
      text.split("\n").flatMap((l) => {
        const o = JSON.parse(l) as { id: string; tokens: string[]; logprobs: number[] };
        return o.tokens.map((t, i) => [o.id, t, o.logprobs[i]!] as [string, string, number]);
      });
    const a = file("base.tsv", "segment\ttoken\tlogprob\n" + tsv(rows(BASE)));
    const b = file("ctx2.tsv", tsv(rows(CTX), true));
    const runA = await readScores(a);
    const runB = await readScores(b, { logBase: 2 });
    expect(runA.format).toBe("tsv");
    const segs = pairRuns(runA, runB, detectSubwordScheme(runA.segments));
    expect(summarize(segs).cxmi).toBeCloseTo((1 / 3 + 2.05 / 5) / 2, 10);
    expect(segs[1]!.eos).toBe(true);
    expect(segs[1]!.words.reduce((x, w) => x + w.pcxmi, 0)).toBeCloseTo(2.25, 10); // 2.05 + 0.2 from the end of sentence
  });

  it("the CLI prints the tables, notes and signature; JSON has every segment's words", async () => {
    const r = await run("cxmi", "--without-context", base, "--with-context", ctx, "-l", "en-de", "-r", ref, "--min-count", "1");
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain("# CXMI (nats)\nsegments\ttokens\twords\tcxmi\tcxmi_per_sentence\ttoken_pcxmi\tword_pcxmi\twords_up\n2\t8\t4\t0.3717\t1.5250\t0.3812\t0.8125\t0.750\n");
    expect(r.out).toMatch(/# mean word P-CXMI per part of speech\npos\twords\tmean_pcxmi\nPRON\t1\t2\.0000\n/);
    expect(r.out).toContain("1\t2.0000\tSie\tPRON\tb\td1\t[[Sie]] kam.\tDas Haus\n");
    expect(r.out).toMatch(/^signature: muda-cxmi\|pair:en-de\|scores:jsonl\|subword:sp\|eos:yes\|tagger:proneval-morph\|min-count:1\|version:/m);
    const j = await run("cxmi", "--without-context", base, "--with-context", ctx, "--json");
    expect(j.code, j.err).toBe(0);
    const rep = JSON.parse(j.out);
    expect(rep.units).toBe("nats");
    expect(rep.pos).toBeUndefined(); // no -l: no tagger
    expect(rep.segments[1].words.map((w: { text: string; pcxmi: number }) => [w.text, w.pcxmi])).toEqual([
      ["Sie", 2],
      ["kam.", 0.25],
    ]);
    expect(rep.topWords[0]).toMatchObject({ word: "Sie", pcxmi: 2, segment: 2, id: "b", context: "Das Haus" });
  });

  it("groups parts of speech as the paper's Table 8 (PRON by person and number, VERB by tense)", () => {
    expect(posGroups("PRON", { Person: "2", Number: "Sing" })).toEqual(["PRON", "PRON.2", "PRON.2.Sing"]);
    expect(posGroups("PRON", { Number: "Plur" })).toEqual(["PRON", "PRON.Plur"]);
    expect(posGroups("VERB", { Tense: "Imp" })).toEqual(["VERB", "VERB.Imp"]);
    expect(posGroups("NOUN", { Number: "Sing" })).toEqual(["NOUN"]);
  });

  it("vocabulary items without attached punctuation, ranked by mean with a minimum count; context from the same document only", async () => {
    const segs = pairRuns(await readScores(base), await readScores(ctx), "sp");
    tagWords(segs, new PlainAnnotator("xx"));
    expect(segs[1]!.words.map((w) => w.item)).toEqual(["Sie", "kam"]);
    const a = cxmiAnalysis(segs, ["", "Das Haus"], { top: 10, minCount: 1 });
    expect(a.vocabulary.map((v) => v.key)).toEqual(["Sie", "Haus", "kam", "Das"]);
    expect(cxmiAnalysis(segs, [], { top: 10, minCount: 2 }).vocabulary).toEqual([]);
    expect(previousSegments(["a", "b", "c", "d"], ["x", "x", "y", "y"], 1)).toEqual(["", "a", "", "c"]);
    expect(previousSegments(["a", "b", "c"], [undefined, undefined, undefined], 2)).toEqual(["", "a", "a b"]);
  });
});

describe("subwords to words", () => {
  it("SentencePiece: ▁ starts a word, a bare ▁ piece starts the word its next pieces spell", () => {
    const j = joinSubwords(["▁Die", "▁Ärzt", "in", "▁", ",", "▁kam", ".", EOS_TOKEN], "sp");
    expect(j.eos).toBe(true);
    expect(j.text).toBe("Die Ärztin , kam.");
    expect(j.words.map((w) => [w.text, w.tokens, j.text.slice(w.start, w.end)])).toEqual([
      ["Die", [0, 1], "Die"],
      ["Ärztin", [1, 3], "Ärztin"],
      [",", [3, 5], ","],
      ["kam.", [5, 7], "kam."],
    ]);
    // A first piece without ▁ still starts a word; a final bare ▁ joins the last word (every score counted once).
    expect(joinSubwords(["Ab", "c", "▁d", "▁"], "sp").words.map((w) => [w.text, w.tokens])).toEqual([
      ["Abc", [0, 2]],
      ["d", [2, 4]],
    ]);
  });

  it("BPE: @@ continues the word; Moses escapes are undone", () => {
    const j = joinSubwords(["Die", "Ärzt@@", "in", "is@@", "n", "&apos;t", ".", EOS_TOKEN], "bpe");
    expect(j.text).toBe("Die Ärztin isn 't .");
    expect(j.words.map((w) => [w.text, w.tokens])).toEqual([
      ["Die", [0, 1]],
      ["Ärztin", [1, 3]],
      ["isn", [3, 5]],
      ["'t", [5, 6]],
      [".", [6, 7]],
    ]);
    expect(unescapeMoses("&quot;a&quot; &amp; &#124;")).toBe('"a" & |');
  });

  it("none: every token is a word; the scheme is detected from the tokens", () => {
    expect(joinSubwords(["a", "b@@"], "none").words.map((w) => w.text)).toEqual(["a", "b@@"]);
    expect(detectSubwordScheme([{ tokens: ["a", "b@@", "c"] }])).toBe("bpe");
    expect(detectSubwordScheme([{ tokens: ["a"] }, { tokens: ["▁b"] }])).toBe("sp");
    expect(detectSubwordScheme([{ tokens: ["a", "b"] }])).toBe("none");
  });
});

describe("fairseq-generate output", () => {
  it("reads the real layout: samples sorted by id, base-2 scores to nats, the end of sentence last, sources from S- lines", async () => {
    const without = readFairseqScores(join(FIX, "fairseq-without.txt"));
    expect(without.map((s) => s.id)).toEqual(["0", "1", "2"]);
    expect(without[0]!.tokens).toEqual(["Die", "Ärzt@@", "in", "kam", ".", EOS_TOKEN]);
    expect(without[0]!.logprobs.map((x) => x / Math.LN2)).toEqual([-0.5, -2, -0.25, -1, -0.125, -0.0625].map((x) => expect.closeTo(x, 12)));
    expect(without[0]!.source).toBe("The doctor came .");
    const run = await readScores(join(FIX, "fairseq-with.txt"));
    expect(run.format).toBe("fairseq");
    const segs = pairRuns({ path: "w", format: "fairseq", segments: without }, run, "bpe");
    expect(segs.map((s) => s.text)).toEqual(["Die Ärztin kam .", "Sie war müde .", "Das ist es nicht ."]);
    // Ärztin: (-1 + -0.25) - (-2 + -0.25) = 1 bit; Sie: 2 bits; müde: (-1 - 0.5) - (-1.5 - 0.5) = 0.5 bit.
    expect(segs[0]!.words[1]!.pcxmi).toBeCloseTo(Math.LN2, 12);
    expect(segs[1]!.words[0]!.pcxmi).toBeCloseTo(2 * Math.LN2, 12);
    expect(segs[1]!.words[2]!).toMatchObject({ text: "müde", tokens: [2, 4] });
    expect(segs[1]!.words[2]!.pcxmi).toBeCloseTo(0.5 * Math.LN2, 12);
    // The end of sentence of sample 1 lost 0.125 bit: in the sentence, in no word.
    expect(segs[1]!.pcxmi).toBeCloseTo((2 + 0.5 - 0.125) * Math.LN2, 12);
  });

  it("refuses H- lines without subwords (--remove-bpe), a hypothesis that is not the reference, missing samples", async () => {
    const orig = readFileSync(join(FIX, "fairseq-without.txt"), "utf8");
    const removed = file("removed.txt", orig.replace(/^([HT]-0\t.*)Ärzt@@ in/gm, "$1Ärztin"));
    expect(() => readFairseqScores(removed)).toThrow(/removed\.txt:\d+: sample 0: 6 positional scores for 4 H- tokens .*without --remove-bpe/);
    const hyp = file("hyp.txt", orig.replace(/^H-2\t(\S+)\tDas ist es nicht \.$/m, "H-2\t$1\tDas ist nicht so ."));
    expect(() => readFairseqScores(hyp)).toThrow(/hyp\.txt:\d+: sample 2: the H- tokens are not the reference \(T-\): run fairseq-generate with --score-reference/);
    const gap = file("gap.txt", orig.split("\n").filter((l) => !/^[STHDP]-1\t/.test(l)).join("\n"));
    expect(() => readFairseqScores(gap)).toThrow(/gap\.txt: no sample 1 \(sample ids must run 0\.\.1; the next one is 2\)/);
  });
});

describe("bad input: one line naming the file and segment, exit 2, nothing written", () => {
  let n = 0;
  const bad = async (args: string[], msg: RegExp) => {
    const out = join(dir, `never-${++n}.tsv`);
    const r = await run("cxmi", ...args, "-o", out);
    expect(r.code, r.out).toBe(2);
    expect(r.err).toMatch(msg);
    expect(r.err.trim().split("\n")).toHaveLength(1);
    expect(existsSync(out)).toBe(false);
  };

  it("token sequences that differ between the runs", async () => {
    const other = file("other.jsonl", CTX.replace('"▁ka","m"', '"▁kam"').replace("-0.25,", "") + "\n");
    await bad(["--without-context", base, "--with-context", other], /other\.jsonl:2: segment 2 \(id b\): the tokens differ from .*base\.jsonl:2 at token 2: '▁kam' here, '▁ka' there \(4 vs 5 tokens\)/);
  });

  it("a log-probability that is positive or NaN, or not finite", async () => {
    const pos = file("pos.jsonl", CTX.replace("-0.25", "0.25") + "\n");
    await bad(["--without-context", base, "--with-context", pos], /pos\.jsonl:2: segment 2, token 3 \('m'\): log-probability 0\.25 is positive/);
    const nan = file("nan.tsv", "0\t▁a\t-1\n0\t</s>\tnan\n");
    await bad(["--without-context", nan, "--with-context", nan], /nan\.tsv:2: segment '0', token 2 \('<\/s>'\): log-probability 'nan' is not a number/);
    expect(() => checkLogprob("-inf", "f", 3, "x", 2)).toThrow(/^f:3: x: log-probability -inf is not finite$/);
    const str = file("str.jsonl", CTX.replace("-0.25", '"-0.25"') + "\n");
    await bad(["--without-context", base, "--with-context", str], /str\.jsonl:2: segment 2, token 3 \('m'\): log-probability "-0\.25" is not a number/);
  });

  it("segment counts that do not match each other or the reference; a reference the tokens do not spell", async () => {
    const one = file("one.jsonl", CTX.split("\n")[0] + "\n");
    await bad(["--without-context", base, "--with-context", one], /one\.jsonl: has 1 segments, but .*base\.jsonl \(without context\) has 2/);
    const ref3 = file("ref3.de", "Das Haus\nSie kam.\nNoch einer.\n");
    await bad(["--without-context", base, "--with-context", ctx, "-r", ref3], /ref3\.de: has 3 segments, but .*ctx\.jsonl has 2 scored segments/);
    const refX = file("refx.de", "Das Haus\nSie ging.\n");
    await bad(["--without-context", base, "--with-context", ctx, "-r", refX], /refx\.de:2: segment 2: the scored tokens of .*ctx\.jsonl spell 'Sie kam\.'/);
    expect(spellsReference("Sie<unk>kam (2.)", "Sie # kam (2.)")).toBe(true);
    expect(spellsReference("Sie<unk>kam (2.)", "Sie # ging (2.)")).toBe(false);
    expect(spellsReference("Ｓie", "Sie")).toBe(true); // NFKC
    const r = await run("cxmi", "--without-context", base, "--with-context", ctx, "-r", refX, "--no-text-check", "-q");
    expect(r.code, r.err).toBe(0);
  });

  it("a model directory without the files @xenova/transformers needs", async () => {
    const m = join(dir, "model");
    mkdirSync(join(m, "onnx"), { recursive: true });
    writeFileSync(join(m, "config.json"), JSON.stringify({ model_type: "marian", is_encoder_decoder: true }));
    writeFileSync(join(m, "onnx", "encoder_model.onnx"), "");
    const src = file("src.en", "The house\nShe came.\n");
    await bad(["--model-dir", m, "-s", src, "-r", ref], /model: not a sequence-to-sequence model @xenova\/transformers can load: missing tokenizer\.json, tokenizer_config\.json, onnx\/decoder_model_merged\.onnx/);
    await bad(["--model-dir", join(dir, "nowhere"), "-s", src, "-r", ref], /nowhere: no such model directory/);
  });

  it("malformed files and contradictory options", async () => {
    const tsv = file("bad.tsv", "0\t▁a\t-1\n1\t▁b\t-1\n0\t▁c\t-1\n");
    await bad(["--without-context", tsv, "--with-context", tsv], /bad\.tsv:3: segment '0' comes back after other segments/);
    const cols = file("cols.tsv", "0\t▁a\n");
    await bad(["--without-context", cols, "--with-context", cols, "--input-format", "tsv"], /cols\.tsv:1: expected 3 tab-separated columns/);
    const mism = file("mism.jsonl", jl({ tokens: ["▁a", "▁b"], logprobs: [-1] }) + "\n");
    await bad(["--without-context", mism, "--with-context", mism], /mism\.jsonl:1: segment 1: 2 tokens but 1 log-probabilities/);
    await bad(["--without-context", base], /give both --without-context FILE and --with-context FILE/);
    await bad(["--without-context", join(FIX, "fairseq-without.txt"), "--with-context", join(FIX, "fairseq-with.txt"), "--log-base", "e"], /base-2 scores/);
  });
});

describe("P-CXMI values on tagged tokens (muda tag --cxmi)", () => {
  it("maps detokenised words to the tagger's tokens, syntactic words of one form included", () => {
    const m = charMap("Er ging zum Haus .", "Er ging zum Haus.")!;
    expect(m(12)).toBe(12); // H
    expect(m(17)).toBe(16); // .
    expect(charMap("ganz anders", "Er ging zum Haus.")).toBeNull();
    // Unknown-word tokens and differences at both ends (quotes a model's vocabulary lacks) are aligned around.
    const u = charMap("<unk>Heute bestehen <unk> keine.<unk>", "„Heute bestehen ## keine.“")!;
    expect([u(0), u(5), u(26), u(31)]).toEqual([0, 1, 19, 24]);
    // The alignment is a longest common subsequence.
    expect(matchPairs([..."abcab"], [..."xabyb"], 10)).toEqual([[0, 1], [1, 2], [4, 4]]);
    expect(matchPairs([..."abc"], [..."xyz"], 2)).toBeNull();
    // "zum" is tagged as zu + dem, both with the span of "zum": the word's value goes to the first, once.
    const v = tokenValues(
      "Er ging zum Haus.",
      [[0, 2], [3, 7], [8, 11], [8, 11], [12, 16], [16, 17]],
      ["Er", "ging", "zu", "dem", "Haus", "."],
      { text: "Er ging zum Haus.", words: [{ text: "Er", start: 0, end: 2, pcxmi: 0.5 }, { text: "zum", start: 8, end: 11, pcxmi: 1 }, { text: "Haus.", start: 12, end: 17, pcxmi: 2 }] },
    );
    expect(v).toEqual([0.5, null, 1, null, 2, null]);
  });

  it("adds high_pcxmi above the threshold and compares with the MuDA tags; refuses a report of other segments", async () => {
    const src = file("tag.en", "Are you tired?\nShe was tired.\n");
    const tgt = file("tag.de", "Sind Sie müde?\nSie war müde.\n");
    const rep = {
      segments: [
        { text: "Sind Sie müde?", words: [{ text: "Sind", start: 0, end: 4, pcxmi: 0.1 }, { text: "Sie", start: 5, end: 8, pcxmi: 1.5 }, { text: "müde?", start: 9, end: 14, pcxmi: 0 }] },
        { text: "Sie war müde.", words: [{ text: "Sie", start: 0, end: 3, pcxmi: 0.7 }, { text: "war", start: 4, end: 7, pcxmi: -0.2 }, { text: "müde.", start: 8, end: 13, pcxmi: 0.9 }] },
      ],
    };
    const cx = file("cx.json", JSON.stringify(rep));
    const r = await run("tag", "-l", "en-de", "-s", src, "--target", tgt, "--cxmi", cx, "--threshold", "0.8", "-q");
    expect(r.code, r.err).toBe(0);
    const out = JSON.parse(r.out);
    const [s1, s2] = out.documents[0].segments;
    expect(s1.tokens).toEqual(["Sind", "Sie", "müde", "?"]);
    expect(s1.pcxmi).toEqual([0.1, 1.5, 0, null]);
    expect(s1.tags[1]).toEqual(["formality", "high_pcxmi"]);
    expect(s2.pcxmi).toEqual([0.7, -0.2, 0.9, null]);
    expect(s2.tags[2]).toContain("high_pcxmi");
    expect(out.counts.tags.high_pcxmi).toBe(2);
    const c = out.cxmi;
    expect(c.threshold).toBe(0.8);
    expect(c.high.tokens).toBe(2);
    expect(c.high.byTag.find((x: { label: string }) => x.label === "formality").tokens).toBe(1);
    expect(c.high.byTag.find((x: { label: string }) => x.label === "no_tag").tokens).toBe(1);
    const all = c.byTag.find((x: { label: string }) => x.label === "all");
    expect(all.tokens).toBe(6);
    expect(all.mean).toBeCloseTo(3 / 6, 12);
    expect(c.examples[0]).toMatchObject({ label: "formality", token: "Sie", pcxmi: 1.5, sentence: "Sind [[Sie]] müde?" });

    const shifted = file("cx2.json", JSON.stringify({ segments: [rep.segments[1], rep.segments[0]] }));
    const b = await run("tag", "-l", "en-de", "-s", src, "--target", tgt, "--cxmi", shifted, "--threshold", "0.8", "-q");
    expect(b.code).toBe(2);
    expect(b.err).toMatch(/cx2\.json: segment 1: its words spell 'Sie war müde\.', which is not segment 1 of document/);
    const noT = await run("tag", "-l", "en-de", "-s", src, "--target", tgt, "--cxmi", cx, "-q");
    expect(noT.code).toBe(2);
    expect(noT.err).toMatch(/--cxmi needs --threshold/);
  });
});
