#!/usr/bin/env bash
# Runs on a GPU machine that has no Node.js and no network, from the repository root, over the bundle
# that scripts/gpu-pack.sh built (out/gpu-bundle/part1/, part2/ ...: one part per call; docs/gpu.md):
# puts this call's part(s) together with those of earlier calls on the same machine, unpacks the bundle,
# checks the NVIDIA driver, its Vulkan ICD and the WebGPU adapter, then runs the pretraining benchmark
# (scripts/bench-pretrain.ts: both BiLSTM implementations on the GPU, wasm with the js BiLSTM as reference
# in the same process; then the graph BiLSTM at a larger batch) and a time-boxed `proneval pretrain` on the
# bundle's corpus slice. Results go to one folder ($OUT when set): env.txt, bench.log, pretrain.log,
# curve.json, summary.txt and checkpoint.tar (the model, its embeddings, curve.json and resume.ckpt:
# `tar -xf checkpoint.tar -C dir`, then `proneval pretrain ... -o dir --resume` continues it).
#
# Usage: bash scripts/gpu-pretrain.sh [options] [-- more pretrain options]
#   --stage-only        keep this call's part(s) under --work and stop (the calls before the last, for a
#                       bundle in several parts); also reports the driver and the Vulkan ICD
#   --backend B         webgpu (default) | wasm: the CPU, to check the bundle on a machine without a GPU
#   --minutes X         pretraining time box, minutes of training (default 7; see --budget)
#   --budget S          the call ends within S seconds (default 570, under the 600 s a call may run): the
#                       time box shrinks when unpacking and the benchmark took longer
#   --max-steps N       also stop pretraining after N steps (default 0: no limit)
#   --bench-steps N     benchmark steps per measurement (default 20)
#   --bench-impls L     BiLSTM implementations to benchmark (default: graph on webgpu, where the js one
#                       cannot run (it reads at every time step); js,graph on wasm)
#   --big-batch N       also benchmark the graph BiLSTM alone at this batch, half the steps (default 256;
#                       0: no)
#   --bench-timeout S   each benchmark is stopped after S seconds (default 150)
#   --no-bench, --no-pretrain   leave the benchmark or the pretraining out (to spread them over two calls)
#   --bundle DIR        the bundle's folder (default out/gpu-bundle)
#   --work DIR          where parts are kept and the bundle unpacked (default /tmp/proneval-gpu)
#   --out DIR           results (default: $OUT when set, else out/gpu-run)
# Exit status: 0 all done; 1 the benchmark or pretraining failed; 2 no GPU, driver, ICD or adapter (nothing
# falls back to the CPU), or a bad option; 3 the bundle is incomplete or damaged (the message says which
# part to carry).
set -uo pipefail
T0=$(date +%s)

STAGE_ONLY=0
BACKEND=webgpu
MINUTES=7
BUDGET=570
MAX_STEPS=0
BENCH_STEPS=20
BENCH_IMPLS=
BIG_BATCH=256
BENCH_TIMEOUT=150
DO_BENCH=1
DO_PRETRAIN=1
BUNDLE=out/gpu-bundle
WORK=/tmp/proneval-gpu
OUTD=${OUT:-out/gpu-run}
EXTRA=()

die() { local code=$1; shift; echo "gpu-pretrain: error: $*" >&2; exit "$code"; }
say() { echo "gpu-pretrain: $*" >&2; }
need() { [[ $# -ge 2 && -n $2 ]] || die 2 "$1 needs a value"; }
isint() { [[ $2 =~ ^[0-9]+$ ]] || die 2 "$1 must be a whole number, got '$2'"; }
isnum() { [[ $2 =~ ^[0-9]+([.][0-9]+)?$ ]] || die 2 "$1 must be a number, got '$2'"; }

while [[ $# -gt 0 ]]; do
  case $1 in
    --stage-only) STAGE_ONLY=1; shift ;;
    --backend) need "$@"; BACKEND=$2; shift 2 ;;
    --minutes) need "$@"; isnum "$1" "$2"; MINUTES=$2; shift 2 ;;
    --budget) need "$@"; isnum "$1" "$2"; BUDGET=$2; shift 2 ;;
    --max-steps) need "$@"; isint "$1" "$2"; MAX_STEPS=$2; shift 2 ;;
    --bench-steps) need "$@"; isint "$1" "$2"; BENCH_STEPS=$2; shift 2 ;;
    --bench-impls) need "$@"; BENCH_IMPLS=$2; shift 2 ;;
    --big-batch) need "$@"; isint "$1" "$2"; BIG_BATCH=$2; shift 2 ;;
    --bench-timeout) need "$@"; isnum "$1" "$2"; BENCH_TIMEOUT=$2; shift 2 ;;
    --no-bench) DO_BENCH=0; shift ;;
    --no-pretrain) DO_PRETRAIN=0; shift ;;
    --bundle) need "$@"; BUNDLE=$2; shift 2 ;;
    --work) need "$@"; WORK=$2; shift 2 ;;
    --out) need "$@"; OUTD=$2; shift 2 ;;
    --) shift; EXTRA=("$@"); break ;;
    -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) die 2 "unknown option '$1' (see --help)" ;;
  esac
done
[[ $BACKEND == webgpu || $BACKEND == wasm ]] || die 2 "--backend must be webgpu or wasm, got '$BACKEND'"
[[ -n $BENCH_IMPLS ]] || { [[ $BACKEND == webgpu ]] && BENCH_IMPLS=graph || BENCH_IMPLS=js,graph; }

# ---------------------------------------------------------------------------------------------------
# Parts: every call copies the chunks it carries to $WORK/chunks (checked against the manifest's
# sha256); chunks of another bundle found there are dropped.
CH=$WORK/chunks
mkdir -p "$CH" || die 2 "cannot create $CH"
manifest=
for m in "$BUNDLE"/part*/MANIFEST; do [[ -f $m ]] && { manifest=$m; break; }; done
if [[ -n $manifest ]]; then
  head -1 "$manifest" | grep -q '^proneval-gpu-bundle 1$' || die 3 "$manifest: not a bundle manifest of scripts/gpu-pack.sh"
  if [[ -f $CH/MANIFEST ]] && ! cmp -s "$manifest" "$CH/MANIFEST"; then
    say "$WORK holds parts of another bundle: dropped"
    rm -rf "$CH" "$WORK/root"
    mkdir -p "$CH"
  fi
  cp "$manifest" "$CH/MANIFEST"
elif [[ ! -f $CH/MANIFEST ]]; then
  die 3 "no bundle: neither $BUNDLE/part*/ (carry out/gpu-bundle/part1 in this call; build it with scripts/gpu-pack.sh) nor parts kept in $CH by an earlier call"
fi
read -r _ payload_bytes payload_sha < <(grep '^payload ' "$CH/MANIFEST")
nparts=$(awk '$1 == "parts" {print $2}' "$CH/MANIFEST")
missing=()
while read -r _ k name bytes sha; do
  have=0
  if [[ -f $CH/$name ]] && [[ $(stat -c %s "$CH/$name") == "$bytes" ]]; then have=1; fi
  for src in "$BUNDLE"/part*/"$name"; do
    [[ -f $src && $have == 0 ]] || continue
    [[ $(sha256sum "$src" | cut -d' ' -f1) == "$sha" ]] || die 3 "$src: damaged (sha256 differs from the manifest): pack again, or copy part$k again"
    cp "$src" "$CH/$name.tmp" && mv "$CH/$name.tmp" "$CH/$name" && have=1
    say "part $k of $nparts kept in $CH"
  done
  ((have)) || missing+=("$k")
done < <(grep '^chunk ' "$CH/MANIFEST")

# The NVIDIA driver's Vulkan ICD: where VK_DRIVER_FILES / VK_ICD_FILENAMES point, the driver's own folder
# (/usr/local/nvidia in GPU containers, where the ICD that ran lives), or the loader's standard folders.
find_icd() {
  local c
  for c in ${VK_DRIVER_FILES:-} ${VK_ICD_FILENAMES:-} /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json \
    /usr/share/vulkan/icd.d/nvidia_icd.json /etc/vulkan/icd.d/nvidia_icd.json /usr/local/share/vulkan/icd.d/nvidia_icd.json; do
    [[ -f $c ]] && { echo "$c"; return 0; }
  done
  c=$(find /usr/local/nvidia /usr/share /etc /usr/local/share /opt -maxdepth 5 -name 'nvidia_icd*.json' 2>/dev/null | head -1)
  [[ -n $c ]] && { echo "$c"; return 0; }
  return 1
}

env_report() {
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "host: $(uname -srm); $(nproc) CPUs"
  if command -v nvidia-smi >/dev/null; then
    echo "nvidia-smi -L: $(nvidia-smi -L 2>&1 | tr '\n' ';')"
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader 2>&1 | sed 's/^/gpu: /'
  else
    echo "nvidia-smi: not found"
  fi
}

if ((STAGE_ONLY)); then
  env_report >&2
  echo "vulkan ICD: $(find_icd || echo 'none found')" >&2
  if ((${#missing[@]})); then
    say "staged: $((nparts - ${#missing[@]})) of $nparts parts; next call (at once, the machine stays warm only briefly): carry out/gpu-bundle/part${missing[0]}"
  else
    say "staged: all $nparts parts; the next call runs the bundle (bash scripts/gpu-pretrain.sh)"
  fi
  exit 0
fi
if ((${#missing[@]})); then
  die 3 "bundle incomplete: part(s) ${missing[*]} of $nparts missing (carry out/gpu-bundle/part${missing[0]}; a machine given back between calls keeps nothing: start again with part 1 and --stage-only)"
fi

# ---------------------------------------------------------------------------------------------------
# Unpack (once per bundle and machine).
ROOTD=$WORK/root
t_unpack=$(date +%s)
if [[ ! -f $ROOTD/.unpacked ]] || [[ $(cat "$ROOTD/.unpacked") != "$payload_sha" ]]; then
  rm -rf "$ROOTD" && mkdir -p "$ROOTD"
  chunks=()
  while read -r _ k name _ sha; do
    [[ $(sha256sum "$CH/$name" | cut -d' ' -f1) == "$sha" ]] || { rm -f "$CH/$name"; die 3 "$CH/$name: damaged (sha256 differs from the manifest): carry part$k again"; }
    chunks+=("$CH/$name")
  done < <(grep '^chunk ' "$CH/MANIFEST")
  if command -v xz >/dev/null && tar --version 2>/dev/null | grep -q GNU; then
    cat "${chunks[@]}" | xz -dc | tar -xi -C "$ROOTD" || die 3 "unpacking the bundle failed"
  else
    python3 - "$ROOTD" "${chunks[@]}" <<'EOF' || die 3 "unpacking the bundle (python3 lzma/tarfile) failed"
import io, lzma, sys, tarfile
data = b"".join(open(p, "rb").read() for p in sys.argv[2:])
with tarfile.open(fileobj=io.BytesIO(lzma.decompress(data)), mode="r:", ignore_zeros=True) as t:
    t.extractall(sys.argv[1])
EOF
  fi
  echo "$payload_sha" >"$ROOTD/.unpacked"
fi
t_unpack=$(($(date +%s) - t_unpack))
APP=$ROOTD/app
NODEBIN=$ROOTD/node/bin
[[ -x $NODEBIN/node ]] || die 3 "$NODEBIN/node missing after unpacking"
export PATH=$NODEBIN:$PATH
unset NODE_PATH NODE_OPTIONS

mkdir -p "$OUTD" || die 2 "cannot create $OUTD"
OUTD=$(cd "$OUTD" && pwd)
ENVF=$OUTD/env.txt
{
  env_report
  echo "node: $(command -v node) $(node --version)"
  cat "$ROOTD/BUNDLE.txt"
  echo "unpacked in ${t_unpack} s to $ROOTD"
} >"$ENVF"

# ---------------------------------------------------------------------------------------------------
# The GPU: driver, Vulkan ICD, loader, adapter. Any missing piece ends the run (exit 2).
if [[ $BACKEND == webgpu ]]; then
  command -v nvidia-smi >/dev/null || die 2 "nvidia-smi not found: no NVIDIA driver on this machine (--backend webgpu needs the GPU; --backend wasm checks the bundle on the CPU)"
  nvidia-smi -L >/dev/null 2>&1 || die 2 "nvidia-smi fails: $(nvidia-smi -L 2>&1 | head -1)"
  icd=$(find_icd) || die 2 "no NVIDIA Vulkan ICD (nvidia_icd.json in /usr/share/vulkan/icd.d, /etc/vulkan/icd.d or /usr/local/nvidia/share/vulkan/icd.d); set VK_DRIVER_FILES to it"
  # The ICD names the driver's Vulkan library (libGLX_nvidia.so.0), found through the library path.
  lib=$(sed -n 's/.*"library_path"[[:space:]]*:[[:space:]]*"\([^"]*\)".*/\1/p' "$icd" | head -1)
  [[ -n $lib ]] || die 2 "$icd: names no library_path"
  if [[ $lib == /* ]]; then
    [[ -f $lib ]] || die 2 "$icd names $lib, which does not exist"
  elif ! ldconfig -p 2>/dev/null | grep -q "[[:space:]]$lib "; then
    dir=
    for d in /usr/local/nvidia/lib64 /usr/local/nvidia/lib /usr/lib/x86_64-linux-gnu /usr/lib64 /usr/lib; do
      [[ -e $d/$lib ]] && { dir=$d; break; }
    done
    [[ -n $dir ]] || die 2 "$icd names $lib, which is neither in the linker cache nor in /usr/local/nvidia/lib64"
    export LD_LIBRARY_PATH=$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  fi
  export VK_ICD_FILENAMES=$icd VK_DRIVER_FILES=$icd
  if ldconfig -p 2>/dev/null | grep -q '[[:space:]]libvulkan\.so\.1 '; then
    loader="the machine's libvulkan.so.1"
  elif [[ -f $ROOTD/vulkan/libvulkan.so.1 ]]; then
    export LD_LIBRARY_PATH=$ROOTD/vulkan${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    loader="the bundle's libvulkan.so.1 (Debian libvulkan1)"
  else
    die 2 "no Vulkan loader: the machine has no libvulkan.so.1 and the bundle was packed without one (--vulkan-deb none)"
  fi
  # The driver's Vulkan library needs glvnd's dispatcher; without it the loader reports "Could not get
  # 'vkCreateInstance'" and finds no driver.
  if ! ldconfig -p 2>/dev/null | grep -q '[[:space:]]libGLdispatch\.so\.0 ' && [[ -f $ROOTD/vulkan/glvnd/libGLdispatch.so.0 ]]; then
    export LD_LIBRARY_PATH=$ROOTD/vulkan/glvnd${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    loader="$loader, the bundle's libGLdispatch.so.0 (Debian libglvnd0)"
  fi
  echo "vulkan: ICD $icd (library $lib), loader: $loader, LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}" >>"$ENVF"
fi
# Prints the backend line (or the reason it is not available) on stdout; Dawn's and the loader's messages
# go to stderr.
check_backend() {
  (cd "$APP" && node --input-type=module -e '
    const b = await import("./dist/src/nn/backend.js");
    try { console.log(b.describeBackend(await b.selectBackend(process.argv[1]))); }
    catch (e) { console.log(String(e.message ?? e).split("\n")[0]); process.exit(2); }
  ' "$BACKEND")
}
if ! line=$(check_backend 2>"$WORK/check.err"); then
  {
    echo "backend check failed: $line"
    sed 's/^/stderr: /' "$WORK/check.err"
    # What the Vulkan loader saw, for the next try.
    [[ $BACKEND == webgpu ]] && VK_LOADER_DEBUG=error,warn,driver check_backend 2>&1 >/dev/null | head -80 | sed 's/^/loader: /'
  } >>"$ENVF"
  cat "$ENVF" >&2
  die 2 "GPU adapter not found: $line (the driver and Vulkan details are above and in $ENVF)"
fi
sed 's/^/stderr: /' "$WORK/check.err" >>"$ENVF"
echo "$line" >>"$ENVF"
say "$line"

# ---------------------------------------------------------------------------------------------------
# Benchmark. Rows are printed as they are measured, so a stopped benchmark keeps its finished rows.
status=0
t_bench=$(date +%s)
BENCH=$OUTD/bench.log
: >"$BENCH"
bench() {
  echo "\$ node dist/scripts/bench-pretrain.js $*" >>"$BENCH"
  (cd "$APP" && timeout -s INT -k 10 "$BENCH_TIMEOUT" node dist/scripts/bench-pretrain.js "$@") >>"$BENCH" 2>&1
  local rc=$?
  if ((rc != 0)); then
    echo "(exit $rc$( ((rc == 124 || rc == 130)) && echo ": stopped after $BENCH_TIMEOUT s"))" >>"$BENCH"
    say "benchmark $* ended with exit $rc (bench.log)"
    status=1
  fi
}
if ((DO_BENCH)); then
  bench --backend "$BACKEND" --steps "$BENCH_STEPS" --impls "$BENCH_IMPLS"
else
  echo "(benchmark left out: --no-bench)" >>"$BENCH"
fi
if ((DO_BENCH)) && [[ $BACKEND != wasm && $BIG_BATCH != 0 ]]; then
  bench --backend "$BACKEND" --steps $(((BENCH_STEPS + 1) / 2)) --impls graph --batch "$BIG_BATCH" --reference none
fi
t_bench=$(($(date +%s) - t_bench))

# ---------------------------------------------------------------------------------------------------
# Time-boxed pretraining on the corpus slice, with the full corpus's embedding table.
RUN=$WORK/run
rm -rf "$RUN" && mkdir -p "$RUN"
cp "$ROOTD/corpus/embeddings.bin" "$RUN/embeddings.bin"
left=$((BUDGET - ($(date +%s) - T0) - 45))
minutes=$(awk -v m="$MINUTES" -v s="$left" 'BEGIN {x = s / 60; if (m < x) x = m; printf "%.2f", x}')
t_pre=$(date +%s)
pre_rc=-1
if ((!DO_PRETRAIN)); then
  echo "(pretraining left out: --no-pretrain)" >"$OUTD/pretrain.log"
elif awk -v m="$minutes" 'BEGIN {exit !(m < 0.5)}'; then
  say "no time left for pretraining within --budget $BUDGET s"
  echo "pretraining not run: $left s left of --budget $BUDGET" >"$OUTD/pretrain.log"
  status=1
else
  say "pretraining for $minutes min (--backend $BACKEND${EXTRA[*]:+ ${EXTRA[*]}}) ..."
  args=(pretrain --corpus "$ROOTD/corpus/slice.jsonl" -o "$RUN" --force --backend "$BACKEND" --max-minutes "$minutes"
    --max-steps "$MAX_STEPS" --checkpoint-every 50 "${EXTRA[@]}")
  echo "\$ node dist/src/cli/index.js ${args[*]}" >"$OUTD/pretrain.log"
  # pretrain stops cleanly on SIGTERM (checkpoint and model written); the timeout is a safety net only.
  kill_after=$(awk -v m="$minutes" 'BEGIN {printf "%d", m * 60 + 60}')
  (cd "$APP" && timeout -s TERM -k 30 "$kill_after" node dist/src/cli/index.js "${args[@]}") >>"$OUTD/pretrain.log" 2>&1
  pre_rc=$?
  ((pre_rc == 0)) || { say "pretraining ended with exit $pre_rc (pretrain.log)"; status=1; }
fi
t_pre=$(($(date +%s) - t_pre))

# ---------------------------------------------------------------------------------------------------
# Results: the checkpoint must load; curve.json and the whole run folder as one tar.
loads=no
if [[ -f $RUN/config.json ]]; then
  if loads=$(cd "$APP" && node --input-type=module -e '
    await (await import("./dist/src/nn/backend.js")).selectBackend("cpu");
    const { loadPronounLm } = await import("./dist/src/pretrain/checkpoint.js");
    const { config, lm } = loadPronounLm(process.argv[1]);
    const t = config.training;
    console.log(`yes: step ${t.step}, ${t.tokens} tokens, ${t.seconds} s of training, backend ${t.backend}, BiLSTM ${t.lstmImpl}`);
    lm.dispose();
  ' "$RUN" 2>&1); then :; else say "the checkpoint does not load: $loads"; loads="no: $loads"; status=1; fi
  cp "$RUN/curve.json" "$OUTD/curve.json" 2>/dev/null
  files=(config.json weights.bin embeddings.bin curve.json)
  [[ -f $RUN/resume.ckpt ]] && files+=(resume.ckpt)
  tar -C "$RUN" -cf "$OUTD/checkpoint.tar" "${files[@]}"
elif ((DO_PRETRAIN)); then
  say "pretraining wrote no model"
  status=1
fi

{
  echo "proneval GPU pretraining run, backend $BACKEND"
  grep -E '^backend:|^peak RSS' "$ENVF" "$BENCH" 2>/dev/null | sed 's/^[^:]*: *//; s/^/  /' | sort -u
  echo "benchmark (bench.log; tokens/s of full optimizer steps, batch 64 unless said):"
  grep -E '^\{"backend"|tokens/s, x' "$BENCH" | sed 's/^/  /'
  echo "pretraining ($minutes min box, exit $pre_rc; pretrain.log):"
  grep -E '^corpus:|^stopped|^steps ' "$OUTD/pretrain.log" | sed 's/^/  /'
  if [[ -f $RUN/curve.json ]]; then
    (cd "$APP" && node -e '
      const c = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).curve;
      const l = c[c.length - 1];
      if (l) console.log(`  ${l.step} steps, ${l.tokens} tokens in ${l.seconds} s: ${Math.round(l.tokens / Math.max(1, l.seconds))} tokens/s over the run, last loss ${typeof l.loss === "number" ? l.loss.toFixed(3) : "not a number"}`);
    ' "$RUN/curve.json")
  fi
  echo "checkpoint loads: $loads"
  echo "seconds: unpack $t_unpack, benchmark $t_bench, pretraining $t_pre, whole call $(($(date +%s) - T0))"
} >"$OUTD/summary.txt"
cat "$OUTD/summary.txt"
exit $status
