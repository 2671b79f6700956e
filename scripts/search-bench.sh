#!/usr/bin/env bash
# Times searches through a running skiff-server, as the app asks for them (first page of 50), against 127.0.0.1.
#
#   scripts/search-bench.sh BASE_URL PHONE PASSWORD [RUNS]
#
# Prints, per query, the median and worst of RUNS requests (curl's total time). Seed a large account first, e.g.
# `skiff-server seed --phone "202 555 0177" --password load-test-pass --transactions 1000000 --database FILE`.
set -euo pipefail
BASE="$1"; PHONE="$2"; PASSWORD="$3"; RUNS="${4:-15}"
TOKEN=$(curl -sf -X POST "$BASE/v1/auth/login" -H 'content-type: application/json' \
    -d "{\"countryCode\":\"+1\",\"phoneNumber\":\"$PHONE\",\"password\":\"$PASSWORD\"}" |
    python3 -c 'import sys, json; print(json.load(sys.stdin)["token"])')
for query in zzqxj opening "ee c" coffee Kiosk zq co e; do
    encoded=$(python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1]))' "$query")
    times=()
    for _ in $(seq 1 "$RUNS"); do
        times+=("$(curl -sf -o /dev/null -w '%{time_total}' -H "Authorization: Bearer $TOKEN" \
            "$BASE/v1/transactions?limit=50&query=$encoded")")
    done
    count=$(curl -sf -H "Authorization: Bearer $TOKEN" "$BASE/v1/transactions?limit=50&query=$encoded" |
        python3 -c 'import sys, json; d = json.load(sys.stdin); print(len(d["items"]), "rows" + (", searchLimit %d" % d["searchLimit"] if "searchLimit" in d else ""))')
    printf '%s\n' "${times[@]}" | sort -n | python3 -c "
import sys
t = [float(x) * 1000 for x in sys.stdin.read().split()]
print(f'{sys.argv[1]!r:10} median {t[len(t) // 2]:8.1f} ms  worst {t[-1]:8.1f} ms  ({sys.argv[2]})')" "$query" "$count"
done
