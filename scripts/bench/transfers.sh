#!/usr/bin/env bash
# Transfers under load, end to end: 1,000 new users (`seed-users`) in a new SQLite file or an empty PostgreSQL
# database, a release skiff-server on 127.0.0.1, then wrk with transfers.lua at 64 connections, random pairs and
# then one hot payee (a 3 s warm-up each), and `ledger-check` at the end.
#
#   scripts/bench/transfers.sh RELEASE-skiff-server [POSTGRES-URL KEY-FILE]
# Environment: DURATION (s per mode, 20), CONNECTIONS (64), USERS (1000), PORT (18090).
set -euo pipefail
server=${1:?the release skiff-server}; database=${2:-}; key_file=${3:-}
duration=${DURATION:-20}; connections=${CONNECTIONS:-64}; users=${USERS:-1000}; port=${PORT:-18090}
here=$(cd "$(dirname "$0")" && pwd)
command -v wrk >/dev/null || { echo "wrk is not installed (apt-get install -y wrk)" >&2; exit 1; }
work=$(mktemp -d)
key=()
if [ -z "$database" ]; then
    database="$work/bench.sqlite"
else
    [ -n "$key_file" ] || { echo "a PostgreSQL database needs the key file it was (or will be) seeded with" >&2; exit 2; }
    key=(--key-file "$key_file")
fi
echo "load-test-pass" > "$work/password"
"$server" seed-users --count "$users" --password-file "$work/password" --sessions-out "$work/users.jsonl" \
    --database "$database" "${key[@]}" --log-level error >/dev/null
"$server" serve --host 127.0.0.1 --port "$port" --trusted-proxy 127.0.0.1 --database "$database" "${key[@]}" --sms-outbox "$work/outbox.jsonl" \
    --log-level error &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:$port/health" >/dev/null && break; sleep 0.1; done
for mode in random hot; do
    wrk -t2 -c"$connections" -d3s -s "$here/transfers.lua" "http://127.0.0.1:$port" -- "$work/users.jsonl" "$mode" >/dev/null
    out=$(wrk -t2 -c"$connections" -d"${duration}s" --latency -s "$here/transfers.lua" "http://127.0.0.1:$port" -- \
        "$work/users.jsonl" "$mode")
    printf '%-6s %9s transfers/s  p50 %8s  p99 %8s  non-2xx %s\n' "$mode" \
        "$(echo "$out" | awk '/Requests\/sec/ {print $2}')" "$(echo "$out" | awk '$1 == "50%" {print $2}')" \
        "$(echo "$out" | awk '$1 == "99%" {print $2}')" "$(echo "$out" | awk '/Non-2xx/ {print $NF}' | grep . || echo 0)"
done
kill "$pid"; wait "$pid" 2>/dev/null || true
"$server" ledger-check --database "$database" "${key[@]}" --log-level error
