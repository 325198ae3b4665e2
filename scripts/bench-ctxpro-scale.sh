#!/bin/bash
# Corpus-scale measurements of `ctxpro identify` (docs/ctxpro-scale.md). Builds en-de inputs of 100k, 300k and
# 1M segment pairs from the WMT data (scripts/ctxpro-scale-corpus.ts); trains the aligner on 1M pairs; runs
# shard 1 of inputs of growing size (the same first ~10k pairs each time: memory against input size at equal
# work); identifies the whole 100k input, and again as 2 shards merged (compared byte for byte); trains the
# aligner on 100k and 300k pairs. Each run under /usr/bin/time -v; prints one line per run: exit status, wall
# time, user+system CPU seconds, peak resident memory, load average before and after, and identify's summary.
# Run from the repository root after `npx tsc -p .`.
#
#   scripts/bench-ctxpro-scale.sh [DIR]          # default DIR /tmp/ctxpro-scale; needs about 1.5 GB there
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
  local cpu; cpu=$(awk -F': ' '/User time|System time/ {s += $2} END {printf "%.1f", s}' "$D/$name.err")
  printf '%-12s rc %s  wall %s  cpu %s s  peak RSS %s kB  load %s -> %s\n' "$name" $rc \
    "$(grep 'Elapsed (wall' "$D/$name.err" | awk '{print $NF}')" "$cpu" "$(grep 'Maximum resident' "$D/$name.err" | awk '{print $NF}')" \
    "$before" "$(cut -d' ' -f1-3 /proc/loadavg)"
  grep -E '^(train-aligner|identify|merge): [0-9]' "$D/$name.err" | sed 's/^/    /'
}
run train-1m $P train-aligner -i "$D/en-de.1000000.tsv" -l de -o "$D/de.aligner"
for s in "100000 10" "300000 30" "1000000 100"; do set -- $s
  rm -rf "$D/shard-$1"
  run "shard-$1" $P identify -i "$D/en-de.$1.tsv" -l de --aligner "$D/de.aligner" --shard 1/$2 -o "$D/shard-$1"
done
rm -rf "$D/whole-100k" "$D/half1" "$D/half2" "$D/merged"
run whole-100k $P identify -i "$D/en-de.100000.tsv" -l de --aligner "$D/de.aligner" -o "$D/whole-100k"
for i in 1 2; do run "half$i" $P identify -i "$D/en-de.100000.tsv" -l de --aligner "$D/de.aligner" --shard $i/2 -o "$D/half$i"; done
run merge $P merge "$D/half2" "$D/half1" -o "$D/merged"
for f in "$D"/whole-100k/*.json; do cmp -s "$f" "$D/merged/${f##*/}" && echo "    merged = whole: ${f##*/}" || echo "    MERGED DIFFERS: ${f##*/}"; done
run train-100k $P train-aligner -i "$D/en-de.100000.tsv" -l de -o "$D/de.100k.aligner"
run train-300k $P train-aligner -i "$D/en-de.300000.tsv" -l de -o "$D/de.300k.aligner"
