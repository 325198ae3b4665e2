import { describe, expect, it } from "vitest";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { LAYERS, importCycles, importGraph, relativeSpecifiers } from "../scripts/import-graph.js";

// Imports run downward through one layer order (LAYERS below). The model folders hold models only:
// the attention ranker (src/ranker) and the masked-pronoun model (src/pretrain) do not import each
// other; what both need lives in src/nn (neural building blocks, model inputs, pair data) or src/core,
// and what combines both lives above them (src/metric/ensemble.ts, src/ontop/).
//
// src/core is the foundation that every layer shares and that is neither file reading (src/io) nor
// English text (src/text): the pair-file record (the contract between the miner and every later
// command), the scorer interface, the one seeded generator and the progress line. It is a folder of its
// own rather than a part of io or text so that those two stay about files and words, and so that
// nothing above has a reason to reach sideways into a model or command folder for a shared type.
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const SRC = join(ROOT, "src");

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...sourceFiles(p));
    else if (/\.(ts|mts|js|mjs)$/.test(e.name)) out.push(p);
  }
  return out;
}

/** Top folder under src/ of a path ("ranker", "nn", ...), or "" for src/*.ts itself. */
function folderOf(path: string): string {
  const rel = relative(SRC, path).split(/[\\/]/);
  return rel.length > 1 ? rel[0]! : "";
}

// The layer order (LAYERS) is defined in scripts/import-graph.ts, which also counts the graph.

/** The layer unit of a path: its top folder under src/, or the file name for src/*.ts itself. */
function unitOf(path: string): string {
  const rel = relative(SRC, path).split(/[\\/]/);
  return rel.length > 1 ? rel[0]! : rel[0]!.replace(/\.js$/, ".ts");
}

function layerOf(unit: string): number {
  return LAYERS.findIndex((l) => l.includes(unit));
}

/** "file -> target (unit a, layer i, imports unit b, layer j)" for every import that does not run downward. */
function upwardImports(files: Array<{ path: string; text: string }>): string[] {
  const bad: string[] = [];
  for (const { path, text } of files) {
    const from = unitOf(path);
    for (const spec of relativeSpecifiers(text)) {
      const to = unitOf(resolve(dirname(path), spec));
      if (to === from) continue;
      const [a, b] = [layerOf(from), layerOf(to)];
      if (a < 0 || b < 0 || b >= a) bad.push(`${relative(ROOT, path)} -> ${spec} (${from}, layer ${a}, imports ${to}, layer ${b})`);
    }
  }
  return bad;
}

/** "file -> target" for every import of a file under src/<from>/ that lands in one of the forbidden folders. */
function violations(from: string, forbidden: string[]): string[] {
  const bad: string[] = [];
  for (const file of sourceFiles(join(SRC, from))) {
    for (const spec of relativeSpecifiers(readFileSync(file, "utf8"))) {
      const target = resolve(dirname(file), spec);
      if (forbidden.includes(folderOf(target))) bad.push(`${relative(ROOT, file)} -> ${spec}`);
    }
  }
  return bad;
}

describe("module boundaries", () => {
  it("finds imports of every form", () => {
    const text = [
      'import { a } from "../ranker/a.js";',
      'import type {\n  B,\n} from "../pretrain/b.js";',
      'export { c } from "./c.js";',
      'const d = await import("../nn/d.js");',
      'new Worker(new URL("../pretrain/zeroshot-worker.js", import.meta.url));',
      'import "./side-effect.js";',
      'import { e } from "@tensorflow/tfjs";',
    ].join("\n");
    expect(relativeSpecifiers(text)).toEqual(["../ranker/a.js", "../pretrain/b.js", "./c.js", "../nn/d.js", "../pretrain/zeroshot-worker.js", "./side-effect.js"]);
  });

  it("reads the model folders (the check is not vacuous)", () => {
    for (const f of ["ranker", "pretrain", "nn"]) {
      const specs = sourceFiles(join(SRC, f)).flatMap((p) => relativeSpecifiers(readFileSync(p, "utf8")));
      expect(specs.length, f).toBeGreaterThan(10);
    }
  });

  it("src/ranker does not import src/pretrain (nor src/ontop, which builds on both)", () => {
    expect(violations("ranker", ["pretrain", "ontop"])).toEqual([]);
  });

  it("src/pretrain does not import src/ranker (nor src/ontop)", () => {
    expect(violations("pretrain", ["ranker", "ontop"])).toEqual([]);
  });

  it("src/nn imports neither model, nor the metric or CLI built on them", () => {
    expect(violations("nn", ["ranker", "pretrain", "ontop", "metric", "cli"])).toEqual([]);
  });

  it("places every folder and root file of src/ in exactly one layer", () => {
    const units = readdirSync(SRC, { withFileTypes: true }).map((e) => e.name).filter((n) => !/\.(d\.ts|map)$/.test(n));
    const placed = LAYERS.flat();
    expect(new Set(placed).size, "a unit listed twice").toBe(placed.length);
    expect([...units].sort()).toEqual([...placed].sort());
  });

  it("rejects an import that runs upward or sideways (the check is not vacuous)", () => {
    const at = (p: string) => join(SRC, p);
    expect(upwardImports([{ path: at("nn/data.ts"), text: 'import type { PairRecord } from "../core/pair-format.js";' }])).toEqual([]);
    expect(upwardImports([{ path: at("nn/data.ts"), text: 'import type { PairRecord } from "../mine/pair-format.js";' }])).toHaveLength(1);
    expect(upwardImports([{ path: at("stats/bootstrap.ts"), text: 'import { mulberry32 } from "../ctxpro/random.js";' }])).toHaveLength(1);
    expect(upwardImports([{ path: at("metric/meta-eval.ts"), text: 'export { x } from "../ctxpro/random.js";' }])).toHaveLength(1);
    expect(upwardImports([{ path: at("ranker/scorer.ts"), text: 'import type { Z } from "../pretrain/zeroshot.js";' }])).toHaveLength(1);
    expect(upwardImports([{ path: at("text/pronouns.ts"), text: 'import { VERSION } from "../version.js";' }])).toEqual([]);
    expect(upwardImports([{ path: at("version.ts"), text: 'import { x } from "./index.js";' }])).toHaveLength(1);
    expect(upwardImports([{ path: at("newfolder/a.ts"), text: 'import { x } from "../io/errors.js";' }])).toHaveLength(1);
  });

  it("no file imports itself through other files, type-only imports included (the check is not vacuous)", () => {
    const at = (p: string) => join(SRC, p);
    const g = importGraph([
      { path: at("ranker/train.ts"), text: 'import { TRAIN_DEFAULTS } from "./defaults.js";' },
      { path: at("ranker/defaults.ts"), text: 'import type { TrainOptions } from "./train.js";' },
      { path: at("ranker/model.ts"), text: 'import type { X } from "./defaults.js";' },
    ]);
    expect(importCycles(g).map((c) => c.map((p) => relative(SRC, p)))).toEqual([["ranker/defaults.ts", "ranker/train.ts"]]);
    const files = sourceFiles(SRC).filter((p) => /\.ts$/.test(p)).map((path) => ({ path, text: readFileSync(path, "utf8") }));
    expect(importCycles(importGraph(files)).map((c) => c.map((p) => relative(ROOT, p)).join(" <-> "))).toEqual([]);
  });

  it("every import under src/ runs downward through the layers", () => {
    const files = sourceFiles(SRC).map((path) => ({ path, text: readFileSync(path, "utf8") }));
    expect(files.length).toBeGreaterThan(100);
    expect(upwardImports(files)).toEqual([]);
  });
});
