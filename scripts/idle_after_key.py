#!/usr/bin/env python3
"""The app's CPU when left alone after one key: `scripts/idle_after_key.py BINARY KEY RUNS`.

Starts BINARY (`--refresh-rate 120 --hud off`) in tmux at 160x48, waits 3 s, sends KEY
(a tmux key name, or `none`), waits 3 s more, then reads the process's CPU time over 10 s
from /proc. Prints each run's % of a core, the median and the worst. BINARY must not be
running elsewhere (the process is found by its path): copy it aside to compare builds.
"""
import os
import re
import statistics
import subprocess
import sys
import time
import tempfile

# Runs keep their likes and place apart from the person's, and start fresh (issue 26).
os.environ["XDG_STATE_HOME"] = tempfile.mkdtemp(prefix="destinations-state-")

binary, key, runs = os.path.abspath(sys.argv[1]), sys.argv[2], int(sys.argv[3])
ticks = os.sysconf("SC_CLK_TCK")


def tmux(*arguments):
    return subprocess.run(["tmux", "-L", "idle-after-key", *arguments], capture_output=True, text=True).stdout


def cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / ticks


results = []
for _ in range(runs):
    tmux("kill-server")
    tmux("new-session", "-d", "-x", "160", "-y", "48", "env", "TERM=xterm-256color", "XDG_STATE_HOME=" + os.environ["XDG_STATE_HOME"], binary, "--refresh-rate", "120", "--hud", "off")
    time.sleep(3)
    found = subprocess.run(["pgrep", "-f", "^" + re.escape(binary) + " "], capture_output=True, text=True).stdout.split()
    if not found:
        sys.exit(f"{binary} did not start")
    pid = int(found[0])
    if key != "none":
        tmux("send-keys", "-t", "0", key)
    time.sleep(3)
    before = cpu_seconds(pid)
    time.sleep(10)
    results.append((cpu_seconds(pid) - before) / 10 * 100)
    tmux("kill-server")
print(f"{binary}, key {key}: % of a core over 10 s, {runs} runs: " + ", ".join(f"{r:.2f}" for r in results)
      + f"; median {statistics.median(results):.2f}, worst {max(results):.2f}")
