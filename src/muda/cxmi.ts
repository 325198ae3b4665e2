/**
 * P-CXMI (Fernandes et al. 2023, Sec. 2.2): how much more likely a model finds each reference word
 * when it sees the context, log q(y_i | y_<i, x, C) - log q(y_i | y_<i, x), from two scoring runs of
 * the same reference by the same model, with and without context; and the paper's Sec. 3 analyses
 * of it: mean P-CXMI per part of speech, vocabulary items with the highest mean, the individual
 * words with the highest value, and CXMI (Sec. 2.1), the corpus-level measure of context use.
 * All values are in nats.
 */
import type { AnnToken, MorphAnnotator } from "../annotate/types.js";
import { InputError } from "../io/errors.js";
import type { TableBlock } from "../io/table.js";
import { EOS_TOKEN, type ScoredRun, type ScoredSegment } from "./cxmi-formats.js";

/** How subword tokens make words: SentencePiece (`▁` starts a word), BPE (`@@` ends a non-final piece), or tokens are words. */
export type SubwordScheme = "sp" | "bpe" | "none";
export const SUBWORD_SCHEMES: readonly SubwordScheme[] = ["sp", "bpe", "none"];
const SP = "\u2581";

export interface CxmiWord {
  /** The word as the subwords spell it (`▁`/`@@` removed). */
  text: string;
  /** Character span in the segment's text. */
  start: number;
  end: number;
  /** Token span [first, last + 1). */
  tokens: [number, number];
  /** Sum of the word's token log-probabilities without and with context, and their difference. */
  without: number;
  with: number;
  pcxmi: number;
  /** From the target-language tagger: UPOS and features of the word's main token. */
  upos?: string;
  feats?: Record<string, string>;
  /** The vocabulary item: the word without punctuation attached (the tagger's main token, where there is one). */
  item?: string;
}

export interface CxmiSegment {
  /** 1-based position in the input. */
  index: number;
  id?: string;
  doc?: string;
  source?: string;
  /** The reference as the tokens spell it (subwords joined, words separated by one space). */
  text: string;
  tokens: string[];
  without: number[];
  with: number[];
  /** The last token is the end of sentence (scored, part of no word). */
  eos: boolean;
  words: CxmiWord[];
  /** Sentence P-CXMI: log q(y | x, C) - log q(y | x), every token (end of sentence included). */
  pcxmi: number;
}

/** Words of one segment's tokens. Token spans index `tokens`; the end-of-sentence token is in no word. */
export function joinSubwords(tokens: readonly string[], scheme: SubwordScheme): { text: string; words: Array<Pick<CxmiWord, "text" | "start" | "end" | "tokens">>; eos: boolean } {
  const eos = tokens.length > 0 && tokens[tokens.length - 1] === EOS_TOKEN;
  const n = eos ? tokens.length - 1 : tokens.length;
  const spans: Array<[number, number, string]> = [];
  if (scheme === "sp") {
    // A piece starting with ▁ starts a word; a bare ▁ piece starts a word that its next pieces spell.
    for (let i = 0; i < n; i++) {
      const t = tokens[i]!;
      const piece = t.split(SP).join("");
      const last = spans[spans.length - 1];
      if (t.startsWith(SP) || !last) {
        if (last && last[2] === "") {
          last[1] = i + 1;
          last[2] = piece;
        } else spans.push([i, i + 1, piece]);
      } else {
        last[1] = i + 1;
        last[2] += piece;
      }
    }
  } else if (scheme === "bpe") {
    let open = false;
    for (let i = 0; i < n; i++) {
      const t = tokens[i]!;
      const cont = t.endsWith("@@");
      const piece = cont ? t.slice(0, -2) : t;
      const last = spans[spans.length - 1];
      if (open && last) {
        last[1] = i + 1;
        last[2] += piece;
      } else spans.push([i, i + 1, piece]);
      open = cont;
    }
  } else {
    for (let i = 0; i < n; i++) spans.push([i, i + 1, tokens[i]!]);
  }
  let text = "";
  const words: Array<Pick<CxmiWord, "text" | "start" | "end" | "tokens">> = [];
  for (const [a, b, raw] of spans) {
    const w = scheme === "sp" ? raw : unescapeMoses(raw);
    if (w === "") continue; // a piece of nothing but ▁ at the end: no word to speak of
    if (text) text += " ";
    words.push({ text: w, start: text.length, end: text.length + w.length, tokens: [a, b] });
    text += w;
  }
  // Tokens in no word (a trailing bare ▁): attach to the last word so every score is counted once.
  if (words.length && words[words.length - 1]!.tokens[1] < n) words[words.length - 1]!.tokens[1] = n;
  return { text, words, eos };
}

const MOSES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&apos;": "'", "&quot;": '"', "&#124;": "|", "&#91;": "[", "&#93;": "]" };
/** Moses tokenizer escapes (BPE pipelines usually keep them) back to characters. */
export function unescapeMoses(s: string): string {
  return s.includes("&") ? s.replace(/&(amp|lt|gt|apos|quot|#124|#91|#93);/g, (m) => MOSES[m]!) : s;
}

/** `sp` when any token holds ▁, else `bpe` when any ends in @@, else `none`. */
export function detectSubwordScheme(segments: ReadonlyArray<{ tokens: readonly string[] }>): SubwordScheme {
  let bpe = false;
  for (const s of segments) {
    for (const t of s.tokens) {
      if (t.includes(SP)) return "sp";
      if (t.endsWith("@@")) bpe = true;
    }
  }
  return bpe ? "bpe" : "none";
}

const where = (run: ScoredRun, s: ScoredSegment) => `${run.path}:${s.line}`;
const segName = (s: ScoredSegment, k: number) => `segment ${k + 1}${s.id !== undefined ? ` (id ${s.id})` : ""}`;

/**
 * Pairs the run without context and the run with context segment by segment. They must hold the
 * same reference tokens (the same model's segmentation of the same reference), and the same ids
 * and documents where the files give them: else an error naming both files and the segment.
 */
export function pairRuns(without: ScoredRun, withCtx: ScoredRun, scheme: SubwordScheme): CxmiSegment[] {
  const a = without.segments;
  const b = withCtx.segments;
  if (a.length !== b.length) throw new InputError(`has ${b.length} segments, but ${without.path} (without context) has ${a.length}`, withCtx.path);
  return a.map((sa, k) => {
    const sb = b[k]!;
    if (sa.id !== undefined && sb.id !== undefined && sa.id !== sb.id) {
      throw new InputError(`${segName(sb, k)}: id '${sb.id}', but ${where(without, sa)} has id '${sa.id}' at this position`, withCtx.path, sb.line);
    }
    if (sa.doc !== undefined && sb.doc !== undefined && sa.doc !== sb.doc) {
      throw new InputError(`${segName(sb, k)}: document '${sb.doc}', but ${where(without, sa)} has '${sa.doc}'`, withCtx.path, sb.line);
    }
    const n = Math.max(sa.tokens.length, sb.tokens.length);
    for (let i = 0; i < n; i++) {
      if (sa.tokens[i] !== sb.tokens[i]) {
        const show = (t: string | undefined) => (t === undefined ? "(none)" : `'${t}'`);
        throw new InputError(
          `${segName(sb, k)}: the tokens differ from ${where(without, sa)} at token ${i + 1}: ${show(sb.tokens[i])} here, ${show(sa.tokens[i])} there ` +
            `(${sb.tokens.length} vs ${sa.tokens.length} tokens); both runs must score the same reference tokens`,
          withCtx.path,
          sb.line,
        );
      }
    }
    const { text, words, eos } = joinSubwords(sa.tokens, scheme);
    const sum = (xs: number[], i: number, j: number) => {
      let s = 0;
      for (let t = i; t < j; t++) s += xs[t]!;
      return s;
    };
    const cw: CxmiWord[] = words.map((w) => {
      const wo = sum(sa.logprobs, w.tokens[0], w.tokens[1]);
      const wi = sum(sb.logprobs, w.tokens[0], w.tokens[1]);
      return { ...w, without: wo, with: wi, pcxmi: wi - wo };
    });
    const total = sum(sb.logprobs, 0, sb.logprobs.length) - sum(sa.logprobs, 0, sa.logprobs.length);
    const doc = sa.doc ?? sb.doc;
    const source = sa.source ?? sb.source;
    return {
      index: k + 1,
      ...(sa.id !== undefined ? { id: sa.id } : {}),
      ...(doc !== undefined ? { doc } : {}),
      ...(source !== undefined ? { source } : {}),
      text,
      tokens: sa.tokens,
      without: sa.logprobs,
      with: sb.logprobs,
      eos,
      words: cw,
      pcxmi: total,
    };
  });
}

const PUNCT_EDGES = /^[\p{P}\p{S}]+|[\p{P}\p{S}]+$/gu;

/**
 * Tags each segment's text with the target language's tagger and gives every word the UPOS and
 * features of its main token: of the tagger's tokens overlapping the word, the one overlapping most,
 * a word-like one before punctuation ("Haus," is a NOUN). The vocabulary item is that token's text.
 */
export function tagWords(segments: CxmiSegment[], annotator: MorphAnnotator): void {
  for (const seg of segments) {
    const toks = annotator.annotate(seg.text).tokens;
    const spans = tokenSpans(seg.text, toks);
    let from = 0;
    for (const w of seg.words) {
      let best = -1;
      let bestScore = -1;
      while (from < toks.length && spans[from]![1] <= w.start) from++;
      for (let j = from; j < toks.length && spans[j]![0] < w.end; j++) {
        const overlap = Math.min(w.end, spans[j]![1]) - Math.max(w.start, spans[j]![0]);
        if (overlap <= 0) continue;
        const score = overlap + (toks[j]!.upos === "PUNCT" ? 0 : 1e6);
        if (score > bestScore) {
          best = j;
          bestScore = score;
        }
      }
      if (best >= 0) {
        const t = toks[best]!;
        w.upos = t.upos;
        w.feats = t.feats;
        // The surface form ("zum", not the syntactic word "zu" the tagger splits it into).
        w.item = t.upos === "PUNCT" ? w.text : seg.text.slice(spans[best]![0], spans[best]![1]) || t.text;
      } else w.item = plainItem(w.text);
    }
  }
}

/** A word without the punctuation glued to it, where it has more than punctuation. */
export function plainItem(word: string): string {
  const core = word.replace(PUNCT_EDGES, "");
  return core === "" ? word : core;
}

/** Character spans of tagger tokens: their offsets where given, else found left to right in the text. */
function tokenSpans(text: string, toks: readonly AnnToken[]): Array<[number, number]> {
  let at = 0;
  return toks.map((t) => {
    if (t.start !== undefined && t.end !== undefined) {
      at = t.end;
      return [t.start, t.end];
    }
    const i = text.indexOf(t.text, at);
    const s = i >= 0 ? i : at;
    at = s + t.text.length;
    return [s, at];
  });
}

/** The part-of-speech groups a word counts in, as in the paper's Table 8: UPOS, and PRON by person and number, VERB by tense. */
export function posGroups(upos: string, feats: Record<string, string> = {}): string[] {
  const out = [upos];
  if (upos === "PRON") {
    const p = feats.Person;
    const n = feats.Number;
    if (p) out.push(`PRON.${p}`);
    if (p && n) out.push(`PRON.${p}.${n}`);
    if (!p && n) out.push(`PRON.${n}`);
  }
  if (upos === "VERB" && feats.Tense) out.push(`VERB.${feats.Tense}`);
  return out;
}

export interface CxmiSummary {
  segments: number;
  tokens: number;
  words: number;
  /**
   * CXMI as the paper's code computes it: per sentence, the mean per-token log-probability with
   * context minus without (the fairseq sentence score, end of sentence included), averaged over sentences.
   */
  cxmi: number;
  /** The Sec. 2.1 estimate without length normalisation: mean over sentences of the sentence P-CXMI. */
  cxmiPerSentence: number;
  /** Mean P-CXMI over all tokens (end of sentence included). */
  tokenPcxmi: number;
  /** Mean P-CXMI over all words (a word: the sum over its subword tokens). */
  wordPcxmi: number;
  /** Share of words whose P-CXMI is above 0 (context made them more likely). */
  wordsUp: number;
}

export function summarize(segments: readonly CxmiSegment[]): CxmiSummary {
  let tokens = 0;
  let tokSum = 0;
  let normSum = 0;
  let sentSum = 0;
  let words = 0;
  let wordSum = 0;
  let up = 0;
  for (const s of segments) {
    tokens += s.tokens.length;
    tokSum += s.pcxmi;
    sentSum += s.pcxmi;
    normSum += s.tokens.length ? s.pcxmi / s.tokens.length : 0;
    for (const w of s.words) {
      words++;
      wordSum += w.pcxmi;
      if (w.pcxmi > 0) up++;
    }
  }
  const n = segments.length;
  return {
    segments: n,
    tokens,
    words,
    cxmi: n ? normSum / n : 0,
    cxmiPerSentence: n ? sentSum / n : 0,
    tokenPcxmi: tokens ? tokSum / tokens : 0,
    wordPcxmi: words ? wordSum / words : 0,
    wordsUp: words ? up / words : 0,
  };
}

export interface GroupMean {
  key: string;
  count: number;
  mean: number;
}

function means(groups: Map<string, { n: number; sum: number }>): GroupMean[] {
  return [...groups].map(([key, g]) => ({ key, count: g.n, mean: g.sum / g.n }));
}

/** Highest mean first; ties by key (reproducible order). */
const byMean = (a: GroupMean, b: GroupMean) => b.mean - a.mean || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

/** Mean word P-CXMI per part-of-speech group (words the tagger tagged), highest first. */
export function posMeans(segments: readonly CxmiSegment[]): GroupMean[] {
  const g = new Map<string, { n: number; sum: number }>();
  for (const s of segments) {
    for (const w of s.words) {
      if (!w.upos) continue;
      for (const k of posGroups(w.upos, w.feats)) {
        const e = g.get(k) ?? { n: 0, sum: 0 };
        e.n++;
        e.sum += w.pcxmi;
        g.set(k, e);
      }
    }
  }
  return means(g).sort(byMean);
}

/** Vocabulary items (case kept: German "Sie" is not "sie") seen at least `minCount` times, by mean P-CXMI, highest first. */
export function vocabularyMeans(segments: readonly CxmiSegment[], minCount: number): GroupMean[] {
  const g = new Map<string, { n: number; sum: number }>();
  for (const s of segments) {
    for (const w of s.words) {
      const k = w.item ?? plainItem(w.text);
      const e = g.get(k) ?? { n: 0, sum: 0 };
      e.n++;
      e.sum += w.pcxmi;
      g.set(k, e);
    }
  }
  return means(g)
    .filter((x) => x.count >= minCount)
    .sort(byMean);
}

export interface TopWord {
  segment: number;
  id?: string;
  doc?: string;
  word: string;
  /** Index of the word in its segment. */
  position: number;
  pcxmi: number;
  without: number;
  with: number;
  upos?: string;
  /** The segment with the word marked [[like this]]. */
  sentence: string;
  /** The previous target segments of the document (what the model saw as context). */
  context: string;
  source?: string;
}

/** Marks a span of a text [[like this]]. */
export function markSpan(text: string, start: number, end: number): string {
  return `${text.slice(0, start)}[[${text.slice(start, end)}]]${text.slice(end)}`;
}

/** The `n` words with the highest P-CXMI in the corpus (ties: earlier first). */
export function topWords(segments: readonly CxmiSegment[], contexts: readonly string[], n: number): TopWord[] {
  const all: Array<{ s: CxmiSegment; w: CxmiWord; i: number }> = [];
  for (const s of segments) s.words.forEach((w, i) => all.push({ s, w, i }));
  all.sort((a, b) => b.w.pcxmi - a.w.pcxmi || a.s.index - b.s.index || a.i - b.i);
  return all.slice(0, n).map(({ s, w, i }) => ({
    segment: s.index,
    ...(s.id !== undefined ? { id: s.id } : {}),
    ...(s.doc !== undefined ? { doc: s.doc } : {}),
    word: w.text,
    position: i,
    pcxmi: w.pcxmi,
    without: w.without,
    with: w.with,
    ...(w.upos ? { upos: w.upos } : {}),
    sentence: markSpan(s.text, w.start, w.end),
    context: contexts[s.index - 1] ?? "",
    ...(s.source !== undefined ? { source: s.source } : {}),
  }));
}

/**
 * The previous `size` segments of each segment's document, joined with a space: the context a
 * reader needs to see why a word got more likely. `docs` gives each segment's document (the
 * same id on consecutive segments); without it the input is one document.
 */
export function previousSegments(texts: readonly string[], docs: ReadonlyArray<string | undefined>, size: number): string[] {
  return texts.map((_, k) => {
    const out: string[] = [];
    for (let j = k - 1; j >= 0 && out.length < size && docs[j] === docs[k]; j--) out.unshift(texts[j]!);
    return out.join(" ");
  });
}

/** Characters that are not whitespace, NFKC-normalised: how the check below compares texts. */
function letters(s: string): string {
  return s.normalize("NFKC").replace(/\s+/g, "");
}

const UNK = "<unk>";
const clip = (s: string, n = 80) => (s.length > n ? s.slice(0, n - 3) + "..." : s);

/** Whether scored text spells a reference text; an unknown-word token stands for any characters. */
export function spellsReference(scored: string, reference: string): boolean {
  const a = letters(scored);
  const b = letters(unescapeMoses(reference));
  if (!a.includes(UNK)) return a === b;
  const re = new RegExp(`^${a.split(UNK).map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("[^]+?")}$`, "u");
  return re.test(b);
}

/**
 * Checks that every segment's tokens spell its reference line (whitespace and Unicode normalisation
 * aside, `<unk>` matching anything): scores of another text, or a shifted file, would make every
 * number meaningless.
 */
export function checkReferenceText(segments: readonly CxmiSegment[], ref: readonly string[], refPath: string, scoresPath: string): void {
  if (ref.length !== segments.length) throw new InputError(`has ${ref.length} segments, but ${scoresPath} has ${segments.length} scored segments`, refPath);
  segments.forEach((s, k) => {
    if (spellsReference(s.text, ref[k]!)) return;
    throw new InputError(
      `segment ${k + 1}: the scored tokens of ${scoresPath} spell '${clip(s.text)}', not this reference line ('${clip(ref[k]!)}'); ` +
        "give the reference the model scored, or --no-text-check if the model normalised its input",
      refPath,
      k + 1,
    );
  });
}

export interface CxmiAnalysisOptions {
  /** Vocabulary items, words and segments listed. */
  top: number;
  /** Occurrences a vocabulary item needs to be listed. */
  minCount: number;
}

/** The whole analysis of paired segments (tagged with tagWords first, where a tagger exists). */
export function cxmiAnalysis(segments: CxmiSegment[], contexts: readonly string[], opts: CxmiAnalysisOptions) {
  const tagged = segments.some((s) => s.words.some((w) => w.upos));
  const summary = summarize(segments);
  const top = [...segments].sort((a, b) => b.pcxmi - a.pcxmi || a.index - b.index).slice(0, opts.top);
  return {
    summary,
    ...(tagged ? { pos: posMeans(segments) } : {}),
    vocabulary: vocabularyMeans(segments, opts.minCount).slice(0, opts.top),
    topWords: topWords(segments, contexts, opts.top),
    topSegments: top.map((s) => ({
      segment: s.index,
      ...(s.id !== undefined ? { id: s.id } : {}),
      ...(s.doc !== undefined ? { doc: s.doc } : {}),
      pcxmi: s.pcxmi,
      tokens: s.tokens.length,
      sentence: s.text,
      context: contexts[s.index - 1] ?? "",
    })),
    segments: segments.map(({ words, eos: _eos, ...s }) => ({ ...s, words: words.map(({ feats: _f, ...w }) => w) })),
  };
}

const f4 = (x: number) => x.toFixed(4);

/** The report as printed tables: summary, parts of speech, vocabulary, top words, top segments. */
export function cxmiTables(r: ReturnType<typeof cxmiAnalysis>): TableBlock[] {
  const s = r.summary;
  const tables: TableBlock[] = [
    {
      title: "CXMI (nats)",
      header: ["segments", "tokens", "words", "cxmi", "cxmi_per_sentence", "token_pcxmi", "word_pcxmi", "words_up"],
      rows: [[s.segments, s.tokens, s.words, f4(s.cxmi), f4(s.cxmiPerSentence), f4(s.tokenPcxmi), f4(s.wordPcxmi), s.wordsUp.toFixed(3)]],
    },
  ];
  if (r.pos) tables.push({ title: "mean word P-CXMI per part of speech", header: ["pos", "words", "mean_pcxmi"], rows: r.pos.map((g) => [g.key, g.count, f4(g.mean)]) });
  tables.push({ title: "vocabulary items with the highest mean P-CXMI", header: ["item", "count", "mean_pcxmi"], rows: r.vocabulary.map((g) => [g.key, g.count, f4(g.mean)]) });
  tables.push({
    title: "words with the highest P-CXMI",
    header: ["rank", "pcxmi", "word", "pos", "segment", "doc", "sentence", "context"],
    rows: r.topWords.map((w, i) => [i + 1, f4(w.pcxmi), w.word, w.upos ?? "", w.id ?? w.segment, w.doc ?? "", w.sentence, w.context]),
  });
  tables.push({
    title: "segments with the highest P-CXMI",
    header: ["rank", "pcxmi", "tokens", "segment", "doc", "sentence", "context"],
    rows: r.topSegments.map((x, i) => [i + 1, f4(x.pcxmi), x.tokens, x.id ?? x.segment, x.doc ?? "", x.sentence, x.context]),
  });
  return tables;
}
