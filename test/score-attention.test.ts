import { join } from "node:path";
import { PACKAGE_ROOT } from "../src/version.js";
import { describe, it, expect } from "vitest";
import type { TestSet } from "../src/io/model.js";
import { loadScorer } from "../src/metric/load.js";
import { scoreTestSet } from "../src/metric/testset.js";

describe("scoreTestSet with attention (for report heat maps)", () => {
  it("keeps sides with rounded attention, the reference side once", async () => {
    const ts: TestSet = {
      name: "t", langPair: "de-en", srcLang: "de", tgtLang: "en", references: ["A"], systems: ["S1", "S2"],
      documentIds: "given", format: "text", files: [],
      docs: [{ id: "d", segIds: ["1", "2"], refs: { A: ["My sister called.", "She said it was fixed."] },
        hyps: { S1: ["My sister called.", "He said it was fixed."], S2: ["My sister called.", "She said it was fixed."] } }],
    };
    // The ranker has attention (the default zero-shot scorer has none).
    const scorer = await loadScorer(join(PACKAGE_ROOT, "checkpoints", "default"), { backend: "cpu" });
    const [s1, s2] = await scoreTestSet(scorer, ts, ["S1", "S2"], { withAttention: true });
    const seg = s1!.segments[1]!;
    expect(seg.refSide).toBeDefined();
    expect(s2!.segments[1]!.refSide).toBeUndefined();
    const p = seg.sysSide!.pronouns[0]!;
    expect(p.token).toBe("He");
    expect(p.attention!.length).toBe(seg.sysSide!.tokens.length);
    for (const a of p.attention!) expect(Math.round(a * 1e4) / 1e4).toBe(a);
    expect(Math.abs(p.attention!.reduce((x, y) => x + y, 0) - 1)).toBeLessThan(1e-2);
    const plain = await scoreTestSet(scorer, ts, ["S1"]);
    expect(plain[0]!.segments[1]!.sysSide).toBeUndefined();
    expect(plain[0]!.segments[1]!.sys).toBeCloseTo(seg.sys!, 6);
    scorer.dispose();
  });
});
