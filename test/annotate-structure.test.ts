import { describe, expect, it } from "vitest";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

// The annotators (src/annotate) and CTXPRO (src/ctxpro) stay easy to change: no module imports itself back
// through others (type-only imports included), no file grows past 800 lines, every export is named where it
// is re-exported, and the shared tagger asks a language's rules (src/annotate/lang/<lang>.ts) instead of
// testing the language itself.
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const DIRS = ["src/annotate", "src/ctxpro"].map((d) => join(ROOT, d));

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...sourceFiles(p));
    else if (e.name.endsWith(".ts")) out.push(p);
  }
  return out;
}

/** Relative module specifiers of a source text: imports of every form (type-only too), re-exports, import(). */
function relativeSpecifiers(text: string): string[] {
  const re = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["'](\.{1,2}\/[^"']+)["']/g;
  return [...text.matchAll(re)].map((m) => m[1]!);
}

/** The import graph of the files under DIRS (edges within them only). */
function importGraph(): Map<string, string[]> {
  const files = DIRS.flatMap(sourceFiles);
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const f of files) {
    const targets = relativeSpecifiers(readFileSync(f, "utf8")).map((s) => resolve(dirname(f), s.replace(/\.js$/, ".ts")));
    graph.set(f, [...new Set(targets.filter((t) => known.has(t)))]);
  }
  return graph;
}

/** The strongly connected components of more than one file, or of one that imports itself (Tarjan). */
function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v)!) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const scc: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      scc.push(relative(ROOT, w));
    } while (w !== v);
    if (scc.length > 1 || graph.get(v)!.includes(v)) out.push(scc.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return out;
}

describe("structure of src/annotate and src/ctxpro", () => {
  it("finds a cycle where there is one (the check is not vacuous)", () => {
    const g = new Map([["a", ["b"]], ["b", ["c"]], ["c", ["a"]], ["d", ["a"]]]);
    expect(cycles(g)).toEqual([["a", "b", "c"].map((x) => relative(ROOT, x)).sort()]);
    expect(relativeSpecifiers('import type { A } from "./a.js";\nexport { b } from "../b.js";')).toEqual(["./a.js", "../b.js"]);
    expect(importGraph().size).toBeGreaterThan(40);
  });

  it("has no import cycle, type-only imports included", () => {
    expect(cycles(importGraph())).toEqual([]);
  });

  it("has no source file over 800 lines", () => {
    const long = DIRS.flatMap(sourceFiles).filter((f) => readFileSync(f, "utf8").split("\n").length > 800);
    expect(long.map((f) => relative(ROOT, f))).toEqual([]);
  });

  it("re-exports by name, never with export *", () => {
    const star = DIRS.flatMap(sourceFiles).filter((f) => /^export \*/m.test(readFileSync(f, "utf8")));
    expect(star.map((f) => relative(ROOT, f))).toEqual([]);
  });

  it("the shared tagger and the engine test no language code: the language's rules decide", () => {
    for (const f of ["src/annotate/morph.ts", "src/annotate/reread.ts", "src/annotate/aligned-retag.ts", "src/ctxpro/engine.ts"]) {
      const text = readFileSync(join(ROOT, f), "utf8");
      expect(text.match(/\blang\s*[!=]==\s*"[a-z]{2}"/g) ?? [], f).toEqual([]);
    }
  });
});
