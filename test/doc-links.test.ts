import { describe, it, expect } from "vitest";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

/**
 * Every relative link of the README and of docs/ (manual and lab) names a file or folder that exists, and a
 * link to a heading of a Markdown page names a heading that page has (GitHub's anchors).
 */
const ROOT = resolve(".");

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? markdownFiles(p) : p.endsWith(".md") ? [p] : [];
  });
}

/** GitHub's heading anchor: lower case, punctuation other than - and _ dropped, spaces to -. */
function anchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[`*_]/g, (c) => (c === "_" ? "_" : ""))
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

function anchorsOf(file: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  let fence = false;
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (/^\s*```/.test(line)) fence = !fence;
    const m = !fence && /^#{1,6}\s+(.*)$/.exec(line);
    if (!m) continue;
    const a = anchor(m[1]!);
    const n = seen.get(a) ?? 0;
    seen.set(a, n + 1);
    out.add(n ? `${a}-${n}` : a);
  }
  return out;
}

/** Links in Markdown text outside code: [text](target) and <img src="target">. */
function links(text: string): string[] {
  const out: string[] = [];
  let fence = false;
  for (const line of text.split("\n")) {
    if (/^\s*```/.test(line)) {
      fence = !fence;
      continue;
    }
    if (fence) continue;
    const plain = line.replace(/`[^`]*`/g, "");
    for (const m of plain.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) out.push(m[1]!);
  }
  return out;
}

const FILES = [join(ROOT, "README.md"), ...markdownFiles(join(ROOT, "docs"))];

describe("links in README and docs/", () => {
  it("reads the README and the manual's index", () => {
    expect(FILES).toContain(join(ROOT, "docs", "index.md"));
    expect(FILES.length).toBeGreaterThan(20);
  });

  it.each(FILES.map((f) => [relative(ROOT, f), f]))("%s: every relative link resolves", (_name, file) => {
    const broken: string[] = [];
    for (const target of links(readFileSync(file, "utf8"))) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, https:, mailto:
      const [path, hash] = target.split("#") as [string, string | undefined];
      const dest = path ? resolve(dirname(file), decodeURI(path)) : file;
      if (!existsSync(dest)) {
        broken.push(`${target} (no such file)`);
        continue;
      }
      if (hash && dest.endsWith(".md") && !anchorsOf(dest).has(hash.toLowerCase())) broken.push(`${target} (no such heading)`);
    }
    expect(broken).toEqual([]);
  });
});

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) return f === "fixtures" ? [] : sourceFiles(p);
    return /\.(ts|sh)$/.test(f) ? [p] : [];
  });
}

describe("docs/ paths named in the code", () => {
  it("every docs/... path in src/, scripts/ and test/ exists", () => {
    const missing: string[] = [];
    for (const file of ["src", "scripts", "test"].flatMap((d) => sourceFiles(join(ROOT, d)))) {
      for (const m of readFileSync(file, "utf8").matchAll(/\bdocs\/[A-Za-z0-9_./-]+/g)) {
        const path = m[0].replace(/[.,;:]+$/, "");
        if (!existsSync(join(ROOT, path))) missing.push(`${relative(ROOT, file)}: ${path}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
