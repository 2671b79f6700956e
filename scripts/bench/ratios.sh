#!/usr/bin/env bash
# Issue 47's ratios from one run: each figure beside the floor it is measured against, both taken in this run on this
# machine, so the table means the same on 2 cores and on 64.
#
#   scripts/bench/ratios.sh RELEASE-DIR POSTGRES-URL
# RELEASE-DIR holds release `skiff` and `skiff-server`; POSTGRES-URL names a role that may CREATE DATABASE on the
# cluster to measure (a scratch database for pgbench and one for Skiff, both dropped at the end).
# Environment: PARTS (start,home,burst,cpu,postgres), DURATION (s per load, 10), TRANSACTIONS (on the SQLite account,
# 1000000), SQLITE (an account already seeded with PHONE "202 555 0177" and load-test-pass, to skip the ~30 s seed).
#
# The parts and their floors:
#   start     the wallet's first start (and a later one) to Login, against `less` (scripts/bench/first-start.py)
#   home      Home's Down and PageDown on the SQLite account, against the ncursesw C scroll (bench-home-floor.py)
#   burst     the same while a second account pays it 50 times a second, both measured with a 3 ms silence, against
#             the floor at rest and under the same burst; and a fresh Home watched frame by frame while a third pays it
#             a cent at a time: the longest run of frames whose balance disagrees with the list (bench-home-burst.py,
#             which needs pyte from PyPI; seeds the payers into the SQLite account)
#   cpu       server CPU a request on the SQLite account: /health; the 404 through every middleware; /v1/me, the
#             transactions page and spending against the 404; a transfer (random pairs, new users) against the 404
#             (scripts/bench/cpu-per-request.sh)
#   postgres  transfers/s on PostgreSQL (scripts/bench/transfers.sh, random pairs among 1,000 users, 64 connections)
#             against pgbench's TPC-B-like transaction (scale 10, 64 clients, -M prepared) on the same cluster
set -euo pipefail
bin=${1:?a folder with release skiff and skiff-server}; postgres=${2:?a PostgreSQL URL whose role may create databases}
parts=${PARTS:-start,home,burst,cpu,postgres}; duration=${DURATION:-10}; transactions=${TRANSACTIONS:-1000000}
here=$(cd "$(dirname "$0")" && pwd); scripts=$(cd "$here/.." && pwd)
server="$bin/skiff-server"; wallet="$bin/skiff"
for program in "$server" "$wallet"; do [ -x "$program" ] || { echo "no $program" >&2; exit 2; }; done
work=$(mktemp -d)
databases=()
pid=
cleanup() {
    [ -z "$pid" ] || { kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; }
    for name in "${databases[@]:-}"; do
        [ -z "$name" ] || psql "$postgres" -qAt -c "DROP DATABASE IF EXISTS $name WITH (FORCE)" >/dev/null 2>&1 || true
    done
    rm -rf "$work"
}
trap cleanup EXIT
want() { [[ ",$parts," == *",$1,"* ]]; }
# What each part prints is shown on stderr as it comes (through `cat`: `tee /dev/stderr` would reopen a stderr
# redirected to a file and truncate it).
rows=()
# row NAME VALUE FLOOR-NAME FLOOR TARGET: one line of the table, the ratio worked out here.
row() {
    rows+=("$(python3 -c 'import sys; n, v, fn, f, t = sys.argv[1:]
w = lambda x: f"{x:>10.3f}" if x < 10 else f"{x:>10.1f}"
print(f"{n:<34} {w(float(v))}  {fn:<26} {w(float(f))}  {float(v) / float(f):>6.2f}x  {t}")' "$@")")
}
echo "ratios on $(nproc) cores, $(date -u '+%Y-%m-%d %H:%M UTC'); load average $(cut -d' ' -f1 /proc/loadavg)"

if want start; then
    echo "== start"
    out=$(python3 "$here/first-start.py" --skiff "$wallet" --runs 7 | tee >(cat >&2))
    less=$(awk '/^less: median/ {print $3}' <<<"$out")
    row "first start to Login (ms)" "$(awk '/^first run: median/ {print $4}' <<<"$out")" "less (ms)" "$less" "<= 2.5"
    row "later start to Login (ms)" "$(awk '/^later run: median/ {print $4}' <<<"$out")" "less (ms)" "$less" ""
fi

if want home || want burst || want cpu; then
    sqlite=${SQLITE:-}
    if [ -z "$sqlite" ]; then
        sqlite="$work/account.sqlite"
        echo "== seeding $transactions transactions on SQLite"
        "$server" seed --phone "202 555 0177" --password load-test-pass --transactions "$transactions" \
            --database "$sqlite" --log-level error >/dev/null
    fi
fi

if want home; then
    echo "== home"
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    "$server" serve --host 127.0.0.1 --port "$port" --database "$sqlite" --sms-outbox "$work/outbox.jsonl" \
        --log-level error &
    pid=$!
    for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:$port/health" >/dev/null && break; sleep 0.1; done
    out=$(python3 "$scripts/bench-home-floor.py" --skiff "$wallet" --server "http://127.0.0.1:$port" \
        --phone "2025550177" --password load-test-pass --rounds 5 | tee >(cat >&2))
    kill "$pid"; wait "$pid" 2>/dev/null || true; pid=
    # Each round prints the floor's scroll and Home's steps; the table takes the medians over the rounds.
    medians=$(python3 -c 'import re, statistics, sys
rounds = [re.findall(r"([0-9.]+) ms", line) for line in sys.stdin if line.startswith("round ")]
print(*(statistics.median(float(r[i]) for r in rounds) for i in range(3)))' <<<"$out")
    read -r scroll down page <<<"$medians"
    row "Home Down (ms)" "$down" "ncursesw scroll (ms)" "$scroll" "<= 1.2"
    row "Home PageDown (ms)" "$page" "ncursesw scroll (ms)" "$scroll" "<= 1.5"
fi

if want burst; then
    echo "== burst"
    # A second account pays the Home account 50 times a second while Home is stepped through; a third, a cent at a
    # time with numbered notes, while a fresh Home is watched frame by frame (balance against list).
    for payer in 0188 0189; do
        "$server" seed --phone "202 555 $payer" --password burst-payer-pass --transactions 0 --database "$sqlite" \
            --log-level error >/dev/null
    done
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    "$server" serve --host 127.0.0.1 --port "$port" --trusted-proxy 127.0.0.1 --database "$sqlite" \
        --sms-outbox "$work/outbox.jsonl" --log-level error &
    pid=$!
    for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:$port/health" >/dev/null && break; sleep 0.1; done
    out=$(python3 "$scripts/bench-home-burst.py" --skiff "$wallet" --server "http://127.0.0.1:$port" \
        --phone "2025550177" --password load-test-pass --payer-phone 2025550188 --payer-password burst-payer-pass \
        --watch-payer-phone 2025550189 --watch-payer-password burst-payer-pass --rounds 3 | tee >(cat >&2))
    kill "$pid"; wait "$pid" 2>/dev/null || true; pid=
    medians=$(python3 -c 'import re, statistics, sys
rounds = [re.findall(r"([0-9.]+) ms", line) for line in sys.stdin if line.startswith("round ")]
print(*(statistics.median(float(r[i]) for r in rounds) for i in (0, 3, 4, 5)))' <<<"$out")
    read -r scroll down page busy_scroll <<<"$medians"
    row "Home Down, 50 transfers/s (ms)" "$down" "ncursesw scroll, 3 ms (ms)" "$scroll" "<= 1.2"
    row "Home PageDown, 50 transfers/s (ms)" "$page" "ncursesw scroll, 3 ms (ms)" "$scroll" "<= 1.5"
    row "Home Down, 50 transfers/s (ms)" "$down" "the same, under the burst" "$busy_scroll" "<= 1.2"
    row "Home PageDown, 50 transfers/s (ms)" "$page" "the same, under the burst" "$busy_scroll" "<= 1.5"
    frames=$(sed -n 's/.*longest run of disagreeing frames \([0-9]*\).*/\1/p' <<<"$out")
    rows+=("$(printf '%-34s %10s  %-26s %10s  %7s  %s' "balance against list, 50/s" "$frames" "frames in a row" 1 "" "<= 1")")
fi

if want cpu; then
    echo "== cpu"
    cpu() { DURATION=$duration PASSWORD=load-test-pass "$here/cpu-per-request.sh" "$server" "$@" | tee >(cat >&2) |
        sed -n 's/.* cpu *\([0-9]*\) µs a request.*/\1/p'; }
    health=$(cpu health "$sqlite"); floor=$(cpu 404 "$sqlite")
    me=$(cpu me "$sqlite"); page=$(cpu page "$sqlite"); spending=$(cpu spending "$sqlite"); transfer=$(cpu random)
    row "404, every middleware (µs CPU)" "$floor" "/health (µs CPU)" "$health" "<= 1.3"
    row "/v1/me (µs CPU)" "$me" "404 (µs CPU)" "$floor" "<= 1.5"
    row "transactions page (µs CPU)" "$page" "404 (µs CPU)" "$floor" "<= 3"
    row "spending (µs CPU)" "$spending" "404 (µs CPU)" "$floor" "<= 2"
    row "transfer, SQLite (µs CPU)" "$transfer" "404 (µs CPU)" "$floor" "<= 6"
fi

if want postgres; then
    echo "== postgres"
    command -v pgbench >/dev/null || { echo "pgbench is not installed (postgresql-client)" >&2; exit 1; }
    suffix=$(date +%s)_$$
    bench_db="skiff_ratio_pgbench_$suffix"; skiff_db="skiff_ratio_skiff_$suffix"
    databases=("$bench_db" "$skiff_db")
    psql "$postgres" -qAt -c "CREATE DATABASE $bench_db" -c "CREATE DATABASE $skiff_db" >/dev/null
    base=${postgres%%\?*}; query=${postgres#"$base"}; base=${base%/*}
    pgbench -i -s 10 -q "$base/$bench_db$query" >/dev/null 2>&1
    tps=$(pgbench -c 64 -j 2 -M prepared -T "$duration" "$base/$bench_db$query" 2>/dev/null |
        sed -n 's/^tps = \([0-9.]*\) (without initial connection time)/\1/p' | tee >(cat >&2))
    (umask 077; head -c 32 /dev/urandom | base64 >"$work/postgres.key")
    out=$(DURATION=$duration "$here/transfers.sh" "$server" "$base/$skiff_db$query" "$work/postgres.key" | tee >(cat >&2))
    row "transfers/s, PostgreSQL" "$(awk '$1 == "random" {print $2}' <<<"$out")" "pgbench TPC-B (tps)" "$tps" ">= 0.5"
fi

echo
printf '%-34s %10s  %-26s %10s  %7s  %s\n' "measured" "value" "floor" "value" "ratio" "target"
printf '%s\n' "${rows[@]}"
