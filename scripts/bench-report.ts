/**
 * Benchmark of `proneval report` on a large synthetic score file (default 30 systems x 3000 segments,
 * every side with per-pronoun attention, as `Scorer.score(..., { withAttention: true })` returns it).
 * Prints the time to read+check, build and render, the HTML size, and peak memory. There is no
 * reference implementation to compare with.
 *
 *   node dist/scripts/bench-report.js [--systems 30] [--segments 3000] [--no-sides] [--ref-once]
 *
 * --ref-once stores the reference side only in systems[0] (the reader takes it from the first system
 * that has it), which is how a writer should keep the file small.
 */
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readReportInput, renderReportFromInputs } from "../src/report/index.js";
import { rng } from "../src/annotate/perceptron.js";
import { flag, int, parseArgs } from "./args.js";

const { opts } = parseArgs({
  name: "bench-report",
  summary: "Benchmark of `proneval report` on a large synthetic score file.",
  options: {
    systems: int("systems", 30),
    segments: int("segments per system", 3000),
    noSides: flag("without the per-pronoun sides (attention)"),
    refOnce: flag("the reference side in the first system only"),
  },
});

const WORDS = "the minister said that report was late but committee wanted answers before vote on tuesday morning in parliament".split(" ");
const PRONOUNS = ["it", "he", "she", "they", "his", "her", "them"];

function main(): void {
  const systems = opts.systems;
  const segments = opts.segments;
  const sides = !opts.noSides;
  const refOnce = opts.refOnce;
  const r = rng(1);
  const sentence = (): string[] => Array.from({ length: 14 }, () => (r() < 0.15 ? PRONOUNS[Math.floor(r() * 7)]! : WORDS[Math.floor(r() * WORDS.length)]!));
  const side = (ctx: string[], sent: string[]) => {
    const tokens = ctx.concat(sent);
    const pronouns = sent.flatMap((t, i) => (PRONOUNS.includes(t) ? [i] : [])).map((i) => {
      const raw = tokens.map(() => Math.exp(3 * r()));
      const z = raw.reduce((a, b) => a + b, 0);
      return { token: sent[i]!, index: i, score: r() - 0.3, attention: raw.map((x) => Math.round((1e4 * x) / z) / 1e4) };
    });
    return { score: pronouns.reduce((a, p) => a + p.score, 0), pronouns, tokens, sentStart: ctx.length, truncatedContext: 0 };
  };
  const refs = Array.from({ length: segments }, sentence);
  const refSides = refs.map((s, i) => side(refs.slice(Math.max(0, i - 2), i).flat().slice(-28), s));
  const out = { signature: "bench", context: "crc", reference: "ref", testSet: { name: "bench", langPair: "de-en" }, systems: [] as unknown[] };
  for (let k = 0; k < systems; k++) {
    const segs = refs.map((ref, i) => {
      const hyp = r() < 0.6 ? ref : ref.map((t) => (PRONOUNS.includes(t) && r() < 0.7 ? PRONOUNS[Math.floor(r() * 7)]! : t));
      const rs = refSides[i]!;
      const ss = hyp === ref ? rs : side(rs.tokens.slice(0, rs.sentStart), hyp);
      const has = rs.pronouns.length + ss.pronouns.length > 0;
      return {
        doc: `d${Math.floor(i / 20)}`,
        seg: String(i % 20),
        index: i,
        status: has ? "scored" : "no-pronoun",
        ref: has ? rs.score : null,
        sys: has ? ss.score : null,
        diff: has ? ss.score - rs.score : null,
        refPronouns: rs.pronouns.map((p) => p.token),
        sysPronouns: ss.pronouns.map((p) => p.token),
        ...(sides ? { ...(!refOnce || k === 0 ? { refSide: rs } : {}), sysSide: ss } : {}),
      };
    });
    const scored = segs.filter((g) => g.status === "scored");
    const nb = scored.filter((g) => g.sys! >= g.ref! - 1e-5).length / Math.max(1, scored.length);
    out.systems.push({
      system: `sys${k}`,
      summary: { segments, pronounSegments: scored.length, noPronounSegments: segments - scored.length, notBelow: nb, meanDiff: 0, score: 100 * nb },
      segments: segs,
    });
  }
  const dir = mkdtempSync(join(tmpdir(), "bench-report-"));
  const file = join(dir, "scores.json");
  writeFileSync(file, JSON.stringify(out));
  const inputMb = statSync(file).size / 1e6;
  const t0 = process.hrtime.bigint();
  const input = readReportInput(file);
  const t1 = process.hrtime.bigint();
  const res = renderReportFromInputs([input], { bootstrap: 1000 });
  const t2 = process.hrtime.bigint();
  rmSync(dir, { recursive: true, force: true });
  const ms = (a: bigint, b: bigint): number => Number(b - a) / 1e6;
  const rows = systems * segments;
  const view = res.data.sections.flatMap((s) => s.blocks).find((b) => b.type === "segments");
  const heat = view && view.type === "segments" ? Object.keys(view.view.details).length : 0;
  console.log(`input: ${systems} systems x ${segments} segments, sides ${sides ? (refOnce ? "yes (reference side once)" : "yes") : "no"}, ${inputMb.toFixed(1)} MB JSON`);
  console.log(`read+check: ${ms(t0, t1).toFixed(0)} ms (${((rows / ms(t0, t1)) * 1000).toFixed(0)} system-segments/s)`);
  console.log(`build+render (1000 bootstrap resamples): ${ms(t1, t2).toFixed(0)} ms (${((rows / ms(t1, t2)) * 1000).toFixed(0)} system-segments/s)`);
  console.log(`HTML: ${(res.bytes / 1e6).toFixed(2)} MB, ${heat} segments with heat maps`);
  console.log(`peak RSS: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
  console.log("reference: none (no other tool builds this report)");
}

main();
