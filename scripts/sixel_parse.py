#!/usr/bin/env python3
"""How long a real xterm takes to draw a page of sixel thumbnails, per encoder (issue 46).

    .build/release/destinations-bench sixel --dump /tmp/page      # writes /tmp/page-*.six
    python3 scripts/sixel_parse.py /tmp/page-*.six [--runs 7] [--command "timg=timg -ps --grid=5x4 …"]

`xterm -ti vt340` (160x48, under Xvfb) runs this script again inside it (`--inside`): for
each page, `--runs` times, the screen is cleared, the page written, and a Primary Device
Attributes request (`CSI c`) sent after it; xterm answers only once it has parsed every
byte before it, so the time from the first byte to the answer is the time xterm took to
take the page. Printed per page: its bytes, median and worst milliseconds, and the rate
(MB/s at the median). Pages of every encoder go through the same xterm in one run, in
turn, so that they are compared on the same machine at the same moment. A `--command` is a
program a person would use instead (timg, chafa), timed from its start (its decoding and
scaling included) until xterm has parsed what it wrote.
"""
import argparse
import json
import os
import select
import shlex
import statistics
import subprocess
import sys
import tempfile
import termios
import time
import tty

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def inside(pages, runs, result, commands=()):
    """Runs in xterm: times every page `runs` times, and every command (NAME=COMMAND LINE,
    its output to the terminal, from its start until xterm has parsed all of it); writes
    {page or NAME: [ms, …]} to `result`."""
    fd = os.open("/dev/tty", os.O_RDWR)
    saved = termios.tcgetattr(fd)
    tty.setraw(fd)
    times = {}
    try:
        for page in pages:
            data = open(page, "rb").read()
            times[page] = []
            for _ in range(runs):
                os.write(fd, b"\x1b[H\x1b[2J\x1b[c")
                if not answer(fd):  # the clear has been taken before the clock starts
                    times[page].append(None)
                    continue
                started = time.monotonic()
                view = memoryview(data)
                while view:
                    view = view[os.write(fd, view):]
                os.write(fd, b"\x1b[c")
                if not answer(fd):
                    times[page].append(None)
                    continue
                times[page].append((time.monotonic() - started) * 1000)
        for command in commands:
            name, line = command.split("=", 1)
            times[name] = []
            for _ in range(runs):
                os.write(fd, b"\x1b[H\x1b[2J\x1b[c")
                if not answer(fd):
                    times[name].append(None)
                    continue
                started = time.monotonic()
                subprocess.run(["sh", "-c", line], stdin=subprocess.DEVNULL, stdout=fd, stderr=subprocess.DEVNULL)
                os.write(fd, b"\x1b[c")
                times[name].append((time.monotonic() - started) * 1000 if answer(fd) else None)
    finally:
        termios.tcsetattr(fd, termios.TCSANOW, saved)
        with open(result + ".part", "w") as out:
            json.dump(times, out)
        os.rename(result + ".part", result)


def answer(fd, timeout=30):
    """Reads xterm's answer to the last `CSI c` (up to its final `c`); False after `timeout` s."""
    seen = b""
    deadline = time.monotonic() + timeout
    while not seen.endswith(b"c"):
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([fd], [], [], left)[0]:
            return False
        seen += os.read(fd, 64)
    return True


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("pages", nargs="*")
    parser.add_argument("--command", action="append", default=[], metavar="NAME=COMMAND",
                        help="also time a program drawing in the same xterm (e.g. \"timg=timg -ps --grid=5x4 …\"): "
                             "from its start until xterm has parsed its output; its bytes counted on a pseudo-terminal of the same size")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--inside", metavar="RESULT", help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.inside:
        inside(options.pages, options.runs, options.inside, options.command)
        return
    import xvfb
    xvfb.require(["Xvfb", "xterm"], "sixel_parse", "xterm xvfb (make deps-e2e)")
    pages = [os.path.abspath(page) for page in options.pages]
    display, env = xvfb.start("1920x1080x24")
    try:
        with tempfile.TemporaryDirectory() as folder:
            result = os.path.join(folder, "times.json")
            extra = [part for command in options.command for part in ("--command", command)]
            command = " ".join(shlex.quote(part) for part in [sys.executable, os.path.abspath(__file__), "--runs", str(options.runs), "--inside", result, *extra, *pages])
            xterm = subprocess.Popen(["xterm", "-ti", "vt340", "-geometry", "160x48+0+0", "-e", "sh", "-c", command],
                                     env=dict(env, LC_ALL="C.UTF-8"), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            deadline = time.monotonic() + 60 + 30 * options.runs * (len(pages) + len(options.command))
            while not os.path.exists(result) and time.monotonic() < deadline and xterm.poll() is None:
                time.sleep(0.2)
            try:
                xterm.wait(timeout=30)
            except subprocess.TimeoutExpired:
                xterm.kill()
            if not os.path.exists(result):
                sys.exit("sixel_parse: xterm wrote no times")
            times = json.load(open(result))
    finally:
        display.terminate()
        display.wait(timeout=10)
    with open("/proc/cpuinfo") as cpu:
        model = next((line.split(":", 1)[1].strip() for line in cpu if line.startswith("model name")), "?")
    print(f"sixel_parse: xterm -ti vt340 160x48 under Xvfb, {options.runs} runs a page; {model}, {os.cpu_count()} cores")
    print(f"{'page':44} {'bytes':>9} {'median ms':>10} {'worst ms':>9} {'MB/s':>7}")
    rows = [(os.path.basename(page), page, os.path.getsize(page)) for page in pages]
    rows += [(command.split("=", 1)[0], command.split("=", 1)[0], output_bytes(command.split("=", 1)[1])) for command in options.command]
    for label, key, size in rows:
        runs = times.get(key, [])
        done = [value for value in runs if value is not None]
        if not done:
            print(f"{label:44} {size:9d}   no answer")
            continue
        median = statistics.median(done)
        lost = f"  ({len(runs) - len(done)} unanswered)" if len(done) < len(runs) else ""
        print(f"{label:44} {size:9d} {median:10.1f} {max(done):9.1f} {size / median / 1000:7.1f}{lost}")


def output_bytes(line):
    """What `line` writes to a terminal of xterm's size here (160x48 cells of 6x13 px)."""
    helper = os.path.join(os.path.dirname(os.path.abspath(__file__)), "on_a_pty.py")
    run = subprocess.run([sys.executable, helper, "160", "48", "6", "13", "sh", "-c", line], capture_output=True)
    return len(run.stdout)


if __name__ == "__main__":
    main()
