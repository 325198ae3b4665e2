#!/bin/bash
# Corpus-scale measurements of `ctxpro identify` (docs/ctxpro-scale.md): builds en-de inputs of 100k, 300k and
# 1M segment pairs from the WMT data (scripts/ctxpro-scale-corpus.ts), trains the aligner on 1M pairs, then
# runs shard 1 of inputs of growing size (the same first ~10k pairs each time: memory against input size at
# equal work) and whole inputs (throughput), each under /usr/bin/time -v. Prints one line per run: wall time,
# peak resident memory, load average before and after. Run from the repository root after `npx tsc -p .`.
#
#   scripts/bench-ctxpro-scale.sh [DIR]          # default DIR /tmp/ctxpro-scale; needs about 1 GB there
set -u
D=${1:-/tmp/ctxpro-scale}
mkdir -p "$D"
P="node dist/src/cli/index.js ctxpro"
for n in 100000 300000 1000000; do
  [ -s "$D/en-de.$n.tsv" ] || node dist/scripts/ctxpro-scale-corpus.js --pairs $n -o "$D/en-de.$n.tsv" || exit 1
done
run() { # name, command...
  local name=$1; shift
  local before; before=$(cut -d' ' -f1-3 /proc/loadavg)
  /usr/bin/time -v "$@" > "$D/$name.out" 2> "$D/$name.err"
  local rc=$?
  printf '%-14s rc %s  wall %s  peak RSS %s kB  load before %s after %s\n' "$name" $rc \
    "$(grep 'Elapsed (wall' "$D/$name.err" | awk '{print $NF}')" "$(grep 'Maximum resident' "$D/$name.err" | awk '{print $NF}')" \
    "$before" "$(cut -d' ' -f1-3 /proc/loadavg)"
  grep -E '^(train-aligner|identify): [0-9]' "$D/$name.err" | sed 's/^/    /'
}
run train-1m $P train-aligner -i "$D/en-de.1000000.tsv" -l de -o "$D/de.aligner"
for s in "100000 10" "300000 30" "1000000 100"; do set -- $s
  rm -rf "$D/shard-$1"
  run "shard-$1" $P identify -i "$D/en-de.$1.tsv" -l de --aligner "$D/de.aligner" --shard 1/$2 -o "$D/shard-$1"
done
for n in 100000 300000 1000000; do
  rm -rf "$D/whole-$n"
  run "whole-$n" $P identify -i "$D/en-de.$n.tsv" -l de --aligner "$D/de.aligner" -o "$D/whole-$n"
done
