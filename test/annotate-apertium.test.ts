import { describe, expect, it } from "vitest";
import { apertiumNounLexicon, findApertium, nounAnalysis, parseLtProc } from "../src/annotate/apertium.js";
import { applyNounLexicon } from "../src/annotate/lexicons.js";
import { loadDefaultMorph } from "../src/annotate/morph.js";

// What `lt-proc -w pol-szl.automorf.bin` prints for these words (apertium-pol-szl 0.2.1, Debian bookworm).
const LT_PROC = [
  "^twarzy/twarz<n><f><pl><gen>/twarz<n><f><sg><gen>/twarz<n><f><sg><dat>/twarz<n><f><sg><loc>/twarz<n><f><sg><voc>$",
  "^krew/krew<n><f><sg><nom>/krew<n><f><sg><acc>$",
  "^myśl/myśl<n><f><sg><nom>/myśl<n><f><sg><acc>/myśleć<vblex><impf><imp><p2><sg>$",
  "^gruczoł/gruczoł<n><mi><sg><nom>/gruczoł<n><mi><sg><acc>$",
  "^energetyczną/energetyczny<adj><f><sg><acc>/energetyczny<adj><f><sg><ins>$",
  "^wojny/wojna<n><f><sg><gen>/wojna<n><f><pl><nom>/wojna<n><f><pl><acc>/wojna<n><f><pl><voc>$",
  "^xyzzy/*xyzzy$",
].join("\n");

describe("Apertium analysers as noun lexicons (pl)", () => {
  const parsed = parseLtProc(LT_PROC);
  const lex = (w: string) => nounAnalysis(parsed.get(w) ?? []);

  it("parses lt-proc's stream: readings keyed by surface form, unknown words with none", () => {
    expect(parsed.get("krew")).toEqual([
      { lemma: "krew", tags: ["n", "f", "sg", "nom"] },
      { lemma: "krew", tags: ["n", "f", "sg", "acc"] },
    ]);
    expect(parsed.get("myśl")?.[2]).toEqual({ lemma: "myśleć", tags: ["vblex", "impf", "imp", "p2", "sg"] });
    expect(parsed.get("xyzzy")).toEqual([]);
  });

  it("gives the gender of nouns the tagger guesses (krew, twarzy), number only where all readings agree, the cases of all", () => {
    expect(lex("krew")).toEqual({ gender: "Fem", number: "Sing", cases: ["Nom", "Acc"] });
    expect(lex("twarzy")).toEqual({ gender: "Fem", numbers: ["Plur", "Sing"], cases: ["Gen", "Dat", "Loc", "Voc"] });
    expect(lex("wojny")).toEqual({ gender: "Fem", numbers: ["Sing", "Plur"], cases: ["Gen", "Nom", "Acc", "Voc"] });
    // masculine inanimate; the verb reading of myśl does not count
    expect(lex("gruczoł")?.gender).toBe("Masc");
    expect(lex("myśl")).toEqual({ gender: "Fem", number: "Sing", cases: ["Nom", "Acc"] });
    // an adjective or an unknown word is no noun
    expect(lex("energetyczną")).toBeUndefined();
    expect(lex("xyzzy")).toBeUndefined();
  });

  it("corrects the tagger's gender; a case it got right stays", () => {
    const fake = { name: "fixed", lookup: (f: string) => lex(f) };
    expect(applyNounLexicon(fake, "krew", "krew", { Case: "Acc", Gender: "Masc", Number: "Sing" })).toEqual({ Case: "Acc", Gender: "Fem", Number: "Sing" });
    expect(applyNounLexicon(fake, "twarzy", "twarz", { Case: "Loc", Gender: "Masc", Number: "Sing" })).toEqual({ Case: "Loc", Gender: "Fem", Number: "Sing" });
  });

  const an = findApertium("pl");
  if (!an) {
    console.warn("annotate-apertium.test.ts: lt-proc or apertium-pol-szl is missing, the installed-analyser cases are skipped (apt-get install -y apertium-pol-szl)");
    it.skip("skipped: Debian's apertium-pol-szl (and lt-proc) is missing", () => {});
    return;
  }

  it("runs the installed analyser: a batch, then single words, the same readings", () => {
    const batch = apertiumNounLexicon(an);
    batch.prefetch!(["Blokada", "dzielnicą", "torbie", "planecie", "strach"]);
    expect(batch.lookup("Blokada", "Blokada")).toMatchObject({ gender: "Fem", number: "Sing", cases: ["Nom"] });
    expect(batch.lookup("dzielnicą", "dzielnicą")).toMatchObject({ gender: "Fem", cases: ["Ins"] });
    expect(batch.lookup("torbie", "torbie")?.gender).toBe("Fem");
    expect(batch.lookup("strach", "strach")?.gender).toBe("Masc");
    // not prefetched: looked up on its own
    expect(batch.lookup("rzecz", "rzecz")?.gender).toBe("Fem");
    expect(batch.lookup("energetyczną", "energetyczną")).toBeUndefined();
    // reserved characters of the stream format are not sent
    expect(batch.lookup("a^b$c", "a^b$c")).toBeUndefined();
  });

  it("the Polish tagger takes the analyser's gender by default, and goes without it when asked", () => {
    const withIt = loadDefaultMorph("pl");
    const without = loadDefaultMorph("pl", undefined, { lexicon: false });
    const noun = (m: typeof withIt, s: string, w: string) => m.annotate(s).tokens.find((t) => t.text === w)!;
    expect(withIt.nouns?.name).toMatch(/^apertium:/);
    expect(without.nouns).toBeUndefined();
    // Nouns the tagger alone reads masculine (it has not seen them in the treebank): feminine with the analyser.
    for (const [s, w] of [["Co może pani powiedzieć o tej torbie?", "torbie"], ["Każda myśl jest ważna.", "myśl"], ["Kiedy skończyłam, miałam krew na rękach.", "krew"]] as const) {
      expect(noun(withIt, s, w)).toMatchObject({ upos: "NOUN", feats: { Gender: "Fem" } });
      expect(noun(without, s, w)).toMatchObject({ upos: "NOUN", feats: { Gender: "Masc" } });
    }
    expect(withIt.knownNoun("gruczoł")).toBe(true);
    expect(withIt.knownNoun("energetyczną")).toBe(false);
    expect(without.knownNoun("gruczoł")).toBe(false);
  });
});
