#!/usr/bin/env python3
"""The examples as a person runs them: each in tmux (160×40), a key or two, the screen read
back and checked, then `q`, which must end it with status 0 and the terminal restored.

    python3 scripts/examples_e2e.py Examples/.build/debug

First, what the examples' package resolved (Examples/Package.resolved, written by their
build): a package that uses the toolkit's products gets swift-collections and nothing else
(issue 47, D-075) — not the app's network stack.
"""
import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CASES = [
    # binary, arguments, keys, what the screen must show after them
    ("hello-list", [], ["PageDown"], ["Hello, line 40", "frames  hitches:"]),
    ("process-list", [], [], ["PID", "COMMAND", "process-list"]),
    ("file-browser", [os.path.join(ROOT, "Assets", "photos")], ["j"], ["22 files", "dune.jpg"]),
]


def tmux(*args):
    return subprocess.run(["tmux", "-L", "examples", *args], capture_output=True, text=True)


def screen():
    return tmux("capture-pane", "-p", "-t", "ex").stdout


# What a package that depends on the toolkit may resolve besides the toolkit itself.
from check_dependents import ALLOWED


def check_resolved():
    path = os.path.join(ROOT, "Examples", "Package.resolved")
    pins = sorted(pin["identity"] for pin in json.load(open(path))["pins"])
    extra = sorted(set(pins) - ALLOWED)
    if extra:
        print(f"examples_e2e: FAIL: the toolkit's dependents resolve {len(pins)} packages, {extra} beyond {sorted(ALLOWED)}")
        sys.exit(1)
    print(f"examples_e2e: ok: the examples resolved {pins} and nothing else")


def main():
    binaries = sys.argv[1]
    check_resolved()
    failures = 0
    for binary, args, keys, wanted in CASES:
        status_file = f"/tmp/examples-e2e-{binary}.status"
        if os.path.exists(status_file):
            os.remove(status_file)
        command = " ".join([os.path.join(binaries, binary), *args]) + f"; echo $? > {status_file}; sleep 30"
        tmux("kill-session", "-t", "ex")
        tmux("new-session", "-d", "-s", "ex", "-x", "160", "-y", "40", "env", "TERM=xterm-256color", "sh", "-c", command)
        time.sleep(1.5)
        for key in keys:
            tmux("send-keys", "-t", "ex", key)
            time.sleep(0.4)
        deadline = time.time() + 10
        while time.time() < deadline and not all(text in screen() for text in wanted):
            time.sleep(0.2)
        shown = screen()
        missing = [text for text in wanted if text not in shown]
        tmux("send-keys", "-t", "ex", "q")
        deadline = time.time() + 10
        while time.time() < deadline and not os.path.exists(status_file):
            time.sleep(0.1)
        time.sleep(0.2)
        status = open(status_file).read().strip() if os.path.exists(status_file) else "none (still running)"
        after = screen()
        tmux("kill-session", "-t", "ex")
        if missing or status != "0" or any(text in after for text in wanted[:1]):
            failures += 1
            print(f"examples_e2e: FAIL {binary}: missing {missing}, exit status {status}; screen was:\n{shown}")
        else:
            print(f"examples_e2e: ok {binary}: showed {wanted}, quit with status 0, screen restored")
    tmux("kill-server")
    print(f"examples_e2e: {len(CASES) - failures} of {len(CASES)} examples ok")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
