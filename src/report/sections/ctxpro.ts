/** The CTXPRO section: generative accuracy of `proneval ctxpro score --json` files, per set and rule. */
import { basename } from "node:path";
import { grouped, type Series } from "../charts.js";
import { ci, int, pctCount, pValue, round, signed } from "../format.js";
import type { CtxproJson } from "../inputs.js";
import type { Block, Section } from "../model.js";

/** "gender.opensubtitles.en-de.dev.json.gz" -> phenomenon gender, pair en-de, split dev. */
export function parseEvalSetName(path: string): { phenomenon: string; pair: string; split: string | null; stem: string } {
  const stem = basename(path).replace(/\.gz$/i, "").replace(/\.json$/i, "");
  const parts = stem.split(".");
  const pair = parts.find((p) => /^[a-z]{2}-[a-z]{2}$/.test(p)) ?? "?";
  const split = parts.find((p) => ["dev", "devtest", "test"].includes(p)) ?? null;
  return { phenomenon: parts[0] || stem, pair, split, stem };
}

/**
 * System names from translation file paths: the parts that differ between a file's systems, minus the
 * parts of the evaluation set's own name, so "sysA/gender.de.txt" becomes "sysA" in every set.
 */
export function systemLabels(names: string[], setName: string): string[] {
  const setTokens = new Set(basename(setName).toLowerCase().split(/[._-]+/).concat(["txt", "out", "hyp", "hyps", "json", "gz"]));
  const comps = names.map((n) => n.split(/[/\\]+/).filter(Boolean));
  const common = names.length > 1 ? comps[0]!.filter((c) => comps.every((cs) => cs.includes(c))) : [];
  // Within the remaining components, drop the words of the set's name ("gender", "de", "dev", "txt"), keeping separators.
  const strip = (c: string): string =>
    c
      .split(/([._-]+)/)
      .filter((t, k, all) => !(k % 2 === 0 && setTokens.has(t.toLowerCase())) && !(k % 2 === 1 && (k === 0 || k === all.length - 1)))
      .join("")
      .replace(/^[._-]+|[._-]+$/g, "")
      .replace(/([._-])[._-]+/g, "$1");
  return names.map((n, i) => {
    const keep = comps[i]!.filter((c) => !common.includes(c)).map(strip).filter(Boolean);
    return keep.length ? keep.join("/") : basename(n);
  });
}

export function ctxproSection(files: Array<{ label: string; data: CtxproJson }>, systemNames: string[] | undefined): Section {
  const blocks: Block[] = [];
  const sets = files.map((f) => {
    const meta = parseEvalSetName(f.data.evalSet);
    const names = f.data.systems.map((s, i) => systemNames?.[i] ?? systemLabels(f.data.systems.map((x) => x.name), f.data.evalSet)[i]!);
    const ciOf = new Map((f.data.bootstrap?.systems ?? []).map((b, i) => [i, b.ci] as const));
    return { ...f, meta, names, ciOf };
  });
  const systems = [...new Set(sets.flatMap((s) => s.names))];
  const setLabel = (s: (typeof sets)[number]): string => `${s.meta.phenomenon} ${s.meta.pair}${s.meta.split ? ` (${s.meta.split})` : ""}`;
  blocks.push({
    type: "table",
    caption: "Generative accuracy per evaluation set: % (correct/items)",
    columns: ["phenomenon", "language pair", "split", "items", ...systems],
    align: ["l", "l", "l", "r", ...systems.map(() => "r" as const)],
    rows: sets.map((s) => [
      s.meta.phenomenon,
      s.meta.pair,
      s.meta.split ?? "",
      int(s.data.items),
      ...systems.map((name) => {
        const k = s.names.indexOf(name);
        return k < 0 ? "–" : pctCount(s.data.systems[k]!.correct, s.data.systems[k]!.total);
      }),
    ]),
  });
  const phenomena = [...new Set(sets.map((s) => s.meta.phenomenon))];
  for (const ph of phenomena) {
    const these = sets.filter((s) => s.meta.phenomenon === ph);
    const cats = these.map((s) => `${s.meta.pair}${these.filter((x) => x.meta.pair === s.meta.pair).length > 1 ? ` ${s.meta.split ?? s.meta.stem}` : ""}`);
    const series: Series[] = systems
      .filter((name) => these.some((s) => s.names.includes(name)))
      .map((name) => ({
        label: name,
        values: these.map((s) => {
          const k = s.names.indexOf(name);
          return k < 0 ? null : round(s.data.systems[k]!.accuracy, 2);
        }),
        labels: these.map((s) => {
          const k = s.names.indexOf(name);
          return k < 0 ? null : pctCount(s.data.systems[k]!.correct, s.data.systems[k]!.total);
        }),
        errorBars: these.map((s) => {
          const k = s.names.indexOf(name);
          const c = k < 0 ? undefined : s.ciOf.get(k);
          return c ? ([round(c[0], 2), round(c[1], 2)] as [number, number]) : null;
        }),
      }));
    blocks.push({
      type: "chart",
      chart: grouped({
        id: `ctxpro-${ph}`,
        title: `CTXPRO ${ph}: generative accuracy by language pair`,
        caption: "Share of items whose expected form appears in the system's translation. Whiskers: 95% paired bootstrap interval (when the scores were computed with several systems). Labels: accuracy (correct/items).",
        categories: cats,
        series,
        valueAxis: "generative accuracy (%)",
        categoryAxis: "language pair",
        min: 0,
        max: 100,
      }),
    });
  }
  const comparisons = sets.flatMap((s) =>
    (s.data.bootstrap?.comparisons ?? []).map((c) => {
      const bi = s.data.systems.findIndex((x) => x.name === c.baseline);
      const si = s.data.systems.findIndex((x) => x.name === c.system);
      return [setLabel(s), s.names[si] ?? c.system, s.names[bi] ?? c.baseline, signed(c.delta), ci(c.ci[0], c.ci[1]), pValue(c.p)];
    }),
  );
  if (comparisons.length)
    blocks.push({
      type: "table",
      caption: "Paired bootstrap against the first system of each set (Δ in percentage points; * p < 0.05)",
      columns: ["evaluation set", "system", "baseline", "Δ accuracy", "95% CI of Δ", "p"],
      align: ["l", "l", "l", "r", "r", "r"],
      rows: comparisons,
      note: sets.filter((s) => s.data.bootstrap).map((s) => `${setLabel(s)}: ${int(s.data.bootstrap!.samples)} resamples, seed ${s.data.bootstrap!.seed}`).join("; "),
    });
  sets.forEach((s, si) => {
    const rules = [...new Set(s.data.systems.flatMap((x) => x.perRule.map((r) => r.rule)))];
    const ruleInfo = new Map<string, { form: string; total: number }>();
    for (const x of s.data.systems) for (const r of x.perRule) if (!ruleInfo.has(r.rule)) ruleInfo.set(r.rule, { form: r.form, total: r.total });
    rules.sort((a, b) => ruleInfo.get(b)!.total - ruleInfo.get(a)!.total || (a < b ? -1 : 1));
    blocks.push({ type: "h3", text: `${setLabel(s)}: per rule (${rules.length} rules, ${int(s.data.items)} items)`, anchor: `ctxpro-set-${si}` });
    const top = rules.slice(0, 20);
    const cell = (x: CtxproJson["systems"][number], rule: string): { pc: number; label: string } | null => {
      const r = x.perRule.find((y) => y.rule === rule);
      return r ? { pc: round(r.accuracy, 2), label: pctCount(r.correct, r.total) } : null;
    };
    blocks.push({
      type: "chart",
      chart: grouped({
        id: `ctxpro-rules-${si}`,
        title: `${setLabel(s)}: accuracy per rule${rules.length > top.length ? ` (the ${top.length} largest of ${rules.length})` : ""}`,
        caption: "Rule (expected form of its first item). Labels: accuracy (correct/items).",
        categories: top.map((r) => `${r} (${ruleInfo.get(r)!.form})`),
        series: s.data.systems.map((x, k) => ({ label: s.names[k]!, values: top.map((r) => cell(x, r)?.pc ?? null), labels: top.map((r) => cell(x, r)?.label ?? null) })),
        valueAxis: "generative accuracy (%)",
        categoryAxis: "rule (expected form)",
        horizontal: true,
        min: 0,
        max: 100,
      }),
    });
    blocks.push({
      type: "table",
      columns: ["rule", "expected form", "items", ...s.names],
      align: ["l", "l", "r", ...s.names.map(() => "r" as const)],
      rows: rules.map((r) => [r, ruleInfo.get(r)!.form, int(ruleInfo.get(r)!.total), ...s.data.systems.map((x) => cell(x, r)?.label ?? "–")]),
    });
  });
  return {
    id: "ctxpro",
    title: "CTXPRO",
    intro: `Generative accuracy on CTXPRO evaluation sets (Wicks & Post 2023), from ${files.length} ctxpro score file(s). Systems are named from their translation files (parts that differ between systems); --system-names overrides this.`,
    blocks,
  };
}
