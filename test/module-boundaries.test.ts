import { describe, expect, it } from "vitest";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

// The model folders hold models only (issue 23): the attention ranker (src/ranker) and the
// masked-pronoun model (src/pretrain) do not import each other; what both need lives in src/nn
// (neural building blocks, model inputs, pair data) or src/metric (the scorer interface), and
// what combines both lives outside them (src/metric/ensemble.ts, src/ontop/).
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const SRC = join(ROOT, "src");

/** Relative module specifiers of a source text: static and type imports, re-exports, import(), worker URLs. */
function relativeSpecifiers(text: string): string[] {
  const out: string[] = [];
  const re = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\bnew\s+URL\s*\(\s*)["'](\.{1,2}\/[^"']+)["']/g;
  for (const m of text.matchAll(re)) out.push(m[1]!);
  return out;
}

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
});
