import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { runCli } from "./cli-helper.js";
import { registerReport } from "../src/cli/report.js";
import { buildReport, checkInput, detectKind, parseEvalSetName, readReportInput, renderHtml, renderReportFromInputs, systemLabels, writePngs } from "../src/report/index.js";
import type { SegmentView } from "../src/report/model.js";
import { aptJson, compareJson, contrastiveJson, ctxproJson, curveJson, evalJson, metaEvalJson, mudaJson, onTopJson, pretrainCurveJson, scoreJson, suiteJson } from "./report-fixtures.js";

const tmp = (): string => mkdtempSync(join(tmpdir(), "proneval-report-"));

async function cli(...args: string[]): Promise<{ code: number; err: string }> {
  const { code, err } = await runCli(registerReport, "report", args);
  return { code, err };
}

afterEach(() => {
  process.exitCode = 0;
});

function views(data: ReturnType<typeof buildReport>): SegmentView[] {
  return data.sections.flatMap((s) => s.blocks.flatMap((b) => (b.type === "segments" ? [b.view] : [])));
}

describe("input detection", () => {
  it("recognises every writer's JSON", () => {
    expect(detectKind(curveJson(), "c.json")).toBe("train-curve");
    expect(detectKind(evalJson(), "e.json")).toBe("eval");
    expect(detectKind(scoreJson(2, 10), "s.json")).toBe("score");
    expect(detectKind(compareJson(), "cmp.json")).toBe("compare");
    expect(detectKind(ctxproJson("gender.opensubtitles.en-de.dev.json.gz", ["a", "b"]), "x.json")).toBe("ctxpro-score");
    expect(detectKind(suiteJson(), "suite.json")).toBe("suite-score");
  });

  it("reads plain and gzipped files", () => {
    const d = tmp();
    writeFileSync(join(d, "curve.json"), JSON.stringify(curveJson()));
    writeFileSync(join(d, "eval.json.gz"), gzipSync(JSON.stringify(evalJson())));
    expect(readReportInput(join(d, "curve.json")).kind).toBe("train-curve");
    expect(readReportInput(join(d, "eval.json.gz")).kind).toBe("eval");
  });

  it("names the file and what was expected for the wrong kind, version or shape", () => {
    const err = (v: unknown): string => {
      try {
        checkInput(v, "in.json");
      } catch (e) {
        return (e as Error).message;
      }
      throw new Error("no error");
    };
    expect(err([{ "src pronoun": "it" }])).toMatch(/^in\.json: is a JSON array.*CTXPRO evaluation set.*expected one of: training curve/);
    expect(err({ kind: "proneval-suite-stats" })).toMatch(/^in\.json: has kind "proneval-suite-stats", which proneval report does not read/);
    expect(err({ ...suiteJson(), version: 2 })).toMatch(/^in\.json: has kind proneval-suite-score version 2; this proneval reads version 1/);
    expect(err({ hello: 1, world: 2 })).toMatch(/^in\.json: is not a file proneval report reads \(top-level keys: hello, world\); expected one of: .*proneval score --json/);
    expect(err("text")).toMatch(/is a JSON string/);
    const s = scoreJson(2, 5);
    (s.systems[1]!.segments[3] as unknown as Record<string, unknown>).sys = "0.5";
    expect(err(s)).toMatch(/^in\.json: systems\[1\]\.segments\[3\]\.sys: expected a number or null, found "0\.5" \(read as pronoun scores/);
    const short = scoreJson(2, 5);
    short.systems[1]!.segments.pop();
    expect(err(short)).toMatch(/systems\[1\]\.segments: expected 5 segments like systems\[0\]/);
    const moved = scoreJson(2, 5);
    moved.systems[1]!.segments.reverse();
    expect(err(moved)).toMatch(/systems\[1\]\.segments\[0\]: expected document doc1 segment 1 as in systems\[0\]/);
    const att = scoreJson(1, 5, { sides: true });
    const side = att.systems[0]!.segments.find((g) => g.refSide!.pronouns.length)!.refSide!;
    side.pronouns[0]!.attention!.pop();
    expect(err(att)).toMatch(/refSide\.pronouns\[0\]\.attention: expected one weight per token/);
    const ev = evalJson() as unknown as Record<string, unknown>;
    delete ev.byLang;
    expect(err(ev)).toMatch(/\.byLang: expected an object, found nothing \(read as ranker evaluation/);
    const c = ctxproJson("gender.opensubtitles.en-de.dev.json.gz", ["a", "b"]);
    (c.bootstrap!.comparisons[0] as unknown as Record<string, unknown>).p = null;
    expect(err(c)).toMatch(/bootstrap\.comparisons\[0\]\.p: expected a number/);
  });

  it("the CLI exits 2 with file and reason, and writes nothing", async () => {
    const d = tmp();
    writeFileSync(join(d, "ok.json"), JSON.stringify(curveJson()));
    writeFileSync(join(d, "set.json"), JSON.stringify([{ expected: "er" }]));
    writeFileSync(join(d, "broken.json"), '{"curve": [');
    const out = join(d, "r.html");
    let r = await cli(join(d, "ok.json"), join(d, "set.json"), "-o", out);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`proneval: error: ${join(d, "set.json")}: is a JSON array`);
    r = await cli(join(d, "broken.json"), "-o", out);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/broken\.json: is not valid JSON/);
    r = await cli(join(d, "missing.json"), "-o", out);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/missing\.json/);
    r = await cli(join(d, "ok.json"), "-o", out, "--max-mb", "0");
    expect(r.code).toBe(2);
    expect(readdirSync(d).filter((f) => f.endsWith(".html") || f.endsWith(".tmp"))).toEqual([]);
    r = await cli(join(d, "ok.json"), "-o", out);
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/r\.html: 0\.\d\d MB, 1 section\(s\), 3 chart\(s\) from 1 file/);
    expect(existsSync(out)).toBe(true);
  });
});

describe("report content", () => {
  const inputs = () => [
    checkInput(curveJson(), "run1/curve.json"),
    checkInput(evalJson(), "eval.json"),
    checkInput(scoreJson(5, 80, { sides: true }), "scores.json"),
    checkInput(compareJson(), "cmp.json"),
    checkInput(ctxproJson("gender.opensubtitles.en-de.dev.json.gz", ["out/base/gender.de.txt", "out/ctx/gender.de.txt"]), "c1.json"),
    checkInput(ctxproJson("formality.opensubtitles.en-fr.dev.json.gz", ["out/base/formality.fr.txt", "out/ctx/formality.fr.txt"]), "c2.json"),
    checkInput(suiteJson(), "suite.json"),
    checkInput(aptJson(), "apt.json"),
    checkInput(mudaJson(), "muda.json"),
    checkInput(contrastiveJson(), "contrastive.json"),
    checkInput(metaEvalJson(), "meta.json"),
    checkInput(pretrainCurveJson(), "lm/curve.json"),
    checkInput(onTopJson(), "ontop.json"),
  ];

  it("has a section per kind, and every chart has labelled axes or a legend", () => {
    const data = buildReport(inputs(), { bootstrap: 100, generated: "fixed" });
    expect(data.sections.map((s) => s.id)).toEqual(["training", "pretraining", "evaluation", "scoring", "ctxpro", "suites", "apt", "muda", "contrastive", "meta-eval"]);
    const charts = data.sections.flatMap((s) => s.blocks.flatMap((b) => (b.type === "chart" ? [b.chart] : [])));
    expect(new Set(charts.map((c) => c.id)).size).toBe(charts.length);
    for (const c of charts) {
      expect(c.title.length).toBeGreaterThan(5);
      const scales = (c.config.options.scales ?? {}) as Record<string, { title?: { text?: string } }>;
      const titled = Object.values(scales).filter((s) => s.title?.text);
      expect(titled.length, `${c.id} axis titles`).toBeGreaterThanOrEqual(1);
    }
    // CTXPRO systems are matched across sets by the differing path part.
    const table = data.sections.find((s) => s.id === "ctxpro")!.blocks.find((b) => b.type === "table")!;
    expect(table.type === "table" && table.columns.slice(-2)).toEqual(["base", "ctx"]);
  });

  it("ranks systems with bootstrap intervals that contain the score, reproducibly", () => {
    const a = buildReport(inputs(), { bootstrap: 200, seed: 5, generated: "fixed" });
    const b = buildReport(inputs(), { bootstrap: 200, seed: 5, generated: "fixed" });
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    const rank = a.sections.find((s) => s.id === "scoring")!.blocks.find((x) => x.type === "table")!;
    if (rank.type !== "table") throw new Error("no table");
    const scores = rank.rows.map((r) => Number(r[2]));
    expect([...scores].sort((x, y) => y - x)).toEqual(scores);
    for (const r of rank.rows) {
      const [lo, hi] = r[3]!.slice(1, -1).split(", ").map(Number);
      expect(lo!).toBeLessThanOrEqual(Number(r[2]) + 0.01);
      expect(hi!).toBeGreaterThanOrEqual(Number(r[2]) - 0.01);
    }
    expect(rank.rows[0]![4]).toBe("best");
    // The segment view keeps every segment and system, ranked like the table.
    const v = views(a)[0]!;
    expect(v.systems).toEqual(rank.rows.map((r) => r[1]));
    expect(v.segId.length).toBe(80);
    expect(v.verdict.every((s) => s.length === 80)).toBe(true);
    expect(Object.keys(v.details).length).toBeGreaterThan(0);
  });

  it("marks the systems whose side was scored as the reference with their pronouns substituted (hybrid mode)", () => {
    const json = scoreJson(2, 30, { sides: true });
    // System 0 is read substituted on every segment, system 1 as its own output.
    json.systems.forEach((s, si) => s.segments.forEach((g) => (g.substituted = si === 0)));
    const v = views(buildReport([checkInput(json, "s.json")], { bootstrap: 0 }))[0]!;
    const ds = Object.values(v.details);
    expect(ds.length).toBeGreaterThan(0);
    const subOf = (name: string): number[] => ds.map((d) => d.sub![v.systems.indexOf(name)]!);
    expect(subOf(json.systems[0]!.system).every((x) => x === 1)).toBe(true);
    expect(subOf(json.systems[1]!.system).every((x) => x === 0)).toBe(true);
    // A file without the field (sentence mode, older files) stores no marks.
    const plain = views(buildReport([checkInput(scoreJson(2, 30, { sides: true }), "p.json")], { bootstrap: 0 }))[0]!;
    expect(Object.values(plain.details).every((d) => d.sub === undefined)).toBe(true);
    const bad = scoreJson(2, 30, { sides: true }) as unknown as { systems: Array<{ segments: Array<Record<string, unknown>> }> };
    bad.systems[1]!.segments[4]!.substituted = "yes";
    expect(() => checkInput(bad, "b.json")).toThrow(/systems\[1\]\.segments\[4\]\.substituted.*true or false/);
  });

  it("says so when the score file has no attention", () => {
    const data = buildReport([checkInput(scoreJson(3, 30), "s.json")], { bootstrap: 0 });
    const v = views(data)[0]!;
    expect(Object.keys(v.details)).toEqual([]);
    expect(v.detailNote).toMatch(/no per-pronoun scores or attention/);
  });

  it("stays self-contained: chart.js inline, no external URL loaded", () => {
    const html = renderHtml(buildReport(inputs(), { bootstrap: 50, generated: "fixed" }));
    expect(html).toContain("Chart.register");
    expect(html).not.toMatch(/<script[^>]+src=/i);
    expect(html).not.toMatch(/<link[^>]+href=/i);
    expect(html).toContain("default-src 'none'");
    expect(html.match(/<\/script>/g)!.length).toBe(3);
  });

  it("names systems from translation paths and sets from their file names", () => {
    expect(systemLabels(["runs/sentence-level/gender.es.txt", "runs/ctx-3/gender.es.txt"], "gender.opensubtitles.en-es.dev.json.gz")).toEqual(["sentence-level", "ctx-3"]);
    expect(systemLabels(["out/sysA.gender.de.txt", "out/sysB.gender.de.txt"], "gender.opensubtitles.en-de.dev.json.gz")).toEqual(["sysA", "sysB"]);
    expect(systemLabels(["sysA/formality.fr.txt"], "formality.opensubtitles.en-fr.dev.json")).toEqual(["sysA"]);
    expect(parseEvalSetName("/x/gender.opensubtitles.en-de.dev.json.gz")).toMatchObject({ phenomenon: "gender", pair: "en-de", split: "dev" });
    expect(parseEvalSetName("formality.en-fr.json")).toMatchObject({ phenomenon: "formality", pair: "en-fr", split: null });
  });
});

describe("size bound", () => {
  it("30 systems x 3000 segments with attention on every side: under 5 MB, heat maps sampled", () => {
    const big = scoreJson(30, 3000, { sides: true, seed: 99 });
    const r = renderReportFromInputs([checkInput(big, "big.json")], { bootstrap: 200 });
    expect(r.bytes).toBeLessThan(5_000_000);
    expect(r.bytes).toBeGreaterThan(2_000_000); // the budget is used for heat maps, not wasted
    const v = views(r.data)[0]!;
    expect(v.systems.length).toBe(30);
    expect(v.segId.length).toBe(3000);
    const k = Object.keys(v.details).length;
    expect(k).toBeGreaterThan(20);
    expect(k).toBeLessThanOrEqual(300);
    expect(v.detailNote).toMatch(new RegExp(`Heat maps are stored for ${k} of`));
    expect(r.data.warnings).toEqual([]);
  }, 60_000);

  it("a smaller --max-mb drops heat maps first", () => {
    const s = scoreJson(10, 500, { sides: true });
    const full = renderReportFromInputs([checkInput(s, "s.json")], { bootstrap: 0 });
    const small = renderReportFromInputs([checkInput(s, "s.json")], { bootstrap: 0, maxBytes: 900_000 });
    expect(small.bytes).toBeLessThan(900_000);
    expect(Object.keys(views(small.data)[0]!.details).length).toBeLessThan(Object.keys(views(full.data)[0]!.details).length);
  });
});

const require = createRequire(import.meta.url);
const HAVE_CANVAS = (() => {
  try {
    require("@napi-rs/canvas");
    return true;
  } catch {
    return false;
  }
})();

describe.skipIf(!HAVE_CANVAS)("PNG output (@napi-rs/canvas)", () => {
  it("writes one non-blank PNG per chart", async () => {
    const d = tmp();
    const data = buildReport([checkInput(curveJson(), "run/curve.json"), checkInput(suiteJson(), "suite.json")], { bootstrap: 0 });
    const files = await writePngs(data, d, { width: 600, scale: 1 });
    expect(files.length).toBe(6);
    const { loadImage, createCanvas } = await import("@napi-rs/canvas");
    for (const f of files) {
      const buf = readFileSync(f);
      expect(buf.subarray(1, 4).toString()).toBe("PNG");
      const img = await loadImage(buf);
      expect(img.width).toBe(600);
      const c = createCanvas(img.width, img.height);
      const ctx = c.getContext("2d");
      ctx.drawImage(img, 0, 0);
      const px = ctx.getImageData(0, 0, img.width, img.height).data;
      let ink = 0;
      for (let k = 0; k < px.length; k += 4) if (px[k]! < 200 || px[k + 1]! < 200 || px[k + 2]! < 200) ink++;
      expect(ink / (px.length / 4), f).toBeGreaterThan(0.01);
    }
  });
});
