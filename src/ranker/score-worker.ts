/**
 * Worker thread for parallel scoring: loads the same checkpoint on the same backend and scores
 * the shard of prepared sides it is sent. tfjs-wasm is single-threaded under Node, so a second
 * core can only be used through a second thread with its own tfjs instance.
 */
import { parentPort, workerData } from "node:worker_threads";
import { selectBackend } from "../nn/backend.js";
import { loadCheckpoint } from "./checkpoint.js";
import { scoreSides } from "./run-model.js";
import type { PreparedSide } from "../core/scorer.js";

interface Init {
  dir: string;
  backend: string;
  modelDir?: string;
  batchSize: number;
}

const init = workerData as Init;
const port = parentPort!;
try {
  await selectBackend(init.backend);
  const { model } = await loadCheckpoint(init.dir, init.modelDir);
  port.on("message", async (sides: PreparedSide[]) => {
    try {
      const res = await scoreSides(model, sides, { batchSize: init.batchSize });
      port.postMessage({ ok: true, y: Float32Array.from(res, (r) => r.y), u: res.map((r) => r.u) });
    } catch (e) {
      port.postMessage({ ok: false, error: (e as Error).message });
    } finally {
      model.dispose();
      port.close();
    }
  });
  port.postMessage({ ready: true });
} catch (e) {
  port.postMessage({ ok: false, error: (e as Error).message });
  port.close();
}
