#!/usr/bin/env python3
"""Measures skiff through a real pty (100x30), as a person's terminal would see it.

    scripts/bench-pty.py --skiff PATH [--server URL --phone N --password P] [--steps 200] [--pages 500]

Prints one line per figure. Start-up is measured from exec to the first frame that shows Login's status bar; a key's
latency is from writing it to the last byte of its redraw, the redraw being over when nothing more arrives for
QUIET seconds. Without --server, skiff starts its built-in server in a fresh --data-dir (first run) and again in the
same one (later run).
"""
import argparse, fcntl, os, pty, re, select, statistics, struct, sys, tempfile, termios, time

QUIET = 0.08
DOWN, PAGE_DOWN = b"\x1b[B", b"\x1b[6~"
ESCAPES = re.compile(rb"\x1b(\[[0-9;?]*[A-Za-z]|\([A-Za-z0-9]|[=>])")


def shows(text):
    """A predicate: the screen output, escape sequences removed, contains `text`."""
    needle = text.encode()
    return lambda b: needle in ESCAPES.sub(b"", b)


def spawn(argv, env):
    pid, fd = pty.fork()
    if pid == 0:
        os.execvpe(argv[0], argv, env)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
    return pid, fd


def read_until(fd, predicate, timeout=30.0):
    """Reads until predicate(buffer) holds; returns (buffer, time of the last byte)."""
    buf, last, end = b"", time.monotonic(), time.monotonic() + timeout
    while time.monotonic() < end:
        ready, _, _ = select.select([fd], [], [], 0.05)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            buf += chunk
            last = time.monotonic()
            if predicate(buf):
                return buf, last
    raise TimeoutError(f"waited {timeout}s; last output: {buf[-400:]!r}")


def settle(fd, quiet=QUIET, limit=10.0):
    """Reads until nothing arrives for `quiet` seconds; returns (bytes, time of the last byte or None)."""
    buf, last, start = b"", None, time.monotonic()
    while time.monotonic() - start < limit:
        ready, _, _ = select.select([fd], [], [], quiet)
        if not ready:
            break
        chunk = os.read(fd, 65536)
        buf += chunk
        last = time.monotonic()
    return buf, last


def summary(lat, sizes):
    if not lat:
        return "no redraw (the end of the list)"
    return (f"median {statistics.median(lat):.2f} ms, p99 {p(lat, 0.99):.2f} ms; "
            f"bytes per step median {statistics.median(sizes):.0f}")


def key_latencies(fd, key, count):
    lat, sizes = [], []
    for _ in range(count):
        sent = time.monotonic()
        os.write(fd, key)
        buf, last = settle(fd)
        if last is not None:
            lat.append((last - sent) * 1000)
            sizes.append(len(buf))
    return lat, sizes


def cpu_ns(pid):
    """CPU time every thread of the process has run, in nanoseconds (`/proc/PID/task/*/schedstat`)."""
    total = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/schedstat") as f:
                total += int(f.read().split()[0])
        except FileNotFoundError:
            pass
    return total


def measured_keys(pid, fd, key, count):
    """`key_latencies`, and the summary line with the CPU the process spent per key."""
    before = cpu_ns(pid)
    lat, sizes = key_latencies(fd, key, count)
    return f"{summary(lat, sizes)}; CPU per key {(cpu_ns(pid) - before) / count / 1000:.0f} µs"


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def wakeups(pid):
    """Context switches of each thread, by thread id."""
    counts = {}
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/status") as f:
                counts[task] = sum(int(line.split()[1]) for line in f
                                   if line.startswith(("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches")))
        except FileNotFoundError:
            pass
    return counts


def woke(before, after):
    """Wake-ups between two readings, over the threads alive at both (a thread that ended took its count)."""
    return sum(after[t] - before[t] for t in after if t in before) + sum(after[t] for t in after if t not in before)


def p(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))] if values else float("nan")


def start_once(argv, env):
    started = time.monotonic()
    pid, fd = spawn(argv, env)
    read_until(fd, shows("? help"))
    elapsed = (time.monotonic() - started) * 1000
    return pid, fd, elapsed


def stop(pid, fd):
    try:
        os.write(fd, b"\x11")  # Ctrl-Q
        time.sleep(0.3)
        os.kill(pid, 15)
    except OSError:
        pass
    try:
        os.waitpid(pid, 0)
    except ChildProcessError:
        pass
    os.close(fd)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--skiff", required=True)
    parser.add_argument("--server")
    parser.add_argument("--phone", default="2025550143")
    parser.add_argument("--password", default="sail-away-2026")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--pages", type=int, default=500)
    parser.add_argument("--search", default="zzqxj")
    parser.add_argument("--tour", action="store_true",
                        help="after the figures, visit every screen once (unmeasured; for scripts/link-order.py)")
    args = parser.parse_args()
    env = dict(os.environ, TERM="xterm-256color", LANG="C.UTF-8", SKIFF_NO_MOUSE="1")

    extra = ["--server", args.server] if args.server else []
    label = "--server" if args.server else "embedded"
    firsts, laters = [], []
    for _ in range(args.runs):
        folder = tempfile.mkdtemp(prefix="skiff-bench-")
        argv = [args.skiff, "--data-dir", folder, "--lock-after", "0"] + extra
        pid, fd, ms = start_once(argv, env)
        firsts.append(ms)
        stop(pid, fd)
        pid, fd, ms = start_once(argv, env)
        laters.append(ms)
        stop(pid, fd)
    print(f"start-up to Login, {label}, first run: median {statistics.median(firsts):.1f} ms (min {min(firsts):.1f}, max {max(firsts):.1f}, n={len(firsts)})")
    print(f"start-up to Login, {label}, later run: median {statistics.median(laters):.1f} ms (min {min(laters):.1f}, max {max(laters):.1f}, n={len(laters)})")

    folder = tempfile.mkdtemp(prefix="skiff-bench-")
    pid, fd, _ = start_once([args.skiff, "--data-dir", folder, "--lock-after", "0"] + extra, env)
    settle(fd, 0.3)
    os.write(fd, b"\x15" + args.phone.encode() + b"\t" + args.password.encode() + b"\r")
    read_until(fd, lambda b: shows("Transactions")(b) and shows("Balance")(b), timeout=60)
    settle(fd, 1.0)
    # Home's loads (summary, cards, page, spending, the cache write) end within a moment; idle starts after.
    time.sleep(3)
    print(f"RSS at Home: {rss_kib(pid) / 1024:.1f} MB")
    before = wakeups(pid)
    time.sleep(10)
    print(f"idle wake-ups in 10 s at Home (all threads, voluntary + involuntary): {woke(before, wakeups(pid))}")

    print(f"Down near the top: {measured_keys(pid, fd, DOWN, args.steps)}")
    print(f"PageDown x{args.pages}: {measured_keys(pid, fd, PAGE_DOWN, args.pages)}")
    settle(fd, 2.0)
    print(f"RSS after {args.pages} PageDowns: {rss_kib(pid) / 1024:.1f} MB")
    print(f"Down after {args.pages} PageDowns: {measured_keys(pid, fd, DOWN, args.steps)}")

    os.write(fd, b"/")
    settle(fd)
    os.write(fd, args.search.encode())
    settle(fd)
    sent = time.monotonic()
    os.write(fd, b"\r")
    _, last = read_until(fd, shows("match"), timeout=60)
    print(f"search '{args.search}' (no match) to its answer on screen: {(last - sent) * 1000:.1f} ms")
    if args.tour:
        tour(fd)
    stop(pid, fd)


def tour(fd):
    """Home's other screens and Login's, each left with Esc: what a session beyond the list runs."""
    def keys(data, wait=0.5):
        os.write(fd, data)
        settle(fd, wait)
    keys(b"\x1b")  # the search
    for key in (b"s", b"s", b"?"):
        keys(key)
    keys(b"\x1b")
    for screen, inside in ((b"c", b"\x1b[B\r\x1b"), (b"n", b"\x1b[B\r\x1b"), (b"v", b"12"), (b"a", b"4242 42")):
        keys(screen, 1.0)
        keys(inside, 1.0)
        keys(b"\x1b", 1.0)
    keys(b"L", 1.0)  # log out, to Login
    for screen in (b"\x0e", b"\x10"):  # Ctrl-N create an account, Ctrl-P forgot password
        keys(screen, 1.0)
        keys(b"\t20255501\t", 0.5)
        keys(b"\x1b", 1.0)


if __name__ == "__main__":
    sys.exit(main())
