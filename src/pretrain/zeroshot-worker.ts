/**
 * Worker thread for the ensemble scorer: loads the masked-pronoun model on the same backend and
 * returns the zero-shot values of the prepared sides it is sent, so the model runs on a second
 * core while the ranker scores (tfjs-wasm is single-threaded under Node).
 */
import { parentPort, workerData } from "node:worker_threads";
import { selectBackend } from "../nn/backend.js";
import type { PreparedSide } from "../core/scorer.js";
import { loadPronounLm } from "./checkpoint.js";
import { zeroShotScores } from "./zeroshot.js";

interface Init {
  dir: string;
  backend: string;
  batchSize: number;
}

const init = workerData as Init;
const port = parentPort!;
try {
  await selectBackend(init.backend);
  const { lm } = loadPronounLm(init.dir);
  port.on("message", (sides: PreparedSide[]) => {
    try {
      port.postMessage({ ok: true, res: zeroShotScores(lm, sides, init.batchSize) });
    } catch (e) {
      port.postMessage({ ok: false, error: (e as Error).message });
    } finally {
      lm.dispose();
      port.close();
    }
  });
  port.postMessage({ ready: true });
} catch (e) {
  port.postMessage({ ok: false, error: (e as Error).message });
  port.close();
}
