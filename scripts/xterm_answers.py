#!/usr/bin/env python3
"""How long xterm itself takes to answer the app's parse requests, beside what the app measures.

    scripts/xterm_answers.py .build/release/destinations --seeds 4 [--graphics sixel]

For each seed, runs xterm_bench's fling (xterm -ti vt340 under Xvfb, 160x48, 120 Hz) with
strace attached to xterm alone (`strace -tt -T -e trace=read,write,pselect6 -s 4096`: a few
hundred system calls a second, a light load). From xterm's reads of the pty and its writes to it,
every `CSI c` the app sent is matched with xterm's answer (`ESC [ ? 63;…c`, VT340), and the time
from the read that brought the request in to the write of the answer is xterm's own: the
parse of that last chunk (at most 4 KB) and the answer. The app's figures for the same run
(parse round trip p50 and max: from handing the frame over to reading the answer) are
printed beside it; what lies between the two is the time before xterm read the request's
chunk (the batch's earlier chunks, or xterm busy elsewhere) and after it wrote the answer
(the app reading it). Also printed: xterm's waits in `pselect` over 30 ms between the first
request and the last answer (it had nothing to read and no X event: idle, not busy; a wait
inside Xlib's own `poll` is not counted). Timings are reported, never asserted (BENCHMARKS.md).
"""
import argparse
import ast
import json
import os
import re
import shutil
import subprocess
import tempfile
import threading
import time

import xterm_bench
import xvfb

CALL = re.compile(r'^(\S+) (read|write)\(4, "(.*)"(\.\.\.)?, \d+\) += (\d+)')
WAIT = re.compile(r'^(\S+) pselect6\(.*<([\d.]+)>$')


def seconds(stamp):
    hours, minutes, rest = stamp.split(":")
    return int(hours) * 3600 + int(minutes) * 60 + float(rest)


def stream(lines, call):
    """(time, bytes) of each successful `call` (read or write) on xterm's pty, fd 4."""
    out = []
    for line in lines:
        match = CALL.match(line)
        if not match or match.group(2) != call:
            continue
        try:
            data = ast.literal_eval('b"' + match.group(3) + '"')
        except (ValueError, SyntaxError):
            continue
        out.append((seconds(match.group(1)), data[:int(match.group(5))]))
    return out


def times_of(chunks, needle):
    """When each occurrence of `needle` in the concatenated chunks was complete."""
    joined, ends = bytearray(), []
    for when, data in chunks:
        joined += data
        ends.append((len(joined), when))
    found, index, position = [], 0, joined.find(needle)
    while position >= 0:
        end = position + len(needle)
        while ends[index][0] < end:
            index += 1
        found.append(ends[index][1])
        position = joined.find(needle, end)
    return found


def quantile(values, share):
    return values[min(len(values) - 1, int(share * len(values)))]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binary")
    parser.add_argument("--seeds", type=int, default=4)
    parser.add_argument("--graphics", default="sixel")
    parser.add_argument("--seconds", type=float, default=6)
    options = parser.parse_args()
    xvfb.require(["Xvfb", "xterm", "strace"], "xterm_answers", "apt-get install strace")
    binary = os.path.abspath(options.binary)
    server, env = xvfb.start("1600x1000x24")
    home = tempfile.mkdtemp(prefix="xterm-answers-")
    try:
        for seed in range(1, options.seeds + 1):
            log = os.path.join(home, f"xterm-{seed}.strace")
            result = {}
            run = threading.Thread(target=lambda: result.update(xterm_bench.run_one(
                env, binary, options.graphics, 120, seed, options.seconds, 0, home, "fling")))
            before = set(subprocess.run(["pgrep", "-x", "xterm"], capture_output=True, text=True).stdout.split())
            run.start()
            tracer = None
            for _ in range(200):
                now = set(subprocess.run(["pgrep", "-x", "xterm"], capture_output=True, text=True).stdout.split()) - before
                if now:
                    tracer = subprocess.Popen(["strace", "-tt", "-T", "-e", "trace=read,write,pselect6", "-s", "4096", "-o", log, "-p", now.pop()],
                                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                    break
                time.sleep(0.02)
            run.join()
            if tracer:
                tracer.terminate()
                tracer.wait()
            lines = []
            if os.path.exists(log):
                with open(log) as file:
                    lines = file.read().split("\n")
            requests = times_of(stream(lines, "read"), b"\x1b[c")
            answers = times_of(stream(lines, "write"), b"\x1b[?6")  # DA1 answers; the rest xterm writes (probe replies) differ
            own, next_answer = [], 0
            for request in requests:  # each request with the first answer written at or after it
                while next_answer < len(answers) and answers[next_answer] < request:
                    next_answer += 1
                if next_answer < len(answers):
                    own.append((answers[next_answer] - request) * 1000)
                    next_answer += 1
            own.sort()
            # Only while the fling asked (from the first request read to the last answer
            # written): not xterm waiting for the app to start or to end.
            first, last = (requests[0], answers[-1]) if requests and answers else (0, 0)
            waits = sorted(round(float(m.group(2)) * 1000) for m in map(WAIT.match, lines)
                           if m and float(m.group(2)) > 0.03 and first <= seconds(m.group(1)) <= last)
            print(json.dumps({
                "seed": seed, "hitch_ratio": result.get("hitch_ratio"), "terminal_hitches": result.get("terminal_hitches"),
                "app_parse_ms": {"p50": result.get("parse_p50"), "max": result.get("parse_max")},
                "requests_read": len(requests), "answers_written": len(answers),
                "xterm_own_ms": {"answers": len(own), "p50": round(quantile(own, 0.5), 2), "p99": round(quantile(own, 0.99), 2),
                                 "max": round(own[-1], 2)} if own else None,
                "xterm_idle_waits_over_30_ms": waits,
            }), flush=True)
    finally:
        server.terminate()
        shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    main()
