// Data-parallel training (`pretrain`/`train --workers N`) runs N compute threads that meet at every
// step, usually on as many cores. V8's concurrent garbage collector adds helper threads that then
// preempt a compute thread, and the whole step waits for the slowest shard: with
// --single-threaded-gc each thread collects its own garbage and the second core pays off (two
// threads on two cores, BiLSTM 1 x 128: 1.5-1.6x one thread with the concurrent collector, 1.8-1.9x
// without it; docs/pretrain.md). The flag only works at startup (setting it later crashes the
// heap) and is not allowed in NODE_OPTIONS, so the command starts itself once more with it.
import { spawn } from "node:child_process";
import { constants } from "node:os";
import { SINGLE_THREADED_GC } from "../nn/data-parallel.js";

/** Subcommands whose `--workers N` (N > 1) trains on several threads. */
const PARALLEL_COMMANDS = new Set(["pretrain", "train"]);

/**
 * Whether this command line trains on several threads in a process started without
 * --single-threaded-gc. `argv` is process.argv (node, script, subcommand, ...): the subcommand is
 * the first argument that is not an option (the program's own options take no values).
 */
export function wantsSingleThreadedGc(argv: readonly string[], execArgv: readonly string[]): boolean {
  if (execArgv.includes(SINGLE_THREADED_GC)) return false;
  const args = argv.slice(2);
  const cmd = args.find((a) => !a.startsWith("-"));
  if (cmd === undefined || !PARALLEL_COMMANDS.has(cmd)) return false;
  let workers: string | undefined;
  for (let i = args.indexOf(cmd) + 1; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--") break;
    if (a === "--workers") workers = args[++i];
    else if (a.startsWith("--workers=")) workers = a.slice("--workers=".length);
  }
  // A value that is not a number is left to the subcommand's own error message.
  return workers !== undefined && /^\d+$/.test(workers) && Number(workers) > 1;
}

/**
 * Runs this command again in a child process with --single-threaded-gc (same node, flags, arguments,
 * standard streams); SIGINT, SIGTERM and SIGHUP are passed on, so an interrupted run still writes
 * its resume checkpoint. Resolves with the child's exit code (128 + signal number when a signal
 * ended it).
 */
export function rerunWithSingleThreadedGc(): Promise<number> {
  const child = spawn(process.execPath, [SINGLE_THREADED_GC, ...process.execArgv, ...process.argv.slice(1)], { stdio: "inherit" });
  const signals = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
  const forward = (sig: NodeJS.Signals): void => {
    child.kill(sig);
  };
  for (const sig of signals) process.on(sig, forward);
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      for (const sig of signals) process.off(sig, forward);
      resolve(code ?? 128 + (signal ? constants.signals[signal] : 0));
    });
  });
}
