// The import graph of src/: files, imports, file-level import cycles (type-only imports included) and imports
// that run upward through the layer order below (test/module-boundaries.test.ts enforces it).
// Usage: node dist/scripts/import-graph.js [SRC_DIR] [--list]
//   SRC_DIR defaults to ./src (give another checkout's src/ to compare); --list prints every cycle and upward import.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { flag, parseArgs } from "./args.js";

/**
 * The layer order, bottom first: a file may import its own folder and the folders of lower layers only;
 * folders of one layer do not import each other. Derived from the import graph: each folder sits above
 * every folder it needs, and folders that must stay independent share a layer (the two models, ranker
 * and pretrain; the pronoun metric and CTXPRO, whose only common ground is core and stats). The root
 * files: "version.ts" (package root and version), "signature.ts" (the signature format) and "index.ts"
 * (the public API, re-exporting every stage).
 */
export const LAYERS: readonly (readonly string[])[] = [
  ["version.ts"],
  ["signature.ts", "io"],
  ["text"],
  ["core"],
  ["stats", "align"],
  ["nn", "annotate", "mine", "contrastive"],
  ["pretrain", "ranker", "apt"],
  ["metric", "ontop", "ctxpro", "muda"],
  ["suite", "report"],
  ["cli"],
  ["index.ts"],
];

/** Relative module specifiers of a source text: static and type imports, re-exports, import(), worker URLs. */
export function relativeSpecifiers(text: string): string[] {
  const out: string[] = [];
  const re = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\bnew\s+URL\s*\(\s*)["'](\.{1,2}\/[^"']+)["']/g;
  for (const m of text.matchAll(re)) out.push(m[1]!);
  return out;
}

export function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...sourceFiles(p));
    else if (/\.(ts|mts)$/.test(e.name) && !e.name.endsWith(".d.ts")) out.push(p);
  }
  return out.sort();
}

/** The source file an import specifier names (`./a.js` is `./a.ts`), or undefined outside the given files. */
function resolveSpecifier(from: string, spec: string, files: ReadonlySet<string>): string | undefined {
  const p = resolve(dirname(from), spec);
  for (const c of [p, p.replace(/\.js$/, ".ts"), p.replace(/\.mjs$/, ".mts"), `${p}.ts`, join(p, "index.ts")]) if (files.has(c)) return c;
  return undefined;
}

/** File -> the files it imports (every form, type-only included). */
export function importGraph(files: Array<{ path: string; text: string }>): Map<string, string[]> {
  const set = new Set(files.map((f) => f.path));
  const g = new Map<string, string[]>();
  for (const { path, text } of files) {
    const targets = relativeSpecifiers(text).map((s) => resolveSpecifier(path, s, set)).filter((t): t is string => t !== undefined);
    g.set(path, [...new Set(targets)]);
  }
  return g;
}

/** Strongly connected components with more than one file, or one file importing itself (Tarjan, iterative). */
export function importCycles(g: ReadonlyMap<string, readonly string[]>): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const out: string[][] = [];
  for (const root of g.keys()) {
    if (idx.has(root)) continue;
    const work: Array<[string, number]> = [[root, 0]];
    idx.set(root, index);
    low.set(root, index++);
    stack.push(root);
    onStack.add(root);
    while (work.length) {
      const top = work[work.length - 1]!;
      const [v, i] = top;
      const next = g.get(v) ?? [];
      if (i < next.length) {
        top[1]++;
        const w = next[i]!;
        if (!idx.has(w)) {
          idx.set(w, index);
          low.set(w, index++);
          stack.push(w);
          onStack.add(w);
          work.push([w, 0]);
        } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
        continue;
      }
      work.pop();
      if (work.length) {
        const u = work[work.length - 1]![0];
        low.set(u, Math.min(low.get(u)!, low.get(v)!));
      }
      if (low.get(v) === idx.get(v)) {
        const comp: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          onStack.delete(w);
          comp.push(w);
        } while (w !== v);
        if (comp.length > 1 || (g.get(v) ?? []).includes(v)) out.push(comp.sort());
      }
    }
  }
  return out;
}

/** The layer unit of a path under src: its top folder, or the file name for src/*.ts itself. */
function unitOf(src: string, path: string): string {
  const rel = relative(src, path).split(/[\\/]/);
  return rel.length > 1 ? rel[0]! : rel[0]!.replace(/\.js$/, ".ts");
}

/** Imports into another unit that is not in a lower layer (or not placed in any layer). */
export function upwardImports(src: string, g: ReadonlyMap<string, readonly string[]>): string[] {
  const layerOf = (u: string) => LAYERS.findIndex((l) => l.includes(u));
  const bad: string[] = [];
  for (const [from, targets] of g) {
    for (const to of targets) {
      const [a, b] = [unitOf(src, from), unitOf(src, to)];
      if (a === b) continue;
      const [la, lb] = [layerOf(a), layerOf(b)];
      if (la < 0 || lb < 0 || lb >= la) bad.push(`${relative(src, from)} -> ${relative(src, to)}`);
    }
  }
  return bad;
}

function main(): void {
  const { opts, args } = parseArgs({
    name: "import-graph",
    summary: "The import graph of src/: files, imports, import cycles and imports that run upward through the layer order.",
    options: { list: flag("print every cycle and upward import") },
    positionals: [{ name: "SRC_DIR", description: "the source folder (another checkout's src/ to compare)", optional: true, defaultText: "./src" }],
  });
  const src = resolve(args[0] ?? "src");
  if (!existsSync(src)) {
    process.stderr.write(`import-graph: ${src}: no such directory\n`);
    process.exit(2);
  }
  const files = sourceFiles(src).map((path) => ({ path, text: readFileSync(path, "utf8") }));
  const g = importGraph(files);
  const cycles = importCycles(g);
  const up = upwardImports(src, g);
  const edges = [...g.values()].reduce((n, t) => n + t.length, 0);
  console.log(`files\t${files.length}\nimports\t${edges}\ncyclic groups\t${cycles.length}\nfiles in cycles\t${cycles.reduce((n, c) => n + c.length, 0)}\nupward imports\t${up.length}`);
  if (opts.list) {
    for (const c of cycles) console.log(`cycle\t${c.map((p) => relative(src, p)).join(" ")}`);
    for (const u of up) console.log(`upward\t${u}`);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
