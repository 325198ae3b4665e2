// CTXPRO public API (re-exported from src/index.ts as `ctxpro`).
export * from "./rules.js";
export * from "./items.js";
export * from "./engine.js";
export * from "./annotators.js";
export * from "./annotations.js";
export * from "./identify.js";
export * from "./extract.js";
export * from "./score.js";
export { mulberry32 } from "./random.js";
