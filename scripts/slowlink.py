#!/usr/bin/env python3
"""The app behind a slow link: a pseudo-terminal whose output is read at a fixed rate.

The kernel here has no netem; this harness is the link. It spawns the app in a pty of
160x48 (TERM=xterm-256color), answers the start-up queries a terminal answers (DECRQM 2026,
DA1; nothing else), and reads what the app writes at --rate bytes a second (0: as fast as it
comes). Two runs per call:

  fling    the app's own `--scenario fling` for --seconds; its JSON report (commit times,
           hitches by kind, coalesced frames, the drain rate it measured) is read back from
           the stream at exit.
  keys     --keys Down keys, each sent once the stream has been quiet for 0.3 s (the link has
           carried everything before it); latency = key sent -> the end (?2026l) of the first
           frame after it, as read through the link. Each is compared with its bound: that
           frame's bytes at --rate plus two frames (issue 23's target). Then `q`: how long
           until the process has exited.

Prints one JSON line. Timings are reported, never asserted: run it over several seeds and
take the median and the worst (BENCHMARKS.md).

  python3 scripts/slowlink.py --rate 100000 -- .build/release/destinations --refresh-rate 120
"""
import argparse
import fcntl
import json
import os
import pty
import re
import select
import signal
import struct
import termios
import time
import tempfile

# Runs keep their likes and place apart from the person's, and start fresh (issue 26).
os.environ["XDG_STATE_HOME"] = tempfile.mkdtemp(prefix="destinations-state-")

DECRQM = b"\x1b[?2026$p"
DA1 = b"\x1b[c"
SYNC_BEGIN = b"\x1b[?2026h"
SYNC_END = b"\x1b[?2026l"


class Link:
    """A child in a pty, read at `rate` bytes a second (token bucket, 10 ms deep)."""

    def __init__(self, argv, rate, rows=48, cols=160):
        self.rate = rate
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.environ["TERM"] = "xterm-256color"
            os.environ.pop("COLORTERM", None)
            os.environ.pop("TMUX", None)
            os.execvp(argv[0], argv)
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        os.kill(self.pid, signal.SIGWINCH)
        self.stream = bytearray()
        self.times = []  # (offset after the read, time of the read)
        self.tokens = 0.0
        self.last = time.monotonic()
        self.exited = None
        self.status = None
        self.answered = 0
        self.scanned = 0

    def pump(self, duration):
        """Reads for `duration` seconds at the link's rate."""
        end = time.monotonic() + duration
        while True:
            now = time.monotonic()
            if now >= end:
                return
            if self.rate:
                self.tokens = min(self.tokens + (now - self.last) * self.rate, max(self.rate * 0.01, 512))
            self.last = now
            allowed = int(self.tokens) if self.rate else 65536
            if allowed < 1:
                time.sleep(0.002)
                continue
            ready, _, _ = select.select([self.fd], [], [], min(0.005, end - now))
            if not ready:
                self.reap()
                continue
            try:
                chunk = os.read(self.fd, min(allowed, 65536))
            except OSError:
                chunk = b""
            if not chunk:
                self.reap(block=True)
                return
            if self.rate:
                self.tokens -= len(chunk)
            self.stream += chunk
            self.times.append((len(self.stream), time.monotonic()))
            self.answer()

    def answer(self):
        """Answers the start-up probe (DECRPM for 2026, then DA1, which ends it), then every
        DA1 as it is read, as a terminal answers once it has parsed the bytes before it (the
        app's parse pacing, D-078, times its frames by them)."""
        start = max(0, self.scanned - len(DA1) + 1)
        count = self.stream.count(DA1, start)
        self.scanned = len(self.stream)
        for _ in range(count):
            os.write(self.fd, (b"\x1b[?2026;2$y" if self.answered == 0 else b"") + b"\x1b[?62;22c")
            self.answered += 1

    def reap(self, block=False):
        if self.exited is not None:
            return
        pid, status = os.waitpid(self.pid, 0 if block else os.WNOHANG)
        if pid:
            self.exited = time.monotonic()
            self.status = status

    def send(self, data):
        os.write(self.fd, data)

    def quiet_for(self, seconds, limit):
        """Pumps until nothing arrived for `seconds` (or `limit` passed); True if quiet."""
        end = time.monotonic() + limit
        while time.monotonic() < end:
            size = len(self.stream)
            self.pump(seconds)
            if len(self.stream) == size:
                return True
        return False

    def time_at(self, offset):
        """When the byte at `offset` was read."""
        for end, when in self.times:
            if end > offset:
                return when
        return None

    def close(self):
        if self.exited is None:
            try:
                os.kill(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.reap(block=True)
        os.close(self.fd)


def percentile(values, p):
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(round(p / 100 * len(ordered) + 0.5)) - 1))]


def frames_whole(stream):
    """(frames, whole): every ?2026h is closed by ?2026l before the next one opens."""
    frames, position, whole = 0, 0, True
    while True:
        begin = stream.find(SYNC_BEGIN, position)
        if begin < 0:
            return frames, whole
        end = stream.find(SYNC_END, begin)
        following = stream.find(SYNC_BEGIN, begin + 1)
        if end < 0 or (0 <= following < end):
            return frames, False
        frames += 1
        position = end


def sixel_images(stream):
    """(images, bytes): sixel strings (DCS … q … ST) in the stream, and their bytes: what a
    terminal parses as pictures, each image at a fixed cost besides its bytes (D-077)."""
    images = total = position = 0
    while True:
        begin = stream.find(b"\x1bP", position)
        if begin < 0:
            return images, total
        end = stream.find(b"\x1b\\", begin)
        if end < 0:
            return images, total
        if b"q" in stream[begin:min(end, begin + 16)]:
            images += 1
            total += end + 2 - begin
        position = end + 2


def fling(app, rate, seconds, seed):
    link = Link(app + ["--scenario", "fling", "--duration", str(seconds), "--seed", str(seed), "--report", "json"], rate)
    link.pump(seconds + 30)
    while link.exited is None and time.monotonic():
        link.pump(1)
    text = bytes(link.stream).decode("utf-8", "replace")
    frames, whole = frames_whole(bytes(link.stream))
    images, image_bytes = sixel_images(bytes(link.stream))
    link.close()
    found = re.findall(r"\{\"refresh_rate_hz\".*\}", text)
    if not found:
        return {"error": "no report", "tail": text[-300:]}
    report = json.loads(found[-1])
    keep = ["frames", "hitches", "hitches_by_kind", "hitch_ratio_ms_per_s", "hitch_time_by_kind_ms", "commit_ms", "terminal",
            "bytes_per_frame", "placeholder_cell_frames_pct"]
    result = {key: report.get(key) for key in keep}
    result.update({"frames_received": frames, "frames_whole": whole, "exit_status": link.status,
                   "sixel_images": images, "sixel_bytes": image_bytes})
    return result


def keys(app, rate, count):
    link = Link(app + ["--hud", "off"], rate)
    result = {"latencies_ms": [], "bounds_ms": []}
    try:
        if not link.quiet_for(0.3, 60):
            return {"error": "never quiet after start"}
        period = 1 / 120 if "120" in " ".join(app) else 1 / 60
        for _ in range(count):
            start_offset = len(link.stream)
            sent = time.monotonic()
            # As a terminal sends Down: ESC O B once the app asked for application cursor keys.
            link.send(b"\x1bOB" if b"\x1b[?1h" in link.stream else b"\x1b[B")
            link.quiet_for(0.3, 30)
            begin = link.stream.find(SYNC_BEGIN, start_offset)
            end = link.stream.find(SYNC_END, begin) if begin >= 0 else -1
            if end < 0:
                continue
            arrived = link.time_at(end + len(SYNC_END) - 1)
            size = end + len(SYNC_END) - begin
            result["latencies_ms"].append((arrived - sent) * 1000)
            transfer = size / rate if rate else 0
            result["bounds_ms"].append((transfer + 2 * period) * 1000)
        sent = time.monotonic()
        link.send(b"q")
        while link.exited is None and time.monotonic() - sent < 20:
            link.pump(0.05)
        result["quit_ms"] = (link.exited - sent) * 1000 if link.exited else None
    finally:
        link.close()
    lat, bounds = result.pop("latencies_ms"), result.pop("bounds_ms")
    within = sum(1 for l, b in zip(lat, bounds) if l <= b)
    result.update({
        "keys": len(lat),
        "latency_ms": {"p50": percentile(lat, 50), "p95": percentile(lat, 95), "max": max(lat) if lat else None},
        "bound_ms": {"p50": percentile(bounds, 50), "p95": percentile(bounds, 95)},
        "within_bound_pct": 100 * within / len(lat) if lat else None,
    })
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rate", type=int, default=100_000, help="bytes a second the link carries (0: unthrottled)")
    parser.add_argument("--seconds", type=float, default=6)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keys", type=int, default=10)
    parser.add_argument("--skip", choices=["fling", "keys"], help="leave one run out")
    parser.add_argument("app", nargs="+")
    args = parser.parse_args()
    out = {"rate": args.rate, "seed": args.seed}
    if args.skip != "fling":
        out["fling"] = fling(args.app, args.rate, args.seconds, args.seed)
    if args.skip != "keys":
        out["keys"] = keys(args.app, args.rate, args.keys)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
