#!/usr/bin/env python3
"""Times the spending statement of GET /v1/spending on a SQLite file, as the server runs it, at its most rows.

The server reads the rollups in one statement (SQLiteTransactionRepository.spending): the month rows of this month
and the month before, and the day rows SpendingPlan asks for (at most 15 days). This reads the same month rows and
all of the month before's days, an upper bound of what any day of the month costs.

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

# The repository's SQL (SQLiteTransactionRepository.spending).
SQL = """SELECT 0, month, category, currency, amount_minor FROM spending_months WHERE user_id = ?1 AND month >= ?2 AND month < ?3
    UNION ALL
    SELECT 1, day, category, currency, amount_minor FROM spending_days WHERE user_id = ?1 AND day >= ?4 AND day < ?5"""


def month_start(year, month):
    return int(datetime.datetime(year, month, 1, tzinfo=datetime.timezone.utc).timestamp() * 1000)


db = sqlite3.connect(path)
user_id = db.execute("SELECT id FROM users WHERE phone = ?", (phone,)).fetchone()[0]
now = datetime.datetime.now(datetime.timezone.utc)
this = month_start(now.year, now.month)
previous = month_start(now.year - 1, 12) if now.month == 1 else month_start(now.year, now.month - 1)
following = month_start(now.year + 1, 1) if now.month == 12 else month_start(now.year, now.month + 1)

print("SQLite", sqlite3.sqlite_version)
arguments = (user_id, previous, following, previous, this)
for row in db.execute("EXPLAIN QUERY PLAN " + SQL, arguments):
    print("  plan:", row[3])
rows = db.execute(
    "SELECT COUNT(*) FROM transactions WHERE user_id = ? AND created_at >= ? AND created_at < ?",
    (user_id, previous, following),
).fetchone()[0]
print("rows in the two months:", rows)
print("rollup rows read:", len(db.execute(SQL, arguments).fetchall()))
times = []
for _ in range(runs):
    start = time.perf_counter()
    db.execute(SQL, arguments).fetchall()
    times.append((time.perf_counter() - start) * 1000)
times.sort()
print("the statement, %d runs: median %.3f ms, p90 %.3f ms, fastest %.3f ms"
      % (runs, times[len(times) // 2], times[int(len(times) * 0.9)], times[0]))
