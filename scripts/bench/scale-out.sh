#!/usr/bin/env bash
# Scale-out: one skiff-server instance at CPU quota Q against two instances each at Q, on one PostgreSQL, for
# GET /v1/me, the first transactions page and POST /v1/transfers. Each instance runs in a cgroup of its own with the
# quota (cgroup v2 `cpu.max` where the unified hierarchy is mounted, else the v1 `cpu` controller); wrk, PostgreSQL
# and this script are not limited. The same load (CONNECTIONS split over two wrk processes) is offered both times:
# with one instance both wrk processes target it, with two each targets its own. Prints req/s and the ratio.
#
#   scripts/bench/scale-out.sh RELEASE-skiff-server POSTGRES-URL
# Environment: QUOTA (fraction of one core per instance, default 0.25), DURATION (s, 15), CONNECTIONS (64),
# USERS (1000; seeded once by `seed-users`: with 200, the second transfers run took senders past the day's step-up
# amount and counted the cheaper 403s as transfers), PORT (first port, 28500). Root is needed for the cgroups.
set -euo pipefail
server=${1:?the release skiff-server}; database=${2:?a PostgreSQL URL of a database the script may fill}
quota=${QUOTA:-0.25}; duration=${DURATION:-15}; connections=${CONNECTIONS:-64}; users=${USERS:-1000}
port=${PORT:-28500}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d); trap 'cleanup' EXIT
pids=()
cleanup() {
    for pid in "${pids[@]:-}"; do [ -n "$pid" ] && kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    for group in "${groups[@]:-}"; do [ -n "$group" ] && rmdir "$group" 2>/dev/null || true; done
    rm -rf "$work"
}
groups=()
period=100000
quota_us=$(python3 -c "print(int($quota * $period))")
if [ -f /sys/fs/cgroup/cgroup.controllers ]; then cgroot=/sys/fs/cgroup; v2=1; else cgroot=/sys/fs/cgroup/cpu; v2=0; fi

# A cgroup with the quota; prints its path.
make_group() {
    local group="$cgroot/skiff-scale-$1-$$"
    mkdir -p "$group"
    if [ "$v2" = 1 ]; then echo "$quota_us $period" > "$group/cpu.max"
    else echo "$period" > "$group/cpu.cfs_period_us"; echo "$quota_us" > "$group/cpu.cfs_quota_us"; fi
    groups+=("$group")
    echo "$group"
}

openssl rand -base64 32 > "$work/key"; chmod 600 "$work/key"
echo "scale-out-pass-2026" > "$work/password"
"$server" seed-users --count "$users" --password-file "$work/password" --sessions-out "$work/users.jsonl" \
    --database "$database" --key-file "$work/key" --bcrypt-cost 10 --log-level error >/dev/null
token=$(head -1 "$work/users.jsonl" | python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])')

# Starts instance N in its own quota'd cgroup on port+N.
start_instance() {
    local n=$1 group; group=$(make_group "$n")
    ( echo $BASHPID > "$group/cgroup.procs"
      exec "$server" serve --port $((port + n)) --trusted-proxy 127.0.0.1 --database "$database" --key-file "$work/key" --log-level error \
          >"$work/server-$n.log" 2>&1 ) &
    pids+=($!)
    for _ in $(seq 1 100); do curl -fs "http://127.0.0.1:$((port + n))/health" >/dev/null && return; sleep 0.1; done
    echo "instance $n did not start" >&2; cat "$work/server-$n.log" >&2; exit 1
}

stop_instances() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    pids=()
    for group in "${groups[@]}"; do rmdir "$group" 2>/dev/null || true; done
    groups=()
}

# Offers the load to the given ports (two wrk processes, half the connections each); prints total req/s.
load() {
    local what=$1; shift
    local a=$1 b=${2:-$1} half=$((connections / 2))
    local args=(-t1 -c"$half" -d"${duration}s" --latency)
    case "$what" in
        me) args+=(-H "Authorization: Bearer $token"); path=/v1/me ;;
        page) args+=(-H "Authorization: Bearer $token"); path="/v1/transactions?limit=50" ;;
        transfers) args+=(-s "$here/transfers.lua"); path="" ;;
    esac
    local extra=(); [ "$what" = transfers ] && extra=(-- "$work/users.jsonl" random)
    wrk "${args[@]}" "http://127.0.0.1:$a$path" "${extra[@]}" > "$work/wrk-a" &
    local wa=$!
    wrk "${args[@]}" "http://127.0.0.1:$b$path" "${extra[@]}" > "$work/wrk-b" &
    wait $wa $!
    python3 - "$work/wrk-a" "$work/wrk-b" <<'PY'
import re, sys
total = 0.0
for path in sys.argv[1:]:
    text = open(path).read()
    total += float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))
    if "Non-2xx" in text:
        print("non-2xx answers in", path, file=sys.stderr)
print(f"{total:.0f}")
PY
}

printf "quota %s core per instance, %s connections, %ss each, %s users\n" "$quota" "$connections" "$duration" "$users"
printf "%-10s %12s %12s %7s\n" endpoint "1 instance" "2 instances" ratio
for what in me page transfers; do
    start_instance 1
    one=$(load "$what" $((port + 1)))
    stop_instances
    start_instance 1; start_instance 2
    two=$(load "$what" $((port + 1)) $((port + 2)))
    stop_instances
    printf "%-10s %12s %12s %7s\n" "$what" "$one" "$two" "$(python3 -c "print(f'{$two / $one:.2f}')")"
done
