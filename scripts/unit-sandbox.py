#!/usr/bin/python3
"""Runs a command inside the sandbox a systemd unit's [Service] section asks for, where systemd is not PID 1.

    unshare --mount --pid --fork --propagation private -- \\
        /usr/bin/python3 scripts/unit-sandbox.py /lib/systemd/system/skiff-server.service -- COMMAND ARGS...

scripts/check-package.sh runs the packaged ExecStart this way to prove the hardened unit still serves: the parts of
the sandbox that could stop a program that runs fine unconfined are applied as systemd applies them.
- ProtectProc= and ProcSubset=: /proc mounted again with hidepid= and subset= (in the new mount and pid namespaces
  unshare made);
- User= and Group=: the ids taken, no supplementary groups, every capability gone (CapabilityBoundingSet= empty);
- NoNewPrivileges=, SystemCallArchitectures=native, SystemCallFilter= (groups expanded by `systemd-analyze
  syscall-filter`, `~` lines removing), SystemCallErrorNumber=, RestrictAddressFamilies= and
  MemoryDenyWriteExecute=: one seccomp filter, made as systemd makes them (libseccomp, Debian's python3-seccomp).
Not applied (mounts and namespaces that only hide what the program does not touch): ProtectSystem=, ProtectHome=,
PrivateTmp=, PrivateDevices=, PrivateUsers=, PrivateMounts=, the Protect*= of the kernel, clock and hostname.
"""
import errno
import grp
import os
import pwd
import socket
import subprocess
import sys

import seccomp


def service_settings(path):
    """The unit's [Service] keys, each with its values in order (a key given again adds to it)."""
    settings, section = {}, None
    with open(path, encoding="utf-8") as unit:
        for raw in unit:
            line = raw.strip()
            if not line or line.startswith(("#", ";")):
                continue
            if line.startswith("["):
                section = line
                continue
            if section == "[Service]" and "=" in line:
                key, value = line.split("=", 1)
                settings.setdefault(key.strip(), []).append(value.strip())
    return settings


def expand(names, seen=None):
    """System call names, with every @group expanded through systemd's own lists."""
    seen = set() if seen is None else seen
    calls = set()
    for name in names:
        if not name.startswith("@"):
            calls.add(name)
            continue
        if name in seen:
            continue
        seen.add(name)
        listing = subprocess.run(
            ["systemd-analyze", "syscall-filter", name], check=True, capture_output=True, text=True
        ).stdout
        members = [line.strip() for line in listing.splitlines()[1:]]
        calls |= expand([m for m in members if m and not m.startswith("#")], seen)
    return calls


def syscall_filter(settings):
    """The allowed system calls: SystemCallFilter= lines in order, a leading ~ removing its names."""
    allowed = None
    for line in settings.get("SystemCallFilter", []):
        deny = line.startswith("~")
        names = expand(line.lstrip("~").split())
        if deny:
            allowed = (allowed if allowed is not None else set()) - names
        else:
            allowed = (allowed or set()) | names
    return allowed


def apply_proc(settings):
    options = []
    hide = {"invisible": "invisible", "noaccess": "noaccess", "ptraceable": "ptraceable"}
    if settings.get("ProtectProc", [""])[-1] in hide:
        options.append("hidepid=" + hide[settings["ProtectProc"][-1]])
    if settings.get("ProcSubset", [""])[-1] == "pid":
        options.append("subset=pid")
    if options:
        subprocess.run(["mount", "-t", "proc", "-o", ",".join(options), "proc", "/proc"], check=True)


def drop_user(settings):
    user = settings.get("User", [None])[-1]
    if user is None:
        return
    entry = pwd.getpwnam(user)
    group = settings.get("Group", [None])[-1]
    gid = grp.getgrnam(group).gr_gid if group else entry.pw_gid
    os.setgroups([])
    os.setgid(gid)
    os.setuid(entry.pw_uid)
    os.environ.update(HOME=entry.pw_dir, USER=user, LOGNAME=user)


def apply_seccomp(settings):
    """One seccomp filter per setting, loaded one after the other as systemd loads them: the kernel answers every
    call with the strictest of their answers."""
    error = settings.get("SystemCallErrorNumber", [None])[-1]
    refused = seccomp.ERRNO(getattr(errno, error)) if error else seccomp.KILL_PROCESS
    allowed = syscall_filter(settings)
    deny_wx = settings.get("MemoryDenyWriteExecute", ["no"])[-1] in ("yes", "true", "1")
    families = settings.get("RestrictAddressFamilies", [None])[-1]
    if settings.get("NoNewPrivileges", ["no"])[-1] in ("yes", "true", "1"):
        import ctypes
        ctypes.CDLL(None, use_errno=True).prctl(38, 1, 0, 0, 0)  # PR_SET_NO_NEW_PRIVS

    if deny_wx:
        wx = 0x2 | 0x4  # PROT_WRITE | PROT_EXEC
        memory = seccomp.SyscallFilter(seccomp.ALLOW)
        memory.add_rule(seccomp.ERRNO(errno.EPERM), "mmap", seccomp.Arg(2, seccomp.MASKED_EQ, wx, wx))
        memory.add_rule(seccomp.ERRNO(errno.EPERM), "mprotect", seccomp.Arg(2, seccomp.MASKED_EQ, 0x4, 0x4))
        memory.add_rule(seccomp.ERRNO(errno.EPERM), "pkey_mprotect", seccomp.Arg(2, seccomp.MASKED_EQ, 0x4, 0x4))
        memory.load()
    if families:
        permitted = {getattr(socket, n) for n in families.split() if hasattr(socket, n)}
        sockets = seccomp.SyscallFilter(seccomp.ALLOW)
        for family in range(0, 46):
            if family not in permitted:
                sockets.add_rule(seccomp.ERRNO(errno.EAFNOSUPPORT), "socket", seccomp.Arg(0, seccomp.EQ, family))
        sockets.load()

    # The list last: loading a filter is itself a system call the list may not allow.
    if allowed is not None:
        calls = seccomp.SyscallFilter(refused)
        for name in sorted(allowed):
            try:
                calls.add_rule(seccomp.ALLOW, name)
            except (RuntimeError, ValueError, OSError):
                pass  # a name this architecture or kernel does not have: systemd skips it too
        calls.load()

def main():
    if "--" not in sys.argv[2:]:
        sys.exit("usage: unit-sandbox.py UNIT -- COMMAND [ARGS...]")
    unit = sys.argv[1]
    command = sys.argv[sys.argv.index("--", 2) + 1:]
    settings = service_settings(unit)
    apply_proc(settings)
    drop_user(settings)
    apply_seccomp(settings)
    os.execvp(command[0], command)


if __name__ == "__main__":
    main()
