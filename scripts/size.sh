#!/usr/bin/env bash
# Prints what the page weighs, in gzip -9 bytes: the bundle (every .html, .js, .wasm and
# .css file in dist/, every build), the first load (index.html and the files it names: what
# a reader downloads before anything is asked for), and the rest of dist/, fetched on
# demand (the links' player, the whole app, the docs); then the ten largest functions of
# each build's wasm by twiggy; then the floors, built the way Trunk builds the app
# (wasm-bindgen, then wasm-opt) from tools/size-floor, so the budget can be argued with
# measured numbers:
# Yew plus the web-free core with no views at all, and the first load's floor — its share
# of the core with no views, with Yew and without it.
# Fails when the first load is over FIRST_LOAD_MAX (after printing everything).
set -euo pipefail
# A failing build inside $(floor_of) fails the tier too.
shopt -s inherit_errexit
cd "$(dirname "$0")/.."
[[ -d dist ]] || { echo "size: dist/ is missing; run trunk build --release first" >&2; exit 1; }

# The ceiling on the first load, in bytes gzip: the budget for the first load of any link
# (what a reader on a phone downloads before the link's own run is drawn), 170,000 bytes;
# the hard cap is 200,000. A change that grows the first load says so in its commit, with
# the figure this tier prints. The `first-load floor` lines below measure the least a first
# load built on Yew can weigh, so the room left for its views is the ceiling less that floor.
FIRST_LOAD_MAX=170000

gz() { gzip -9 -c "$1" | wc -c; }

total=0
parts=""
for ext in html js wasm css; do
  sum=0
  while IFS= read -r -d '' file; do
    sum=$((sum + $(gz "$file")))
  done < <(find dist -type f -name "*.$ext" -print0)
  total=$((total + sum))
  parts+="${parts:+, }$ext $sum"
done
echo "bundle: $total bytes gzip ($parts; every page file, every build)"

# The first load: index.html and every file it names (its scripts, styles, icon, and the
# first-load build's JS and wasm in boot.js's data attributes). The rest of dist/ — the
# links' player and the whole app's builds, the docs — is fetched only by a link that
# runs it or when a reader asks for it (see static/first-paint.js, static/boot.js and
# src/ui/handover.rs).
first=$(gz dist/index.html)
first_parts="index.html $first"
while IFS= read -r name; do
  [[ -f dist/$name ]] || continue
  n=$(gz "dist/$name")
  first=$((first + n))
  first_parts+=", $name $n"
done < <(grep -oE '(src|href|data-js|data-wasm)="?[^" >]+' dist/index.html | sed -E 's/^[a-z-]+="?//; s#^.*/##' | sort -u)
echo "first load: $first bytes gzip ($first_parts)"

# What each kind of link downloads before its first diagram, and before Play answers. The
# default page's first load is both. Any other built-in link draws its picture from
# index.html's files and its own first/ file (an embed with the whole app's stylesheet
# too); Play waits for the links' player (leaseline-player) and boot.js, on a plain link
# to a preset, a lesson, a fix or a question, a page's or an embed's (static/first-paint.js
# chooses, with an embed's options and a span too; a custom scenario, a time and the like
# wait for the whole app).
shared=$((first - $(gz dist/boot.js) - $(find dist -maxdepth 1 -name 'leaseline-lite-*' -type f -print0 | xargs -0 -n1 gzip -9 -c | wc -c)))
whole_app=$(( $(gz dist/boot.js) + $(gz dist/leaseline.js) + $(gz dist/leaseline_bg.wasm) ))
player=$(( $(gz dist/boot.js) + $(gz dist/leaseline-player.js) + $(gz dist/leaseline-player_bg.wasm) ))
echo "the whole app: $whole_app bytes gzip (its wasm $(gz dist/leaseline_bg.wasm), its glue $(gz dist/leaseline.js), boot.js $(gz dist/boot.js)): the player of any other link, and every tool"
echo "the links' player: $player bytes gzip (its wasm $(gz dist/leaseline-player_bg.wasm), its glue $(gz dist/leaseline-player.js), boot.js $(gz dist/boot.js)): a plain link's to a preset, a lesson, a fix or a question, a page's or an embed's"
echo "first load by kind of link (bytes gzip, to the first diagram / to Play):"
echo "  default page: $first / $first"
for kind in "lesson:s-slow-client-clock" "fix:s-check-then-write~fencing" "question:quiz-2" \
  "embed of a lesson:s-check-then-write.embed" "embed of a question:quiz-1.embed" \
  "embed with options (view=diagram):s-gc-pause-fenced.embed"; do
  file=${kind#*:}
  picture=dist/first/$file.html
  [[ -f $picture ]] || { echo "size: $picture is missing (scripts/first-paint.mjs writes it)" >&2; exit 1; }
  if [[ $file != *.embed ]]; then
    drawn=$((shared + $(gz "$picture")))
  else
    drawn=$((shared + $(gz dist/tools.css) + $(gz "$picture")))
  fi
  played=$((drawn + player))
  note=""
  ((played > FIRST_LOAD_MAX)) && note=" (to Play: over the $FIRST_LOAD_MAX ceiling by $((played - FIRST_LOAD_MAX)); the links' player is its player)"
  echo "  ${kind%%:*} ($file): $drawn / $played$note"
done

later=0
while IFS= read -r -d '' file; do
  later=$((later + $(gz "$file")))
done < <(find dist -type f -print0)
later=$((later - first))
echo "on demand: $later bytes gzip (the rest of dist/: the links' player, the whole app, the docs; each fetched only where it is used)"

# Twiggy reads the builds before wasm-opt strips their names, so the sizes are before it:
# a ranking, not the shipped bytes.
top10() {
  # awk reads all of twiggy's output (no `head`: under pipefail, a closed pipe fails the tier).
  twiggy top -n 40 "$1" | grep -v "custom section\|subsection\|data segment\|Σ\|\.\.\. and\|Shallow\|───" |
    awk -F'┊' 'NR <= 10 { gsub(/^ +| +$/, "", $1); gsub(/^ +/, "", $3); sub(/::h[0-9a-f]+$/, "", $3); printf "  %7s  %s\n", $1, substr($3, 1, 100) }'
}
release=target/wasm32-unknown-unknown/release
if command -v twiggy >/dev/null; then
  for build in leaseline-lite:"the first load" leaseline-player:"the links' player" leaseline:"the whole app"; do
    file=$release/${build%%:*}.wasm
    [[ -f $file ]] || continue
    echo "largest functions of ${build#*:} (twiggy, bytes before wasm-opt):"
    top10 "$file"
  done
fi

# The floors. Their own target dir keeps their Yew build apart from the app's.
floor_target=target/size-floor
# floor_of ARGS...: the gzip bytes (wasm + glue) of tools/size-floor built with ARGS.
floor_of() {
  local out=$floor_target/out
  # Built with the page's size cuts (scripts/cuts.sh), as the page is, so the floor stays a floor.
  CARGO_TARGET_DIR=$floor_target scripts/cuts.sh cargo build --quiet --release --target wasm32-unknown-unknown \
    --manifest-path tools/size-floor/Cargo.toml "$@"
  rm -rf "$out"
  wasm-bindgen --target web --out-dir "$out" "$floor_target/wasm32-unknown-unknown/release/size_floor.wasm"
  # The first load's floors are optimised as the first load is (index.html: -O1 until it
  # stops shrinking), the bundle's floor as the whole app is (-O2).
  wasm-opt ${floor_opt:--O2} --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
    --enable-mutable-globals --enable-reference-types --enable-multivalue \
    "$out/size_floor_bg.wasm" -o "$out/opt.wasm"
  # The glue minified as the page's is (scripts/minify-js.mjs), so the floor stays a floor.
  node --input-type=module -e "import { minify } from './scripts/minify-js.mjs';
    import { readFileSync, writeFileSync } from 'node:fs';
    writeFileSync('$out/slim.js', await minify(readFileSync('$out/size_floor.js', 'utf8')));"
  echo $(( $(gz "$out/opt.wasm") + $(gz "$out/slim.js") ))
}
floor=$(floor_of)
echo "floor (Yew + the core, no views, no CSS): $floor bytes gzip"
# The first load's floor: what its wasm and glue weigh with no views at all,
# with Yew and without it, beside the first load's files that are not its build (index.html,
# the CSS, boot.js, first-paint.js, the icon). No first load made with Yew can be lighter
# than the first figure plus those files.
lite_wasm=$(find dist -maxdepth 1 -name 'leaseline-lite-*_bg.wasm' | head -1)
lite_js=${lite_wasm%_bg.wasm}.js
rest=$((first - $(gz "$lite_wasm") - $(gz "$lite_js")))
floor_opt="-O1 --converge"
with_yew=$(floor_of --features first-load)
without=$(floor_of --no-default-features --features first-load)
echo "first-load floor (its core, no views): with Yew $with_yew bytes gzip, $((with_yew + rest)) with" \
  "the first load's other files ($rest); without Yew $without, $((without + rest)) with them"

if ((first > FIRST_LOAD_MAX)); then
  echo "size: the first load ($first bytes gzip) is over the ceiling of $FIRST_LOAD_MAX bytes" \
    "by $((first - FIRST_LOAD_MAX)) (FIRST_LOAD_MAX in scripts/size.sh; the hard cap is 200000)" >&2
  exit 1
fi
echo "size: the first load is within the ceiling of $FIRST_LOAD_MAX bytes gzip ($((FIRST_LOAD_MAX - first)) to spare; the hard cap is 200000)"
