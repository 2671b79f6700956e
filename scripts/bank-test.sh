#!/usr/bin/env bash
# The bank test (issue 25): concurrent random transfers through killed and restarted servers, then every
# invariant of the ledger checked, as Jepsen's bank test does.
#
#   scripts/bank-test.sh [--duration S] [--users N] [--concurrency C] [--kills K] [--stores postgres,sqlite]
#                        [--instances I] [--seed S] [--postgres-url URL] [--postgres-restart COMMAND]
#                        [--postgres-fault COMMAND]... [--postgres-faults F] [--keep]
#
# N users (default 10) are seeded with `skiff-server seed` (each opens with $1,000.00) and log in; C clients
# (default 16) then send random transfers between them for S seconds (default 60) through I instances (default 2)
# on one PostgreSQL, then through one instance on SQLite. K times (default 2) an instance is SIGKILLed and
# restarted, and on PostgreSQL COMMAND (or $SKIFF_BANK_POSTGRES_RESTART; a shell command such as
# `pg_ctl -D DATA -m fast -w restart`) restarts the database once. Each --postgres-fault COMMAND is another fault of
# the database, run in turn (cycling, F in all; default each once) at even spaces through the run: on the HA
# formation of scripts/postgres-ha.sh, `scripts/postgres-ha.sh crash-primary && scripts/postgres-ha.sh rejoin` (the
# primary's machine dies, the secondary is promoted, the old primary rejoins) or `scripts/postgres-ha.sh failover` (a
# planned switchover), with --postgres-url "$(scripts/postgres-ha.sh url)". A request whose answer is lost (connection
# error, timeout, 5xx, 409) is sent again with the same Idempotency-Key, to any instance, until it gets a definite
# answer: 201 or a 4xx refusal. Some requests are refusals on purpose (a zero amount, an amount that needs a
# step-up), replays of an acknowledged key, or an acknowledged key with another body. Once a payer's day passes the
# step-up amount, a transfer refused for want of a step-up gets one (the password, for that payee and amount; one
# at a time per payer, as from one wallet) and is sent again with it under a new key.
#
# Checked once a second during the run: the sum of the wallets (one SQL statement: one snapshot) never changes,
# no wallet is below zero, and every user's GET /v1/me reads zero or more; every 10 s and at the end,
# `skiff-server ledger-check` (every account's balance is the sum of its postings, every transfer's postings
# balance, all balances sum to zero). At the end: each balance is what the acknowledged transfers make it, every
# acknowledged transfer is GET-able and is one row and one statement line on each side, no transfer exists that
# was not acknowledged, and no key made two. Exits 1 on any violation (its seed is printed, --seed replays the
# random choices); one `BANK-RESULT {json}` line per store gives the figures (with each database fault's longest time
# without an acknowledged transfer, and the answers 503 `database-unavailable`).
#
# The database is a new one on the server of --postgres-url (default $SKIFF_TEST_POSTGRES_URL; the role needs
# CREATEDB), dropped afterwards. The binary is $SKIFF_SERVER, default the debug build `swift test` makes
# (.build/debug/skiff-server). Everything listens on 127.0.0.1; needs python3, psql and sqlite3.
set -euo pipefail
cd "$(dirname "$0")/.."
binary="${SKIFF_SERVER:-.build/debug/skiff-server}"
if [ ! -x "$binary" ]; then
    echo "no $binary: build it first (swift build --product skiff-server), or set SKIFF_SERVER" >&2
    exit 2
fi
exec python3 scripts/bank-test.py --binary "$binary" "$@"
