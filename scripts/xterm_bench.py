#!/usr/bin/env python3
"""The fling in a real terminal: xterm -ti vt340 (or Debian's kitty) under Xvfb, the app's own
report read back.

    scripts/xterm_bench.py .build/release/destinations --seeds 5 --graphics sixel symbols --rates 60 120 [--stress 2]
    scripts/xterm_bench.py .build/release/destinations --terminal kitty --graphics kitty-placement symbols

For each graphics mode, refresh rate and seed, starts xterm (160x48, VT340: sixel) or kitty
(160x48 cells, software OpenGL, 24-bit colour) running
`destinations --scenario fling --duration S --report json --report-file F` (or `--scenario
browse` or `skim`, whose rests after each page or fling give `settle_ms`: the screen stopped
moving → every visible thumbnail whole on the screen) and waits for it to end; xterm is the
terminal in the loop (it reads, parses and draws every byte; under Xvfb with no GPU,
slowly), so terminal hitches and coalesced frames are real. Prints one JSON line
per run, then the median and the worst of each figure per configuration. Timings are
reported, never asserted (BENCHMARKS.md records them with the machine).
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import xvfb

# Runs keep their likes and place apart from the person's, and start fresh (issue 26).
os.environ["XDG_STATE_HOME"] = tempfile.mkdtemp(prefix="destinations-state-")

def terminal_command(terminal, args, resources=()):
    """The command line that runs `args` in a 160x48 window of `terminal` (xterm with the X
    resources `resources`, each "name: value", e.g. "*multiScroll: true")."""
    if terminal == "kitty":
        return ["kitty", "--config", "NONE", "-o", "initial_window_width=160c", "-o", "initial_window_height=48c",
                "-o", "placement_strategy=top-left", "-o", "window_padding_width=0"] + args
    return ["xterm", "-ti", "vt340", "-geometry", "160x48+0+0"] + [arg for r in resources for arg in ("-xrm", r)] + ["-e"] + args


def run_one(env, binary, graphics, rate, seed, seconds, stress, home, scenario, terminal="xterm", extra=(), resources=()):
    report = os.path.join(home, f"report-{graphics}-{rate}-{seed}.json")
    args = [binary, "--scenario", scenario, "--duration", str(seconds), "--refresh-rate", str(rate), "--graphics", graphics,
            "--seed", str(seed), "--report", "json", "--report-file", report]
    if stress:
        args += ["--stress", str(stress)]
    args += list(extra)
    child_env = dict(env, HOME=home)
    child_env.pop("COLORTERM", None)
    if terminal == "kitty":
        child_env.update(COLORTERM="truecolor", LIBGL_ALWAYS_SOFTWARE="1")
    xterm = subprocess.Popen(terminal_command(terminal, args, resources), env=child_env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        xterm.wait(timeout=seconds + 60)
    except subprocess.TimeoutExpired:
        xterm.kill()
        return {"error": "timed out"}
    try:
        with open(report) as file:
            data = json.load(file)
    except (OSError, ValueError) as error:
        return {"error": f"no report: {error}"}
    return {
        "graphics": graphics, "rate": rate, "seed": seed,
        "hitch_ratio": data["hitch_ratio_ms_per_s"], "commit_hitches": data["hitches_by_kind"]["commit"], "commit_from_waiting": data["hitches_by_kind"]["commit_from_waiting"],
        "terminal_hitches": data["hitches_by_kind"]["terminal"], "behind": data["terminal"]["behind_frames"],
        "coalesced": data["terminal"]["coalesced_frames"], "drain_p50": data["terminal"]["drain_bytes_per_s"]["p50"],
        "parse_p50": (data["terminal"].get("parse_round_trip_ms") or {}).get("p50"),
        "parse_max": (data["terminal"].get("parse_round_trip_ms") or {}).get("max"),
        "parse_answers": (data["terminal"].get("parse_round_trip_ms") or {}).get("answered"),
        "image_price": (data["terminal"].get("parse_round_trip_ms") or {}).get("image_price_bytes"),
        "batches_fitted": (data["terminal"].get("parse_round_trip_ms") or {}).get("batches_fitted"),
        "fitted_price": (data["terminal"].get("parse_round_trip_ms") or {}).get("fitted_price_bytes"),
        "fitted_error": (data["terminal"].get("parse_round_trip_ms") or {}).get("fitted_price_error_bytes"),
        "p99": data["commit_ms"]["p99"], "max": data["commit_ms"]["max"], "frames": data["frames"],
        "bytes_per_frame": data["bytes_per_frame"], "placeholders": data["placeholder_cell_frames_pct"],
        "whole_images": (data["terminal"].get("pixel_images") or {}).get("whole"),
        "terminal_busy_frames": data.get("terminal_busy_frames"),
        "strip_images": (data["terminal"].get("pixel_images") or {}).get("strips"),
        "settle_p50": (data.get("settle_ms") or {}).get("p50"), "settle_max": (data.get("settle_ms") or {}).get("max"),
        "rests": (data.get("settle_ms") or {}).get("rests"),
        "interrupted": (data.get("settle_ms") or {}).get("interrupted"),
    }


def summary(runs, key):
    values = [r[key] for r in runs if r.get(key) is not None]
    if not values:
        return None
    return {"median": statistics.median(values), "worst": max(values) if key != "drain_p50" else min(values)}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binary")
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--graphics", nargs="+", default=["sixel", "symbols"])
    parser.add_argument("--rates", nargs="+", type=int, default=[60, 120])
    parser.add_argument("--seconds", type=float, default=6)
    parser.add_argument("--stress", type=int, default=0)
    parser.add_argument("--terminal", choices=["xterm", "kitty"], default="xterm")
    parser.add_argument("--scenario", default="fling", help="fling (hitches), or browse / skim (a rest after each page / fling: settle_ms)")
    parser.add_argument("--app-args", default="", help="more arguments for the app, one string (e.g. \"--output-writer thread\")")
    parser.add_argument("--xrm", action="append", default=[], help="an X resource for xterm, e.g. \"*multiScroll: true\" (repeatable)")
    options = parser.parse_args()
    xvfb.require(["Xvfb", options.terminal], "xterm_bench", "make deps-e2e")
    binary = os.path.abspath(options.binary)
    server, env = xvfb.start("1600x1000x24")
    home = tempfile.mkdtemp(prefix="xterm-bench-")
    try:
        for graphics in options.graphics:
            for rate in options.rates:
                runs = []
                for seed in range(1, options.seeds + 1):
                    result = run_one(env, binary, graphics, rate, seed, options.seconds, options.stress, home, options.scenario, options.terminal, options.app_args.split(), options.xrm)
                    print(json.dumps(result), flush=True)
                    if "error" not in result:
                        runs.append(result)
                figures = {key: summary(runs, key) for key in ["hitch_ratio", "commit_hitches", "commit_from_waiting", "terminal_hitches", "coalesced", "p99", "max", "drain_p50", "parse_p50", "parse_max", "image_price", "placeholders", "bytes_per_frame", "whole_images", "strip_images", "terminal_busy_frames", "settle_p50", "settle_max"]}
                print(json.dumps({"summary": f"{options.terminal} {options.scenario} {graphics} {rate} Hz{' stress ' + str(options.stress) if options.stress else ''}{' ' + ' '.join(options.xrm) if options.xrm else ''}", "runs": len(runs), "runs_under_5_ms_per_s": sum(r["hitch_ratio"] < 5 for r in runs), **figures}), flush=True)
    finally:
        server.terminate()
        shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    main()
