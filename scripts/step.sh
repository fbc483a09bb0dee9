#!/usr/bin/env bash
# Runs one tier of `make test`, announcing it and reporting how long it took:
#   scripts/step.sh NAME COMMAND [ARGS...]
# Exits with the command's status, so make stops at the first failing tier.
set -uo pipefail
name=$1
shift
printf '\n==> %s\n' "$name"
start=$(date +%s)
"$@"
status=$?
elapsed=$(($(date +%s) - start))
if ((status == 0)); then
  printf '==> %s: ok (%ss)\n' "$name" "$elapsed"
  # Counted for the closing summary line of `make test`.
  mkdir -p target && echo "$name" >> target/.tiers-passed
else
  printf '==> %s: FAILED with status %s (%ss)\n' "$name" "$status" "$elapsed" >&2
fi
exit "$status"
