/**
 * UD `Tense` of verbs and auxiliaries, predicted by a second averaged perceptron after the joint tagger.
 * Tense is kept out of the joint UPOS+FEATS label on purpose: splitting every verb label by tense
 * thins the dev-sized treebanks (Italian "Non la vedo" lost its VERB and the clitic rule with it),
 * while a separate pass over VERB/AUX tokens costs the other features nothing and can read the whole
 * tagged sentence (an auxiliary's tense is decided by the participle after it).
 */
import { AveragedPerceptron, PerceptronScorer, rng, shuffle, type PerceptronModel } from "./perceptron.js";
import { TaggerFeatureIndex, type IndexedSentence } from "./feature-index.js";
import { features } from "./tagger.js";

export interface TenseModel {
  perceptron: PerceptronModel;
  suffixLen: number;
}

/** Label for a verb without a Tense feature (infinitives, participles without one, imperatives...). */
const NONE = "-";
const VERBAL = new Set(["VERB", "AUX"]);

function uposOf(label: string): string {
  const k = label.indexOf("|");
  return k < 0 ? label : label.slice(0, k);
}

function tenseFeatures(words: readonly string[], lower: readonly string[], labels: readonly string[], i: number, suffixLen: number): string[] {
  const f = features(words, lower, i, i > 0 ? labels[i - 1]! : "<s>", i > 1 ? labels[i - 2]! : "<s>", suffixLen);
  f.push(...extraFeatures(lower, labels, i));
  return f;
}

/** The tense model's own features, after the tagger's. */
function extraFeatures(lower: readonly string[], labels: readonly string[], i: number): string[] {
  const n1 = i + 1 < labels.length ? uposOf(labels[i + 1]!) : "</s>";
  const n2 = i + 2 < labels.length ? uposOf(labels[i + 2]!) : "</s>";
  return [`T=${uposOf(labels[i]!)}`, `Tn1=${n1}`, `Tn12=${n1}|${n2}`, `Tsuf=${uposOf(labels[i]!)}|${lower[i]!.slice(-3)}`];
}

export interface TenseSentence {
  words: string[];
  /** Joint tagger labels (gold when training). */
  labels: string[];
  /** Gold Tense per word (undefined: none). */
  tenses: (string | undefined)[];
}

/** Trains on the VERB/AUX words of the sentences; undefined when the treebank marks no Tense at all. */
export function trainTense(sents: readonly TenseSentence[], opts: { epochs?: number; seed?: number; suffixLen?: number; minWeight?: number; log?: (m: string) => void } = {}): TenseModel | undefined {
  if (!sents.some((s) => s.tenses.some((t) => t !== undefined))) return undefined;
  const suffixLen = opts.suffixLen ?? 4;
  const p = new AveragedPerceptron([NONE]);
  for (const s of sents) for (const t of s.tenses) if (t !== undefined) p.addLabel(t);
  const items: Array<[number, number]> = [];
  sents.forEach((s, si) => s.labels.forEach((l, i) => VERBAL.has(uposOf(l)) && items.push([si, i])));
  const lowers = sents.map((s) => s.words.map((w) => w.toLowerCase()));
  const rand = rng(opts.seed ?? 1);
  const scores = new Float64Array(p.labels.length);
  for (let ep = 0; ep < (opts.epochs ?? 8); ep++) {
    shuffle(items, rand);
    let correct = 0;
    for (const [si, i] of items) {
      const s = sents[si]!;
      const f = tenseFeatures(s.words, lowers[si]!, s.labels, i, suffixLen);
      p.score(f, scores);
      let best = 0;
      for (let c = 1; c < p.labels.length; c++) if (scores[c]! > scores[best]!) best = c;
      const gold = p.indexOf(s.tenses[i] ?? NONE)!;
      p.update(gold, best, f);
      if (best === gold) correct++;
    }
    opts.log?.(`tense epoch ${ep + 1}: training accuracy ${((100 * correct) / Math.max(1, items.length)).toFixed(2)}% over ${items.length} verbs`);
  }
  return { perceptron: p.export(opts.minWeight ?? 0.05, 2), suffixLen };
}

export class TenseTagger {
  /** Scores the tagger features without strings (needs the joint tagger's labels); else `scorer`. */
  private readonly index: TaggerFeatureIndex | undefined;
  private scorer: PerceptronScorer | undefined;
  private readonly scores: Float64Array;

  /** `tagLabels`: the joint tagger's labels, which tag() receives (scored faster when given). */
  constructor(
    readonly model: TenseModel,
    tagLabels?: readonly string[],
  ) {
    this.index = tagLabels ? new TaggerFeatureIndex(model.perceptron, tagLabels, model.suffixLen) : undefined;
    this.scores = new Float64Array(model.perceptron.labels.length);
  }

  /** Tense of each word tagged VERB or AUX (undefined elsewhere and for "no tense"). */
  tag(words: readonly string[], labels: readonly string[]): (string | undefined)[] {
    const lower = words.map((w) => w.toLowerCase());
    const ix = this.index;
    let sent: IndexedSentence | undefined;
    const tenseLabels = this.model.perceptron.labels;
    return labels.map((l, i) => {
      if (!VERBAL.has(uposOf(l))) return undefined;
      const prev = ix && (i > 0 ? ix.prev(labels[i - 1]!) : ix.bosPrev);
      const prev2 = ix && (i > 1 ? ix.prev(labels[i - 2]!) : ix.bosPrev);
      if (ix && prev !== undefined && prev2 !== undefined) {
        sent ??= ix.sentence(words, lower);
        ix.score(sent, i, prev, prev2, this.scores);
        ix.addOther(extraFeatures(lower, labels, i), this.scores);
      } else {
        // A label the index does not know (or no index): the feature strings.
        this.scorer ??= new PerceptronScorer(this.model.perceptron);
        this.scorer.score(tenseFeatures(words, lower, labels, i, this.model.suffixLen), this.scores);
      }
      let best = 0;
      for (let c = 1; c < tenseLabels.length; c++) if (this.scores[c]! > this.scores[best]!) best = c;
      const t = tenseLabels[best]!;
      return t === NONE ? undefined : t;
    });
  }
}
