import type { Command } from "commander";
import { registerAlign } from "./align.js";
import { registerApt } from "./apt.js";
import { registerMuda } from "./muda.js";
import { registerContrastive } from "./contrastive.js";
import { registerCtxpro } from "./ctxpro.js";
import { registerMine } from "./mine.js";
import { registerPairs } from "./pairs.js";
import { registerStats } from "./stats.js";
import { registerSuite } from "./suite.js";
import { registerTrain } from "./train.js";
import { registerPretrain } from "./pretrain.js";
import { registerScore } from "./score.js";
import { registerCompare } from "./compare.js";
import { registerEval } from "./eval.js";
import { registerMetaEval } from "./meta-eval.js";
import { registerEnsemble } from "./ensemble.js";
import { registerCalibrate } from "./calibrate.js";
import { registerReport } from "./report.js";

// Each subcommand lives in its own file and adds itself here; keep this list sorted by pipeline order.
export function registerCommands(program: Command): void {
  registerAlign(program);
  registerMine(program);
  registerPairs(program);
  registerStats(program);
  registerSuite(program);
  registerCtxpro(program);
  registerContrastive(program);
  registerApt(program);
  registerMuda(program);
  registerPretrain(program);
  registerTrain(program);
  registerEval(program);
  registerMetaEval(program);
  registerEnsemble(program);
  registerCalibrate(program);
  registerScore(program);
  registerCompare(program);
  registerReport(program);
}
