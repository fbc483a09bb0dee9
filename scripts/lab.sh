#!/usr/bin/env bash
# The lab: the lab scenarios (tools/lab/scenarios/*.json) run against a real Redis
# and a real etcd, with real client processes and real faults (SIGSTOP/SIGCONT, a proxy
# cut), each recorded as a trace (docs/trace-format.md) and compared with the model's run of
# the same file. Prints one line per scenario: model verdict, real verdict, largest timing
# difference, agree/differ; exits 1 if any differs.
#
# Installs what is missing from Debian's packages (redis-server, etcd-server), builds
# tools/lab, starts its own redis-server and etcd on free loopback ports with their data in a
# temporary directory, and stops every process it started on exit, Ctrl-C and failure.
# LAB_OUT: where the traces go (default target/lab). Extra arguments go to `lab all`.
#
#   scripts/lab.sh --check   the `make test` tier: the same run, but where the packages cannot
#                            be installed it says "lab: SKIPPED — …" with the reason and exits 0
#                            (a plain run fails there). Either way it exits 1 on "differ".
# LAB_FAIL=1 makes the lab fail on purpose once a scenario's clients run: to see that a failing
# run leaves no process behind (`pgrep -a redis-server; pgrep -a etcd` afterwards).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

check=0
if [[ ${1-} == --check ]]; then
    check=1
    shift
fi

# Installs the missing packages; on failure prints why (one line) and returns 1.
install() {
    local sudo=() log
    command -v apt-get >/dev/null || { echo "apt-get not found (not a Debian system)"; return 1; }
    if ((EUID != 0)); then
        if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
            sudo=(sudo -n)
        else
            echo "not root, and no password-less sudo"
            return 1
        fi
    fi
    log=$(mktemp)
    export DEBIAN_FRONTEND=noninteractive
    if "${sudo[@]}" apt-get install -y "$@" >"$log" 2>&1 \
        || { "${sudo[@]}" apt-get update >>"$log" 2>&1 && "${sudo[@]}" apt-get install -y "$@" >>"$log" 2>&1; }; then
        rm -f "$log"
        return 0
    fi
    { grep -E '^E:' "$log" || tail -n 1 "$log"; } | tail -n 1
    rm -f "$log"
    return 1
}

need=()
command -v redis-server >/dev/null || need+=(redis-server)
command -v etcd >/dev/null || need+=(etcd-server)
if ((${#need[@]})); then
    echo "lab: installing ${need[*]}"
    if ! why=$(install "${need[@]}") || ! command -v redis-server >/dev/null || ! command -v etcd >/dev/null; then
        why=${why:-installed, but redis-server or etcd is still not on PATH}
        if ((check)); then
            echo "lab: SKIPPED — could not install redis-server/etcd-server: $why"
            exit 0
        fi
        echo "lab: could not install redis-server/etcd-server: $why" >&2
        exit 1
    fi
fi

target="${CARGO_TARGET_DIR:-$PWD/target}"
cargo build --release --quiet --manifest-path tools/lab/Cargo.toml --target-dir "$target"
lab="$target/release/lab"

tmp=$(mktemp -d)
pids=()
cleanup() {
    local code=$?
    trap - EXIT INT TERM
    if [[ -n ${labpid-} ]]; then
        kill -TERM "$labpid" 2>/dev/null || true
        wait "$labpid" 2>/dev/null || true
    fi
    # Each service runs in its own session (setsid), so its process group is its pid.
    for p in "${pids[@]}"; do kill -TERM -- "-$p" 2>/dev/null || true; done
    for p in "${pids[@]}"; do
        for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$p" 2>/dev/null || break; sleep 0.2; done
        kill -KILL -- "-$p" 2>/dev/null || true
    done
    rm -rf "$tmp"
    exit "$code"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Free loopback ports: the lab binds port 0 and prints what the kernel picked.
read -r rp ec ep < <("$lab" ports 3)

mkdir -p "$tmp/redis" "$tmp/etcd"
setsid redis-server --port "$rp" --bind 127.0.0.1 --save '' --appendonly no --dir "$tmp/redis" \
    >"$tmp/redis.log" 2>&1 &
pids+=($!)
setsid etcd --name lab --data-dir "$tmp/etcd" \
    --listen-client-urls "http://127.0.0.1:$ec" --advertise-client-urls "http://127.0.0.1:$ec" \
    --listen-peer-urls "http://127.0.0.1:$ep" --initial-advertise-peer-urls "http://127.0.0.1:$ep" \
    --initial-cluster "lab=http://127.0.0.1:$ep" >"$tmp/etcd.log" 2>&1 &
pids+=($!)

# Ready when Redis answers PING and etcd's gateway answers a range.
for _ in $(seq 1 100); do
    r=$(redis-cli -h 127.0.0.1 -p "$rp" ping 2>/dev/null || true)
    e=$(curl -s -m 1 -X POST "http://127.0.0.1:$ec/v3/kv/range" -d '{"key":"AA=="}' || true)
    [[ "$r" == PONG && "$e" == *header* ]] && break
    sleep 0.1
done
[[ "$r" == PONG ]] || { echo "lab: redis-server did not start:"; tail -5 "$tmp/redis.log"; exit 1; }
[[ "$e" == *header* ]] || { echo "lab: etcd did not start:"; tail -5 "$tmp/etcd.log"; exit 1; }
echo "lab: $(redis-server --version | cut -d' ' -f1-3) on 127.0.0.1:$rp, etcd $(etcd --version | head -1 | cut -d' ' -f3) on 127.0.0.1:$ec"

# In the background and waited for, so a signal to this script reaches the cleanup at once;
# the cleanup stops it, and its client processes die with it (PR_SET_PDEATHSIG).
"$lab" all tools/lab/scenarios --redis "127.0.0.1:$rp" --etcd "127.0.0.1:$ec" --out "${LAB_OUT:-target/lab}" "$@" &
labpid=$!
wait "$labpid"
