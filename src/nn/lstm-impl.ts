/**
 * Which BiLSTM implementation runs. `js` (bilstm.ts): gate arithmetic in plain JS with a read-back
 * per time step, fastest on wasm/cpu. `graph` (bilstm-graph.ts): the whole recurrence as tfjs ops,
 * gradients by tfjs autodiff, no read-back until the loss, so every kernel stays on the device: the
 * one for GPU backends. Same parameters and the same function up to float rounding, so a checkpoint
 * trained with one scores the same with the other. `auto`: graph on a GPU backend, js elsewhere.
 * (A module without tfjs, so the CLI can validate the option without loading it.)
 */
export type LstmImpl = "auto" | "js" | "graph";
export const LSTM_IMPLS: readonly LstmImpl[] = ["auto", "js", "graph"];
