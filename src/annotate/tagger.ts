/**
 * Joint UPOS+FEATS tagger: a greedy left-to-right averaged perceptron (in the style of Honnibal's
 * "A good part-of-speech tagger in about 200 lines of Python") whose label is the UPOS plus the
 * morphological features CTXPRO's rules look at. Predicting them jointly lets agreement cues
 * (a feminine determiner before a noun) inform the noun's gender through the previous-tag features.
 */
import { shape, TaggerFeatureIndex } from "./feature-index.js";
import { AveragedPerceptron, rng, shuffle, type PerceptronModel } from "./perceptron.js";

/** The features kept in the joint label (others are dropped: they do not matter to the rules). */
export const TAG_FEATS = ["Gender", "Number", "Case", "Person", "PronType", "Poss"] as const;

export function makeLabel(upos: string, feats: Record<string, string>): string {
  let s = upos;
  for (const k of TAG_FEATS) if (feats[k] !== undefined) s += `|${k}=${feats[k]}`;
  return s;
}

export function splitLabel(label: string): { upos: string; feats: Record<string, string> } {
  const parts = label.split("|");
  const feats: Record<string, string> = {};
  for (const p of parts.slice(1)) {
    const eq = p.indexOf("=");
    feats[p.slice(0, eq)] = p.slice(eq + 1);
  }
  return { upos: parts[0]!, feats };
}

export interface TaggerModel {
  perceptron: PerceptronModel;
  /** lowercase word -> label index for frequent unambiguous words (skips scoring). */
  tagdict: Record<string, number>;
  suffixLen: number;
}

function suffix(w: string, n: number): string {
  return w.length > n ? w.slice(w.length - n) : w;
}

/** Feature strings for token i given the previously predicted labels. */
export function features(words: readonly string[], lower: readonly string[], i: number, prev: string, prev2: string, suffixLen: number): string[] {
  const w = words[i]!;
  const l = lower[i]!;
  const f: string[] = ["b", `w=${l}`, `sh=${shape(w)}`, `t1=${prev}`, `t12=${prev}|${prev2}`, `t1w=${prev}|${l}`];
  for (let k = 1; k <= suffixLen; k++) if (l.length > k) f.push(`s${k}=${l.slice(l.length - k)}`);
  for (let k = 1; k <= 4; k++) if (l.length > k) f.push(`p${k}=${l.slice(0, k)}`);
  if (i === 0) f.push(w !== l ? "first-cap" : "first");
  else if (w !== l) f.push("cap");
  const p1 = i > 0 ? lower[i - 1]! : "<s>";
  const p2 = i > 1 ? lower[i - 2]! : "<s>";
  const n1 = i + 1 < lower.length ? lower[i + 1]! : "</s>";
  const n2 = i + 2 < lower.length ? lower[i + 2]! : "</s>";
  f.push(`w-1=${p1}`, `w-2=${p2}`, `w+1=${n1}`, `w+2=${n2}`, `s3-1=${suffix(p1, 3)}`, `s3+1=${suffix(n1, 3)}`, `s2+1=${suffix(n1, 2)}`);
  f.push(`w-1w=${p1}|${l}`, `ww+1=${l}|${n1}`, `t1s3=${prev}|${suffix(l, 3)}`, `s3+2=${suffix(n2, 3)}`);
  return f;
}

export class Tagger {
  private readonly index: TaggerFeatureIndex;
  private readonly scores: Float64Array;

  constructor(readonly model: TaggerModel) {
    const labels = model.perceptron.labels;
    this.index = new TaggerFeatureIndex(model.perceptron, labels, model.suffixLen);
    this.scores = new Float64Array(labels.length);
  }

  get labels(): string[] {
    return this.model.perceptron.labels;
  }

  /**
   * Tags a sentence. `allowed(i)` may restrict token i to a set of label indices (closed-class tables):
   * the best-scoring allowed label wins.
   */
  tag(words: readonly string[], allowed?: (i: number) => readonly number[] | undefined): string[] {
    const lower = words.map((w) => w.toLowerCase());
    const sent = this.index.sentence(words, lower);
    const out: string[] = [];
    const n = this.labels.length;
    // Previous labels by number (the features of `features`, scored without building their strings).
    let prev = this.index.bosPrev;
    let prev2 = prev;
    for (let i = 0; i < words.length; i++) {
      const restrict = allowed?.(i);
      let label: number;
      // Own properties only (a word such as "constructor" must not hit Object.prototype).
      const fixed = Object.hasOwn(this.model.tagdict, lower[i]!) ? this.model.tagdict[lower[i]!] : undefined;
      if (fixed !== undefined && (!restrict || restrict.includes(fixed))) label = fixed;
      else if (restrict && restrict.length === 1) label = restrict[0]!; // nothing to score
      else {
        this.index.score(sent, i, prev, prev2, this.scores);
        let best = -1;
        const cands = restrict && restrict.length ? restrict : undefined;
        if (cands) {
          for (const c of cands) if (best < 0 || this.scores[c]! > this.scores[best]!) best = c;
        } else {
          for (let c = 0; c < n; c++) if (best < 0 || this.scores[c]! > this.scores[best]!) best = c;
        }
        label = best;
      }
      out.push(this.labels[label]!);
      prev2 = prev;
      prev = label;
    }
    return out;
  }
}

export interface TrainSentence {
  words: string[];
  labels: string[];
}

export interface TrainOptions {
  epochs?: number;
  seed?: number;
  suffixLen?: number;
  /** Averaged weights below this magnitude are dropped from the shipped model. */
  minWeight?: number;
  log?: (msg: string) => void;
}

export function trainTagger(sents: readonly TrainSentence[], opts: TrainOptions = {}): TaggerModel {
  const epochs = opts.epochs ?? 8;
  const suffixLen = opts.suffixLen ?? 4;
  const p = new AveragedPerceptron();
  const counts = new Map<string, Map<string, number>>();
  for (const s of sents)
    s.words.forEach((w, i) => {
      p.addLabel(s.labels[i]!);
      const l = w.toLowerCase();
      let c = counts.get(l);
      if (!c) counts.set(l, (c = new Map()));
      c.set(s.labels[i]!, (c.get(s.labels[i]!) ?? 0) + 1);
    });
  const tagdict: Record<string, number> = {};
  for (const [w, c] of counts) {
    const total = [...c.values()].reduce((a, b) => a + b, 0);
    const [label, n] = [...c.entries()].sort((a, b) => b[1] - a[1])[0]!;
    if (total >= 20 && n / total >= 0.99) tagdict[w] = p.indexOf(label)!;
  }
  const order = sents.map((_, i) => i);
  const rand = rng(opts.seed ?? 1);
  const scores = new Float64Array(p.labels.length);
  for (let ep = 0; ep < epochs; ep++) {
    shuffle(order, rand);
    let correct = 0;
    let total = 0;
    for (const si of order) {
      const s = sents[si]!;
      const lower = s.words.map((w) => w.toLowerCase());
      let prev = "<s>";
      let prev2 = "<s>";
      for (let i = 0; i < s.words.length; i++) {
        const gold = s.labels[i]!;
        let guess: string;
        const fixed = tagdict[lower[i]!];
        if (fixed !== undefined) guess = p.labels[fixed]!;
        else {
          const f = features(s.words, lower, i, prev, prev2, suffixLen);
          p.score(f, scores);
          let best = 0;
          for (let c = 1; c < p.labels.length; c++) if (scores[c]! > scores[best]!) best = c;
          p.update(p.indexOf(gold)!, best, f);
          guess = p.labels[best]!;
        }
        if (guess === gold) correct++;
        total++;
        prev2 = prev;
        prev = guess;
      }
    }
    opts.log?.(`epoch ${ep + 1}/${epochs}: training accuracy ${((100 * correct) / Math.max(1, total)).toFixed(2)}%`);
  }
  return { perceptron: p.export(opts.minWeight ?? 0.05, 2), tagdict, suffixLen };
}
