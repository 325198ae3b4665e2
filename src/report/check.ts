/** Field checks for report inputs: each failure names the file, the field path and what was expected. */
import { InputError } from "../io/errors.js";

export type Json = unknown;

export function isObj(v: Json): v is Record<string, Json> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

export const isNum = (v: Json): v is number => typeof v === "number" && Number.isFinite(v);
export const isNumOrNull = (v: Json): boolean => v === null || isNum(v);
export const isStr = (v: Json): v is string => typeof v === "string";

/** Field checks that throw InputError naming the file, the field path and what was expected. */
export class Checker {
  constructor(
    readonly file: string,
    /** What the file was read as (the kind's description), for the messages. */
    readonly readAs: string,
  ) {}

  fail(path: string, expected: string, got: Json): never {
    const shown = got === undefined ? "nothing" : JSON.stringify(got)?.slice(0, 60);
    throw new InputError(`${path}: expected ${expected}, found ${shown} (read as ${this.readAs})`, this.file);
  }

  obj(v: Json, path: string): Record<string, Json> {
    if (!isObj(v)) this.fail(path, "an object", v);
    return v;
  }

  arr(v: Json, path: string): Json[] {
    if (!Array.isArray(v)) this.fail(path, "an array", v);
    return v;
  }

  num(o: Record<string, Json>, key: string, path: string): number {
    if (!isNum(o[key])) this.fail(`${path}.${key}`, "a number", o[key]);
    return o[key] as number;
  }

  numOrNull(o: Record<string, Json>, key: string, path: string): void {
    if (!isNumOrNull(o[key])) this.fail(`${path}.${key}`, "a number or null", o[key]);
  }

  str(o: Record<string, Json>, key: string, path: string): string {
    if (!isStr(o[key])) this.fail(`${path}.${key}`, "a string", o[key]);
    return o[key] as string;
  }

  optStr(o: Record<string, Json>, key: string, path: string): void {
    if (o[key] !== undefined && !isStr(o[key])) this.fail(`${path}.${key}`, "a string", o[key]);
  }

  strArr(o: Record<string, Json>, key: string, path: string): void {
    const a = this.arr(o[key], `${path}.${key}`);
    a.forEach((x, i) => isStr(x) || this.fail(`${path}.${key}[${i}]`, "a string", x));
  }

  cell(v: Json, path: string): void {
    const c = this.obj(v, path);
    this.num(c, "n", path);
    this.num(c, "correct", path);
    this.num(c, "accuracy", path);
  }

  cells(o: Record<string, Json>, key: string, path: string): void {
    const m = this.obj(o[key], `${path}.${key}`);
    for (const [k, v] of Object.entries(m)) this.cell(v, `${path}.${key}["${k}"]`);
  }

  ci(v: Json, path: string): void {
    if (!Array.isArray(v) || v.length !== 2 || !isNum(v[0]) || !isNum(v[1])) this.fail(path, "a [low, high] pair of numbers", v);
  }

  bootstrap(v: Json, path: string, value = "accuracy"): void {
    if (v === undefined) return;
    const b = this.obj(v, path);
    this.num(b, "samples", path);
    this.num(b, "seed", path);
    this.arr(b.systems, `${path}.systems`).forEach((s, i) => {
      const p = `${path}.systems[${i}]`;
      const o = this.obj(s, p);
      this.str(o, "name", p);
      this.num(o, value, p);
      this.ci(o.ci, `${p}.ci`);
    });
    this.arr(b.comparisons, `${path}.comparisons`).forEach((s, i) => {
      const p = `${path}.comparisons[${i}]`;
      const o = this.obj(s, p);
      this.str(o, "baseline", p);
      this.str(o, "system", p);
      this.num(o, "delta", p);
      this.num(o, "p", p);
      this.ci(o.ci, `${p}.ci`);
    });
  }

  side(v: Json, path: string): void {
    const s = this.obj(v, path);
    this.num(s, "score", path);
    this.num(s, "sentStart", path);
    this.strArr(s, "tokens", path);
    const n = (s.tokens as string[]).length;
    this.arr(s.pronouns, `${path}.pronouns`).forEach((p, i) => {
      const pp = `${path}.pronouns[${i}]`;
      const o = this.obj(p, pp);
      this.str(o, "token", pp);
      this.num(o, "index", pp);
      this.num(o, "score", pp);
      if (o.attention !== undefined) {
        const a = this.arr(o.attention, `${pp}.attention`);
        if (a.length !== n) this.fail(`${pp}.attention`, `one weight per token (${n})`, `${a.length} weights`);
        a.forEach((w, k) => isNum(w) || this.fail(`${pp}.attention[${k}]`, "a number", w));
      }
    });
  }
}

