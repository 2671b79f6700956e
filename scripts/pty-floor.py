#!/usr/bin/env python3
"""The floor under bench-pty.py's step figures: the same method (a real pty, 100x30, a Down written, the redraw
over after 80 ms of silence) on scripts/pty-floor.c, a C program with no Skiff in it, built here with `cc`.

    scripts/pty-floor.py [--rounds 3] [--steps 200]

Prints, per mode and round, the median and p99 latency, the bytes per step and the CPU the program spent per key
(`/proc/PID/schedstat` of every thread).
"""
import argparse, importlib.util, os, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("bench_pty", os.path.join(HERE, "bench-pty.py"))
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)


def build():
    """scripts/pty-floor.c, compiled into a temporary folder; its path."""
    binary = os.path.join(tempfile.mkdtemp(prefix="pty-floor-"), "pty-floor")
    subprocess.run(["cc", "-O2", "-o", binary, os.path.join(HERE, "pty-floor.c"), "-lncursesw", "-ltinfo"], check=True)
    return binary


def start(binary, mode):
    """The C program in `mode` (write, rows2, scroll) in a pty, drawn and quiet: its pid and the pty."""
    env = dict(os.environ, TERM="xterm-256color", LANG="C.UTF-8")
    pid, fd = bench.spawn([binary, mode], env)
    bench.read_until(fd, bench.shows("Transactions"))
    bench.settle(fd)
    return pid, fd


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--steps", type=int, default=200)
    args = parser.parse_args()
    binary = build()
    for mode in ("write", "rows2", "scroll"):
        for _ in range(args.rounds):
            pid, fd = start(binary, mode)
            print(f"{mode:7} {bench.measured_keys(pid, fd, bench.DOWN, args.steps)}")
            bench.stop(pid, fd)


if __name__ == "__main__":
    sys.exit(main())
