import type { PairRecord } from "../core/pair-format.js";
import type { TableBlock } from "../io/table.js";

export interface PairFileStats {
  file: string;
  total: number;
  byKind: Record<string, number>;
  byLang: Record<string, Record<string, number>>;
  /** (reference pronoun -> system pronoun) counts over individual mismatches. */
  pronounPairs: Array<{ ref: string; sys: string; count: number }>;
}

/** Counts a pair file the way the paper's Table 3 does, plus the (ref, sys) pronoun distribution. */
export function pairStats(file: string, pairs: Iterable<PairRecord>): PairFileStats {
  const byKind: Record<string, number> = {};
  const byLang: Record<string, Record<string, number>> = {};
  const pp = new Map<string, number>();
  let total = 0;
  for (const p of pairs) {
    total++;
    byKind[p.kind] = (byKind[p.kind] ?? 0) + 1;
    const l = (byLang[p.lang] ??= {});
    l[p.kind] = (l[p.kind] ?? 0) + 1;
    // System pairs list all their mismatches; noisy pairs have exactly one. Count mismatches once, via noisy pairs when present.
    const refs = p.ref_pronoun.split(",");
    const syss = p.sys_pronoun.split(",");
    if (p.kind === "system") continue;
    for (let i = 0; i < refs.length; i++) {
      const k = `${refs[i]}\t${syss[i] ?? "?"}`;
      pp.set(k, (pp.get(k) ?? 0) + 1);
    }
  }
  const pronounPairs = [...pp.entries()]
    .map(([k, count]) => {
      const [ref, sys] = k.split("\t") as [string, string];
      return { ref, sys, count };
    })
    .sort((a, b) => b.count - a.count || a.ref.localeCompare(b.ref) || a.sys.localeCompare(b.sys));
  return { file, total, byKind, byLang, pronounPairs };
}

/**
 * The paper's Table 3 (pairs per file and kind), pairs per source language, and the most frequent
 * (reference -> system) pronoun pairs, as three tables.
 */
export function statsTables(all: PairFileStats[], topPairs = 20): TableBlock[] {
  return [
    { header: ["file", "system (R vs S)", "noisy (R vs R')", "total"], rows: all.map((s) => [s.file, s.byKind.system ?? 0, s.byKind.noisy ?? 0, s.total]) },
    {
      title: "pairs by source language",
      header: ["file", "lang", "system", "noisy"],
      rows: all.flatMap((s) => Object.entries(s.byLang).sort().map(([lang, c]) => [s.file, lang, c.system ?? 0, c.noisy ?? 0])),
    },
    {
      title: `top ${topPairs} (reference -> system) pronoun pairs per file (from noisy pairs, one per mismatch)`,
      header: ["file", "reference", "system", "count", "share (%)"],
      rows: all.flatMap((s) => {
        const tot = s.pronounPairs.reduce((a, b) => a + b.count, 0) || 1;
        return s.pronounPairs.slice(0, topPairs).map((p) => [s.file, p.ref, p.sys, p.count, ((100 * p.count) / tot).toFixed(1)]);
      }),
    },
  ];
}
