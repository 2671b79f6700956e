#!/usr/bin/env python3
"""The bank test (issue 25), as Jepsen runs one: run by scripts/bank-test.sh, which documents it.

N users with known balances send each other random transfers over HTTP, C at a time, through the instances of one
store, while instances are SIGKILLed and restarted (and, on PostgreSQL, the database is restarted once). Every
request whose answer is lost (connection error, timeout, 5xx, 409) is sent again with the same Idempotency-Key,
to any instance, until a definite answer comes: 201, or a 4xx refusal. Then it checks, during the run and at the
end, that the sum of all balances never changes, no balance is ever negative, every acknowledged transfer exists
exactly once (GET /v1/transfers/{id}, one statement line each side, one row), every key made at most one transfer
and nothing made a transfer nobody acknowledged, each balance is what the acknowledged transfers make it, and the
ledger's own invariants (`skiff-server ledger-check`: postings sum to balances, transfers balance).

Python 3 standard library only; loopback only; bounded in time. Exit status 0 when every invariant held.
"""
import argparse
import base64
import http.client
import json
import os
import random
import re
import secrets
import shlex
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import uuid

OPENING_MINOR = 100_000          # SkiffServerLimits.openingBalanceMinor: what `skiff-server seed` pays in
STEP_UP_ABOVE_MINOR = 10_000     # TransferRules.stepUpAboveMinor: above it (one transfer, or the day's), a step-up
PASSWORD = "bank-test-harbour-2031"
TIMEOUT = 10.0                   # seconds a request may take before its answer counts as lost


def log(message):
    print(f"[bank {time.strftime('%H:%M:%S')}] {message}", flush=True)


class Violation(Exception):
    pass


# ---- the database, read directly ----------------------------------------------------------------------------

class Store:
    """Where the instances keep their data, and one-statement reads of it (a consistent snapshot)."""

    def __init__(self, kind, folder, postgres_url=None, faults=()):
        self.kind = kind
        self.faults = list(faults) if kind == "postgres" else []
        if kind == "sqlite":
            self.database = os.path.join(folder, "skiff.sqlite")
        else:
            parsed = urllib.parse.urlsplit(postgres_url)
            self.admin_url = postgres_url
            self.name = "bank_" + secrets.token_hex(6)
            self.database = urllib.parse.urlunsplit(parsed._replace(path="/" + self.name))
            self.psql(self.admin_url, f"CREATE DATABASE {self.name}")

    def psql(self, url, sql):
        out = subprocess.run(["psql", url, "-v", "ON_ERROR_STOP=1", "-qAt", "-F", " ", "-c", sql],
                             capture_output=True, text=True, timeout=30)
        if out.returncode != 0:
            raise RuntimeError(f"psql: {out.stderr.strip()}")
        return out.stdout

    def query(self, sql):
        """Rows of one statement, each a list of strings."""
        if self.kind == "sqlite":
            out = subprocess.run(["sqlite3", "-cmd", ".timeout 10000", "-separator", " ", self.database, sql],
                                 capture_output=True, text=True, timeout=30)
            if out.returncode != 0:
                raise RuntimeError(f"sqlite3: {out.stderr.strip()}")
            text = out.stdout
        else:
            text = self.psql(self.database, sql)
        return [line.split(" ") for line in text.splitlines() if line.strip()]

    def snapshot(self):
        """(sum of the wallets, wallets below zero, sum of every account), read in one statement."""
        row = self.query(
            "SELECT (SELECT COALESCE(SUM(balance_minor), 0) FROM ledger_accounts WHERE kind = 'wallet'),"
            " (SELECT COUNT(*) FROM ledger_accounts WHERE kind = 'wallet' AND balance_minor < 0),"
            " (SELECT COALESCE(SUM(balance_minor), 0) FROM ledger_accounts)")[0]
        return int(row[0]), int(row[1]), int(row[2])

    def fault(self, command):
        """Runs one database fault (a restart, a primary's crash, a switchover) and waits for it to end."""
        subprocess.run(command, shell=True, check=True, timeout=300, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

    def drop(self):
        if self.kind == "postgres":
            try:
                self.psql(self.admin_url, f"DROP DATABASE IF EXISTS {self.name} WITH (FORCE)")
            except Exception as error:  # the run's verdict stands; say what was left behind
                log(f"could not drop {self.name}: {error}")


# ---- server processes ---------------------------------------------------------------------------------------

class Instance:
    """One `skiff-server serve` process, started again on a new port after each kill."""

    def __init__(self, name, binary, store, folder):
        self.name, self.binary, self.store, self.folder = name, binary, store, folder
        self.process = None
        self.port = None
        self.starts = 0

    def start(self):
        self.starts += 1
        log_path = os.path.join(self.folder, f"{self.name}-{self.starts}.log")
        with open(log_path, "wb") as output:
            self.process = subprocess.Popen(
                [self.binary, "serve", "--port", "0", "--bcrypt-cost", "10", "--trusted-proxy", "127.0.0.1",
                 *common_args(self.store, self.folder)],
                stdin=subprocess.DEVNULL, stdout=output, stderr=output, env=server_environment())
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with open(log_path, "r", errors="replace") as text:
                found = re.search(r"^.*port=(\d+).*skiff-server listening", text.read(), re.MULTILINE)
            if found:
                self.port = int(found.group(1))
                return
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.name} stopped before it listened; see {log_path}")
            time.sleep(0.02)
        raise RuntimeError(f"{self.name} did not listen within 60 s; see {log_path}")

    def kill(self):
        self.port = None
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()


def common_args(store, folder):
    return ["--database", store.database, "--key-file", os.path.join(folder, "server.key"),
            "--sms-outbox", os.path.join(folder, "sms-outbox.jsonl")]


def server_environment():
    return {key: value for key, value in os.environ.items() if key not in ("SKIFF_DATABASE_URL", "SKIFF_FINGERPRINT_KEY")}


# ---- HTTP -----------------------------------------------------------------------------------------------------

class Lost(Exception):
    """No definite answer: the request may or may not have been served."""


class Client:
    """One thread's connections, one kept-alive connection per port; `address` is its X-Forwarded-For."""

    def __init__(self, address):
        self.address = address
        self.connections = {}

    def request(self, port, method, path, token=None, body=None, key=None):
        if port is None:
            raise Lost("instance down")
        headers = {"Accept": "application/json", "X-Forwarded-For": self.address}
        if token:
            headers["Authorization"] = "Bearer " + token
        if key:
            headers["Idempotency-Key"] = key
        if body is not None:
            headers["Content-Type"] = "application/json"
        connection = self.connections.get(port)
        reused = connection is not None
        if connection is None:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT)
            self.connections[port] = connection
        try:
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            data = response.read()
            replayed = response.getheader("Idempotent-Replayed")
        except (OSError, http.client.HTTPException) as error:
            connection.close()
            self.connections.pop(port, None)
            if reused and method == "GET":
                # A kept-alive connection the server closed while it sat idle (its idle timeout is 60 s; the final
                # checks' reads can take longer): a read is safe to send again, once, on a new connection.
                return self.request(port, method, path, token=token, body=body, key=key)
            raise Lost(str(error) or type(error).__name__)
        try:
            payload = json.loads(data) if data else None
        except ValueError:
            payload = None
        return response.status, payload, replayed


def problem_kind(payload):
    kind = (payload or {}).get("type", "") if isinstance(payload, dict) else ""
    return kind.rsplit(":", 1)[-1]


# ---- the run ----------------------------------------------------------------------------------------------------

class Run:
    def __init__(self, options, store, instances, folder):
        self.options = options
        self.store = store
        self.instances = instances
        self.folder = folder
        self.lock = threading.Lock()
        self.users = []                 # [{"phone", "id", "token", "address"}]
        self.acked = {}                 # key -> (transfer id, payer index, payee index, amount)
        self.acked_ids = {}             # transfer id -> key
        self.step_up_tokens = {}        # key -> the step-up proof its transfer was sent with
        self.step_ups = 0               # proofs asked for once a payer's day passed the step-up amount
        self.step_ups_paused = 0        # step-ups answered 429 (the user's own throttle), asked again later
        self.step_up_locks = {}         # payer index -> lock: one step-up at a time per user, as from one wallet
        self.answers = {}               # "status kind" -> count
        self.violations = []
        self.retries = 0
        self.lost_answers = 0
        self.replays_checked = 0
        self.unresolved = 0
        self.kills = 0
        self.database_faults = []       # (command, started, seconds it took)
        self.unavailable = 0            # answers 503 database-unavailable (each sent again)
        self.ack_times = []             # monotonic time of each acknowledgement, in order
        self.snapshots = 0
        self.ledger_checks = 0
        self.me_rounds = 0
        self.crashes = 0
        self.failures_as_400 = 0
        self.stop_at = None
        self.stopping = threading.Event()
        self.fault_lock = threading.Lock()   # one kill, restart or revival of an instance at a time

    def violation(self, what):
        with self.lock:
            self.violations.append(what)
        log("VIOLATION: " + what)

    def live_port(self, rng):
        ports = [instance.port for instance in self.instances if instance.port]
        return rng.choice(ports) if ports else None

    # -- setup

    def seed(self, binary):
        password_file = os.path.join(self.folder, "password")
        with open(os.open(password_file, os.O_WRONLY | os.O_CREAT, 0o600), "w") as file:
            file.write(PASSWORD + "\n")
        phones = [f"20255{50000 + index:05d}" for index in range(self.options.users)]

        def seed_one(phone):
            subprocess.run([binary, "seed", "--phone", phone, "--password-file", password_file, "--transactions", "0",
                            "--bcrypt-cost", "10", "--log-level", "error", "--name", "Bank Tester",
                            *common_args(self.store, self.folder)],
                           check=True, stdout=subprocess.DEVNULL, env=server_environment(), timeout=120)
        seed_one(phones[0])  # migrates the database alone
        threads = [threading.Thread(target=seed_one, args=(phone,)) for phone in phones[1:]]
        for index in range(0, len(threads), 4):
            batch = threads[index:index + 4]
            for thread in batch:
                thread.start()
            for thread in batch:
                thread.join()
        self.phones = phones

    def log_in(self):
        client = Client("10.9.0.1")
        for index, phone in enumerate(self.phones):
            address = f"10.8.{index // 250}.{index % 250 + 1}"
            status, payload, _ = Client(address).request(
                self.instances[0].port, "POST", "/v1/auth/login",
                body=json.dumps({"countryCode": "+1", "phoneNumber": phone, "password": PASSWORD}))
            if status != 200:
                raise RuntimeError(f"login {phone}: {status} {payload}")
            self.users.append({"phone": phone, "id": payload["user"]["id"], "token": payload["token"],
                               "address": address})
        for user in self.users:
            status, payload, _ = client.request(self.instances[0].port, "GET", "/v1/me", token=user["token"])
            if status != 200 or payload["balance"]["amountMinor"] != OPENING_MINOR:
                raise RuntimeError(f"user {user['phone']} does not start with {OPENING_MINOR}: {status} {payload}")

    # -- clients

    def send(self, client, rng, payer, body, key, expect_new=True):
        """Sends until a definite answer; (status, payload, replayed) or None when the run's grace ran out."""
        payload_bytes = json.dumps(body, sort_keys=True).encode()
        attempts = 0
        while True:
            attempts += 1
            try:
                status, payload, replayed = client.request(
                    self.live_port(rng), "POST", "/v1/transfers", token=self.users[payer]["token"],
                    body=payload_bytes, key=key)
            except Lost:
                status, payload, replayed = None, None, None
            if status == 400 and "threw an error" in str((payload or {}).get("detail", "")):
                # A middleware's failure (its database read) answered as 400: nothing ran; counted and retried.
                with self.lock:
                    self.failures_as_400 += 1
                status = None
            if status == 503 and problem_kind(payload) == "database-unavailable":
                with self.lock:
                    self.unavailable += 1
            if status is not None and (status == 201 or (400 <= status < 500 and status != 409)):
                if status == 201:
                    with self.lock:
                        self.ack_times.append(time.monotonic())
                if attempts > 1:
                    with self.lock:
                        self.retries += attempts - 1
                return status, payload, replayed
            with self.lock:
                self.lost_answers += 1
            if time.monotonic() > self.stop_at + self.options.grace:
                with self.lock:
                    self.unresolved += 1
                self.violation(f"no definite answer for key {key} within the grace period (last: {status} {payload})")
                return None
            time.sleep(min(0.05 * attempts, 1.0) * rng.random() + 0.01)

    def count(self, status, payload):
        label = f"{status} {problem_kind(payload)}".strip()
        with self.lock:
            self.answers[label] = self.answers.get(label, 0) + 1

    def worker(self, number):
        rng = random.Random(self.options.seed * 1000 + number)
        client = Client(f"10.7.{number // 250}.{number % 250 + 1}")
        users = len(self.users)
        while time.monotonic() < self.stop_at:
            payer = rng.randrange(users)
            payee = (payer + rng.randrange(1, users)) % users
            roll = rng.random()
            with self.lock:
                earlier = rng.choice(list(self.acked.items())) if self.acked and roll < 0.06 else None
            if earlier is not None:
                self.replay(client, rng, earlier, another_body=roll < 0.02)
                continue
            if roll < 0.08:
                # A refusal that must write nothing: a zero amount, or an amount that needs a step-up it lacks.
                amount = 0 if roll < 0.07 else rng.randint(STEP_UP_ABOVE_MINOR + 1, 3 * STEP_UP_ABOVE_MINOR)
            elif roll < 0.93:
                amount = rng.randint(1, 300)
            else:
                amount = rng.randint(301, STEP_UP_ABOVE_MINOR)
            key = str(uuid.uuid4())
            body = {"recipientId": self.users[payee]["id"], "amountMinor": amount, "currency": "USD"}
            answer = self.send(client, rng, payer, body, key)
            if answer is None:
                continue
            status, payload, _ = answer
            if status == 403 and problem_kind(payload) == "step-up-required" and 0 < amount <= STEP_UP_ABOVE_MINOR:
                # The payer's day passed the step-up amount (TransferRules.needsStepUp): as the wallet does, the
                # password proves it for this payee and amount, and the transfer goes again with the proof, under a
                # key of its own (the refused one moved nothing).
                self.count(status, payload)
                proof = self.step_up(client, rng, payer, body)
                if proof is None:
                    continue
                key = str(uuid.uuid4())
                body = dict(body, stepUpToken=proof)
                with self.lock:
                    self.step_up_tokens[key] = proof
                answer = self.send(client, rng, payer, body, key)
                if answer is None:
                    continue
                status, payload, _ = answer
            self.count(status, payload)
            if status == 201:
                self.acknowledge(key, payload, payer, payee, amount)
            elif not self.expected_refusal(status, payload, amount):
                self.violation(f"unexpected answer to {amount} from {payer} to {payee}: {status} {payload}")

    def step_up(self, client, rng, payer, body):
        """A step-up proof for `body`'s payee and amount, asked until answered; None when the run's grace ran out.
        One at a time per payer, as one person's wallet asks: the user's throttle counts a password check as failed
        until it succeeds, so five at once for one user pause the next (and an instance killed mid-check leaves one
        counted until the next success)."""
        with self.lock:
            payer_lock = self.step_up_locks.setdefault(payer, threading.Lock())
        with payer_lock:
            return self.step_up_one_at_a_time(client, rng, payer, body)

    def step_up_one_at_a_time(self, client, rng, payer, body):
        request = json.dumps({"password": PASSWORD, "recipientId": body["recipientId"],
                              "amountMinor": body["amountMinor"]}).encode()
        attempts = 0
        while True:
            attempts += 1
            try:
                status, payload, _ = client.request(
                    self.live_port(rng), "POST", "/v1/session/step-up", token=self.users[payer]["token"], body=request)
            except Lost:
                status, payload = None, None
            if status in (200, 201):
                with self.lock:
                    self.step_ups += 1
                return payload["stepUpToken"]
            if status == 429 and problem_kind(payload) == "too-many-attempts":
                with self.lock:
                    self.step_ups_paused += 1
                if time.monotonic() > self.stop_at + self.options.grace:
                    return None
                time.sleep(1.0)
                continue
            if status is not None and status != 503 and not (status == 400 and "threw an error" in str(payload)):
                self.violation(f"a step-up for {body['amountMinor']} from {payer} answered {status} {payload}")
                return None
            if time.monotonic() > self.stop_at + self.options.grace:
                return None
            time.sleep(min(0.05 * attempts, 1.0) * rng.random() + 0.01)

    def expected_refusal(self, status, payload, amount):
        kind = problem_kind(payload)
        if amount == 0:
            return status in (400, 422)
        if amount > STEP_UP_ABOVE_MINOR:
            return status == 403 and kind == "step-up-required"
        return status == 422 and kind in ("insufficient-funds", "transfer-limit")

    def acknowledge(self, key, payload, payer, payee, amount):
        transfer_id = payload.get("id")
        with self.lock:
            if transfer_id in self.acked_ids and self.acked_ids[transfer_id] != key:
                self.violations.append(f"keys {key} and {self.acked_ids[transfer_id]} both answered {transfer_id}")
            if key in self.acked and self.acked[key][0] != transfer_id:
                self.violations.append(f"key {key} answered {self.acked[key][0]} and then {transfer_id}")
            self.acked[key] = (transfer_id, payer, payee, amount)
            self.acked_ids[transfer_id] = key
        if payload.get("amountMinor") != amount or payload.get("direction") != "sent":
            self.violation(f"transfer {transfer_id} answered {payload}")

    def replay(self, client, rng, earlier, another_body):
        """Sends an acknowledged request again with its key: the same transfer, or 422 for another body."""
        key, (transfer_id, payer, payee, amount) = earlier
        other = amount - 1 if amount > 1 else amount + 1
        body = {"recipientId": self.users[payee]["id"], "amountMinor": other if another_body else amount,
                "currency": "USD"}
        with self.lock:
            proof = self.step_up_tokens.get(key)
        if proof is not None:
            body["stepUpToken"] = proof
        answer = self.send(client, rng, payer, body, key)
        if answer is None:
            return
        status, payload, replayed = answer
        self.count(f"{status} replay" if not another_body else f"{status} reused-key", payload)
        with self.lock:
            self.replays_checked += 1
        if another_body:
            if status != 422 or problem_kind(payload) != "idempotency-key-reused":
                self.violation(f"key {key} with another body answered {status} {payload}")
        elif status != 201 or payload.get("id") != transfer_id or replayed != "true":
            self.violation(f"replaying key {key} ({transfer_id}) answered {status} {replayed} {payload}")

    # -- reads during the run

    def monitor(self):
        client = Client("10.6.0.1")
        rng = random.Random(self.options.seed)
        expected_sum = OPENING_MINOR * len(self.users)
        next_check = time.monotonic() + 5
        while not self.stopping.wait(1.0):
            self.revive()
            try:
                wallets, negative, everything = self.store.snapshot()
            except Exception:
                wallets = None  # the database is restarting
            if wallets is not None:
                with self.lock:
                    self.snapshots += 1
                if wallets != expected_sum or negative != 0 or everything != 0:
                    self.violation(f"snapshot: wallets sum {wallets} (expected {expected_sum}), {negative} negative,"
                                   f" all accounts sum {everything}")
            # Every user's balance over HTTP: never below zero (not summed: these reads are not one snapshot).
            seen = 0
            for user in self.users:
                try:
                    status, payload, _ = client.request(self.live_port(rng), "GET", "/v1/me", token=user["token"])
                except Lost:
                    continue
                if status == 200:
                    seen += 1
                    if payload["balance"]["amountMinor"] < 0:
                        self.violation(f"{user['phone']} read {payload['balance']['amountMinor']}")
            if seen == len(self.users):
                with self.lock:
                    self.me_rounds += 1
            if time.monotonic() >= next_check:
                next_check = time.monotonic() + 10
                self.ledger_check(during_run=True)

    def revive(self):
        """Starts again an instance that stopped by itself (not killed by `chaos`): counted, and said."""
        with self.fault_lock:
            for instance in self.instances:
                if instance.port and instance.process.poll() is not None:
                    log(f"{instance.name} exited by itself ({instance.process.returncode}); starting it again")
                    with self.lock:
                        self.crashes += 1
                    instance.start()

    def ledger_check(self, during_run=False):
        out = subprocess.run([self.options.binary, "ledger-check", "--log-level", "error",
                              "--database", self.store.database],
                             capture_output=True, text=True, env=server_environment(), timeout=120)
        line = next((line for line in out.stdout.splitlines() if line.startswith("ledger ")), None)
        if line is None:
            if not during_run:
                self.violation(f"ledger-check gave no answer: {out.returncode} {out.stderr.strip()[-300:]}")
            return
        with self.lock:
            self.ledger_checks += 1
        if out.returncode != 0 or not line.startswith("ledger ok"):
            self.violation(line)

    # -- faults

    def chaos(self):
        """SIGKILLs instances in turn (each restarted after a moment) and runs the database's faults, evenly spread."""
        rng = random.Random(self.options.seed + 7)
        started = time.monotonic()
        duration = self.stop_at - started
        events = [("kill", (index + 1) / (self.options.kills + 1), None) for index in range(self.options.kills)]
        faults = self.store.faults
        for index, command in enumerate(faults):
            at = 0.6 if len(faults) == 1 and self.options.kills != 1 else 0.75 if len(faults) == 1 else (index + 0.5) / len(faults)
            events.append(("database", at, command))
        events.sort(key=lambda event: event[1])
        victim = 0
        for kind, at, command in events:
            if self.stopping.wait(max(0.0, started + at * duration - time.monotonic())):
                return
            if kind == "kill":
                instance = self.instances[victim % len(self.instances)]
                victim += 1
                with self.fault_lock:
                    instance.kill()
                    with self.lock:
                        self.kills += 1
                    log(f"SIGKILLed {instance.name}")
                    time.sleep(rng.uniform(0.2, 1.5))
                    instance.start()
                log(f"{instance.name} restarted on port {instance.port}")
            else:
                began = time.monotonic()
                log(f"database fault: {command}")
                self.store.fault(command)
                with self.lock:
                    self.database_faults.append((command, began, time.monotonic() - began))
                log(f"database fault over in {time.monotonic() - began:.1f} s: {command}")

    def longest_gaps(self):
        """For each database fault, the longest time with no transfer acknowledged from its start until 60 s after
        its end, the next fault's start or the run's end, whichever is first: how long the instances could not move
        money through it."""
        gaps = []
        times = sorted(self.ack_times)
        starts = [began for _, began, _ in self.database_faults] + [self.stop_at]
        for index, (_, began, took) in enumerate(self.database_faults):
            end = max(began, min(began + took + 60, starts[index + 1], self.stop_at))
            window = [began] + [moment for moment in times if began < moment <= end] + [end]
            gaps.append(round(max(later - earlier for earlier, later in zip(window, window[1:])), 1))
        return gaps

    # -- checks at the end

    def final_checks(self):
        client = Client("10.5.0.1")
        port = self.instances[0].port
        expected = [OPENING_MINOR] * len(self.users)
        for transfer_id, payer, payee, amount in self.acked.values():
            expected[payer] -= amount
            expected[payee] += amount
        for index, user in enumerate(self.users):
            status, payload, _ = client.request(port, "GET", "/v1/me", token=user["token"])
            balance = payload["balance"]["amountMinor"] if status == 200 else None
            if balance != expected[index]:
                self.violation(f"{user['phone']} holds {balance}; the acknowledged transfers make it {expected[index]}")
        wallets, negative, everything = self.store.snapshot()
        if wallets != OPENING_MINOR * len(self.users) or negative or everything:
            self.violation(f"at the end: wallets sum {wallets}, {negative} negative, all accounts sum {everything}")
        self.ledger_check()

        # Every acknowledged transfer, once: to its payer, as made; one row; one line on each side.
        def read_back(part):
            reader = Client(f"10.5.1.{part + 1}")
            for transfer_id, payer, payee, amount in list(self.acked.values())[part::8]:
                status, payload, _ = reader.request(port, "GET", f"/v1/transfers/{transfer_id}",
                                                    token=self.users[payer]["token"])
                if status != 200 or payload.get("amountMinor") != amount \
                        or payload["counterparty"]["recipientId"] != self.users[payee]["id"]:
                    self.violation(f"GET /v1/transfers/{transfer_id}: {status} {payload}")
        readers = [threading.Thread(target=read_back, args=(part,)) for part in range(8)]
        for reader in readers:
            reader.start()
        for reader in readers:
            reader.join()
        rows = self.store.query("SELECT id, idempotency_key FROM transfers WHERE kind = 'transfer'")
        stored = {row[0]: row[1] for row in rows}
        if len(rows) != len(stored):
            self.violation("a transfer id is stored twice")
        made_unacknowledged = set(stored) - set(self.acked_ids)
        missing = set(self.acked_ids) - set(stored)
        if made_unacknowledged:
            self.violation(f"{len(made_unacknowledged)} transfers nobody acknowledged: {sorted(made_unacknowledged)[:5]}")
        if missing:
            self.violation(f"{len(missing)} acknowledged transfers are not stored: {sorted(missing)[:5]}")
        for transfer_id, key in stored.items():
            if transfer_id in self.acked_ids and self.acked_ids[transfer_id] != key:
                self.violation(f"transfer {transfer_id} is stored with key {key}, acknowledged for {self.acked_ids[transfer_id]}")
        doubled = self.store.query("SELECT payer_user_id, idempotency_key, COUNT(*) FROM transfers"
                                   " WHERE idempotency_key IS NOT NULL GROUP BY payer_user_id, idempotency_key"
                                   " HAVING COUNT(*) > 1")
        if doubled:
            self.violation(f"keys that made more than one transfer: {doubled[:5]}")
        lines = {}
        for index, user in enumerate(self.users):
            cursor = None
            while True:
                path = "/v1/transactions?limit=200" + (f"&cursor={urllib.parse.quote(cursor)}" if cursor else "")
                status, payload, _ = client.request(port, "GET", path, token=user["token"])
                if status != 200:
                    self.violation(f"GET {path} for {user['phone']}: {status} {payload}")
                    break
                for item in payload["items"]:
                    if item.get("transferId") and item.get("category") == "Transfer":
                        lines[(item["transferId"], index)] = lines.get((item["transferId"], index), 0) + 1
                cursor = payload.get("nextCursor")
                if not cursor:
                    break
        for transfer_id, payer, payee, amount in self.acked.values():
            for side in (payer, payee):
                if lines.pop((transfer_id, side), 0) != 1:
                    self.violation(f"transfer {transfer_id} is not one line in {self.users[side]['phone']}'s statement")
        if lines:
            self.violation(f"{len(lines)} statement lines of transfers nobody acknowledged: {list(lines)[:5]}")

    def go(self):
        self.stop_at = time.monotonic() + self.options.duration
        workers = [threading.Thread(target=self.worker, args=(number,)) for number in range(self.options.concurrency)]
        monitor = threading.Thread(target=self.monitor)
        chaos = threading.Thread(target=self.chaos)
        began = time.monotonic()
        for thread in [*workers, monitor, chaos]:
            thread.start()
        for thread in workers:
            thread.join()
        elapsed = time.monotonic() - began
        self.stopping.set()
        chaos.join()
        monitor.join()
        for instance in self.instances:
            if instance.port is None or instance.process.poll() is not None:
                instance.start()
        self.final_checks()
        return elapsed


def database_faults(options):
    """The database's faults in the order they run: the restart, then each --postgres-fault in turn, cycling until
    there are --postgres-faults of them (default: each once)."""
    commands = options.postgres_fault
    count = options.postgres_faults if options.postgres_faults is not None else len(commands)
    cycled = [commands[index % len(commands)] for index in range(count)] if commands else []
    return ([options.postgres_restart] if options.postgres_restart else []) + cycled


def run_store(options, kind):
    folder = tempfile.mkdtemp(prefix=f"skiff-bank-{kind}-")
    key_path = os.path.join(folder, "server.key")
    with open(os.open(key_path, os.O_WRONLY | os.O_CREAT, 0o600), "w") as file:
        file.write(base64.b64encode(secrets.token_bytes(32)).decode() + "\n")
    store = Store(kind, folder, options.postgres_url, database_faults(options))
    count = options.instances if kind == "postgres" else 1
    instances = [Instance(f"{kind}-{chr(ord('a') + index)}", options.binary, store, folder) for index in range(count)]
    run = Run(options, store, instances, folder)
    try:
        log(f"{kind}: {options.users} users, {count} instance(s), {options.concurrency} clients,"
            f" {options.duration} s, {options.kills} kill(s)"
            + (f", {len(store.faults)} database fault(s)" if store.faults else "")
            + f", seed {options.seed}; files in {folder}")
        # The first instance migrates a new database alone; the seeder runs before any instance serves.
        run.seed(options.binary)
        for instance in instances:
            instance.start()
        run.log_in()
        elapsed = run.go()
        total = sum(run.answers.values())
        made = len(run.acked)
        summary = {
            "store": kind, "instances": count, "users": options.users, "clients": options.concurrency,
            "seconds": round(elapsed, 1), "requests_answered": total, "transfers_acknowledged": made,
            "transfers_per_second": round(made / elapsed, 1) if elapsed else 0,
            "answers": dict(sorted(run.answers.items())), "lost_answers_retried": run.lost_answers,
            "retried_requests": run.retries, "replays_checked": run.replays_checked, "step_ups": run.step_ups,
            "step_ups_paused": run.step_ups_paused,
            "kills": run.kills,
            "database_faults": len(run.database_faults), "answered_database_unavailable": run.unavailable,
            "longest_seconds_without_a_transfer_per_fault": run.longest_gaps(), "snapshots_checked": run.snapshots,
            "ledger_checks": run.ledger_checks, "me_rounds_checked": run.me_rounds, "unresolved": run.unresolved, "instances_exited_by_themselves": run.crashes,
            "middleware_failures_answered_400": run.failures_as_400,
            "violations": len(run.violations),
        }
        print("BANK-RESULT " + json.dumps(summary), flush=True)
        if len(run.database_faults) != len(store.faults):
            run.violations.append(f"{len(run.database_faults)} database faults of {len(store.faults)}")
        if run.kills < options.kills:
            run.violations.append(f"{run.kills} kills of {options.kills}")
        return run.violations
    except BaseException:
        run.violations.append("the run stopped on an error")
        raise
    finally:
        for instance in instances:
            instance.stop()
        store.drop()
        if not run.violations and not options.keep:
            subprocess.run(["rm", "-rf", folder])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", required=True)
    parser.add_argument("--stores", default="postgres,sqlite")
    parser.add_argument("--duration", type=float, default=60)
    parser.add_argument("--users", type=int, default=10)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--instances", type=int, default=2)
    parser.add_argument("--kills", type=int, default=2)
    parser.add_argument("--grace", type=float, default=60)
    parser.add_argument("--seed", type=int, default=random.randrange(1, 1 << 31))
    parser.add_argument("--postgres-url", default=os.environ.get("SKIFF_TEST_POSTGRES_URL"))
    parser.add_argument("--postgres-restart", default=os.environ.get("SKIFF_BANK_POSTGRES_RESTART"))
    parser.add_argument("--postgres-fault", action="append", default=[])
    parser.add_argument("--postgres-faults", type=int, default=None)
    parser.add_argument("--keep", action="store_true")
    options = parser.parse_args()
    if options.users < 2:
        parser.error("--users must be at least 2")
    failures = []
    for kind in [store.strip() for store in options.stores.split(",") if store.strip()]:
        if kind == "postgres" and not options.postgres_url:
            parser.error("PostgreSQL needs --postgres-url or SKIFF_TEST_POSTGRES_URL")
        if kind == "postgres" and not database_faults(options):
            log("no --postgres-restart / SKIFF_BANK_POSTGRES_RESTART / --postgres-fault: the database is left alone")
        violations = run_store(options, kind)
        for violation in violations:
            failures.append(f"{kind}: {violation}")
    if failures:
        log(f"FAILED (seed {options.seed}): {len(failures)} violated invariants")
        for failure in failures[:50]:
            print("  " + failure)
        sys.exit(1)
    log("every invariant held")


if __name__ == "__main__":
    main()
