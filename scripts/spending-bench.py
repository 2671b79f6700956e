#!/usr/bin/env python3
"""Times the spending query of GET /v1/spending on a SQLite file: this month and last, as the server runs them.

Usage: scripts/spending-bench.py FILE [PHONE_E164] [RUNS]
Seed first: skiff-server seed --phone "202 555 0177" --transactions 1000000 --database FILE
"""
import datetime
import sqlite3
import sys
import time

path = sys.argv[1]
phone = sys.argv[2] if len(sys.argv) > 2 else "+12025550177"
runs = int(sys.argv[3]) if len(sys.argv) > 3 else 30

# The repository's SQL (SQLiteTransactionRepository.spending), over the per-day rollup `spending_days`.
SQL = """SELECT category, currency, -SUM(amount_minor) AS spent FROM spending_days
    WHERE user_id = ? AND day >= ? AND day < ?
    GROUP BY category, currency ORDER BY spent DESC, category, currency"""


def month_start(year, month):
    return int(datetime.datetime(year, month, 1, tzinfo=datetime.timezone.utc).timestamp() * 1000)


db = sqlite3.connect(path)
user_id = db.execute("SELECT id FROM users WHERE phone = ?", (phone,)).fetchone()[0]
now = datetime.datetime.now(datetime.timezone.utc)
this = month_start(now.year, now.month)
previous = month_start(now.year - 1, 12) if now.month == 1 else month_start(now.year, now.month - 1)
following = month_start(now.year + 1, 1) if now.month == 12 else month_start(now.year, now.month + 1)

print("SQLite", sqlite3.sqlite_version)
for row in db.execute("EXPLAIN QUERY PLAN " + SQL, (user_id, this, following)):
    print("  plan:", row[3])
rows = db.execute(
    "SELECT COUNT(*) FROM transactions WHERE user_id = ? AND created_at >= ? AND created_at < ?",
    (user_id, previous, following),
).fetchone()[0]
print("rows in the two months:", rows)
print("rollup rows in the two months:", db.execute(
    "SELECT COUNT(*) FROM spending_days WHERE user_id = ? AND day >= ? AND day < ?", (user_id, previous, following)
).fetchone()[0])
db.execute(SQL, (user_id, this, following)).fetchall()
times = []
for _ in range(runs):
    start = time.perf_counter()
    db.execute(SQL, (user_id, this, following)).fetchall()
    db.execute(SQL, (user_id, previous, this)).fetchall()
    times.append((time.perf_counter() - start) * 1000)
times.sort()
print("both months, %d runs: median %.1f ms, p90 %.1f ms, fastest %.1f ms"
      % (runs, times[len(times) // 2], times[int(len(times) * 0.9)], times[0]))
