#!/usr/bin/env python3
"""Home's Down and PageDown while money arrives, against the ncursesw floor (issue 47, target 3): rounds that alternate
scripts/pty-floor.c's scroll and the release `skiff` signed in on Home as the payee, first at rest, then while a second
account sends the payee 1 to 9 cents `--rate` times a second through the server (a payroll run), each drawn live.

    scripts/bench-home-burst.py --skiff BIN --server URL --phone … --password … \\
        --payer-phone … --payer-password … [--rate 50 --rounds 3 --steps 150]

A step's latency is from writing its key to the last byte of its redraw, over after QUIET seconds of silence: 80 ms
(bench-pty.py's) cannot end while a redraw comes every 20 ms, so all three are measured with QUIET = 3 ms, and before
each key the output is drained until it is quiet, so a step starts on a still screen. A money redraw that lands inside
a step's window lengthens that step: the medians hold while that is the rarer case. The burst's own figures (sent,
refused, the payee's balance on the server) are printed so a run can be checked.
"""
import argparse, importlib, json, os, statistics, sys, threading, time, urllib.request, uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
home_floor = importlib.import_module("bench-home-floor")  # Home signed in through a pty, and the modules it loads
bench, floor = home_floor.bench, home_floor.floor
QUIET = 0.003


def step_latencies(fd, key, steps):
    """Each step's latency (ms), from a still screen: drained before the key, its redraw over after QUIET of silence."""
    latencies = []
    for _ in range(steps):
        bench.settle(fd, QUIET, limit=0.5)
        sent = time.monotonic()
        os.write(fd, key)
        _, last = bench.settle(fd, QUIET, limit=0.5)
        if last is not None:
            latencies.append((last - sent) * 1000)
    if not latencies:
        raise SystemExit("no step drew anything: the screen did not change (rows that all look alike scroll "
                         "without a byte; measure an account whose first page differs row to row)")
    return latencies


def call(server, method, path, body=None, token=None, key=None):
    request = urllib.request.Request(server + path, method=method, data=json.dumps(body).encode() if body else None)
    request.add_header("Content-Type", "application/json")
    request.add_header("Accept", "application/json")
    if token:
        request.add_header("Authorization", "Bearer " + token)
    if key:
        request.add_header("Idempotency-Key", key)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read() or b"{}")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


def sign_in(server, phone, password):
    status, body = call(server, "POST", "/v1/auth/login", {"countryCode": "+1", "phoneNumber": phone, "password": password})
    if status != 200:
        raise SystemExit(f"sign-in of {phone} answered {status}: {body}")
    return body["token"], body["user"]["id"]


class Burst:
    """Sends the payee 1 to 9 cents `rate` times a second from the payer until stopped."""

    def __init__(self, server, token, payee, rate):
        self.server, self.token, self.payee, self.rate = server, token, payee, rate
        self.sent = self.refused = 0
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self):
        interval, next_at = 1.0 / self.rate, time.monotonic()
        while not self.stopping.is_set():
            # 1 to 9 cents in turn: rows that all looked alike would scroll without a byte to draw; at 50 a second
            # the payer's day stays under the step-up amount ($100) for about 40 s of burst.
            status, _ = call(self.server, "POST", "/v1/transfers",
                             {"recipientId": self.payee, "amountMinor": 1 + (self.sent + self.refused) % 9, "currency": "USD"},
                             token=self.token, key=str(uuid.uuid4()))
            if status == 201:
                self.sent += 1
            else:
                self.refused += 1
            next_at += interval
            time.sleep(max(0.0, next_at - time.monotonic()))

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *_):
        self.stopping.set()
        self.thread.join()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    for name in ("--skiff", "--server", "--phone", "--password", "--payer-phone", "--payer-password"):
        parser.add_argument(name, required=True)
    parser.add_argument("--rate", type=float, default=50)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--steps", type=int, default=150)
    args = parser.parse_args()
    binary = floor.build()
    payer_token, _ = sign_in(args.server, args.payer_phone, args.payer_password)
    payee_token, payee = sign_in(args.server, args.phone, args.password)
    rows = []
    for round_number in range(1, args.rounds + 1):
        pid, fd = floor.start(binary, "scroll")
        scroll = statistics.median(step_latencies(fd, bench.DOWN, args.steps))
        bench.stop(pid, fd)
        pid, fd = home_floor.home(args)
        rest = [statistics.median(step_latencies(fd, key, args.steps)) for key in (bench.DOWN, bench.PAGE_DOWN)]
        with Burst(args.server, payer_token, payee, args.rate) as burst:
            time.sleep(1)
            began = time.monotonic()
            busy = [statistics.median(step_latencies(fd, key, args.steps)) for key in (bench.DOWN, bench.PAGE_DOWN)]
            rate = burst.sent / (time.monotonic() - began + 1)
        time.sleep(1)
        bench.stop(pid, fd)
        status, me = call(args.server, "GET", "/v1/me", token=payee_token)
        rows.append((scroll, rest, busy))
        print(f"round {round_number}: floor scroll {scroll:.3f} ms; at rest Down {rest[0]:.3f} ms PageDown {rest[1]:.3f} ms; "
              f"under {rate:.0f} transfers/s Down {busy[0]:.3f} ms ({busy[0] / scroll:.2f}x) PageDown {busy[1]:.3f} ms "
              f"({busy[1] / scroll:.2f}x); sent {burst.sent}, refused {burst.refused}; balance on the server "
              f"{me.get('balance', {}).get('amountMinor') if status == 200 else status}", flush=True)
    down = statistics.median(busy[0] / scroll for scroll, _, busy in rows)
    page = statistics.median(busy[1] / scroll for scroll, _, busy in rows)
    print(f"over {args.rounds} rounds, median under the burst: Down {down:.2f}x the floor (target <= 1.2), "
          f"PageDown {page:.2f}x (target <= 1.5); load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    sys.exit(main())
