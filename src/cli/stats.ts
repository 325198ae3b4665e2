import type { Command } from "commander";
import { action, intOption, emit, checkOutputs } from "./run.js";
import { readAllPairs } from "../mine/pair-format.js";
import { pairStats, formatStats } from "../mine/stats.js";

export function registerStats(program: Command): void {
  program
    .command("stats")
    .description("count pairs per file and kind (the paper's Table 3) and the (reference, system) pronoun distribution")
    .argument("<pairfiles...>", "pair files (JSONL, plain or .gz)")
    .option("--json", "print JSON instead of a table")
    .option("-o, --output <file>", "write the output here ('-' = stdout, the default)")
    .option("--top <n>", "pronoun pairs to list per file", "20")
    .action(
      action(async (files: string[], o: { json?: boolean; top: string; output?: string }) => {
        const top = intOption("--top", o.top, 1);
        await checkOutputs(o.output);
        const all = [];
        for (const f of files) all.push(pairStats(f, await readAllPairs(f)));
        await emit(o.json ? `${JSON.stringify(all, null, 1)}\n` : `${formatStats(all, top)}\n`, o.output);
      }),
    );
}
