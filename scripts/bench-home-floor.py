#!/usr/bin/env python3
"""Home's Down and PageDown against the floor under them, in one run (issue 26's performance rule): rounds that
alternate scripts/pty-floor.c's ncursesw scroll (13 rows moved by one, the C program with no Skiff in it) and the
release `skiff` signed in on Home through `--server`, both measured by bench-pty.py's method (a real pty, 100x30, a
key written, its redraw over after 80 ms of silence).

    scripts/bench-home-floor.py --skiff BIN --server URL --phone … --password … [--rounds 5 --steps 200]

Prints each round's medians and, over the rounds, the median of Skiff's Down and PageDown medians divided by the
floor's scroll median (targets: Down at most 1.2 times, PageDown at most 1.5 times).
"""
import argparse, importlib.util, os, statistics, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))


def load(name, file):
    spec = importlib.util.spec_from_file_location(name, os.path.join(HERE, file))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


bench = load("bench_pty", "bench-pty.py")
floor = load("pty_floor", "pty-floor.py")


def median_of(fd, key, steps):
    latencies, _ = bench.key_latencies(fd, key, steps)
    if len(latencies) < steps:
        # A step that draws nothing (the list's end, or rows that all look alike) has no latency to count: said, so a
        # median over fewer steps than asked is not taken for the whole.
        print(f"  {steps - len(latencies)} of {steps} steps drew nothing and are not in the median", file=sys.stderr)
    if not latencies:
        raise SystemExit("no step drew anything: measure an account whose first page differs row to row")
    return statistics.median(latencies)


def wallet(args):
    """The command line and environment of a fresh `skiff` on `args.server` that never locks."""
    env = dict(os.environ, TERM="xterm-256color", LANG="C.UTF-8", SKIFF_NO_MOUSE="1")
    folder = tempfile.mkdtemp(prefix="skiff-bench-")
    return [args.skiff, "--data-dir", folder, "--lock-after", "0", "--server", args.server], env


def sign_in_keys(args):
    """Login's keys: the phone field cleared, the phone, Tab, the password, Enter."""
    return b"\x15" + args.phone.encode() + b"\t" + args.password.encode() + b"\r"


def home(args):
    """skiff signed in on Home, its loads over: its pid and pty."""
    pid, fd, _ = bench.start_once(*wallet(args))
    bench.settle(fd, 0.3)
    os.write(fd, sign_in_keys(args))
    bench.read_until(fd, lambda b: bench.shows("Transactions")(b) and bench.shows("Balance")(b), timeout=60)
    bench.settle(fd, 1.0)
    time.sleep(3)
    return pid, fd


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--skiff", required=True)
    parser.add_argument("--server", required=True)
    parser.add_argument("--phone", required=True)
    parser.add_argument("--password", required=True)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--steps", type=int, default=200)
    args = parser.parse_args()
    binary = floor.build()
    down_ratios, page_ratios = [], []
    for round_number in range(1, args.rounds + 1):
        pid, fd = floor.start(binary, "scroll")
        scroll = median_of(fd, bench.DOWN, args.steps)
        bench.stop(pid, fd)
        pid, fd = home(args)
        down = median_of(fd, bench.DOWN, args.steps)
        page = median_of(fd, bench.PAGE_DOWN, args.steps)
        bench.stop(pid, fd)
        down_ratios.append(down / scroll)
        page_ratios.append(page / scroll)
        print(f"round {round_number}: floor scroll {scroll:.3f} ms; Home Down {down:.3f} ms ({down / scroll:.2f}x), "
              f"PageDown {page:.3f} ms ({page / scroll:.2f}x)", flush=True)
    print(f"over {args.rounds} rounds, median: Down {statistics.median(down_ratios):.2f}x the floor (target <= 1.2), "
          f"PageDown {statistics.median(page_ratios):.2f}x (target <= 1.5); load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    sys.exit(main())
