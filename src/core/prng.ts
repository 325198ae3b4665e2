/**
 * Seeded pseudo-random numbers (mulberry32, 32-bit state): the one generator of the package. Training,
 * data splits, probes and bootstraps must give the same result for the same seed, so every random choice
 * goes through an explicit generator (never Math.random), whose state a resume checkpoint can save.
 */

/** The mulberry32 output of an (already advanced) 32-bit state: uniform in [0, 1). */
function output(s: number): number {
  let t = Math.imul(s ^ (s >>> 15), s | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

/** A generator as a function: each call is the next uniform value in [0, 1). */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => output((state = (state + 0x6d2b79f5) >>> 0));
}

/** In-place Fisher-Yates shuffle driven by `rand` (uniform in [0, 1)); returns `xs`. */
export function shuffle<T>(xs: T[], rand: () => number): T[] {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    const t = xs[i]!;
    xs[i] = xs[j]!;
    xs[j] = t;
  }
  return xs;
}

/** A generator as an object whose state can be read back (resume checkpoints) and that draws integers and normals. */
export class Rng {
  constructor(private state: number) {
    this.state = state >>> 0;
  }

  get seedState(): number {
    return this.state;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return output((this.state = (this.state + 0x6d2b79f5) >>> 0));
  }

  /** Integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** Standard normal (Box-Muller). */
  normal(): number {
    const u = 1 - this.next();
    const v = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  shuffle<T>(a: T[]): T[] {
    return shuffle(a, () => this.next());
  }
}
