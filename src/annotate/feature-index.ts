/**
 * Fast scoring of the tagger's feature templates (`features` in tagger.ts) without building most
 * feature strings. Building and hashing some 30 fresh strings per token and looking each up in the
 * model's map was most of the taggers' time. Here the rows of the features whose variable part is one
 * word are looked up the first time the word is seen and kept in a record per lower-cased word; the
 * features that pair a word with the previous label or a neighbour word are looked up on first use
 * and remembered in that record (about 5 lookups per token instead of 30). Scores are summed in
 * exactly the order `features` lists the features, so they are bit-identical to scoring the strings
 * with `PerceptronScorer`.
 */
import type { PerceptronModel } from "./perceptron.js";

const BOS = "<s>";
const EOS = "</s>";
/** Word records (and the pairs remembered in them) kept before the caches are emptied: bounds memory. */
const WORDS_MAX = 1 << 16;
const MEMO_MAX = 1 << 20;
/** A feature absent from the model (rows are numbers >= 0). */
const NONE = -1;

/** The rows of the features in which one (lower-cased) word is the variable part. */
interface WordRows {
  word: string;
  /** Its last three characters (the suffix the s3 features use). */
  s3: string;
  /** w=word */
  w: number;
  /** s1..sK, then p1..p4 (those the word is long enough for, as in `features`), present ones only. */
  affix: number[];
  /** w-1=, w-2=, w+1=, w+2= with this word as the neighbour. */
  prev1: number;
  prev2: number;
  next1: number;
  next2: number;
  /** s3-1=, s3+1=, s2+1=, s3+2= with this word's suffix as the neighbour's. */
  s3prev1: number;
  s3next1: number;
  s2next1: number;
  s3next2: number;
  /** Looked up on first use: t1w=prev|word and t1s3=prev|s3 by previous label; w-1w=left|word, ww+1=word|right by neighbour. */
  t1w: Map<number, number> | undefined;
  t1s3: Map<number, number> | undefined;
  left: Map<string, number> | undefined;
  right: Map<string, number> | undefined;
}

/** A sentence prepared for scoring: word records and shape rows per position. */
export interface IndexedSentence {
  recs: WordRows[];
  shape: number[];
  /** The word is not all lower case (first-cap / cap features). */
  cased: boolean[];
}

const suffix = (w: string, n: number): string => (w.length > n ? w.slice(w.length - n) : w);

/** Word shape: letter classes (X, x, d, other characters as themselves) with repeats collapsed. */
export function shape(w: string): string {
  let out = "";
  let last = "";
  for (const ch of w) {
    const c = /\p{Lu}/u.test(ch) ? "X" : /\p{Ll}/u.test(ch) ? "x" : /\p{Nd}/u.test(ch) ? "d" : ch;
    if (c !== last) out += c;
    last = c;
    if (out.length > 6) break;
  }
  return out;
}

export class TaggerFeatureIndex {
  /** Previous-tag values by number: the labels given, then "<s>". */
  private readonly prevNames: string[];
  private readonly prevIndex = new Map<string, number>();
  /** Feature string -> row (a map: a fresh string is found faster than in the model's own object). */
  private readonly rowOf = new Map<string, number>();
  /** Row r's labels and weights are lab/wt[start[r] .. start[r + 1]) (typed arrays: faster to sum than the model's number[]). */
  private readonly start: Int32Array;
  private readonly lab: Int32Array;
  private readonly wt: Float64Array;
  /** The bias feature's weights as a dense vector: scoring starts from it (0 + w is w exactly). */
  private readonly biasScores: Float64Array;
  private readonly first: number;
  private readonly firstCap: number;
  private readonly cap: number;
  /** t1=prev by previous label (undefined: not looked up yet); t12=prev|prev2 by prev * labels + prev2. */
  private readonly t1: Array<number | undefined>;
  private readonly t12 = new Map<number, number>();
  private readonly words = new Map<string, WordRows>();
  private readonly shapes = new Map<string, number>();
  /** Entries remembered in the word records (t1w, t1s3, left, right). */
  private memo = 0;
  private readonly bos: WordRows;
  private readonly eos: WordRows;

  /** `prevLabels`: the labels a previous tag can be (the joint tagger's), numbered as given. */
  constructor(
    model: PerceptronModel,
    prevLabels: readonly string[],
    private readonly suffixLen: number,
  ) {
    const w = model.weights;
    const keys = Object.keys(w);
    let size = 0;
    for (const key of keys) size += w[key]!.length >> 1;
    this.start = new Int32Array(keys.length + 1);
    this.lab = new Int32Array(size);
    this.wt = new Float64Array(size);
    let at = 0;
    for (let r = 0; r < keys.length; r++) {
      const a = w[keys[r]!]!;
      this.start[r] = at;
      for (let k = 0; k < a.length; k += 2, at++) {
        this.lab[at] = a[k]!;
        this.wt[at] = a[k + 1]!;
      }
      this.rowOf.set(keys[r]!, r);
    }
    this.start[keys.length] = at;
    this.prevNames = [...prevLabels, BOS];
    this.prevNames.forEach((l, i) => this.prevIndex.has(l) || this.prevIndex.set(l, i));
    this.t1 = new Array<number | undefined>(this.prevNames.length).fill(undefined);
    this.biasScores = new Float64Array(model.labels.length);
    const bias = this.row("b");
    if (bias !== NONE) this.add(this.biasScores, bias);
    this.first = this.row("first");
    this.firstCap = this.row("first-cap");
    this.cap = this.row("cap");
    this.bos = this.record(BOS);
    this.eos = this.record(EOS);
  }

  /** The number of a previous-tag label (undefined: not one of the labels given). */
  prev(label: string): number | undefined {
    return this.prevIndex.get(label);
  }

  get bosPrev(): number {
    return this.prevNames.length - 1;
  }

  /** The row of a feature string (NONE when the model does not have it). */
  private row(key: string): number {
    return this.rowOf.get(key) ?? NONE;
  }

  private record(l: string): WordRows {
    const affix: number[] = [];
    for (let k = 1; k <= this.suffixLen; k++) {
      if (l.length <= k) continue;
      const r = this.row(`s${k}=${l.slice(l.length - k)}`);
      if (r !== NONE) affix.push(r);
    }
    for (let k = 1; k <= 4; k++) {
      if (l.length <= k) continue;
      const r = this.row(`p${k}=${l.slice(0, k)}`);
      if (r !== NONE) affix.push(r);
    }
    const s3 = suffix(l, 3);
    return {
      word: l,
      s3,
      w: this.row(`w=${l}`),
      affix,
      prev1: this.row(`w-1=${l}`),
      prev2: this.row(`w-2=${l}`),
      next1: this.row(`w+1=${l}`),
      next2: this.row(`w+2=${l}`),
      s3prev1: this.row(`s3-1=${s3}`),
      s3next1: this.row(`s3+1=${s3}`),
      s2next1: this.row(`s2+1=${suffix(l, 2)}`),
      s3next2: this.row(`s3+2=${s3}`),
      t1w: undefined,
      t1s3: undefined,
      left: undefined,
      right: undefined,
    };
  }

  private wordRows(l: string): WordRows {
    let r = this.words.get(l);
    if (r === undefined) {
      if (this.words.size >= WORDS_MAX || this.memo >= MEMO_MAX) this.forget();
      r = this.record(l);
      this.words.set(l, r);
    }
    return r;
  }

  /** Empties the word caches (the boundary records are only neighbours: they remember nothing). */
  private forget(): void {
    this.words.clear();
    this.shapes.clear();
    this.memo = 0;
  }

  private shapeRow(w: string): number {
    let r = this.shapes.get(w);
    if (r === undefined) {
      r = this.row(`sh=${shape(w)}`);
      this.shapes.set(w, r);
    }
    return r;
  }

  /** Looks up the word records of a sentence (`lower`: its words lower-cased). */
  sentence(words: readonly string[], lower: readonly string[]): IndexedSentence {
    const recs: WordRows[] = [];
    const shapes: number[] = [];
    const cased: boolean[] = [];
    for (let i = 0; i < words.length; i++) {
      recs.push(this.wordRows(lower[i]!));
      shapes.push(this.shapeRow(words[i]!));
      cased.push(words[i] !== lower[i]);
    }
    return { recs, shape: shapes, cased };
  }

  /**
   * Scores of token i given the numbers of the two previous labels (`bosPrev` at the start), in the
   * order of `features(words, lower, i, prev, prev2, suffixLen)`, into `scores[0..labels)` (overwritten).
   */
  score(s: IndexedSentence, i: number, prev: number, prev2: number, scores: Float64Array): void {
    scores.set(this.biasScores);
    const recs = s.recs;
    const r = recs[i]!;
    const last = recs.length;
    const names = this.prevNames;
    this.add(scores, r.w);
    this.add(scores, s.shape[i]!);
    this.add(scores, (this.t1[prev] ??= this.row(`t1=${names[prev]}`)));
    const pp = prev * names.length + prev2;
    let t12 = this.t12.get(pp);
    if (t12 === undefined) this.t12.set(pp, (t12 = this.row(`t12=${names[prev]}|${names[prev2]}`)));
    this.add(scores, t12);
    this.add(scores, this.byPrev((r.t1w ??= new Map()), prev, "t1w=", r.word));
    for (const a of r.affix) this.add(scores, a);
    if (i === 0) this.add(scores, s.cased[i] ? this.firstCap : this.first);
    else if (s.cased[i]) this.add(scores, this.cap);
    const p1 = i > 0 ? recs[i - 1]! : this.bos;
    const p2 = i > 1 ? recs[i - 2]! : this.bos;
    const n1 = i + 1 < last ? recs[i + 1]! : this.eos;
    const n2 = i + 2 < last ? recs[i + 2]! : this.eos;
    this.add(scores, p1.prev1);
    this.add(scores, p2.prev2);
    this.add(scores, n1.next1);
    this.add(scores, n2.next2);
    this.add(scores, p1.s3prev1);
    this.add(scores, n1.s3next1);
    this.add(scores, n1.s2next1);
    this.add(scores, this.pair((r.left ??= new Map()), p1.word, "w-1w=", p1.word, r.word));
    this.add(scores, this.pair((r.right ??= new Map()), n1.word, "ww+1=", r.word, n1.word));
    this.add(scores, this.byPrev((r.t1s3 ??= new Map()), prev, "t1s3=", r.s3));
    this.add(scores, n2.s3next2);
  }

  /** Row of `${template}${prev label}|${value}`, remembered by previous label. */
  private byPrev(m: Map<number, number>, prev: number, template: string, value: string): number {
    let r = m.get(prev);
    if (r === undefined) {
      m.set(prev, (r = this.row(`${template}${this.prevNames[prev]}|${value}`)));
      this.memo++;
    }
    return r;
  }

  /** Row of `${template}${a}|${b}`, remembered by the neighbour word. */
  private pair(m: Map<string, number>, neighbour: string, template: string, a: string, b: string): number {
    let r = m.get(neighbour);
    if (r === undefined) {
      m.set(neighbour, (r = this.row(`${template}${a}|${b}`)));
      this.memo++;
    }
    return r;
  }

  private add(scores: Float64Array, r: number): void {
    if (r === NONE) return;
    const lab = this.lab;
    const wt = this.wt;
    for (let k = this.start[r]!, end = this.start[r + 1]!; k < end; k++) scores[lab[k]!] += wt[k]!;
  }

  /** Adds the weights of other feature strings (e.g. the tense model's own), in order. */
  addOther(keys: readonly string[], scores: Float64Array): void {
    for (const k of keys) this.add(scores, this.row(k));
  }
}
