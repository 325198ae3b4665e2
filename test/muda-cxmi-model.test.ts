/**
 * Forced decoding for P-CXMI (`muda cxmi --model-dir`) on a tiny random Marian model that the test
 * builds (scripts/make-tiny-marian.ts): its numbers mean nothing, but they must be finite
 * log-probabilities that equal a step-by-step recomputation through transformers.js itself.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { AutoModelForSeq2SeqLM, Tensor, env } from "@xenova/transformers";
import { writeTinyMarian } from "../scripts/make-tiny-marian.js";
import { ForcedDecoder, logSoftmaxAt, scoreWithContext } from "../src/muda/forced-decode.js";
import { registerMuda } from "../src/cli/muda.js";
import { runCli } from "./cli-helper.js";

const dir = mkdtempSync(join(tmpdir(), "tiny-marian-"));
const modelDir = join(dir, "tiny-marian");
let dec: ForcedDecoder;

beforeAll(async () => {
  writeTinyMarian(modelDir);
  dec = await ForcedDecoder.load(modelDir);
});
afterAll(async () => {
  await dec?.dispose();
});
afterEach(() => {
  process.exitCode = 0;
});

/** log q(target_i | start, prefix, target_<i, source), one decoder call per step through transformers.js' own forward pass. */
async function stepByStep(source: number[], prefix: number[], target: number[]): Promise<number[]> {
  env.localModelPath = dirname(modelDir);
  env.allowRemoteModels = false;
  env.useFSCache = false;
  const model = await AutoModelForSeq2SeqLM.from_pretrained(basename(modelDir), { quantized: false, local_files_only: true });
  const ids = (v: number[]) => new Tensor("int64", BigInt64Array.from(v.map(BigInt)), [1, v.length]);
  const out: number[] = [];
  try {
    for (let i = 0; i < target.length; i++) {
      const decoderIds = [dec.startId, ...prefix, ...target.slice(0, i)];
      const r = await model.forward({ input_ids: ids(source), attention_mask: ids(source.map(() => 1)), decoder_input_ids: ids(decoderIds) });
      const [, T, V] = r.logits.dims as [number, number, number];
      expect(T).toBe(decoderIds.length);
      out.push(logSoftmaxAt(r.logits.data as Float32Array, (T - 1) * V, V, target[i]!));
    }
  } finally {
    await model.dispose();
  }
  return out;
}

describe("forced decoding on a tiny random Marian model", () => {
  it("gives finite log-probabilities equal to a step-by-step recomputation, without and with a forced context prefix", async () => {
    const source = dec.sourceIds(dec.encode("She was tired."));
    expect(source[source.length - 1]).toBe(dec.eosId); // Marian: </s> after the source
    const target = [...dec.encode("Sie war müde."), dec.eosId];
    expect(dec.tokens(target).slice(0, 2)).toEqual(["▁Sie", "▁war"]);
    const lp = await dec.logprobs(source, [], target);
    expect(lp).toHaveLength(target.length);
    for (const x of lp) {
      expect(Number.isFinite(x)).toBe(true);
      expect(x).toBeLessThan(0);
    }
    const again = await stepByStep(source, [], target);
    lp.forEach((x, i) => expect(Math.abs(x - again[i]!)).toBeLessThan(1e-4));

    const ctxSource = dec.sourceIds([...dec.encode("The doctor came."), ...dec.encode("She was tired.")]);
    const prefix = dec.encode("Die Ärztin kam.");
    const withCtx = await dec.logprobs(ctxSource, prefix, target);
    const againCtx = await stepByStep(ctxSource, prefix, target);
    withCtx.forEach((x, i) => expect(Math.abs(x - againCtx[i]!)).toBeLessThan(1e-4));
    // The context changes the probabilities (the model reads it): P-CXMI is not identically zero.
    expect(Math.max(...withCtx.map((x, i) => Math.abs(x - lp[i]!)))).toBeGreaterThan(1e-3);
  });

  it("a log-probability row is a distribution: exp of every token's log-probability sums to 1", async () => {
    const source = dec.sourceIds(dec.encode("Yes."));
    const V = Number(dec.config.vocab_size);
    const all = await Promise.all(Array.from({ length: V }, (_, k) => dec.logprobs(source, [], [k])));
    expect(all.reduce((a, [x]) => a + Math.exp(x!), 0)).toBeCloseTo(1, 5);
  });

  it("scores a document twice with the same target tokens; the first sentence has no context, so no P-CXMI", async () => {
    const r = await scoreWithContext(dec, [{ id: "d", src: ["The doctor came.", "She was tired."], tgt: ["Die Ärztin kam.", "Sie war müde."] }], { contextSize: 1, separator: " " });
    expect(r.without.map((s) => s.tokens)).toEqual(r.with.map((s) => s.tokens));
    expect(r.without[0]!.tokens[r.without[0]!.tokens.length - 1]).toBe("</s>");
    expect(r.with[0]!.logprobs).toEqual(r.without[0]!.logprobs);
    expect(r.with[1]!.logprobs).not.toEqual(r.without[1]!.logprobs);
    // A separator token: the context sentences end with </s>.
    const s = await scoreWithContext(dec, [{ id: "d", src: ["The doctor came.", "She was tired."], tgt: ["Die Ärztin kam.", "Sie war müde."] }], { contextSize: 1, separator: "</s>" });
    expect(dec.separatorIds("</s>")).toEqual([dec.eosId]);
    expect(s.with[1]!.logprobs).not.toEqual(r.with[1]!.logprobs);
    expect(r.shortened).toBe(0);
  });

  it("a context longer than the model's positions loses its oldest sentences first", async () => {
    // Words the tiny vocabulary lacks are spelt in single characters: about 60 tokens, nearly the 64 positions.
    const long = "Krankenhausverwaltungsgebäude Krankenhausverwaltungsgebäude";
    expect(dec.encode(long).length).toBeGreaterThan(50);
    const src = ["Hospital administration building, hospital administration building.", "Yes.", "No."];
    const r = await scoreWithContext(dec, [{ id: "d", src, tgt: [long, "Ja.", "Nein."] }], { contextSize: 2, separator: " " });
    // Segments 2 and 3 would carry the long sentence as context: it is dropped, "Ja." stays for segment 3.
    expect(r.shortened).toBe(2);
    const alone = await scoreWithContext(dec, [{ id: "d", src: src.slice(1), tgt: ["Ja.", "Nein."] }], { contextSize: 1, separator: " " });
    expect(r.with[2]!.logprobs).toEqual(alone.with[1]!.logprobs);
    for (const seg of r.with) for (const x of seg.logprobs) expect(Number.isFinite(x)).toBe(true);
  });

  it("muda cxmi --model-dir: the report, and the saved scores give the same report read back as files", async () => {
    const src = join(dir, "src.en");
    const ref = join(dir, "ref.de");
    const docs = join(dir, "docs.txt");
    writeFileSync(src, "The doctor came.\nShe was tired.\nYes.\nThe house was good.\n");
    writeFileSync(ref, "Die Ärztin kam.\nSie war müde.\nJa.\nDas Haus war gut.\n");
    writeFileSync(docs, "a\na\na\nb\n");
    const prefix = join(dir, "scores");
    const r = await runCli(registerMuda, "muda", ["cxmi", "--model-dir", modelDir, "-s", src, "-r", ref, "--docs", docs, "-l", "en-de", "--save-scores", prefix, "--json", "-q"]);
    expect(r.code, r.err).toBe(0);
    const rep = JSON.parse(r.out);
    expect(rep.signature).toMatch(/^muda-cxmi\|pair:en-de\|model:tiny-marian\|onnx:[0-9a-f]{12}\|ctx:1\|sep:space\|subword:sp\|eos:yes\|tagger:proneval-morph\|/);
    expect(rep.segments).toHaveLength(4);
    expect(rep.segments.map((s: { doc: string }) => s.doc)).toEqual(["a", "a", "a", "b"]);
    // First sentences of their documents have no context: P-CXMI exactly 0.
    expect(rep.segments[0].pcxmi).toBe(0);
    expect(rep.segments[3].pcxmi).toBe(0);
    expect(rep.segments[1].pcxmi).not.toBe(0);
    expect(rep.segments[1].text).toBe("Sie war müde.");
    expect(Number.isFinite(rep.summary.cxmi)).toBe(true);
    const saved = readFileSync(`${prefix}.with.jsonl`, "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(saved[1].tokens[0]).toBe("▁Sie");
    const back = await runCli(registerMuda, "muda", ["cxmi", "--without-context", `${prefix}.without.jsonl`, "--with-context", `${prefix}.with.jsonl`, "-s", src, "-r", ref, "-l", "en-de", "--json", "-q"]);
    expect(back.code, back.err).toBe(0);
    const rep2 = JSON.parse(back.out);
    expect(rep2.summary).toEqual(rep.summary);
    expect(rep2.segments.map((s: { pcxmi: number }) => s.pcxmi)).toEqual(rep.segments.map((s: { pcxmi: number }) => s.pcxmi));
  });
});
