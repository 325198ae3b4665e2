/**
 * Sparse multi-class averaged perceptron (Collins 2002), shared by the tagger and the coreference ranker.
 *
 * Weights are stored per feature as a flat array [label, w, total, stamp, label, w, ...]: most features
 * only ever touch a handful of labels, so this is far smaller than a dense feature x label matrix.
 * Averaging uses the lazy "total + stamp" trick so an update costs O(changed weights).
 */

export interface PerceptronModel {
  labels: string[];
  /** feature string -> [labelIndex, weight, labelIndex, weight, ...] (averaged, pruned). */
  weights: Record<string, number[]>;
}

export class AveragedPerceptron {
  readonly labels: string[] = [];
  private readonly labelIndex = new Map<string, number>();
  private readonly feats = new Map<string, number[]>();
  private instances = 0;

  constructor(labels: Iterable<string> = []) {
    for (const l of labels) this.addLabel(l);
  }

  addLabel(label: string): number {
    let i = this.labelIndex.get(label);
    if (i === undefined) {
      i = this.labels.length;
      this.labels.push(label);
      this.labelIndex.set(label, i);
    }
    return i;
  }

  label(i: number): string {
    return this.labels[i]!;
  }

  indexOf(label: string): number | undefined {
    return this.labelIndex.get(label);
  }

  /** Adds each feature's current weight for every label into `scores` (length >= labels.length). */
  score(features: readonly string[], scores: Float64Array): void {
    scores.fill(0, 0, this.labels.length);
    for (const f of features) {
      const a = this.feats.get(f);
      if (!a) continue;
      for (let k = 0; k < a.length; k += 4) scores[a[k]!] += a[k + 1]!;
    }
  }

  /** One training instance: move weight from `guess` to `truth` when they differ. */
  update(truth: number, guess: number, features: readonly string[]): void {
    this.instances++;
    if (truth === guess) return;
    for (const f of features) {
      let a = this.feats.get(f);
      if (!a) {
        a = [];
        this.feats.set(f, a);
      }
      this.bump(a, truth, 1);
      this.bump(a, guess, -1);
    }
  }

  /** Counts an instance without an update (used by rankers that call updateVector). */
  tick(): void {
    this.instances++;
  }

  /** Adds `delta` to the weight of (feature, label) for each feature. */
  updateVector(label: number, features: readonly string[], delta: number): void {
    for (const f of features) {
      let a = this.feats.get(f);
      if (!a) {
        a = [];
        this.feats.set(f, a);
      }
      this.bump(a, label, delta);
    }
  }

  private bump(a: number[], label: number, delta: number): void {
    for (let k = 0; k < a.length; k += 4) {
      if (a[k] === label) {
        a[k + 2]! += (this.instances - a[k + 3]!) * a[k + 1]!;
        a[k + 3] = this.instances;
        a[k + 1]! += delta;
        return;
      }
    }
    a.push(label, delta, 0, this.instances);
  }

  /**
   * Averaged weights, dropping those whose magnitude is below `minWeight` and rounding to `decimals`:
   * pruning tiny weights keeps shipped models small at almost no accuracy cost.
   */
  export(minWeight = 0, decimals = 3): PerceptronModel {
    const weights: Record<string, number[]> = {};
    const n = Math.max(1, this.instances);
    const scale = 10 ** decimals;
    for (const [f, a] of this.feats) {
      const out: number[] = [];
      for (let k = 0; k < a.length; k += 4) {
        const total = a[k + 2]! + (this.instances - a[k + 3]!) * a[k + 1]!;
        const avg = total / n;
        if (Math.abs(avg) < minWeight || avg === 0) continue;
        const r = Math.round(avg * scale) / scale;
        if (r !== 0) out.push(a[k]!, r);
      }
      if (out.length) weights[f] = out;
    }
    return { labels: [...this.labels], weights };
  }
}

/** Read-only scorer over an exported model. */
export class PerceptronScorer {
  readonly labels: string[];
  private readonly weights: Map<string, number[]>;

  constructor(model: PerceptronModel) {
    this.labels = model.labels;
    this.weights = new Map(Object.entries(model.weights));
  }

  score(features: readonly string[], scores: Float64Array): void {
    scores.fill(0, 0, this.labels.length);
    for (const f of features) {
      const a = this.weights.get(f);
      if (!a) continue;
      for (let k = 0; k < a.length; k += 2) scores[a[k]!] += a[k + 1]!;
    }
  }

  get featureCount(): number {
    return this.weights.size;
  }
}

/** The package's seeded generator, so training runs are reproducible. */
export { mulberry32 as rng, shuffle } from "../core/prng.js";
