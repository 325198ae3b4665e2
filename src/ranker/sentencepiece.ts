/**
 * SentencePiece unigram segmentation (Kudo 2018) from a vocabulary of [piece, log-probability]
 * pairs, as shipped with the Universal Sentence Encoder lite (its vocab.json): the text is NFKC
 * normalised, spaces become U+2581 and a U+2581 is put in front; the segmentation is the one of
 * highest total score (Viterbi). A character no piece starts with becomes the unknown piece (id 0,
 * score 0), and runs of unknown pieces are merged, as the reference tokenizer of the model does.
 */
export const SPACE_MARK = "\u2581";

interface Node {
  next: Map<string, Node>;
  /** Piece id ending here, or -1. */
  id: number;
}

export class UnigramTokenizer {
  private readonly root: Node = { next: new Map(), id: -1 };
  private readonly scores: Float64Array;
  readonly size: number;

  /**
   * @param vocab [piece, score] per id; the first `reserved` ids (unknown, <s>, </s>, ...) are never produced by
   *              matching (id 0 is the unknown piece).
   */
  constructor(
    vocab: ReadonlyArray<readonly [string, number]>,
    readonly reserved = 6,
  ) {
    this.size = vocab.length;
    this.scores = new Float64Array(vocab.length);
    vocab.forEach(([piece, score], id) => {
      this.scores[id] = score;
      if (id < reserved || !piece) return;
      let n = this.root;
      for (const ch of piece) {
        let c = n.next.get(ch);
        if (!c) n.next.set(ch, (c = { next: new Map(), id: -1 }));
        n = c;
      }
      n.id = id;
    });
  }

  /** Piece ids of a text (word or sentence). */
  encode(text: string): number[] {
    const norm = text.normalize("NFKC");
    if (!norm) return [];
    const chars = [...(SPACE_MARK + norm.replace(/ /g, SPACE_MARK))];
    const n = chars.length;
    const best = new Float64Array(n + 1).fill(-Infinity);
    const from = new Int32Array(n + 1).fill(-1);
    const piece = new Int32Array(n + 1).fill(-1);
    best[0] = 0;
    for (let i = 0; i < n; i++) {
      if (best[i] === -Infinity) continue;
      let node: Node | undefined = this.root;
      let matched = false;
      for (let j = i; j < n && node; j++) {
        node = node.next.get(chars[j]!);
        if (!node) break;
        if (node.id >= 0) {
          matched = true;
          const s = best[i]! + this.scores[node.id]!;
          // Ties keep the later start (a longer last piece), as the reference implementation does.
          if (s >= best[j + 1]!) {
            best[j + 1] = s;
            from[j + 1] = i;
            piece[j + 1] = node.id;
          }
        }
      }
      if (!matched && best[i]! >= best[i + 1]!) {
        best[i + 1] = best[i]!;
        from[i + 1] = i;
        piece[i + 1] = 0;
      }
    }
    const ids: number[] = [];
    for (let e = n; e > 0; e = from[e]!) ids.push(piece[e]!);
    ids.reverse();
    return ids.filter((id, k) => !(id === 0 && k > 0 && ids[k - 1] === 0));
  }

  /** The pieces of a text as strings (unknown pieces as "<unk>"), for logs and tests. */
  pieces(text: string, vocab: ReadonlyArray<readonly [string, number]>): string[] {
    return this.encode(text).map((id) => (id === 0 ? "<unk>" : vocab[id]![0]));
  }
}
