#!/usr/bin/env bash
# A newcomer's first build, measured (issue 47, point 4): for each REV in turn, a clean checkout in a temporary
# folder and `swift build --product PRODUCT` (default skiff) from nothing (no .build), timed: wall seconds, the
# build's CPU seconds (user + system, of every process it ran), and its build steps (SwiftPM's last [N/N]). Run the
# revisions side by side in the same hour, on an otherwise quiet machine; each build is a few to 15 minutes.
#
#   scripts/bench/first-build.sh [--product skiff|skiff-server|--tests] REV [REV ...]
#
# --tests builds everything `swift test` builds (`swift build --build-tests`). Prints one line per revision.
set -euo pipefail
cd "$(dirname "$0")/../.."

product=skiff
if [ "${1:-}" = "--product" ]; then product="$2"; shift 2; elif [ "${1:-}" = "--tests" ]; then product=""; shift; fi
[ "$#" -gt 0 ] || { echo "usage: scripts/bench/first-build.sh [--product P|--tests] REV [REV ...]" >&2; exit 2; }

work="$(mktemp -d -t skiff-first-build.XXXXXX)"
trap 'for tree in "$work"/*/; do git worktree remove --force "$tree" 2>/dev/null || true; done; rm -rf "$work"' EXIT

printf '%-12s %-14s %10s %10s %8s\n' revision what wall_s cpu_s steps
for rev in "$@"; do
    tree="$work/$(git rev-parse --short "$rev")"
    git worktree add --quiet --detach "$tree" "$rev"
    if [ -n "$product" ]; then what="--product $product"; args=(--product "$product"); else what="--build-tests"; args=(--build-tests); fi
    start=$(date +%s.%N)
    /usr/bin/time -f '%U %S' -o "$work/time" swift build --package-path "$tree" "${args[@]}" </dev/null >"$work/log" 2>&1 \
        || { tail -20 "$work/log" >&2; echo "the build of $rev failed" >&2; exit 1; }
    end=$(date +%s.%N)
    cpu=$(awk '{printf "%.0f", $1 + $2}' "$work/time")
    steps=$(grep -oE '^\[[0-9]+/[0-9]+\]' "$work/log" | tail -1 | sed 's/\[\([0-9]*\)\/.*/\1/')
    printf '%-12s %-14s %10.0f %10s %8s\n' "$(git rev-parse --short "$rev")" "$what" "$(echo "$end - $start" | bc)" "$cpu" "$steps"
    git worktree remove --force "$tree"
done
