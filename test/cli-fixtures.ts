/**
 * Tiny inputs for every subcommand, and a command line for each that prints to stdout, so table-driven
 * tests can run the whole command line interface (outputs, write errors, report inputs) in one place.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildSuites } from "../src/suite/build.js";
import { writeSuite } from "../src/suite/io.js";
import type { MismatchRecord } from "../src/mine/mismatch.js";
import { tokenize } from "../src/text/tokenize.js";

export const REF = "She said that he would come.\nThey told us about it.\nThe weather was fine and the sun was out all day.\n";
export const HYP_A = "He said that she would come.\nThey told us about it.\nThe weather was fine and the sun was out all day.\n";
export const HYP_B = "She said that he would come.\nWe told them about it.\nThe weather was fine and the sun was out all day.\n";

const EN = ["The man bought a car.", "He said that it was red.", "His wife liked it too.", "She drove it to work.", "They sold it a year later."];
const DE = ["Der Mann kaufte ein Auto.", "Er sagte, dass es rot war.", "Seine Frau mochte es auch.", "Sie fuhr es zur Arbeit.", "Sie verkauften es ein Jahr später."];
const DE_HYP = ["Der Mann kaufte einen Wagen.", "Er sagte, es sei rot.", "Seine Frau mochte ihn auch.", "Sie fuhr ihn zur Arbeit.", "Sie verkauften ihn ein Jahr später."];
const EN_HYP = ["The man bought a car.", "She said that it was red.", "His wife liked him too.", "She drove it to work.", "They sold it a year later."];

/** A mined mismatch record of document d1 (newstest2021 de-en), the pronouns found as the last of their words. */
export function mismatch(ref: string, sys: string, refP: string, sysP: string, system: string, seg: string, extra: Partial<MismatchRecord> = {}): MismatchRecord {
  const rt = tokenize(ref);
  const st = tokenize(sys);
  const ri = rt.findLastIndex((t) => t.text.toLowerCase() === refP);
  const si = st.findLastIndex((t) => t.text.toLowerCase() === sysP);
  return {
    testset: "newstest2021", lang_pair: "de-en", doc_id: "d1", seg_index: Number(seg) - 1, seg_id: seg, system, reference: "A",
    ref_sentence: ref, sys_sentence: sys, ref_token: ri, sys_token: si,
    ref_offsets: [rt[ri]!.start, rt[ri]!.end], sys_offsets: [st[si]!.start, st[si]!.end],
    ref_pronoun: refP, sys_pronoun: sysP, ref_context: ["Ref before."], sys_context: ["Sys before."], context_source: "document",
    src_sentence: `Quelle ${seg}`, src_context: ["Vorher."], ...extra,
  };
}

export interface CliFixtures {
  dir: string;
  ref: string;
  a: string;
  b: string;
  pairs: string;
  suite: string;
  suiteHyp: string;
  ctxproSet: string;
  ctxproHyp: string;
  ctxproTsv: string;
  contrastiveSet: string;
  contrastiveScores: string;
  deSrc: string;
  enRef: string;
  enHyp: string;
  enSrc: string;
  deRef: string;
  deHyp: string;
  corpus: string;
}

export function writeCliFixtures(dir: string): CliFixtures {
  mkdirSync(dir, { recursive: true });
  const put = (name: string, text: string): string => {
    const f = join(dir, name);
    writeFileSync(f, text);
    return f;
  };
  const lines = (xs: string[]) => xs.join("\n") + "\n";
  const pair = (id: string, pos: string, neg: string, kind: string, r: string, s: string) =>
    JSON.stringify({ id, lang: "de", context: ["The man came home."], positive: pos, negative: neg, kind, ref_pronoun: r, sys_pronoun: s, origin: "t/de-en/d/1/x" });
  const R1 = "My sister called yesterday and she said the car was fixed.";
  const suites = buildSuites([
    mismatch(R1, "My sister called yesterday and he said the car was fixed.", "she", "he", "A", "5"),
    mismatch(R1, "My sister called yesterday and it said the car was fixed.", "she", "it", "B", "5"),
    mismatch("They left early because they were tired.", "They left early because it was tired.", "they", "it", "A", "6"),
  ]).suites;
  const [suite] = writeSuite(join(dir, "suites"), suites[0]!);
  const items = [
    { expected: "Sie", rule: "R", "document id": "d1", "segment id": 2, "ref segment": "Haben Sie Zeit?", "src segment": "Do you have time?" },
    { expected: "du", rule: "R", "document id": "d1", "segment id": 3, "ref segment": "Kommst du mit?", "src segment": "Are you coming?" },
  ];
  const set = [
    { src: "a", dst: ["x", "y"], true_ind: 0, ctx_dist: 1 },
    { src: "b", dst: ["x", "y"], true_ind: 1, ctx_dist: 1 },
  ];
  return {
    dir,
    ref: put("ref.txt", REF),
    a: put("a.txt", HYP_A),
    b: put("b.txt", HYP_B),
    pairs: put("pairs.jsonl", lines([pair("1", "He was tired.", "She was tired.", "system", "he", "she"), pair("2", "He sat down.", "It sat down.", "noisy", "he", "it")])),
    suite: suite!,
    suiteHyp: put("suite-hyp.txt", lines(suites[0]!.items.map((i) => i["ref segment"]))),
    ctxproSet: put("formality.test.en-de.json", JSON.stringify(items)),
    ctxproHyp: put("ctx.de", "Haben Sie Zeit?\nKommst du mit?\n"),
    ctxproTsv: put("ctx.tsv", "d1\tHello.\tHallo.\nd1\tDo you have time?\tHaben Sie Zeit?\nd1\tAre you coming?\tKommst du mit?\n"),
    contrastiveSet: put("deixis_mini.json", JSON.stringify(set)),
    contrastiveScores: put("scores.txt", "1\n2\n3\n1\n"),
    deSrc: put("src.de-en.de", lines(DE)),
    enRef: put("ref.de-en.en", lines(EN)),
    enHyp: put("hyp.de-en.en", lines(EN_HYP)),
    enSrc: put("src.en-de.en", lines(EN)),
    deRef: put("ref.en-de.de", lines(DE)),
    deHyp: put("hyp.en-de.de", lines(DE_HYP)),
    corpus: put("corpus.txt", lines(EN.map((e, i) => `${e} ||| ${DE[i]}`))),
  };
}

/** A command line for every subcommand that prints its result to stdout (the model-free ones first). */
export function stdoutCommands(f: CliFixtures): Array<[string, string[]]> {
  return [
    ["align", ["align", "-i", f.corpus, "-d"]],
    ["apt", ["apt", "-s", f.deSrc, "-r", f.enRef, "-t", f.enHyp, "-l", "de-en"]],
    ["contrastive", ["contrastive", f.contrastiveSet, "--scores", f.contrastiveScores, "--no-check-data"]],
    ["ctxpro extract", ["ctxpro", "extract", "-e", f.ctxproSet, "-i", f.ctxproTsv]],
    ["ctxpro rules", ["ctxpro", "rules"]],
    ["ctxpro score", ["ctxpro", "score", "-e", f.ctxproSet, "-t", f.ctxproHyp]],
    ["mine", ["mine", "-q", "-o", "-"]],
    ["muda langs", ["muda", "langs"]],
    ["muda score", ["muda", "score", "-l", "en-de", "-s", f.enSrc, "-r", f.deRef, "-t", f.deHyp, "-q"]],
    ["muda tag", ["muda", "tag", "-l", "en-de", "-s", f.enSrc, "--target", f.deRef, "-q"]],
    ["stats", ["stats", f.pairs]],
    ["suite stats", ["suite", "stats", f.suite]],
    ["suite score", ["suite", "score", "--suite", f.suite, "-t", f.suiteHyp, "-b", "20"]],
    ["score", ["score", "-r", f.ref, "-t", f.a, "--backend", "cpu"]],
    ["compare", ["compare", "-r", f.ref, "-t", f.a, f.b, "--backend", "cpu", "-b", "20"]],
    ["eval", ["eval", "--pairs", f.pairs, "--backend", "cpu"]],
    ["meta-eval", ["meta-eval", "--pairs", f.pairs, "--backend", "cpu", "-b", "20"]],
  ];
}
