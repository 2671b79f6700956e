#!/usr/bin/env python3
"""Home's Down and PageDown while money arrives, against the ncursesw floor (issue 47, target 3): rounds that alternate
scripts/pty-floor.c's scroll and the release `skiff` signed in on Home as the payee, first at rest, then while a second
account sends the payee 1 to 9 cents `--rate` times a second through the server (a payroll run), each drawn live. The
floor is measured at rest and again while the server takes the same burst (its CPU shares the machine with both).

    scripts/bench-home-burst.py --skiff BIN --server URL --phone … --password … \\
        --payer-phone … --payer-password … [--rate 50 --rounds 3 --steps 150]

A step's latency is from writing its key to the last byte of its redraw, over after QUIET seconds of silence: 80 ms
(bench-pty.py's) cannot end while a redraw comes every 20 ms, so all three are measured with QUIET = 3 ms, and before
each key the output is drained until it is quiet, so a step starts on a still screen. A money redraw that lands inside
a step's window lengthens that step: the medians hold while that is the rarer case. The burst's own figures (sent,
refused, the payee's balance on the server) are printed so a run can be checked.

Each round also watches the screen (the target's second half: the balance never disagrees with the list for more
than one frame). A third account pays the payee a cent `--rate` times a second, each with the note "burst TAG-N";
a fresh `skiff` signed in on Home, its output fed from its first byte into a terminal emulator (pyte, from PyPI), is
read at every frame (the output quiet for 1 ms) for its balance and the newest "burst" note at the top of its list.
After the burst, each frame is checked against the server's answers: the balance it shows must be the balance before
plus the cents of every accepted transfer up to the one on top. The longest run of frames that disagree is printed
(target: at most 1).
"""
import argparse, importlib, json, os, re, select, statistics, sys, threading, time, urllib.request, uuid

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

    def __init__(self, server, token, payee, rate, tag=None):
        """With `tag`, every transfer is one cent with the note "burst TAG-N" (N from 1), and `accepted` keeps N of
        each one the server took, in order."""
        self.server, self.token, self.payee, self.rate, self.tag = server, token, payee, rate, tag
        self.sent = self.refused = 0
        self.accepted = []
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self):
        interval, next_at = 1.0 / self.rate, time.monotonic()
        while not self.stopping.is_set():
            # 1 to 9 cents in turn: rows that all looked alike would scroll without a byte to draw; at 50 a second
            # the payer's day stays under the step-up amount ($100) for about 40 s of burst.
            number = self.sent + self.refused + 1
            body = {"recipientId": self.payee, "amountMinor": 1 + (number - 1) % 9, "currency": "USD"}
            if self.tag:
                body.update(amountMinor=1, note=f"burst {self.tag}-{number}")
            status, _ = call(self.server, "POST", "/v1/transfers", body, token=self.token, key=str(uuid.uuid4()))
            if status == 201:
                self.sent += 1
                self.accepted.append(number)
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


BALANCE = re.compile(r"Balance \$([0-9,]+)\.([0-9]{2})")
NOTE = re.compile(r"“burst ([0-9a-f]+)-([0-9]+)”")
FRAME_QUIET = 0.001


def watched_home(args):
    """skiff signed in on Home, its loads over, everything it wrote fed to a 100x30 pyte screen: pid, pty, the
    screen and its byte stream."""
    try:
        import pyte
    except ImportError:
        raise SystemExit("the frame check reads the screen with pyte: pip install pyte")

    class Screen(pyte.Screen):
        """pyte's screen with the scrolls ncurses sends for xterm that it lacks: SU and SD (CSI n S, CSI n T)."""

        def scroll_up(self, count=1, *_, **__):
            self._scroll(count or 1, self.index, lambda top, bottom: bottom)

        def scroll_down(self, count=1, *_, **__):
            self._scroll(count or 1, self.reverse_index, lambda top, bottom: top)

        def _scroll(self, count, step, row):
            top, bottom = self.margins or pyte.screens.Margins(0, self.lines - 1)
            x, y = self.cursor.x, self.cursor.y
            self.cursor.y = row(top, bottom)
            for _ in range(count):
                step()
            self.cursor.x, self.cursor.y = x, y

    class Stream(pyte.ByteStream):
        csi = dict(pyte.ByteStream.csi, S="scroll_up", T="scroll_down")

    screen = Screen(100, 30)
    stream = Stream(screen)
    pid, fd = bench.spawn(*home_floor.wallet(args))

    def feed_until(predicate, timeout):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if select.select([fd], [], [], 0.05)[0]:
                stream.feed(os.read(fd, 65536))
                if predicate("\n".join(screen.display)):
                    return
        raise SystemExit("Home did not show: " + "\n".join(screen.display))

    feed_until(lambda text: "? help" in text, 30)
    os.write(fd, home_floor.sign_in_keys(args))
    feed_until(lambda text: "Transactions" in text and BALANCE.search(text) is not None, 60)
    end = time.monotonic() + 3
    while time.monotonic() < end:
        if select.select([fd], [], [], 0.05)[0]:
            stream.feed(os.read(fd, 65536))
    return pid, fd, screen, stream


def read_frame(screen, tag):
    """The balance (cents, None when none shows) the frame shows and N of the newest "burst TAG-N" on it (0: none
    yet)."""
    text = "\n".join(screen.display)
    balance = BALANCE.search(text)
    cents = int(balance.group(1).replace(",", "")) * 100 + int(balance.group(2)) if balance else None
    newest = 0
    for match in NOTE.finditer(text):
        if match.group(1) == tag:
            newest = max(newest, int(match.group(2)))
    return cents, newest


def watch_frames(fd, screen, stream, tag, seconds):
    """Every frame's (balance, newest N) for `seconds`: a frame is what the screen shows once its output has been
    quiet for FRAME_QUIET."""
    frames, pending, end = [], False, time.monotonic() + seconds
    while time.monotonic() < end:
        if select.select([fd], [], [], FRAME_QUIET)[0]:
            stream.feed(os.read(fd, 65536))
            pending = True
        elif pending:
            frames.append(read_frame(screen, tag))
            pending = False
    return frames


def frame_check(args, payer_token, payee_token, payee, seconds=10):
    """Watches a fresh Home while the watch payer pays it a cent at a time: frames, frames that disagree, the longest
    run of them, transfers accepted."""
    pid, fd, screen, stream = watched_home(args)
    status, me = call(args.server, "GET", "/v1/me", token=payee_token)
    if status != 200:
        raise SystemExit(f"/v1/me answered {status}: {me}")
    before = me["balance"]["amountMinor"]
    shown, _ = read_frame(screen, "")
    if shown != before:
        raise SystemExit(f"Home shows {shown} cents at rest, the server {before}")
    tag = uuid.uuid4().hex[:4]
    with Burst(args.server, payer_token, payee, args.rate, tag=tag) as burst:
        frames = watch_frames(fd, screen, stream, tag, seconds)
    frames += watch_frames(fd, screen, stream, tag, 1)  # the last events drawn
    bench.stop(pid, fd)
    accepted = burst.accepted
    wrong = run = longest = 0
    for cents, newest in frames:
        # The balance after the accepted transfers up to the one on top: N of accepted ones are increasing.
        expected = before + sum(1 for number in accepted if number <= newest)
        if cents != expected or (newest and newest not in accepted):
            wrong += 1
            run += 1
            longest = max(longest, run)
        else:
            run = 0
    return len(frames), wrong, longest, len(accepted)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    for name in ("--skiff", "--server", "--phone", "--password", "--payer-phone", "--payer-password",
                 "--watch-payer-phone", "--watch-payer-password"):
        parser.add_argument(name, required=True)
    parser.add_argument("--rate", type=float, default=50)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--steps", type=int, default=150)
    args = parser.parse_args()
    binary = floor.build()
    payer_token, _ = sign_in(args.server, args.payer_phone, args.payer_password)
    payee_token, payee = sign_in(args.server, args.phone, args.password)
    watch_token, _ = sign_in(args.server, args.watch_payer_phone, args.watch_payer_password)
    rows, checks = [], []
    for round_number in range(1, args.rounds + 1):
        pid, fd = floor.start(binary, "scroll")
        scroll = statistics.median(step_latencies(fd, bench.DOWN, args.steps))
        # The floor again while the server takes the same burst: the machine Home is measured on under it.
        with Burst(args.server, payer_token, payee, args.rate):
            time.sleep(1)
            busy_scroll = statistics.median(step_latencies(fd, bench.DOWN, args.steps))
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
        rows.append((scroll, rest, busy, busy_scroll))
        frames, wrong, longest, accepted = frame_check(args, watch_token, payee_token, payee)
        checks.append(longest)
        print(f"round {round_number}: floor scroll {scroll:.3f} ms; at rest Down {rest[0]:.3f} ms PageDown {rest[1]:.3f} ms; "
              f"under {rate:.0f} transfers/s Down {busy[0]:.3f} ms ({busy[0] / scroll:.2f}x) PageDown {busy[1]:.3f} ms "
              f"({busy[1] / scroll:.2f}x); floor scroll under the burst {busy_scroll:.3f} ms (Down {busy[0] / busy_scroll:.2f}x, "
              f"PageDown {busy[1] / busy_scroll:.2f}x); sent {burst.sent}, refused {burst.refused}; balance on the server "
              f"{me.get('balance', {}).get('amountMinor') if status == 200 else status}; frames watched under "
              f"{accepted} cents {frames}, disagreeing {wrong}, longest run {longest}", flush=True)
    down = statistics.median(busy[0] / scroll for scroll, _, busy, _ in rows)
    page = statistics.median(busy[1] / scroll for scroll, _, busy, _ in rows)
    busy_down = statistics.median(busy[0] / busy_scroll for _, _, busy, busy_scroll in rows)
    busy_page = statistics.median(busy[1] / busy_scroll for _, _, busy, busy_scroll in rows)
    print(f"over {args.rounds} rounds, median under the burst: Down {down:.2f}x the floor at rest (target <= 1.2), "
          f"PageDown {page:.2f}x (target <= 1.5); against the floor under the same burst Down {busy_down:.2f}x, PageDown "
          f"{busy_page:.2f}x; balance against list: longest run of disagreeing frames "
          f"{max(checks)} (target <= 1); load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    sys.exit(main())
