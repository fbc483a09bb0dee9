#!/usr/bin/env bash
# The mutation check (`make mutants`): do the tests notice a real bug? Plants each bug in
# the list below, one at a time, in a scratch copy of the repository (the working tree's
# tracked and untracked-but-not-ignored files, so tests being written count), runs the
# web-free core's whole suite — `cargo test --no-default-features`, every test binary and
# the doctests, stopping at the first failing binary — and reports, per bug, whether a test
# caught it and which test binary failed first. Ends with `caught N / planted M` and the
# time taken. The logs: target/mutants/unmutated.log, and last.log for the last bug.
#
# Each bug is an exact text substitution (file, old text, new text). The old text must
# occur exactly once in its file, or the script stops before building anything: when the
# code moves, the list is fixed rather than silently testing nothing.
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

# --- the bugs: name | file | old text | new text ----------------------------------------
names=() files=() olds=() news=()
mutant() { names+=("$1") files+=("$2") olds+=("$3") news+=("$4"); }

mutant "checker: a write with no lease counts as newer than every epoch" \
  src/analysis/projection.rs \
  'epoch.unwrap_or(0)' \
  'epoch.unwrap_or(u32::MAX)'

mutant "projection: a resumed client never un-pauses" \
  src/analysis/projection.rs \
  'Event::Resumed => self.set_paused(n, false),' \
  'Event::Resumed => {
                if !n.is_client() {
                    self.set_paused(n, false)
                }
            }'

mutant "VecMap::remove returns the value but keeps the entry" \
  src/vocab/vecmap.rs \
  '        K: Borrow<Q>,
    {
        self.find(k).ok().map(|i| self.items.remove(i).1)' \
  '        K: Borrow<Q>,
        V: Clone,
    {
        self.find(k).ok().map(|i| self.items[i].1.clone())'

mutant "storage: the monotone fence rejects the current token too (< becomes <=)" \
  src/model/sim/storage.rs \
  '(FenceMode::Monotone | FenceMode::NonAtomic, Some(m)) if token < m =>' \
  '(FenceMode::Monotone | FenceMode::NonAtomic, Some(m)) if token <= m =>'

mutant "coordinator: the token counter does not advance on a grant" \
  src/model/sim/coordinator.rs \
  'let token = w.token.unwrap_or_else(|| {
            self.counter += 1;' \
  'let token = w.token.unwrap_or_else(|| {
            self.counter += 0;'

mutant "clock: drift runs the wrong way" \
  src/model/clock.rs \
  't.0 + d.div_euclid(1_000_000) as i64' \
  't.0 - d.div_euclid(1_000_000) as i64'

mutant "client: the safety margin is added to the granted deadline" \
  src/model/sim/client.rs \
  'let deadline = base.saturating_add(ttl_ms - spec.margin_ms);
                self.believe(ctx, spec, *token, *epoch, deadline);' \
  'let deadline = base.saturating_add(ttl_ms + spec.margin_ms);
                self.believe(ctx, spec, *token, *epoch, deadline);'

mutant "coordinator: a renewal is ignored at expiry (the first expiry timer ends a renewed lease)" \
  src/model/sim/coordinator.rs \
  'Some(l) if l.epoch == epoch && ctx.now >= l.expires_local);' \
  'Some(l) if l.epoch == epoch);'

mutant "checker: a lost update is never reported" \
  src/analysis/check.rs \
  'replaced_epoch.filter(|r| *r > mine)?;' \
  'replaced_epoch.filter(|_| false)?;'

mutant "checker: a write from the newest epoch counts as stale (< becomes <=)" \
  src/analysis/check.rs \
  '.filter(|p| *p > mine)?;' \
  '.filter(|p| *p >= mine)?;'

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

# The test binary that failed (cargo's "to rerun pass `--test core_sweep`"), and the tests
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
say "caught $caught / planted $planted$extra"
say "done in $((elapsed / 60))m $((elapsed % 60))s"
((unviable == 0))
