#!/usr/bin/env python3
"""Issue 43's targets against a hostile server (scripts/hostile_feed.py), headless.

  memory   the app flings a timeline of PNG bombs and endless bodies for --duration
           seconds: peak resident memory (target < 300 MB), hitches, commit p99 and max
  text     titles of 10,000 combining marks and ZWJ chains: every frame's commit (target:
           commit max < 16.7 ms) and hitches
  storm    the first page is served, then everything answers 500 (or 429 with
           Retry-After): requests the server received, in all and in the busiest second,
           over --duration seconds (target: never above the per-origin bound)

Each case runs --runs times (seeds 1..N) and prints every run, then the median and the
worst. Usage: hostile_bench.py APP [--case memory|text|storm|all] [--runs 5] [--duration 20]
[--stress 2]
"""
import argparse
import json
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent


class HostileFeed:
    def __init__(self, *arguments):
        self.process = subprocess.Popen([sys.executable, str(HERE / "hostile_feed.py"), *arguments], stdout=subprocess.PIPE, text=True)
        line = self.process.stdout.readline().strip()
        if not line.startswith("hostile_feed: "):
            raise SystemExit(f"hostile_bench: the server did not start: {line!r}")
        self.timeline = line.split(" ", 1)[1]
        self.base = self.timeline.split("/api/")[0]

    def stats(self):
        with urllib.request.urlopen(self.base + "/_stats", timeout=10) as answer:
            return json.load(answer)

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.process.terminate()
        self.process.wait(timeout=10)


STRESS = 0


def run_app(app, timeline, seed, duration, scenario="fling"):
    command = [app, "--feed", timeline, "--scenario", scenario, "--duration", str(duration), "--refresh-rate", "120",
               "--seed", str(seed), "--report", "json", "--stress", str(STRESS)]
    result = subprocess.run(command, capture_output=True, text=True, timeout=duration + 120)
    if result.returncode != 0:
        raise SystemExit(f"hostile_bench: {' '.join(command)} exited {result.returncode}: {result.stderr[-2000:]}")
    return json.loads(result.stdout)


def summary(label, values, unit, lower_is_better=True):
    worst = max(values) if lower_is_better else min(values)
    print(f"  {label}: median {statistics.median(values):.2f} {unit}, worst {worst:.2f} {unit} ({', '.join(f'{v:.2f}' for v in values)})")


def flings(app, mix, runs, duration):
    """The fling over a --mix server, seeds 1..runs: each run's report, each printed."""
    reports = []
    for seed in range(1, runs + 1):
        with HostileFeed("--mix", mix) as feed:
            report = run_app(app, feed.timeline, seed, duration)
        reports.append(report)
        print(f"  seed {seed}: {report['frames']} frames, peak RSS {report['peak_rss_mb']} MB, hitches {report['hitches']}, "
              f"commit p99 {report['commit_ms']['p99']} ms, max {report['commit_ms']['max']} ms")
    return reports


def memory(app, runs, duration):
    print(f"memory: PNG bombs (100 and 23 megapixels) and endless bodies, fling {duration} s at 120 Hz")
    reports = flings(app, "all", runs, duration)
    summary("peak RSS", [r["peak_rss_mb"] for r in reports], "MB")
    summary("commit p99", [r["commit_ms"]["p99"] for r in reports], "ms")
    summary("hitches", [r["hitches"] for r in reports], "")


def text(app, runs, duration):
    print(f"text: titles of 10,000 combining marks and 2,000-emoji ZWJ chains, fling {duration} s at 120 Hz")
    reports = flings(app, "zalgo", runs, duration)
    summary("commit max", [r["commit_ms"]["max"] for r in reports], "ms")
    summary("commit p99", [r["commit_ms"]["p99"] for r in reports], "ms")
    summary("hitches", [r["hitches"] for r in reports], "")


def storm(app, runs, duration, retry_after=None):
    extra = ["--retry-after", str(retry_after)] if retry_after is not None else []
    what = f"429 with Retry-After {retry_after}" if retry_after is not None else "500"
    print(f"storm: first page served, then every request answered {what}; scenario end (G, paging on), {duration} s")
    totals, busiest = [], []
    for seed in range(1, runs + 1):
        with HostileFeed("--mix", "zalgo", "--fail-after-first", *extra) as feed:
            run_app(app, feed.timeline, seed, duration, scenario="end")
            time.sleep(0.2)
            stats = feed.stats()
        per_second = [int(count) for count in stats["by_second"].values()]
        totals.append(sum(per_second))
        busiest.append(max(per_second))
        print(f"  seed {seed}: {sum(per_second)} requests ({stats['by_kind']}), busiest second {max(per_second)}")
    summary("requests in all", totals, "")
    summary("busiest second", busiest, "")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("app")
    parser.add_argument("--case", choices=["memory", "text", "storm", "all"], default="all")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--duration", type=float, default=20)
    parser.add_argument("--stress", type=int, default=0, help="busy threads inside the app (its --stress): the cores busy")
    options = parser.parse_args()
    global STRESS
    STRESS = options.stress
    cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")), "?")
    print(f"hostile_bench: {cpu}, {len([l for l in open('/proc/cpuinfo') if l.startswith('processor')])} cores, --stress {options.stress}")
    if options.case in ("memory", "all"):
        memory(options.app, options.runs, options.duration)
    if options.case in ("text", "all"):
        text(options.app, options.runs, options.duration)
    if options.case in ("storm", "all"):
        storm(options.app, options.runs, options.duration)
        storm(options.app, options.runs, options.duration, retry_after=120)


if __name__ == "__main__":
    main()
