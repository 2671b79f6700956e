#!/usr/bin/env bash
# A highly available PostgreSQL 15 formation for development and CI, with pg_auto_failover: a monitor, a primary and
# a synchronous secondary, all on 127.0.0.1, in one temp folder (docs/decisions/0199-postgres-failover.md).
#
#   scripts/postgres-ha.sh start           create the formation on free ports (or start it again) and print its URL
#   scripts/postgres-ha.sh url             the multi-host URL for skiff-server --database (target_session_attrs=read-write;
#                                          its role "skiff" may create databases, as the bank test does)
#   scripts/postgres-ha.sh status          the monitor's view: each node's name, port and state
#   scripts/postgres-ha.sh events          the monitor's last 40 events, newest last (which promotions happened when)
#   scripts/postgres-ha.sh failover        a planned switchover (pg_autoctl perform switchover), waited for
#   scripts/postgres-ha.sh crash-primary   the primary's machine dies: SIGKILL its keeper and its postmaster at once,
#                                          then wait until the secondary is promoted
#   scripts/postgres-ha.sh rejoin          start again every node whose keeper is not running (a crashed primary
#                                          rejoins as the secondary) and wait until the formation is whole again
#   scripts/postgres-ha.sh stop            stop every process and delete the folder
#
# Packages: apt-get install -y postgresql-15-auto-failover pg-auto-failover-cli. The folder is $SKIFF_HA_DIR (default
# /tmp/skiff-ha-USER). PostgreSQL refuses to run as root: run as root, the script runs it as the user "skiffpg"
# (created if missing). Connections are trusted from 127.0.0.1 only, with no TLS: a formation for one machine's
# tests, never for data that matters. The monitor notices a dead node in seconds here (health checks every second,
# unhealthy after 4 s, a primary that lost the monitor demotes itself after 10 s); its defaults take about a minute.
set -euo pipefail

pg_bin="${SKIFF_PG_BIN:-/usr/lib/postgresql/15/bin}"
pg_user="$(id -un)"
if [ "$(id -u)" -eq 0 ]; then
    pg_user=skiffpg
fi
dir="${SKIFF_HA_DIR:-/tmp/skiff-ha-$(id -un)}"
nodes="n1 n2"

as_pg_user() {
    local environment=(env "PATH=$pg_bin:/usr/bin:/bin" "PG_REGRESS_SOCK_DIR=$dir" "XDG_CONFIG_HOME=$dir/config"
        "XDG_DATA_HOME=$dir/share" "XDG_RUNTIME_DIR=$dir/run" "PGHOST=127.0.0.1")
    if [ "$(id -un)" = "$pg_user" ]; then "${environment[@]}" "$@"; else runuser -u "$pg_user" -- "${environment[@]}" "$@"; fi
}

# Runs a command as the PostgreSQL user with its output appended to the log $1 (a file that user owns).
as_pg_user_logged() {
    local log="$1"
    shift
    as_pg_user bash -c 'log="$1"; shift; "$@" >>"$log" 2>&1' logged "$log" "$@"
}

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

port_of() { cat "$dir/$1.port"; }

monitor_url() { echo "postgres://autoctl_node@127.0.0.1:$(port_of monitor)/pg_auto_failover?sslmode=disable"; }

monitor_sql() {
    as_pg_user "$pg_bin/psql" -h 127.0.0.1 -p "$(port_of monitor)" -d pg_auto_failover -qAt -v ON_ERROR_STOP=1 -c "$1"
}

# "name port state" per node, as the monitor reports them (the state the monitor assigned and the node reached).
node_states() {
    monitor_sql "SELECT nodename, nodeport, reportedstate || '/' || goalstate FROM pgautofailover.node ORDER BY nodeid" \
        | tr '|' ' '
}

# Waits (at most $2 seconds) until the monitor reports exactly one primary and every other node a secondary.
wait_whole() {
    local deadline=$((SECONDS + ${1:-120})) states
    while [ $SECONDS -lt $deadline ]; do
        states="$(node_states 2>/dev/null || true)"
        if [ "$(grep -c ' primary/primary$' <<<"$states")" = 1 ] \
            && [ "$(grep -c ' secondary/secondary$' <<<"$states")" = "$(($(wc -w <<<"$nodes") - 1))" ]; then
            return 0
        fi
        sleep 0.5
    done
    echo "the formation did not become whole (one primary, the rest secondaries) in time:" >&2
    node_states >&2 || true
    return 1
}

# Waits until a node other than $1 is primary (or wait_primary: promoted, its old partner not back yet).
wait_promoted() {
    local old="$1" deadline=$((SECONDS + ${2:-120})) states
    while [ $SECONDS -lt $deadline ]; do
        states="$(node_states 2>/dev/null || true)"
        if grep -vE "^$old " <<<"$states" | grep -qE ' (wait_primary|primary)/(wait_primary|primary)$'; then
            return 0
        fi
        sleep 0.2
    done
    echo "no node was promoted in place of $old in time:" >&2
    node_states >&2 || true
    return 1
}

primary_name() {
    node_states | awk '$3 ~ /^(primary|wait_primary)\/(primary|wait_primary)$/ { print $1; exit }'
}

# The keeper of node $1 when it runs: the leader of its own process group, which holds its supervisor's children
# and the node's postmaster with its backends (the whole "machine" of the node).
keeper_pid() {
    local pid
    pid="$(cat "$dir/$1.pid" 2>/dev/null || true)"
    if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then echo "$pid"; fi
}

run_node() {
    local name="$1"
    as_pg_user bash -c "setsid nohup pg_autoctl run --pgdata '$dir/$name' >>'$dir/$name.log' 2>&1 & echo \$! >'$dir/$name.pid'"
}

# SIGKILLs node $1's whole process group: its keeper, its supervisor's children, its postmaster and backends.
kill_node() {
    local pid
    pid="$(cat "$dir/$1.pid" 2>/dev/null || true)"
    if [ -n "$pid" ]; then kill -KILL -- "-$pid" 2>/dev/null || true; fi
}

start() {
    if [ ! -x /usr/bin/pg_autoctl ] || [ ! -x "$pg_bin/initdb" ]; then
        echo "pg_auto_failover is not installed: apt-get install -y postgresql-15-auto-failover pg-auto-failover-cli" >&2
        exit 1
    fi
    if [ "$(id -u)" -eq 0 ] && ! id "$pg_user" >/dev/null 2>&1; then
        useradd -m "$pg_user"
    fi
    if [ -f "$dir/created" ]; then
        for name in monitor $nodes; do
            [ -n "$(keeper_pid "$name")" ] || run_node "$name"
        done
        wait_whole 120
        url
        return
    fi
    mkdir -p "$dir"
    chown "$pg_user" "$dir"
    chmod 700 "$dir"
    as_pg_user mkdir -p "$dir/config" "$dir/share" "$dir/run"
    for name in monitor $nodes; do free_port | as_pg_user tee "$dir/$name.port" >/dev/null; done
    as_pg_user_logged "$dir/monitor.log" pg_autoctl create monitor --pgctl "$pg_bin/pg_ctl" --pgdata "$dir/monitor" \
        --pgport "$(port_of monitor)" --hostname 127.0.0.1 --auth trust --no-ssl
    run_node monitor
    local deadline=$((SECONDS + 60))
    until monitor_sql "SELECT 1" >/dev/null 2>&1; do
        [ $SECONDS -lt $deadline ] || { echo "the monitor did not start; see $dir/monitor.log" >&2; exit 1; }
        sleep 0.3
    done
    # Seconds, not the defaults' minute, to notice a dead node and to promote its secondary (one statement a call).
    monitor_sql "ALTER SYSTEM SET pgautofailover.health_check_period = 1000"
    monitor_sql "ALTER SYSTEM SET pgautofailover.health_check_timeout = 1000"
    monitor_sql "ALTER SYSTEM SET pgautofailover.health_check_max_retries = 1"
    monitor_sql "ALTER SYSTEM SET pgautofailover.health_check_retry_delay = 500"
    monitor_sql "ALTER SYSTEM SET pgautofailover.node_considered_unhealthy_timeout = 4000"
    monitor_sql "ALTER SYSTEM SET pgautofailover.primary_demote_timeout = 10000"
    monitor_sql "SELECT pg_reload_conf()" >/dev/null
    for name in $nodes; do
        as_pg_user_logged "$dir/$name.log" pg_autoctl create postgres --pgctl "$pg_bin/pg_ctl" --pgdata "$dir/$name" \
            --pgport "$(port_of "$name")" --hostname 127.0.0.1 --name "$name" --dbname skiff --auth trust --no-ssl \
            --monitor "$(monitor_url)"
        # Network-partition and replication timeouts in seconds too, as the monitor's.
        as_pg_user pg_autoctl config set --pgdata "$dir/$name" timeout.network_partition_timeout 5 >/dev/null
        run_node "$name"
        if [ "$name" = n1 ]; then
            deadline=$((SECONDS + 90))
            until node_states 2>/dev/null | grep -q '^n1 .* single/single$' \
                && as_pg_user "$pg_bin/psql" -h 127.0.0.1 -p "$(port_of n1)" -d skiff -qAt -c "SELECT 1" >/dev/null 2>&1; do
                [ $SECONDS -lt $deadline ] || { echo "n1 did not start; see $dir/n1.log" >&2; exit 1; }
                sleep 0.5
            done
            as_pg_user "$pg_bin/psql" -h 127.0.0.1 -p "$(port_of n1)" -d skiff -qAt -v ON_ERROR_STOP=1 \
                -c "CREATE ROLE skiff LOGIN CREATEDB" -c "ALTER DATABASE skiff OWNER TO skiff" \
                -c "CREATE EXTENSION IF NOT EXISTS pg_trgm"
        fi
    done
    wait_whole 180
    touch "$dir/created"
    url
}

hosts() {
    local list=""
    for name in $nodes; do list="${list:+$list,}127.0.0.1:$(port_of "$name")"; done
    echo "$list"
}

url() {
    [ -f "$dir/created" ] || { echo "No formation here: run scripts/postgres-ha.sh start" >&2; exit 1; }
    echo "postgres://skiff@$(hosts)/skiff?target_session_attrs=read-write&sslmode=disable"
}

status() {
    [ -f "$dir/created" ] || { echo "No formation here: run scripts/postgres-ha.sh start" >&2; exit 1; }
    printf '%-4s %-6s %-24s %s\n' node port state sync
    node_states | while read -r name port state; do
        sync="$(as_pg_user "$pg_bin/psql" -h 127.0.0.1 -p "$port" -d postgres -qAt \
            -c "SELECT CASE WHEN pg_is_in_recovery() THEN 'standby' ELSE coalesce(nullif(current_setting('synchronous_standby_names'), ''), 'asynchronous') END" 2>/dev/null || echo down)"
        printf '%-4s %-6s %-24s %s\n' "$name" "$port" "$state" "$sync"
    done
}

events() {
    [ -f "$dir/created" ] || { echo "No formation here: run scripts/postgres-ha.sh start" >&2; exit 1; }
    monitor_sql "SELECT * FROM (SELECT eventid, to_char(eventtime, 'HH24:MI:SS.MS'), nodename,
        reportedstate || '/' || goalstate, description FROM pgautofailover.event ORDER BY eventid DESC LIMIT 40) e
        ORDER BY 1"
}

failover() {
    wait_whole 120
    local old
    old="$(primary_name)"
    as_pg_user_logged "$dir/switchover.log" pg_autoctl perform switchover --pgdata "$dir/monitor" --formation default
    wait_promoted "$old" 120
    wait_whole 120
    echo "switched over: $old is a secondary, $(primary_name) the primary"
}

crash_primary() {
    wait_whole 120
    local old
    old="$(primary_name)"
    # The machine dies: its keeper, the keeper's children and its postmaster with every backend, at the same moment.
    kill_node "$old"
    local began=$SECONDS
    wait_promoted "$old" 120
    echo "$old crashed; $(primary_name) was promoted in $((SECONDS - began)) s"
}

rejoin() {
    for name in $nodes; do
        if [ -z "$(keeper_pid "$name")" ]; then
            # What the dead postmaster left (its pid file, its shared memory) is cleared by its next start.
            run_node "$name"
        fi
    done
    wait_whole 180
    echo "whole again: $(primary_name) the primary"
}

stop() {
    if [ -d "$dir" ]; then
        for name in $nodes monitor; do kill_node "$name"; done
        for name in $nodes monitor; do
            # A postmaster outside its keeper's group (none is expected) goes too.
            if [ -f "$dir/$name/postmaster.pid" ]; then kill -KILL "$(head -1 "$dir/$name/postmaster.pid")" 2>/dev/null || true; fi
        done
        sleep 0.5
        # A process that was between its last write and its death can leave a file behind the first pass.
        rm -rf "$dir" 2>/dev/null || { sleep 1; rm -rf "$dir"; }
    fi
    echo "the formation is stopped and its folder deleted."
}

case "${1:-}" in
    start) start ;;
    url) url ;;
    status) status ;;
    events) events ;;
    failover) failover ;;
    crash-primary) crash_primary ;;
    rejoin) rejoin ;;
    stop) stop ;;
    *) echo "usage: $0 start|url|status|failover|crash-primary|rejoin|stop" >&2; exit 2 ;;
esac
