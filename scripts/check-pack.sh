#!/usr/bin/env bash
# Checks that the package installs anywhere: packs this checkout (npm pack, after the build), installs the
# tarball into an empty temporary project, and runs the installed `proneval score` on the shipped sample.
# Then compares the installed score table with this checkout's, and checks that the tarball holds what the
# product needs (dist/src, data, checkpoints) and nothing it should not (tests, docs, dist/scripts, out/).
# Needs the npm registry (or every dependency in npm's cache). Run from the repository root:
#   scripts/check-pack.sh
# The temporary project carries the same `overrides` as package.json (sharp 0.33 installs from npm
# packages; the 0.32 that @xenova/transformers asks for downloads libvips from GitHub at install time).
set -euo pipefail
cd "$(dirname "$0")/.."
die() { echo "check-pack: $*" >&2; exit 1; }
[[ -f dist/src/cli/index.js ]] || die "build first (npx tsc -p .)"
T=$(mktemp -d "${TMPDIR:-/tmp}/proneval-pack-XXXXXX")
trap 'rm -rf "$T"' EXIT
npm pack --ignore-scripts --pack-destination "$T" --json > "$T/pack.json" 2> "$T/pack.log" || { cat "$T/pack.log" >&2; die "npm pack failed"; }
TGZ=$(ls "$T"/proneval-*.tgz)
tar -tzf "$TGZ" | sed 's#^package/##' | sort > "$T/files.txt"
for f in dist/src/cli/index.js data/sample/wmttest2023.ru-en.sample.xml.gz data/pronouns.json checkpoints/pronoun-lm-modern/config.json README.md LICENSE; do
  grep -qx "$f" "$T/files.txt" || die "the tarball lacks $f"
done
grep -q '^checkpoints/vectors/[0-9a-f]\{64\}\.bin$' "$T/files.txt" || die "the tarball lacks the shared vector store"
if grep -E '^(test|docs|out|scripts|dist/scripts|dist/test|node_modules)/' "$T/files.txt" | head -3 | grep -q .; then
  die "the tarball holds files a user does not need: $(grep -E '^(test|docs|out|scripts|dist/scripts|dist/test|node_modules)/' "$T/files.txt" | head -3 | tr '\n' ' ')"
fi
overrides=$(node -e 'process.stdout.write(JSON.stringify(require("./package.json").overrides ?? {}))')
mkdir "$T/app"
printf '{ "name": "proneval-pack-check", "private": true, "overrides": %s }\n' "$overrides" > "$T/app/package.json"
(cd "$T/app" && npm install --prefer-offline --no-audit --no-fund "$TGZ" > "$T/install.log" 2>&1) || { tail -20 "$T/install.log" >&2; die "npm install of the tarball failed"; }
(cd "$T/app" && ./node_modules/.bin/proneval score -r node_modules/proneval/data/sample/wmttest2023.ru-en.sample.xml.gz -q) > "$T/installed.tsv" || die "the installed proneval score failed"
node dist/src/cli/index.js score -r data/sample/wmttest2023.ru-en.sample.xml.gz -q > "$T/here.tsv"
cmp -s "$T/installed.tsv" "$T/here.tsv" || { diff "$T/here.tsv" "$T/installed.tsv" >&2 || true; die "the installed package scores differently from this checkout"; }
echo "check-pack: $(basename "$TGZ") ($(du -h "$TGZ" | cut -f1), $(wc -l < "$T/files.txt") files) installs into an empty project and scores the sample as this checkout does"
