/**
 * Turns the gold coreference corpora into tagged documents and supervision for the resolver
 * (scripts/train-coref.ts, scripts/eval-coref.ts), and derives the animacy lexicon.
 */
import { readdirSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { readText } from "../io/lines.js";
import type { AnnSentence } from "./types.js";
import type { MorphTagger } from "./morph.js";
import { parseGum, parseLitbank, readParcorDoc, parcorDocNames, type GoldDoc, type GoldMention } from "./coref-data.js";
import { ANAPHORS, headRun, type AnimacyLexicon, type Candidate, type CorefTrainDoc } from "./coref.js";
import { isGumHeldOut, isLitbankHeldOut, isParcorHeldOut } from "./splits.js";

export function tagDoc(morph: MorphTagger, doc: GoldDoc): AnnSentence[] {
  return doc.sentences.map((toks) => {
    const tagged = morph.tagWords(toks);
    return { text: toks.join(" "), tokens: toks.map((t, i) => ({ text: t, ...tagged[i]! })) };
  });
}

/** Head of a span without a parse: the last noun of the first run of nouns (else a pronoun, else the last token). */
export function heuristicHead(s: AnnSentence, start: number, end: number): number {
  for (let i = start; i < end; i++) {
    const u = s.tokens[i]!.upos;
    if (u === "NOUN" || u === "PROPN") {
      let j = i;
      while (j + 1 < end && (s.tokens[j + 1]!.upos === "NOUN" || s.tokens[j + 1]!.upos === "PROPN")) j++;
      return j;
    }
  }
  for (let i = start; i < end; i++) if (s.tokens[i]!.upos === "PRON") return i;
  return end - 1;
}

export interface TaggedGoldDoc {
  doc: GoldDoc;
  sentences: AnnSentence[];
}

/** GUM documents (`prefix` "GENTLE" for the GENTLE genres shipped beside them) on one side of the split. */
export function loadGum(dir: string, heldOut: boolean, morph: MorphTagger, prefix: "GUM" | "GENTLE" = "GUM"): TaggedGoldDoc[] {
  const out: TaggedGoldDoc[] = [];
  for (const f of readdirSync(dir).sort()) {
    if (!f.startsWith(`${prefix}_`) || !/\.conllu(\.gz)?$/.test(f) || isGumHeldOut(f) !== heldOut) continue;
    const doc = parseGum(readText(join(dir, f)), f.replace(/\.conllu(\.gz)?$/, ""));
    out.push({ doc, sentences: tagDoc(morph, doc) });
  }
  return out;
}

/** LitBank excerpts: `heldOut` true/false for one side of the split (isLitbankHeldOut), undefined for all. */
export function loadLitbank(dir: string, morph: MorphTagger, heldOut?: boolean): TaggedGoldDoc[] {
  const out: TaggedGoldDoc[] = [];
  for (const f of readdirSync(dir).sort()) {
    if (!f.endsWith("_brat.txt")) continue;
    const base = f.replace(/\.txt$/, "");
    if (heldOut !== undefined && isLitbankHeldOut(base) !== heldOut) continue;
    const doc = parseLitbank(readText(join(dir, f)), readText(join(dir, `${base}.ann`)), base, (_t, _s, e) => e - 1);
    const sentences = tagDoc(morph, doc);
    for (const m of doc.mentions) m.head = heuristicHead(sentences[m.sent]!, m.start, m.end);
    out.push({ doc, sentences });
  }
  return out;
}

/**
 * ParCorFull documents of one language directory (corpus/<sub>/EN); with `heldOut` only one side of
 * the split (isParcorHeldOut, keyed by the sub-corpus name news / TED / DiscoMT).
 */
export function loadParcor(dir: string, morph: MorphTagger, heldOut?: boolean): TaggedGoldDoc[] {
  const sub = basename(dirname(dir));
  const names = parcorDocNames(dir).filter((n) => heldOut === undefined || isParcorHeldOut(sub, n) === heldOut);
  return names.map((name) => {
    const doc = readParcorDoc(dir, name, (_t, _s, e) => e - 1);
    const sentences = tagDoc(morph, doc);
    for (const m of doc.mentions) m.head = heuristicHead(sentences[m.sent]!, m.start, m.end);
    return { doc, sentences };
  });
}

/** Gold facts about each pronoun site of a document. */
export interface PronounGold {
  /** The gold mention on the pronoun token, if any. */
  mention?: GoldMention;
  /** Earlier gold mentions of its entity with a nominal or pronoun head. */
  earlier: GoldMention[];
  /** Earlier mentions with a NOUN/PROPN head: what a correct pronoun -> noun link points to. */
  nominal: GoldMention[];
}

export function pronounGold(d: TaggedGoldDoc, sent: number, tok: number): PronounGold {
  const mention = d.doc.mentions.find((m) => m.sent === sent && m.head === tok && m.end - m.start <= 2) ?? d.doc.mentions.find((m) => m.sent === sent && m.start === tok && m.end === tok + 1);
  if (!mention || mention.entity < 0) return { mention, earlier: [], nominal: [] };
  const before = (m: GoldMention) => m.sent < sent || (m.sent === sent && m.end <= tok);
  const earlier = d.doc.mentions.filter((m) => m.entity === mention.entity && m !== mention && before(m));
  const nominal = earlier.filter((m) => {
    const u = d.sentences[m.sent]!.tokens[m.head]?.upos;
    return u === "NOUN" || u === "PROPN";
  });
  const referring = earlier.filter((m) => {
    const t = d.sentences[m.sent]!.tokens[m.head];
    return t && (t.upos === "NOUN" || t.upos === "PROPN" || ANAPHORS[t.text.toLowerCase()] !== undefined);
  });
  return { mention, earlier: referring, nominal };
}

/** Whether candidate token `head` of sentence `sent` is the head run of one of `ms`. */
export function hitsMention(d: TaggedGoldDoc, sent: number, head: number, ms: readonly GoldMention[]): boolean {
  return ms.some((m) => {
    if (m.sent !== sent) return false;
    const [a, b] = headRun(d.sentences[sent]!, m.head);
    return head >= a && head < b;
  });
}

/** Supervision for the ranker: see CorefTrainDoc.gold. */
export function trainDoc(d: TaggedGoldDoc): CorefTrainDoc {
  return {
    sentences: d.sentences,
    gold: (sent, tok) => {
      const g = pronounGold(d, sent, tok);
      if (!g.mention) return d.doc.exhaustive ? "null" : undefined;
      if (g.mention.entity < 0) return "null";
      if (!g.earlier.length) return "null";
      return (c: Candidate) => hitsMention(d, c.sent, c.head, g.earlier);
    },
  };
}

const GUM_CLASS: Record<string, number> = { person: 0, animal: 1, organization: 2, place: 2 };
const LITBANK_CLASS: Record<string, number> = { PER: 0, ORG: 2, GPE: 2, LOC: 2, FAC: 2, VEH: 3 };

/** Counts entity classes and he/she chains per head lemma (and first names) over training documents. */
export function deriveAnimacy(docs: readonly TaggedGoldDoc[]): AnimacyLexicon {
  const lex: AnimacyLexicon = new Map();
  const bump = (key: string, k: number) => {
    let e = lex.get(key);
    if (!e) lex.set(key, (e = [0, 0, 0, 0, 0, 0]));
    e[k]!++;
  };
  for (const d of docs) {
    const gender = new Map<number, number>(); // entity -> 4 masc / 5 fem
    for (const m of d.doc.mentions) {
      const t = d.sentences[m.sent]!.tokens[m.head];
      const w = t?.text.toLowerCase();
      if (w && ANAPHORS[w]?.group === "he") gender.set(m.entity, 4);
      if (w && ANAPHORS[w]?.group === "she") gender.set(m.entity, 5);
    }
    for (const m of d.doc.mentions) {
      const s = d.sentences[m.sent]!;
      const t = s.tokens[m.head];
      if (!t || (t.upos !== "NOUN" && t.upos !== "PROPN")) continue;
      const cls = m.etype === undefined ? undefined : d.doc.exhaustive ? GUM_CLASS[m.etype] ?? 3 : LITBANK_CLASS[m.etype];
      const [a, b] = headRun(s, m.head);
      const keys = new Set<string>([(t.lemma || t.text).toLowerCase()]);
      if (t.upos === "PROPN") for (let i = a; i < b; i++) if (s.tokens[i]!.upos === "PROPN") keys.add(s.tokens[i]!.text.toLowerCase());
      for (const key of keys) {
        if (cls !== undefined) bump(key, cls);
        const g = gender.get(m.entity);
        if (g !== undefined) bump(key, g);
      }
    }
  }
  return lex;
}

export function animacyToTsv(lex: AnimacyLexicon): string {
  const lines = ["# lemma\tperson\tanimal\torg_place\tother\tmasc\tfem (mention counts in GUM train + LitBank)"];
  for (const [k, v] of [...lex.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1))) if (!/[\t\n]/.test(k)) lines.push([k, ...v].join("\t"));
  return lines.join("\n") + "\n";
}
