#!/usr/bin/env bash
# Runs one tier of `make test`, announcing it and reporting how long it took:
#   scripts/step.sh NAME COMMAND [ARGS...]
# Exits with the command's status, so make stops at the first failing tier. Each tier's
# name goes to target/.tiers-passed or target/.tiers-failed (`make test` empties both
# first), and a failing tier prints the tally so far, since make stops before the end:
#   scripts/step.sh --summary
# prints that tally — `tiers: N passed, M failed` — the closing line of `make test`.
set -uo pipefail
passed=target/.tiers-passed
failed=target/.tiers-failed

lines() { if [[ -f $1 ]]; then wc -l <"$1" | tr -d ' '; else echo 0; fi; }
summary() {
  local f
  f=$(lines "$failed")
  printf 'tiers: %s passed, %s failed' "$(lines "$passed")" "$f"
  ((f)) && printf ' (%s)' "$(paste -sd, "$failed" | sed 's/,/, /g')"
  printf '\n'
}

if [[ ${1-} == --summary ]]; then
  summary
  # A run with a failed tier does not end well, whoever asks.
  (($(lines "$failed") == 0))
  exit
fi

name=$1
shift
printf '\n==> %s\n' "$name"
start=$(date +%s)
"$@"
status=$?
elapsed=$(($(date +%s) - start))
mkdir -p target
if ((status == 0)); then
  printf '==> %s: ok (%ss)\n' "$name" "$elapsed"
  echo "$name" >>"$passed"
else
  printf '==> %s: FAILED with status %s (%ss)\n' "$name" "$status" "$elapsed" >&2
  echo "$name" >>"$failed"
  summary
fi
exit "$status"
