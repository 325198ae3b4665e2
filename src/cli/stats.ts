import type { Command } from "commander";
import { action, intOption, emit, checkOutputs, outputFormat, tableOptions } from "./run.js";
import { formatResult } from "../io/table.js";
import { readAllPairs, readPairs } from "../core/pair-format.js";
import { pairStats, statsTables } from "../mine/stats.js";

export function registerStats(program: Command): void {
  tableOptions(
    program
      .command("stats")
      .description("count pairs per file and kind (the paper's Table 3) and the (reference, system) pronoun distribution")
      .argument("<pairfiles...>", "pair files (JSONL, plain or .gz)")
      .option("-o, --output <file>", "write the output here ('-' = stdout, the default)")
      .option("--top <n>", "pronoun pairs to list per file", "20"),
    "the counts (every pronoun pair)",
  ).action(
    action(async (files: string[], o: { json?: boolean; format?: string; top: string; output?: string }) => {
      const format = await outputFormat(o);
      const top = intOption("--top", o.top, 1);
      await checkOutputs(o.output);
      const all = [];
      for (const f of files) {
        // An empty pair file is counted as empty (`pairs` writes one when a split has no pairs), not refused.
        const pairs = [];
        for await (const p of readPairs(f)) pairs.push(p);
        all.push(pairStats(f, pairs));
      }
      await emit(format === "json" ? `${JSON.stringify(all, null, 1)}\n` : await formatResult(statsTables(all, top), format), o.output);
    }),
  );
}
