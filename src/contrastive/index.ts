/**
 * Contrastive test-set scoring (Voita, Sennrich & Titov 2019, "When a Good Translation is Wrong in
 * Context"): every item has one true translation and several contrastive ones; a model's score per
 * candidate decides whether the true one wins. Accuracy is reported overall and by the distance of the
 * latest context sentence that matters (the release's `ctx_dist`), as in the paper's Tables 7-8.
 *
 * Ties: a candidate tied with the true one for the best score shares the win (credit 1/k for a k-way tie),
 * the expected accuracy under random tie-breaking. So a constant scorer gets exactly the chance rate
 * (the mean of 1/candidates), and the position of the true candidate cannot influence the result.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { InputError } from "../io/errors.js";
import { readLines, readText } from "../io/lines.js";
import type { TableBlock } from "../io/table.js";
import { isStdin } from "../io/stdin.js";
import { mulberry32 } from "../core/prng.js";

export interface ContrastiveItem {
  /** Source with its context sentences, joined by " _eos " as in the release. */
  src: string;
  /** Candidate translations (with context), in the release's order. */
  candidates: string[];
  /** Index of the true candidate in `candidates`. */
  trueIndex: number;
  /** Distance (in sentences) of the latest relevant context sentence; undefined when the set has none. */
  ctxDist?: number;
}

export interface ContrastiveSet {
  name: string;
  file: string;
  items: ContrastiveItem[];
}

/** Number of candidate lines the items flatten to (= lines of scoring_data and of a scores file). */
export function candidateCount(items: readonly ContrastiveItem[]): number {
  let n = 0;
  for (const it of items) n += it.candidates.length;
  return n;
}

/** Reads a Voita-style `<set>.json[.gz]`: [{src, dst: [...], true_ind, ctx_dist}, ...]. */
export function readContrastiveJson(path: string): ContrastiveSet {
  let raw: unknown;
  try {
    raw = JSON.parse(readText(path));
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw new InputError(`not JSON (${(e as Error).message})`, path);
  }
  if (!Array.isArray(raw)) throw new InputError("expected a JSON array of items {src, dst, true_ind, ctx_dist}", path);
  const items = raw.map((x, i): ContrastiveItem => {
    const at = `item ${i}`;
    if (!x || typeof x !== "object") throw new InputError(`${at}: not an object`, path);
    const o = x as Record<string, unknown>;
    const dst = o.dst;
    if (!Array.isArray(dst) || dst.length < 2 || !dst.every((d) => typeof d === "string")) {
      throw new InputError(`${at}: "dst" must be an array of at least 2 strings`, path);
    }
    const t = o.true_ind ?? 0;
    if (typeof t !== "number" || !Number.isInteger(t) || t < 0 || t >= dst.length) {
      throw new InputError(`${at}: "true_ind" must be an integer in [0, ${dst.length - 1}], got ${JSON.stringify(o.true_ind)}`, path);
    }
    const d = o.ctx_dist;
    if (d !== undefined && d !== null && (typeof d !== "number" || !Number.isInteger(d) || d < 0)) {
      throw new InputError(`${at}: "ctx_dist" must be a non-negative integer, got ${JSON.stringify(d)}`, path);
    }
    return {
      src: typeof o.src === "string" ? o.src : "",
      candidates: dst as string[],
      trueIndex: t,
      ...(typeof d === "number" ? { ctxDist: d } : {}),
    };
  });
  return { name: setName(path), file: path, items };
}

function setName(path: string): string {
  if (isStdin(path)) return "stdin";
  return basename(path).replace(/\.gz$/, "").replace(/\.json$/, "");
}

/** The sets of a Voita-layout directory (`*.json[.gz]` next to `scoring_data/`), sorted by name. */
export function listContrastiveSets(dir: string): string[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new InputError("not a directory", dir);
  return readdirSync(dir)
    .filter((f) => /\.json(\.gz)?$/.test(f))
    .sort()
    .map((f) => join(dir, f));
}

/** Resolves a set given as a file, or as a directory plus a set name (deixis_test, ...). */
export function resolveSetPath(input: string, name?: string): string {
  if (isStdin(input)) {
    if (name) throw new InputError("--set picks a set inside a directory; standard input holds one set");
    return input;
  }
  if (!existsSync(input)) throw new InputError("no such file or directory", input);
  if (!statSync(input).isDirectory()) return input;
  const sets = listContrastiveSets(input);
  if (!name) {
    if (sets.length === 1) return sets[0]!;
    throw new InputError(`holds ${sets.length} sets (${sets.map(setName).join(", ")}); choose one with --set`, input);
  }
  const hit = sets.find((s) => setName(s) === name);
  if (!hit) throw new InputError(`no set '${name}' (found: ${sets.map(setName).join(", ")})`, input);
  return hit;
}

/** The scoring_data files of a set, when they exist: `<dir>/scoring_data/<name>.src|dst[.gz]`. */
export function scoringDataPaths(setPath: string): { src: string; dst: string } | undefined {
  if (isStdin(setPath)) return undefined; // no directory beside standard input
  const dir = join(setPath, "..", "scoring_data");
  const name = setName(setPath);
  for (const ext of [".gz", ""]) {
    const src = join(dir, `${name}.src${ext}`);
    const dst = join(dir, `${name}.dst${ext}`);
    if (existsSync(src) && existsSync(dst)) return { src, dst };
  }
  return undefined;
}

/**
 * Checks that scoring_data lists exactly the items' candidates in order (one candidate a line), so that
 * scores computed over scoring_data line up with the items. Throws at the first differing line.
 */
export function checkScoringData(set: ContrastiveSet, paths: { src: string; dst: string }): void {
  const src = readLines(paths.src);
  const dst = readLines(paths.dst);
  const n = candidateCount(set.items);
  if (dst.length !== n) throw new InputError(`has ${dst.length} lines but ${set.file} has ${n} candidates`, paths.dst);
  if (src.length !== n) throw new InputError(`has ${src.length} lines but ${set.file} has ${n} candidates`, paths.src);
  let k = 0;
  for (const it of set.items) {
    for (const c of it.candidates) {
      if (norm(dst[k]!) !== norm(c)) throw new InputError(`candidate differs from ${set.file}`, paths.dst, k + 1);
      if (norm(src[k]!) !== norm(it.src)) throw new InputError(`source differs from ${set.file}`, paths.src, k + 1);
      k++;
    }
  }
}

const norm = (s: string) => s.trim().replace(/\s+/g, " ");

/** Parses a scores file: one finite number a line, as many lines as candidates. */
export function readScores(path: string, expected: number, setFile: string): Float64Array {
  const lines = readLines(path);
  if (lines.length !== expected) {
    // A long file is wrong from its first extra line; a short one as a whole.
    const line = lines.length > expected ? expected + 1 : undefined;
    throw new InputError(`has ${lines.length} score lines but ${setFile} has ${expected} candidates (one score a line, in scoring_data order)`, path, line);
  }
  return parseScoreLines(lines, path);
}

export function parseScoreLines(lines: readonly string[], file: string): Float64Array {
  const out = new Float64Array(lines.length);
  lines.forEach((l, i) => {
    // Some scorers print "score<TAB>text" or several columns: the first field is the score.
    const field = l.trim().split(/\s+/)[0] ?? "";
    const v = Number(field);
    if (field === "" || !Number.isFinite(v)) throw new InputError(`not a number: '${l.slice(0, 40)}'`, file, i + 1);
    out[i] = v;
  });
  return out;
}

export interface ContrastiveGroup {
  /** "all", or the context distance as a string. */
  key: string;
  items: number;
  /** Sum of credits (ties shared). */
  correct: number;
  /** Percentage. */
  accuracy: number;
  /** Percentage a constant scorer gets on these items (mean of 1/candidates). */
  chance: number;
}

export interface ContrastiveResult {
  set: string;
  system: string;
  higherIsBetter: boolean;
  overall: ContrastiveGroup;
  byDistance: ContrastiveGroup[];
  /** Items whose true candidate tied with another for the best score. */
  ties: number;
  /** Per-item credit in [0, 1] (for bootstrap). */
  credits: Float64Array;
}

/** Credit of one item: 1 if the true candidate is strictly best, 1/k if k candidates tie for best, else 0. */
export function itemCredit(scores: ArrayLike<number>, offset: number, n: number, trueIndex: number, higherIsBetter: boolean): number {
  const sign = higherIsBetter ? 1 : -1;
  const t = sign * scores[offset + trueIndex]!;
  let tied = 0;
  for (let j = 0; j < n; j++) {
    const v = sign * scores[offset + j]!;
    if (v > t) return 0;
    if (v === t) tied++;
  }
  return 1 / tied;
}

/** Scores one set given one score per candidate (flattened in item order). */
export function scoreContrastive(set: ContrastiveSet, scores: ArrayLike<number>, opts: { higherIsBetter?: boolean; system?: string } = {}): ContrastiveResult {
  const total = candidateCount(set.items);
  if (scores.length !== total) throw new InputError(`${scores.length} scores for ${total} candidates of ${set.name}`);
  const hib = !!opts.higherIsBetter;
  const credits = new Float64Array(set.items.length);
  const groups = new Map<string, { items: number; correct: number; chance: number }>();
  const add = (key: string, credit: number, chance: number) => {
    const g = groups.get(key) ?? { items: 0, correct: 0, chance: 0 };
    g.items++;
    g.correct += credit;
    g.chance += chance;
    groups.set(key, g);
  };
  let off = 0;
  let ties = 0;
  set.items.forEach((it, i) => {
    const n = it.candidates.length;
    const c = itemCredit(scores, off, n, it.trueIndex, hib);
    if (c > 0 && c < 1) ties++;
    credits[i] = c;
    add("all", c, 1 / n);
    if (it.ctxDist !== undefined) add(String(it.ctxDist), c, 1 / n);
    off += n;
  });
  const group = (key: string): ContrastiveGroup => {
    const g = groups.get(key)!;
    return { key, items: g.items, correct: g.correct, accuracy: (100 * g.correct) / g.items, chance: (100 * g.chance) / g.items };
  };
  const dists = [...groups.keys()].filter((k) => k !== "all").sort((a, b) => Number(a) - Number(b));
  return {
    set: set.name,
    system: opts.system ?? "scores",
    higherIsBetter: hib,
    overall: set.items.length ? group("all") : { key: "all", items: 0, correct: 0, accuracy: 0, chance: 0 },
    byDistance: dists.map(group),
    ties,
    credits,
  };
}

/**
 * Harness self-check: a constant scorer must get exactly the chance rate, and moving the true candidate
 * to another position (with its score) must not change any item's credit. Returns the failures (empty = ok).
 */
export function selfCheck(set: ContrastiveSet, seed = 1): { constant: ContrastiveResult; failures: string[] } {
  const n = candidateCount(set.items);
  const failures: string[] = [];
  const constant = scoreContrastive(set, new Float64Array(n), { system: "constant" });
  for (const g of [constant.overall, ...constant.byDistance]) {
    if (Math.abs(g.accuracy - g.chance) > 1e-9) failures.push(`constant scores: ${g.key} accuracy ${g.accuracy} != chance ${g.chance}`);
  }
  // Random integer scores (many ties) on the original order and on a rotated order must give equal credits.
  const rand = mulberry32(seed);
  const scores = Float64Array.from({ length: n }, () => Math.floor(rand() * 3));
  const base = scoreContrastive(set, scores);
  const rotated: ContrastiveItem[] = [];
  const rotScores = new Float64Array(n);
  let off = 0;
  for (const it of set.items) {
    const k = it.candidates.length;
    const shift = 1 + Math.floor(rand() * (k - 1));
    const cands: string[] = [];
    for (let j = 0; j < k; j++) {
      cands.push(it.candidates[(j + shift) % k]!);
      rotScores[off + j] = scores[off + ((j + shift) % k)]!;
    }
    rotated.push({ ...it, candidates: cands, trueIndex: (it.trueIndex - shift + k) % k });
    off += k;
  }
  const rot = scoreContrastive({ ...set, items: rotated }, rotScores);
  for (let i = 0; i < set.items.length; i++) {
    if (Math.abs(base.credits[i]! - rot.credits[i]!) > 1e-12) {
      failures.push(`item ${i}: credit ${base.credits[i]} changes to ${rot.credits[i]} when the true candidate moves`);
      break;
    }
  }
  return { constant, failures };
}

const pct = (x: number) => x.toFixed(1);

/** Table in the shape of Voita et al.'s Tables 7-8: total, then one column per context distance. */
export function contrastiveTable(results: readonly ContrastiveResult[]): TableBlock {
  const dists = [...new Set(results.flatMap((r) => r.byDistance.map((g) => g.key)))].sort((a, b) => Number(a) - Number(b));
  const header = ["set", "system", "items", "total", ...dists.map((d) => `dist ${d}`), "chance", "ties"];
  const rows = results.map((r) => [
    r.set,
    r.system,
    r.overall.items,
    pct(r.overall.accuracy),
    ...dists.map((d) => {
      const g = r.byDistance.find((x) => x.key === d);
      return g ? `${pct(g.accuracy)} (${g.items})` : "-";
    }),
    pct(r.overall.chance),
    r.ties,
  ]);
  return { header, rows };
}

/** JSON-friendly result (credits dropped). */
export function resultJson(r: ContrastiveResult): Omit<ContrastiveResult, "credits"> {
  const { credits: _c, ...rest } = r;
  return rest;
}
