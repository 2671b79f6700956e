#!/usr/bin/env python3
"""Writes the skiff .deb's debian/copyright (machine-readable format 1.0) to standard output: Skiff itself, the
Swift runtime linked into both programs, and every Swift package the build resolved, each with the licence text read
from its checkout (scripts/package-deb.sh). Packages used only by the tests and benchmarks are listed too: the
resolved set is what a build of the two programs reads, and a longer list hides nothing."""
import argparse
import json
import pathlib
import sys
import textwrap

LICENCE_FILES = ("LICENSE", "LICENSE.txt", "LICENSE.md", "COPYING", "LICENCE")
NOTICE_FILES = ("NOTICE", "NOTICE.txt")


def identify(text: str) -> str:
    """The licence's short name, as debian/copyright spells it."""
    if "Apache License" in text and "Version 2.0" in text:
        if "Runtime Library Exception" in text:
            return "Apache-2.0 with Swift exception"
        return "Apache-2.0"
    if "Permission is hereby granted, free of charge" in text:
        return "Expat"
    if "Redistribution and use in source and binary forms" in text:
        return "BSD-3-clause" if "Neither the name" in text or "names of its contributors" in text else "BSD-2-clause"
    if "Permission to use, copy, modify, and/or distribute this software" in text:
        return "ISC"
    return "other"


def copyright_line(text: str, fallback: str) -> str:
    """The first 'Copyright ...' line of a licence, else the project's name."""
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.lower().startswith("copyright") and any(ch.isdigit() for ch in stripped):
            return stripped[len("copyright"):].strip(" :(c)©")
    return fallback


def vendored_licences(checkout: pathlib.Path) -> list:
    """Licences of code vendored under Sources/ (C and C++ libraries such as toml++, llhttp or BoringSSL): nested
    licence files and the SPDX identifiers at the top of source files."""
    found = set()
    sources = checkout / "Sources"
    if not sources.is_dir():
        return []
    for path in sources.rglob("*"):
        if not path.is_file():
            continue
        if path.name == "vendored-zlib.version":
            # zlib's own files carry its licence in prose, not as a file or an SPDX line (swift-nio-extras).
            version = path.read_text(errors="replace").strip().splitlines()[0] if path.stat().st_size else "?"
            found.add(f"Zlib (zlib {version}, {path.parent.relative_to(checkout)})")
        elif path.name.upper().startswith(("LICENSE", "COPYING")):
            found.add(f"{identify(path.read_text(errors='replace'))} ({path.relative_to(checkout)})")
        elif path.suffix in (".h", ".hpp", ".c", ".cc", ".cpp", ".S"):
            with path.open(errors="replace") as handle:
                head = "".join(handle.readline() for _ in range(40))
            marker = "SPDX-License-Identifier:"
            if marker in head:
                found.add(head.split(marker, 1)[1].split("\n", 1)[0].strip(" */"))
    return sorted(found)


def indented(text: str) -> str:
    """A text as a debian/copyright field's continuation lines: one space, an empty line as ' .'."""
    lines = text.replace("\t", "    ").rstrip().splitlines()
    return "\n".join(" " + line.rstrip() if line.strip() else " ." for line in lines)


COMMON_APACHE = "On Debian systems, the full text of the Apache License, Version 2.0, is in\n/usr/share/common-licenses/Apache-2.0."
EXCEPTION_MARK = "## Runtime Library Exception to the Apache 2.0 License: ##"


def licence_body(name: str, licence_text: str) -> str:
    """The text a License field carries: Debian ships the Apache License, Version 2.0, in common-licenses, so an
    Apache paragraph points there (Debian policy 12.5; lintian refuses a copy) and keeps only what differs from it,
    the Swift runtime's exception."""
    if name == "Apache-2.0":
        return COMMON_APACHE
    if name == "Apache-2.0 with Swift exception":
        exception = textwrap.fill(licence_text.split(EXCEPTION_MARK, 1)[1], 76) if EXCEPTION_MARK in licence_text else ""
        return COMMON_APACHE + "\n\nRuntime Library Exception to the Apache 2.0 License:\n\n" + exception
    return licence_text


def paragraph(files: str, holder: str, licence_text: str, comment: str) -> str:
    name = identify(licence_text)
    body = licence_body(name, licence_text)
    return f"Files: {files}\nCopyright: {holder}\nLicense: {name}\n{indented(body)}\nComment: {comment}\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--checkouts", required=True, type=pathlib.Path)
    parser.add_argument("--state", required=True, type=pathlib.Path, help=".build/workspace-state.json")
    parser.add_argument("--swift-licence", type=pathlib.Path, default=pathlib.Path("/opt/swift/usr/share/swift/LICENSE.txt"))
    arguments = parser.parse_args()

    state = json.loads(arguments.state.read_text())
    versions = {
        dependency["subpath"]: (dependency["packageRef"]["location"], dependency["state"].get("checkoutState", {}).get("version"))
        for dependency in state["object"]["dependencies"]
    }
    out = [
        "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n"
        "Upstream-Name: skiff\n"
        "Comment: skiff and skiff-server are Swift programs linked statically with the Swift runtime and the\n"
        " Swift packages below; each paragraph names a package, its version and its licence, read from its\n"
        " checkout. Debian's own libraries (libc6, libncursesw6, libsqlite3-0, ...) are dependencies, not copied.\n",
        "Files: *\nCopyright: The Skiff authors\nLicense: other\n"
        " Skiff has not been given a licence yet; until it has, its authors keep every right to it.\n",
    ]
    if arguments.swift_licence.is_file():
        text = arguments.swift_licence.read_text(errors="replace")
        out.append(paragraph("swift-runtime/*", "Apple Inc. and the Swift project authors", text,
                             "The Swift standard library, Foundation and Dispatch, linked in (swift.org)."))
    missing = []
    for checkout in sorted(arguments.checkouts.iterdir(), key=lambda p: p.name.lower()):
        if not checkout.is_dir():
            continue
        licence = next((checkout / name for name in LICENCE_FILES if (checkout / name).is_file()), None)
        if licence is None:
            missing.append(checkout.name)
            continue
        text = licence.read_text(errors="replace")
        location, version = versions.get(checkout.name, ("(unknown)", None))
        comment = f"{checkout.name} {version or '(unversioned)'} from {location}"
        vendored = vendored_licences(checkout)
        if vendored:
            comment += "; vendored sources in it carry these licences too: " + ", ".join(vendored)
        notice = next((checkout / name for name in NOTICE_FILES if (checkout / name).is_file()), None)
        if notice is not None:
            comment += f"; its {notice.name} follows.\n" + indented(notice.read_text(errors="replace"))
        out.append(paragraph(f"swift-packages/{checkout.name}/*", copyright_line(text, f"The {checkout.name} authors"), text, comment))
    if missing:
        print(f"deb-copyright.py: no licence file in {', '.join(missing)}", file=sys.stderr)
        return 1
    sys.stdout.write("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
