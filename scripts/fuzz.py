#!/usr/bin/env python3
"""Runs each libFuzzer target of Fuzz/ for SECONDS and prints executions, crashes and leaks.

    scripts/fuzz.py 60          # after the fuzz build (make fuzz does both)

Each target starts from its seeds (Fuzz/Seeds/<target>) and its kept regressions
(Fuzz/Regressions/<target>), grows a corpus in .build-fuzz/corpus/<target>, and writes any
crashing, leaking or slow input to .build-fuzz/artifacts/. Exit status 1 when any target
found one: copy the input to Fuzz/Regressions/<target>/, fix the bug, and the unit tests
replay it from then on.
"""
import os
import re
import subprocess
import sys

TARGETS = ["images", "exif", "catalogue", "feed"]
BUILD = ".build-fuzz"


def run(target, seconds):
    binary = f"{BUILD}/release/fuzz-{target}"
    corpus = f"{BUILD}/corpus/{target}"
    artifacts = f"{BUILD}/artifacts/"
    os.makedirs(corpus, exist_ok=True)
    os.makedirs(artifacts, exist_ok=True)
    arguments = [binary, corpus, f"Fuzz/Seeds/{target}", f"Fuzz/Regressions/{target}",
                 f"-max_total_time={seconds}", "-print_final_stats=1", "-max_len=65536",
                 "-timeout=10", "-rss_limit_mb=4096", f"-artifact_prefix={artifacts}{target}-"]
    # Swift's backtracer would hold the log pipe open for 30 s after a crash; libFuzzer
    # prints its own stack.
    environment = dict(os.environ, SWIFT_BACKTRACE="enable=no")
    result = subprocess.run(arguments, capture_output=True, text=True, errors="replace", env=environment)
    log = result.stderr
    with open(f"{BUILD}/fuzz-{target}.log", "w") as file:
        file.write(log)
    executions = int(m.group(1)) if (m := re.search(r"stat::number_of_executed_units:\s*(\d+)", log)) else 0
    per_second = int(m.group(1)) if (m := re.search(r"stat::average_exec_per_sec:\s*(\d+)", log)) else 0
    crashed = "ERROR: libFuzzer" in log or "ERROR: AddressSanitizer" in log or "Fatal error" in log or "SUMMARY:" in log
    leaked = "ERROR: LeakSanitizer" in log
    return executions, per_second, crashed, leaked, result.returncode


def main():
    seconds = int(sys.argv[1]) if len(sys.argv) > 1 else 60
    total, failed = 0, False
    print(f"libFuzzer, {seconds} s per target (logs in {BUILD}/fuzz-<target>.log)")
    for target in TARGETS:
        executions, per_second, crashed, leaked, status = run(target, seconds)
        total += executions
        verdict = "crash" if crashed else "leak" if leaked else "ok" if status == 0 else f"exit {status}"
        failed |= verdict != "ok"
        print(f"  fuzz-{target:<10} {executions:>12,} executions  {per_second:>8,}/s  {verdict}")
    print(f"  total            {total:>12,} executions")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
