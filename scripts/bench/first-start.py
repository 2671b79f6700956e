#!/usr/bin/env python3
"""The wallet's first start against `less`, in one run (issue 47): rounds that alternate `less` on a 1,000-line file
(exec to its 29th line on screen), `skiff` on a fresh --data-dir (the first run: the embedded server creates its
database and the demo account after the first frame) and `skiff` again on the same folder (a later run), each to
Login's status bar through a real pty, 100x30, by bench-pty.py's method.

    scripts/bench/first-start.py --skiff BIN [--runs 7]

Prints each round, the medians, and the ratios of the medians to less's (goal: the first run at most 2.5 times).
"""

import argparse
import importlib.util
import os
import shutil
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("bench_pty", os.path.join(HERE, "..", "bench-pty.py"))
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)


def less_once(text, env):
    started = time.monotonic()
    pid, fd = bench.spawn(["less", text], env)
    bench.read_until(fd, bench.shows("line 29"))
    elapsed = (time.monotonic() - started) * 1000
    os.write(fd, b"q")
    time.sleep(0.1)
    bench.stop(pid, fd)
    return elapsed


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--skiff", required=True)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    if not shutil.which("less"):
        sys.exit("less is not installed")
    env = dict(os.environ, TERM="xterm-256color", LANG="C.UTF-8")
    work = tempfile.mkdtemp(prefix="skiff-first-start-")
    try:
        text = os.path.join(work, "lines.txt")
        with open(text, "w") as f:
            f.writelines(f"line {n}\n" for n in range(1, 1001))
        less, first, later = [], [], []
        for round_number in range(1, args.runs + 1):
            less.append(less_once(text, env))
            folder = tempfile.mkdtemp(dir=work)
            argv = [args.skiff, "--data-dir", folder, "--lock-after", "0"]
            for runs in (first, later):
                pid, fd, elapsed = bench.start_once(argv, env)
                runs.append(elapsed)
                bench.stop(pid, fd)
                time.sleep(0.3)
            print(f"round {round_number}: less {less[-1]:.1f} ms, first run {first[-1]:.1f} ms, "
                  f"later run {later[-1]:.1f} ms", flush=True)
        median = statistics.median
        for name, values in (("less", less), ("first run", first), ("later run", later)):
            print(f"{name}: median {median(values):.1f} ms (min {min(values):.1f}, max {max(values):.1f}, n={len(values)})")
        print(f"first run {median(first) / median(less):.2f}x less (goal <= 2.5), "
              f"later run {median(later) / median(less):.2f}x; load average {os.getloadavg()[0]:.2f}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
