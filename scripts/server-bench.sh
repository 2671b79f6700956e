#!/usr/bin/env bash
# Read-path load on skiff-server: one instance on SQLite, one on PostgreSQL, two on one PostgreSQL.
#
#   scripts/server-bench.sh [TRANSACTIONS]     (default 1000000; BENCHMARKS.md has the method and the results)
#
# Needs a release skiff-server (SKIFF_SERVER, default .build/release/skiff-server), wrk, curl, python3, and a
# PostgreSQL from scripts/postgres-dev.sh (started here if it is not running). Every server listens on
# 127.0.0.1 only and every wrk run lasts DURATION (default 30s). Work files go to a temporary folder.
set -euo pipefail
cd "$(dirname "$0")/.."

transactions="${1:-1000000}"
server="${SKIFF_SERVER:-.build/release/skiff-server}"
duration="${DURATION:-30s}"
connections=64
phone="202 555 0177"
password="sail-away-2026"
work="$(mktemp -d -t skiff-bench.XXXXXX)"
pids=()

finish() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap finish EXIT

scripts/postgres-dev.sh start >/dev/null
base_url="$(scripts/postgres-dev.sh url)"
bench_db="skiff_bench_$$"
psql "$base_url" -v ON_ERROR_STOP=1 -qc "CREATE DATABASE $bench_db"
trap 'finish; psql "$base_url" -qc "DROP DATABASE IF EXISTS $bench_db WITH (FORCE)" || true' EXIT
postgres_url="${base_url%/*}/$bench_db"
sqlite_path="$work/skiff.sqlite"
(umask 077; openssl rand -base64 32 > "$work/skiff.key")

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

seed() {
    echo "== seeding $transactions transactions into $1"
    timeout 1800 "$server" seed --database "$2" --key-file "$work/skiff.key" --phone "$phone" \
        --password "$password" --transactions "$transactions" --sms-outbox "$work/sms-outbox.jsonl"
}

# Starts `serve` on the database $1 and sets `port` once /health answers.
serve() {
    port="$(free_port)"
    timeout 900 "$server" serve --host 127.0.0.1 --port "$port" --trusted-proxy 127.0.0.1 --database "$1" \
        --key-file "$work/skiff.key" --sms-outbox "$work/sms-outbox.jsonl" --log-level error \
        >>"$work/server.log" 2>&1 &
    pids+=($!)
    for _ in $(seq 1 100); do
        curl -sf "http://127.0.0.1:$port/health" >/dev/null && return
        sleep 0.2
    done
    echo "skiff-server on port $port did not start; see $work/server.log" >&2
    exit 1
}

token() {
    curl -sf -X POST "http://127.0.0.1:$1/v1/auth/login" -H 'Content-Type: application/json' \
        -d "{\"countryCode\":\"+1\",\"phoneNumber\":\"${phone// /}\",\"password\":\"$password\"}" |
        python3 -c 'import json, sys; print(json.load(sys.stdin)["token"])'
}

# wrk against every port in $2… at once, $connections split between them, path $1.
load() {
    local path="$1"; shift
    local each=$((connections / $#)) bearer
    bearer="$(token "$1")"
    for port in "$@"; do
        echo "-- GET $path on :$port, $each connections, $duration"
        timeout 120 wrk -t "$((2 / $#))" -c "$each" -d "$duration" --latency \
            -H "Authorization: Bearer $bearer" "http://127.0.0.1:$port$path" >"$work/wrk-$port.txt" &
    done
    wait $(jobs -p | tail -n "$#")
    for port in "$@"; do grep -E "Requests/sec|^ +50%|^ +99%|Non-2xx|errors" "$work/wrk-$port.txt" | sed "s/^/:$port /"; done
}

measure() {
    load "/v1/me" "$@"
    load "/v1/transactions?limit=50" "$@"
}

seed SQLite "$sqlite_path"
seed PostgreSQL "$postgres_url"

echo "== one instance on SQLite"
serve "$sqlite_path"
measure "$port"
kill "${pids[-1]}"; wait "${pids[-1]}" 2>/dev/null || true

echo "== one instance on PostgreSQL"
serve "$postgres_url"
first="$port"
measure "$first"

echo "== two instances on PostgreSQL"
serve "$postgres_url"
measure "$first" "$port"
