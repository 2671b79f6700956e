#!/usr/bin/env bash
# Server CPU a request: a release skiff-server on 127.0.0.1 under wrk (2 threads, 64 connections), its user + system
# CPU time (from /proc) over the measured window divided by the requests answered. Steadier than req/s on a machine
# whose other tenants take CPU: the work a request costs, not the share of the cores the server got.
#
#   scripts/bench/cpu-per-request.sh RELEASE-skiff-server MODE [DATABASE]
# MODE: me, page (50 transactions), spending (each needs DATABASE, a SQLite file seeded with PHONE and PASSWORD), the
# floors health (`/health`, no middleware) and 404 (an unknown path through every middleware, with the same token;
# DATABASE as for me), or random / hot (transfers.lua among USERS new users in a new SQLite file; DATABASE not used).
# Environment: DURATION (s, 8; after a 2 s warm-up), PHONE ("202 555 0177"), PASSWORD (bench-pass-2026), USERS (1000).
# Prints: mode, req/s, p99, server CPU µs a request, and the part of it on SQLite's writer thread.
# Every load script here starts the server with --trusted-proxy 127.0.0.1: wrk's 64 connections from one address are
# over the per-address cap (32), and the refused half reopening in a loop would be measured as the server's work.
set -euo pipefail
server=${1:?the release skiff-server}; mode=${2:?health, 404, me, page, spending, random or hot}; database=${3:-}
duration=${DURATION:-8}; phone=${PHONE:-202 555 0177}; password=${PASSWORD:-bench-pass-2026}; users=${USERS:-1000}
here=$(cd "$(dirname "$0")" && pwd)
command -v wrk >/dev/null || { echo "wrk is not installed (apt-get install -y wrk)" >&2; exit 1; }
work=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
case "$mode" in
    random|hot)
        database="$work/bench.sqlite"
        echo "load-test-pass" > "$work/password"
        "$server" seed-users --count "$users" --password-file "$work/password" --sessions-out "$work/users.jsonl" \
            --database "$database" --log-level error >/dev/null ;;
    health|404|me|page|spending) [ -n "$database" ] || { echo "$mode needs a seeded DATABASE" >&2; exit 2; } ;;
    *) echo "unknown mode $mode" >&2; exit 2 ;;
esac
"$server" serve --host 127.0.0.1 --port "$port" --trusted-proxy 127.0.0.1 --database "$database" --sms-outbox "$work/outbox.jsonl" \
    --log-level error &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:$port/health" >/dev/null && break; sleep 0.1; done
base="http://127.0.0.1:$port"
case "$mode" in
    random|hot) load=(-s "$here/transfers.lua" "$base" -- "$work/users.jsonl" "$mode") ;;
    *)
        token=$(curl -sf -X POST "$base/v1/auth/login" -H 'content-type: application/json' \
            -d "{\"countryCode\":\"+1\",\"phoneNumber\":\"$phone\",\"password\":\"$password\"}" |
            python3 -c 'import sys, json; print(json.load(sys.stdin)["token"])')
        case "$mode" in
            health) path=/health ;; 404) path=/nothing-here ;; me) path=/v1/me ;;
            page) path="/v1/transactions?limit=50" ;; spending) path=/v1/spending ;;
        esac
        load=(-H "Authorization: Bearer $token" "$base$path") ;;
esac
wrk -t2 -c64 -d2s "${load[@]}" >/dev/null
ticks() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
# SQLite's writer thread(s) (SQLiteThreads names them sqlite-write-N): the part of a request on the one writer.
writer_ticks() {
    local total=0 task
    for task in /proc/"$pid"/task/*; do
        case "$(cat "$task/comm" 2>/dev/null)" in sqlite-write*) total=$((total + $(awk '{print $14 + $15}' "$task/stat"))) ;; esac
    done
    echo "$total"
}
before=$(ticks); writer_before=$(writer_ticks)
out=$(wrk -t2 -c64 -d"${duration}s" --latency "${load[@]}")
after=$(ticks); writer_after=$(writer_ticks)
requests=$(echo "$out" | awk '/requests in/ {print $1}')
hz=$(getconf CLK_TCK)
printf '%-8s %8s req/s  p99 %9s  cpu %6s µs a request, %5s µs of it on the SQLite writer\n' "$mode" \
    "$(echo "$out" | awk '/Requests\/sec/ {print $2}')" "$(echo "$out" | awk '$1 == "99%" {print $2}')" \
    "$(( (after - before) * 1000000 / hz / requests ))" "$(( (writer_after - writer_before) * 1000000 / hz / requests ))"
