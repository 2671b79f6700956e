#!/usr/bin/env bash
# Fuzzes the served contract with schemathesis: every operation, every check, the stateful (links) phase,
# against a throwaway skiff-server signed in as the demo account. Builds nothing.
#
#   scripts/schemathesis.sh [SKIFF_SERVER]    (default: skiff-server in `swift build --show-bin-path`)
#
# SCHEMATHESIS_EXAMPLES (default 100) bounds the examples per operation and phase. Exits non-zero on any
# failure or server error. Needs schemathesis 4 (pip install schemathesis), curl and python3.
set -euo pipefail
cd "$(dirname "$0")/.."

server="${1:-${SKIFF_SERVER:-$(swift build --show-bin-path)/skiff-server}}"
examples="${SCHEMATHESIS_EXAMPLES:-100}"
[ -x "$server" ] || { echo "no skiff-server at $server: build it first (swift build)" >&2; exit 2; }
work="$(mktemp -d -t skiff-schemathesis.XXXXXX)"
server_pid=""
finish() {
    if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap finish EXIT

port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
base="http://127.0.0.1:$port"
start_server() {
    "$server" serve --host 127.0.0.1 --port "$port" --database "$work/skiff.sqlite" \
        --sms-outbox "$work/sms-outbox.jsonl" --bcrypt-cost 10 --demo --log-level warning \
        >>"$work/server.log" 2>&1 &
    server_pid=$!
    for _ in $(seq 100); do
        curl -fsS -o /dev/null "$base/health" 2>/dev/null && return 0
        kill -0 "$server_pid" 2>/dev/null || { server_pid=""; return 1; }
        sleep 0.1
    done
    return 1
}
start_server || { echo "skiff-server did not start:" >&2; cat "$work/server.log" >&2; exit 1; }

# Three sessions of the demo account: one for every operation, one for logout, one for lock (scripts/schemathesis.toml).
sign_in() {
    curl -fsS -H 'Content-Type: application/json' \
        -d '{"countryCode": "+1", "phoneNumber": "202 555 0143", "password": "sail-away-2026"}' "$base/v1/auth/login" \
        | python3 -c 'import json, sys; print(json.load(sys.stdin)["token"])'
}
SKIFF_FUZZ_TOKEN="$(sign_in)" && SKIFF_FUZZ_LOGOUT_TOKEN="$(sign_in)" && SKIFF_FUZZ_LOCK_TOKEN="$(sign_in)" \
    || { echo "the demo account did not sign in" >&2; cat "$work/server.log" >&2; exit 1; }
export SKIFF_FUZZ_TOKEN SKIFF_FUZZ_LOGOUT_TOKEN SKIFF_FUZZ_LOCK_TOKEN

status=0
schemathesis --config-file scripts/schemathesis.toml run "$base/openapi.yaml" \
    --checks all --phases examples,coverage,fuzzing,stateful --max-examples "$examples" \
    --generation-deterministic --no-shrink --request-timeout 10 --warnings off \
    || status=$?
if grep -E '"level":"(error|critical)"|error|critical' "$work/server.log" >&2; then
    echo "skiff-server logged errors during the run (above)" >&2
    status=1
fi
exit "$status"
