/** The comparison section: `proneval compare --json`, systems against a baseline with paired bootstrap tests. */
import { barChart, color, MAX_SERIES } from "../charts.js";
import { ci, int, num, pct, pValue, round, signed } from "../format.js";
import type { CompareJson } from "../inputs.js";
import { NEUTRAL, type Block } from "../model.js";

export function compareBlocks(compares: Array<{ label: string; data: CompareJson }>): Block[] {
  const blocks: Block[] = [];
  compares.forEach((c, k) => {
    const d = c.data;
    const cs = d.comparisons;
    blocks.push({ type: "h3", text: `Against ${d.baseline}: ${cs.length} system(s)`, anchor: `compare-${k}` });
    blocks.push({
      type: "kv",
      items: [
        ["file", c.label],
        ["baseline", `${d.baseline}${d.systems[0] ? `: score ${d.systems[0].score.toFixed(2)} on its ${int(d.systems[0].pronounSegments)} pronoun segments` : ""}`],
        ["test", d.bootstrap ? `paired bootstrap over each pair's pronoun segments, ${int(d.bootstrap.samples)} resamples, seed ${d.bootstrap.seed}; better/worse when p < ${d.alpha} (as recorded by compare)` : "none (compare ran with --bootstrap 0)"],
        ...(d.signature ? [["signature", d.signature] as [string, string]] : []),
      ],
    });
    blocks.push({
      type: "table",
      caption: "Each system against the baseline on the segments where the reference, the system or the baseline has a pronoun (* p < 0.05)",
      columns: ["system", "score", "baseline", "Δ", "95% CI of Δ", "p", "verdict", "pronoun segments", "wins / ties / losses", "Cohen's h"],
      align: ["l", "r", "r", "r", "r", "r", "l", "r", "r", "r"],
      rows: cs.map((x) => [
        x.system,
        x.score.toFixed(2),
        x.baselineScore.toFixed(2),
        signed(x.delta, 2),
        x.bootstrap ? ci(x.bootstrap.ci95[0], x.bootstrap.ci95[1], 2) : "–",
        x.bootstrap ? pValue(x.bootstrap.p) : "–",
        x.verdict,
        int(x.pronounSegments),
        `${int(x.wins.system)} / ${int(x.wins.ties)} / ${int(x.wins.baseline)}`,
        num(x.cohensH, 3),
      ]),
    });
    const shown = cs.slice(0, 60);
    blocks.push({
      type: "chart",
      chart: barChart({
        id: `compare-delta-${k}`,
        title: `Difference to ${d.baseline}`,
        caption: d.bootstrap ? "Bars: score − baseline score on the pair's pronoun segments; whiskers: 95% paired bootstrap interval." : "Bars: score − baseline score on the pair's pronoun segments (no interval: --bootstrap 0).",
        categories: shown.map((x) => x.system),
        horizontal: true,
        series: [
          {
            label: "Δ score (points)",
            values: shown.map((x) => round(x.delta, 3)),
            labels: shown.map((x) => `${signed(x.delta, 2)}${x.bootstrap ? ` ${ci(x.bootstrap.ci95[0], x.bootstrap.ci95[1], 2)}` : ""}`),
            errorBars: shown.map((x) => (x.bootstrap ? ([round(x.bootstrap.ci95[0], 3), round(x.bootstrap.ci95[1], 3)] as [number, number]) : null)),
            color: color(0),
          },
        ],
        valueAxis: "score difference (percentage points)",
        categoryAxis: "system",
      }),
    });
    const part = (n: number, total: number): string => `${int(n)} (${pct(total ? (100 * n) / total : 0)})`;
    blocks.push({
      type: "chart",
      chart: barChart({
        id: `compare-wins-${k}`,
        title: "Which side is not below the reference, segment by segment",
        caption: "Per pair of system and baseline, their pronoun segments: only the system not below the reference, both or neither (tie), only the baseline.",
        categories: shown.map((x) => x.system),
        horizontal: true,
        stacked: true,
        series: [
          { label: "system only", values: shown.map((x) => x.wins.system), labels: shown.map((x) => part(x.wins.system, x.pronounSegments)), color: color(0) },
          { label: "tie", values: shown.map((x) => x.wins.ties), labels: shown.map((x) => part(x.wins.ties, x.pronounSegments)), color: NEUTRAL },
          { label: `${d.baseline} only`, values: shown.map((x) => x.wins.baseline), labels: shown.map((x) => part(x.wins.baseline, x.pronounSegments)), color: color(1) },
        ].slice(0, MAX_SERIES),
        valueAxis: "pronoun segments",
      }),
    });
    if (cs.length > shown.length) blocks.push({ type: "p", text: `Charts show the first ${shown.length} of ${cs.length} systems; the table lists all.` });
  });
  return blocks;
}
