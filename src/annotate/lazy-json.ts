/**
 * A large JSON object read lazily: one scan of the text finds where each top-level value lies, and a
 * value is parsed the first time it is asked for. For a lexicon of which a text uses a few thousand
 * entries (German nouns: 14 MB, 67 thousand entries) this is several times faster than JSON.parse and
 * keeps one string instead of a million small objects. Same answers as JSON.parse for valid JSON: a
 * key given twice keeps its last value.
 */
export class LazyJsonObject<T> {
  /** key -> [start, end) of its value in the text. */
  private readonly spans = new Map<string, number>();
  private readonly bounds: number[] = [];
  private readonly parsed = new Map<string, T>();

  constructor(private readonly text: string) {
    let i = skipWs(text, 0);
    if (text[i] !== "{") throw new SyntaxError("LazyJsonObject: the text is not a JSON object");
    i = skipWs(text, i + 1);
    if (text[i] === "}") return;
    for (;;) {
      if (text[i] !== '"') throw new SyntaxError(`LazyJsonObject: expected a key at ${i}`);
      const q = stringEnd(text, i);
      const raw = text.slice(i + 1, q);
      const key = raw.includes("\\") ? (JSON.parse(`"${raw}"`) as string) : raw;
      i = skipWs(text, q + 1);
      if (text[i] !== ":") throw new SyntaxError(`LazyJsonObject: expected ':' at ${i}`);
      const start = skipWs(text, i + 1);
      const end = valueEnd(text, start);
      this.spans.set(key, this.bounds.length);
      this.bounds.push(start, end);
      i = skipWs(text, end);
      if (text[i] === ",") i = skipWs(text, i + 1);
      else if (text[i] === "}") break;
      else throw new SyntaxError(`LazyJsonObject: expected ',' or '}' at ${i}`);
    }
  }

  get size(): number {
    return this.spans.size;
  }

  has(key: string): boolean {
    return this.spans.has(key);
  }

  /** The value of `key` (an own key only), parsed on first use; undefined when absent. */
  get(key: string): T | undefined {
    let v = this.parsed.get(key);
    if (v !== undefined) return v;
    const b = this.spans.get(key);
    if (b === undefined) return undefined;
    v = JSON.parse(this.text.slice(this.bounds[b]!, this.bounds[b + 1]!)) as T;
    this.parsed.set(key, v);
    return v;
  }
}

function skipWs(s: string, i: number): number {
  for (;;) {
    const c = s.charCodeAt(i);
    if (c !== 32 && c !== 10 && c !== 13 && c !== 9) return i;
    i++;
  }
}

/** Index of the quote closing the string that opens at i. */
function stringEnd(s: string, i: number): number {
  for (let j = i + 1; ; ) {
    const q = s.indexOf('"', j);
    if (q < 0) throw new SyntaxError("LazyJsonObject: unterminated string");
    let back = 0;
    while (s.charCodeAt(q - 1 - back) === 92) back++;
    if (back % 2 === 0) return q;
    j = q + 1;
  }
}

/** Index just past the value that starts at i. */
function valueEnd(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (c === 34) return stringEnd(s, i) + 1;
  if (c === 123 || c === 91) {
    let depth = 0;
    for (let j = i; j < s.length; j++) {
      const d = s.charCodeAt(j);
      if (d === 34) j = stringEnd(s, j);
      else if (d === 123 || d === 91) depth++;
      else if (d === 125 || d === 93) {
        if (--depth === 0) return j + 1;
      }
    }
    throw new SyntaxError("LazyJsonObject: unterminated value");
  }
  // A number, true, false or null: up to the next delimiter.
  let j = i;
  while (j < s.length && !",}] \n\r\t".includes(s[j]!)) j++;
  return j;
}
