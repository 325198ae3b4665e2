/**
 * English pronoun coreference: a mention-ranking resolver (averaged perceptron) in the tradition of
 * Denis & Baldridge (2008) and Wiseman et al. (2015), without a parser. Each third-person pronoun
 * chooses among noun-phrase heads and earlier pronouns of the last few sentences, or "no antecedent"
 * (pleonastic it, event reference, first mentions). Features: distance, role proxies from word order,
 * number / gender / animacy agreement (a lexicon derived from GUM and LitBank entity types), salience.
 */
import type { AnnSentence, AnnToken, CorefCluster, CorefResolver, Mention } from "./types.js";
import { AveragedPerceptron, PerceptronScorer, rng, shuffle, type PerceptronModel } from "./perceptron.js";

export const COREF_FORMAT = "proneval-coref/1";

export interface PronounInfo {
  group: "he" | "she" | "it" | "they" | "possind";
  number?: "Sing" | "Plur";
  reflexive?: boolean;
  /** Nom / Acc / Gen (possessive determiner) as a role cue. */
  case: "Nom" | "Acc" | "Gen" | "Ind";
}

/** The pronouns the resolver links (third person, and independent possessives mine/yours/ours). */
export const ANAPHORS: Record<string, PronounInfo> = {
  he: { group: "he", number: "Sing", case: "Nom" },
  him: { group: "he", number: "Sing", case: "Acc" },
  his: { group: "he", number: "Sing", case: "Gen" },
  himself: { group: "he", number: "Sing", case: "Acc", reflexive: true },
  she: { group: "she", number: "Sing", case: "Nom" },
  her: { group: "she", number: "Sing", case: "Acc" },
  hers: { group: "she", number: "Sing", case: "Ind" },
  herself: { group: "she", number: "Sing", case: "Acc", reflexive: true },
  it: { group: "it", number: "Sing", case: "Nom" },
  its: { group: "it", number: "Sing", case: "Gen" },
  itself: { group: "it", number: "Sing", case: "Acc", reflexive: true },
  they: { group: "they", number: "Plur", case: "Nom" },
  them: { group: "they", number: "Plur", case: "Acc" },
  their: { group: "they", number: "Plur", case: "Gen" },
  theirs: { group: "they", number: "Plur", case: "Ind" },
  themselves: { group: "they", number: "Plur", case: "Acc", reflexive: true },
  mine: { group: "possind", case: "Ind" },
  yours: { group: "possind", case: "Ind" },
  ours: { group: "possind", case: "Ind" },
};

/** Animacy lexicon: lowercase lemma -> counts [person, animal, organisation/place, other, masculine, feminine]. */
export type AnimacyLexicon = Map<string, number[]>;

/**
 * Optional feature groups, recorded in the model so that a model is always scored with
 * the features it was trained with; a model without the field uses none of them.
 * - "wn": WordNet animacy and gender of the candidate's head (data/lexicons/en-wordnet-animacy.tsv.gz)
 * - "agree": explicit number / gender / animacy agreement between pronoun and candidate, from both
 *   lexicons, also shared across pronoun groups
 * - "syn": word-order role cues of the pronoun and candidate conjoined (parallel roles, candidate in a
 *   PP or after "of"), the verb after the pronoun for he/she/it, and sentence-initial position
 */
export type CorefFeatureGroup = "wn" | "agree" | "syn";
export const COREF_FEATURE_GROUPS: readonly CorefFeatureGroup[] = ["wn", "agree", "syn"];

export interface CorefModel {
  format: string;
  window: number;
  features?: CorefFeatureGroup[];
  /** Subtracted from the "no antecedent" score: > 0 trades precision for recall. */
  nullBias?: number;
  /** See RunOptions.preferNominal; absent = false. */
  preferNominal?: boolean;
  perceptron: PerceptronModel;
  trainedOn: string;
}

/** A candidate antecedent. */
export interface Candidate {
  sent: number;
  start: number;
  end: number;
  head: number;
  kind: "PROPN" | "NOUN" | "PRON";
  lower: string;
  number?: string;
}

const NOMINAL = new Set(["NOUN", "PROPN"]);
const NP_INNER = new Set(["DET", "ADJ", "NUM", "NOUN", "PROPN"]);

function pronounOf(t: AnnToken): PronounInfo | undefined {
  const lower = t.text.toLowerCase();
  const info = Object.hasOwn(ANAPHORS, lower) ? ANAPHORS[lower] : undefined;
  if (!info) return undefined;
  // "her" is Acc or Gen: the tagger tells.
  if (t.text.toLowerCase() === "her" && t.feats.Poss === "Yes") return { ...info, case: "Gen" };
  return t.upos === "PRON" || t.upos === "DET" ? info : undefined;
}

/** Noun-phrase heads (last noun of a run of nouns) and third-person pronouns of one sentence. */
export function candidatesOf(s: AnnSentence, sent: number): Candidate[] {
  const out: Candidate[] = [];
  const toks = s.tokens;
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i]!;
    if (pronounOf(t) && ANAPHORS[t.text.toLowerCase()]!.group !== "possind") {
      out.push({ sent, start: i, end: i + 1, head: i, kind: "PRON", lower: t.text.toLowerCase(), number: ANAPHORS[t.text.toLowerCase()]!.number });
      continue;
    }
    if (!NOMINAL.has(t.upos)) continue;
    const next = toks[i + 1];
    if (next && NOMINAL.has(next.upos)) continue;
    let start = i;
    while (start > 0) {
      const p = toks[start - 1]!;
      if (NP_INNER.has(p.upos) || (p.upos === "PRON" && p.feats.Poss === "Yes") || p.text === "'s" || p.text === "’s") start--;
      else break;
    }
    out.push({ sent, start, end: i + 1, head: i, kind: t.upos === "PROPN" ? "PROPN" : "NOUN", lower: (t.lemma || t.text).toLowerCase(), number: t.feats.Number });
  }
  return out;
}

/** The run of adjacent nouns around `head`: the unit we compare heads by ("Lord Byron", "school board"). */
export function headRun(s: AnnSentence, head: number): [number, number] {
  let a = head;
  let b = head + 1;
  if (!NOMINAL.has(s.tokens[head]?.upos ?? "")) return [a, b];
  while (a > 0 && NOMINAL.has(s.tokens[a - 1]!.upos)) a--;
  while (b < s.tokens.length && NOMINAL.has(s.tokens[b]!.upos)) b++;
  return [a, b];
}

function bucket(n: number): string {
  return n <= 2 ? String(n) : n <= 4 ? "3-4" : n <= 8 ? "5-8" : n <= 16 ? "9-16" : "17+";
}

function animacyOf(c: Candidate, s: AnnSentence, lex: AnimacyLexicon): { anim: string; gender: string } {
  if (c.kind === "PRON") {
    const g = ANAPHORS[c.lower]!.group;
    return { anim: g === "he" || g === "she" ? "per" : g === "it" ? "oth" : "unk", gender: g === "he" ? "m" : g === "she" ? "f" : "unk" };
  }
  const counts = [0, 0, 0, 0, 0, 0];
  const add = (key: string, w: number) => {
    const e = lex.get(key);
    if (e) for (let k = 0; k < 6; k++) counts[k]! += w * e[k]!;
  };
  add(c.lower, 1);
  if (c.kind === "PROPN") for (let i = c.start; i < c.head; i++) if (s.tokens[i]!.upos === "PROPN") add(s.tokens[i]!.text.toLowerCase(), 1);
  const total = counts[0]! + counts[1]! + counts[2]! + counts[3]!;
  let anim = "unk";
  if (total > 0) {
    const best = [0, 1, 2, 3].reduce((a, b) => (counts[b]! > counts[a]! ? b : a), 0);
    const share = counts[best]! / total;
    anim = ["per", "ani", "org", "oth"][best]! + (share >= 0.8 ? "" : "?");
  }
  const g = counts[4]! + counts[5]!;
  const gender = g === 0 ? "unk" : counts[4]! > 2 * counts[5]! ? "m" : counts[5]! > 2 * counts[4]! ? "f" : "mf";
  return { anim, gender };
}

/** WordNet class of a nominal candidate's head lemma: per / ani / org / oth (+ "?" when mixed), gender m / f. */
function wordnetOf(c: Candidate, wn: AnimacyLexicon | undefined): { anim: string; gender: string } {
  const e = c.kind === "PRON" ? undefined : wn?.get(c.lower);
  if (!e) return { anim: "unk", gender: "unk" };
  const total = e[0]! + e[1]! + e[2]! + e[3]!;
  const best = [0, 1, 2, 3].reduce((a, b) => (e[b]! > e[a]! ? b : a), 0);
  const anim = ["per", "ani", "org", "oth"][best]! + (e[best]! / total >= 0.6 ? "" : "?");
  const gender = e[4]! > 0 && e[4]! >= 2 * e[5]! ? "m" : e[5]! > 0 && e[5]! >= 2 * e[4]! ? "f" : "unk";
  return { anim, gender };
}

/** Agreement of pronoun group `g` with an animacy class and gender: ok / clash / unk. */
function animAgree(g: PronounInfo["group"], anim: string): string {
  if (anim === "unk") return "unk";
  const a = anim.replace("?", "");
  const sure = !anim.endsWith("?");
  if (g === "he" || g === "she") return a === "per" ? "ok" : a === "ani" ? "ani" : sure ? "clash" : "weak";
  if (g === "it") return a === "per" ? (sure ? "clash" : "weak") : "ok";
  return "any";
}

/** Role proxy from word order: subject-like (before a verb), object-like (after a verb), in a PP. */
function role(s: AnnSentence, start: number, head: number): string {
  const prev = s.tokens[start - 1];
  if (prev?.upos === "ADP") return prev.text.toLowerCase() === "of" ? "of" : "pp";
  if (prev && (prev.upos === "VERB" || prev.upos === "AUX")) return "obj";
  for (let k = head + 1; k < Math.min(s.tokens.length, head + 3); k++) {
    const u = s.tokens[k]!.upos;
    if (u === "VERB" || u === "AUX") return "subj";
    if (u !== "ADV" && u !== "PART") break;
  }
  return start === 0 ? "first" : "other";
}

/** Per-document state the features look at (salience, chains). */
interface DocState {
  sentences: AnnSentence[];
  lex: AnimacyLexicon;
  wn?: AnimacyLexicon;
  feats: ReadonlySet<CorefFeatureGroup>;
  /** lemma -> positions (sent) of nominal candidates seen so far */
  lemmaCount: Map<string, number>;
  /** entity id of each resolved mention (key sent:head), for chain features */
  entityOf: Map<string, number>;
  entitySize: Map<number, number>;
  /** what a resolved pronoun stands for: the nominal candidate it was followed to */
  followed: Map<string, Candidate>;
}

function candFeatures(st: DocState, p: { sent: number; tok: number; info: PronounInfo; lower: string }, c: Candidate, rank: number): string[] {
  const s = st.sentences[c.sent]!;
  const ps = st.sentences[p.sent]!;
  const g = p.info.group;
  const sd = p.sent - c.sent;
  const td = sd === 0 ? p.tok - c.head : p.tok + (s.tokens.length - c.head);
  // Pronoun candidates are judged by what they were followed to.
  const target = c.kind === "PRON" ? st.followed.get(`${c.sent}:${c.head}`) : undefined;
  const ref = target ?? c;
  const refSent = st.sentences[ref.sent]!;
  const { anim, gender } = animacyOf(ref, refSent, st.lex);
  const num = ref.number ?? "unk";
  const cr = role(s, c.start, c.head);
  const pr = role(ps, p.tok, p.tok);
  const first = s.tokens[c.start]!;
  const det = first.upos === "DET" ? first.text.toLowerCase() : first.upos === "PRON" ? "poss" : "none";
  const ent = st.entityOf.get(`${c.sent}:${c.head}`);
  const chain = ent === undefined ? 0 : st.entitySize.get(ent) ?? 0;
  let local = "nonlocal";
  if (sd === 0) {
    local = "local";
    for (let k = c.head + 1; k < p.tok; k++) {
      const u = ps.tokens[k]!;
      if (u.upos === "SCONJ" || u.upos === "CCONJ" || u.text === "," || u.text === ";" || (u.upos === "PRON" && /^(who|which|that)$/i.test(u.text))) {
        local = "clause";
        break;
      }
    }
  }
  const base = [
    "c",
    `sd=${sd}`,
    `td=${bucket(td)}`,
    `rank=${Math.min(rank, 6)}`,
    `k=${c.kind}`,
    `rk=${ref.kind}`,
    `num=${num}`,
    `anim=${anim}`,
    `an=${anim}|${num}`,
    `gen=${gender}`,
    `cr=${cr}`,
    `roles=${cr}|${p.info.case}`,
    `det=${det}`,
    `sal=${bucket(st.lemmaCount.get(ref.lower) ?? 0)}`,
    `chain=${bucket(chain)}`,
    `loc=${local}|${p.info.reflexive ? "refl" : "plain"}`,
    `loc=${local}|${p.info.case}`,
    `sd-k=${sd}|${c.kind}`,
    `pr=${pr}|${cr}`,
  ];
  if (c.kind === "PRON") base.push(`cp=${ANAPHORS[c.lower]!.group}`, `cpsame=${c.lower === p.lower}`, `cpf=${target ? "followed" : "unresolved"}`);
  const shared: string[] = [];
  let wnc: { anim: string; gender: string } | undefined;
  if (st.feats.has("wn") && ref.kind !== "PRON") {
    wnc = wordnetOf(ref, st.wn);
    base.push(`wn=${wnc.anim}`, `wn=${wnc.anim}|${num}`, `wngen=${wnc.gender}`, `wn+anim=${wnc.anim}|${anim}`);
  }
  if (st.feats.has("agree")) {
    const pn = p.info.number;
    const numAgr = !pn || num === "unk" ? "unk" : pn === num ? "ok" : "clash";
    // Animacy: the corpus lexicon where it knows the word, else WordNet.
    const wa = ref.kind === "PRON" ? { anim: "unk", gender: "unk" } : wnc ?? wordnetOf(ref, st.wn);
    const a = anim !== "unk" ? anim : wa.anim;
    const animAgr = animAgree(g, a);
    const gg = gender !== "unk" && gender !== "mf" ? gender : wa.gender;
    const genAgr = g !== "he" && g !== "she" ? "na" : gg === "unk" || gender === "mf" ? "unk" : (gg === "m") === (g === "he") ? "ok" : "clash";
    base.push(`agr=n:${numAgr}`, `agr=a:${animAgr}`, `agr=g:${genAgr}`, `agr=${numAgr}|${animAgr}|${genAgr}`, `agr=a:${animAgr}|sd=${sd}`);
    shared.push(`agr=n:${numAgr}`, `agr=a:${animAgr}`, `agr=g:${genAgr}`, `agr=${numAgr}|${animAgr}|${genAgr}`);
  }
  if (st.feats.has("syn")) {
    const next = ps.tokens[p.tok + 1];
    const verb = next && (next.upos === "VERB" || next.upos === "AUX") ? next.lemma.toLowerCase() : next?.upos ?? "</s>";
    base.push(`par=${cr === pr}|${sd}`, `cr=${cr}|sd=${sd}`, `pv=${verb}|${anim}`, `cfirst=${c.start === 0}|${pr}`, `cr=${cr}|rk=${ref.kind}`);
  }
  const out: string[] = [];
  for (const f of base) out.push(`${g}|${f}`);
  out.push(...base.slice(0, 6));
  for (const f of shared) out.push(`*|${f}`);
  return out;
}

/** Verbs that take expletive "it" (it seems, it rains, it takes ...): kept as words, other words as tags. */
const PLEONASTIC_VERBS = new Set(["seems", "seemed", "seem", "appears", "appeared", "rains", "rained", "raining", "snows", "snowing", "takes", "took", "turns", "turned", "matters", "mattered", "follows", "happens", "happened", "occurs", "occurred", "means", "meant", "depends", "remains", "becomes", "became", "'s", "is", "was", "be", "been"]);

function nullFeatures(st: DocState, p: { sent: number; tok: number; info: PronounInfo; lower: string }, cands: number, compatible: number): string[] {
  const s = st.sentences[p.sent]!;
  const t = s.tokens;
  const lw = (k: number) => (k >= 0 && k < t.length ? t[k]!.text.toLowerCase() : k < 0 ? "<s>" : "</s>");
  const up = (k: number) => (k >= 0 && k < t.length ? t[k]!.upos : k < 0 ? "<s>" : "</s>");
  const i = p.tok;
  const f = [
    `pf=${p.lower}`,
    `n1=${PLEONASTIC_VERBS.has(lw(i + 1)) ? lw(i + 1) : up(i + 1)}`,
    `n2=${PLEONASTIC_VERBS.has(lw(i + 2)) ? lw(i + 2) : up(i + 2)}`,
    `n1u=${up(i + 1)}`,
    `n2u=${up(i + 2)}`,
    `n12u=${up(i + 1)}|${up(i + 2)}`,
    `p1=${lw(i - 1)}`,
    `p1u=${up(i - 1)}`,
    `nc=${bucket(cands)}`,
    `comp=${bucket(compatible)}`,
    `first=${p.sent === 0}`,
    `case=${p.info.case}`,
  ];
  // "it is/was ADJ to/that ...", "it seems that", "it takes ..."
  let sawAdj = false;
  for (let k = i + 1; k < Math.min(t.length, i + 7); k++) {
    const w = lw(k);
    if (t[k]!.upos === "ADJ" || t[k]!.upos === "VERB") sawAdj = true;
    if (sawAdj && (w === "to" || w === "that" || w === "if" || w === "whether" || w === "how" || w === "when")) {
      f.push(`ext=${w}`);
      break;
    }
  }
  if (up(i + 1) === "PUNCT" || i + 1 >= t.length) f.push(`end|p1=${lw(i - 1)}`);
  const out = ["N"];
  for (const x of f) out.push(`N|${p.info.group}|${x}`);
  return out;
}

const WEATHER = new Set(["rain", "snow", "hail", "drizzle", "thunder", "pour", "sleet", "freeze"]);
const RAISING = new Set(["seem", "appear", "happen", "transpire"]);

/**
 * Expletive "it" that the ranker's training data rarely shows: weather verbs (it is raining) and
 * raising verbs followed by that/as if (it seems that ...). Checked before ranking.
 */
function weatherOrRaising(s: AnnSentence, i: number): boolean {
  for (let k = i + 1; k < Math.min(s.tokens.length, i + 4); k++) {
    const t = s.tokens[k]!;
    const lemma = t.lemma.toLowerCase();
    if (t.upos === "AUX" || t.upos === "ADV" || t.upos === "PART") continue;
    if (WEATHER.has(lemma) && t.upos === "VERB") return true;
    if (RAISING.has(lemma)) {
      const n = s.tokens[k + 1]?.text.toLowerCase();
      return n === "that" || n === "as" || n === "like";
    }
    return false;
  }
  return false;
}

/** Compatible = not contradicting number or the he/she/it distinction (used only as a null feature). */
function compatible(info: PronounInfo, c: Candidate, st: DocState): boolean {
  if (info.number && c.number && info.number !== c.number) return false;
  if (c.kind === "PRON") {
    const g = ANAPHORS[c.lower]!.group;
    return g === info.group;
  }
  const { anim } = animacyOf(c, st.sentences[c.sent]!, st.lex);
  if (info.group === "it" && anim === "per") return false;
  if ((info.group === "he" || info.group === "she") && (anim === "oth" || anim === "org")) return false;
  return true;
}

interface PronounSite {
  sent: number;
  tok: number;
  info: PronounInfo;
  lower: string;
}

function pronounSites(sentences: readonly AnnSentence[]): PronounSite[] {
  const out: PronounSite[] = [];
  sentences.forEach((s, si) =>
    s.tokens.forEach((t, ti) => {
      const info = pronounOf(t);
      if (info) out.push({ sent: si, tok: ti, info, lower: t.text.toLowerCase() });
    }),
  );
  return out;
}

function candidatesFor(all: Candidate[][], p: PronounSite, window: number): Candidate[] {
  const out: Candidate[] = [];
  for (let s = p.sent; s >= Math.max(0, p.sent - window); s--)
    for (const c of all[s]!) if (s < p.sent || c.end <= p.tok) out.push(c);
  // Closest first: rank = position in this order.
  out.sort((a, b) => b.sent - a.sent || b.head - a.head);
  return out;
}

function newState(sentences: AnnSentence[], lex: AnimacyLexicon, opts: RunOptions): DocState {
  return { sentences, lex, wn: opts.wn, feats: new Set(opts.features ?? []), lemmaCount: new Map(), entityOf: new Map(), entitySize: new Map(), followed: new Map() };
}

/** Updates salience counts with the nominal candidates of sentence `s`. */
function noteSentence(st: DocState, cands: Candidate[]): void {
  for (const c of cands) if (c.kind !== "PRON") st.lemmaCount.set(c.lower, (st.lemmaCount.get(c.lower) ?? 0) + 1);
}

function link(st: DocState, p: PronounSite, c: Candidate): void {
  const ck = `${c.sent}:${c.head}`;
  const pk = `${p.sent}:${p.tok}`;
  let e = st.entityOf.get(ck);
  if (e === undefined) {
    e = st.entitySize.size;
    st.entityOf.set(ck, e);
    st.entitySize.set(e, 1);
  }
  st.entityOf.set(pk, e);
  st.entitySize.set(e, (st.entitySize.get(e) ?? 0) + 1);
  const target = c.kind === "PRON" ? st.followed.get(ck) : c;
  if (target) st.followed.set(pk, target);
}

export interface ResolveDecision {
  pronoun: { sent: number; tok: number };
  antecedent?: Candidate;
  /** The nominal the chain leads to (antecedent itself, or what an antecedent pronoun was followed to). */
  nominal?: Candidate;
}

type Scorer = (features: readonly string[]) => number;

/** The lexicons and feature groups a run uses besides the corpus animacy lexicon. */
export interface RunOptions {
  wn?: AnimacyLexicon;
  features?: readonly CorefFeatureGroup[];
  /** At use (not in training): skip antecedent pronouns that lead to no noun when a noun still beats "none". */
  preferNominal?: boolean;
}

/** Runs the resolver over a document, in order; returns one decision per pronoun site. */
function runDocument(sentences: AnnSentence[], lex: AnimacyLexicon, opts: RunOptions, window: number, score: Scorer, nullBias: number, learn?: (p: PronounSite, options: string[][], predicted: number, cands: Candidate[]) => void): ResolveDecision[] {
  const st = newState(sentences, lex, opts);
  const all = sentences.map((s, i) => candidatesOf(s, i));
  const sites = pronounSites(sentences);
  const out: ResolveDecision[] = [];
  let noted = -1;
  for (const p of sites) {
    while (noted < p.sent) noteSentence(st, all[++noted]!);
    if (p.lower === "it" && weatherOrRaising(sentences[p.sent]!, p.tok)) {
      out.push({ pronoun: { sent: p.sent, tok: p.tok } });
      continue;
    }
    const cands = candidatesFor(all, p, window).filter((c) => p.info.group !== "possind" || c.kind !== "PRON");
    const comp = cands.filter((c) => compatible(p.info, c, st)).length;
    const options: string[][] = [nullFeatures(st, p, cands.length, comp)];
    cands.forEach((c, r) => options.push(candFeatures(st, p, c, r)));
    let best = 0;
    const nullScore = score(options[0]!) - nullBias;
    let bestScore = nullScore;
    const scores = opts.preferNominal && !learn ? new Float64Array(options.length) : undefined;
    for (let k = 1; k < options.length; k++) {
      const v = score(options[k]!);
      if (scores) scores[k] = v;
      if (v > bestScore) {
        bestScore = v;
        best = k;
      }
    }
    // preferNominal: a pronoun whose best antecedent is a pronoun that leads to no noun takes the best
    // candidate that does lead to one, if that one still beats "no antecedent".
    if (scores && best > 0 && cands[best - 1]!.kind === "PRON" && !st.followed.has(`${cands[best - 1]!.sent}:${cands[best - 1]!.head}`)) {
      let alt = 0;
      let altScore = nullScore;
      for (let k = 1; k < options.length; k++) {
        const c = cands[k - 1]!;
        if ((c.kind !== "PRON" || st.followed.has(`${c.sent}:${c.head}`)) && scores[k]! > altScore) {
          altScore = scores[k]!;
          alt = k;
        }
      }
      if (alt > 0) best = alt;
    }
    learn?.(p, options, best, cands);
    if (best > 0) {
      const c = cands[best - 1]!;
      link(st, p, c);
      out.push({ pronoun: { sent: p.sent, tok: p.tok }, antecedent: c, nominal: c.kind === "PRON" ? st.followed.get(`${c.sent}:${c.head}`) : c });
    } else out.push({ pronoun: { sent: p.sent, tok: p.tok } });
  }
  return out;
}

/** Builds clusters from decisions: each pronoun joins its antecedent's cluster. */
export function clustersFrom(decisions: ResolveDecision[]): CorefCluster[] {
  const parent = new Map<string, string>();
  const mention = new Map<string, Mention>();
  const find = (k: string): string => {
    let r = k;
    while (parent.get(r) !== r) r = parent.get(r)!;
    parent.set(k, r);
    return r;
  };
  const add = (k: string, m: Mention) => {
    if (!parent.has(k)) {
      parent.set(k, k);
      mention.set(k, m);
    }
  };
  for (const d of decisions) {
    if (!d.antecedent) continue;
    const a = d.antecedent;
    const ak = `${a.sent}:${a.head}`;
    const pk = `${d.pronoun.sent}:${d.pronoun.tok}`;
    add(ak, { sent: a.sent, start: a.start, end: a.end, head: a.head });
    add(pk, { sent: d.pronoun.sent, start: d.pronoun.tok, end: d.pronoun.tok + 1, head: d.pronoun.tok });
    parent.set(find(pk), find(ak));
  }
  const groups = new Map<string, Mention[]>();
  for (const k of parent.keys()) {
    const r = find(k);
    groups.set(r, [...(groups.get(r) ?? []), mention.get(k)!]);
  }
  const out: CorefCluster[] = [];
  for (const ms of groups.values()) {
    ms.sort((x, y) => x.sent - y.sent || x.start - y.start || y.end - x.end);
    out.push({ mentions: ms });
  }
  out.sort((x, y) => x.mentions[0]!.sent - y.mentions[0]!.sent || x.mentions[0]!.start - y.mentions[0]!.start);
  return out;
}

export class PronounResolver implements CorefResolver {
  private readonly scorer: PerceptronScorer;
  private readonly buf = new Float64Array(1);

  constructor(
    readonly model: CorefModel,
    private readonly lex: AnimacyLexicon,
    /** Overrides the model's nullBias (evaluation sweeps). */
    private readonly nullBias?: number,
    /** WordNet animacy lexicon, read when the model uses the "wn" or "agree" features. */
    private readonly wn?: AnimacyLexicon,
    /** Overrides the model's preferNominal (evaluation). */
    private readonly preferNominal?: boolean,
  ) {
    if (model.format !== COREF_FORMAT) throw new Error(`not a ${COREF_FORMAT} model`);
    this.scorer = new PerceptronScorer(model.perceptron);
  }

  decisions(sentences: AnnSentence[]): ResolveDecision[] {
    return runDocument(
      sentences,
      this.lex,
      { wn: this.wn, features: this.model.features, preferNominal: this.preferNominal ?? this.model.preferNominal },
      this.model.window,
      (f) => {
        this.scorer.score(f, this.buf);
        return this.buf[0]!;
      },
      this.nullBias ?? this.model.nullBias ?? 0,
    );
  }

  resolve(sentences: AnnSentence[]): CorefCluster[] {
    return clustersFrom(this.decisions(sentences));
  }

  /**
   * Whether a common-noun lemma clearly names a person by the resolver's lexicons (corpus entity types,
   * else WordNet): "man", "blogger", "father". Used by the CTXPRO engine's fallback antecedent, which
   * does not give *it* a person.
   */
  isPerson(lemma: string): boolean {
    const c: Candidate = { sent: 0, start: 0, end: 1, head: 0, kind: "NOUN", lower: lemma.toLowerCase() };
    const a = animacyOf(c, { text: "", tokens: [] }, this.lex).anim;
    if (a !== "unk") return a === "per";
    return wordnetOf(c, this.wn).anim === "per";
  }
}

// ------------------------------------------------------------------------------------- training

/** Gold supervision for one training document. */
export interface CorefTrainDoc {
  sentences: AnnSentence[];
  /**
   * For a pronoun site: undefined = skip it (no reliable label), "null" = no antecedent, or a
   * predicate telling which candidates are correct.
   */
  gold: (sent: number, tok: number) => undefined | "null" | ((c: Candidate) => boolean);
}

export function trainCoref(
  docs: CorefTrainDoc[],
  lex: AnimacyLexicon,
  opts: { epochs?: number; window?: number; seed?: number; trainedOn?: string; log?: (m: string) => void; features?: CorefFeatureGroup[]; wn?: AnimacyLexicon; minWeight?: number } = {},
): CorefModel {
  const window = opts.window ?? 3;
  const p = new AveragedPerceptron(["score"]);
  const buf = new Float64Array(1);
  const score: Scorer = (f) => {
    p.score(f, buf);
    return buf[0]!;
  };
  const order = docs.map((_, i) => i);
  const rand = rng(opts.seed ?? 1);
  for (let ep = 0; ep < (opts.epochs ?? 10); ep++) {
    shuffle(order, rand);
    let seen = 0;
    let right = 0;
    for (const di of order) {
      const d = docs[di]!;
      runDocument(d.sentences, lex, { wn: opts.wn, features: opts.features }, window, score, 0, (site, options, predicted, cands) => {
        const g = d.gold(site.sent, site.tok);
        if (g === undefined) return;
        const correct: number[] = g === "null" ? [0] : cands.map((c, k) => (g(c) ? k + 1 : -1)).filter((k) => k > 0);
        if (!correct.length) return;
        seen++;
        p.tick();
        if (correct.includes(predicted)) {
          right++;
          return;
        }
        // Latent target: the best-scoring correct option.
        let target = correct[0]!;
        let ts = -Infinity;
        for (const k of correct) {
          const v = score(options[k]!);
          if (v > ts) {
            ts = v;
            target = k;
          }
        }
        p.updateVector(0, options[target]!, 1);
        p.updateVector(0, options[predicted]!, -1);
      });
    }
    opts.log?.(`epoch ${ep + 1}: ${seen} pronouns, training accuracy ${((100 * right) / Math.max(1, seen)).toFixed(1)}%`);
  }
  const model: CorefModel = { format: COREF_FORMAT, window, perceptron: p.export(opts.minWeight ?? 0.01, 3), trainedOn: opts.trainedOn ?? "" };
  if (opts.features?.length) model.features = [...opts.features];
  return model;
}

/**
 * Averages the weights of rankers trained with different seeds (a linear model, so this averages their
 * scores): the single-seed ranker's held-out F1 moves by 2-3 points from seed to seed, since its chain
 * features depend on its own earlier decisions. Weights are rounded to 3 decimals.
 */
export function averageCorefModels(models: readonly CorefModel[], trainedOn?: string): CorefModel {
  if (!models.length) throw new Error("no models to average");
  const sum = new Map<string, number>();
  for (const m of models)
    for (const [f, w] of Object.entries(m.perceptron.weights))
      for (let k = 0; k < w.length; k += 2) {
        if (w[k] !== 0) throw new Error("coreference models have one label");
        sum.set(f, (sum.get(f) ?? 0) + w[k + 1]!);
      }
  const weights: Record<string, number[]> = {};
  for (const [f, v] of [...sum.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    const r = Math.round((v / models.length) * 1000) / 1000;
    if (r !== 0) weights[f] = [0, r];
  }
  const first = models[0]!;
  const out: CorefModel = { ...first, perceptron: { labels: [...first.perceptron.labels], weights }, trainedOn: trainedOn ?? first.trainedOn };
  return out;
}

/** Parses the shipped animacy lexicon (TSV: lemma, person, animal, org/place, other, masc, fem). */
export function parseAnimacy(tsv: string): AnimacyLexicon {
  const lex: AnimacyLexicon = new Map();
  for (const line of tsv.split("\n")) {
    if (!line || line.startsWith("#")) continue;
    const cols = line.split("\t");
    if (cols.length !== 7) continue;
    lex.set(cols[0]!, cols.slice(1).map(Number));
  }
  return lex;
}
