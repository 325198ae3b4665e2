import * as tf from "@tensorflow/tfjs";
import { readdirSync } from "node:fs";
import { InputError } from "../io/errors.js";

export type BackendName = "auto" | "gpu" | "webgpu" | "node" | "wasm" | "cpu";
export const BACKENDS: readonly BackendName[] = ["auto", "gpu", "webgpu", "node", "wasm", "cpu"];

export interface BackendInfo {
  /** What was asked for. */
  requested: BackendName;
  /** The tfjs backend that runs: "tensorflow" (tfjs-node / tfjs-node-gpu), "webgpu", "wasm" or "cpu". */
  backend: string;
  /** The package that provides it. */
  provider: string;
  /** Threads the backend really uses (wasm: what the module reports after init). */
  threads: number | null;
  /** The GPU that runs the kernels (WebGPU adapter name, or "CUDA device" for tfjs-node-gpu); null on the CPU. */
  device: string | null;
  /** Why an earlier choice of `auto` was skipped. */
  skipped: string[];
}

/** Loads an optional package by name; replaceable in tests to simulate absent packages. */
export type Importer = (name: string) => Promise<unknown>;

/** Dynamic import by a computed name, so that tsc does not require the optional native packages. */
const importOptional: Importer = async (name) => import(name);

/**
 * Linux: whether any GPU device node exists (NVIDIA, DRM render node, WSL2). Without one, `auto` does
 * not ask Dawn for an adapter: the answer is no, and Dawn prints Vulkan warnings on stderr on the way.
 * Elsewhere (macOS, Windows) Dawn is simply asked.
 */
export function gpuDevicePresent(): boolean {
  if (process.platform !== "linux") return true;
  const has = (dir: string, re: RegExp): boolean => {
    try {
      return readdirSync(dir).some((f) => re.test(f));
    } catch {
      return false;
    }
  };
  return has("/dev", /^(nvidia\d+|dxg)$/) || has("/dev/dri", /^renderD\d+$/);
}

/** What selectBackend uses to probe the machine; tests replace it to simulate other machines. */
export interface BackendDeps {
  importer?: Importer;
  gpuDevicePresent?: () => boolean;
}

let current: BackendInfo | undefined;

/** The backend chosen by the last successful selectBackend (undefined before). */
export function currentBackend(): BackendInfo | undefined {
  return current;
}

const NODE_GPU_HINT = "@tensorflow/tfjs-node-gpu needs Linux x64, CUDA 11.x and cuDNN 8 (see docs/gpu.md; --backend webgpu runs on any Vulkan/Metal/D3D12 GPU)";
const WEBGPU_HINT = "on Linux Dawn needs the Vulkan loader (libvulkan1) and the GPU driver's Vulkan ICD; see docs/gpu.md";

function firstLine(e: unknown): string {
  return ((e as Error)?.message ?? String(e)).split("\n")[0]!;
}

interface DawnModule {
  create(flags: string[]): { requestAdapter(o?: Record<string, unknown>): Promise<DawnAdapter | null> };
  globals: Record<string, unknown>;
}
interface DawnAdapter {
  info?: { vendor?: string; architecture?: string; device?: string; description?: string };
  limits: Record<string, number>;
  features?: { has(name: string): boolean };
  requestDevice(d: Record<string, unknown>): Promise<unknown>;
}

function adapterName(a: DawnAdapter): string {
  const i = a.info ?? {};
  const name = i.description || [i.vendor, i.device || i.architecture].filter(Boolean).join(" ");
  return name || "unnamed WebGPU adapter";
}

/**
 * WebGPU through Dawn's Node bindings (npm `webgpu`, prebuilt dawn.node inside the package). The
 * adapter is requested here, before tfjs is involved, so that "no GPU" is a clear error and its name
 * can be printed. The factory that @tensorflow/tfjs-backend-webgpu registers is replaced by one on
 * this adapter: the package's own asks for a second adapter and passes a malformed feature list.
 */
let webgpuFailure: string | undefined;

async function initWebGpu(importer: Importer): Promise<string> {
  // Dawn's adapter search is not repeated: it prints its own warnings each time and its answer stands.
  const real = importer === importOptional;
  if (real && webgpuFailure) throw new Error(webgpuFailure);
  try {
    return await initWebGpuOnce(importer);
  } catch (e) {
    if (real) webgpuFailure = firstLine(e);
    throw e;
  }
}

async function initWebGpuOnce(importer: Importer): Promise<string> {
  let dawn: DawnModule;
  try {
    dawn = (await importer("webgpu")) as DawnModule;
  } catch (e) {
    throw new Error(`package 'webgpu' (Dawn) is not installed (${firstLine(e)}); it is an optionalDependency: npm install webgpu @tensorflow/tfjs-backend-webgpu`);
  }
  // GPUBufferUsage, GPUMapMode, ... are globals in browsers; tfjs-backend-webgpu reads them as such.
  Object.assign(globalThis, dawn.globals);
  const gpu = dawn.create([]);
  const adapter = await gpu.requestAdapter({ powerPreference: "high-performance" });
  if (!adapter) throw new Error(`Dawn found no WebGPU adapter (no usable GPU; ${WEBGPU_HINT})`);
  // tfjs-backend-webgpu registers itself on import only if navigator.gpu exists (Node 20 has no navigator).
  const g = globalThis as unknown as { navigator?: Record<string, unknown> };
  if (!g.navigator) g.navigator = {};
  if (!g.navigator.gpu) Object.defineProperty(g.navigator, "gpu", { value: gpu, configurable: true });
  let mod: { WebGPUBackend: new (device: unknown, info?: unknown) => tf.KernelBackend };
  try {
    mod = (await importer("@tensorflow/tfjs-backend-webgpu")) as typeof mod;
  } catch (e) {
    throw new Error(`package '@tensorflow/tfjs-backend-webgpu' is not installed (${firstLine(e)}); npm install @tensorflow/tfjs-backend-webgpu`);
  }
  if (tf.findBackendFactory("webgpu")) tf.removeBackend("webgpu");
  const l = adapter.limits;
  tf.registerBackend("webgpu", async () => {
    // The limits tfjs-backend-webgpu asks for itself: the defaults are too small for large matMuls.
    const device = await adapter.requestDevice({
      // Kernel timings for tf.profile / tf.time where the GPU offers them (as the package does).
      requiredFeatures: adapter.features?.has("timestamp-query") ? ["timestamp-query"] : [],
      requiredLimits: {
        maxComputeWorkgroupStorageSize: l.maxComputeWorkgroupStorageSize,
        maxComputeWorkgroupsPerDimension: l.maxComputeWorkgroupsPerDimension,
        maxStorageBufferBindingSize: l.maxStorageBufferBindingSize,
        maxBufferSize: l.maxBufferSize,
        maxComputeWorkgroupSizeX: l.maxComputeWorkgroupSizeX,
        maxComputeInvocationsPerWorkgroup: l.maxComputeInvocationsPerWorkgroup,
        // Kernels with many inputs (concat, addN) bind one storage buffer each; the default allows 8.
        maxStorageBuffersPerShaderStage: l.maxStorageBuffersPerShaderStage,
      },
    });
    return new mod.WebGPUBackend(device, adapter.info);
  });
  if (!(await tf.setBackend("webgpu"))) throw new Error("backend 'webgpu' did not initialise");
  return adapterName(adapter);
}

/**
 * Selects and initialises a tfjs backend. `auto` prefers a GPU that works: @tensorflow/tfjs-node-gpu
 * with a CUDA device, then WebGPU (Dawn) with a hardware adapter; then @tensorflow/tfjs-node, then
 * wasm, then the pure-JS cpu backend. The GPU packages and tfjs-node are optionalDependencies and may
 * be missing. An explicitly requested backend that cannot run is an InputError (the CLI exits 2).
 * tfjs keeps one global engine: asking again for the backend in use is a no-op, asking for another
 * switches to it (tensors move lazily).
 */
export async function selectBackend(requested: string = "auto", wasmThreads = 2, deps: BackendDeps = {}): Promise<BackendInfo> {
  const importer = deps.importer ?? importOptional;
  if (!BACKENDS.includes(requested as BackendName))
    throw new InputError(`unknown backend '${requested}' (expected one of: ${BACKENDS.join(", ")})`);
  const req = requested as BackendName;
  if (current && (req === "auto" || req === current.requested || backendMatches(req, current))) return current;
  // The "install tfjs-node" banner and debug checks are noise for a CLI.
  tf.enableProdMode();
  const skipped: string[] = [];
  let nativeLoaded: string | null = null;
  const tryNative = async (pkg: string): Promise<boolean> => {
    try {
      // Both native packages register "tensorflow": once one is loaded, the other cannot be.
      if (!nativeLoaded) await importer(pkg);
      nativeLoaded ??= pkg;
      if (!(await tf.setBackend("tensorflow"))) throw new Error("backend 'tensorflow' did not initialise");
      return true;
    } catch (e) {
      skipped.push(`${pkg}: ${firstLine(e)}`);
      return false;
    }
  };
  const tryWasm = async (): Promise<number | null> => {
    try {
      const wasm = await import("@tensorflow/tfjs-backend-wasm");
      // Must precede backend initialisation; tfjs ignores it where wasm threads are unsupported (Node).
      wasm.setThreadsCount(Math.max(1, wasmThreads));
      if (!(await tf.setBackend("wasm"))) throw new Error("backend 'wasm' did not initialise");
      await tf.ready();
      return wasm.getThreadsCount();
    } catch (e) {
      skipped.push(`@tensorflow/tfjs-backend-wasm: ${(e as Error).message ?? String(e)}`);
      return null;
    }
  };
  let info: BackendInfo | undefined;
  const base = { requested: req, skipped };
  if (req === "gpu" || req === "auto") {
    if (await tryNative("@tensorflow/tfjs-node-gpu")) {
      // tfjs-node-gpu falls back to TensorFlow's CPU kernels when CUDA/cuDNN do not load.
      const usingGpu = Boolean((tf.backend() as unknown as { isUsingGpuDevice?: boolean }).isUsingGpuDevice);
      if (usingGpu) info = { ...base, backend: "tensorflow", provider: "@tensorflow/tfjs-node-gpu", threads: null, device: "CUDA device" };
      else skipped.push("@tensorflow/tfjs-node-gpu: loaded, but TensorFlow found no CUDA device");
    }
    if (!info && req === "gpu") throw new InputError(`backend 'gpu' is not available: ${skipped.join("; ")}. ${NODE_GPU_HINT}`);
  }
  if (!info && req === "auto" && !(deps.gpuDevicePresent ?? gpuDevicePresent)()) {
    skipped.push("webgpu: not tried, no GPU device node (/dev/nvidia*, /dev/dri/renderD*, /dev/dxg)");
  } else if (!info && (req === "webgpu" || req === "auto")) {
    try {
      const device = await initWebGpu(importer);
      info = { ...base, backend: "webgpu", provider: "@tensorflow/tfjs-backend-webgpu on Dawn (npm webgpu)", threads: null, device };
    } catch (e) {
      skipped.push(`webgpu: ${firstLine(e)}`);
      if (req === "webgpu") throw new InputError(`backend 'webgpu' is not available: ${firstLine(e)}`);
    }
  }
  if (!info && (req === "node" || req === "auto")) {
    if (await tryNative("@tensorflow/tfjs-node")) info = { ...base, backend: "tensorflow", provider: nativeLoaded ?? "@tensorflow/tfjs-node", threads: null, device: null };
    else if (req === "node") throw new InputError(`backend 'node' is not available: ${skipped.join("; ")} (install @tensorflow/tfjs-node)`);
  }
  if (!info && (req === "wasm" || req === "auto")) {
    const threads = await tryWasm();
    if (threads !== null) info = { ...base, backend: "wasm", provider: "@tensorflow/tfjs-backend-wasm", threads, device: null };
    else if (req === "wasm") throw new InputError(`backend 'wasm' is not available: ${skipped.join("; ")}`);
  }
  if (!info) {
    if (!(await tf.setBackend("cpu"))) throw new InputError("backend 'cpu' did not initialise");
    info = { ...base, backend: "cpu", provider: "@tensorflow/tfjs-backend-cpu", threads: 1, device: null };
  }
  await tf.ready();
  current = info;
  return info;
}

function backendMatches(req: BackendName, cur: BackendInfo): boolean {
  if (req === "wasm" || req === "cpu" || req === "webgpu") return cur.backend === req;
  if (req === "gpu") return cur.provider === "@tensorflow/tfjs-node-gpu" && cur.device !== null;
  return false;
}

/** True when the running backend computes on a GPU (tensors live on the device, read-backs are costly). */
export function onGpu(b: BackendInfo | undefined = current): boolean {
  return !!b && b.device !== null;
}

export function describeBackend(b: BackendInfo): string {
  const extra = [b.threads !== null ? `${b.threads} thread${b.threads === 1 ? "" : "s"}` : null, b.device ? `device: ${b.device}` : null].filter(Boolean).join(", ");
  return `backend: ${b.backend} (${b.provider}${extra ? `, ${extra}` : ""})`;
}
