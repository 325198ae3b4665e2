import { describe, expect, it } from "vitest";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { Command } from "commander";
import {
  alignBidirectional,
  deserializeModel,
  forceAlign,
  parsePharaoh,
  posteriors,
  serializeModel,
  symmetrize,
  toPharaoh,
  trainAligner,
  type Link,
} from "../src/align/index.js";
import { computeDLogZ, computeZ, feature, unnormalizedProb } from "../src/align/diagonal.js";
import { workerScript } from "../src/align/parallel.js";
import { registerAlign } from "../src/cli/align.js";
import { formatG } from "../src/align/command.js";

/** Small deterministic generator for fixtures (the aligner itself uses no randomness). */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/**
 * Synthetic parallel corpus with known links: target word "t<k>" translates source word "s<k>";
 * target order is the source order with some adjacent swaps; some sentences get an extra
 * unaligned target word "x" (which should align to NULL).
 */
function toyCorpus(n: number, seed = 7): { src: string[][]; tgt: string[][]; gold: Link[][] } {
  const rnd = lcg(seed);
  const src: string[][] = [];
  const tgt: string[][] = [];
  const gold: Link[][] = [];
  for (let k = 0; k < n; k++) {
    const len = 3 + Math.floor(rnd() * 6);
    const words: number[] = [];
    while (words.length < len) {
      const w = Math.floor(rnd() * 40);
      if (!words.includes(w)) words.push(w);
    }
    const order = words.map((_, i) => i);
    for (let i = 0; i + 1 < len; i++) {
      if (rnd() < 0.25) {
        [order[i], order[i + 1]] = [order[i + 1]!, order[i]!];
        i++;
      }
    }
    const t = order.map((i) => `t${words[i]}`);
    const links: Link[] = order.map((i, j) => [i, j]);
    if (rnd() < 0.3) t.push("x");
    src.push(words.map((w) => `s${w}`));
    tgt.push(t);
    gold.push(links);
  }
  return { src, tgt, gold };
}

function prf(hyp: Link[][], gold: Link[][]): { p: number; r: number } {
  let tp = 0;
  let nh = 0;
  let ng = 0;
  for (let k = 0; k < gold.length; k++) {
    const g = new Set(gold[k]!.map(([i, j]) => `${i}-${j}`));
    ng += g.size;
    nh += hyp[k]!.length;
    for (const [i, j] of hyp[k]!) if (g.has(`${i}-${j}`)) tp++;
  }
  return { p: tp / nh, r: tp / ng };
}

describe("diagonal prior", () => {
  it("closed-form Z and exact d log Z / d tension match brute-force sums", () => {
    for (const [i, m, n, t] of [
      [3, 10, 12, 4],
      [1, 5, 30, 0.5],
      [7, 20, 9, 10],
    ] as const) {
      let z = 0;
      let num = 0;
      for (let j = 1; j <= n; j++) {
        z += unnormalizedProb(i, j, m, n, t);
        num += feature(i, j, m, n) * unnormalizedProb(i, j, m, n, t);
      }
      expect(computeZ(i, m, n, t)).toBeCloseTo(z, 10);
      expect(computeDLogZ(i, m, n, t, true)).toBeCloseTo(num / z, 10);
      // fast_align's buggy version is kept for compatibility and is visibly different.
      expect(Math.abs(computeDLogZ(i, m, n, t, false) - num / z)).toBeGreaterThan(1e-3);
    }
  });
});

describe("training", () => {
  const { src, tgt, gold } = toyCorpus(400);

  it("recovers the known alignments of a toy corpus in both directions", async () => {
    const r = await alignBidirectional(src, tgt, { threads: 1 });
    const get = (l: typeof r.forward) => Array.from({ length: l.count }, (_, k) => l.get(k));
    const fwd = prf(get(r.forward), gold);
    const rev = prf(get(r.reverse), gold);
    const sym = prf(get(r.symmetrized), gold);
    expect(fwd.p).toBeGreaterThan(0.97);
    expect(fwd.r).toBeGreaterThan(0.97);
    expect(rev.p).toBeGreaterThan(0.97);
    expect(sym.p).toBeGreaterThan(0.97);
    expect(sym.r).toBeGreaterThan(0.97);
    // The unaligned extra target word "x" goes to NULL in the forward direction.
    for (let k = 0; k < src.length; k++) {
      const x = tgt[k]!.indexOf("x");
      if (x >= 0) expect(r.forward.get(k).some(([, j]) => j === x)).toBe(false);
    }
    for (let k = 0; k < 50; k++) {
      expect(r.symmetrized.get(k)).toEqual(symmetrize(r.forward.get(k), r.reverse.get(k), "grow-diag-final-and", src[k]!.length, tgt[k]!.length));
    }
    expect(r.reverseModel.reverse).toBe(true);
    // fast_align's tension gradient (the default: ComputeZ with m and n swapped) and the exact one
    // settle on different tensions; both stay inside fast_align's [0.1, 14] clamp.
    const exact = trainAligner(src, tgt, { exactTensionGradient: true }).tension;
    expect(exact).not.toBe(r.forwardModel.tension);
    for (const t of [exact, r.forwardModel.tension]) expect(t >= 0.1 && t <= 14).toBe(true);
  });

  it("plain IBM Model 1 options (no -d -o -v) also learn the toy corpus", () => {
    const m = trainAligner(src, tgt, { favorDiagonal: false, optimizeTension: false, variationalBayes: false });
    const got = prf(Array.from({ length: m.links.count }, (_, k) => m.links.get(k)), gold);
    expect(got.p).toBeGreaterThan(0.95);
    expect(m.stats).toHaveLength(5);
    expect(m.stats[3]!.logLikelihood).toBeGreaterThan(m.stats[1]!.logLikelihood);
  });

  it("gives identical output on two runs", () => {
    const a = trainAligner(src, tgt);
    const b = trainAligner(src, tgt);
    expect(Buffer.from(a.links.pairs.buffer).equals(Buffer.from(b.links.pairs.buffer))).toBe(true);
    expect(Array.from(a.links.offsets)).toEqual(Array.from(b.links.offsets));
    expect(Buffer.from(a.ttable.cells.buffer).equals(Buffer.from(b.ttable.cells.buffer))).toBe(true);
    expect(a.tension).toBe(b.tension);
  });

  it.skipIf(!workerScript())("two worker threads give the same result as the sequential path", async () => {
    const s2 = [...src, ...src.slice(0, 50)];
    const t2 = [...tgt, ...tgt.slice(0, 50)];
    const seq = await alignBidirectional(s2, t2, { threads: 1 });
    const par = await alignBidirectional(s2, t2, { threads: 2 });
    expect(par.threads).toBe(2);
    for (const key of ["forward", "reverse", "symmetrized"] as const) {
      expect(Array.from(par[key].pairs)).toEqual(Array.from(seq[key].pairs));
      expect(Array.from(par[key].offsets)).toEqual(Array.from(seq[key].offsets));
    }
    expect(Array.from(par.reverseModel.ttable.cells)).toEqual(Array.from(seq.reverseModel.ttable.cells));
    expect(par.forwardModel.tension).toBe(seq.forwardModel.tension);
  });

  it("training on distinct pairs weighted by their counts gives the same alignments", async () => {
    const s2 = [...src.slice(0, 150), ...src.slice(0, 100)];
    const t2 = [...tgt.slice(0, 150), ...tgt.slice(0, 100)];
    const dd = await alignBidirectional(s2, t2, { threads: 1 });
    const plain = await alignBidirectional(s2, t2, { threads: 1, dedupe: false });
    expect(dd.uniquePairs).toBe(150);
    expect(plain.uniquePairs).toBe(250);
    expect(dd.forward.count).toBe(250);
    for (let k = 0; k < 250; k++) {
      expect(dd.forward.get(k)).toEqual(plain.forward.get(k));
      expect(dd.reverse.get(k)).toEqual(plain.reverse.get(k));
      expect(dd.symmetrized.get(k)).toEqual(plain.symmetrized.get(k));
    }
    expect(dd.forwardModel.tension).toBeCloseTo(plain.forwardModel.tension, 9);
    const p1 = posteriors(dd.forwardModel, s2[3]!, t2[3]!);
    const p2 = posteriors(plain.forwardModel, s2[3]!, t2[3]!);
    for (let q = 0; q < p1.length; q++) expect(p1[q]).toBeCloseTo(p2[q]!, 9);
  });

  it("gives empty alignments to pairs with an empty side", () => {
    const m = trainAligner([["a", "b"], [], ["a"]], [["b", "a"], ["z"], []]);
    expect(m.links.count).toBe(3);
    expect(m.links.get(1)).toEqual([]);
    expect(m.links.get(2)).toEqual([]);
  });
});

describe("posteriors and saved models", () => {
  const { src, tgt } = toyCorpus(200, 11);
  const fwd = trainAligner(src, tgt);
  const rev = trainAligner(src, tgt, { reverse: true });

  it("posterior rows are distributions over source positions + NULL, in the model's direction", () => {
    const s = src[0]!;
    const t = tgt[0]!;
    const p = posteriors(fwd, s, t);
    expect(p.length).toBe(t.length * (s.length + 1));
    for (let j = 0; j < t.length; j++) {
      const row = p.subarray(j * (s.length + 1), (j + 1) * (s.length + 1));
      expect(row.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
      // The Viterbi link of j is the row's argmax.
      const best = row.indexOf(Math.max(...row));
      const link = fwd.links.get(0).find(([, jj]) => jj === j);
      expect(link ? link[0] : s.length).toBe(best);
    }
    const pr = posteriors(rev, s, t);
    expect(pr.length).toBe(s.length * (t.length + 1));
  });

  it("handles unseen words without NaN", () => {
    const p = posteriors(fwd, ["s1", "never-seen"], ["unknown", "t1"]);
    expect(p.every((x) => Number.isFinite(x))).toBe(true);
    expect(p[1 * 3 + 0]).toBeGreaterThan(0.5); // t1 <- s1
  });

  it("serialises and reloads a model that aligns exactly like the original", () => {
    const back = deserializeModel(serializeModel(fwd));
    expect(back.tension).toBe(fwd.tension);
    expect(Array.from(posteriors(back, src[3]!, tgt[3]!))).toEqual(Array.from(posteriors(fwd, src[3]!, tgt[3]!)));
    const again = forceAlign(back, src, tgt);
    for (let k = 0; k < src.length; k++) expect(again.get(k)).toEqual(fwd.links.get(k));
    expect(() => deserializeModel(new Uint8Array([1, 2, 3]))).toThrow(SyntaxError);
  });
});

describe("symmetrisation", () => {
  it("grows along neighbours from the intersection", () => {
    const fwd: Link[] = [[0, 0], [1, 1], [2, 1]];
    const rev: Link[] = [[0, 0], [1, 1], [1, 2]];
    expect(symmetrize(fwd, rev, "intersect", 3, 3)).toEqual([[0, 0], [1, 1]]);
    expect(symmetrize(fwd, rev, "union", 3, 3)).toEqual([[0, 0], [1, 1], [1, 2], [2, 1]]);
    expect(symmetrize(fwd, rev, "grow-diag", 3, 3)).toEqual([[0, 0], [1, 1], [1, 2], [2, 1]]);
  });

  it("distinguishes grow-diag, -final and -final-and", () => {
    const fwd: Link[] = [[0, 0], [2, 3]];
    const rev: Link[] = [[0, 0], [2, 1], [3, 3]];
    expect(symmetrize(fwd, rev, "grow-diag", 4, 4)).toEqual([[0, 0]]);
    expect(symmetrize(fwd, rev, "grow-diag-final", 4, 4)).toEqual([[0, 0], [2, 1], [2, 3], [3, 3]]);
    expect(symmetrize(fwd, rev, "grow-diag-final-and", 4, 4)).toEqual([[0, 0], [2, 3]]);
  });

  it("rejects links outside the sentence", () => {
    expect(() => symmetrize([[5, 0]], [], "union", 2, 2)).toThrow(RangeError);
  });
});

describe("Pharaoh format", () => {
  it("round-trips", () => {
    const links: Link[] = [[0, 0], [2, 1], [1, 2], [10, 11]];
    expect(toPharaoh(links)).toBe("0-0 2-1 1-2 10-11");
    expect(parsePharaoh(toPharaoh(links))).toEqual(links);
    expect(parsePharaoh("")).toEqual([]);
    expect(() => parsePharaoh("0-0 1-x")).toThrow(/1-x/);
  });
});

describe("proneval align (CLI)", () => {
  async function run(args: string[]): Promise<{ code: number; err: string }> {
    const program = new Command();
    program.exitOverride();
    registerAlign(program);
    const write = process.stderr.write.bind(process.stderr);
    let err = "";
    process.stderr.write = ((s: string | Uint8Array) => {
      err += String(s);
      return true;
    }) as typeof process.stderr.write;
    const before = process.exitCode;
    process.exitCode = 0;
    try {
      await program.parseAsync(["node", "proneval", "align", ...args]);
      return { code: Number(process.exitCode ?? 0), err };
    } finally {
      process.stderr.write = write;
      process.exitCode = before;
    }
  }

  it("aligns a tiny gzipped file end to end and writes Pharaoh lines", async () => {
    const dir = mkdtempSync(join(tmpdir(), "align-"));
    const { src, tgt } = toyCorpus(60, 3);
    const lines = src.map((s, k) => `${s.join(" ")} ||| ${tgt[k]!.join(" ")}`);
    lines.push("s1 s2 |||"); // empty target side: empty output line, with a warning
    writeFileSync(join(dir, "c.txt.gz"), gzipSync(lines.join("\n") + "\n"));
    const out = join(dir, "out.al");
    const r = await run(["-i", join(dir, "c.txt.gz"), "-d", "-o", "-v", "--symmetrize", "gdfa", "--threads", "1", "--output", out]);
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/1 line\(s\).*empty side \(line 61\)/);
    const got = readFileSync(out, "utf8").split("\n");
    expect(got).toHaveLength(62);
    expect(got[60]).toBe("");
    for (const l of got.slice(0, 60)) expect(l).toMatch(/^\d+-\d+( \d+-\d+)*$/);

    // Single direction, model saved and re-applied (fast_align -f style) gives the same lines.
    const out1 = join(dir, "fwd.al");
    const out2 = join(dir, "fwd2.al");
    const model = join(dir, "fwd.model");
    expect((await run(["-i", join(dir, "c.txt.gz"), "-d", "-o", "-v", "--output", out1, "--save-model", model])).code).toBe(0);
    expect((await run(["-i", join(dir, "c.txt.gz"), "--model", model, "--output", out2])).code).toBe(0);
    expect(readFileSync(out2, "utf8")).toBe(readFileSync(out1, "utf8"));
  });

  it("writes fast_align's conditional probability table with -p", async () => {
    const dir = mkdtempSync(join(tmpdir(), "align-"));
    const { src, tgt } = toyCorpus(40, 5);
    writeFileSync(join(dir, "c.txt"), src.map((s, k) => `${s.join(" ")} ||| ${tgt[k]!.join(" ")}`).join("\n") + "\n");
    const table = join(dir, "t.tsv");
    expect((await run(["-i", join(dir, "c.txt"), "-d", "-v", "-p", table, "--output", join(dir, "o.al")])).code).toBe(0);
    const rows = readFileSync(table, "utf8").trim().split("\n").map((l) => l.split("\t"));
    expect(rows.some((r) => r[0] === "<eps>")).toBe(true);
    for (const r of rows) {
      expect(r).toHaveLength(3);
      expect(Number(r[2])).toBeLessThanOrEqual(0);
    }
    expect(formatG(-0.9768064035545541)).toBe("-0.976806");
    expect(formatG(-1.234e-7)).toBe("-1.234e-07");
  });

  it("names file and line of a line without |||, and writes nothing", async () => {
    const dir = mkdtempSync(join(tmpdir(), "align-"));
    const input = join(dir, "bad.txt");
    writeFileSync(input, "a b ||| a b\nc d e\n");
    const out = join(dir, "out.al");
    const r = await run(["-i", input, "--output", out]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`${input}:2:`);
    expect(r.err).toContain("|||");
    expect(existsSync(out)).toBe(false);
  });

  it("takes a tab as the separator, like fast_align; a tab beside ||| is two separators (error with file:line)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "align-"));
    writeFileSync(join(dir, "tab.txt"), "a b\tc d\ne f ||| g\n");
    const out = join(dir, "tab.al");
    expect((await run(["-i", join(dir, "tab.txt"), "--output", out])).code).toBe(0);
    expect(readFileSync(out, "utf8").split("\n")).toHaveLength(3);
    writeFileSync(join(dir, "tab2.txt"), "a b ||| c\td\n");
    const r = await run(["-i", join(dir, "tab2.txt"), "--output", join(dir, "tab2.al")]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/tab2\.txt:1: more than one \|\|\| separator/);
    expect(existsSync(join(dir, "tab2.al"))).toBe(false);
  });

  it("refuses a saved model of another format version, naming the file", async () => {
    const dir = mkdtempSync(join(tmpdir(), "align-"));
    const model = join(dir, "old.model");
    writeFileSync(model, "PRONEVAL-FASTALIGN-2\n\u0000\u0000\u0000\u0000{}");
    writeFileSync(join(dir, "m.txt"), "a ||| b\n");
    const r = await run(["-i", join(dir, "m.txt"), "--model", model]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/old\.model.*aligner model format 2 \(this proneval reads format 3\)/);
  });

  it("rejects an unknown heuristic", async () => {
    const dir = mkdtempSync(join(tmpdir(), "align-"));
    writeFileSync(join(dir, "c.txt"), "a ||| a\n");
    const r = await run(["-i", join(dir, "c.txt"), "--symmetrize", "diag-magic"]);
    expect(r.code).toBe(2);
    expect(r.err).toContain("diag-magic");
  });
});
