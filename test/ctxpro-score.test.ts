import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatResult } from "../src/io/table.js";
import {
  ExpectedForm,
  checkHypotheses,
  ctxproPasses,
  reportTables,
  pairedBootstrap,
  scoreFiles,
  scoreSystem,
  segmentPart,
  words,
} from "../src/ctxpro/score.js";
import type { CtxproItem } from "../src/ctxpro/items.js";
import { mulberry32 } from "../src/core/prng.js";

const found = (form: string, text: string) => new ExpectedForm(form).foundIn(words(text));

describe("whole-word matching", () => {
  it("ignores case and punctuation", () => {
    expect(found("sie", "Ich kann Sie nicht sehen.")).toBe(true);
    expect(found("usted", "¿Usted?")).toBe(true);
    expect(found("él", "—Él vino, «él».")).toBe(true);
    expect(found("её", "Я вижу её!")).toBe(true);
  });

  it("matches whole words only", () => {
    expect(found("lo", "Solo lo sé")).toBe(true);
    expect(found("lo", "Solo sé")).toBe(false);
    expect(found("es", "Esto est.")).toBe(false);
    expect(found("le", "dis-le")).toBe(true);
  });

  it("handles multi-word forms like 'la nôtre'", () => {
    expect(found("la nôtre", "C'est la nôtre.")).toBe(true);
    expect(found("la nôtre", "C'est LA NÔTRE !")).toBe(true);
    expect(found("la nôtre", "la vôtre et la notre")).toBe(false);
    expect(found("la nôtre", "la maison nôtre")).toBe(false);
  });

  it("keeps elision apart: l'a is not la, t' needs its apostrophe", () => {
    expect(found("la", "Il ne l'a pas dit.")).toBe(false);
    expect(found("t'", "Je t'aime.")).toBe(true);
    expect(found("t'", "Je t’aime.")).toBe(true);
    expect(found("t'", "Et t aime")).toBe(false);
    expect(found("it", "It's worth it.")).toBe(true);
  });

  it("the ctxpro mode reproduces the original substring test (and its quirks)", () => {
    expect(ctxproPasses("Ich kann Sie nicht sehen.", "sie")).toBe(true);
    expect(ctxproPasses("Il ne l'a pas dit.", "la")).toBe(true);
    expect(ctxproPasses("¿Usted?", "usted")).toBe(false);
  });

  it("a form without letters (released junk items expecting '-') must be a whitespace token", () => {
    expect(new ExpectedForm("-").foundIn(words("- Кому?"), "- Кому?")).toBe(true);
    expect(new ExpectedForm("-").foundIn(words("Mm-hmm."), "Mm-hmm.")).toBe(false);
  });

  it("unicode normalisation: decomposed accents match composed forms", () => {
    expect(found("él", "E\u0301l vino")).toBe(true);
  });
});

const items: CtxproItem[] = [
  { expected: "du", rule: "NOM.INFORM.SING", "ref segment": "Kannst du?" },
  { expected: "Sie", rule: "NOM.FORM+PLUR", "ref segment": "Können Sie?" },
  { expected: "du", rule: "NOM.INFORM.SING", "ref segment": "Kannst du?" },
  { expected: "la nôtre", rule: "GEN.FEM.SING.1P", "ref segment": "C'est la nôtre." },
];

describe("scoring", () => {
  it("computes accuracy and the per-rule breakdown", () => {
    const s = scoreSystem("sys", items, ["Kannst du?", "Können Sie?", "Kannst Du?", "c'est le nôtre"]);
    expect(s.correct).toBe(3);
    expect(s.accuracy).toBe(75);
    expect(s.perRule).toEqual([
      { rule: "NOM.INFORM.SING", form: "du", correct: 2, total: 2, accuracy: 100 },
      { rule: "NOM.FORM+PLUR", form: "Sie", correct: 1, total: 1, accuracy: 100 },
      { rule: "GEN.FEM.SING.1P", form: "la nôtre", correct: 0, total: 1, accuracy: 0 },
    ]);
  });

  it("takes the segment part of context-translated output", () => {
    expect(segmentPart("Wo bist du? Ich sehe Sie.", { lastSentence: true, lang: "de" })).toBe("Ich sehe Sie.");
    expect(segmentPart("Kontext. Mehr.<eos> Ich sehe Sie. Ja.", { separator: "<eos>" })).toBe("Ich sehe Sie. Ja.");
    const s = scoreSystem("ctx", items.slice(0, 1), ["Bist du da? Ja, ich bin es."], { lastSentence: true, lang: "de" });
    expect(s.correct).toBe(0);
  });

  it("refuses wrong line counts and empty hypotheses, naming file and line", () => {
    expect(() => checkHypotheses(["a", "b"], 3, "hyp.txt", "set.json")).toThrow(/hyp.txt: has 2 lines but the evaluation set set.json has 3 items/);
    expect(() => checkHypotheses(["a", " ", "c"], 3, "hyp.txt", "set.json")).toThrow(/hyp.txt:2: empty hypothesis/);
    expect(() => checkHypotheses(["a", "", "c"], 3, "hyp.txt", "set.json", true)).not.toThrow();
  });
});

describe("paired bootstrap", () => {
  const rand = mulberry32(7);
  const n = 400;
  const many: CtxproItem[] = Array.from({ length: n }, () => ({ expected: "du", rule: "R", "ref segment": "du" }));
  const good = many.map(() => (rand() < 0.8 ? "du" : "Sie"));
  const bad = many.map(() => (rand() < 0.5 ? "du" : "Sie"));
  const a = scoreSystem("a", many, bad);
  const b = scoreSystem("b", many, good);

  it("is deterministic for a seed and changes with the seed", () => {
    const r1 = pairedBootstrap([a, b], 300, 42);
    const r2 = pairedBootstrap([a, b], 300, 42);
    const r3 = pairedBootstrap([a, b], 300, 43);
    expect(r1).toEqual(r2);
    expect(r3.systems[0].ci).not.toEqual(r1.systems[0].ci);
  });

  it("gives the same draws whatever the number of systems (packed and unpacked paths)", () => {
    const two = pairedBootstrap([a, b], 200, 9);
    const wide = pairedBootstrap([a, b, ...Array.from({ length: 31 }, (_, k) => scoreSystem(`s${k}`, many, bad))], 200, 9);
    expect(wide.systems.slice(0, 2)).toEqual(two.systems);
    expect(wide.comparisons[0]).toEqual(two.comparisons[0]);
  });
  it("finds a large difference significant and no difference insignificant", () => {
    const r = pairedBootstrap([a, b], 1000, 1);
    expect(r.comparisons[0].delta).toBeGreaterThan(20);
    expect(r.comparisons[0].p).toBeLessThan(0.01);
    expect(r.comparisons[0].ci[0]).toBeGreaterThan(0);
    const same = pairedBootstrap([a, scoreSystem("a2", many, bad)], 1000, 1);
    expect(same.comparisons[0].delta).toBe(0);
    expect(same.comparisons[0].p).toBe(1);
    const ci = r.systems[1].ci;
    expect(ci[0]).toBeLessThan(b.accuracy);
    expect(ci[1]).toBeGreaterThan(b.accuracy);
  });
});

describe("scoreFiles", () => {
  it("reads hypothesis files and formats the report", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ctxpro-score-"));
    const h1 = join(dir, "h1.txt");
    const h2 = join(dir, "h2.txt");
    writeFileSync(h1, "du\nSie\ndu\nla nôtre\n");
    writeFileSync(h2, "Sie\nSie\ndu\nnôtre\n");
    const r = scoreFiles("set.json", items, [h1, h2], {}, { samples: 100, seed: 3 });
    expect(r.systems.map((s) => s.accuracy)).toEqual([100, 50]);
    const { tables, notes } = reportTables(r, true);
    const text = await formatResult(tables, "tsv", { notes, signature: r.signature });
    expect(text).toContain("GEN.FEM.SING.1P (la nôtre)\t1\t1\t100.0%");
    expect(text).toMatch(/\n[^\n]*h2.txt\t[^\n]*h1.txt\t-50.0\t[^\n]*\n/);
    expect(text).toMatch(/\nsignature: ctxpro\|mode:last-k\|.*\|bootstrap:100\|seed:3\|version:/);
  });
});

describe("paired bootstrap with many systems", () => {
  it("gives the same comparisons with 18 systems (unpacked path) as pairwise (packed path)", () => {
    const n = 200;
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 4294967296);
    const systems = Array.from({ length: 18 }, (_, s) => {
      const hits = new Uint8Array(n).map(() => (rnd() < 0.4 + s * 0.02 ? 1 : 0));
      const correct = hits.reduce((a, b) => a + b, 0);
      return { name: `s${s}`, correct, total: n, accuracy: (100 * correct) / n, perRule: [], hits };
    });
    const all = pairedBootstrap(systems, 200, 99);
    for (const k of [1, 9, 17]) {
      const pair = pairedBootstrap([systems[0]!, systems[k]!], 200, 99);
      expect(all.comparisons[k - 1]).toEqual(pair.comparisons[0]);
      expect(all.systems[k]).toEqual(pair.systems[1]);
    }
  });
});
