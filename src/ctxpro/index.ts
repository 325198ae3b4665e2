// CTXPRO public API (re-exported from src/index.ts as `ctxpro`).
export * from "./rules.js";
export * from "./items.js";
export * from "./engine.js";
export * from "./annotators.js";
export * from "./annotations.js";
export * from "./identify.js";
export * from "./extract.js";
export * from "./score.js";
export { mulberry32 } from "../core/prng.js";
export { DEFAULT_LEVERS, leversFromEnv, type Levers, type VerbReadMode } from "../annotate/levers.js";
