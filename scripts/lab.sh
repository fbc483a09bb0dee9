#!/usr/bin/env bash
# The lab: the lab scenarios (tools/lab/scenarios/*.json) run against a real Redis, etcd
# and ZooKeeper, some with their storage in a real PostgreSQL, with real client processes and
# real faults (SIGSTOP/SIGCONT, a proxy cut), each recorded as a trace (docs/trace-format.md)
# and compared with the model's run of the same file. Prints one line per scenario: model
# verdict, real verdict, largest timing difference, agree/differ; exits 1 if any differs.
#
# Installs what is missing from Debian's packages (redis-server, etcd-server, postgresql,
# zookeeper — which brings a Java runtime), builds tools/lab, starts its own redis-server,
# etcd, PostgreSQL cluster and ZooKeeper on free loopback ports with their data in a temporary
# directory, and stops every process it started on exit, Ctrl-C and failure.
# LAB_OUT: where the traces go (default target/lab). Extra arguments go to `lab all`.
#
#   scripts/lab.sh --check   the `make test` tier: the same run, but where the packages cannot
#                            be installed it says "lab: SKIPPED — …" with the reason and exits 0
#                            (a plain run fails there). Either way it exits 1 on "differ".
# LAB_FAIL=1 makes the lab fail on purpose once a scenario's clients run: to see that a failing
# run leaves no process behind (`pgrep -af 'redis-server|etcd|postgres|zookeeper'` afterwards).
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

# PostgreSQL's binaries are versioned and off PATH: the newest installed major's.
pgbin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }
zkjar=/usr/share/java/zookeeper.jar
have_all() {
    command -v redis-server >/dev/null && command -v etcd >/dev/null \
        && [[ -x "$(pgbin)/postgres" ]] && [[ -f $zkjar ]] && command -v java >/dev/null
}
need=()
command -v redis-server >/dev/null || need+=(redis-server)
command -v etcd >/dev/null || need+=(etcd-server)
[[ -x "$(pgbin)/postgres" ]] || need+=(postgresql)
{ [[ -f $zkjar ]] && command -v java >/dev/null; } || need+=(zookeeper)
if ((${#need[@]})); then
    echo "lab: installing ${need[*]}"
    if ! why=$(install "${need[@]}") || ! have_all; then
        why=${why:-installed, but redis-server, etcd, postgres, $zkjar or java is still missing}
        if ((check)); then
            echo "lab: SKIPPED — could not install ${need[*]}: $why"
            exit 0
        fi
        echo "lab: could not install ${need[*]}: $why" >&2
        exit 1
    fi
fi

target="${CARGO_TARGET_DIR:-$PWD/target}"
cargo build --release --quiet --manifest-path tools/lab/Cargo.toml --target-dir "$target"
lab="$target/release/lab"

tmp=$(mktemp -d)
pids=()
# The signal that stops each service quickly and cleanly: TERM, but INT for PostgreSQL (its
# "fast" shutdown; TERM is "smart" and would wait for sessions to end).
declare -A stopsig=()
cleanup() {
    local code=$?
    trap - EXIT INT TERM
    if [[ -n ${labpid-} ]]; then
        kill -TERM "$labpid" 2>/dev/null || true
        wait "$labpid" 2>/dev/null || true
    fi
    # Each service runs in its own session (setsid), so its process group is its pid.
    for p in "${pids[@]}"; do kill "-${stopsig[$p]:-TERM}" -- "-$p" 2>/dev/null || true; done
    for p in "${pids[@]}"; do
        for _ in $(seq 1 25); do kill -0 "$p" 2>/dev/null || break; sleep 0.2; done
        kill -KILL -- "-$p" 2>/dev/null || true
    done
    rm -rf "$tmp"
    exit "$code"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Free loopback ports: the lab binds port 0 and prints what the kernel picked.
read -r rp ec ep pp zp < <("$lab" ports 5)

mkdir -p "$tmp/redis" "$tmp/etcd" "$tmp/pg" "$tmp/zk/data"
setsid redis-server --port "$rp" --bind 127.0.0.1 --save '' --appendonly no --dir "$tmp/redis" \
    >"$tmp/redis.log" 2>&1 &
pids+=($!)
setsid etcd --name lab --data-dir "$tmp/etcd" \
    --listen-client-urls "http://127.0.0.1:$ec" --advertise-client-urls "http://127.0.0.1:$ec" \
    --listen-peer-urls "http://127.0.0.1:$ep" --initial-advertise-peer-urls "http://127.0.0.1:$ep" \
    --initial-cluster "lab=http://127.0.0.1:$ep" >"$tmp/etcd.log" 2>&1 &
pids+=($!)

# PostgreSQL: a cluster of our own (initdb into the temporary directory), trusting loopback
# for the role `lab`, its unix socket in the temporary directory, no fsync (nothing here must
# survive a crash). postgres refuses to run as root, so as root the cluster belongs to the
# unprivileged `postgres` user the Debian package creates: initdb and postgres run as it
# through setpriv, which execs, so no process stays between setsid and postgres and the group
# stopped at cleanup is postgres's own. Run by any other user, they run as that user.
as_pg=()
if ((EUID == 0)); then
    as_pg=(setpriv --reuid=postgres --regid=postgres --init-groups --reset-env)
    chmod 711 "$tmp" # postgres must reach its own directory inside ours
    chown postgres: "$tmp/pg"
fi
pg=$(pgbin)
if ! "${as_pg[@]}" "$pg/initdb" -D "$tmp/pg/data" -U lab --auth=trust -E UTF8 --no-sync \
    >"$tmp/initdb.log" 2>&1; then
    echo "lab: initdb failed:"
    tail -5 "$tmp/initdb.log"
    exit 1
fi
setsid "${as_pg[@]}" "$pg/postgres" -D "$tmp/pg/data" -p "$pp" -c listen_addresses=127.0.0.1 \
    -c unix_socket_directories="$tmp/pg" -c fsync=off -c synchronous_commit=off \
    -c full_page_writes=off >"$tmp/pg.log" 2>&1 &
pids+=($!)
stopsig[$!]=INT

# ZooKeeper: one standalone server from the Debian package's jar, with a zoo.cfg of our own.
# A session expires on the server's next tick after its timeout, so the tick is short (the lab
# allows that much more for what follows an expiry); the bounds on the session timeout are
# set here because by default a server grants 2 … 20 ticks, and the scenarios ask for 4 s.
ztick=100
{
    echo "tickTime=$ztick"
    echo "dataDir=$tmp/zk/data"
    echo "clientPort=$zp"
    echo "clientPortAddress=127.0.0.1"
    echo "minSessionTimeout=$((2 * ztick))"
    echo "maxSessionTimeout=60000"
    echo "admin.enableServer=false"
    echo "4lw.commands.whitelist=ruok"
} >"$tmp/zk/zoo.cfg"
setsid java -Xmx256m -Dzookeeper.log.dir="$tmp/zk" -cp "$zkjar" \
    org.apache.zookeeper.server.ZooKeeperServerMain "$tmp/zk/zoo.cfg" >"$tmp/zk.log" 2>&1 &
pids+=($!)

# Ready when Redis answers PING, etcd's gateway a range, PostgreSQL pg_isready and ZooKeeper
# "ruok" (its JVM takes a few seconds).
ruok() { (exec 3<>"/dev/tcp/127.0.0.1/$zp" && printf ruok >&3 && timeout 1 cat <&3) 2>/dev/null || true; }
r='' e='' p='' z=''
for _ in $(seq 1 300); do
    [[ $r == PONG ]] || r=$(redis-cli -h 127.0.0.1 -p "$rp" ping 2>/dev/null || true)
    [[ $e == *header* ]] || e=$(curl -s -m 1 -X POST "http://127.0.0.1:$ec/v3/kv/range" -d '{"key":"AA=="}' || true)
    [[ $p == ok ]] || { "$pg/pg_isready" -q -h 127.0.0.1 -p "$pp" && p=ok; } || true
    [[ $z == imok ]] || z=$(ruok)
    [[ $r == PONG && $e == *header* && $p == ok && $z == imok ]] && break
    sleep 0.1
done
[[ $r == PONG ]] || { echo "lab: redis-server did not start:"; tail -5 "$tmp/redis.log"; exit 1; }
[[ $e == *header* ]] || { echo "lab: etcd did not start:"; tail -5 "$tmp/etcd.log"; exit 1; }
[[ $p == ok ]] || { echo "lab: postgres did not start:"; tail -5 "$tmp/pg.log"; exit 1; }
[[ $z == imok ]] || { echo "lab: zookeeper did not start:"; tail -5 "$tmp/zk.log"; exit 1; }
# A fresh ZooKeeper is a cold JVM; a running one is warm (see `lab warm-zookeeper`).
"$lab" warm-zookeeper "127.0.0.1:$zp" || { echo "lab: zookeeper did not answer:"; tail -5 "$tmp/zk.log"; exit 1; }
zkv=$(dpkg-query -W -f '${Version}' zookeeper 2>/dev/null || true)
echo "lab: $(redis-server --version | cut -d' ' -f1-3) on 127.0.0.1:$rp, etcd $(etcd --version | head -1 | cut -d' ' -f3) on 127.0.0.1:$ec,"
echo "     $("$pg/postgres" --version) on 127.0.0.1:$pp, ZooKeeper ${zkv:-?} (tickTime $ztick ms) on 127.0.0.1:$zp"

# In the background and waited for, so a signal to this script reaches the cleanup at once;
# the cleanup stops it, and its client processes die with it (PR_SET_PDEATHSIG).
"$lab" all tools/lab/scenarios --redis "127.0.0.1:$rp" --etcd "127.0.0.1:$ec" \
    --postgres "127.0.0.1:$pp" --postgres-user lab \
    --zookeeper "127.0.0.1:$zp" --zookeeper-tick-ms "$ztick" \
    --out "${LAB_OUT:-target/lab}" "$@" &
labpid=$!
wait "$labpid"
