/**
 * Metric score files as Google's mt-metrics-eval (MTME) reads them, so proneval can be meta-evaluated
 * beside other metrics with its tools: `NAME-REF.sys.score` (one `SYSTEM<TAB>SCORE` line per system) and
 * `NAME-REF.seg.score` (a block per system, one line per segment in test-set order), to be placed in
 * `metric-scores/SRC-TGT/`. MTME names systems and references by their file names there
 * (`system-outputs/SRC-TGT/NAME.txt`, `references/SRC-TGT.NAME.txt`); reference names hold no `.` or `-`.
 */
import { join } from "node:path";
import { InputError } from "./errors.js";

/** The MTME name of a system from a file name: the WMT text layout `...hyp.ONLINE-A.en` and MTME's `ONLINE-A.txt` both give `ONLINE-A`. */
export function mtmeSystemName(name: string): string {
  const base = name.replace(/^.*[/\\]/, "").replace(/\.gz$/i, "");
  const wmt = /\.hyp\.(.+)\.[a-z]{2,3}$/.exec(base);
  const out = wmt ? wmt[1]! : base.replace(/\.txt$/i, "");
  if (/\s/.test(out) || out === "") throw new InputError(`system name '${name}' cannot be an MT-metrics-eval system name (no whitespace allowed)`);
  return out;
}

/** The MTME name of a reference: `...ref.refA.en` (WMT text layout) and `de-en.refb.txt` (MTME) give refA and refb; else the name without `.`, `-` and spaces. */
export function mtmeRefName(name: string): string {
  const base = name.replace(/^.*[/\\]/, "").replace(/\.gz$/i, "");
  const wmt = /\.ref\.([^.-]+)\.[a-z]{2,3}$/.exec(base) ?? /^[a-z]{2,3}-[a-z]{2,3}\.([^.-]+)\.txt$/i.exec(base);
  const out = wmt ? wmt[1]! : base.replace(/\.[^.]*$/, "").replace(/[.\-\s]+/g, "");
  return out || "ref";
}

export interface MtmeSystem {
  name: string;
  /** System-level score. */
  score: number;
  /** One score per segment, in test-set order. */
  segments: number[];
}

/** The two score files (path and text) for `metric` with reference `ref` in directory `dir`. */
export function mtmeFiles(dir: string, metric: string, ref: string, systems: MtmeSystem[]): Array<[string, string]> {
  const names = systems.map((s) => mtmeSystemName(s.name));
  const seen = new Set<string>();
  for (const n of names) {
    if (seen.has(n)) throw new InputError(`two systems have the MT-metrics-eval name '${n}'`);
    seen.add(n);
  }
  const n = systems[0]?.segments.length ?? 0;
  for (const s of systems) if (s.segments.length !== n) throw new InputError(`system ${s.name} has ${s.segments.length} segments, ${systems[0]!.name} ${n}`);
  const num = (x: number): string => (Number.isFinite(x) ? String(x) : "0");
  const stem = `${metric}-${mtmeRefName(ref)}`;
  return [
    [join(dir, `${stem}.sys.score`), systems.map((s, i) => `${names[i]}\t${num(s.score)}\n`).join("")],
    [join(dir, `${stem}.seg.score`), systems.map((s, i) => s.segments.map((x) => `${names[i]}\t${num(x)}\n`).join("")).join("")],
  ];
}
