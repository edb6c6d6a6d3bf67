#!/usr/bin/env python3
"""The fling over a feed, measured: issue 25's targets over several seeds.

    scripts/feed_bench.py [--runs 5] [--posts 10000] [--latency 80] [--bandwidth 20000] [--stress 0] [--tls] [--server-args "--shapes fediverse"]

Each run starts destinations-feed (release) on a free loopback port with the previews made
beforehand (kept in .build/feed-previews; the first run of a new size makes them all, which
takes minutes), then flings the app over it headless at 120 Hz, 160x48, for 6 s. Prints each
run and the median (worst) of: the first frame (process start to the first frame presented),
hitches, commit p99, placeholders, time to image p95 (from each
ask) and its parts, how many hitches were late commits whose own work would have fit (the
thread waited for a core: FrameRecord.isHitchFromWaiting), what a person waited (visible_time_to_image p95), transfers, bytes after
a cancel per cancelled transfer, and the server's count of transfers of one URL at the same
time, both sent whole (duplicates; an overlap whose first body the client had abandoned is
counted apart: asked again while the server still sent the cancelled one). `--tls`: the server speaks HTTPS with
HTTP/2 under a certificate made for the run (openssl), which the app is told to trust.
`--beside-simulated`: after each seed's feed run, the same fling (posts, seed, stress,
duration, app arguments) over the simulated network, no server: the baseline issue 25's
targets name ("what the simulated source gives today"), measured in the same session and
alternated with the feed seed by seed; its hitches, commit and placeholders are printed
beside the feed's.
"""
import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys

from feedserver import FeedServer
import tempfile

# Runs keep their likes and place apart from the person's, and start fresh (issue 26).
os.environ["XDG_STATE_HOME"] = tempfile.mkdtemp(prefix="destinations-state-")

SERVER, APP = ".build/release/destinations-feed", ".build/release/destinations"
PREVIEWS = ".build/feed-previews"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--first-seed", type=int, default=1, help="seeds first-seed … first-seed + runs - 1 (to alternate two builds or settings seed by seed)")
    parser.add_argument("--posts", type=int, default=10000)
    parser.add_argument("--latency", type=int, default=80)
    parser.add_argument("--bandwidth", type=int, default=20000)
    parser.add_argument("--stress", type=int, default=0)
    parser.add_argument("--duration", type=float, default=6)
    parser.add_argument("--app", default=APP, help="the app binary (another build, to compare)")
    parser.add_argument("--tls", action="store_true", help="HTTPS with HTTP/2 (a certificate made for the run)")
    parser.add_argument("--beside-simulated", action="store_true", help="each seed also flings the simulated network (no server), for comparison")
    parser.add_argument("--server-args", default="", help="more arguments for destinations-feed, e.g. \"--shapes fediverse\" (warned, filtered, galleries, GIFs, boosts)")
    parser.add_argument("--app-args", default="", help="more arguments for the app, e.g. \"--frame-slice-us 0\" (the kernel's default slice)")
    options = parser.parse_args()
    tls_server, tls_app = [], []
    if options.tls:
        folder = tempfile.mkdtemp(prefix="feed-bench-tls-")
        certificate, key = os.path.join(folder, "cert.pem"), os.path.join(folder, "key.pem")
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate, "-days", "1",
                        "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"], check=True, capture_output=True)
        tls_server, tls_app = ["--tls-cert", certificate, "--tls-key", key], ["--trust-certificate", certificate]
    os.makedirs(PREVIEWS, exist_ok=True)
    made = sum(1 for name in os.listdir(PREVIEWS) if name.endswith(".jpg"))
    if made < options.posts:
        print(f"feed_bench: making {options.posts} previews first (once; kept in {PREVIEWS})", flush=True)
        with FeedServer(SERVER, "--posts", str(options.posts), "--prepare-previews", preview_folder=PREVIEWS):
            pass
    rows = []
    for seed in range(options.first_seed, options.first_seed + options.runs):
        server_args = ["--posts", str(options.posts), "--latency", str(options.latency), "--bandwidth", str(options.bandwidth), "--seed", str(seed)] + tls_server + shlex.split(options.server_args)
        with FeedServer(SERVER, *server_args, preview_folder=PREVIEWS) as feed:
            run = subprocess.run([options.app, "--feed", feed.timeline, *tls_app, "--scenario", "fling", "--duration", str(options.duration), "--refresh-rate", "120",
                                  "--seed", str(seed), "--stress", str(options.stress), "--report", "json", *shlex.split(options.app_args)],
                                 capture_output=True, text=True, env=dict(os.environ, COLUMNS="160", LINES="48"))
            if run.returncode != 0:
                sys.exit(f"feed_bench: seed {seed} exited {run.returncode}: {run.stderr[-2000:]}")
            report, stats = json.loads(run.stdout), feed.stats()
        network = report["network"]
        cancelled = network["cancelled_in_flight"]
        row = {
            "first_frame_ms": report["first_frame_ms"], "hitches": report["hitches"], "hitches_from_waiting": report["hitches_by_kind"]["commit_from_waiting"], "commit_p50_ms": report["commit_ms"]["p50"], "commit_p99_ms": report["commit_ms"]["p99"],
            "placeholders_pct": report["placeholder_cell_frames_pct"],
            "time_to_image_p95_ms": (network["time_to_image_ms"] or {}).get("p95", 0),
            "visible_time_to_image_p95_ms": (network["visible_time_to_image_ms"] or {}).get("p95", 0),
            "queue_p95_ms": (network["queue_wait_ms"] or {}).get("p95", 0),
            "transfer_p95_ms": (network["transfer_ms"] or {}).get("p95", 0),
            "prepare_p95_ms": (network["prepare_ms"] or {}).get("p95", 0),
            "transfers": network["transfers"], "pages": network["pages"],
            "bytes_after_cancel_per_cancel": network["bytes_after_cancel"] / cancelled if cancelled else 0,
            "image_bytes_never_shown_pct": 100 * network["image_bytes_never_shown"] / network["image_bytes"] if network["image_bytes"] else 0,
            "duplicates": stats["duplicateTransfers"],
            "asked_again_while_cancelling": stats["overlappingSameURL"] - stats["duplicateTransfers"],
            "abandoned_at_server": stats["abandoned"],
        }
        if options.beside_simulated:
            simulated = subprocess.run([options.app, "--scenario", "fling", "--posts", str(options.posts), "--duration", str(options.duration), "--refresh-rate", "120",
                                        "--seed", str(seed), "--stress", str(options.stress), "--report", "json", *shlex.split(options.app_args)],
                                       capture_output=True, text=True, env=dict(os.environ, COLUMNS="160", LINES="48"))
            if simulated.returncode != 0:
                sys.exit(f"feed_bench: simulated seed {seed} exited {simulated.returncode}: {simulated.stderr[-2000:]}")
            baseline = json.loads(simulated.stdout)
            row["simulated_hitches"] = baseline["hitches"]
            row["simulated_hitches_from_waiting"] = baseline["hitches_by_kind"]["commit_from_waiting"]
            row["simulated_commit_p99_ms"] = baseline["commit_ms"]["p99"]
            row["simulated_placeholders_pct"] = baseline["placeholder_cell_frames_pct"]
        rows.append(row)
        print(f"seed {seed}: " + ", ".join(f"{k} {v:.2f}" if isinstance(v, float) else f"{k} {v}" for k, v in row.items()), flush=True)
    print(f"\nmedian (worst) over {len(rows)} runs, {options.posts} posts, latency {options.latency} ms, {options.bandwidth} KB/s, stress {options.stress}"
          f"{', HTTPS/2' if options.tls else ''}:")
    for key in rows[0]:
        values = [row[key] for row in rows]
        worst = min(values) if key in ("pages", "transfers") else max(values)
        print(f"  {key}: {statistics.median(values):.2f} ({worst:.2f})")
    print(f"  runs with a hitch: {sum(1 for row in rows if row['hitches'] > 0)} of {len(rows)}"
          + (f" (simulated network: {sum(1 for row in rows if row['simulated_hitches'] > 0)} of {len(rows)})" if options.beside_simulated else ""))


if __name__ == "__main__":
    main()
