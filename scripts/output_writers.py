#!/usr/bin/env python3
"""The two ways to feed the terminal side by side (D-039): the frame loop's own non-blocking
writes and a writer thread, behind a pseudo-terminal read at 100 KB/s, 1 MB/s and
unthrottled (scripts/slowlink.py), 5 seeds each. Prints, per link and writer, the median and
the worst of the fling's commit p99 and max, its hitches, and the keys' latency against
their bound. Timings are reported, never asserted.

    python3 scripts/output_writers.py [--binary .build/release/destinations] [--seeds 5]
"""
import argparse
import json
import statistics
import subprocess
import os
import tempfile

# Runs keep their likes and place apart from the person's, and start fresh (issue 26).
os.environ["XDG_STATE_HOME"] = tempfile.mkdtemp(prefix="destinations-state-")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=".build/release/destinations")
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--rates", type=int, nargs="+", default=[100_000, 1_000_000, 0])
    options = parser.parse_args()
    for rate in options.rates:
        for writer in ["non-blocking", "thread"]:
            runs = []
            for seed in range(1, options.seeds + 1):
                out = subprocess.run(["python3", "scripts/slowlink.py", "--rate", str(rate), "--seconds", "6", "--seed", str(seed),
                                      "--keys", "8", "--", options.binary, "--refresh-rate", "120", "--graphics", "symbols",
                                      "--output-writer", writer], capture_output=True, text=True, timeout=300).stdout
                runs.append(json.loads(out))

            def figure(read):
                values = [v for v in (read(run) for run in runs) if v is not None]
                return [round(statistics.median(values), 2), round(max(values), 2)] if values else None

            row = {
                "commit_p99": figure(lambda r: r["fling"]["commit_ms"]["p99"]),
                "commit_max": figure(lambda r: r["fling"]["commit_ms"]["max"]),
                "commit_hitches": figure(lambda r: r["fling"]["hitches_by_kind"]["commit"]),
                "terminal_hitches": figure(lambda r: r["fling"]["hitches_by_kind"]["terminal"]),
                "coalesced": figure(lambda r: r["fling"]["terminal"]["coalesced_frames"]),
                "key_p95": figure(lambda r: r["keys"]["latency_ms"]["p95"]),
                "bound_p95": figure(lambda r: r["keys"]["bound_ms"]["p95"]),
                "within_bound_pct": figure(lambda r: r["keys"]["within_bound_pct"]),
                "quit_ms": figure(lambda r: r["keys"]["quit_ms"]),
                "frames_whole": all(r["fling"]["frames_whole"] for r in runs),
            }
            print(json.dumps({"link_bytes_per_s": rate, "writer": writer, "median_worst": row}), flush=True)


if __name__ == "__main__":
    main()
