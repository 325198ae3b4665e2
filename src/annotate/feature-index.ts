/**
 * Fast scoring of the tagger's feature templates (`features` in tagger.ts) without building feature
 * strings. Building and hashing some 30 fresh strings per token and looking each up in one big map was
 * most of the taggers' time; here the model's keys are split once by template, the features of a word
 * are gathered into a record cached per lower-cased word, and the previous-tag features are indexed
 * by label number. Scores are summed in exactly the order `features` lists the features, so they are
 * bit-identical to scoring the strings with `PerceptronScorer`.
 */
import type { PerceptronModel } from "./perceptron.js";

/** A feature's weights: a row number into the flat label/weight arrays (undefined: not in the model). */
type Row = number;

const BOS = "<s>";
const EOS = "</s>";
/** Word records kept before the cache is emptied (bounds memory on a large corpus). */
const CACHE_MAX = 1 << 16;

/** The rows of the features whose variable part is one (lower-cased) word. */
interface WordRows {
  word: string;
  /** w=word */
  w: Row | undefined;
  /** s1..sK, then p1..p4 (those the word is long enough for, as in `features`). */
  affix: Row[];
  /** w-1=, w-2=, w+1=, w+2= with this word as the neighbour. */
  prev1: Row | undefined;
  prev2: Row | undefined;
  next1: Row | undefined;
  next2: Row | undefined;
  /** s3-1=, s3+1=, s2+1=, s3+2= with this word's suffix as the neighbour's. */
  s3prev1: Row | undefined;
  s3next1: Row | undefined;
  s2next1: Row | undefined;
  s3next2: Row | undefined;
  /** t1w=prev|word and t1s3=prev|suffix3(word): previous-label numbers and their rows. */
  t1w: LabelRows | undefined;
  t1s3: LabelRows | undefined;
  /** w-1w=left|word: left word -> row; ww+1=word|right: right word -> row. */
  left: Map<string, Row> | undefined;
  right: Map<string, Row> | undefined;
}

interface LabelRows {
  labels: number[];
  rows: Row[];
}

/** A sentence prepared for scoring: word records and shape rows per position. */
export interface IndexedSentence {
  words: readonly string[];
  recs: WordRows[];
  shape: Array<Row | undefined>;
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


function find(lr: LabelRows | undefined, label: number): Row | undefined {
  if (lr === undefined) return undefined;
  const ls = lr.labels;
  for (let k = 0; k < ls.length; k++) if (ls[k] === label) return lr.rows[k];
  return undefined;
}

function push(m: Map<string, LabelRows>, key: string, label: number, row: Row): void {
  let lr = m.get(key);
  if (!lr) m.set(key, (lr = { labels: [], rows: [] }));
  lr.labels.push(label);
  lr.rows.push(row);
}

function nested(m: Map<string, Map<string, Row>>, outer: string, inner: string, row: Row): void {
  let x = m.get(outer);
  if (!x) m.set(outer, (x = new Map()));
  x.set(inner, row);
}

/** Single-value templates: `name=value`, looked up by value. */
const SINGLE = ["w", "sh", "w-1", "w-2", "w+1", "w+2", "s3-1", "s3+1", "s2+1", "s3+2", "p1", "p2", "p3", "p4"];

export class TaggerFeatureIndex {
  /** Number of previous-tag values: the labels, then "<s>". */
  private readonly nPrev: number;
  private readonly prevIndex = new Map<string, number>();
  private readonly single = new Map<string, Map<string, Row>>();
  private readonly suffixes: Array<Map<string, Row>> = [];
  private readonly prefixes: Array<Map<string, Row>>;
  private readonly t1: Array<Row | undefined>;
  private readonly t12 = new Map<number, Row>();
  private readonly t1w = new Map<string, LabelRows>();
  private readonly t1s3 = new Map<string, LabelRows>();
  /** w-1w=left|word, keyed by word then left; ww+1=word|right, keyed by word then right. */
  private readonly left = new Map<string, Map<string, Row>>();
  private readonly right = new Map<string, Map<string, Row>>();
  /** Keys of no tagger template (e.g. the tense model's own), by their whole string. */
  private readonly other = new Map<string, Row>();
  /** Row r's labels and weights are lab/wt[start[r] .. start[r + 1]) (typed arrays: faster to sum than the model's number[]). */
  private readonly start: Int32Array;
  private readonly lab: Int32Array;
  private readonly wt: Float64Array;
  /** The bias feature's weights as a dense vector: scoring starts from it (0 + w is w exactly). */
  private readonly biasScores: Float64Array;
  private readonly first: Row | undefined;
  private readonly firstCap: Row | undefined;
  private readonly cap: Row | undefined;
  private readonly words = new Map<string, WordRows>();
  private readonly shapes = new Map<string, Row | null>();
  private readonly bos: WordRows;
  private readonly eos: WordRows;

  /**
   * `prevLabels`: every label a previous tag can be (the joint tagger's labels); keys naming other
   * labels can never match and are dropped.
   */
  constructor(
    model: PerceptronModel,
    prevLabels: readonly string[],
    private readonly suffixLen: number,
  ) {
    prevLabels.forEach((l, i) => this.prevIndex.set(l, i));
    this.nPrev = prevLabels.length + 1;
    this.prevIndex.set(BOS, prevLabels.length);
    this.t1 = new Array<Row | undefined>(this.nPrev).fill(undefined);
    for (const t of SINGLE) this.single.set(t, new Map());
    for (let k = 1; k <= suffixLen; k++) {
      const m = this.single.get(`s${k}`) ?? new Map<string, Row>();
      this.single.set(`s${k}`, m);
      this.suffixes.push(m);
    }
    this.prefixes = [1, 2, 3, 4].map((k) => this.single.get(`p${k}`)!);
    const w = model.weights;
    const keys = Object.keys(w);
    let size = 0;
    for (const key of keys) size += w[key]!.length >> 1;
    this.start = new Int32Array(keys.length + 1);
    this.lab = new Int32Array(size);
    this.wt = new Float64Array(size);
    let at = 0;
    keys.forEach((key, r) => {
      const a = w[key]!;
      this.start[r] = at;
      for (let k = 0; k < a.length; k += 2, at++) {
        this.lab[at] = a[k]!;
        this.wt[at] = a[k + 1]!;
      }
      this.addKey(key, r);
    });
    this.start[keys.length] = at;
    this.biasScores = new Float64Array(model.labels.length);
    const bias = this.other.get("b");
    if (bias !== undefined) this.add(this.biasScores, bias);
    this.first = this.other.get("first");
    this.firstCap = this.other.get("first-cap");
    this.cap = this.other.get("cap");
    this.bos = this.record(BOS);
    this.eos = this.record(EOS);
  }

  /** Files one model key under its template (split at the first "=": template names have none). */
  private addKey(key: string, row: Row): void {
    const eq = key.indexOf("=");
    const t = eq < 0 ? key : key.slice(0, eq);
    const v = key.slice(eq + 1);
    const m = this.single.get(t);
    if (eq >= 0 && m) {
      m.set(v, row);
      return;
    }
    // Composite values "a|b": a label or word may itself hold "|", so every split is filed; the key
    // a runtime (a, b) builds is `${a}|${b}`, which is one of them.
    let placed = false;
    if (eq >= 0 && t === "t1") {
      const a = this.prevIndex.get(v);
      if (a !== undefined) this.t1[a] = row;
      placed = true;
    } else if (eq >= 0 && (t === "t12" || t === "t1w" || t === "t1s3" || t === "w-1w" || t === "ww+1")) {
      placed = true;
      for (let p = v.indexOf("|"); p >= 0; p = v.indexOf("|", p + 1)) {
        const a = v.slice(0, p);
        const b = v.slice(p + 1);
        if (t === "w-1w") nested(this.left, b, a, row);
        else if (t === "ww+1") nested(this.right, a, b, row);
        else {
          const ai = this.prevIndex.get(a);
          if (ai === undefined) continue;
          if (t === "t1w") push(this.t1w, b, ai, row);
          else if (t === "t1s3") push(this.t1s3, b, ai, row);
          else {
            const bi = this.prevIndex.get(b);
            if (bi !== undefined) this.t12.set(ai * this.nPrev + bi, row);
          }
        }
      }
    }
    if (!placed) this.other.set(key, row);
  }

  /** The number of a previous-tag label (undefined: not one of the labels given). */
  prev(label: string): number | undefined {
    return this.prevIndex.get(label);
  }

  get bosPrev(): number {
    return this.nPrev - 1;
  }

  /** Weights of a key outside the tagger templates (e.g. "T=VERB"), by its whole string. */
  otherRow(key: string): Row | undefined {
    return this.other.get(key);
  }

  private record(l: string): WordRows {
    const s = this.single;
    const affix: Row[] = [];
    for (let k = 1; k <= this.suffixLen; k++) {
      if (l.length <= k) continue;
      const a = this.suffixes[k - 1]!.get(l.slice(l.length - k));
      if (a) affix.push(a);
    }
    for (let k = 1; k <= 4; k++) {
      if (l.length <= k) continue;
      const a = this.prefixes[k - 1]!.get(l.slice(0, k));
      if (a) affix.push(a);
    }
    const s3 = suffix(l, 3);
    return {
      word: l,
      w: s.get("w")!.get(l),
      affix,
      prev1: s.get("w-1")!.get(l),
      prev2: s.get("w-2")!.get(l),
      next1: s.get("w+1")!.get(l),
      next2: s.get("w+2")!.get(l),
      s3prev1: s.get("s3-1")!.get(s3),
      s3next1: s.get("s3+1")!.get(s3),
      s2next1: s.get("s2+1")!.get(suffix(l, 2)),
      s3next2: s.get("s3+2")!.get(s3),
      t1w: this.t1w.get(l),
      t1s3: this.t1s3.get(s3),
      left: this.left.get(l),
      right: this.right.get(l),
    };
  }

  private wordRows(l: string): WordRows {
    let r = this.words.get(l);
    if (r === undefined) {
      if (this.words.size >= CACHE_MAX) this.words.clear();
      r = this.record(l);
      this.words.set(l, r);
    }
    return r;
  }

  private shapeRow(w: string): Row | undefined {
    let r = this.shapes.get(w);
    if (r === undefined) {
      if (this.shapes.size >= CACHE_MAX) this.shapes.clear();
      r = this.single.get("sh")!.get(shape(w)) ?? null;
      this.shapes.set(w, r);
    }
    return r ?? undefined;
  }

  /** Looks up the word records of a sentence (`lower`: its words lower-cased). */
  sentence(words: readonly string[], lower: readonly string[]): IndexedSentence {
    const recs: WordRows[] = [];
    const shapes: Array<Row | undefined> = [];
    const cased: boolean[] = [];
    for (let i = 0; i < words.length; i++) {
      recs.push(this.wordRows(lower[i]!));
      shapes.push(this.shapeRow(words[i]!));
      cased.push(words[i] !== lower[i]);
    }
    return { words, recs, shape: shapes, cased };
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
    this.add(scores, r.w);
    this.add(scores, s.shape[i]);
    this.add(scores, this.t1[prev]);
    this.add(scores, this.t12.get(prev * this.nPrev + prev2));
    this.add(scores, find(r.t1w, prev));
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
    this.add(scores, r.left?.get(p1.word));
    this.add(scores, r.right?.get(n1.word));
    this.add(scores, find(r.t1s3, prev));
    this.add(scores, n2.s3next2);
  }

  private add(scores: Float64Array, r: Row | undefined): void {
    if (r === undefined) return;
    const lab = this.lab;
    const wt = this.wt;
    for (let k = this.start[r]!, end = this.start[r + 1]!; k < end; k++) scores[lab[k]!] += wt[k]!;
  }

  /** Adds the weights of extra (non-template) feature strings, in order. */
  addOther(keys: readonly string[], scores: Float64Array): void {
    for (const k of keys) this.add(scores, this.other.get(k));
  }
}
