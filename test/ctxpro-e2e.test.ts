// End to end: raw parallel TSV -> built-in annotators (tagger, coreference, corpus-trained aligner)
// -> CTXPRO rules, on a handful of sentences per language where the expected items are obvious.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Command } from "commander";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { registerCtxpro } from "../src/cli/ctxpro.js";
import { CorpusAligner, defaultAnnotators } from "../src/ctxpro/annotators.js";
import { identifyFiles, InputChecker, scorableWithReference, scriptShare, type TsvRow } from "../src/ctxpro/identify.js";
import { builtinRuleSets, loadRuleSet } from "../src/ctxpro/rules.js";
import { loadDefaultCoref, loadDefaultMorph, tokenize } from "../src/annotate/index.js";
import type { CtxproItem } from "../src/ctxpro/items.js";

const dir = mkdtempSync(join(tmpdir(), "ctxpro-e2e-"));

function tsv(name: string, rows: string[][]): string {
  const path = join(dir, name);
  writeFileSync(path, rows.map((r) => r.join("\t")).join("\n") + "\n");
  return path;
}

/** Per language: a gender item (document d1, segment 2, antecedent in segment 1) and a formality item (d2). */
const CASES: Record<string, { rows: string[][]; gender: [string, string, string, string] }> = {
  de: {
    rows: [["d1", "The key was lost.", "Der Schlüssel war verloren."], ["d1", "It was under the bed.", "Er war unter dem Bett."], ["d2", "You are late.", "Du bist spät."]],
    gender: ["NOM.MASC.SING", "er", "key", "Schlüssel"],
  },
  fr: {
    rows: [["d1", "The key was lost.", "La clé était perdue."], ["d1", "It was under the bed.", "Elle était sous le lit."], ["d2", "You are late.", "Tu es en retard."]],
    gender: ["NOM.FEM.SING", "elle", "key", "clé"],
  },
  es: {
    rows: [["d1", "The key was lost.", "La llave estaba perdida."], ["d1", "It was under the bed.", "Ella estaba debajo de la cama."], ["d2", "You are late.", "Tú llegas tarde."]],
    gender: ["NOM.FEM.SING", "ella", "key", "llave"],
  },
  it: {
    rows: [["d1", "The book was lost.", "Il libro era perso."], ["d1", "It was under the bed.", "Lui era sotto il letto."], ["d2", "You are late.", "Tu sei in ritardo."]],
    gender: ["NOM.MASC.SING", "lui", "book", "libro"],
  },
  pt: {
    rows: [["d1", "The key was lost.", "A chave estava perdida."], ["d1", "It was under the bed.", "Ela estava debaixo da cama."], ["d2", "You are late.", "Tu estás atrasado."]],
    gender: ["NOM.FEM.SING", "ela", "key", "chave"],
  },
  pl: {
    rows: [["d1", "My key was lost.", "Mój klucz był zgubiony."], ["d1", "It was under the bed.", "On był pod łóżkiem."], ["d2", "You are late.", "Ty jesteś spóźniony."]],
    gender: ["NOM.MASC.SING", "on", "key", "klucz"],
  },
  ru: {
    rows: [["d1", "My key was lost.", "Мой ключ был потерян."], ["d1", "It was under the bed.", "Он был под кроватью."], ["d2", "You are late.", "Ты опоздал."]],
    gender: ["NOM.MASC.SING", "он", "key", "ключ"],
  },
};

const key = (x: CtxproItem) => [x.rule, x.expected, x["document id"], x["segment id"]];

describe("identify with the built-in annotators", () => {
  let english: { morph: ReturnType<typeof loadDefaultMorph>; coref: ReturnType<typeof loadDefaultCoref> };
  beforeAll(() => {
    english = { morph: loadDefaultMorph("en"), coref: loadDefaultCoref() };
  });

  for (const [lang, c] of Object.entries(CASES)) {
    it(`finds the obvious gender, formality and animacy items (${lang})`, async () => {
      const ann = await defaultAnnotators(lang, { english, threads: 1 });
      const sets = builtinRuleSets()
        .filter((s) => s.lang === lang && ["gender", "formality", "animacy"].includes(s.phenomenon))
        .map((s) => loadRuleSet(s.name, lang));
      const warnings: string[] = [];
      const { found, stats } = await identifyFiles([tsv(`${lang}.tsv`, c.rows)], lang, sets, ann, { warn: (m) => warnings.push(m) });
      expect(warnings).toEqual([]);
      expect(stats).toMatchObject({ docs: 2, pairs: 3 });
      const up = lang.toUpperCase();
      const [rule, expected, srcHead, refHead] = c.gender;
      const gender = found.get(`${up}_GENDER`)!;
      expect(gender.map(key)).toEqual([[rule, expected, "d1", 2]]);
      expect(gender[0]).toMatchObject({ "src ante head": srcHead, "ref ante head": refHead, "ante distance": 1, "src pronoun": "it" });
      const formality = found.get(`${up}_FORMALITY`)!;
      expect(formality.map(key)).toEqual([["NOM.INFORM.SING", c.rows[2]![2]!.split(" ")[0]!.toLowerCase(), "d2", 1]]);
      const animacy = found.get(`${up}_ANIMACY`)!;
      expect(animacy.map((x) => [x.expected, x["src segment"]])).toEqual([["it", c.rows[1]![2]]]);
    });
  }

  it("an untrained CorpusAligner trains on the batch it is given", async () => {
    const a = new CorpusAligner({ threads: 1 });
    const links = await a.align([["the", "key"], ["it", "was", "lost"]], [["der", "Schlüssel"], ["er", "war", "verloren"]]);
    expect(links[1]).toContainEqual([0, 0]);
    expect(a.trained).toBe(false);
  });

  it("words named like Object.prototype members are plain words", () => {
    for (const lang of ["es", "it", "fr", "de"] as const) {
      expect(tokenize("constructor toString __proto__", lang).map((t) => t.text)).toEqual(["constructor", "toString", "__proto__"]);
    }
    const s = english.morph.annotate("The constructor called toString on it.");
    expect(s.tokens.map((t) => t.text)).toContain("constructor");
    expect(() => english.coref.resolve([s])).not.toThrow();
  });

  it("Romance object clitics before a verb are pronouns, before a noun articles", () => {
    const upos = (lang: string, s: string) => loadDefaultMorph(lang).annotate(s).tokens.map((t) => t.upos);
    expect(upos("it", "Non la vedo .")).toEqual(["ADV", "PRON", "VERB", "PUNCT"]);
    expect(upos("it", "Ho visto la ragazza .")[2]).toBe("DET");
    expect(upos("es", "La quiero mucho .")[0]).toBe("PRON");
    expect(upos("es", "Compré la camisa .")[1]).toBe("DET");
  });

  it("unsupported languages are refused", async () => {
    await expect(defaultAnnotators("nl")).rejects.toThrow(/unsupported language 'nl'.*de, es, fr, it, pl, pt, ru/);
  });
});

describe("unscorable items", () => {
  it("an expected form that is only part of a word (enclitic, contraction) is not scorable", () => {
    expect(scorableWithReference({ expected: "lo", "ref segment": "Sólo necesito verlo." })).toBe(false);
    expect(scorableWithReference({ expected: "dem", "ref segment": "Er geht zum Bahnhof." })).toBe(false);
    expect(scorableWithReference({ expected: "lo", "ref segment": "Lo veo." })).toBe(true);
    expect(scorableWithReference({ expected: "la nôtre", "ref segment": "C'est la nôtre !" })).toBe(true);
  });
});

describe("input checks", () => {
  const row = (en: string, other: string, line: number): TsvRow => ({ doc: "d", en, other, file: "x.tsv", line });

  it("measures the share of letters in the language's script", () => {
    expect(scriptShare("Он был под кроватью.", "ru")).toBe(1);
    expect(scriptShare("Er war unter dem Bett.", "ru")).toBe(0);
    expect(scriptShare("Он был под кроватью.", "de")).toBe(0);
    expect(scriptShare("42 !", "de")).toBeUndefined();
    expect(scriptShare("@user44 https://www.youtube.com/watch?v=WxsYTK8l_Gk", "ru")).toBeUndefined();
    expect(scriptShare("Из его рассылки: https://jakobnielsenphd.substack.com/p/x", "ru")).toBe(1);
  });

  it("warns about single lines, then errors when a column is mostly in the wrong script", () => {
    const warnings: string[] = [];
    const c = new InputChecker("ru", (m) => warnings.push(m), { decideAfter: 4 });
    c.check(row("Hello there.", "Привет всем.", 1));
    c.check(row("Hello there.", "Hello everyone, in Latin letters.", 2));
    c.check(row("", "Привет всем.", 3));
    expect(warnings[0]).toMatch(/^x\.tsv:2: warning: the Russian \(3rd\) column is not in Cyrillic script/);
    expect(warnings[1]).toMatch(/^x\.tsv:3: warning: empty English \(2nd\) column/);
    c.check(row("Hello there.", "Привет всем.", 4));
    const bad = new InputChecker("ru", () => {}, { decideAfter: 3 });
    bad.check(row("Hello there.", "Hallo zusammen.", 1));
    bad.check(row("Hello there.", "Hallo zusammen.", 2));
    expect(() => bad.check(row("Hello there.", "Hallo zusammen.", 3))).toThrow(/3 of the first 3 checked rows have the Russian \(3rd\) column in another script than Cyrillic \(first at x\.tsv:1\)/);
  });

  it("recognises swapped columns from function words", () => {
    const c = new InputChecker("de", () => {});
    for (let k = 1; k <= 10; k++) c.check(row("Ich habe den Schlüssel nicht, und das ist auch gut so.", "I do not have the key, and that is fine with me.", k));
    expect(() => c.finish("x.tsv:10")).toThrow(/English \(2nd\) column reads like German, not English/);
  });
});

describe("ctxpro identify CLI with the built-in annotators", () => {
  async function run(...args: string[]): Promise<{ code: number; err: string }> {
    const program = new Command().exitOverride();
    registerCtxpro(program);
    let err = "";
    const o = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    const e = vi.spyOn(process.stderr, "write").mockImplementation((s) => ((err += String(s)), true));
    try {
      await program.parseAsync(["node", "proneval", "ctxpro", ...args]);
    } finally {
      o.mockRestore();
      e.mockRestore();
    }
    const code = Number(process.exitCode ?? 0);
    process.exitCode = 0;
    return { code, err };
  }
  afterEach(() => {
    process.exitCode = 0;
  });

  it("runs by default, with --align-corpus, and reports counts", async () => {
    const input = tsv("fr-cli.tsv", CASES.fr!.rows);
    const extra = tsv("fr-extra.tsv", [["The key is here.", "La clé est ici."], ["It is here.", "Elle est ici."]]);
    const out = join(dir, "out-fr");
    // Without -q: progress and the counts on stderr (-q prints neither, tests in ctxpro-cli).
    const r = await run("identify", "-i", input, "--rules", "FR_GENDER", "FR_FORMALITY", "-l", "fr", "--align-corpus", extra, "-o", out);
    expect(r.code).toBe(0);
    expect(r.err).toContain(`aligner: 2 extra sentence pairs from ${extra}`);
    expect(r.err).toContain("identify: 3 segment pairs in 2 documents");
    expect(r.err).toContain("FR_GENDER: 1 items");
    const gender = JSON.parse(readFileSync(join(out, "gender.en-fr.json"), "utf8"));
    expect(gender.map(key)).toEqual([["NOM.FEM.SING", "elle", "d1", 2]]);
  });

  it("--no-align-tags runs the aligner without tag anchors", async () => {
    const input = tsv("fr-cli-notags.tsv", CASES.fr!.rows);
    const out = join(dir, "out-fr-notags");
    const r = await run("identify", "-i", input, "--rules", "FR_GENDER", "-l", "fr", "--no-align-tags", "-o", out, "-q");
    expect(r.code).toBe(0);
    const gender = JSON.parse(readFileSync(join(out, "gender.en-fr.json"), "utf8"));
    expect(gender.map(key)).toEqual([["NOM.FEM.SING", "elle", "d1", 2]]);
  });

  it("wrong script for the language: an error naming the line, nothing written", async () => {
    const input = tsv("ru-as-de.tsv", CASES.ru!.rows);
    const out = join(dir, "out-bad");
    const r = await run("identify", "-i", input, "--rules", "DE_GENDER", "-l", "de", "-o", out, "-q");
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/ru-as-de\.tsv:1: warning: the German \(3rd\) column is not in Latin script/);
    expect(r.err).toMatch(/3 of the first 3 checked rows have the German \(3rd\) column in another script than Latin/);
    expect(existsSync(out)).toBe(false);
  });

  it("a mis-split line is an error with its line; a bad --align-corpus line too", async () => {
    const input = tsv("missplit.tsv", [...CASES.de!.rows, ["d3", "Only English here and no tab"]]);
    let r = await run("identify", "-i", input, "--rules", "DE_GENDER", "-l", "de", "-o", join(dir, "o1"), "-q");
    expect(r.code).toBe(2);
    expect(r.err).toContain(`${input}:4: expected 3 tab-separated fields (docid, English, other language), found 2`);
    const good = tsv("de-ok.tsv", CASES.de!.rows);
    const extra = tsv("bad-extra.tsv", [["one", "two", "three", "four"]]);
    r = await run("identify", "-i", good, "--rules", "DE_GENDER", "-l", "de", "--align-corpus", extra, "-o", join(dir, "o2"), "-q");
    expect(r.code).toBe(2);
    expect(r.err).toContain(`${extra}:1: --align-corpus: expected`);
  });
});
