#!/usr/bin/env python3
"""A long run over a feed (`make soak-feed SOAK_S=600`): the disk cache's cap and the likes.

destinations-feed serves 10,000 posts on loopback (20 ms latency, 5 % of requests failing);
the app browses it in tmux at 120 Hz with a 20 MiB disk cache while a seeded random driver
flings, pages, opens originals (the largest bodies), filters, sorts and likes; every
40-80 s the server is stopped for 3-8 s (offline: likes wait, kept copies show) and started
again on its port with the favourites it had (`--state`).

Every second it sums the body files in the cache folder and records the largest one; the
cap holds when the bodies never exceed it by more than one entry (issue 26's target: at
most one entry over at any sample — a body is renamed into place just before the entries it
displaces are evicted). At the end, with the server up, the outbox must empty, and the
server's favourites must be exactly the likes in the app's state database.

Prints one summary line; the CSV (t, bytes, entries, largest, over, rss) goes to
.build/feed-soak.csv.
"""
import argparse
import os
import random
import re
import sqlite3
import subprocess
import sys
import tempfile
import time

from feedserver import FeedServer
from soak import rss_mb

KEYS = ["j", "k", "l", "h", "J", "K", "J", "PageDown", "PageUp", "G", "g", "L", "L", "Enter", "BSpace", "s", "Down", "Up"]
WORDS = ["gr", "lake", "sea", "sky", "blo", "dune"]
CAP_MIB = 20


def tmux(*args):
    return subprocess.run(["tmux", "-L", "feed-soak"] + list(args), capture_output=True, text=True).stdout


def screen():
    return tmux("capture-pane", "-p", "-t", "soak")


def header():
    text = screen()
    return text.splitlines()[0] if text.strip() else ""


def wait_for(predicate, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.2)
    return False


def cache_sample(folder):
    """The bodies on disk now: total bytes, how many, the largest."""
    total, count, largest = 0, 0, 0
    try:
        names = os.listdir(folder)
    except FileNotFoundError:
        return 0, 0, 0
    for name in names:
        if not name.endswith(".body"):
            continue
        try:
            size = os.path.getsize(os.path.join(folder, name))
        except FileNotFoundError:
            continue  # evicted while listed
        total += size
        count += 1
        largest = max(largest, size)
    return total, count, largest


def app_pid():
    pane = tmux("display-message", "-p", "-t", "soak", "#{pane_pid}").strip()
    children = subprocess.run(["pgrep", "-P", pane], capture_output=True, text=True).stdout.split()
    return int(children[0]) if children else None


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=int, default=600)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--binary", default=".build/release/destinations")
    parser.add_argument("--server", default=".build/release/destinations-feed")
    parser.add_argument("--csv", default=".build/feed-soak.csv")
    options = parser.parse_args()
    rng = random.Random(options.seed)
    binary, server_binary = os.path.abspath(options.binary), os.path.abspath(options.server)
    scratch = tempfile.mkdtemp(prefix="feed-soak-")
    journal = os.path.join(scratch, "server.jsonl")
    cache_folder = os.path.join(scratch, "cache", "destinations", "http")
    state_db = os.path.join(scratch, "state", "destinations", "state.sqlite")
    server_args = ["--posts", "10000", "--latency", "20", "--fail-rate", "0.05", "--state", journal, "--seed", str(options.seed)]
    cap = CAP_MIB << 20
    server = FeedServer(server_binary, *server_args).__enter__()
    port, timeline = server.port, server.timeline
    started = time.time()
    samples, worst_over, worst_entries_over, keys, outages = 0, 0, 0, 0, 0
    rss_first, rss_last, failure = None, None, None
    csv = open(options.csv, "w")
    csv.write("t_s,bytes,entries,largest,over_cap_bytes,rss_mb,server\n")
    tmux("kill-server")
    tmux("new-session", "-d", "-s", "soak", "-x", "160", "-y", "48",
         f"env TERM=xterm-256color XDG_CACHE_HOME={scratch}/cache XDG_STATE_HOME={scratch}/state "
         f"{binary} --feed {timeline} --refresh-rate 120 --disk-cache-mb {CAP_MIB}; echo EXIT=$?; sleep 600")
    try:
        if not wait_for(lambda: "♥" in screen(), 60):
            raise SystemExit(f"feed_soak: FAIL: no first screen:\n{screen()}")
        pid = app_pid()
        end = started + options.seconds
        next_sample, next_outage, outage_end = time.time(), time.time() + rng.uniform(40, 80), None
        while time.time() < end:
            now = time.time()
            if pid is None or not os.path.exists(f"/proc/{pid}"):
                failure = "the app died:\n" + screen()[-1500:]
                break
            if now >= next_sample:
                total, count, largest = cache_sample(cache_folder)
                over = max(0, total - cap)
                # More than one entry over: over the cap by more than the largest body.
                if over > largest:
                    worst_entries_over += 1
                worst_over = max(worst_over, over)
                rss = rss_mb(pid)
                rss_first = rss_first or (rss if now - started > 60 else None)
                rss_last = rss
                csv.write(f"{now - started:.1f},{total},{count},{largest},{over},{rss or ''},{'down' if server is None else 'up'}\n")
                samples += 1
                next_sample += 1
            if server is not None and now >= next_outage:
                server.__exit__(None, None, None)
                server = None
                outages += 1
                outage_end = now + rng.uniform(3, 8)
            if server is None and now >= outage_end:
                server = FeedServer(server_binary, *server_args, port=port).__enter__()
                next_outage = now + rng.uniform(40, 80)
            roll = rng.random()
            if roll < 0.05:
                word = rng.choice(WORDS)
                # Esc while typing clears the filter (outside a filter it would quit); Enter keeps the new one.
                tmux("send-keys", "-t", "soak", "/", "Escape", "/", *list(word), "Enter")
                keys += len(word) + 2
            else:
                tmux("send-keys", "-t", "soak", rng.choice(KEYS))
                keys += 1
            time.sleep(rng.uniform(0.05, 0.3))
        if failure is None:
            if server is None:
                server = FeedServer(server_binary, *server_args, port=port).__enter__()
            tmux("send-keys", "-t", "soak", "BSpace")
            if not wait_for(lambda: "to send" not in header(), 120):
                failure = f"the outbox did not empty with the server up: {header()}"
        tmux("send-keys", "-t", "soak", "q")
        if failure is None and not wait_for(lambda: "EXIT=0" in screen(), 30):
            failure = "q did not end the app with status 0:\n" + screen()[-800:]
        made = set()
        if failure is None:
            with sqlite3.connect(state_db) as db:
                made = {int(post) for (post,) in db.execute('SELECT post FROM "like" WHERE scope = ? AND liked', (timeline,))}
                waiting = db.execute("SELECT COUNT(*) FROM outbox").fetchone()[0]
            held = set(server.favourites())
            if waiting or held != made:
                failure = f"the server holds {sorted(held)}, the person made {sorted(made)} ({waiting} still in the outbox)"
        summary = screen()
        likes = re.search(r"likes: (\d+) made, (\d+) sent, (\d+) rolled back", summary.replace("\n", " "))
    finally:
        tmux("kill-server")
        if server is not None:
            server.__exit__(None, None, None)
        csv.close()
    passed = failure is None and worst_entries_over == 0
    print(f"feed_soak: {'PASS' if passed else 'FAIL'}: {time.time() - started:.0f} s, seed {options.seed}, 10,000-post feed, "
          f"{CAP_MIB} MiB disk cache: {samples} samples, never more than one entry over the cap "
          f"({'held' if worst_entries_over == 0 else f'{worst_entries_over} samples over'}; most over {worst_over >> 10} KiB); "
          f"{keys} keys, {outages} server outages; {likes.group(0) if likes else 'likes: ?'}, the server holds the {len(made)} "
          f"the person has; RSS {rss_first or 0:.1f} MB after a minute -> {rss_last or 0:.1f} MB at the end; CSV {options.csv}"
          + ("" if failure is None else f"\nfeed_soak: {failure}"))
    sys.exit(0 if passed else 1)


if __name__ == "__main__":
    main()
