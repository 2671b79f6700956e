#!/usr/bin/env python3
"""Removes `public` from declarations that no other module names (issue 24, point 4: `public` only where another
module uses it). Usage: scripts/trim-public.py [--dry-run] [--keep FILE:LINE ...] MODULE...

For each module under Sources/<MODULE>, every `public` declaration's name is looked for (a type as a whole word, a
member as `.name`) in the
Swift files of every other module (Sources/, Benchmarks/, Plugins/) and in the test files that import the module
without `@testable` (a `@testable import` reaches internal names). A declaration is kept public when its name is
found there; when it is an `init`, a protocol requirement's witness, or inside a type that stays public and is
named elsewhere (inits); or when listed with --keep. Everything else loses `public`.
Run `swift build --build-tests` afterwards: the compiler is the proof (a witness or a signature the script cannot
see fails there, and is then kept with --keep).
"""
import os, re, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DECL = re.compile(
    r'^(\s*)((?:@\w+(?:\([^)]*\))?\s+)*)public\s+'
    r'((?:(?:static|final|mutating|nonmutating|override|convenience|required|indirect|lazy|nonisolated|class)\s+)*)'
    r'(let|var|func|init|subscript|struct|enum|class|protocol|typealias|actor|extension)\b\s*([A-Za-z_]\w*)?'
)
# Types no other module names but that public declarations' signatures use (the compiler's refusals on the first run):
# `Card.kind`, a configuration method's thrown error, the configuration's clock and code sender.
KEEP_NAMES = {'CardKind', 'ExposureRefusal', 'ServerClock', 'SystemClock', 'CodeSender'}
# Members that satisfy a standard-library or SkiffCore protocol requirement: a public type's witness must stay public.
WITNESSES = {'description', 'debugDescription', 'redactedDescription', 'customMirror', 'encode', 'next', 'hash',
             'hashValue', 'errorDescription', 'id', 'rawValue', 'allCases', 'makeIterator', 'callAsFunction'}


def swift_files(top):
    for base, _, files in os.walk(top):
        if '.build' in base:
            continue
        for name in files:
            if name.endswith('.swift'):
                yield os.path.join(base, name)


def corpus(module):
    """The text of every file outside `module` that sees only its public names."""
    texts = []
    for top in ('Sources', 'Benchmarks', 'Plugins'):
        for path in swift_files(os.path.join(ROOT, top)):
            if os.path.relpath(path, ROOT).startswith(os.path.join('Sources', module) + os.sep):
                continue
            texts.append(open(path, encoding='utf-8').read())
    for path in swift_files(os.path.join(ROOT, 'Tests')):
        text = open(path, encoding='utf-8').read()
        if re.search(r'^import\s+%s\s*$' % module, text, re.M) and not re.search(r'^@testable\s+import\s+%s\b' % module, text, re.M):
            texts.append(text)
    return '\n'.join(texts)


def main():
    args = sys.argv[1:]
    dry = '--dry-run' in args
    keep = set()
    modules = []
    i = 0
    while i < len(args):
        if args[i] == '--dry-run':
            pass
        elif args[i] == '--keep':
            i += 1
            keep.add(args[i])
        else:
            modules.append(args[i])
        i += 1
    for module in modules:
        others = corpus(module)
        used = lambda name: re.search(r'\b%s\b' % re.escape(name), others) is not None
        # A member is reached as `.name` (`value.name`, `Type.name`, `.name` inferred, `\.name`), never bare.
        member_used = lambda name: re.search(r'\.%s\b' % re.escape(name), others) is not None
        removed = kept = 0
        for path in sorted(swift_files(os.path.join(ROOT, 'Sources', module))):
            lines = open(path, encoding='utf-8').read().split('\n')
            rel = os.path.relpath(path, ROOT)
            # The public types that enclose each line, by brace depth (strings holding braces are rare here).
            stack, depth, changed = [], 0, False
            for n, line in enumerate(lines):
                m = DECL.match(line)
                if m:
                    kind, name = m.group(4), m.group(5) or ''
                    enclosing_public = all(public for _, _, public in stack)
                    if kind == 'extension':
                        keep_it = True
                    elif kind == 'init' or kind == 'subscript':
                        keep_it = bool(stack) and stack[-1][2] and (used(stack[-1][1]) or stack[-1][1] in KEEP_NAMES)
                    else:
                        found = member_used(name) if stack and kind in ('let', 'var', 'func') else used(name)
                        keep_it = found or (name in WITNESSES and enclosing_public)
                    if '%s:%d' % (rel, n + 1) in keep or name in KEEP_NAMES:
                        keep_it = True
                    if keep_it:
                        kept += 1
                    else:
                        removed += 1
                        lines[n] = line[:m.start(0)] + re.sub(r'\bpublic\s+', '', line, count=1)
                        changed = True
                        print('%s:%d: %s' % (rel, n + 1, lines[n].strip()))
                # Track the enclosing declarations.
                t = re.match(r'^\s*(?:@\w+(?:\([^)]*\))?\s+)*(public\s+|package\s+|private\s+|fileprivate\s+|internal\s+)?'
                             r'(?:final\s+|indirect\s+)*(struct|enum|class|protocol|actor|extension)\s+([A-Za-z_][\w.]*)', lines[n])
                code = re.sub(r'"(?:\\.|[^"\\])*"', '""', lines[n].split('//')[0])
                opens, closes = code.count('{'), code.count('}')
                if t and opens > closes:
                    is_public = (t.group(1) or '').strip() == 'public' or t.group(2) == 'extension'
                    stack.append((depth, t.group(3).split('.')[-1], is_public))
                depth += opens - closes
                while stack and depth <= stack[-1][0]:
                    stack.pop()
            if changed and not dry:
                open(path, 'w', encoding='utf-8').write('\n'.join(lines))
        print('%s: %d public declarations removed, %d kept' % (module, removed, kept), file=sys.stderr)


main()
