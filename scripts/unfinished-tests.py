#!/usr/bin/env python3
"""Which tests a Swift Testing run started and never ended, read from its event stream.

    swift test --event-stream-output-path EVENTS --event-stream-version 0
    scripts/unfinished-tests.py EVENTS

Prints each test (and each test case of a parameterised test) that started without ending, oldest first, with how
long before the stream's last event it started, and the run's last events: what a run killed for taking too long
was doing. The console's own output cannot say it: piped, it is written in blocks, and the blocks not yet written
die with the process. Exits 1 when something was left unfinished, else 0.
"""

import json
import sys


def instant(payload):
    return payload.get("instant", {}).get("absolute", 0.0)


def main(path):
    started = {}  # test id -> (time, words)
    cases = {}  # test id -> {case id: (time, words)} of its cases started and not ended
    last = []
    end = 0.0
    suites = set()  # a suite ends when its tests do: the tests are what is named
    try:
        lines = open(path, encoding="utf-8", errors="replace").read().splitlines()
    except FileNotFoundError:
        print(f"no event stream at {path}: the run ended before its tests began")
        return 1
    for line in lines:
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue  # the last line, cut off by the kill
        if record.get("kind") == "test" and record["payload"].get("kind") == "suite":
            suites.add(record["payload"].get("id"))
        if record.get("kind") != "event":
            continue
        event = record["payload"]
        kind = event.get("kind")
        test = event.get("testID")
        words = " ".join(message.get("text", "") for message in event.get("messages", []))
        end = max(end, instant(event))
        if words:
            last = (last + [words])[-8:]
        if kind == "testStarted":
            started[test] = (instant(event), words)
        elif kind == "testEnded":
            started.pop(test, None)
            cases.pop(test, None)
        elif kind == "testCaseStarted":
            cases.setdefault(test, {})[event.get("_testCase", {}).get("id")] = (instant(event), words)
        elif kind == "testCaseEnded":
            cases.get(test, {}).pop(event.get("_testCase", {}).get("id"), None)
    unfinished = sorted((time, test, words) for test, (time, words) in started.items() if test not in suites)
    if not unfinished:
        print("every test that started ended")
        return 0
    print(f"{len(unfinished)} test(s) started and never ended (seconds before the last event):")
    for time, test, words in unfinished:
        print(f"  {end - time:7.1f} s  {words or test}")
        for case_time, case_words in sorted(cases.get(test, {}).values()):
            print(f"  {end - case_time:7.1f} s    {case_words}")
    print("the run's last events:")
    for words in last:
        print(f"  {words}")
    return 1


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1]))
