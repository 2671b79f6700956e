#!/usr/bin/env bash
# A PostgreSQL 15 of your own for running skiff-server against, on 127.0.0.1 only.
#
#   scripts/postgres-dev.sh start   initdb on first use, start on a free port, create role and database "skiff"
#   scripts/postgres-dev.sh url     print the database URL (postgres://skiff:PASSWORD@127.0.0.1:PORT/skiff)
#   scripts/postgres-dev.sh stop    stop it; the data stays for the next start
#
# The cluster lives in ${XDG_STATE_HOME:-$HOME/.local/state}/skiff/postgres (data/, port, password, postgres.log).
# PostgreSQL refuses to run as root: run as root, the script runs it as the user "skiffpg" (created if missing)
# and keeps the cluster in that user's state folder. Connections over TCP need the password (scram-sha-256).
set -euo pipefail

pg_bin="${SKIFF_PG_BIN:-/usr/lib/postgresql/15/bin}"
pg_user="$(id -un)"
if [ "$(id -u)" -eq 0 ]; then
    pg_user=skiffpg
fi

as_pg_user() {
    if [ "$(id -un)" = "$pg_user" ]; then "$@"; else runuser -u "$pg_user" -- "$@"; fi
}

state_folder() {
    if [ "$(id -un)" = "$pg_user" ]; then
        echo "${XDG_STATE_HOME:-$HOME/.local/state}/skiff/postgres"
    else
        echo "$(getent passwd "$pg_user" | cut -d: -f6)/.local/state/skiff/postgres"
    fi
}

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

port_is_free() {
    python3 -c 'import socket, sys; s = socket.socket(); s.bind(("127.0.0.1", int(sys.argv[1])))' "$1" 2>/dev/null
}

is_running() {
    [ -d "$state/data" ] && as_pg_user "$pg_bin/pg_ctl" -D "$state/data" status >/dev/null 2>&1
}

start() {
    if [ ! -x "$pg_bin/initdb" ]; then
        echo "PostgreSQL 15 is not installed (no $pg_bin/initdb): apt-get install postgresql" >&2
        exit 1
    fi
    if [ "$(id -u)" -eq 0 ] && ! id "$pg_user" >/dev/null 2>&1; then
        useradd -m "$pg_user"
    fi
    state="$(state_folder)"
    if is_running; then
        echo "PostgreSQL is already running: $(url)"
        return
    fi
    as_pg_user mkdir -p "$state"
    as_pg_user chmod 700 "$state"
    if [ ! -f "$state/data/PG_VERSION" ]; then
        python3 -c 'import secrets; print(secrets.token_hex(16))' | as_pg_user tee "$state/password" >/dev/null
        as_pg_user chmod 600 "$state/password"
        as_pg_user "$pg_bin/initdb" -D "$state/data" -U postgres --auth-local=trust --auth-host=scram-sha-256 \
            --pwfile="$state/password" --encoding=UTF8 --locale=C.UTF-8 >/dev/null
        fresh=1
    fi
    port="$(cat "$state/port" 2>/dev/null || true)"
    if [ -z "$port" ] || ! port_is_free "$port"; then
        port="$(free_port)"
        echo "$port" | as_pg_user tee "$state/port" >/dev/null
    fi
    as_pg_user "$pg_bin/pg_ctl" -D "$state/data" -l "$state/postgres.log" -w \
        -o "-h 127.0.0.1 -p $port -k $state -c max_connections=1000" start >/dev/null
    if [ "${fresh:-0}" = 1 ]; then
        as_pg_user "$pg_bin/psql" -h "$state" -p "$port" -U postgres -d postgres -v ON_ERROR_STOP=1 -q \
            -c "CREATE ROLE skiff LOGIN CREATEDB PASSWORD '$(cat "$state/password")'" \
            -c "CREATE DATABASE skiff OWNER skiff"
        as_pg_user "$pg_bin/psql" -h "$state" -p "$port" -U postgres -d skiff -v ON_ERROR_STOP=1 -q \
            -c "CREATE EXTENSION IF NOT EXISTS pg_trgm"
    fi
    echo "PostgreSQL is running: $(url)"
}

stop() {
    state="$(state_folder)"
    if is_running; then
        as_pg_user "$pg_bin/pg_ctl" -D "$state/data" -m fast -w stop >/dev/null
        echo "PostgreSQL stopped; its data stays in $state."
    else
        echo "PostgreSQL is not running."
    fi
}

url() {
    state="$(state_folder)"
    if [ ! -f "$state/port" ] || [ ! -f "$state/password" ]; then
        echo "No PostgreSQL here yet: run scripts/postgres-dev.sh start" >&2
        exit 1
    fi
    echo "postgres://skiff:$(cat "$state/password")@127.0.0.1:$(cat "$state/port")/skiff"
}

case "${1:-}" in
    start) start ;;
    stop) stop ;;
    url) url ;;
    *) echo "usage: $0 start|stop|url" >&2; exit 2 ;;
esac
