#!/usr/bin/env python3
"""Runs one headless scenario of the release binary over several seeds and prints, for
each figure, the median and the worst seed (never the best), with the machine it ran on.

    scripts/seeds.py --seeds 5 -- --scenario fling --posts 10000 --refresh-rate 120
    scripts/seeds.py --seeds 5 --busy 2 -- --scenario fling ...   # with `yes` per core

Everything after `--` is passed to `destinations`.
"""
import argparse, json, os, platform, statistics, subprocess, sys
import tempfile

# Runs keep their likes and place apart from the person's, and start fresh (issue 26).
os.environ["XDG_STATE_HOME"] = tempfile.mkdtemp(prefix="destinations-state-")

FIGURES = [  # (json path, label, worst is the larger value)
    ("hitches", "hitches", True),
    ("hitch_ratio_ms_per_s", "hitch ratio ms/s", True),
    ("commit_ms.p50", "commit p50 ms", True),
    ("commit_ms.p99", "commit p99 ms", True),
    ("commit_ms.max", "commit max ms", True),
    ("placeholder_cell_frames_pct", "placeholders % cell-frames", True),
    ("bytes_per_scroll_frame", "bytes / scrolling frame", True),
    ("scroll_bytes_ratio", "scroll bytes / exposed rows", True),
    ("minor_faults_per_frame", "minor faults / frame", True),
    ("idle_cpu_pct", "idle CPU % of a core", True),
    ("idle_bytes", "idle bytes", True),
    ("first_frame_ms", "first frame ms", True),
    ("peak_rss_mb", "peak RSS MB", True),
    ("filter_latency_ms.p50", "filter key to result p50 ms", True),
    ("filter_latency_ms.p95", "filter key to result p95 ms", True),
    ("filter_latency_ms.max", "filter key to result max ms", True),
    ("thumbnails_prepared", "thumbnails prepared", False),
]


def get(report, path):
    value = report
    for part in path.split("."):
        if not isinstance(value, dict) or part not in value:
            return None
        value = value[part]
    return value


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--busy", type=int, default=0, help="start this many `yes > /dev/null` beside each run")
    parser.add_argument("--binary", default=".build/release/destinations")
    parser.add_argument("--json", action="store_true", help="print each run's report too")
    parser.add_argument("args", nargs=argparse.REMAINDER)
    options = parser.parse_args()
    args = [a for a in options.args if a != "--"]
    reports = []
    for seed in range(options.first_seed, options.first_seed + options.seeds):
        busy = [subprocess.Popen(["yes"], stdout=subprocess.DEVNULL) for _ in range(options.busy)]
        try:
            out = subprocess.run([options.binary, *args, "--seed", str(seed), "--report", "json"],
                                 capture_output=True, text=True, timeout=600)
        finally:
            for process in busy:
                process.kill()
        if out.returncode != 0:
            sys.exit(f"seed {seed}: exit {out.returncode}: {out.stderr.strip()}")
        report = json.loads(out.stdout.strip().splitlines()[-1])
        reports.append(report)
        if options.json:
            print(json.dumps(report))
    print(f"{cpu_model()}, {os.cpu_count()} cores; {len(reports)} seeds from {options.first_seed}; "
          f"{options.busy} busy loops; destinations {' '.join(args)}")
    for path, label, larger_is_worse in FIGURES:
        values = [get(r, path) for r in reports]
        if any(v is None for v in values):
            continue
        worst = max(values) if larger_is_worse else min(values)
        print(f"  {label:30} median {statistics.median(values):10.3f}   worst {worst:10.3f}   all {', '.join(f'{v:g}' for v in values)}")


if __name__ == "__main__":
    main()
