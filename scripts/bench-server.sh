#!/usr/bin/env bash
# Authenticated reads against a release skiff-server on 127.0.0.1, with wrk (Debian's `wrk`): 64 connections,
# SECONDS each, on /v1/me, /v1/cards, the first page of transactions (50), a later page (the first page's
# nextCursor), /v1/spending, and a 404 (every middleware, no database) for the floor. The database (a SQLite file
# or a postgres:// URL) must hold the user already, e.g.
#   skiff-server seed --phone "202 555 0177" --password load-test-pass --transactions 1000000 --database FILE
# PATHS (space-separated; `cursor` stands for the later page) picks the paths; KEY_FILE is the server key a
# PostgreSQL database needs (the one it was seeded with).
#
#   [PATHS="…"] [KEY_FILE=FILE] scripts/bench-server.sh SKIFF_SERVER DATABASE [SECONDS] [PHONE] [PASSWORD]
set -euo pipefail
BIN="$1"; DB="$2"; SECONDS_TO_RUN="${3:-10}"; PHONE="${4:-2025550177}"; PASSWORD="${5:-load-test-pass}"
PATHS="${PATHS:-/v1/me /v1/cards /v1/transactions?limit=50 cursor /v1/spending /nothing-here}"
command -v wrk >/dev/null || { echo "wrk is not installed (apt-get install -y wrk)" >&2; exit 1; }
WORK="$(mktemp -d)"
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
KEY=()
[ -n "${KEY_FILE:-}" ] && KEY=(--key-file "$KEY_FILE")
"$BIN" serve --host 127.0.0.1 --port "$PORT" --trusted-proxy 127.0.0.1 --database "$DB" "${KEY[@]}" --sms-outbox "$WORK/outbox.jsonl" \
    --log-level warning &
SERVER=$!
trap 'kill "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true; rm -rf "$WORK"' EXIT
for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:$PORT/health" >/dev/null && break; sleep 0.1; done
TOKEN=$(curl -sf -X POST "http://127.0.0.1:$PORT/v1/auth/login" -H 'content-type: application/json' \
    -d "{\"countryCode\":\"+1\",\"phoneNumber\":\"$PHONE\",\"password\":\"$PASSWORD\"}" |
    python3 -c 'import sys, json; print(json.load(sys.stdin)["token"])')
for path in $PATHS; do
    if [ "$path" = cursor ]; then
        path="/v1/transactions?limit=50&cursor=$(curl -sf -H "Authorization: Bearer $TOKEN" \
            "http://127.0.0.1:$PORT/v1/transactions?limit=50" | python3 -c 'import sys, json; print(json.load(sys.stdin)["nextCursor"])')"
    fi
    out=$(wrk -t 2 -c 64 -d "${SECONDS_TO_RUN}s" --latency -H "Authorization: Bearer $TOKEN" "http://127.0.0.1:$PORT$path")
    rps=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
    p50=$(echo "$out" | awk '$1 == "50%" {print $2}')
    p99=$(echo "$out" | awk '$1 == "99%" {print $2}')
    errors=$(echo "$out" | awk '/Non-2xx/ {print $NF}')
    printf '%-36s %10s req/s  p50 %8s  p99 %8s  non-2xx %s\n' "${path:0:36}" "$rps" "$p50" "$p99" "${errors:-0}"
done
