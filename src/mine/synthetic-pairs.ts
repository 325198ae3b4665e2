import { existsSync } from "node:fs";
import { AtomicLineWriter } from "../io/atomic.js";
import { InputError } from "../io/errors.js";
import { streamLines } from "../io/lines.js";
import { readAllPairs, type PairRecord } from "../core/pair-format.js";
import { substituteCase } from "./pairs.js";
import { pronouns } from "../text/pronouns.js";

/**
 * Training pairs on which pronoun identity cannot pay: for every confusable pronoun pair {x, y}
 * both directions (x -> y and y -> x) get the same number of pairs, so a scorer that only knows
 * which pronoun usually wins is right on exactly half of them. Two sources per ordered pair:
 *  - mined R vs R' pairs (a reference with one pronoun replaced by what an MT system wrote),
 *    at most `minedShare` of the quota;
 *  - synthetic substitutions from a monolingual corpus: a sentence with x (the positive), the
 *    same sentence with that x replaced by y (the negative), its two previous sentences as context.
 * Synthetic candidates are drawn with one seeded reservoir per ordered pair over the corpus in file
 * order, so the same corpus, pairs and seed give the same file.
 */

/** One corpus document: tokenised sentences (tokens joined by single spaces), in reading order. */
export interface CorpusDocLike {
  id: string;
  source?: string;
  sents: string[];
}

/** Seeded uniform [0, 1) generator (mulberry32). */
export function seededRandom(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a hash of a string mixed with a seed, as a number in [0, 1): a stable per-document coin. */
export function stableUnit(text: string, seed: number): number {
  let h = (0x811c9dc5 ^ Math.imul(seed >>> 0, 0x9e3779b1)) >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b) >>> 0;
  h ^= h >>> 13;
  return (h >>> 0) / 4294967296;
}

/**
 * Documents that must never give training pairs: the dev year of WMT (wmt23, whose into-English
 * side is the dev pair file and whose judged pairs are the human validation data) in any form.
 */
export function isDevYearDoc(id: string): boolean {
  return /(?:generaltest|newstest|wmttest)2023|wmt23/i.test(id);
}

export type ConfusionSets = Map<string, string[]>;

/**
 * Confusable pronoun pairs from mined R vs R' pairs: {x, y} is confusable when x -> y and y -> x
 * together occur at least `minCount` times. Both directions are returned (x's list holds y and
 * y's holds x), whichever direction was mined: the point is to teach both.
 */
export function minedConfusions(pairs: Iterable<PairRecord>, minCount: number): ConfusionSets {
  const inv = pronouns();
  const unordered = new Map<string, number>();
  for (const p of pairs) {
    if (p.kind !== "noisy") continue;
    const x = p.ref_pronoun.toLowerCase();
    const y = p.sys_pronoun.toLowerCase();
    if (x === y || !inv.has(x) || !inv.has(y)) continue;
    const k = x < y ? `${x}\t${y}` : `${y}\t${x}`;
    unordered.set(k, (unordered.get(k) ?? 0) + 1);
  }
  const out: ConfusionSets = new Map();
  const add = (a: string, b: string): void => {
    if (!out.has(a)) out.set(a, []);
    out.get(a)!.push(b);
  };
  for (const [k, n] of unordered) {
    if (n < minCount) continue;
    const [x, y] = k.split("\t") as [string, string];
    add(x, y);
    add(y, x);
  }
  for (const v of out.values()) v.sort();
  return out;
}

/** Confusable pronoun pairs from the inventory's classes (pronouns sharing a case: data/pronouns.json). */
export function classConfusions(): ConfusionSets {
  const inv = pronouns();
  const out: ConfusionSets = new Map();
  inv.list.forEach((p, i) => out.set(p.pronoun, inv.confusable(i).map((j) => inv.list[j]!.pronoun).sort()));
  return out;
}

export interface SamplerOptions {
  /** Synthetic candidates kept per ordered pronoun pair (reservoir size). */
  perDirection: number;
  seed: number;
  /** Context sentences before the target (the ranker's CRC uses 2). */
  contextSentences: number;
  /** Target sentences longer than this many tokens are skipped (the ranker keeps whole sentences). */
  maxTokens: number;
}

interface Reservoir {
  seen: number;
  items: PairRecord[];
}

/**
 * Streams corpus documents and keeps, per ordered pronoun pair x -> y, a seeded uniform sample of
 * `perDirection` substitution pairs. Tokens in capitals ("US", "IT") are not taken for pronouns.
 */
export class SubstitutionSampler {
  private readonly reservoirs = new Map<string, Reservoir>();
  private readonly rnd: () => number;
  readonly counts = { docs: 0, sentences: 0, candidates: 0 };

  constructor(
    readonly confusions: ConfusionSets,
    readonly opts: SamplerOptions,
    /** Label written into ids and origins ("train", "dev"). */
    readonly split: "train" | "dev",
  ) {
    this.rnd = seededRandom(opts.seed);
  }

  addDoc(doc: CorpusDocLike): void {
    this.counts.docs++;
    const inv = pronouns();
    doc.sents.forEach((sentence, i) => {
      this.counts.sentences++;
      const toks = sentence.split(" ");
      if (toks.length > this.opts.maxTokens) return;
      let offset = 0;
      toks.forEach((tok, t) => {
        const start = offset;
        offset += tok.length + 1;
        if (!inv.has(tok) || (tok.length > 1 && tok === tok.toUpperCase() && tok !== tok.toLowerCase())) return;
        const x = tok.toLowerCase();
        for (const y of this.confusions.get(x) ?? []) {
          const replacement = substituteCase(sentence, start, tok, y);
          const negative = sentence.slice(0, start) + replacement + sentence.slice(start + tok.length);
          if (negative === sentence) continue;
          this.counts.candidates++;
          const key = `${x}>${y}`;
          let r = this.reservoirs.get(key);
          if (!r) this.reservoirs.set(key, (r = { seen: 0, items: [] }));
          r.seen++;
          const at = r.items.length < this.opts.perDirection ? r.items.length : Math.floor(this.rnd() * r.seen);
          if (at >= this.opts.perDirection) continue;
          r.items[at] = {
            id: `Z:${this.split}/${doc.id}/${i}/${t}/${y}`,
            lang: "en",
            context: doc.sents.slice(Math.max(0, i - this.opts.contextSentences), i),
            positive: sentence,
            negative,
            kind: "noisy",
            ref_pronoun: x,
            sys_pronoun: y,
            origin: `${doc.id}/${i}/synthetic`,
            split: this.split,
            context_mode: "crc",
          };
        }
      });
    });
  }

  /** Sampled pairs per ordered pair "x>y" (in the reservoir's order), and how many candidates each had. */
  result(): Map<string, { seen: number; items: PairRecord[] }> {
    return new Map([...this.reservoirs].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)));
  }
}

export interface BalanceOptions {
  /** Pairs per ordered pronoun pair. */
  perDirection: number;
  /** At most this share of an ordered pair's quota comes from mined pairs (the rest is synthetic). */
  minedShare: number;
  seed: number;
}

export interface DirectionCount {
  pair: string;
  mined: number;
  synthetic: number;
  /** Mined and synthetic pairs that were available before balancing. */
  minedAvailable: number;
  syntheticAvailable: number;
}

export interface BalancedPairs {
  pairs: PairRecord[];
  directions: DirectionCount[];
  /** Unordered pairs left out: no candidate in one of the two directions. */
  dropped: string[];
}

/**
 * Combines mined R vs R' pairs and synthetic pairs so that each ordered pair x -> y of a confusable
 * {x, y} gets the same number of pairs as y -> x: q = min(perDirection, available x -> y,
 * available y -> x), of which up to floor(minedShare * q) are mined (seeded draw) and the rest
 * synthetic. Pronoun pairs outside the confusion sets are not used. The result is shuffled.
 */
export function balancePairs(
  mined: PairRecord[],
  synthetic: Map<string, { items: PairRecord[] }>,
  confusions: ConfusionSets,
  opts: BalanceOptions,
): BalancedPairs {
  const rnd = seededRandom(opts.seed ^ 0x2545f491);
  const shuffle = <T>(a: T[]): T[] => {
    for (let i = a.length - 1; i > 0; i--) {
      const j = Math.floor(rnd() * (i + 1));
      [a[i], a[j]] = [a[j]!, a[i]!];
    }
    return a;
  };
  const minedBy = new Map<string, PairRecord[]>();
  for (const p of mined) {
    if (p.kind !== "noisy") continue;
    const k = `${p.ref_pronoun.toLowerCase()}>${p.sys_pronoun.toLowerCase()}`;
    if (!minedBy.has(k)) minedBy.set(k, []);
    minedBy.get(k)!.push(p);
  }
  const unordered = new Set<string>();
  for (const [x, ys] of confusions) for (const y of ys) unordered.add(x < y ? `${x}>${y}` : `${y}>${x}`);
  const out: PairRecord[] = [];
  const directions: DirectionCount[] = [];
  const dropped: string[] = [];
  for (const key of [...unordered].sort()) {
    const [x, y] = key.split(">") as [string, string];
    const dirs = [`${x}>${y}`, `${y}>${x}`];
    const avail = dirs.map((d) => ({ mined: minedBy.get(d) ?? [], syn: synthetic.get(d)?.items ?? [] }));
    const cap = (a: { mined: PairRecord[]; syn: PairRecord[] }): number => Math.min(Math.floor(opts.minedShare * opts.perDirection), a.mined.length) + a.syn.length;
    const q = Math.min(opts.perDirection, ...avail.map(cap));
    if (q === 0) {
      dropped.push(`${x}/${y}`);
      continue;
    }
    dirs.forEach((d, k) => {
      const a = avail[k]!;
      // Mined pairs fill their share of q, more when the synthetic ones run short (cap() keeps m within the share of perDirection).
      const m = Math.min(a.mined.length, Math.max(Math.floor(opts.minedShare * q), q - a.syn.length));
      const takeMined = shuffle(a.mined.slice()).slice(0, m);
      const takeSyn = a.syn.slice(0, q - m);
      out.push(...takeMined, ...takeSyn);
      directions.push({ pair: d, mined: takeMined.length, synthetic: takeSyn.length, minedAvailable: a.mined.length, syntheticAvailable: a.syn.length });
    });
  }
  return { pairs: shuffle(out), directions, dropped };
}

/** Streams a corpus file (JSONL of {id, source, sents}, plain or .gz); a bad line is an error naming file and line. */
export async function* readCorpusDocs(file: string): AsyncGenerator<CorpusDocLike> {
  if (!existsSync(file)) throw new InputError("corpus file not found", file);
  let n = 0;
  for await (const line of streamLines(file)) {
    n++;
    if (!line.trim()) continue;
    let d: CorpusDocLike;
    try {
      d = JSON.parse(line);
    } catch (e) {
      throw new InputError(`invalid JSON (${(e as Error).message})`, file, n);
    }
    if (!d || typeof d.id !== "string" || !Array.isArray(d.sents) || d.sents.some((x) => typeof x !== "string"))
      throw new InputError("not a corpus document (expected {id, source, sents: [string]})", file, n);
    yield d;
  }
}

export interface SyntheticBuildOptions {
  corpus: string;
  /** Mined pair file: its R vs R' pairs are mixed in, and (with confusions "mined") give the confusion sets. */
  pairs: string;
  out: string;
  /** Held-out synthetic pairs from documents never used for training (for model selection while training). */
  devOut?: string;
  perDirection: number;
  devPerDirection: number;
  minedShare: number;
  minConfusion: number;
  confusions: "mined" | "classes";
  /** Share of documents held out for devOut (by a seeded hash of the document id). */
  devFraction: number;
  seed: number;
  contextSentences: number;
  maxTokens: number;
  log?: (m: string) => void;
}

export interface SyntheticBuildResult {
  train: BalancedPairs;
  dev: BalancedPairs | null;
  confusablePairs: number;
  docs: { train: number; dev: number; devYear: number };
  candidates: number;
}

/**
 * Builds the balanced training file (and a held-out synthetic dev file): confusion sets, one pass
 * over the corpus (documents of the dev year skipped, a seeded share held out), balancing, atomic
 * writes. Deterministic for the same inputs and options.
 */
export async function buildSyntheticPairs(o: SyntheticBuildOptions): Promise<SyntheticBuildResult> {
  const log = o.log ?? (() => {});
  if (!(o.perDirection >= 1) || !(o.minedShare >= 0 && o.minedShare <= 1) || !(o.devFraction >= 0 && o.devFraction < 1))
    throw new InputError("need --per-direction >= 1, 0 <= --mined-share <= 1 and 0 <= --dev-fraction < 1");
  const mined = await readAllPairs(o.pairs);
  const confusions = o.confusions === "classes" ? classConfusions() : minedConfusions(mined, o.minConfusion);
  const confusablePairs = [...confusions.values()].reduce((s, v) => s + v.length, 0) / 2;
  if (confusablePairs === 0) throw new InputError(`no confusable pronoun pair (R vs R' pairs seen at least ${o.minConfusion} times)`, o.pairs);
  log(`${confusablePairs} confusable pronoun pairs (${o.confusions}), ${2 * confusablePairs} ordered`);
  const base = { seed: o.seed, contextSentences: o.contextSentences, maxTokens: o.maxTokens };
  const train = new SubstitutionSampler(confusions, { ...base, perDirection: o.perDirection }, "train");
  const dev = o.devOut ? new SubstitutionSampler(confusions, { ...base, perDirection: o.devPerDirection, seed: o.seed + 1 }, "dev") : null;
  const docs = { train: 0, dev: 0, devYear: 0 };
  for await (const d of readCorpusDocs(o.corpus)) {
    if (isDevYearDoc(d.id)) {
      docs.devYear++;
      continue;
    }
    if (stableUnit(d.id, o.seed) < o.devFraction) {
      docs.dev++;
      dev?.addDoc(d);
    } else {
      docs.train++;
      train.addDoc(d);
    }
    if ((docs.train + docs.dev) % 20000 === 0) log(`${docs.train + docs.dev} documents read`);
  }
  const bal = balancePairs(mined, train.result(), confusions, { perDirection: o.perDirection, minedShare: o.minedShare, seed: o.seed });
  const balDev = dev ? balancePairs([], dev.result(), confusions, { perDirection: o.devPerDirection, minedShare: 0, seed: o.seed + 1 }) : null;
  if (bal.pairs.length === 0) throw new InputError("no training pair could be built (no confusable pronoun in the corpus?)", o.corpus);
  const write = (file: string, pairs: PairRecord[]): void => {
    const w = new AtomicLineWriter(file);
    for (const p of pairs) w.write(JSON.stringify(p));
    w.commit();
  };
  write(o.out, bal.pairs);
  if (o.devOut && balDev) write(o.devOut, balDev.pairs);
  return { train: bal, dev: balDev, confusablePairs, docs, candidates: train.counts.candidates };
}
