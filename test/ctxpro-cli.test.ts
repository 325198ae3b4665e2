import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { registerCtxpro } from "../src/cli/ctxpro.js";
import { PrecomputedAnnotations, parseAnnotatedDocs } from "../src/ctxpro/annotations.js";
import { readTsvDocs } from "../src/ctxpro/identify.js";
import { runCli } from "./cli-helper.js";
import { VERSION } from "../src/version.js";

function run(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  return runCli(registerCtxpro, "ctxpro", args);
}

afterEach(() => {
  process.exitCode = 0;
});

/** Token "text/lemma/UPOS/FEATS" -> JSON token. */
const tok = (t: string) => {
  const [text, lemma, upos, feats] = t.split("/");
  return { text, lemma, upos, feats: feats ?? "_" };
};
const sentence = (spec: string) => {
  const tokens = spec.split(" ").map(tok);
  return { text: tokens.map((t) => t.text).join(" "), tokens };
};

// Two EN-DE documents: a referential "it" (Lampe, fem.) and a formal "you".
const docsSpec = [
  {
    id: "doc1",
    pairs: [
      ["I/I/PRON/Case=Nom bought/buy/VERB a/a/DET lamp/lamp/NOUN/Number=Sing ././PUNCT", "Ich/ich/PRON/Case=Nom kaufte/kaufen/VERB eine/ein/DET Lampe/Lampe/NOUN/Case=Acc|Gender=Fem|Number=Sing ././PUNCT", "0-0 1-1 2-2 3-3 4-4"],
      ["It/it/PRON/Case=Nom is/be/AUX broken/broken/ADJ ././PUNCT", "Sie/sie/PRON/Case=Nom|Gender=Fem|Number=Sing ist/sein/AUX kaputt/kaputt/ADJ ././PUNCT", "0-0 1-1 2-2 3-3"],
    ],
    coref: [{ mentions: [{ sent: 0, start: 2, end: 4, head: 3 }, { sent: 1, start: 0, end: 1, head: 0 }] }],
  },
  {
    id: "doc2",
    pairs: [["Thank/thank/VERB you/you/PRON/Case=Acc ././PUNCT", "Danke/danken/VERB Ihnen/Sie/PRON/Case=Dat ././PUNCT", "0-0 1-1 2-2"]],
    coref: [],
  },
];

function fixture(): { dir: string; tsv: string; ann: string } {
  const dir = mkdtempSync(join(tmpdir(), "ctxpro-cli-"));
  const tsv = join(dir, "docs.tsv");
  const ann = join(dir, "ann.json");
  const rows: string[] = [];
  const documents = docsSpec.map((d) => {
    const en = d.pairs.map((p) => sentence(p[0]));
    const tgt = d.pairs.map((p) => sentence(p[1]));
    en.forEach((s, k) => rows.push(`${d.id}\t${s.text}\t${tgt[k].text}`));
    return { id: d.id, en, tgt, alignment: d.pairs.map((p) => p[2]), coref: d.coref };
  });
  writeFileSync(tsv, rows.join("\n") + "\n");
  writeFileSync(ann, JSON.stringify({ lang: "de", documents }));
  return { dir, tsv, ann };
}

describe("ctxpro rules", () => {
  it("lists rule sets and labels as tsv, csv or json", async () => {
    let r = await run("rules", "-l", "de");
    expect(r.out).toMatch(/^name\tlanguage\tphenomenon\tdirection\tlabels\nDE_GENDER\tde\tgender\ten-de\t\d+\n/);
    r = await run("rules", "-l", "de", "--format", "csv");
    expect(r.out).toMatch(/^name,language,phenomenon,direction,labels\nDE_GENDER,de,gender,en-de,\d+\n/);
    r = await run("rules", "-l", "de", "--json");
    expect(JSON.parse(r.out)[0]).toMatchObject({ name: "DE_GENDER", language: "de", direction: "en-de" });
    r = await run("rules", "DE_FORMALITY", "--format", "json");
    const [set] = JSON.parse(r.out);
    expect(set).toMatchObject({ name: "DE_FORMALITY", phenomenon: "formality", direction: "en-de" });
    expect(set.labels[0]).toEqual({ label: expect.any(String), rule: expect.stringMatching(/->/) });
    r = await run("rules", "DE_FORMALITY");
    expect(r.out).toMatch(/^# DE_FORMALITY \(formality, en-de\): .*\nlabel\trule\n/);
  });
});

describe("ctxpro identify", () => {
  it("runs the rules over precomputed annotations and writes CTXPRO-format sets", async () => {
    const { dir, tsv, ann } = fixture();
    const outDir = join(dir, "out");
    const r = await run("identify", "-i", tsv, "--rules", "DE_GENDER", "de_formality", "DE_ANIMACY", "-l", "de", "--annotations", ann, "-o", outDir);
    expect(r.code).toBe(0);
    expect(readdirSync(outDir).sort()).toEqual(["animacy.de-en.json", "formality.en-de.json", "gender.en-de.json"]);
    const gender = JSON.parse(readFileSync(join(outDir, "gender.en-de.json"), "utf8"));
    expect(gender).toHaveLength(1);
    expect(gender[0]).toMatchObject({ expected: "sie", rule: "NOM.FEM.SING", "document id": "doc1", "segment id": 2, "ref ante phrase": "eine Lampe" });
    const formality = JSON.parse(readFileSync(join(outDir, "formality.en-de.json"), "utf8"));
    expect(formality.map((x: Record<string, unknown>) => [x.rule, x["document id"], x["segment id"]])).toEqual([["DAT.FORM+PLUR", "doc2", 1]]);
    const animacy = JSON.parse(readFileSync(join(outDir, "animacy.de-en.json"), "utf8"));
    expect(animacy[0]).toMatchObject({ expected: "it", "src segment": "Sie ist kaputt ." });
  });

  it("identify --quoted reads a fully quoted TSV like the plain one; -q prints nothing", async () => {
    const { dir, tsv, ann } = fixture();
    const quoted = join(dir, "quoted.tsv");
    const rows = readFileSync(tsv, "utf8").trimEnd().split("\n").map((l) => l.split("\t").map((c) => `"${c}"`).join("\t"));
    writeFileSync(quoted, rows.join("\n") + "\n");
    const r = await run("identify", "-i", quoted, "--quoted", "--rules", "DE_GENDER", "-l", "de", "-a", ann, "-o", join(dir, "q"), "-q");
    expect(r.code).toBe(0);
    expect(r.err).toBe("");
    const gender = JSON.parse(readFileSync(join(dir, "q", "gender.en-de.json"), "utf8"));
    expect(gender[0]).toMatchObject({ expected: "sie", "document id": "doc1", "segment id": 2 });
  });

  it("writes every rule set's file or none: one unwritable output leaves no other behind", async () => {
    const { dir, tsv, ann } = fixture();
    const outDir = join(dir, "all-or-none");
    mkdirSync(join(outDir, "formality.en-de.json"), { recursive: true }); // a directory where a file must go
    const r = await run("identify", "-i", tsv, "--rules", "DE_GENDER", "DE_FORMALITY", "-l", "de", "-a", ann, "-o", outDir, "-q");
    expect(r.code).toBe(2);
    expect(r.err).toContain("formality.en-de.json");
    expect(readdirSync(outDir)).toEqual(["formality.en-de.json"]);
  });

  it("bad TSV rows, unknown rules and languages: clear errors, nothing written", async () => {
    const { dir, ann } = fixture();
    const bad = join(dir, "bad.tsv");
    writeFileSync(bad, "d\tHello .\tHallo .\nd\tonly two fields\n");
    const outDir = join(dir, "out");
    let r = await run("identify", "-i", bad, "--rules", "DE_GENDER", "-l", "de", "-a", ann, "-o", outDir);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`${bad}:2: expected 3 tab-separated fields (docid, English, other language), found 2`);
    expect(existsSync(outDir)).toBe(false);
    r = await run("identify", "-i", bad, "--rules", "DE_GENDRE", "-l", "de", "-a", ann, "-o", outDir);
    expect(r.err).toMatch(/unknown rule set 'DE_GENDRE'; valid names: DE_GENDER/);
    r = await run("identify", "-i", bad, "--rules", "DE_GENDER", "-l", "nl", "-a", ann, "-o", outDir);
    expect(r.err).toMatch(/unknown language 'nl'; CTXPRO languages are: de, es, fr, it, pl, pt, ru/);
    r = await run("identify", "-i", bad, "--rules", "DE_GENDER", "-l", "de", "-a", ann, "-o", outDir, "--fallback-antecedent", "uniq");
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--fallback-antecedent must be one of off, nearest, unique, got 'uniq'/);
    expect(existsSync(outDir)).toBe(false);
  });

  it("a rule file with an unknown label: exit 2, the file and the label named, nothing written", async () => {
    const { dir, tsv, ann } = fixture();
    const rules = join(dir, "my-rules.json");
    const rule = { type: "pronoun", english_case: "*", aligned_case: "*", english_form: "you", aligned_form: "Sie", english_coref_pos: "", aligned_coref_gender: "", aligned_coref_number: "", aligned_coref_pos: "", requires_coref: "false" };
    writeFileSync(rules, JSON.stringify({ "NOM.FORM.SING": rule, "NOM.POLITE.SING": rule }));
    const outDir = join(dir, "out-labels");
    const r = await run("identify", "-i", tsv, "--rules", rules, "-l", "de", "-a", ann, "-o", outDir);
    expect(r.code).toBe(2);
    expect(r.err).toContain(rules);
    expect(r.err).toMatch(/unknown rule label "NOM.POLITE.SING": a label is dot-separated parts from NOM ACC/);
    expect(r.err).not.toMatch(/at .*\.js:\d+/);
    expect(existsSync(outDir)).toBe(false);
    // The same rules under a known label load.
    writeFileSync(rules, JSON.stringify({ "NOM.FORM.SING": rule, "NOM.FORM.SING.ALT": rule }));
    expect((await run("identify", "-i", tsv, "--rules", rules, "-l", "de", "-a", ann, "-o", outDir, "-q")).code).toBe(0);
  });

  it("--uncovered-case gives a Polish genitive-tagged jej CTXPRO's DAT.FEM.SING animacy rule; off by default", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ctxpro-cli-"));
    const pairs = [
      ["I/I/PRON/Case=Nom like/like/VERB my/my/PRON/Poss=Yes job/job/NOUN/Number=Sing ././PUNCT", "Lubię/lubić/VERB moją/mój/DET pracę/praca/NOUN/Case=Acc|Gender=Fem|Number=Sing ././PUNCT", "1-0 2-1 3-2 4-3"],
      ["I/I/PRON/Case=Nom need/need/VERB it/it/PRON/Case=Acc ././PUNCT", "Potrzebuję/potrzebować/VERB jej/on/PRON/Case=Gen|Gender=Fem|Number=Sing ././PUNCT", "1-0 2-1 3-2"],
    ];
    const en = pairs.map((p) => sentence(p[0]!));
    const tgt = pairs.map((p) => sentence(p[1]!));
    const tsv = join(dir, "pl.tsv");
    writeFileSync(tsv, en.map((s, k) => `d\t${s.text}\t${tgt[k]!.text}`).join("\n") + "\n");
    const ann = join(dir, "ann.json");
    const coref = [{ mentions: [{ sent: 0, start: 2, end: 4, head: 3 }, { sent: 1, start: 2, end: 3, head: 2 }] }];
    writeFileSync(ann, JSON.stringify({ lang: "pl", documents: [{ id: "d", en, tgt, alignment: pairs.map((p) => p[2]), coref }] }));
    const read = (out: string) => JSON.parse(readFileSync(join(out, "animacy.pl-en.json"), "utf8")) as Array<Record<string, string>>;
    let r = await run("identify", "-i", tsv, "--rules", "PL_ANIMACY", "-l", "pl", "-a", ann, "-o", join(dir, "off"), "-q");
    expect(r.code).toBe(0);
    expect(read(join(dir, "off"))).toEqual([]);
    r = await run("identify", "-i", tsv, "--rules", "PL_ANIMACY", "-l", "pl", "-a", ann, "-o", join(dir, "on"), "-q", "--uncovered-case");
    expect(r.code).toBe(0);
    expect(read(join(dir, "on")).map((x) => [x.rule, x.expected, x["src pronoun"]])).toEqual([["DAT.FEM.SING", "it", "jej"]]);
  });

  it("a sentence missing from the annotations is named with its TSV line", async () => {
    const { dir, ann } = fixture();
    const tsv = join(dir, "other.tsv");
    writeFileSync(tsv, "x\tUnknown sentence .\tUnbekannt .\n");
    const r = await run("identify", "-i", tsv, "--rules", "DE_GENDER", "-l", "de", "-a", ann, "-o", join(dir, "o"));
    expect(r.code).toBe(2);
    expect(r.err).toContain(`${tsv}:1: ${ann}: no precomputed en annotation for the sentence "Unknown sentence ."`);
  });

  it("reads the TSV through fast-csv: bare quotes are text by default (sacrebleu --echo); --quoted reads quoted cells with tabs and newlines", async () => {
    const { dir } = fixture();
    const bare = join(dir, "bare.tsv");
    writeFileSync(bare, 'a\tHe said "no\t"Nein" , sagte er\na\t"Quoted" start .\tx "\n');
    let docs = await readTsvDocs([bare]);
    expect(docs[0]!.en).toEqual(['He said "no', '"Quoted" start .']);
    expect(docs[0]!.other).toEqual(['"Nein" , sagte er', 'x "']);
    expect(docs[0]!.where).toEqual([`${bare}:1`, `${bare}:2`]);
    const quoted = join(dir, "quoted.tsv");
    writeFileSync(quoted, 'a\t"tab\there"\t"zwei\nZeilen"\nb\t"say ""hi"""\tsag hallo\nb\tonly two\n');
    await expect(readTsvDocs([quoted], { quoted: true })).rejects.toThrow(`${quoted}:4: expected 3 tab-separated fields (docid, English, other language), found 2`);
    writeFileSync(quoted, 'a\t"tab\there"\t"zwei\nZeilen"\nb\t"say ""hi"""\tsag hallo\n');
    docs = await readTsvDocs([quoted], { quoted: true });
    expect(docs.map((d) => [d.id, d.en, d.other, d.where])).toEqual([
      ["a", ["tab\there"], ["zwei\nZeilen"], [`${quoted}:1`]],
      ["b", ['say "hi"'], ["sag hallo"], [`${quoted}:3`]],
    ]);
    // Without --quoted, the tab inside the quoted cell is a fourth field: the error says how to read it.
    await expect(readTsvDocs([quoted])).rejects.toThrow(/quoted.tsv:1: expected 3 tab-separated fields .* found 4; a tab inside a sentence needs --quoted input/);
    const bin = join(dir, "bad-utf8.tsv");
    writeFileSync(bin, Buffer.concat([Buffer.from("a\tx\ty\na\t"), Buffer.from([0xff, 0xfe]), Buffer.from("\ty\n")]));
    await expect(readTsvDocs([bin])).rejects.toThrow(`${bin}:2: invalid UTF-8`);
  });

  it("refuses a document whose rows are not consecutive", async () => {
    const { dir } = fixture();
    const tsv = join(dir, "split.tsv");
    writeFileSync(tsv, "a\tx\ty\nb\tx\ty\na\tx\ty\n");
    await expect(readTsvDocs([tsv])).rejects.toThrow(/split.tsv:3: document 'a' appears again/);
  });
});

describe("annotations JSON", () => {
  it("parses FEATS strings, Pharaoh alignments and answers the interfaces", async () => {
    const { ann } = fixture();
    const p = PrecomputedAnnotations.fromFile(ann, "de");
    const s = p.morph.tgt.annotate("Sie ist kaputt .");
    expect(s.tokens[0].feats).toEqual({ Case: "Nom", Gender: "Fem", Number: "Sing" });
    const a = await p.aligner.align([["Thank", "you", "."]], [["Danke", "Ihnen", "."]]);
    expect(a).toEqual([[[0, 0], [1, 1], [2, 2]]]);
    expect(() => p.morph.en.annotate("nope")).toThrow(/no precomputed en annotation/);
  });

  it("reports malformed annotations with the document and token", () => {
    expect(() => parseAnnotatedDocs('{"documents": [{"id": "d", "en": [{"text": "a", "tokens": [{"text": "a"}]}], "tgt": [], "alignment": []}]}', "a.json")).toThrow(
      /a.json: document 'd', en sentence 1, token 1: token "upos" must be a non-empty string/,
    );
    expect(() => parseAnnotatedDocs('{"documents": [{"id": "d", "en": [], "tgt": [], "alignment": ["0-x"]}]}', "a.json")).toThrow(/bad alignment link '0-x'/);
    expect(() => parseAnnotatedDocs("{", "a.json")).toThrow(/a.json: not valid JSON/);
  });
});

describe("ctxpro extract and score", () => {
  async function identified(): Promise<{ dir: string; tsv: string; set: string }> {
    const { dir, tsv, ann } = fixture();
    await run("identify", "-i", tsv, "--rules", "DE_GENDER", "-l", "de", "-a", ann, "-o", dir);
    return { dir, tsv, set: join(dir, "gender.en-de.json") };
  }

  it("extract writes inputs; --splits writes gzipped splits and inputs", async () => {
    const { dir, tsv, set } = await identified();
    const out = join(dir, "inputs.txt");
    let r = await run("extract", "-e", set, "-i", tsv, "-o", out);
    expect(r.code).toBe(0);
    expect(readFileSync(out, "utf8")).toBe("I bought a lamp .<eos> It is broken .\n");
    const sp = join(dir, "splits");
    r = await run("extract", "-e", set, "-i", tsv, "--splits", sp);
    expect(r.code).toBe(0);
    expect(readdirSync(sp).sort()).toEqual([
      "gender.en-de.dev.gz", "gender.en-de.dev.json.gz", "gender.en-de.devtest.gz", "gender.en-de.devtest.json.gz", "gender.en-de.test.gz", "gender.en-de.test.json.gz",
    ]);
    expect(JSON.parse(gunzipSync(readFileSync(join(sp, "gender.en-de.test.json.gz"))).toString())).toHaveLength(1);
    expect(gunzipSync(readFileSync(join(sp, "gender.en-de.test.gz"))).toString()).toBe("I bought a lamp .<eos> It is broken .\n");
    // the gzipped split is a valid evaluation set for score; the inputs line as a context-translated output
    const hyp = join(dir, "ctx.txt");
    writeFileSync(hyp, "Ich habe eine Lampe gekauft. Sie ist kaputt.\n");
    r = await run("score", "-e", join(sp, "gender.en-de.test.json.gz"), "-t", hyp, "--last-sentence");
    expect(r.out).toContain(`${hyp}\t1\t1\t100.0\n`);
    // the default drops exactly the context (the segment has one sentence)
    r = await run("score", "-e", join(sp, "gender.en-de.test.json.gz"), "-t", hyp);
    expect(r.out).toContain(`${hyp}\t1\t1\t100.0\n`);
  });

  it("extract with a TSV that does not match writes nothing", async () => {
    const { dir, set } = await identified();
    const other = join(dir, "other.tsv");
    writeFileSync(other, "doc1\tA .\tB .\ndoc1\tC .\tD .\n");
    const sp = join(dir, "splits2");
    const r = await run("extract", "-e", set, "-i", other, "--splits", sp);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/item 1: its "src segment" differs from row .*other.tsv:2/);
    expect(existsSync(sp)).toBe(false);
  });

  it("score: accuracy, --complete, --json, bootstrap; bad hypotheses fail without output", async () => {
    const { dir, set } = await identified();
    const good = join(dir, "good.txt");
    const bad = join(dir, "bad.txt");
    writeFileSync(good, "Sie ist kaputt.\n");
    writeFileSync(bad, "Es ist kaputt.\n");
    let r = await run("score", "-e", set, "-t", good);
    expect(r.out).toBe(
      `system\tcorrect\ttotal\taccuracy (%)\n${good}\t1\t1\t100.0\n` +
        `# ctxpro score: ${set}, 1 items; accuracy in % of items\nsignature: ctxpro|mode:last-k|split:proneval-moses.de|match:word|sep:none|version:${VERSION}\n`,
    );
    r = await run("score", "-e", set, "-t", good, "--complete");
    expect(r.out).toContain("NOM.FEM.SING (sie)\t1\t1\t100.0%");
    r = await run("score", "-e", set, "-t", bad, good, "--json", "--bootstrap", "50");
    const rep = JSON.parse(r.out);
    expect(rep.systems.map((s: { accuracy: number }) => s.accuracy)).toEqual([0, 100]);
    expect(rep.bootstrap.samples).toBe(50);
    expect(rep.bootstrap.comparisons[0].delta).toBe(100);

    const two = join(dir, "two.txt");
    writeFileSync(two, "Sie.\nSie.\n");
    const out = join(dir, "report.txt");
    r = await run("score", "-e", set, "-t", two, "-o", out);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`${two}: has 2 lines but the evaluation set ${set} has 1 items`);
    expect(existsSync(out)).toBe(false);
    const empty = join(dir, "empty.txt");
    writeFileSync(empty, "\n");
    r = await run("score", "-e", set, "-t", empty);
    expect(r.err).toContain(`${empty}:1: empty hypothesis`);
  });

  it("score rejects a file that is not an evaluation set", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ctxpro-cli-"));
    mkdirSync(join(dir, "x"));
    const set = join(dir, "set.json");
    writeFileSync(set, '[{"rule": "A"}]');
    const r = await run("score", "-e", set, "-t", set);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`${set}: item 1: missing or empty "expected"`);
  });
});
