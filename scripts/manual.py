#!/usr/bin/env python3
"""The manual pages of destinations and destinations-feed, from their argument definitions:
swift-argument-parser's `generate-manual` (built by `make man`) reads each program's
`--experimental-dump-help` and writes mdoc.

    scripts/manual.py .build/release .build/man [PROGRAM …]   (default: both)

generate-manual drops every character outside ASCII from the help texts (160×48 came out
as "16048"), so a help text with one fails here, naming it, rather than reaching the page
mangled. The date is the last commit's, so the same commit gives the same pages.
"""
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROGRAMS = ["destinations", "destinations-feed"]


def strings(value):
    if isinstance(value, dict):
        for item in value.values():
            yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)
    elif isinstance(value, str):
        yield value


def main():
    binaries, output = sys.argv[1], sys.argv[2]
    programs = sys.argv[3:] or PROGRAMS
    os.makedirs(output, exist_ok=True)
    date = subprocess.run(["git", "-C", ROOT, "log", "-1", "--format=%cs"], capture_output=True, text=True).stdout.strip() or "2026-01-01"
    for program in programs:
        binary = os.path.join(binaries, program)
        dump = json.loads(subprocess.run([binary, "--experimental-dump-help"], capture_output=True, text=True, check=True).stdout)
        lost = sorted({match for text in strings(dump) for match in re.findall(r".{0,24}[^\x00-\x7f].{0,12}", text)})
        if lost:
            print(f"manual: FAIL: {program}'s help has characters generate-manual would drop: {lost}")
            sys.exit(1)
        subprocess.run([os.path.join(binaries, "generate-manual"), binary, "--date", date, "--output-directory", output], check=True)
        page = os.path.join(output, f"{program}.1")
        if not os.path.exists(page) or os.path.getsize(page) < 500:
            print(f"manual: FAIL: no manual page for {program} in {output}")
            sys.exit(1)
        print(f"manual: {page} ({os.path.getsize(page)} bytes)")


if __name__ == "__main__":
    main()
