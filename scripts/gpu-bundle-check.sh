#!/usr/bin/env bash
# Checks a bundle of scripts/gpu-pack.sh on this machine as the GPU machine would run it, except the GPU:
# in a fresh folder laid out like the repository root there (the bundle's parts and
# scripts/gpu-pretrain.sh), with no Node.js on PATH (only the bundle's runs), no NODE_PATH and an empty
# environment, one call per part in a row (--stage-only for all but the last), on --backend wasm with a
# few steps. Then checks the results folder: its files, a checkpoint that loads, the steps asked for.
# Usage: scripts/gpu-bundle-check.sh [--bundle out/gpu-bundle] [--max-steps 6] [--keep DIR]
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUNDLE=$ROOT/out/gpu-bundle
MAX_STEPS=6
KEEP=
die() { echo "gpu-bundle-check: error: $*" >&2; exit 2; }
while [[ $# -gt 0 ]]; do
  case $1 in
    --bundle) BUNDLE=$2; shift 2 ;;
    --max-steps) MAX_STEPS=$2; shift 2 ;;
    --keep) KEEP=$2; shift 2 ;;
    *) die "unknown option '$1'" ;;
  esac
done
[[ -f $BUNDLE/part1/MANIFEST ]] || die "$BUNDLE/part1/MANIFEST: no bundle (scripts/gpu-pack.sh)"
nparts=$(awk '$1 == "parts" {print $2}' "$BUNDLE/part1/MANIFEST")

if [[ -n $KEEP ]]; then T=$KEEP; rm -rf "$T"; mkdir -p "$T"; else T=$(mktemp -d "${TMPDIR:-/tmp}/gpu-check.XXXXXX"); trap 'rm -rf "$T"' EXIT; fi
T=$(cd "$T" && pwd)
# A PATH of this machine's tools without node, npm, npx and corepack.
mkdir -p "$T/bin" "$T/repo/scripts" "$T/repo/out/gpu-bundle"
for d in /usr/local/sbin /usr/local/bin /usr/sbin /usr/bin /sbin /bin; do
  [[ -d $d ]] || continue
  for f in "$d"/*; do
    b=${f##*/}
    case $b in node | nodejs | npm | npx | corepack) continue ;; esac
    [[ -e $T/bin/$b ]] || ln -s "$f" "$T/bin/$b"
  done
done
cp "$ROOT/scripts/gpu-pretrain.sh" "$T/repo/scripts/"
run() { (cd "$T/repo" && env -i HOME="$T" PATH="$T/bin" LANG=C.UTF-8 bash scripts/gpu-pretrain.sh --work "$T/work" "$@"); }

# One call per part, as on the device machine: each call carries its own part only.
for ((k = 1; k <= nparts; k++)); do
  rm -rf "$T/repo/out/gpu-bundle"/part*
  cp -r "$BUNDLE/part$k" "$T/repo/out/gpu-bundle/"
  if ((k < nparts)); then
    run --stage-only
  else
    run --backend wasm --out "$T/results" --max-steps "$MAX_STEPS" --bench-steps 1 --bench-impls js --minutes 5
  fi
done

R=$T/results
for f in env.txt bench.log pretrain.log curve.json summary.txt checkpoint.tar; do
  [[ -s $R/$f ]] || die "$R/$f missing or empty"
done
grep -q "^node: $T/work/root/node/bin/node v" "$R/env.txt" || die "the run did not use the bundled node ($(grep '^node:' "$R/env.txt"))"
grep -q '"backend":"wasm"' "$R/bench.log" || die "bench.log has no wasm row"
mkdir -p "$T/ckpt"
tar -xf "$R/checkpoint.tar" -C "$T/ckpt"
for f in config.json weights.bin embeddings.bin curve.json resume.ckpt; do [[ -s $T/ckpt/$f ]] || die "checkpoint.tar lacks $f"; done
step=$(node -e 'console.log(require(process.argv[1]).training.step)' "$T/ckpt/config.json")
[[ $step == "$MAX_STEPS" ]] || die "the checkpoint has step $step, expected $MAX_STEPS"
# Loads with this machine's Node.js and the repository's own build too.
(cd "$ROOT" && node --input-type=module -e '
  await (await import("./dist/src/nn/backend.js")).selectBackend("cpu");
  const { loadPronounLm } = await import("./dist/src/pretrain/checkpoint.js");
  const { lm } = loadPronounLm(process.argv[1]);
  lm.dispose();
' "$T/ckpt") || die "the checkpoint does not load with the repository's build"
echo "gpu-bundle-check: ok: $nparts part(s), wasm run of $MAX_STEPS steps from the bundle alone; results in $R"
