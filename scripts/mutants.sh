#!/usr/bin/env bash
# The mutation check (`make mutants`): do the tests notice a real bug? Plants each bug in
# the list below, one at a time, in a scratch copy of the repository (the working tree's
# tracked and untracked-but-not-ignored files, so tests being written count), runs the
# web-free core's whole suite — `cargo test --no-default-features`, every test binary and
# the doctests, stopping at the first failing binary — and reports, per bug, whether a test
# caught it and which test binary failed first. Ends with `caught N / planted M` and the
# time taken. The logs: target/mutants/unmutated.log, and last.log for the last bug.
#
# Each bug is an exact text substitution (file, old text, new text), listed in
# scripts/mutants.txt. The old text must occur exactly once in its file, or the script stops
# before building anything; tests/it/docs.rs checks the same on every `cargo test`, so
# when the code moves, the list is fixed in the same change rather than found broken here.
#
# The scratch copy is target/mutants-tree (a fixed path, so the build in target/mutants
# keeps its dependencies between runs); it is removed on exit. An unmutated run goes
# first: if the suite fails as it is, nothing can be learned and the script stops.
#
#   scripts/mutants.sh              every bug
#   scripts/mutants.sh 3 7          only bugs 3 and 7 (numbers as listed)
#   MUTANTS_TIMEOUT=900 scripts/mutants.sh   seconds per test run (default 600)
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
tree=$repo/target/mutants-tree
export CARGO_TARGET_DIR=$repo/target/mutants
timeout_s=${MUTANTS_TIMEOUT:-600}

# --- the bugs: read from scripts/mutants.txt (its head says the format) -----------------
names=() files=() olds=() news=()
list=scripts/mutants.txt
section="" body=""
# Ends the section being read: its text (its lines joined by newlines, the blank lines at
# its end dropped) goes where it belongs.
flush() {
  while [[ $body == *$'\n' ]]; do body=${body%$'\n'}; done
  case $section in
    old) olds+=("$body") ;;
    new) news+=("$body") ;;
  esac
  section="" body=""
}
while IFS= read -r line || [[ -n $line ]]; do
  case $line in
    '## bug: '*) flush; names+=("${line#'## bug: '}") ;;
    '## file: '*) flush; files+=("${line#'## file: '}") ;;
    '## old:') flush; section=old ;;
    '## new:') flush; section=new ;;
    *)
      if [[ -z $section ]]; then
        [[ -z $line || $line == '# '* || $line == '#' ]] && continue
        printf 'mutants: %s: a line outside any bug text: %s\n' "$list" "$line" >&2
        exit 1
      fi
      body+=$line$'\n'
      ;;
  esac
done <"$list"
flush
if ((${#names[@]} != ${#files[@]} || ${#names[@]} != ${#olds[@]} || ${#names[@]} != ${#news[@]})); then
  printf 'mutants: %s: every bug needs a name, a file, an old and a new text\n' "$list" >&2
  exit 1
fi

say() { printf 'mutants: %s\n' "$*"; }

# Which bugs to plant (1-based, as listed).
picked=()
if (($#)); then
  for a in "$@"; do
    [[ $a =~ ^[0-9]+$ ]] && ((a >= 1 && a <= ${#names[@]})) ||
      { say "no bug number $a (1..${#names[@]})" >&2; exit 2; }
    picked+=($((a - 1)))
  done
else
  for i in "${!names[@]}"; do picked+=("$i"); done
fi

# Occurrences of $2 in $1, both taken literally.
count() {
  local rest=$1 n=0
  while [[ $rest == *"$2"* ]]; do
    rest=${rest#*"$2"}
    n=$((n + 1))
  done
  echo "$n"
}

# A file's exact contents (trailing newlines kept).
slurp() { local s; s=$(cat "$1"; printf x); printf '%s' "${s%x}"; }

# Check the whole list before building anything.
for i in "${picked[@]}"; do
  f=${files[$i]}
  [[ -f $f ]] || { say "bug $((i + 1)) ($f): no such file" >&2; exit 1; }
  n=$(count "$(slurp "$f")" "${olds[$i]}")
  if ((n != 1)); then
    say "bug $((i + 1)) (${names[$i]}): its old text occurs $n times in $f, not once; update the list" >&2
    printf '%s\n' "${olds[$i]}" | sed 's/^/    | /' >&2
    exit 1
  fi
done

start=$(date +%s)
rm -rf "$tree"
trap 'rm -rf "$tree"' EXIT
mkdir -p "$tree" "$CARGO_TARGET_DIR"
git ls-files -z --cached --others --exclude-standard | while IFS= read -r -d '' f; do
  [[ -e $f ]] && printf '%s\0' "$f"
done | tar -cf - --null -T - | tar -xmf - -C "$tree"
# -m: every file is new to cargo. Kept mtimes would let it reuse the last run's build of
# whatever bug was planted last, since the restored file would look older than that build.
cd "$tree"

log=$CARGO_TARGET_DIR/unmutated.log
# Runs the suite; prints one word — pass, fail, timeout or unviable — and leaves the output
# in $log.
suite() {
  if ! timeout "$timeout_s" cargo test --no-default-features --no-run >"$log" 2>&1; then
    echo unviable
    return
  fi
  local rc=0
  timeout "$timeout_s" cargo test --no-default-features >>"$log" 2>&1 || rc=$?
  if ((rc == 0)); then echo pass; elif ((rc == 124)); then echo timeout; else echo fail; fi
}

# The test binary that failed (cargo's "to rerun pass `--test it`"), and the tests
# in it that failed: the first by name (tests run in parallel, so not the first to fail)
# and how many more.
culprit() {
  local bin test n
  bin=$(grep -o 'to rerun pass `[^`]*`' "$log" | head -n1 | sed 's/.*`\(.*\)`/\1/') || true
  test=$(grep -E '^test .* \.\.\. FAILED$' "$log" | sed -E 's/^test (.*) \.\.\. FAILED$/\1/' | sort -u) || true
  n=$(grep -c . <<<"$test") || true
  test=$(head -n1 <<<"$test")
  ((n > 1)) && test+=" and $((n - 1)) more"
  case $bin in
    --lib) bin="lib (unit tests)" ;;
    --doc) bin="doctests" ;;
    --bin*) bin="bin ${bin#--bin }" ;;
    --test\ it) bin="tests/it" ;;
    --test*) bin="tests/${bin#--test }.rs" ;;
    "") bin="?" ;;
  esac
  printf '%s%s' "$bin" "${test:+: $test}"
}

say "scratch copy in $tree, build in $CARGO_TARGET_DIR"
t0=$(date +%s)
result=$(suite)
if [[ $result != pass ]]; then
  say "the unmutated suite does not pass ($result); see $log" >&2
  tail -n 30 "$log" >&2
  exit 1
fi
say "unmutated: pass, $(grep -cE '^ +Running ' "$log") test binaries and the doctests ($(($(date +%s) - t0))s)"
log=$CARGO_TARGET_DIR/last.log

caught=0 planted=0 timeouts=0 unviable=0 survivors=()
for i in "${picked[@]}"; do
  f=${files[$i]}
  orig=$(slurp "$repo/$f")
  before=${orig%%"${olds[$i]}"*}
  after=${orig#*"${olds[$i]}"}
  printf '%s' "$before${news[$i]}$after" >"$f"
  t0=$(date +%s)
  result=$(suite)
  took=$(($(date +%s) - t0))
  cp "$repo/$f" "$f"
  label="$((i + 1)). ${names[$i]} ($f)"
  case $result in
    fail)
      caught=$((caught + 1)) planted=$((planted + 1))
      say "caught    $label — by $(culprit) (${took}s)"
      ;;
    timeout)
      caught=$((caught + 1)) planted=$((planted + 1)) timeouts=$((timeouts + 1))
      say "caught    $label — the suite ran over ${timeout_s}s (${took}s)"
      ;;
    pass)
      planted=$((planted + 1))
      survivors+=("$((i + 1))")
      say "SURVIVED  $label — every test passed (${took}s)"
      ;;
    unviable)
      unviable=$((unviable + 1))
      say "UNVIABLE  $label — does not compile; fix the list (${took}s)"
      grep -m3 -E '^error' "$log" | sed 's/^/    /' || true
      ;;
  esac
done

elapsed=$(($(date +%s) - start))
extra=""
((timeouts)) && extra+=", $timeouts by timeout"
((unviable)) && extra+=", $unviable did not compile"
((${#survivors[@]})) && extra+="; survived: ${survivors[*]}"
score=0
((planted)) && score=$((100 * caught / planted))
say "caught $caught / planted $planted (score ${score}%)$extra"
say "done in $((elapsed / 60))m $((elapsed % 60))s"
((unviable == 0))
