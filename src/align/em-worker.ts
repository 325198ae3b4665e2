// Worker entry of em-parallel.ts: serves E-step, M-step and Viterbi requests on the shared table.
import { parentPort, workerData } from "node:worker_threads";
import { serveEmRequest, type EmReply, type EmRequest, type EmWorkerData } from "./em-parallel.js";
import { failEStep, type EStepShared } from "./estep.js";
import { sides } from "./train.js";
import { TTable } from "./ttable.js";

const d = workerData as EmWorkerData;
const s = sides({ ...d.corpus, vocab: { size: 0 } as never }, d.options.reverse);
const sh: EStepShared = { ...s, rowStart: d.rowStart, cells: d.cells, ctl: d.ctl, sums: d.sums };
const ttable = new TTable(d.rowStart, d.cells, 3, d.sumOrder);

parentPort!.on("message", (req: EmRequest) => {
  let reply: EmReply;
  try {
    reply = serveEmRequest(d, sh, ttable, req);
  } catch (e) {
    if (req.op === "em") failEStep(sh);
    reply = { op: "error", message: e instanceof Error ? e.message : String(e) };
  }
  const transfer = reply.op === "done" && reply.offsets ? [reply.offsets.buffer, reply.pairs!.buffer] : [];
  parentPort!.postMessage(reply, transfer as ArrayBuffer[]);
});
