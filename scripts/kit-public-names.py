#!/usr/bin/env python3
"""Lists TerminalUI's `public` / `open` declarations and whether another module uses their name.

A name counts as used when it appears as a whole word in a module that imports TerminalUI (Skiff, skiff,
skiff-gallery, the benchmarks, SkiffTests, EndToEndTests, the scene templates); TerminalUITests use
`@testable import` and do not count. The check is by name, so it keeps a declaration public when any
same-named thing is used outside (it errs towards public); the compiler then proves the rest.

  scripts/kit-public-names.py                 report: the public names no other module uses, and a count
  scripts/kit-public-names.py --apply         remove `public` / `open` from those declarations
  scripts/kit-public-names.py --restore F:L   put the modifier back on line L of file F (after a compile error)
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KIT = os.path.join(ROOT, "Sources", "TerminalUI")
USERS = ["Sources/Skiff", "Sources/skiff", "Sources/skiff-gallery", "Benchmarks", "Tests/SkiffTests",
         "Tests/EndToEndTests", "Resources/SceneTemplates", "Plugins"]

DECLARATION = re.compile(r"^(\s*(?:@[\w.]+(?:\([^)]*\))?\s+)*)(public|open)\s+(.*)$")
NAMED = [
    re.compile(r"^(?:(?:final|static|class|override|nonisolated|mutating|indirect|convenience|required|"
               r"private\(set\)|fileprivate\(set\)|internal\(set\))\s+)*"
               r"(?:class|struct|enum|protocol|actor|typealias|func|var|let|case)\s+([A-Za-z_]\w*|`\w+`)"),
]


def swift_files(folder):
    for directory, _, names in os.walk(folder):
        for name in names:
            if name.endswith(".swift") or name.endswith(".template"):
                yield os.path.join(directory, name)


def declarations():
    """(path, line number, declared name or None for init/subscript/operator, line)."""
    found = []
    for path in sorted(swift_files(KIT)):
        with open(path, encoding="utf-8") as handle:
            lines = handle.read().split("\n")
        for number, line in enumerate(lines, 1):
            match = DECLARATION.match(line)
            if not match:
                continue
            rest = match.group(3)
            name = None
            for pattern in NAMED:
                named = pattern.match(rest)
                if named:
                    name = named.group(1).strip("`")
            found.append((path, number, name, line))
    return found


def usage_text():
    chunks = []
    for folder in USERS:
        for path in swift_files(os.path.join(ROOT, folder)):
            with open(path, encoding="utf-8") as handle:
                chunks.append(handle.read())
    return "\n".join(chunks)


def unused():
    text = usage_text()
    words = set(re.findall(r"[A-Za-z_]\w*", text))
    result = []
    for path, number, name, line in declarations():
        if name is None:
            continue  # initialisers, subscripts and operators follow their type; the compiler says when
        if name not in words:
            result.append((path, number, name, line))
    return result


def strip_modifier(line):
    match = DECLARATION.match(line)
    rest = match.group(3)
    if rest.startswith("internal(set) "):
        rest = rest[len("internal(set) "):]  # redundant once the property is internal
    return match.group(1) + rest


def main():
    arguments = sys.argv[1:]
    if arguments[:1] == ["--restore"]:
        for spot in arguments[1:]:
            path, number = spot.rsplit(":", 1)
            restore(path, int(number))
        return
    names = unused()
    total = len(declarations())
    if arguments[:1] == ["--apply"]:
        by_path = {}
        for path, number, name, line in names:
            by_path.setdefault(path, []).append(number)
        for path, numbers in by_path.items():
            with open(path, encoding="utf-8") as handle:
                lines = handle.read().split("\n")
            for number in numbers:
                lines[number - 1] = strip_modifier(lines[number - 1])
            with open(path, "w", encoding="utf-8") as handle:
                handle.write("\n".join(lines))
    for path, number, name, _ in names:
        print(f"{os.path.relpath(path, ROOT)}:{number}: {name}")
    print(f"{len(names)} of {total} public declarations are used by no other module", file=sys.stderr)


def restore(path, number):
    """Puts the modifier back on a declaration the compiler needs public (a witness, a type in a public
    signature): `open` where the committed line had it, else `public`."""
    import subprocess
    with open(path, encoding="utf-8") as handle:
        lines = handle.read().split("\n")
    line = lines[number - 1]
    if DECLARATION.match(line):
        return
    relative = os.path.relpath(os.path.abspath(path), ROOT)
    committed = subprocess.run(["git", "-C", ROOT, "show", f"HEAD:{relative}"], capture_output=True, text=True).stdout
    original = committed.split("\n")[number - 1] if committed else ""
    match = DECLARATION.match(original)
    modifier = match.group(2) if match and strip_modifier(original) == line else "public"
    indent = re.match(r"^(\s*(?:@[\w.]+(?:\([^)]*\))?\s+)*)", line).group(1)
    lines[number - 1] = indent + modifier + " " + line[len(indent):]
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines))


if __name__ == "__main__":
    main()
