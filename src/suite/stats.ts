import { ERROR_TYPES } from "./error-type.js";
import type { SuiteFile } from "./build.js";
import type { Cell, TableBlock } from "../io/table.js";

export interface SuiteStats {
  lang: string;
  years: string[];
  items: number;
  /** Distinct (source context + source sentence): the paper's "unique source contexts". */
  uniqueSourceContexts: number;
  byType: Record<string, number>;
  /** Erroneous pronoun occurrences (an item can have several). */
  errors: number;
}

export function suiteStats(s: SuiteFile): SuiteStats {
  const years = [...new Set(s.items.map((i) => /(20\d\d)/.exec(i.testset)?.[1] ?? i.testset))].sort();
  const contexts = new Set(s.items.map((i) => `${i["src context"].join("\n")}\n${i["src segment"]}`));
  const byType: Record<string, number> = {};
  let errors = 0;
  for (const i of s.items) {
    byType[i.rule] = (byType[i.rule] ?? 0) + 1;
    errors += i.errors.length;
  }
  return { lang: s.lang, years, items: s.items.length, uniqueSourceContexts: contexts.size, byType, errors };
}

/** The paper's Table 2 (source language, years, unique source contexts) with counts per error type, and a total row. */
export function suiteStatsTable(all: SuiteStats[]): TableBlock {
  const total: Record<string, number> = {};
  let ctx = 0;
  let items = 0;
  const rows: Cell[][] = [];
  for (const s of all) {
    ctx += s.uniqueSourceContexts;
    items += s.items;
    for (const t of ERROR_TYPES) total[t] = (total[t] ?? 0) + (s.byType[t] ?? 0);
    rows.push([s.lang, s.years.join(","), s.uniqueSourceContexts, s.items, ...ERROR_TYPES.map((t) => s.byType[t] ?? 0)]);
  }
  rows.push(["total", "", ctx, items, ...ERROR_TYPES.map((t) => total[t] ?? 0)]);
  return { header: ["source", "WMT years", "contexts", "items", ...ERROR_TYPES], rows };
}
