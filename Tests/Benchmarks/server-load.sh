#!/usr/bin/env bash
# Load test for skiff-server, against 127.0.0.1 only.
#
#   Tests/Benchmarks/server-load.sh [TRANSACTIONS] [SECONDS]
#
# Builds skiff-server in release, seeds a user with TRANSACTIONS transactions (default 1,000,000, timed),
# starts the server on a free loopback port, signs in, and runs wrk with 64 connections for SECONDS
# (default 15) against a transactions page (50 items), then against a search. Needs `wrk` (Debian package).
set -euo pipefail

TRANSACTIONS="${1:-1000000}"
SECONDS_TO_RUN="${2:-15}"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
SCRATCH="${SKIFF_SCRATCH:-$ROOT/.build-server-release}"
WORK="$(mktemp -d)"
trap 'kill "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true; rm -rf "$WORK"' EXIT

command -v wrk >/dev/null || { echo "wrk is not installed (apt-get install -y wrk)" >&2; exit 1; }
swift build -c release --scratch-path "$SCRATCH" --product skiff-server --package-path "$ROOT" >/dev/null
BIN="$SCRATCH/release/skiff-server"
DB="$WORK/skiff.sqlite"
OUTBOX="$WORK/sms-outbox.jsonl"

echo "== seed --transactions $TRANSACTIONS"
/usr/bin/time -f "wall %e s, max RSS %M KiB" \
    "$BIN" seed --phone "202 555 0177" --password "load-test-pass" --transactions "$TRANSACTIONS" \
    --database "$DB" --sms-outbox "$OUTBOX"
ls -la "$WORK" | grep sqlite

PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$BIN" serve --host 127.0.0.1 --port "$PORT" --database "$DB" --sms-outbox "$OUTBOX" \
    --log-level warning &
SERVER=$!
for _ in $(seq 1 50); do curl -sf "http://127.0.0.1:$PORT/health" >/dev/null && break; sleep 0.2; done

TOKEN=$(curl -sf -X POST "http://127.0.0.1:$PORT/v1/auth/login" -H 'content-type: application/json' \
    -d '{"countryCode":"+1","phoneNumber":"2025550177","password":"load-test-pass"}' |
    python3 -c 'import sys, json; print(json.load(sys.stdin)["token"])')

echo "== GET /v1/transactions?limit=50, 64 connections, ${SECONDS_TO_RUN}s"
wrk -t 2 -c 64 -d "${SECONDS_TO_RUN}s" --latency -H "Authorization: Bearer $TOKEN" \
    "http://127.0.0.1:$PORT/v1/transactions?limit=50"

echo "== GET /v1/transactions?limit=50&query=coffee, 64 connections, ${SECONDS_TO_RUN}s"
wrk -t 2 -c 64 -d "${SECONDS_TO_RUN}s" --latency -H "Authorization: Bearer $TOKEN" \
    "http://127.0.0.1:$PORT/v1/transactions?limit=50&query=coffee"
