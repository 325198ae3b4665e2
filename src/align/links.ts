/** One alignment link: [source index, target index], both 0-based. */
export type Link = [number, number];

/**
 * Alignments of a whole corpus in two flat arrays: sentence k's links are pairs
 * (pairs[2l], pairs[2l+1]) = (src, tgt) for l in [offsets[k], offsets[k+1]).
 * 4 bytes per link, so 400k sentence pairs with ~25 links each take about 40 MB.
 */
export class Links {
  constructor(
    readonly offsets: Uint32Array,
    readonly pairs: Uint16Array,
  ) {}

  /** Number of sentence pairs. */
  get count(): number {
    return this.offsets.length - 1;
  }

  /** Number of links of sentence k. */
  size(k: number): number {
    this.check(k);
    return this.offsets[k + 1]! - this.offsets[k]!;
  }

  /**
   * Links of sentence k as [src, tgt] pairs, in fast_align's output order: one direction lists
   * them by predicted position, symmetrised alignments by source then target index (like atools).
   */
  get(k: number): Link[] {
    this.check(k);
    const out: Link[] = [];
    for (let l = this.offsets[k]!; l < this.offsets[k + 1]!; l++) out.push([this.pairs[2 * l]!, this.pairs[2 * l + 1]!]);
    return out;
  }

  /** Pharaoh line of sentence k ("0-0 1-2 ..."). */
  pharaoh(k: number): string {
    this.check(k);
    let s = "";
    for (let l = this.offsets[k]!; l < this.offsets[k + 1]!; l++) {
      if (s) s += " ";
      s += `${this.pairs[2 * l]}-${this.pairs[2 * l + 1]}`;
    }
    return s;
  }

  private check(k: number): void {
    if (!Number.isInteger(k) || k < 0 || k >= this.count) throw new RangeError(`sentence index ${k} outside 0..${this.count - 1}`);
  }
}

/** Appends links sentence by sentence, keeping the order they are added in. */
export class LinksBuilder {
  private offsets: Uint32Array;
  private pairs: Uint16Array;
  private n = 0;
  private nLinks = 0;

  constructor(expectedSentences = 1024) {
    this.offsets = new Uint32Array(Math.max(2, expectedSentences + 1));
    this.pairs = new Uint16Array(Math.max(16, expectedSentences * 40));
  }

  add(src: number, tgt: number): void {
    if (2 * this.nLinks + 2 > this.pairs.length) {
      const next = new Uint16Array(this.pairs.length * 2);
      next.set(this.pairs);
      this.pairs = next;
    }
    this.pairs[2 * this.nLinks] = src;
    this.pairs[2 * this.nLinks + 1] = tgt;
    this.nLinks++;
  }

  endSentence(): void {
    if (this.n + 2 > this.offsets.length) {
      const next = new Uint32Array(this.offsets.length * 2);
      next.set(this.offsets);
      this.offsets = next;
    }
    this.n++;
    this.offsets[this.n] = this.nLinks;
  }

  finish(): Links {
    return new Links(this.offsets.slice(0, this.n + 1), this.pairs.slice(0, 2 * this.nLinks));
  }
}

/** Links from arrays of pairs (one array per sentence). */
export function linksFromArrays(sentences: readonly (readonly Link[])[]): Links {
  const b = new LinksBuilder(sentences.length);
  for (const s of sentences) {
    for (const [i, j] of s) b.add(i, j);
    b.endSentence();
  }
  return b.finish();
}

/** Links of an original corpus from those of its deduplicated version (index[k] = unique pair of k). */
export function expandLinks(l: Links, index: Int32Array): Links {
  let total = 0;
  for (let k = 0; k < index.length; k++) total += l.offsets[index[k]! + 1]! - l.offsets[index[k]!]!;
  const offsets = new Uint32Array(index.length + 1);
  const pairs = new Uint16Array(2 * total);
  let q = 0;
  for (let k = 0; k < index.length; k++) {
    const u = index[k]!;
    const from = 2 * l.offsets[u]!;
    const to = 2 * l.offsets[u + 1]!;
    pairs.set(l.pairs.subarray(from, to), q);
    q += to - from;
    offsets[k + 1] = q / 2;
  }
  return new Links(offsets, pairs);
}

/** The sentences of several Links one after the other (e.g. per-thread ranges of one corpus). */
export function concatLinks(parts: readonly Links[]): Links {
  let sentences = 0;
  let links = 0;
  for (const p of parts) {
    sentences += p.count;
    links += p.offsets[p.count]!;
  }
  const offsets = new Uint32Array(sentences + 1);
  const pairs = new Uint16Array(2 * links);
  let k = 0;
  let base = 0;
  for (const p of parts) {
    for (let q = 0; q < p.count; q++) offsets[k + q + 1] = base + p.offsets[q + 1]!;
    pairs.set(p.pairs.subarray(0, 2 * p.offsets[p.count]!), 2 * base);
    k += p.count;
    base += p.offsets[p.count]!;
  }
  return new Links(offsets, pairs);
}
