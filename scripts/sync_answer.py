#!/usr/bin/env python3
"""How long `--images sync` takes to answer a key while a window is being dragged (issue 28).

    scripts/sync_answer.py [--binary .build/release/destinations] [--runs 5] [--resizes 12]

In tmux: the grid with `--images sync --posts 1000000 --refresh-rate 120`, then per run a burst
of --resizes window sizes sent as fast as tmux takes them (a window edge dragged), then `?`;
the time until the help panel is on the screen, polled every 10 ms. Before issue 28 every
resize decoded every visible photo at full size on the main thread (12 s for the panel in
the soak); now a commit decodes one photo at most. Prints one JSON line; reports, asserts
nothing.
"""
import argparse
import json
import os
import random
import statistics
import subprocess
import time
import tempfile

# Runs keep their likes and place apart from the person's, and start fresh (issue 26).
os.environ["XDG_STATE_HOME"] = tempfile.mkdtemp(prefix="destinations-state-")

SOCKET = f"sync-answer-{os.getpid()}"


def tmux(*arguments):
    return subprocess.run(["tmux", "-L", SOCKET, *arguments], capture_output=True, text=True).stdout


def screen():
    return tmux("capture-pane", "-p", "-t", "s")


def wait_for(predicate, timeout):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate(screen()):
            return time.monotonic()
        time.sleep(0.01)
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=".build/release/destinations")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--resizes", type=int, default=12)
    options = parser.parse_args()
    rng = random.Random(1)
    tmux("new-session", "-d", "-s", "s", "-x", "160", "-y", "48", "env", "TERM=xterm-256color", "XDG_STATE_HOME=" + os.environ["XDG_STATE_HOME"],
         os.path.abspath(options.binary), "--images", "sync", "--posts", "1000000", "--refresh-rate", "120")
    answers = []
    try:
        if wait_for(lambda text: "♥" in text and "images sync" in text, 60) is None:
            print(json.dumps({"error": "the grid never came up"}))
            return
        for _ in range(options.runs):
            for _ in range(options.resizes):
                tmux("resize-window", "-t", "s", "-x", str(rng.randint(80, 250)), "-y", str(rng.randint(24, 80)))
            tmux("resize-window", "-t", "s", "-x", "160", "-y", "48")
            sent = time.monotonic()
            tmux("send-keys", "-t", "s", "?")
            shown = wait_for(lambda text: "any key closes" in text, 60)
            answers.append((shown - sent) * 1000 if shown else None)
            tmux("send-keys", "-t", "s", "Escape")
            wait_for(lambda text: "any key closes" not in text, 30)
            time.sleep(1)
    finally:
        tmux("kill-server")
    measured = [a for a in answers if a is not None]
    print(json.dumps({"runs": len(answers), "answered": len(measured), "answer_ms": answers,
                      "median_ms": statistics.median(measured) if measured else None,
                      "worst_ms": max(measured) if measured else None}))


if __name__ == "__main__":
    main()
