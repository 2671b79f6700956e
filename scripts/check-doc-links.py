#!/usr/bin/env python3
"""Checks every relative link in the repository's Markdown files: the file must exist and, for `file.md#anchor`,
the anchor must be one of its headings (GitHub's slugs). Links inside fenced code and to URLs are skipped.

    scripts/check-doc-links.py [ROOT]      (exit status 1 when a link is broken)
"""
import os, re, subprocess, sys

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
listed = subprocess.check_output(
    ['git', 'ls-files', '--cached', '--others', '--exclude-standard', '*.md'], cwd=root, text=True).split()
files = sorted(f for f in set(listed) if os.path.exists(os.path.join(root, f)))
link = re.compile(r'\[[^\]]*\]\(([^)\s]+)\)')
fence = re.compile(r'```.*?```', re.S)

def anchors(path):
    headings = re.findall(r'^#+ (.*)$', fence.sub('', open(path).read()), re.M)
    return {re.sub(r'[^a-z0-9 _-]', '', h.strip().lower()).replace(' ', '-') for h in headings}

checked = broken = 0
for name in files:
    for match in link.finditer(fence.sub('', open(os.path.join(root, name)).read())):
        target = match.group(1)
        if re.match(r'^[a-z][a-z0-9+.-]*:', target) or target.startswith('#'):
            continue
        path, _, anchor = target.partition('#')
        full = os.path.normpath(os.path.join(root, os.path.dirname(name), path))
        checked += 1
        if not os.path.exists(full):
            broken += 1
            print(f'{name}: no such file: {target}')
        elif anchor and full.endswith('.md') and anchor not in anchors(full):
            broken += 1
            print(f'{name}: no such heading: {target}')
print(f'{checked} relative links in {len(files)} Markdown files, {broken} broken')
sys.exit(1 if broken else 0)
