#!/usr/bin/env node
import { Command } from "commander";
import { VERSION } from "../version.js";
import { registerCommands } from "./commands.js";
import { versionText } from "./version-text.js";
import { exitQuietlyOnEpipe } from "./run.js";
import { rerunWithSingleThreadedGc, wantsSingleThreadedGc } from "./single-threaded-gc.js";

// Training on several threads runs best with each thread collecting its own garbage (single-threaded-gc.ts).
if (wantsSingleThreadedGc(process.argv, process.execArgv)) process.exit(await rerunWithSingleThreadedGc());

const program = new Command();
program
  .name("proneval")
  .description("Evaluate how machine translation handles context: pronouns, CTXPRO phenomena, test suites.")
  .version(versionText(VERSION), "-V, --version", "print the version and the default model's signature")
  // A usage error is one line and a pointer to the help, not the error buried under the whole help.
  .showHelpAfterError("(add --help for the options)")
  // Set before the subcommands are added, so they inherit it: usage errors exit 2 (as argparse,
  // sacrebleu), help and version 0; bad input is 2 and internal errors 1 (see run.ts).
  .exitOverride((err) => {
    process.exit(err.exitCode === 0 ? 0 : 2);
  });
exitQuietlyOnEpipe();
registerCommands(program);
await program.parseAsync(process.argv);
