#!/usr/bin/env bash
# The .deb end to end (issue 27), as root on a Debian machine (CI runs it): install it with dpkg -i, run
# `skiff --version` and `man -w skiff`, complete `skiff --s` through the installed bash completion, start the
# unit's ExecStart command line as its user against a temporary SQLite database and read /health/ready and
# /metrics, then dpkg -r and dpkg -P, and check that nothing is left outside
# /var/lib/skiff and /etc/skiff after the removal, and nothing at all after the purge.
#
#   scripts/check-package.sh dist/skiff_<version>_<arch>.deb
set -euo pipefail
deb="${1:?usage: scripts/check-package.sh PACKAGE.deb}"
deb="$(readlink -f "$deb")"
if [ "$(id -u)" -ne 0 ]; then
    echo "check-package.sh: run it as root (it installs and purges the package)" >&2
    exit 1
fi
if dpkg -s skiff >/dev/null 2>&1; then
    echo "check-package.sh: skiff is installed already; this check needs a machine without it" >&2
    exit 1
fi

work="$(mktemp -d -t skiff-check-package.XXXXXX)"
server_pid=""
# Stops the server: SIGTERM to unshare's child (the server, PID 1 of its namespace, which handles SIGTERM), since
# `unshare --fork` ignores SIGTERM itself while it waits; then waits for unshare, which exits with its child.
stop_server() {
    pkill -TERM -P "$server_pid" 2>/dev/null || kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
    server_pid=""
}
cleanup() {
    local status=$?
    if [ -n "$server_pid" ]; then stop_server; fi
    if [ "$status" -ne 0 ]; then
        [ -f "$work/server.log" ] && { echo "---- skiff-server's log ----" >&2; tail -30 "$work/server.log" >&2; }
        dpkg -P skiff >/dev/null 2>&1 || true
    fi
    rm -rf "$work"
    exit "$status"
}
trap cleanup EXIT
step() { printf '\n== %s\n' "$*"; }

# Every file and folder outside the places a run changes anyway (dpkg's own records, logs, caches, /tmp).
snapshot() {
    find / -xdev \( -path /proc -o -path /sys -o -path /dev -o -path /run -o -path /tmp -o -path /var/tmp \
        -o -path /var/lib/dpkg -o -path /var/log -o -path /var/cache -o -path /var/lib/apt -o -path /root \
        -o -path /home -o -path /work -o -path /opt -o -path "$work" \) -prune -o -print 2>/dev/null |
        grep -Ev '^/etc/(passwd|group|shadow|gshadow|subuid|subgid)-$' | sort
}
snapshot > "$work/before"

step "dpkg -i $(basename "$deb")"
dpkg -i "$deb"

step "skiff --version, skiff-server --version"
skiff --version
skiff-server --version
skiff --version | grep -q '^skiff [0-9]'

step "man -w skiff, man -w skiff-server"
man -w skiff
man -w skiff-server

step "bash completion: skiff --s<Tab>"
completed="$(bash -c '
    source /usr/share/bash-completion/completions/skiff
    COMP_WORDS=(skiff --s); COMP_CWORD=1; COMP_LINE="skiff --s"; COMP_POINT=${#COMP_LINE}
    _skiff skiff --s skiff
    printf "%s\n" "${COMPREPLY[@]}"
' </dev/null)"
echo "$completed"
grep -qx -- "--server" <<<"$completed" || { echo "skiff --s did not complete to --server" >&2; exit 1; }

step "the skiff user, /etc/skiff and /var/lib/skiff"
getent passwd skiff
stat -c '%A %U:%G %n' /etc/skiff /etc/skiff/server.toml /etc/skiff/server.key /var/lib/skiff

step "the unit's sandbox: systemd-analyze security"
unit=/lib/systemd/system/skiff-server.service
exposure="$(systemd-analyze security --offline=true "$unit" 2>/dev/null | sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p')"
echo "exposure: $exposure (at most 2.0)"
python3 -c "import sys; sys.exit(0 if float('$exposure') <= 2.0 else 1)" \
    || { systemd-analyze security --offline=true "$unit" | grep '✗' >&2; exit 1; }

step "the unit's ExecStart as its user, in the unit's sandbox (scripts/unit-sandbox.py), on a temporary SQLite database"
exec_start="$(sed -n 's/^ExecStart=//p' "$unit")"
user="$(sed -n 's/^User=//p' "$unit")"
echo "ExecStart=$exec_start (User=$user)"
read -r -a command <<<"$exec_start"
database_dir="$(mktemp -d -p "$work")"
chown "$user" "$work" "$database_dir"
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
extra=(--database "$database_dir/skiff.sqlite" --port "$port")
# server.toml's metrics port may be taken here; another, free one, as the command line wins over the file.
metrics_port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
extra+=(--metrics-port "$metrics_port")
# The unit's seccomp filter, address families, W^X memory, /proc view, user and no new privileges, as systemd
# applies them (systemd is not PID 1 here): a sandbox the server cannot live in fails here, not in production.
sandbox="$(dirname "$(readlink -f "$0")")/unit-sandbox.py"
unshare --mount --pid --fork --kill-child=SIGTERM --propagation private -- /usr/bin/python3 "$sandbox" "$unit" -- \
    "${command[@]}" "${extra[@]}" </dev/null >"$work/server.log" 2>&1 &
server_pid=$!
ready=""
for _ in $(seq 1 240); do
    if ready="$(curl -fsS "http://127.0.0.1:$port/health/ready" 2>/dev/null)"; then break; fi
    kill -0 "$server_pid" 2>/dev/null || { echo "skiff-server stopped before it was ready" >&2; exit 1; }
    sleep 0.5
done
[ -n "$ready" ] || { echo "/health/ready never answered 200" >&2; exit 1; }
echo "/health/ready: $ready"
# The file's settings were used: its JSON log format (the command line gave only the database and the port).
head -1 "$work/server.log" | python3 -c 'import json, sys; json.loads(sys.stdin.readline()); print("log: JSON lines, as server.toml asks")'
metrics="$(curl -fsS "http://127.0.0.1:$metrics_port/metrics")"
grep -m3 '^skiff_' <<<"$metrics"
grep -q '^skiff_http_requests_total{' <<<"$metrics" || { echo "/metrics has no skiff_http_requests_total" >&2; exit 1; }
stop_server

step "dpkg -r skiff"
dpkg -r skiff
snapshot > "$work/removed"
left="$(comm -13 "$work/before" "$work/removed" | grep -Ev '^/(var/lib|etc)/skiff(/|$)' || true)"
if [ -n "$left" ]; then
    echo "left outside /var/lib/skiff and /etc/skiff after dpkg -r:" >&2
    echo "$left" >&2
    exit 1
fi
echo "kept after removal: $(comm -13 "$work/before" "$work/removed" | tr '\n' ' ')"

step "dpkg -P skiff"
dpkg -P skiff
snapshot > "$work/purged"
left="$(comm -13 "$work/before" "$work/purged" || true)"
if [ -n "$left" ]; then
    echo "left after dpkg -P:" >&2
    echo "$left" >&2
    exit 1
fi
if getent passwd skiff >/dev/null || getent group skiff >/dev/null; then
    echo "the skiff user or group is still there after dpkg -P" >&2
    exit 1
fi
echo "nothing left: no file, no /var/lib/skiff, no /etc/skiff, no skiff user"
echo
echo "check-package.sh: $(basename "$deb") installs, runs, removes and purges cleanly"
