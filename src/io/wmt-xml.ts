/**
 * Official WMT XML (wmt21 onwards, `xml/<set>.<pair>.all.xml.gz`):
 *   <dataset id> <collection id>? <doc id origlang domain? testsuite?>
 *     <src lang><p><seg id>..</seg></p></src> <ref lang translator>..</ref>* <hyp lang system>..</hyp>*
 * Stream-parsed with saxes from a (gunzipped) byte stream; no DOM is built. Documents marked
 * `testsuite` are skipped; paragraphs are flattened, segment order kept.
 */
import type { Readable } from "node:stream";
import { basename } from "node:path";
import { SaxesParser } from "saxes";
import { InputError } from "./errors.js";
import type { Doc, TestSet } from "./model.js";
import type { ReadOptions } from "./plaintext.js";

import { openByteStream } from "./lines.js";

/** Bytes of a plain or gzipped file, or of standard input for `-` (see lines.ts). */
export { openByteStream };

/** Length of the longest prefix of buf that does not end inside a multi-byte UTF-8 sequence. */
function completePrefix(buf: Uint8Array): number {
  const n = buf.length;
  for (let i = n - 1; i >= 0 && i >= n - 3; i--) {
    const b = buf[i]!;
    if ((b & 0xc0) === 0x80) continue; // continuation byte: keep looking for the lead byte
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return i + need > n ? i : n;
  }
  return n;
}

function countNewlines(buf: Buffer): number {
  let c = 0;
  for (let i = buf.indexOf(0x0a); i !== -1; i = buf.indexOf(0x0a, i + 1)) c++;
  return c;
}

/**
 * Decodes a plain or gzipped file to text chunks, strictly: invalid UTF-8 is an InputError naming
 * the file and line. Chunks are cut at character boundaries, so each is decoded on its own.
 */
export async function* decodeUtf8Chunks(path: string): AsyncGenerator<string> {
  const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  let carry: Buffer = Buffer.alloc(0);
  let linesBefore = 0;
  let first = true;
  const fail = (part: Buffer): never => {
    // Lines never split a character, so decoding line by line finds the offending one.
    let start = 0;
    let line = linesBefore + 1;
    for (;;) {
      const nl = part.indexOf(0x0a, start);
      const end = nl === -1 ? part.length : nl;
      try {
        decoder.decode(part.subarray(start, end));
      } catch {
        throw new InputError("invalid UTF-8", path, line);
      }
      if (nl === -1) break;
      start = nl + 1;
      line++;
    }
    throw new InputError("invalid UTF-8", path, line);
  };
  const stream = openByteStream(path);
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      const buf = carry.length ? Buffer.concat([carry, chunk]) : chunk;
      const cut = completePrefix(buf);
      const part = buf.subarray(0, cut);
      carry = Buffer.from(buf.subarray(cut));
      let text: string;
      try {
        text = decoder.decode(part);
      } catch {
        fail(part);
      }
      if (first && text!.charCodeAt(0) === 0xfeff) text = text!.slice(1);
      first = false;
      linesBefore += countNewlines(part);
      yield text!;
    }
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw new InputError(`cannot read (${(e as Error).message})`, path);
  } finally {
    stream.destroy();
  }
  if (carry.length) fail(carry);
}

interface Side {
  kind: "src" | "ref" | "hyp";
  name: string;
  line: number;
  ids: string[];
  texts: string[];
  segLines: number[];
}

interface OpenDoc {
  id: string;
  domain?: string;
  line: number;
  src?: Side;
  refs: Side[];
  hyps: Side[];
}

const XML_NAME = /^(.+?)\.([a-z]{2,3}(?:_[a-z]+)?)-([a-z]{2,3}(?:_[a-z]+)?)(?:\.all)?\.xml(?:\.gz)?$/i;

/** Set name and languages from a file name like `wmttest2023.ru-en.all.xml.gz`, when it has that shape. */
export function parseXmlFileName(path: string): { name: string; srcLang: string; tgtLang: string } | undefined {
  const m = XML_NAME.exec(basename(path));
  return m ? { name: m[1]!, srcLang: m[2]!.toLowerCase(), tgtLang: m[3]!.toLowerCase() } : undefined;
}

const sideLabel = (s: Side): string =>
  s.kind === "src" ? "source" : s.kind === "ref" ? `reference "${s.name}"` : `system "${s.name}"`;

/**
 * Reads one WMT XML file into a TestSet. Errors (InputError, naming the file): malformed XML (with
 * line), invalid UTF-8 (with line), a document whose references/systems have a different number of
 * segments or different segment ids than its source (with doc id), empty source/reference segments
 * unless allowEmpty. A reference or system absent from some documents is dropped with a warning.
 */
export async function readWmtXml(path: string, opts: ReadOptions = {}): Promise<TestSet> {
  const parser = new SaxesParser({ position: true });
  const docs: Doc[] = [];
  const docIds = new Map<string, number>();
  const refOrder: string[] = [];
  const sysSet = new Set<string>();
  const emptyHyps = new Map<string, number>();
  let datasetId: string | undefined;
  let srcLang: string | undefined;
  let tgtLang: string | undefined;
  let skipDepth = 0; // > 0 while inside a skipped (testsuite) document
  let skipped = 0;
  let doc: OpenDoc | undefined;
  let side: Side | undefined;
  let seg: { id: string; text: string; line: number } | undefined;

  const structural = (message: string, line = parser.line): never => {
    throw new InputError(message, path, line);
  };

  parser.on("error", (err) => {
    const msg = err.message.replace(/^\d+:\d+: /, "");
    throw new InputError(`malformed XML: ${msg} (column ${parser.column + 1})`, path, parser.line);
  });

  parser.on("opentag", (tag) => {
    const a = tag.attributes as Record<string, string>;
    // Self-closing tags get a closetag event too, so depth counting needs no special case.
    if (skipDepth > 0) {
      skipDepth++;
      return;
    }
    switch (tag.name) {
      case "dataset":
        datasetId ??= a.id;
        return;
      case "doc": {
        if (doc) structural(`<doc> inside document "${doc.id}"`);
        if (a.testsuite !== undefined) {
          skipDepth = 1;
          skipped++;
          return;
        }
        if (a.id === undefined || a.id === "") structural("<doc> without an id attribute");
        const prev = docIds.get(a.id!);
        if (prev !== undefined) structural(`duplicate document id "${a.id}" (first at line ${prev})`);
        docIds.set(a.id!, parser.line);
        doc = { id: a.id!, line: parser.line, refs: [], hyps: [] };
        if (a.domain !== undefined) doc.domain = a.domain;
        return;
      }
      case "src":
      case "ref":
      case "hyp": {
        if (!doc) structural(`<${tag.name}> outside a <doc>`);
        if (side) structural(`<${tag.name}> inside <${side.kind}>`);
        let name: string;
        if (tag.name === "src") {
          if (doc!.src) structural(`document "${doc!.id}" has a second <src>`);
          name = "src";
          if (a.lang) srcLang ??= a.lang;
        } else if (tag.name === "ref") {
          // liv-en (wmt22) has refs without a translator: name them A, B, ... by position.
          name = a.translator || String.fromCharCode(65 + doc!.refs.length);
          if (doc!.refs.some((r) => r.name === name)) structural(`document "${doc!.id}" has two references named "${name}"`);
          if (a.lang) tgtLang ??= a.lang;
        } else {
          if (!a.system) structural(`<hyp> without a system attribute in document "${doc!.id}"`);
          name = a.system!;
          if (doc!.hyps.some((h) => h.name === name)) structural(`document "${doc!.id}" has two outputs of system "${name}"`);
          if (a.lang) tgtLang ??= a.lang;
        }
        side = { kind: tag.name, name, line: parser.line, ids: [], texts: [], segLines: [] };
        if (tag.name === "src") doc!.src = side;
        else if (tag.name === "ref") doc!.refs.push(side);
        else doc!.hyps.push(side);
        return;
      }
      case "seg":
        if (!side) structural("<seg> outside <src>, <ref> or <hyp>");
        if (seg) structural("<seg> inside another <seg>");
        seg = { id: a.id ?? String(side!.ids.length + 1), text: "", line: parser.line };
        return;
      default:
        // <collection>, <p> and any markup inside a segment carry no segments of their own.
        return;
    }
  });

  const onText = (t: string): void => {
    if (seg && skipDepth === 0) seg.text += t;
  };
  parser.on("text", onText);
  parser.on("cdata", onText);

  parser.on("closetag", (tag) => {
    if (skipDepth > 0) {
      skipDepth--;
      return;
    }
    switch (tag.name) {
      case "seg":
        side!.ids.push(seg!.id);
        // Some system outputs (PROMT, wmt22/23) start with a byte-order mark that the text files lack.
        side!.texts.push(seg!.text.charCodeAt(0) === 0xfeff ? seg!.text.slice(1) : seg!.text);
        side!.segLines.push(seg!.line);
        seg = undefined;
        return;
      case "src":
      case "ref":
      case "hyp":
        side = undefined;
        return;
      case "doc":
        docs.push(finishDoc(doc!));
        doc = undefined;
        return;
    }
  });

  const finishDoc = (d: OpenDoc): Doc => {
    if (!d.src) structural(`document "${d.id}" has no <src>`, d.line);
    const src = d.src!;
    for (const s of [...d.refs, ...d.hyps]) {
      if (s.texts.length !== src.texts.length) {
        structural(
          `document "${d.id}": ${sideLabel(s)} has ${s.texts.length} segments, the source has ${src.texts.length}`,
          s.line,
        );
      }
      const k = s.ids.findIndex((id, i) => id !== src.ids[i]);
      if (k >= 0) {
        structural(
          `document "${d.id}": ${sideLabel(s)} segment ${k + 1} has id "${s.ids[k]}", the source has "${src.ids[k]}"`,
          s.segLines[k],
        );
      }
    }
    for (const s of [src, ...d.refs]) {
      if (opts.allowEmpty) break;
      const k = s.texts.findIndex((t) => t.trim() === "");
      if (k >= 0) {
        structural(
          `document "${d.id}": empty ${sideLabel(s)} segment id "${s.ids[k]}" (use allowEmpty / --allow-empty to accept)`,
          s.segLines[k],
        );
      }
    }
    const out: Doc = { id: d.id, segIds: src.ids, src: src.texts, refs: {}, hyps: {} };
    if (d.domain !== undefined) out.domain = d.domain;
    for (const r of d.refs) {
      out.refs[r.name] = r.texts;
      if (!refOrder.includes(r.name)) refOrder.push(r.name);
    }
    for (const h of d.hyps) {
      out.hyps[h.name] = h.texts;
      sysSet.add(h.name);
      const empty = h.texts.reduce((n, t) => n + (t.trim() === "" ? 1 : 0), 0);
      if (empty > 0) emptyHyps.set(h.name, (emptyHyps.get(h.name) ?? 0) + empty);
    }
    return out;
  };

  for await (const chunk of decodeUtf8Chunks(path)) parser.write(chunk);
  parser.close();

  if (docs.length === 0) {
    throw new InputError(skipped > 0 ? `only test-suite documents (${skipped}), no test set` : "no <doc> elements, not a WMT XML test set", path);
  }

  const warnings: string[] = [];
  // Consumers may rely on every listed reference/system existing in every document.
  const covering = (name: string, pick: (d: Doc) => Record<string, string[]>): boolean => docs.every((d) => name in pick(d));
  // Names sort with the primary first (A < B, refA < refB); element order in the XML is arbitrary.
  refOrder.sort();
  const references = refOrder.filter((r) => covering(r, (d) => d.refs));
  for (const r of refOrder) {
    if (references.includes(r)) continue;
    const n = docs.filter((d) => r in d.refs).length;
    warnings.push(`reference "${r}" dropped: present in only ${n} of ${docs.length} documents (${path})`);
    for (const d of docs) delete d.refs[r];
  }
  if (references.length === 0) {
    throw new InputError(refOrder.length ? "no reference covers every document" : "no <ref> elements (a reference is required)", path);
  }
  const systems = [...sysSet].sort().filter((s) => {
    if (covering(s, (d) => d.hyps)) return true;
    const n = docs.filter((d) => s in d.hyps).length;
    warnings.push(`system "${s}" dropped: present in only ${n} of ${docs.length} documents (${path})`);
    for (const d of docs) delete d.hyps[s];
    return false;
  });
  for (const [s, n] of emptyHyps) {
    if (systems.includes(s)) warnings.push(`system "${s}": ${n} empty segment(s) kept (${path})`);
  }

  const fromName = parseXmlFileName(path);
  srcLang ??= fromName?.srcLang;
  tgtLang ??= fromName?.tgtLang;
  if (!srcLang || !tgtLang) throw new InputError("cannot tell the language pair (no lang attributes, no xx-yy in the file name)", path);
  const ts: TestSet = {
    name: datasetId ?? fromName?.name ?? basename(path),
    langPair: `${srcLang}-${tgtLang}`,
    srcLang,
    tgtLang,
    references,
    systems,
    documentIds: "given",
    format: "wmt-xml",
    files: [path],
    docs,
  };
  if (warnings.length > 0) ts.warnings = warnings;
  return ts;
}
