/**
 * P-CXMI next to the MuDA tags (`muda tag --cxmi FILE --threshold T`): every tagged reference token
 * gets the P-CXMI of the model word(s) it stands for, tokens above the threshold get the tag
 * `high_pcxmi`, and the comparison the paper draws in Sec. 4.3 and Tables 2 and 8: the mean P-CXMI
 * of the tokens with each MuDA tag, and which MuDA tags the high-P-CXMI tokens fall in.
 */
import { InputError } from "../io/errors.js";
import { readText } from "../io/lines.js";
import { markSpan } from "./cxmi.js";
import type { TaggedSegment, TaggedSide } from "./pipeline.js";

export const CXMI_TAG = "high_pcxmi";

/** The part of a `muda cxmi --format json` report this needs: each segment's text and its words' P-CXMI. */
export interface CxmiWordsFile {
  path: string;
  signature?: string;
  segments: Array<{ text: string; words: Array<{ text: string; start: number; end: number; pcxmi: number }> }>;
}

/** Reads and checks a `muda cxmi` JSON report. */
export function readCxmiReport(path: string): CxmiWordsFile {
  let raw: unknown;
  try {
    raw = JSON.parse(readText(path));
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw new InputError(`not JSON (${(e as Error).message}); give the report of 'muda cxmi --format json'`, path);
  }
  const r = raw as { segments?: unknown; signature?: unknown };
  if (!r || typeof r !== "object" || !Array.isArray(r.segments)) throw new InputError("has no \"segments\": give the report of 'muda cxmi --format json'", path);
  const segments = r.segments.map((s: unknown, k: number) => {
    const seg = s as { text?: unknown; words?: unknown };
    const bad = (what: string) => new InputError(`segment ${k + 1}: ${what}`, path);
    if (!seg || typeof seg.text !== "string" || !Array.isArray(seg.words)) throw bad('expected {"text": ..., "words": [...]}');
    const text = seg.text;
    const words = seg.words.map((w: unknown, i: number) => {
      const x = w as { text?: unknown; start?: unknown; end?: unknown; pcxmi?: unknown };
      if (!x || typeof x.text !== "string" || !Number.isInteger(x.start) || !Number.isInteger(x.end) || typeof x.pcxmi !== "number" || !Number.isFinite(x.pcxmi)) {
        throw bad(`word ${i + 1}: expected {"text", "start", "end", "pcxmi"}`);
      }
      const start = x.start as number;
      const end = x.end as number;
      if (start < 0 || end < start || end > text.length) throw bad(`word ${i + 1}: span ${start}-${end} is outside the segment's text`);
      return { text: x.text, start, end, pcxmi: x.pcxmi };
    });
    return { text, words };
  });
  return { path, ...(typeof r.signature === "string" ? { signature: r.signature } : {}), segments };
}

const isWs = (c: string) => /\s/.test(c);
const PUNCT = /^[\p{P}\p{S}]+$/u;

/**
 * Pairs of equal elements of `a` and `b` in order (a longest common subsequence, Myers' O((N+M)D)
 * diff), or null when more than `maxD` insertions and deletions separate them.
 */
export function matchPairs(a: readonly string[], b: readonly string[], maxD: number): Array<[number, number]> | null {
  const N = a.length;
  const M = b.length;
  const off = N + M + 1;
  const v = new Int32Array(2 * off + 1);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= Math.min(maxD, N + M); d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[off + k - 1]! < v[off + k + 1]!) ? v[off + k + 1]! : v[off + k - 1]! + 1;
      let y = x - k;
      while (x < N && y < M && a[x] === b[y]) {
        x++;
        y++;
      }
      v[off + k] = x;
      if (x >= N && y >= M) {
        // Back through the trace: each step's snake is a run of pairs.
        const pairs: Array<[number, number]> = [];
        let cx = N;
        let cy = M;
        for (let e = d; e > 0; e--) {
          const pv = trace[e]!;
          const kk = cx - cy;
          const pk = kk === -e || (kk !== e && pv[off + kk - 1]! < pv[off + kk + 1]!) ? kk + 1 : kk - 1;
          const px = pv[off + pk]!;
          const py = px - pk;
          const sx = pk === kk + 1 ? px : px + 1; // where this step's snake starts
          while (cx > sx && cy > sx - kk) pairs.push([--cx, --cy]);
          cx = px;
          cy = py;
        }
        while (cx > 0 && cy > 0) pairs.push([--cx, --cy]);
        return pairs.reverse();
      }
    }
  }
  return null;
}

const UNK = "<unk>";

/**
 * Maps character positions of `from` to positions of `to`, two spellings of the same text that may
 * differ in whitespace (tokenised vs. detokenised), in `<unk>` tokens and a little in characters
 * (normalisation): non-space characters are aligned (matchPairs), an unmatched one goes to the
 * character after the last match. Null when more than a fifth of them differ.
 */
export function charMap(from: string, to: string): ((i: number) => number) | null {
  // Non-space characters of `from` (an <unk> counts as one that matches nothing), with the rank of every position.
  const fc: string[] = [];
  const rank = new Int32Array(from.length + 1);
  for (let i = 0; i < from.length; ) {
    if (from.startsWith(UNK, i)) {
      rank.fill(fc.length, i, i + UNK.length);
      fc.push("\uFFFD");
      i += UNK.length;
      continue;
    }
    rank[i] = fc.length;
    if (!isWs(from[i]!)) fc.push(from[i]!);
    i++;
  }
  rank[from.length] = fc.length;
  const tp: number[] = [];
  const tc: string[] = [];
  for (let i = 0; i < to.length; i++) {
    if (isWs(to[i]!)) continue;
    tp.push(i);
    tc.push(to[i]!);
  }
  const F = fc.length;
  const T = tc.length;
  const pairs = matchPairs(fc, tc, Math.ceil(0.2 * Math.max(F, T)) + 2);
  if (!pairs) return null;
  const target = new Int32Array(F + 1).fill(-1);
  for (const [x, y] of pairs) target[x] = y;
  for (let x = 0, last = -1; x < F; x++) {
    if (target[x]! >= 0) last = target[x]!;
    else target[x] = Math.min(last + 1, T - 1);
  }
  return (i: number) => {
    const k = rank[Math.max(0, Math.min(i, from.length))]!;
    if (k >= F || T === 0) return to.length;
    return tp[Math.max(0, target[k]!)]!;
  };
}

/**
 * The P-CXMI of each tagged token: each model word's value goes to the token that overlaps it most
 * (a word-like one before punctuation: "Haus," counts for "Haus"), and a token standing for several
 * model words gets their sum; tokens no word lands on get null.
 */
export function tokenValues(refText: string, spans: ReadonlyArray<readonly [number, number]>, tokens: readonly string[], cx: CxmiWordsFile["segments"][number]): Array<number | null> | null {
  const map = charMap(cx.text, refText);
  if (!map) return null;
  const out: Array<number | null> = tokens.map(() => null);
  for (const w of cx.words) {
    // The word's first and last non-space characters, mapped to the reference.
    let a = w.start;
    let b = w.end - 1;
    while (a <= b && isWs(cx.text[a]!)) a++;
    while (b >= a && isWs(cx.text[b]!)) b--;
    if (a > b) continue;
    const ra = map(a);
    const rb = map(b) + 1;
    let best = -1;
    let bestScore = 0;
    spans.forEach(([s, e], j) => {
      const overlap = Math.min(rb, e) - Math.max(ra, s);
      if (overlap <= 0) return;
      const score = overlap + (PUNCT.test(tokens[j]!) ? 0 : 1e6);
      if (score > bestScore) {
        best = j;
        bestScore = score;
      }
    });
    if (best >= 0) out[best] = (out[best] ?? 0) + w.pcxmi;
  }
  return out;
}

export interface LabelPcxmi {
  label: string;
  /** Tokens with this label that got a P-CXMI value. */
  tokens: number;
  mean: number;
  /** Of them, above the threshold. */
  above: number;
}

export interface CxmiExample {
  /** The MuDA tag (or no_tag) it is an example of. */
  label: string;
  doc: string;
  segment: number;
  token: string;
  pcxmi: number;
  tags: string[];
  sentence: string;
  context: string;
}

export interface CxmiTagComparison {
  file: string;
  threshold: number;
  /** Mean P-CXMI per MuDA tag, tokens with any tag, without a tag, and all (the paper's Table 8, lower part). */
  byTag: LabelPcxmi[];
  /** The high-P-CXMI tokens: how many, and how many carry each MuDA tag (a token with two tags counts in both). */
  high: { tokens: number; byTag: Array<{ label: string; tokens: number; share: number }> };
  /** The highest tokens of each label, with their sentence and the previous one (Table 2 style). */
  examples: CxmiExample[];
}

/** Before tagging: the report has as many segments as the side, each spelling its segment (fails fast). */
export function checkCxmiSegments(cx: CxmiWordsFile, texts: ReadonlyArray<readonly string[]>, docIds: readonly string[]): void {
  const total = texts.reduce((a, d) => a + d.length, 0);
  if (cx.segments.length !== total) throw new InputError(`has ${cx.segments.length} segments, but the side to tag has ${total}`, cx.path);
  let k = 0;
  texts.forEach((d, di) =>
    d.forEach((text, si) => {
      const seg = cx.segments[k++]!;
      if (!charMap(seg.text, text)) throw mismatch(cx.path, k, seg.text, si, docIds[di]!, text);
    }),
  );
}

const clip = (s: string, n = 80) => (s.length > n ? s.slice(0, n - 3) + "..." : s);
function mismatch(path: string, k: number, cxText: string, si: number, doc: string, text: string): InputError {
  return new InputError(`segment ${k}: its words spell '${clip(cxText)}', which is not segment ${si + 1} of document ${doc} ('${clip(text)}'); the report must cover the same segments in the same order`, path);
}

export type CxmiTaggedSegment = Omit<TaggedSegment, "tags"> & { tags: string[][]; pcxmi: Array<number | null> };

/**
 * Adds P-CXMI to a tagged side: per token values, the `high_pcxmi` tag above `threshold`, and the
 * comparison with the MuDA tags. `texts` are the side's segments as tagged (per document), whose
 * `spans` the tagger kept; the report's segments must be the same segments in the same order.
 */
export function applyCxmi(
  side: TaggedSide,
  texts: ReadonlyArray<readonly string[]>,
  cx: CxmiWordsFile,
  threshold: number,
  labels: readonly string[],
  examplesPerLabel = 3,
): { docs: Array<{ id: string; segments: CxmiTaggedSegment[] }>; comparison: CxmiTagComparison } {
  const total = side.docs.reduce((a, d) => a + d.segments.length, 0);
  if (cx.segments.length !== total) throw new InputError(`has ${cx.segments.length} segments, but the tagged side ${side.name} has ${total}`, cx.path);
  const stats = new Map<string, { n: number; sum: number; above: number }>();
  const add = (label: string, v: number) => {
    const s = stats.get(label) ?? { n: 0, sum: 0, above: 0 };
    s.n++;
    s.sum += v;
    if (v > threshold) s.above++;
    stats.set(label, s);
  };
  const highBy = new Map<string, number>();
  let high = 0;
  const cands: Array<CxmiExample & { order: number }> = [];
  let k = 0;
  const docs = side.docs.map((d, di) => ({
    id: d.id,
    segments: d.segments.map((seg, si): CxmiTaggedSegment => {
      const cxSeg = cx.segments[k++]!;
      const text = texts[di]![si]!;
      if (!seg.spans) throw new Error("applyCxmi needs the tagger's token spans (tagSides keepSpans)");
      const values = tokenValues(text, seg.spans, seg.tokens, cxSeg);
      if (!values) {
        throw mismatch(cx.path, k, cxSeg.text, si, d.id, text);
      }
      const tags = seg.tags.map((t, j) => {
        const v = values[j];
        const out: string[] = [...t];
        if (v === null || v === undefined) return out;
        const muda = t.filter((x) => labels.includes(x));
        for (const l of muda) add(l, v);
        add(muda.length ? "with_tag" : "no_tag", v);
        add("all", v);
        if (v > threshold) {
          out.push(CXMI_TAG);
          high++;
          for (const l of muda.length ? muda : ["no_tag"]) highBy.set(l, (highBy.get(l) ?? 0) + 1);
        }
        for (const l of muda.length ? muda : ["no_tag"]) {
          cands.push({
            label: l,
            order: cands.length,
            doc: d.id,
            segment: si + 1,
            token: seg.tokens[j]!,
            pcxmi: v,
            tags: t,
            sentence: markSpan(text, seg.spans![j]![0], seg.spans![j]![1]),
            context: si > 0 ? texts[di]![si - 1]! : "",
          });
        }
        return out;
      });
      return { ...seg, tags, pcxmi: values };
    }),
  }));
  const order = [...labels, "with_tag", "no_tag", "all"];
  const byTag = order.map((label) => {
    const s = stats.get(label) ?? { n: 0, sum: 0, above: 0 };
    return { label, tokens: s.n, mean: s.n ? s.sum / s.n : 0, above: s.above };
  });
  const examples: CxmiExample[] = [];
  for (const label of [...labels, "no_tag"]) {
    const top = cands.filter((c) => c.label === label).sort((a, b) => b.pcxmi - a.pcxmi || a.order - b.order);
    for (const { order: _o, ...e } of top.slice(0, examplesPerLabel)) examples.push(e);
  }
  const comparison: CxmiTagComparison = {
    file: cx.path,
    threshold,
    byTag,
    high: { tokens: high, byTag: [...labels, "no_tag"].map((label) => ({ label, tokens: highBy.get(label) ?? 0, share: high ? (highBy.get(label) ?? 0) / high : 0 })) },
    examples,
  };
  return { docs, comparison };
}
