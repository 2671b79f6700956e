#!/usr/bin/env python3
"""Lists the functions of an executable that a session runs, in the order they first run, for lld's
--symbol-ordering-file.

    scripts/link-order.py --binary .build-release/release/skiff --out Sources/skiff/link-order.txt -- \
        python3 scripts/bench-pty.py --skiff {binary} --runs 2 --steps 20 --pages 30 --tour

The command after `--` is the session; `{binary}` in it stands for a wrapper that runs the binary under this
script's tracer, once per start. The tracer (ptrace, Linux x86-64) puts a breakpoint on the first byte of every
function, and on each first hit records the function, puts the byte back and lets the thread go on: every function
costs one trap, however often it runs. The lists of every start are merged in order of first appearance.

Why: the kernel maps the pages around each code page a process touches (fault-around), so the functions a session
runs, spread over the whole executable, keep most of its code resident; linked together, they fill a few megabytes.
Sampling (perf) cannot make this list: it sees the hot functions, not the thousands run once at start-up; uprobes
can, but the kernel allows about 60,000 trace events and removes them at ~100 a second. See BENCHMARKS.md.
"""
import argparse, ctypes, os, shlex, shutil, signal, stat, subprocess, sys, tempfile

PTRACE_TRACEME, PTRACE_PEEKUSER, PTRACE_POKEUSER, PTRACE_CONT = 0, 3, 6, 7
PTRACE_SETOPTIONS, PTRACE_GETEVENTMSG = 0x4200, 0x4201
PTRACE_O_TRACECLONE, PTRACE_O_EXITKILL = 0x8, 0x100000
PTRACE_EVENT_CLONE = 3
RIP = 16 * 8  # offsetof(struct user_regs_struct, rip)
WALL = 0x40000000

libc = ctypes.CDLL(None, use_errno=True)
libc.ptrace.restype = ctypes.c_long
libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p, ctypes.c_void_p]


def ptrace(request, pid, addr=0, data=0):
    ctypes.set_errno(0)
    result = libc.ptrace(request, pid, ctypes.c_void_p(addr), ctypes.c_void_p(data))
    if result == -1 and ctypes.get_errno() != 0:
        raise OSError(ctypes.get_errno(), f"ptrace({request}, {pid})")
    return result


def functions(binary):
    """{virtual address: symbol name} of every defined function with a size in an executable segment."""
    out = subprocess.run(["readelf", "-lW", binary], capture_output=True, text=True, check=True).stdout
    segments = [(int(p[2], 16), int(p[5], 16)) for p in (line.split() for line in out.splitlines())
                if p[:1] == ["LOAD"] and "E" in p[6:-1]]
    out = subprocess.run(["nm", "--defined-only", "-S", binary], capture_output=True, text=True, check=True).stdout
    found = {}
    for line in out.splitlines():
        parts = line.split(" ", 3)
        if len(parts) != 4 or parts[2] not in "tTwW" or int(parts[1], 16) == 0:
            continue
        address = int(parts[0], 16)
        if any(start <= address < start + size for start, size in segments):
            found.setdefault(address, parts[3])
    return found


def load_base(pid, binary):
    """Where the binary's first mapping (file offset 0) starts in the process."""
    with open(f"/proc/{pid}/maps") as f:
        for line in f:
            parts = line.split()
            if len(parts) >= 6 and os.path.realpath(parts[5]) == binary and int(parts[2], 16) == 0:
                return int(parts[0].split("-")[0], 16)
    raise RuntimeError(f"{binary} is not mapped in {pid}")


def trace(binary, record, argv):
    """Runs argv (the binary) under the tracer; appends the functions it ran, in first-run order, to `record`."""
    binary = os.path.realpath(binary)
    names = functions(binary)
    child = os.fork()
    if child == 0:
        ptrace(PTRACE_TRACEME, 0)
        os.execv(binary, argv)
    # Signals meant for the program (bench-pty stops it with SIGTERM) go to it.
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGQUIT):
        signal.signal(sig, lambda number, _: os.kill(child, number))
    os.waitpid(child, WALL)  # stopped at exec
    ptrace(PTRACE_SETOPTIONS, child, 0, PTRACE_O_TRACECLONE | PTRACE_O_EXITKILL)
    base = load_base(child, binary)
    mem = os.open(f"/proc/{child}/mem", os.O_RDWR)
    original = {}
    for address in names:
        where = base + address
        original[where] = os.pread(mem, 1, where)
        os.pwrite(mem, b"\xcc", where)
    order, threads, exit_status = [], {child}, 0
    ptrace(PTRACE_CONT, child)
    while threads:
        try:
            tid, status = os.waitpid(-1, WALL)
        except ChildProcessError:
            break
        if os.WIFEXITED(status) or os.WIFSIGNALED(status):
            threads.discard(tid)
            if tid == child:
                exit_status = os.WEXITSTATUS(status) if os.WIFEXITED(status) else 128 + os.WTERMSIG(status)
            continue
        if not os.WIFSTOPPED(status):
            continue
        sig, deliver = os.WSTOPSIG(status), 0
        if status >> 16 == PTRACE_EVENT_CLONE:
            event = ctypes.c_ulong()
            ptrace(PTRACE_GETEVENTMSG, tid, 0, ctypes.addressof(event))
            threads.add(event.value)
        elif sig == signal.SIGTRAP:
            rip = ptrace(PTRACE_PEEKUSER, tid, RIP) & 0xFFFFFFFFFFFFFFFF
            if rip - 1 in original:
                # Two threads may meet the same breakpoint: the second finds the byte back already.
                if os.pread(mem, 1, rip - 1) == b"\xcc":
                    os.pwrite(mem, original[rip - 1], rip - 1)
                    order.append(names[rip - 1 - base])
                ptrace(PTRACE_POKEUSER, tid, RIP, rip - 1)
            else:
                deliver = sig
        elif sig == signal.SIGSTOP and tid not in threads:
            threads.add(tid)  # a new thread's first stop
        elif sig != signal.SIGSTOP:
            deliver = sig
        try:
            ptrace(PTRACE_CONT, tid, 0, deliver)
        except OSError:
            threads.discard(tid)
    os.close(mem)
    with open(record, "a") as f:
        f.write("".join(name + "\n" for name in order) + "\n")
    return exit_status


def main():
    if len(sys.argv) > 3 and sys.argv[1] == "--trace":
        return trace(sys.argv[2], sys.argv[3], sys.argv[4:])
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("give the session to run after --, with {binary} where the binary goes")
    binary = os.path.realpath(args.binary)
    folder = tempfile.mkdtemp(prefix="link-order-")
    try:
        record, wrapper = os.path.join(folder, "record"), os.path.join(folder, "traced")
        with open(wrapper, "w") as f:
            f.write(f"#!/bin/sh\nexec {shlex.quote(sys.executable)} {shlex.quote(os.path.realpath(__file__))} "
                    f"--trace {shlex.quote(binary)} {shlex.quote(record)} {shlex.quote(binary)} \"$@\"\n")
        os.chmod(wrapper, stat.S_IRWXU)
        result = subprocess.run([part.replace("{binary}", wrapper) for part in command])
        if result.returncode != 0:
            print(f"the session failed (status {result.returncode}); no list written", file=sys.stderr)
            return 1
        if not os.path.exists(record):
            print("the session never started {binary}; no list written", file=sys.stderr)
            return 1
        seen, ordered, starts = set(), [], 0
        with open(record) as f:
            for line in f:
                name = line.rstrip("\n")
                if not name:
                    starts += 1
                elif name not in seen:
                    seen.add(name)
                    ordered.append(name)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    with open(args.out, "w") as f:
        f.write("".join(name + "\n" for name in ordered))
    print(f"{len(ordered)} functions run over {starts} starts, written to {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
