/** The segment view of a score file: per segment scores, pronouns, verdicts, and heat maps of a sample. */
import { notBelowReference } from "../../core/scorer.js";
import { int, round } from "../format.js";
import type { ScoreSystemJson } from "../inputs.js";
import type { SegmentDetail, SegmentView, SideDetail } from "../model.js";

export function verdictOf(g: { status: string; diff: number | null }): string {
  return g.status !== "scored" ? "." : notBelowReference(g) ? "+" : "-";
}

/** Heat-map detail of one segment, or null when the file holds no scored sides for it. */
function segmentDetail(ranked: ScoreSystemJson[], i: number): SegmentDetail | null {
  const refSide = ranked.map((s) => s.segments[i]!.refSide).find((x) => x !== undefined);
  if (!refSide || !ranked.some((s) => s.segments[i]!.sysSide)) return null;
  const ctx: string[][] = [];
  const sent: string[][] = [];
  const pools = [new Map<string, number>(), new Map<string, number>()] as const;
  const intern = (k: 0 | 1, toks: string[]): number => {
    const key = toks.join("\u0000");
    let at = pools[k].get(key);
    if (at === undefined) {
      at = (k === 0 ? ctx : sent).push(toks) - 1;
      pools[k].set(key, at);
    }
    return at;
  };
  const sides: SideDetail[] = [];
  const sideIdx = new Map<string, number>();
  const add = (s: NonNullable<typeof refSide>): number => {
    const c = intern(0, s.tokens.slice(0, s.sentStart));
    const w = intern(1, s.tokens.slice(s.sentStart));
    const key = `${c}:${w}`;
    const seen = sideIdx.get(key);
    if (seen !== undefined) return seen;
    sides.push({
      c,
      w,
      y: round(s.score),
      tr: s.truncatedContext ?? 0,
      p: s.pronouns.map((p) => [p.index, round(p.score), (p.attention ?? []).map((a) => Math.round(1000 * a))]),
    });
    sideIdx.set(key, sides.length - 1);
    return sides.length - 1;
  };
  const ref = add(refSide);
  const sys = ranked.map((s) => (s.segments[i]!.sysSide ? add(s.segments[i]!.sysSide!) : -1));
  const sub = ranked.some((s) => s.segments[i]!.substituted !== undefined) ? ranked.map((s) => (s.segments[i]!.substituted ? 1 : 0)) : undefined;
  return { ctx, sent, sides, ref, sys, ...(sub ? { sub } : {}) };
}

export function segmentView(id: string, ranked: ScoreSystemJson[], aggregate = "the file's"): { view: SegmentView; candidates: number[] } {
  const first = ranked[0]!.segments;
  const docs: string[] = [];
  const docIdx = new Map<string, number>();
  const view: SegmentView = {
    id,
    systems: ranked.map((s) => s.system),
    docs,
    doc: [],
    segId: [],
    refScore: [],
    refPron: [],
    sysScore: ranked.map(() => []),
    sysDiff: ranked.map(() => []),
    aggregate,
    sysPron: ranked.map(() => []),
    verdict: [],
    details: {},
    detailNote: "",
  };
  const verdicts: string[][] = ranked.map(() => []);
  const priority: Array<[number, number]> = [];
  first.forEach((g, i) => {
    let d = docIdx.get(g.doc);
    if (d === undefined) docIdx.set(g.doc, (d = docs.push(g.doc) - 1));
    view.doc.push(d);
    view.segId.push(g.seg);
    const refRow = ranked.map((s) => s.segments[i]!).find((x) => x.ref !== null);
    view.refScore.push(refRow ? round(refRow.ref!) : null);
    const refPron = g.refPronouns.join(" ");
    view.refPron.push(refPron);
    let lo = Infinity;
    let hi = -Infinity;
    const vs = new Set<string>();
    ranked.forEach((s, si) => {
      const x = s.segments[i]!;
      view.sysScore[si]!.push(x.sys === null ? null : round(x.sys));
      view.sysDiff[si]!.push(x.diff === null ? null : round(x.diff));
      const p = x.sysPronouns.join(" ");
      view.sysPron[si]!.push(p === refPron ? "=" : p);
      const v = verdictOf(x);
      verdicts[si]!.push(v);
      vs.add(v);
      if (x.sys !== null) (lo = Math.min(lo, x.sys)), (hi = Math.max(hi, x.sys));
    });
    // Segments where systems disagree (some below the reference, some not) and whose scores spread most first.
    if (hi >= lo) priority.push([i, (vs.has("+") && vs.has("-") ? 1e6 : 0) + (hi - lo)]);
  });
  view.verdict = verdicts.map((v) => v.join(""));
  priority.sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  return { view, candidates: priority.map(([i]) => i) };
}

export function fillDetails(view: SegmentView, ranked: ScoreSystemJson[], candidates: number[], budget: number, max: number): void {
  let used = 0;
  let withSides = 0;
  let over = false;
  for (const i of candidates) {
    if (Object.keys(view.details).length >= max) break;
    const d = segmentDetail(ranked, i);
    if (!d) continue;
    withSides++;
    const size = JSON.stringify(d).length + 8;
    if (used + size > budget) {
      over = true;
      continue;
    }
    used += size;
    view.details[String(i)] = d;
  }
  const k = Object.keys(view.details).length;
  const pronounSegs = candidates.length;
  if (k === 0) {
    view.detailNote =
      withSides === 0
        ? "This score file holds no per-pronoun scores or attention (its segments have no refSide/sysSide; see docs/report.md), so the segment view shows scores and pronouns only."
        : `No heat map fits the size budget (${(budget / 1e6).toFixed(2)} MB left for them).`;
  } else {
    view.detailNote =
      `Heat maps are stored for ${int(k)} of ${int(pronounSegs)} pronoun segments: those where the systems disagree most ` +
      `(some ranked below the reference, some not; then the widest spread of scores)` +
      (over ? `, as many as fit the file-size budget` : k >= max ? `, at most ${int(max)} (--max-heatmaps)` : "") +
      ". Segments with a heat map are marked ◆.";
  }
}
