/**
 * The report in a real browser: Debian's Chromium driven by playwright-core (no browser download).
 * Builds a report with every section from fixture JSON through the CLI, opens it from disk with all
 * network refused, and checks that every chart drew, the segment view reacts, and nothing was logged
 * as an error. Saves docs/report-screenshot.png.
 */
import { existsSync, mkdirSync, mkdtempSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "./cli-helper.js";
import { registerReport } from "../src/cli/report.js";
import { aptJson, compareJson, contrastiveJson, ctxproJson, curveJson, evalJson, metaEvalJson, mudaJson, onTopJson, pretrainCurveJson, scoreJson, suiteJson } from "./report-fixtures.js";

const CHROMIUM = "/usr/bin/chromium";
const HAVE_CHROMIUM = existsSync(CHROMIUM);
const SCREENSHOT = resolve("docs/report-screenshot.png");

async function cli(...args: string[]): Promise<{ code: number; err: string }> {
  const { code, err } = await runCli(registerReport, "report", args);
  return { code, err };
}

/** Writes one fixture of every kind; returns the files. */
function writeFixtures(dir: string): string[] {
  const put = (name: string, v: unknown): string => {
    const f = join(dir, name);
    mkdirSync(join(f, ".."), { recursive: true });
    writeFileSync(f, JSON.stringify(v, null, 1));
    return f;
  };
  const trans = (sys: string, set: string) => `runs/${sys}/${set}.txt`;
  return [
    put("glove-crc/curve.json", curveJson(8)),
    put("eval.glove-crc.json", evalJson()),
    put("scores.wmt23.json", scoreJson(6, 120, { sides: true })),
    put("compare.json", compareJson()),
    ...[
      ["gender.opensubtitles.en-es.dev.json.gz", "gender.es"],
      ["gender.opensubtitles.en-it.dev.json.gz", "gender.it"],
      ["formality.opensubtitles.en-de.dev.json.gz", "formality.de"],
      ["formality.opensubtitles.en-fr.dev.json.gz", "formality.fr"],
    ].map(([set, t], k) => put(`ctxpro.${t}.json`, ctxproJson(set!, ["sentence-level", "context-3", "context-10"].map((s) => trans(s, t!)), k + 1))),
    put("suite.json", suiteJson(3)),
    put("apt.json", aptJson()),
    put("muda.json", mudaJson()),
    put("contrastive.json", contrastiveJson()),
    put("meta-eval.json", metaEvalJson()),
    put("lm-news/curve.json", pretrainCurveJson()),
    put("ontop.json", onTopJson()),
  ];
}

if (!HAVE_CHROMIUM) {
  console.warn(`report-browser.test.ts: skipped, ${CHROMIUM} is missing (install Debian's chromium: apt-get install -y chromium)`);
  describe("report in headless Chromium", () => {
    it.skip(`skipped: ${CHROMIUM} is missing (install Debian's chromium: apt-get install -y chromium)`, () => {});
  });
} else {
  describe("report in headless Chromium", () => {
    let dir: string;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    let browser: any;

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), "proneval-report-browser-"));
      const { chromium } = await import("playwright-core");
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        headless: true,
        args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run", "--disable-component-update", "--disable-sync"],
      });
    }, 60_000);

    afterAll(async () => {
      await browser?.close();
    });

    it("draws every chart from disk with no network and no console errors; the segment view shows heat maps", async () => {
      const files = writeFixtures(dir);
      const out = join(dir, "report.html");
      const r = await cli(...files, "-o", out, "--title", "proneval report (fixture data)", "--bootstrap", "200");
      expect(r.err).not.toMatch(/error/);
      expect(r.code).toBe(0);

      const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
      const page = await context.newPage();
      const problems: string[] = [];
      const requests: string[] = [];
      page.on("console", (m: { type(): string; text(): string }) => m.type() === "error" && problems.push(`console: ${m.text()}`));
      page.on("pageerror", (e: Error) => problems.push(`page error: ${e.message}`));
      await page.route("**/*", (route: { request(): { url(): string }; continue(): Promise<void>; abort(): Promise<void> }) => {
        const url = route.request().url();
        if (url.startsWith("file:") || url.startsWith("data:")) return route.continue();
        requests.push(url);
        return route.abort();
      });
      await page.goto(pathToFileURL(out).href);
      await page.waitForFunction(() => (window as unknown as { reportReady?: boolean }).reportReady === true, null, { timeout: 20_000 });
      await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok))));

      const specCount = await page.evaluate(() => {
        const data = JSON.parse(document.getElementById("report-data")!.textContent!);
        let n = 0;
        for (const s of data.sections) for (const b of s.blocks) if (b.type === "chart") n++;
        return n;
      });
      // Every canvas: a chart.js instance with drawn elements, and ink inside its plot area.
      const charts = await page.evaluate(() => {
        // eslint-disable-next-line @typescript-eslint/no-explicit-any
        const Chart = (window as any).Chart;
        return [...document.querySelectorAll("canvas")].map((c) => {
          const chart = Chart.getChart(c);
          if (!chart) return { id: c.id, ok: false, why: "no chart.js instance" };
          const elements = chart.data.datasets.reduce((a: number, _: unknown, i: number) => a + chart.getDatasetMeta(i).data.filter((e: { skip?: boolean }) => !e.skip).length, 0);
          const ctx = c.getContext("2d")!;
          const area = chart.chartArea;
          const dpr = c.width / c.clientWidth;
          const img = ctx.getImageData(Math.round(area.left * dpr), Math.round(area.top * dpr), Math.max(1, Math.round((area.right - area.left) * dpr)), Math.max(1, Math.round((area.bottom - area.top) * dpr))).data;
          let ink = 0;
          for (let k = 0; k < img.length; k += 4) if (img[k + 3]! > 0 && (img[k]! < 235 || img[k + 1]! < 235 || img[k + 2]! < 235)) ink++;
          const share = ink / (img.length / 4);
          return { id: c.id, ok: elements > 0 && share > 0.003, why: `${elements} elements, ink ${(100 * share).toFixed(2)}%`, w: c.clientWidth, h: c.clientHeight };
        });
      });
      expect(charts.length).toBe(specCount + 1); // + the selected segment's chart
      for (const c of charts) expect(c, `${c.id}: ${c.why}`).toMatchObject({ ok: true });
      expect(charts.every((c: { w?: number; h?: number }) => (c.w ?? 0) > 300 && (c.h ?? 0) > 100)).toBe(true);

      // Segment view: heat maps for the preselected segment, then pick another system and page.
      const heat = await page.locator(".seg-detail .heat-row").count();
      expect(heat).toBeGreaterThan(0);
      expect(await page.locator(".seg-detail .tok.query").count()).toBeGreaterThan(0);
      const seg = page.locator(".segments").first();
      await seg.locator("select[aria-label=system]").selectOption("2");
      await seg.locator(".pager button", { hasText: "next" }).click();
      expect(await seg.locator(".pager").innerText()).toMatch(/page 2 of \d+/);
      await seg.locator(".seg-table tbody tr").first().click();
      expect(await page.locator(".seg-detail h4").innerText()).toMatch(/^Segment #\d+: document doc\d+, segment \d+/);
      await seg.locator("select[aria-label=filter]").selectOption("heat");
      await seg.locator(".seg-table tbody tr").first().click();
      expect(await page.locator(".seg-detail .heat-row").count()).toBeGreaterThan(0);
      expect(await page.locator("canvas").count()).toBe(specCount + 1);

      expect(problems).toEqual([]);
      expect(requests).toEqual([]);

      // Screenshot for the README: the scoring section from its ranking chart down to the heat maps, at laptop width.
      await seg.locator("select[aria-label=system]").selectOption("1");
      await seg.locator("select[aria-label=filter]").selectOption("below");
      await seg.locator(".seg-table tbody tr").first().click();
      await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok))));
      const clip = await page.evaluate(() => {
        const top = document.querySelector("#scoring figure.chart")!.getBoundingClientRect().top + window.scrollY - 12;
        const side = document.querySelectorAll(".seg-detail .side");
        const bottom = side[side.length - 1]!.getBoundingClientRect().bottom + window.scrollY + 12;
        return { x: 0, y: top, width: 1280, height: Math.min(2600, bottom - top) };
      });
      // The sticky header stays at the top of the page only when the page is scrolled to the top.
      await page.evaluate(() => window.scrollTo(0, 0));
      mkdirSync(join(SCREENSHOT, ".."), { recursive: true });
      await page.screenshot({ path: SCREENSHOT, fullPage: true, clip });
      expect(statSync(SCREENSHOT).size).toBeLessThan(500_000);
      await context.close();
    }, 90_000);
  });
}
