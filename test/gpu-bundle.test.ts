/**
 * The GPU pretraining bundle (scripts/gpu-pack.sh, scripts/gpu-pretrain.sh, docs/gpu.md), everything but
 * the GPU. A bundle is packed from this machine's own Node.js binary (no download), a small synthetic
 * corpus and the shipped embedding table, at xz's fastest level and cut into parts small enough to need
 * several calls; scripts/gpu-bundle-check.sh then runs it as the GPU machine would (a fresh folder, no
 * Node.js on PATH, one part per call) on wasm for a few steps and checks the results and the checkpoint.
 * The refusals are checked on the same bundle: a missing or damaged part, and a GPU run on a machine
 * without the NVIDIA driver, which must stop with exit 2 and never fall back to the CPU.
 */
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const PACK = resolve("scripts/gpu-pack.sh");
const RUN = resolve("scripts/gpu-pretrain.sh");
const CHECK = resolve("scripts/gpu-bundle-check.sh");
const MIB = 1024 * 1024;
const PART_MIB = 16;
const built = existsSync(resolve("dist/scripts/gpu-pack-data.js")) && existsSync(resolve("dist/scripts/bench-pretrain.js"));
const tools = ["xz", "tar", "sha256sum", "split"].every((t) => spawnSync("sh", ["-c", `command -v ${t}`]).status === 0);
const linuxX64 = process.platform === "linux" && process.arch === "x64";
const hasNvidia = spawnSync("sh", ["-c", "command -v nvidia-smi"]).status === 0;

let dir: string;
let bundle: string;

/** Documents of the pretraining corpus format with pronouns in most sentences. */
function corpus(): string {
  const subj = ["he", "she", "they", "it", "we", "i", "you"];
  const obj = ["him", "her", "them", "it", "us", "me"];
  const poss = ["his", "her", "their", "its", "our", "my"];
  const nouns = ["man", "woman", "company", "government", "team", "city", "report", "family"];
  const verbs = ["said", "thought", "knew", "reported", "believed"];
  const lines: string[] = [];
  let k = 0;
  for (let d = 0; d < 120; d++) {
    const sents: string[] = [];
    for (let s = 0; s < 6; s++, k++) {
      const n = nouns[k % nouns.length]!;
      sents.push(`the ${n} ${verbs[k % verbs.length]} that ${subj[k % subj.length]} had seen ${obj[(k * 3) % obj.length]} with ${poss[(k * 5) % poss.length]} ${nouns[(k + 3) % nouns.length]} .`);
    }
    lines.push(JSON.stringify({ id: `doc${d}`, source: "synthetic", sents }));
  }
  return lines.join("\n") + "\n";
}

/** Runs a script without blocking the test worker (the pack and the bundled run take a minute or more). */
function sh(script: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const p = spawn("bash", [script, ...args], { env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    p.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    p.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    p.on("error", fail);
    p.on("close", (status) => done({ status, stdout, stderr }));
  });
}

function manifest(part: string): { payload: number; parts: number; chunks: Array<{ name: string; bytes: number }> } {
  const lines = readFileSync(join(part, "MANIFEST"), "utf8").trim().split("\n");
  const f = (key: string) => lines.find((l) => l.startsWith(key + " "))!.split(" ");
  return {
    payload: Number(f("payload")[1]),
    parts: Number(f("parts")[1]),
    chunks: lines.filter((l) => l.startsWith("chunk ")).map((l) => ({ name: l.split(" ")[2]!, bytes: Number(l.split(" ")[3]) })),
  };
}

const ready = built && tools && linuxX64;
if (!ready) {
  console.warn(`gpu-bundle tests skipped: ${!linuxX64 ? "the bundle is for linux x86-64" : !tools ? "xz, tar, sha256sum or split missing" : "build first (npx tsc -p .)"}`);
}

describe.skipIf(!ready)("GPU bundle, checked on the CPU", () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "proneval-gpu-"));
    writeFileSync(join(dir, "corpus.jsonl"), corpus());
    // The shipped model shares its vectors with the other checkpoints: its embeddings.bin, rebuilt.
    const EMBEDDINGS = join(dir, "embeddings.bin");
    const { readCheckpointEmbeddings } = await import("../src/nn/shared-vectors.js");
    const news = resolve("checkpoints/pronoun-lm-news");
    writeFileSync(EMBEDDINGS, readCheckpointEmbeddings(news, JSON.parse(readFileSync(join(news, "config.json"), "utf8")).files.embeddings));
    bundle = join(dir, "bundle");
    const r = await sh(PACK, [
      "--out", bundle, "--cache", join(dir, "cache"), "--node", process.execPath, "--vulkan-deb", "none", "--glvnd-deb", "none",
      "--corpus", join(dir, "corpus.jsonl"), "--every", "2", "--embeddings", EMBEDDINGS, "--xz-level", "0", "--part-mib", String(PART_MIB),
    ]);
    if (r.status !== 0) throw new Error(`gpu-pack.sh failed (${r.status}):\n${r.stderr}\n${r.stdout}`);
  }, 900_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("cuts the payload into parts within the per-call size, each with the same manifest", async () => {
    const parts = readdirSync(bundle).filter((p) => /^part\d+$/.test(p)).sort();
    const m = manifest(join(bundle, "part1"));
    // This machine's Node.js alone is over 16 MiB compressed at level 0: several parts.
    expect(m.parts).toBeGreaterThan(1);
    expect(parts).toEqual(Array.from({ length: m.parts }, (_, i) => `part${i + 1}`));
    expect(m.chunks.reduce((a, c) => a + c.bytes, 0)).toBe(m.payload);
    for (const [i, p] of parts.entries()) {
      expect(readFileSync(join(bundle, p, "MANIFEST"), "utf8")).toBe(readFileSync(join(bundle, "part1", "MANIFEST"), "utf8"));
      const c = m.chunks[i]!;
      expect(statSync(join(bundle, p, c.name)).size).toBe(c.bytes);
      expect(c.bytes).toBeLessThanOrEqual(PART_MIB * MIB);
    }
    const info = readFileSync(join(bundle, "BUNDLE.txt"), "utf8");
    expect(info).toContain(`node: ${process.version}`);
    expect(info).toMatch(/"sliceDocs":60,/);
    expect(readFileSync(join(bundle, "SIZES.txt"), "utf8")).toContain(`part${m.parts}:`);
  });

  it("runs from the bundle alone on wasm, one part per call, and leaves a checkpoint that loads", async () => {
    const r = await sh(CHECK, ["--bundle", bundle, "--max-steps", "3", "--keep", join(dir, "check")]);
    expect(r.stderr + r.stdout).toMatch(/gpu-bundle-check: ok: \d+ part\(s\), wasm run of 3 steps/);
    expect(r.status).toBe(0);
    const summary = readFileSync(join(dir, "check", "results", "summary.txt"), "utf8");
    expect(summary).toContain("checkpoint loads: yes: step 3");
    const env = readFileSync(join(dir, "check", "results", "env.txt"), "utf8");
    expect(env).toMatch(/^backend: wasm/m);
  }, 900_000);

  it("a call without an earlier part names the part to carry, and runs nothing (exit 3)", async () => {
    const m = manifest(join(bundle, "part1"));
    const only = join(dir, "only-last");
    mkdirSync(only);
    cpSync(join(bundle, `part${m.parts}`), join(only, `part${m.parts}`), { recursive: true });
    const r = await sh(RUN, ["--bundle", only, "--work", join(dir, "work-partial"), "--backend", "wasm", "--out", join(dir, "out-partial")]);
    expect(r.status).toBe(3);
    expect(r.stderr).toContain(`part(s) 1`);
    expect(r.stderr).toContain("carry out/gpu-bundle/part1");
    expect(existsSync(join(dir, "out-partial"))).toBe(false);
    // --stage-only keeps it and says what comes next.
    const s = await sh(RUN, ["--bundle", only, "--work", join(dir, "work-partial"), "--stage-only"]);
    expect(s.status).toBe(0);
    expect(s.stderr).toContain(`staged: 1 of ${m.parts} parts`);
  });

  it("a damaged part is refused before anything runs (exit 3)", async () => {
    const bad = join(dir, "bad");
    cpSync(join(bundle, "part1"), join(bad, "part1"), { recursive: true });
    const chunk = join(bad, "part1", manifest(join(bundle, "part1")).chunks[0]!.name);
    const bytes = readFileSync(chunk);
    bytes[1000] = bytes[1000]! ^ 0xff;
    writeFileSync(chunk, bytes);
    const r = await sh(RUN, ["--bundle", bad, "--work", join(dir, "work-bad"), "--stage-only"]);
    expect(r.status).toBe(3);
    expect(r.stderr).toMatch(/part1\/payload\.00: damaged/);
  });

  it.skipIf(hasNvidia)("--backend webgpu without an NVIDIA driver stops with exit 2 and never falls back to the CPU", async () => {
    // The bundle is already unpacked in the check's work folder; no part needs to travel again.
    const out = join(dir, "out-webgpu");
    const r = await sh(RUN, ["--bundle", join(dir, "none"), "--work", join(dir, "check", "work"), "--out", out]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("nvidia-smi not found");
    expect(existsSync(join(out, "bench.log"))).toBe(false);
    expect(existsSync(join(out, "pretrain.log"))).toBe(false);
  });

  it.skipIf(hasNvidia)("a driver without a usable Vulkan device stops with exit 2, the loader's account in env.txt", async () => {
    // A stand-in nvidia-smi and an ICD whose library is no Vulkan driver: the run gets as far as asking Dawn
    // for an adapter (or finds no Vulkan loader, this bundle being packed without one), and stops there.
    const fake = join(dir, "fake");
    mkdirSync(fake);
    writeFileSync(join(fake, "nvidia-smi"), '#!/bin/sh\n[ "$1" = "-L" ] && echo "GPU 0: stand-in" && exit 0\necho "stand-in, 0, 1 MiB, 1 MHz"\n', { mode: 0o755 });
    writeFileSync(join(fake, "nvidia_icd.json"), JSON.stringify({ file_format_version: "1.0.0", ICD: { library_path: "/lib/x86_64-linux-gnu/libm.so.6", api_version: "1.3.0" } }));
    const out = join(dir, "out-fake");
    const env = { ...process.env, PATH: `${fake}:${process.env.PATH}`, VK_DRIVER_FILES: join(fake, "nvidia_icd.json") };
    const r = await sh(RUN, ["--bundle", join(dir, "none"), "--work", join(dir, "check", "work"), "--out", out], env);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/GPU adapter not found: backend 'webgpu' is not available|no Vulkan loader/);
    expect(readFileSync(join(out, "env.txt"), "utf8")).toContain("nvidia-smi -L: GPU 0: stand-in");
    expect(existsSync(join(out, "bench.log"))).toBe(false);
  });

  it("rejects an unknown backend and option (exit 2)", async () => {
    expect((await sh(RUN, ["--backend", "cpu"])).status).toBe(2);
    const r = await sh(RUN, ["--minutes"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("--minutes needs a value");
  });
});
