import { describe, expect, it } from "vitest";
import type { AnnSentence } from "../src/annotate/types.js";
import { averageCorefModels, clustersFrom, PronounResolver, trainCoref, type CorefFeatureGroup, type CorefTrainDoc } from "../src/annotate/coref.js";
import { deriveWordnetAnimacy } from "../src/annotate/wordnet.js";
import { isLitbankHeldOut, isParcorHeldOut } from "../src/annotate/splits.js";
import { loadDefaultCoref, loadDefaultMorph } from "../src/annotate/index.js";
import { defaultModelDir } from "../src/annotate/morph.js";
import { copyFileSync, mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const en = loadDefaultMorph("en");
const coref = loadDefaultCoref();

/** pronoun -> resolved noun (or "-") for a mini document. */
function resolve(...sentences: string[]): string[] {
  const doc = sentences.map((s) => en.annotate(s));
  return coref.decisions(doc).map((d) => {
    const p = doc[d.pronoun.sent]!.tokens[d.pronoun.tok]!.text;
    return `${p}->${d.nominal ? doc[d.nominal.sent]!.tokens[d.nominal.head]!.text : "-"}`;
  });
}

describe("shipped English resolver on mini documents", () => {
  it("links a clear antecedent by gender", () => {
    expect(resolve("Mary met John at the station.", "She gave him a book.")).toEqual(["She->Mary", "him->John"]);
  });

  it("links plural they to a plural noun", () => {
    expect(resolve("The students finished the exam.", "They were tired.")).toEqual(["They->students"]);
  });

  it("gives pleonastic it no antecedent", () => {
    expect(resolve("The match was cancelled.", "It is raining today.")).toEqual(["It->-"]);
    expect(resolve("What is it?")).toEqual(["it->-"]);
  });

  it("a later it reaches the noun when an earlier it got none (the model that prefers a noun)", () => {
    expect(resolve("I bought a new car.", "It is red and I love it.").at(-1)).toBe("it->car");
    expect(resolve("We found the key under the mat.", "It was rusty, so we cleaned it.").at(-1)).toBe("it->key");
    expect(coref.model.features).toEqual(["wn", "agree", "syn"]);
    expect(coref.model.preferNominal).toBe(true);
  });

  it("a model with WordNet features refuses to load without the WordNet lexicon", () => {
    const dir = mkdtempSync(join(tmpdir(), "coref-"));
    mkdirSync(join(dir, "models"));
    mkdirSync(join(dir, "lexicons"));
    copyFileSync(join(defaultModelDir(), "coref-en.json.gz"), join(dir, "models", "coref-en.json.gz"));
    expect(() => loadDefaultCoref(join(dir, "models"))).toThrow(/WordNet animacy lexicon/);
    copyFileSync(join(defaultModelDir(), "..", "lexicons", "en-wordnet-animacy.tsv.gz"), join(dir, "lexicons", "en-wordnet-animacy.tsv.gz"));
    expect(loadDefaultCoref(join(dir, "models")).model.features).toContain("wn");
  });

  it("returns clusters with the antecedent mention first", () => {
    const doc = ["The company released its report."].map((s) => en.annotate(s));
    const clusters = coref.resolve(doc);
    expect(clusters).toHaveLength(1);
    const [a, b] = clusters[0]!.mentions;
    expect(doc[0]!.tokens[a!.head]!.text).toBe("company");
    expect(a!.start).toBe(0); // "The company"
    expect(doc[0]!.tokens[b!.head]!.text).toBe("its");
  });
});

/** Hand-tagged sentences: [text, upos, number?] per token. */
function sent(...toks: Array<[string, string, string?]>): AnnSentence {
  return { text: toks.map((t) => t[0]).join(" "), tokens: toks.map(([text, upos, n]) => ({ text, lemma: text.toLowerCase(), upos, feats: n ? { Number: n } : {} })) };
}

describe("training", () => {
  it("learns number agreement from a few documents", () => {
    // The plural noun is sometimes nearer, sometimes farther: only number separates the answers.
    const docs: CorefTrainDoc[] = [];
    const nouns: Array<[string, string]> = [["box", "boxes"], ["cup", "cups"], ["stone", "stones"], ["lamp", "lamps"]];
    for (const [sg, pl] of nouns)
      for (const order of [0, 1]) {
        const first: [string, string, string] = order ? [pl, "NOUN", "Plur"] : [sg, "NOUN", "Sing"];
        const second: [string, string, string] = order ? [sg, "NOUN", "Sing"] : [pl, "NOUN", "Plur"];
        for (const pron of ["it", "they"]) {
          const sentences = [sent(["the", "DET"], first, ["and", "CCONJ"], ["the", "DET"], second, ["fell", "VERB"]), sent([pron, "PRON"], ["broke", "VERB"])];
          const want = pron === "it" ? "Sing" : "Plur";
          docs.push({ sentences, gold: (s, t) => (s === 1 && t === 0 ? (c) => sentences[c.sent]!.tokens[c.head]!.feats.Number === want : undefined) });
        }
      }
    const model = trainCoref(docs, new Map(), { epochs: 5 });
    const r = new PronounResolver(model, new Map());
    const test = [sent(["the", "DET"], ["tables", "NOUN", "Plur"], ["and", "CCONJ"], ["the", "DET"], ["chair", "NOUN", "Sing"], ["fell", "VERB"]), sent(["they", "PRON"], ["broke", "VERB"])];
    const d = r.decisions(test);
    expect(d).toHaveLength(1);
    expect(test[d[0]!.nominal!.sent]!.tokens[d[0]!.nominal!.head]!.text).toBe("tables");
    expect(clustersFrom(d)[0]!.mentions).toHaveLength(2);
  });
});

describe("WordNet animacy, feature groups, splits, averaging", () => {
  // A tiny WordNet in the database format: person > {male_person} > {boy}; animal {dog}; artifact {box, crate}.
  const data = [
    "00000001 03 n 01 entity 0 000 | top",
    "00000002 18 n 01 person 0 001 @ 00000001 n 0000 | a human",
    "00000003 18 n 02 male 0 male_person 0 001 @ 00000002 n 0000 | a man",
    "00000004 18 n 01 boy 0 001 @ 00000003 n 0000 | a young male",
    "00000005 05 n 01 dog 0 001 @ 00000001 n 0000 | an animal",
    "00000006 06 n 02 box 0 crate 0 001 @ 00000001 n 0000 | a container",
    "00000007 18 n 01 boxer 0 001 @ 00000003 n 0000 | a fighter",
    "",
  ].join("\n");
  const index = [
    "  1 license text lines start with spaces",
    "boy n 1 1 @ 1 1 00000004  ",
    "box n 2 1 @ 2 0 00000006 00000007  ",
    "crate n 1 1 @ 1 0 00000006  ",
    "dog n 1 1 @ 1 0 00000005  ",
    "new_york n 1 0 1 0 00000006  ",
    "",
  ].join("\n");

  it("derives person / animal / other and gender from lexicographer files and hypernyms", () => {
    const lex = deriveWordnetAnimacy(index, data);
    expect(lex.get("boy")).toEqual([6, 0, 0, 0, 6, 0]);
    expect(lex.get("dog")).toEqual([0, 6, 0, 0, 0, 0]);
    // Senses weighted 6, 3: first sense artifact, second a (male) person.
    expect(lex.get("box")).toEqual([3, 0, 0, 6, 3, 0]);
    // Only "other" senses and none tagged in SemCor: left out; multi-word lemmas: left out.
    expect(lex.has("crate")).toBe(false);
    expect(lex.has("new_york")).toBe(false);
    expect(deriveWordnetAnimacy(index, data, { keepAllOther: true }).get("crate")).toEqual([0, 0, 0, 6, 0, 0]);
  });

  it("held-out splits are fixed and disjoint from training", () => {
    expect(isLitbankHeldOut("1023_bleak_house_brat")).toBe(isLitbankHeldOut("1023_bleak_house_brat.txt"));
    const names = Array.from({ length: 200 }, (_, i) => `${i}_novel_brat`);
    const held = names.filter(isLitbankHeldOut).length;
    expect(held).toBeGreaterThan(20);
    expect(held).toBeLessThan(60);
    expect(["news", "TED", "DiscoMT"].some((s) => isParcorHeldOut(s, "01") !== isParcorHeldOut(s, "02") || isParcorHeldOut(s, "03") !== isParcorHeldOut(s, "01"))).toBe(true);
  });

  /** Two candidates, one a person only by the WordNet lexicon; "he" must pick it, in either order. */
  function animacyDocs(pairs: Array<[string, string]>): CorefTrainDoc[] {
    const docs: CorefTrainDoc[] = [];
    for (const [person, thing] of pairs)
      for (const order of [0, 1]) {
        const a: [string, string, string] = [order ? thing : person, "NOUN", "Sing"];
        const b: [string, string, string] = [order ? person : thing, "NOUN", "Sing"];
        const sentences = [sent(["the", "DET"], a, ["and", "CCONJ"], ["the", "DET"], b, ["fell", "VERB"]), sent(["he", "PRON"], ["laughed", "VERB"])];
        docs.push({ sentences, gold: (s, t) => (s === 1 && t === 0 ? (c) => sentences[c.sent]!.tokens[c.head]!.text === person : undefined) });
      }
    return docs;
  }
  const wn = new Map<string, number[]>([
    ...["baker", "tailor", "pilot", "nurse", "judge"].map((w): [string, number[]] => [w, [6, 0, 0, 0, 0, 0]]),
    ...["spoon", "brick", "lamp", "towel", "kettle"].map((w): [string, number[]] => [w, [0, 0, 0, 6, 0, 0]]),
  ]);
  const trainPairs: Array<[string, string]> = [["baker", "spoon"], ["tailor", "brick"], ["pilot", "lamp"], ["nurse", "towel"]];

  it("the wn feature group learns animacy the corpus lexicon does not know", () => {
    const test = animacyDocs([["judge", "kettle"]]);
    const pick = (features: CorefFeatureGroup[]) => {
      const model = trainCoref(animacyDocs(trainPairs), new Map(), { epochs: 5, features, wn });
      expect(model.features ?? []).toEqual(features);
      const r = new PronounResolver(model, new Map(), undefined, wn);
      return test.map((d) => {
        const n = r.decisions(d.sentences)[0]!.nominal;
        return n ? d.sentences[n.sent]!.tokens[n.head]!.text : "-";
      });
    };
    expect(pick(["wn"])).toEqual(["judge", "judge"]);
    expect(pick(["agree"])).toEqual(["judge", "judge"]);
    // Without either group the two orders look alike up to distance: at least one is wrong.
    expect(pick([])).not.toEqual(["judge", "judge"]);
  });

  it("averages rankers trained with different seeds", () => {
    const m1 = trainCoref(animacyDocs(trainPairs), new Map(), { epochs: 3, seed: 1, features: ["wn"], wn });
    const m2 = trainCoref(animacyDocs(trainPairs), new Map(), { epochs: 3, seed: 2, features: ["wn"], wn });
    const avg = averageCorefModels([m1, m2]);
    expect(avg.features).toEqual(["wn"]);
    const f = Object.keys(m1.perceptron.weights)[0]!;
    const w = ((m1.perceptron.weights[f]?.[1] ?? 0) + (m2.perceptron.weights[f]?.[1] ?? 0)) / 2;
    expect(avg.perceptron.weights[f]?.[1] ?? 0).toBeCloseTo(w, 3);
  });
});

describe("preferNominal", () => {
  // "it hit the box. it broke.": the first "it" has no candidate (none); the hand-set weights rank the
  // earlier pronoun above the box for the second one, and the box above "none".
  const doc = [sent(["it", "PRON"], ["hit", "VERB"], ["the", "DET"], ["box", "NOUN", "Sing"], [".", "PUNCT"]), sent(["it", "PRON"], ["broke", "VERB"])];
  const model = { format: "proneval-coref/1", window: 3, trainedOn: "hand-set", perceptron: { labels: ["score"], weights: { N: [0, 1], "k=PRON": [0, 3], "k=NOUN": [0, 2] } } };
  it("off: the second it follows the unresolved pronoun and reaches no noun", () => {
    const d = new PronounResolver(model, new Map()).decisions(doc);
    expect(d[1]!.antecedent?.kind).toBe("PRON");
    expect(d[1]!.nominal).toBeUndefined();
  });
  it("on: the second it takes the best noun that beats none", () => {
    const d = new PronounResolver({ ...model, preferNominal: true }, new Map()).decisions(doc);
    expect(d[0]!.antecedent).toBeUndefined();
    expect(d[1]!.nominal && doc[d[1]!.nominal.sent]!.tokens[d[1]!.nominal.head]!.text).toBe("box");
    // ... but not when no noun beats "none".
    const weak = { ...model, preferNominal: true, perceptron: { labels: ["score"], weights: { N: [0, 2.5], "k=PRON": [0, 3], "k=NOUN": [0, 2] } } };
    expect(new PronounResolver(weak, new Map()).decisions(doc)[1]!.nominal).toBeUndefined();
  });
});
