import { existsSync, readdirSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { InputError } from "../io/errors.js";
import { readBytes, streamLines } from "../io/lines.js";
import { AtomicLineWriter } from "../io/atomic.js";
import { findTestSets, loadTestSet } from "../io/discover.js";
import { splitSentences } from "../text/sentences.js";
import { tokenWords } from "../text/tokenize.js";
import { pronouns } from "../text/pronouns.js";
import { readConllu, surfaceTokens } from "../annotate/conllu.js";

/**
 * The masked-pronoun pretraining corpus: English documents as tokenised sentences (tokens of
 * tokenize.ts joined by single spaces), one JSON document per line:
 *   {"id": "litbank/105_persuasion", "source": "litbank", "sents": ["Sir Walter Elliot , of ...", ...]}
 * Windows (a sentence and up to two previous sentences of the same document, as the ranker sees
 * them) are formed when the corpus is loaded, so the file stays one copy of the text.
 */
export interface CorpusDoc {
  id: string;
  source: string;
  sents: string[];
}

export interface CorpusSources {
  /** Directory of LitBank novels (*.txt / *.txt.gz). */
  litbank?: string;
  /** WMT year directories whose into-English *references* are used (never system outputs). */
  wmt?: string[];
  /** CTXPRO directory (its inputs/en-*.dev.gz hold English segments with context). */
  ctxpro?: string;
  /** GUM / GENTLE directory of *.conllu(.gz). */
  gum?: string;
  /**
   * WMT year directories whose English *sources* (en-X pairs) are used: news-domain English written by
   * people (wmt23's en-X sources are allowed; only its into-English side is the dev data).
   */
  wmtEnSources?: string[];
  /**
   * Dev-year directories (wmt23): every sentence of their into-English references and system outputs is
   * kept out of the corpus, so a source that repeats a dev sentence cannot leak it.
   */
  exclude?: string[];
  /**
   * Directory of modern English prose (`text/english-news-wiki`): gzipped text files, one paragraph per
   * line, documents separated by a blank line. Each file is its own source (`news-wiki/<file stem>`).
   */
  newsWiki?: string;
}

export interface CorpusStats {
  /** Per source: documents, sentences, tokens, sentences with a pronoun, pronoun tokens (the slots the model learns from). */
  bySource: Record<string, { docs: number; sentences: number; tokens: number; pronounSentences: number; pronounSlots: number }>;
  skipped: Array<{ file: string; reason: string }>;
}

const EN_FUNCTION_WORDS = new Set("the of and to a in is it that was he for on with as i his be at by you not this had but from are she her they have were which or an we their".split(" "));

/**
 * Why a text is unusable, or null: binary (NUL bytes / invalid UTF-8 are caught by the reader),
 * empty, or not English (under 5% of its first 5000 word tokens are very common English words;
 * English prose is at ~40%, other languages ~1%; short technical texts dip to ~10%).
 */
export function rejectReason(sents: string[]): string | null {
  let n = 0;
  let hits = 0;
  for (const s of sents) {
    for (const w of s.split(" ")) {
      if (!/\p{L}/u.test(w)) continue;
      n++;
      if (EN_FUNCTION_WORDS.has(w.toLowerCase())) hits++;
      if (n >= 5000) break;
    }
    if (n >= 5000) break;
  }
  if (n === 0) return "empty (no words)";
  if (n >= 20 && hits / n < 0.05) return `not English (${((100 * hits) / n).toFixed(1)}% common English words)`;
  return null;
}

const tok = (s: string): string => tokenWords(s).join(" ");

/** A Gutenberg-style novel: paragraphs separated by blank lines, lines wrapped inside them. */
export function novelSentences(text: string): string[] {
  const out: string[] = [];
  for (const para of text.split(/\r?\n\s*\r?\n/)) {
    const flat = para.replace(/\s+/g, " ").trim();
    if (!flat) continue;
    for (const s of splitSentences(flat)) {
      const t = tok(s);
      if (t) out.push(t);
    }
  }
  return out;
}

function listFiles(dir: string, re: RegExp): string[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new InputError("corpus directory not found", dir);
  return readdirSync(dir)
    .filter((f) => re.test(f))
    .sort()
    .map((f) => join(dir, f));
}

/** Yields the documents of every source, in a fixed order (the file is reproducible). */
/** The tokenised sentences of every into-English reference and system output of `dirs`. */
export async function devSentences(dirs: string[]): Promise<Set<string>> {
  const out = new Set<string>();
  for (const dir of dirs) {
    for (const loc of findTestSets(dir, { intoEnglish: true })) {
      const ts = await loadTestSet(loc);
      for (const d of ts.docs) {
        for (const lines of [...Object.values(d.refs), ...Object.values(d.hyps)]) {
          for (const l of lines) for (const s of splitSentences(l)) out.add(tok(s));
        }
      }
    }
  }
  return out;
}

export async function* corpusDocs(src: CorpusSources, skipped: CorpusStats["skipped"], log: (m: string) => void = () => {}): AsyncGenerator<CorpusDoc> {
  const guard = function* (file: string, source: string, id: string, read: () => string[]): Generator<CorpusDoc> {
    let sents: string[];
    try {
      sents = read();
    } catch (e) {
      const reason = e instanceof InputError ? e.message : String(e);
      skipped.push({ file, reason });
      log(`warning: skipped ${file}: ${reason}`);
      return;
    }
    const why = rejectReason(sents);
    if (why) {
      skipped.push({ file, reason: why });
      log(`warning: skipped ${file}: ${why}`);
      return;
    }
    yield { id, source, sents };
  };
  if (src.litbank) {
    for (const f of listFiles(src.litbank, /\.txt(\.gz)?$/)) {
      const buf = readBytes(f);
      yield* guard(f, "litbank", `litbank/${basename(f).replace(/\.txt(\.gz)?$/, "")}`, () => {
        if (buf.includes(0)) throw new InputError("binary file (NUL bytes)", f);
        return novelSentences(new TextDecoder("utf-8", { fatal: true }).decode(buf));
      });
    }
  }
  for (const dir of src.wmt ?? []) {
    if (/wmt23/.test(dir)) throw new InputError("wmt23 is the dev year and must not be in the pretraining corpus", dir);
    for (const loc of findTestSets(dir, { intoEnglish: true })) {
      const ts = await loadTestSet(loc);
      for (const d of ts.docs) {
        for (const [refName, lines] of Object.entries(d.refs)) {
          const file = `${loc.xml ?? loc.name}#${d.id}/${refName}`;
          yield* guard(file, "wmt-ref", `wmt/${ts.name}/${ts.langPair}/${d.id}/${refName}`, () => lines.map(tok).filter((s) => s.length > 0));
        }
      }
    }
  }
  if (src.ctxpro) {
    // en-X inputs are English: "ctx1<eos> ... ctx10<eos> segment". Consecutive lines overlap in
    // their context, so each line contributes only its segment and two previous sentences (one
    // window), and identical windows are kept once.
    const seen = new Set<string>();
    for (const f of listFiles(join(src.ctxpro, "inputs"), /\.en-[a-z]+\.[a-z]+(\.gz)?$/)) {
      const lines: string[] = [];
      try {
        lines.push(...new TextDecoder("utf-8", { fatal: true }).decode(readBytes(f)).split(/\r?\n/));
      } catch (e) {
        skipped.push({ file: f, reason: String((e as Error).message) });
        log(`warning: skipped ${f}: ${(e as Error).message}`);
        continue;
      }
      let k = 0;
      for (const line of lines) {
        k++;
        const key = line.split("<eos>").slice(-3).join("<eos>");
        if (!line.trim() || seen.has(key)) continue;
        seen.add(key);
        yield* guard(`${f}:${k}`, "ctxpro", `ctxpro/${basename(f)}/${k}`, () => line.split("<eos>").slice(-3).map(tok).filter((s) => s.length > 0));
      }
    }
  }
  if (src.wmtEnSources?.length) {
    // English sources of en-X test sets (news, speech, social; WMT24 segments are paragraphs, hence the
    // sentence split). One copy per document: several en-X pairs of a year share their source.
    const dev = await devSentences(src.exclude ?? []);
    const seenDocs = new Set<string>();
    let dropped = 0;
    for (const dir of src.wmtEnSources) {
      for (const loc of findTestSets(dir).filter((l) => l.srcLang === "en" && l.tgtLang !== "en")) {
        const ts = await loadTestSet(loc);
        for (const d of ts.docs) {
          if (!d.src) continue;
          const sents = d.src.flatMap((l) => splitSentences(l).map(tok)).filter((s) => s.length > 0);
          const key = sents.join("\n");
          if (seenDocs.has(key)) continue;
          seenDocs.add(key);
          const kept = sents.filter((s) => !dev.has(s));
          dropped += sents.length - kept.length;
          yield* guard(`${loc.xml ?? loc.name}#${d.id}`, "wmt-en-src", `wmt-src/${ts.name}/${ts.langPair}/${d.id}`, () => kept);
        }
      }
    }
    if (dropped > 0) log(`wmt-en-src: ${dropped} sentences that also occur in the dev year's into-English side left out`);
  }
  if (src.newsWiki) {
    // Streamed: the Wikipedia file alone is ~220 MB of text. A paragraph is split into sentences; a
    // document ends at a blank line. Invalid UTF-8 stops the build with the file and line.
    for (const f of listFiles(src.newsWiki, /\.txt(\.gz)?$/)) {
      const stem = basename(f).replace(/\.txt(\.gz)?$/, "");
      let sents: string[] = [];
      let n = 0;
      const flush = function* (): Generator<CorpusDoc> {
        if (sents.length === 0) return;
        n++;
        const doc = sents;
        sents = [];
        yield* guard(`${f}#${n}`, `news-wiki/${stem}`, `news-wiki/${stem}/${n}`, () => doc);
      };
      for await (const line of streamLines(f)) {
        const para = line.trim();
        if (!para) {
          yield* flush();
          continue;
        }
        for (const sent of splitSentences(para)) {
          const t = tok(sent);
          if (t) sents.push(t);
        }
      }
      yield* flush();
    }
  }
  if (src.gum) {
    for (const f of listFiles(src.gum, /\.conllu(\.gz)?$/)) {
      yield* guard(f, "gum", `gum/${basename(f).replace(/\.conllu(\.gz)?$/, "")}`, () =>
        readConllu(f)
          .map((s) => (s.text ? tok(s.text) : surfaceTokens(s).map((t) => t.form).join(" ")))
          .filter((s) => s.length > 0),
      );
    }
  }
}

/** Streams every document into `out` (JSONL, .gz ok; atomic) and returns the counts. */
export async function buildCorpus(src: CorpusSources, out: string, log: (m: string) => void = () => {}): Promise<CorpusStats> {
  const inv = pronouns();
  const stats: CorpusStats = { bySource: {}, skipped: [] };
  const w = new AtomicLineWriter(out);
  try {
    for await (const d of corpusDocs(src, stats.skipped, log)) {
      const s = (stats.bySource[d.source] ??= { docs: 0, sentences: 0, tokens: 0, pronounSentences: 0, pronounSlots: 0 });
      s.docs++;
      for (const sent of d.sents) {
        const toks = sent.split(" ");
        s.sentences++;
        s.tokens += toks.length;
        let slots = 0;
        for (const t of toks) if (inv.has(t)) slots++;
        s.pronounSlots += slots;
        if (slots > 0) s.pronounSentences++;
      }
      w.write(JSON.stringify(d));
    }
    w.commit();
  } catch (e) {
    w.abort();
    throw e;
  }
  return stats;
}
