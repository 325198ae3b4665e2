import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { registerMuda } from "../src/cli/muda.js";
import type { AnnSentence, AnnToken } from "../src/annotate/types.js";
import {
  ellipsisCues,
  fMeasure,
  languageSupport,
  loadMudaLists,
  matchedTokens,
  PlainAnnotator,
  scoreSides,
  secondPersonVerbs,
  segmentStats,
  setupMuda,
  supportSummary,
  tagDocument,
  type MudaSegment,
  type TaggedSide,
} from "../src/muda/index.js";
import { runCli } from "./cli-helper.js";

function run(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  return runCli(registerMuda, "muda", args);
}

afterEach(() => {
  process.exitCode = 0;
});

/** "text/lemma/UPOS/Feat=V|Feat=V" tokens separated by spaces. */
function sent(spec: string): AnnSentence {
  const tokens: AnnToken[] = spec.split(" ").map((t) => {
    const [text, lemma, upos, feats] = t.split("/");
    return {
      text: text!,
      lemma: lemma!,
      upos: upos!,
      feats: feats ? Object.fromEntries(feats.split("|").map((kv) => kv.split("=") as [string, string])) : {},
    };
  });
  return { text: tokens.map((t) => t.text).join(" "), tokens };
}
/** Identity-ish links "0-0 1-1". */
const links = (s: string) => s.split(" ").map((p) => p.split("-").map(Number) as [number, number]);

const lists = loadMudaLists();
const feats = new Set(["Gender", "Number", "Case", "Person", "PronType", "Poss"]);
const tagsOf = (segs: MudaSegment[], lang: string, f: Set<string> = feats) =>
  tagDocument(segs, { lang, lists, support: languageSupport(lang, lists, f) });

describe("MuDA tags on mini documents", () => {
  it("lexical cohesion: the 4th occurrence of an aligned content pair, not before; not for function words", () => {
    const seg = (): MudaSegment => ({
      en: sent("Avelile/Avelile/PROPN had/have/VERB the/the/DET virus/virus/NOUN ././PUNCT"),
      tgt: sent("Avelile/Avelile/PROPN hatte/haben/VERB das/der/DET Virus/Virus/NOUN ././PUNCT"),
      links: links("0-0 1-1 2-2 3-3 4-4"),
    });
    const t = tagsOf([seg(), seg(), seg(), seg()], "de");
    for (let k = 0; k < 3; k++) expect(t[k]!.flat()).not.toContain("lexical");
    expect(t[3]![0]).toContain("lexical");
    expect(t[3]![3]).toContain("lexical");
    expect(t[3]![2]).not.toContain("lexical"); // determiner
    expect(t[3]![4]).not.toContain("lexical"); // punctuation
    // Negative: same target word aligned to a different English word each time.
    const other = (w: string): MudaSegment => ({ en: sent(`${w}/${w}/NOUN`), tgt: sent("Virus/Virus/NOUN"), links: links("0-0") });
    expect(tagsOf([other("a"), other("b"), other("c"), other("d")], "de").flat(2)).not.toContain("lexical");
  });

  it("formality: T-V words (fr) and the pro-drop verb rule (es); negatives", () => {
    const fr = tagsOf([{ en: sent("Your/your/PRON daughter/daughter/NOUN ?/?/PUNCT"), tgt: sent("Votre/votre/DET fille/fille/NOUN ?/?/PUNCT"), links: links("0-0 1-1 2-2") }], "fr");
    expect(fr[0]![0]).toEqual(["formality"]);
    expect(fr[0]![1]).toEqual([]);
    // es: "you know" -> "sabe" (3rd person, V) tagged; "she knows" -> "sabe" not tagged.
    const es = tagsOf([
      { en: sent("You/you/PRON know/know/VERB it/it/PRON ././PUNCT"), tgt: sent("Lo/él/PRON sabe/saber/VERB/Person=3 ././PUNCT"), links: links("1-1 2-0 3-2") },
      { en: sent("She/she/PRON knows/know/VERB it/it/PRON ././PUNCT"), tgt: sent("Lo/él/PRON sabe/saber/VERB/Person=3 ././PUNCT"), links: links("1-1 2-0 3-2") },
      { en: sent("I/I/PRON told/tell/VERB you/you/PRON to/to/PART go/go/VERB ././PUNCT"), tgt: sent("Te/tú/PRON dije/decir/VERB/Person=1 que/que/SCONJ fueras/ir/VERB/Person=2 ././PUNCT"), links: links("0-1 1-1 2-0 4-3 5-4") },
    ], "es");
    expect(es[0]![1]).toEqual(["formality"]);
    expect(es[1]!.flat()).toEqual([]);
    expect(es[2]![0]).toEqual(["formality"]); // "te" is a Table 9 T word
    expect(es[2]![3]).toEqual([]); // "you" is the object of "told": "go" is not its verb
    expect(secondPersonVerbs(sent("Are/be/AUX you/you/PRON ready/ready/ADJ ?/?/PUNCT").tokens)).toEqual([0]);
    expect(secondPersonVerbs(sent("You/you/PRON have/have/AUX never/never/ADV seen/see/VERB it/it/PRON").tokens)).toEqual([3]);
  });

  it("pronouns: aligned pairs from Table 10 only", () => {
    const t = tagsOf([
      { en: sent("It/it/PRON is/be/AUX broken/broken/ADJ"), tgt: sent("Sie/sie/PRON ist/sein/AUX kaputt/kaputt/ADJ"), links: links("0-0 1-1 2-2") },
      // negative: "she" -> "sie" is not an ambiguous pair; "it" aligned to a non-pronoun
      { en: sent("She/she/PRON is/be/AUX here/here/ADV"), tgt: sent("Sie/sie/PRON ist/sein/AUX hier/hier/ADV"), links: links("0-0 1-1 2-2") },
      { en: sent("It/it/PRON rains/rain/VERB"), tgt: sent("Regen/Regen/NOUN fällt/fallen/VERB"), links: links("0-0 1-1") },
    ], "de");
    expect(t[0]![0]).toContain("pronouns");
    expect(t[1]![0]).not.toContain("pronouns");
    expect(t[2]!.flat()).not.toContain("pronouns");
  });

  it("verb form: VERB with a Table 11 tense when the tagger predicts Tense; missing otherwise", () => {
    const segs: MudaSegment[] = [{
      en: sent("He/he/PRON ate/eat/VERB and/and/CCONJ will/will/AUX sleep/sleep/VERB"),
      tgt: sent("Comía/comer/VERB/Tense=Imp y/y/CCONJ dormirá/dormir/VERB/Tense=Fut ahora/ahora/ADV come/comer/VERB/Tense=Pres"),
      links: links("1-0 2-1 4-2"),
    }];
    const withTense = tagsOf(segs, "es", new Set([...feats, "Tense"]));
    expect(withTense[0]![0]).toContain("verb_form");
    expect(withTense[0]![2]).toContain("verb_form");
    expect(withTense[0]![4]).not.toContain("verb_form"); // present is not in es's list
    const noTense = languageSupport("es", lists, feats);
    expect(noTense.tags).not.toContain("verb_form");
    expect(noTense.missing.verb_form).toMatch(/no Tense/);
    expect(languageSupport("de", lists, feats).missing.verb_form).toMatch(/Table 11/);
    expect(tagsOf(segs, "es").flat(2)).not.toContain("verb_form");
    // The shipped Spanish model predicts Tense, so the language gets the tag.
    expect(setupMuda("es", lists).support.tags).toContain("verb_form");
    expect(supportSummary(lists)).toMatch(/es: [a-z_,]*verb_form/);
  });

  it("ellipsis: unaligned target verb seen before, only after an English ellipsis", () => {
    const first: MudaSegment = {
      en: sent("They/they/PRON know/know/VERB what/what/PRON society/society/NOUN will/will/AUX be/be/AUX ././PUNCT"),
      tgt: sent("Sie/sie/PRON wissen/wissen/VERB ,/,/PUNCT was/was/PRON kommt/kommen/VERB ././PUNCT"),
      links: links("0-0 1-1 2-3 6-5"),
    };
    const ell: MudaSegment = {
      en: sent("I/I/PRON do/do/AUX n't/not/PART ././PUNCT"),
      tgt: sent("Ich/ich/PRON weiß/wissen/VERB es/es/PRON nicht/nicht/PART ././PUNCT"),
      links: links("0-0 1-3 2-3 3-4"),
    };
    const t = tagsOf([first, ell], "de");
    expect(t[1]![1]).toEqual(["ellipsis"]); // weiß (lemma wissen) seen before, unaligned
    expect(t[1]![2]).toEqual([]); // "es" not seen before
    // negative: same target without an English ellipsis
    const noEll: MudaSegment = { ...ell, en: sent("I/I/PRON do/do/AUX n't/not/PART know/know/VERB ././PUNCT"), links: links("0-0 1-3 2-3 4-4") };
    expect(tagsOf([first, noEll], "de")[1]!.flat()).not.toContain("ellipsis");
  });

  it("English ellipsis cues", () => {
    const cue = (s: string) => ellipsisCues(sent(s).tokens).length > 0;
    expect(cue("I/I/PRON do/do/AUX n't/not/PART ././PUNCT")).toBe(true);
    expect(cue("She/she/PRON can/can/AUX too/too/ADV ././PUNCT")).toBe(true);
    expect(cue("Did/do/AUX she/she/PRON ?/?/PUNCT")).toBe(true);
    expect(cue("I/I/PRON would/would/AUX like/like/VERB to/to/PART ././PUNCT")).toBe(true);
    expect(cue("It/it/PRON works/work/VERB ,/,/PUNCT does/do/AUX n't/not/PART it/it/PRON ?/?/PUNCT")).toBe(false); // tag question
    expect(cue("I/I/PRON know/know/VERB who/who/PRON you/you/PRON are/be/AUX ././PUNCT")).toBe(false);
    expect(cue("I/I/PRON can/can/AUX swim/swim/VERB ././PUNCT")).toBe(false);
    expect(cue("There/there/PRON is/be/AUX ././PUNCT")).toBe(false);
  });
});

describe("word f-measure", () => {
  it("matches words with clipping and computes P, R, F per label (hand-computed)", () => {
    expect(matchedTokens(["a", "b", "a", "a"], ["a", "a", "c"])).toEqual([true, false, true, false]);
    // ref: der Hund sah den Hund   tags: - lex - - lex
    // hyp: ein Hund sah Hund Hund  tags: - lex - lex lex
    const ref = { tokens: ["der", "Hund", "sah", "den", "Hund"], tags: [[], ["lexical"], [], [], ["lexical"]] as never };
    const hyp = { tokens: ["ein", "Hund", "sah", "Hund", "Hund"], tags: [[], ["lexical"], [], ["lexical"], ["lexical"]] as never };
    const s = segmentStats(ref, hyp, ["all", "lexical", "no_tag"]);
    // all: ref matched = Hund, sah, Hund = 3 of 5; hyp matched = Hund, sah, Hund(2nd) = 3 of 5 -> F = 0.6
    expect([...s.slice(0, 4)]).toEqual([3, 5, 3, 5]);
    expect(fMeasure(s, 0)).toBeCloseTo(0.6);
    // lexical: ref 2 of 2 matched; hyp 2 of 3 matched (third Hund clipped) -> P = 2/3, R = 1, F = 0.8
    expect([...s.slice(4, 8)]).toEqual([2, 2, 2, 3]);
    expect(fMeasure(s, 4)).toBeCloseTo(0.8);
    // no_tag: ref der sah den -> 1 of 3; hyp ein sah -> 1 of 2; P = 1/2, R = 1/3, F = 0.4
    expect([...s.slice(8, 12)]).toEqual([1, 3, 1, 2]);
    expect(fMeasure(s, 8)).toBeCloseTo(0.4);
    const side = (name: string, seg: typeof ref): TaggedSide => ({ name, docs: [{ id: "d", segments: [seg, seg] }] });
    const [r] = scoreSides(side("ref", ref), [side("hyp", hyp)], ["lexical"]);
    expect(r!.labels[0]!.f).toBeCloseTo(0.8);
    expect(r!.labels[0]!.refCount).toBe(4);
  });
});

describe("languages and the CLI", () => {
  it("plain tokenizer cuts CJK text by the list words", () => {
    const a = new PlainAnnotator("zh", ["您", "你"]);
    expect(a.annotate("您好，你呢?").tokens.map((t) => t.text)).toEqual(["您", "好", "，", "你", "呢", "?"]);
  });

  it("unknown language lists the supported ones and their tags", () => {
    expect(() => languageSupport("xx", lists, feats)).toThrow(/Supported: ar de es .* de: lexical,formality,pronouns,ellipsis/);
  });

  it("rejects different segment counts and non-English sources, writing nothing", async () => {
    const dir = mkdtempSync(join(tmpdir(), "muda-"));
    writeFileSync(join(dir, "src.txt"), "You know it.\nI do.\n");
    writeFileSync(join(dir, "tgt.txt"), "Du weißt es.\n");
    let r = await run("tag", "-l", "en-de", "-s", join(dir, "src.txt"), "--target", join(dir, "tgt.txt"), "-o", join(dir, "o.json"), "--quiet");
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/tgt\.txt: has 1 lines, but .*src\.txt has 2/);
    expect(existsSync(join(dir, "o.json"))).toBe(false);
    writeFileSync(join(dir, "tgt.txt"), "Du weißt es.\nIch weiß es.\n");
    r = await run("tag", "-l", "en-xx", "-s", join(dir, "src.txt"), "--target", join(dir, "tgt.txt"), "--quiet");
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/unsupported target language 'xx'/);
    r = await run("tag", "-l", "de-en", "-s", join(dir, "src.txt"), "--target", join(dir, "tgt.txt"), "--quiet");
    expect(r.err).toMatch(/from English/);
  });

  it("a WMT directory with -s/-r/--docs, or a positional file, is refused instead of ignored", async () => {
    const dir = mkdtempSync(join(tmpdir(), "muda-dir-"));
    writeFileSync(join(dir, "src.txt"), "You know.\n");
    let r = await run("score", dir, "-l", "en-de", "--docs", join(dir, "src.txt"));
    expect(r.code).toBe(2);
    expect(r.err).toContain(`${dir}: --docs cannot be combined with a WMT directory`);
    r = await run("score", join(dir, "src.txt"), "-l", "en-de", "-s", join(dir, "src.txt"), "-r", join(dir, "src.txt"), "-t", join(dir, "src.txt"));
    expect(r.code).toBe(2);
    expect(r.err).toContain("src.txt: not a directory");
    r = await run("tag", join(dir, "nope"), "-l", "en-de");
    expect(r.err).toContain("nope: no such directory");
  });

  it("tags and scores a small German document end to end", async () => {
    const dir = mkdtempSync(join(tmpdir(), "muda-"));
    const src = ["You know the virus.", "The virus is old.", "The virus is new.", "The virus is here.", "The virus is gone."];
    const ref = ["Sie kennen das Virus.", "Das Virus ist alt.", "Das Virus ist neu.", "Das Virus ist hier.", "Das Virus ist weg."];
    const hyp = ["Du kennst den Virus.", "Der Virus ist alt.", "Der Virus ist neu.", "Der Virus ist hier.", "Der Virus ist weg."];
    writeFileSync(join(dir, "src.txt"), src.join("\n") + "\n");
    writeFileSync(join(dir, "ref.txt"), ref.join("\n") + "\n");
    writeFileSync(join(dir, "hyp.txt"), hyp.join("\n") + "\n");
    writeFileSync(join(dir, "ref2.txt"), ref.join("\n") + "\n");
    const t = await run("tag", "-l", "en-de", "-s", join(dir, "src.txt"), "--target", join(dir, "ref.txt"), "--quiet");
    expect(t.code).toBe(0);
    const j = JSON.parse(t.out);
    expect(j.tags).toEqual(["lexical", "formality", "pronouns", "ellipsis"]);
    expect(j.counts.tags.formality).toBe(1); // "Sie"
    expect(j.documents[0].segments[0].tags[0]).toEqual(["formality"]);
    const s = await run("score", "-l", "en-de", "-s", join(dir, "src.txt"), "-r", join(dir, "ref.txt"), "-t", join(dir, "hyp.txt"), join(dir, "ref2.txt"), "--json", "-b", "50", "--quiet");
    expect(s.code).toBe(0);
    const rep = JSON.parse(s.out);
    expect(rep.systems.map((x: { name: string }) => x.name)).toEqual(["hyp.txt", "ref2.txt"]);
    const all = (k: number) => rep.systems[k].labels.find((l: { label: string }) => l.label === "all").f;
    expect(all(1)).toBe(1); // a copy of the reference
    expect(all(0)).toBeLessThan(1);
    expect(rep.bootstrap.all.comparisons[0].delta).toBeCloseTo(1 - all(0));
    expect(rep.signature).toMatch(/^muda\|pair:en-de\|ref:ref\.txt\|tags:all,lexical,formality,pronouns,ellipsis,no_tag\|tagger:proneval-morph\|align:fast_align-gdfa-ref\+system\|bootstrap:50\|seed:12345\|version:/);
    // The table, then the notes and the signature on stdout (sacrebleu style); -q keeps only the table.
    const args = ["score", "-l", "en-de", "-s", join(dir, "src.txt"), "-r", join(dir, "ref.txt"), "-t", join(dir, "ref2.txt"), "-b", "0"];
    const text = await run(...args);
    expect(text.out).toMatch(/^system\tall\tlexical\tformality\tpronouns\tellipsis\tno_tag\nref2\.txt\t1\.000\t/);
    expect(text.out).toMatch(/\n# MuDA word f-measure, .*\n# reference tokens per label: .*\n(?:# .*\n)*signature: muda\|pair:en-de\|.*\|align:fast_align-gdfa-ref\+system\|version:\S+\n$/);
    expect(text.out).toMatch(/\nref2\.txt\t1\.000\t1\.000\t1\.000\tn\/a\tn\/a\t1\.000\n/); // no pronoun or ellipsis token on either side
    expect(text.out).toContain("# n/a: neither the reference nor the system has a token with this tag\n");
    const quiet = await run(...args, "-q", "--format", "csv");
    expect(quiet.out).toMatch(/^system,all,lexical,formality,pronouns,ellipsis,no_tag\nref2\.txt,1\.000,[^\n]*\n$/);
  });
});

describe("muda score: what its numbers depend on", () => {
  it("a system's scores do not change when other systems are scored beside it; --align-with is named in the signature; swapped files are refused", async () => {
    const T = join(__dirname, "..", "..", "shared", "data", "wmt", "wmt23", "txt");
    if (!existsSync(join(T, "sources", "generaltest2023.en-de.src.en"))) return;
    const dir = mkdtempSync(join(tmpdir(), "muda-wmt-"));
    const cut = (p: string, name: string) => {
      writeFileSync(join(dir, name), readFileSync(join(T, p), "utf8").split("\n").slice(0, 60).join("\n") + "\n");
      return join(dir, name);
    };
    const s = cut("sources/generaltest2023.en-de.src.en", "src.en");
    const r = cut("references/generaltest2023.en-de.ref.refA.de", "ref.de");
    const a = cut("system-outputs/generaltest2023.en-de.hyp.AIRC.de", "AIRC.de");
    const b = cut("system-outputs/generaltest2023.en-de.hyp.GPT4-5shot.de", "GPT4.de");
    const one = await run("score", "-l", "en-de", "-s", s, "-r", r, "-t", a, "--json", "-q");
    const two = await run("score", "-l", "en-de", "-s", s, "-r", r, "-t", a, b, "--json", "-q", "-b", "0");
    expect(one.code, one.err).toBe(0);
    expect(two.code, two.err).toBe(0);
    const j1 = JSON.parse(one.out);
    const j2 = JSON.parse(two.out);
    expect(j2.systems[0].name).toBe("AIRC.de");
    expect(j2.systems[0].labels).toEqual(j1.systems[0].labels);
    expect(j2.referenceCounts).toEqual(j1.referenceCounts);
    expect(j1.signature).toMatch(/\|align:fast_align-gdfa-ref\+system\|version:/);
    expect(j2.signature).toBe(j1.signature);
    // A fixed extra corpus for the aligners: named in the signature, not scored.
    const extra = await run("score", "-l", "en-de", "-s", s, "-r", r, "-t", a, "--align-with", b, "--json", "-q");
    expect(extra.code, extra.err).toBe(0);
    const j3 = JSON.parse(extra.out);
    expect(j3.systems.map((x: { name: string }) => x.name)).toEqual(["AIRC.de"]);
    expect(j3.signature).toMatch(/\|align:fast_align-gdfa-ref\+system\|align-extra:1\|version:/);
    const swapped = await run("score", "-l", "en-de", "-s", r, "-r", s, "-t", a, "-q");
    expect(swapped.code).toBe(2);
    expect(swapped.err).toMatch(/ref\.de: reads like German, not English .*--no-check/);
  }, 120_000);
});

describe("German formality", () => {
  it("'sie' is formal only as mid-sentence 'Sie' or when aligned to 'you'", () => {
    const t = tagsOf([
      { en: sent("She/she/PRON knows/know/VERB ././PUNCT"), tgt: sent("Sie/sie/PRON weiß/wissen/VERB es/es/PRON ././PUNCT"), links: links("0-0 1-1 2-3") },
      { en: sent("You/you/PRON know/know/VERB ././PUNCT"), tgt: sent("Sie/sie/PRON wissen/wissen/VERB es/es/PRON ././PUNCT"), links: links("0-0 1-1 2-3") },
      { en: sent("I/I/PRON thank/thank/VERB you/you/PRON ././PUNCT"), tgt: sent("Ich/ich/PRON danke/danken/VERB ,/,/PUNCT dass/dass/SCONJ Sie/sie/PRON kamen/kommen/VERB ././PUNCT"), links: links("0-0 1-1 3-6") },
      { en: sent("they/they/PRON came/come/VERB"), tgt: sent("dass/dass/SCONJ sie/sie/PRON kamen/kommen/VERB"), links: links("0-1 1-2") },
    ], "de");
    expect(t[0]![0]).not.toContain("formality"); // sentence-initial, aligned to "she"
    expect(t[1]![0]).toContain("formality"); // aligned to "you"
    expect(t[2]![4]).toContain("formality"); // mid-sentence capitalised
    expect(t[3]![1]).not.toContain("formality"); // lowercase "sie"
  });
});
