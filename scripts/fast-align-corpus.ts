// The comparison corpus of scripts/compare-fast-align.ts and scripts/bench-align-vs-cpp.ts:
// `reference ||| system output` lines from the shared WMT data into English (first reference
// against every system output, documents in file order, systems sorted), lowercased, tokens
// `\w+|[^\w\s]` (Unicode), empty sides skipped; the first N lines.
import { loadInputs } from "../src/mine/run.js";

const TOKEN = /[\p{L}\p{N}_\p{M}]+|[^\p{L}\p{N}_\p{M}\s]/gu;

export function tokenizeLower(s: string): string[] {
  return s.toLowerCase().match(TOKEN) ?? [];
}

export async function buildComparisonCorpus(dirs: string[], n: number): Promise<string[]> {
  const out: string[] = [];
  for (const ts of await loadInputs(dirs)) {
    const ref = ts.references[0];
    if (ref === undefined) continue;
    for (const sys of ts.systems) {
      for (const d of ts.docs) {
        const refs = d.refs[ref]!;
        const hyps = d.hyps[sys]!;
        for (let k = 0; k < refs.length; k++) {
          const a = tokenizeLower(refs[k]!);
          const b = tokenizeLower(hyps[k] ?? "");
          if (!a.length || !b.length) continue;
          out.push(`${a.join(" ")} ||| ${b.join(" ")}`);
          if (out.length >= n) return out;
        }
      }
    }
  }
  return out;
}

/** fast_align's last "final tension: X" on its stderr, or undefined (no -o). */
export function cppFinalTension(stderr: string): number | undefined {
  const m = [...stderr.matchAll(/final tension: ([\d.e+-]+)/g)];
  return m.length ? Number(m[m.length - 1]![1]) : undefined;
}

/** The C++ fast_align binary (`given`: the script's --fast-align PATH, or FAST_ALIGN_BIN); exits 2 with `script: hint` without one. */
export function fastAlignBin(script: string, hint: string, given: string | undefined): string {
  const bin = given ?? process.env.FAST_ALIGN_BIN;
  if (!bin) {
    process.stderr.write(`${script}: ${hint}\n`);
    process.exit(2);
  }
  return bin;
}
