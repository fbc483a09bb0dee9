#!/usr/bin/env bash
# Prints the shipped bundle's size as one line, "bundle: N bytes gzip": the sum of the
# gzip -9 sizes of the .html, .js, .wasm and .css files in dist/ (what a reader downloads).
set -euo pipefail
cd "$(dirname "$0")/.."
[[ -d dist ]] || { echo "size: dist/ is missing; run trunk build --release first" >&2; exit 1; }
total=0
while IFS= read -r -d '' file; do
  total=$((total + $(gzip -9 -c "$file" | wc -c)))
done < <(find dist -type f \( -name '*.html' -o -name '*.js' -o -name '*.wasm' -o -name '*.css' \) -print0)
echo "bundle: $total bytes gzip"
