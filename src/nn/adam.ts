import * as tf from "@tensorflow/tfjs";

/** Adam with global-norm gradient clipping; its moments and step count are saved in resume checkpoints. */
export class Adam {
  t = 0;
  readonly m = new Map<string, tf.Variable>();
  readonly v = new Map<string, tf.Variable>();
  /** Per-parameter multiplier of the learning rate (absent: 1), e.g. a pretrained encoder trained more slowly than its head. */
  readonly lrScale = new Map<string, number>();
  constructor(
    readonly params: Map<string, tf.Variable>,
    readonly lr: number,
    readonly b1 = 0.9,
    readonly b2 = 0.999,
    readonly eps = 1e-8,
  ) {
    for (const [k, p] of params) {
      this.m.set(k, tf.variable(tf.zerosLike(p), false));
      this.v.set(k, tf.variable(tf.zerosLike(p), false));
    }
  }
  /** One update with gradients clipped to a global norm. */
  apply(grads: Map<string, tf.Tensor>, clip: number): void {
    this.t++;
    const { b1, b2, eps, t } = this;
    tf.tidy(() => {
      const sq = [...grads.values()].map((g) => tf.sum(tf.square(g)));
      // Added one by one, not with addN: WebGPU binds every addN input to one shader, and a model with
      // more parameter tensors than the device's storage-buffer limit (8 by default) gets an invalid
      // pipeline and NaN. Same float32 additions in the same order, so the same result on the CPU.
      const norm = tf.sqrt(sq.reduce((a, b) => tf.add(a, b)));
      const scale = clip > 0 ? tf.div(clip, tf.maximum(norm, clip)) : tf.scalar(1);
      const lrT = (this.lr * Math.sqrt(1 - b2 ** t)) / (1 - b1 ** t);
      for (const [k, p] of this.params) {
        const g0 = grads.get(k);
        if (!g0) continue;
        const g = tf.mul(g0, scale);
        const m = this.m.get(k)!;
        const v = this.v.get(k)!;
        m.assign(tf.add(tf.mul(m, b1), tf.mul(g, 1 - b1)));
        v.assign(tf.add(tf.mul(v, b2), tf.mul(tf.square(g), 1 - b2)));
        p.assign(tf.sub(p, tf.mul(lrT * (this.lrScale.get(k) ?? 1), tf.div(m, tf.add(tf.sqrt(v), eps)))));
      }
    });
  }
  dispose(): void {
    for (const x of [...this.m.values(), ...this.v.values()]) x.dispose();
  }
}
