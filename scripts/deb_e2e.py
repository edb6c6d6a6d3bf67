#!/usr/bin/env python3
"""The Debian package on a clean Debian 12 with no Swift (issue 47), as `make test-deb` runs it.

    scripts/deb_e2e.py .build/destinations.deb

mmdebstrap builds a bookworm root from Debian's packages (`--variant=apt`: the essential
packages and apt) and installs, with apt, the package and man-db: apt must find every
library the package depends on in Debian itself. Then, inside the root (chroot):
1. no Swift: no libswiftCore anywhere, and nothing the programs load comes from a toolchain;
2. `destinations --version` prints the package's version;
3. a headless scenario (`--scenario fling --duration 1 --report json`, no terminal) exits 0
   with frames drawn and the bundled photos found where the package put them;
4. `man destinations` shows the manual page, and the bash completion is where bash looks.
Needs mmdebstrap and a Debian mirror (apt's sources, as `make deps` uses them). Times nothing.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile


def fail(message):
    print(f"deb_e2e: FAIL: {message}")
    sys.exit(1)


def main():
    package = os.path.realpath(sys.argv[1])
    version = subprocess.run(["dpkg-deb", "--field", package, "Version"], capture_output=True, text=True, check=True).stdout.strip()
    if shutil.which("mmdebstrap") is None:
        fail("mmdebstrap is missing (make test-deb installs it)")
    work = tempfile.mkdtemp(prefix="deb-e2e-")
    root = os.path.join(work, "root")
    try:
        build = subprocess.run(["mmdebstrap", "--variant=apt", "--mode=root", "--quiet",
                                "--hook-dir=/usr/share/mmdebstrap/hooks/file-mirror-automount",
                                f"--include=man-db,{package}", "bookworm", root],
                               capture_output=True, text=True, timeout=1200, stdin=subprocess.DEVNULL)
        if build.returncode != 0:
            fail(f"mmdebstrap could not install the package into a clean bookworm root:\n{build.stderr[-3000:]}")
        mounts, unmounted = [], True
        try:
            for point, kind in (("proc", "proc"), ("dev", None)):
                target = os.path.join(root, point)
                os.makedirs(target, exist_ok=True)
                command = ["mount", "-t", kind, kind, target] if kind else ["mount", "--bind", "/dev", target]
                subprocess.run(command, check=True)
                mounts.append(target)
            check(root, version)
        finally:
            for target in reversed(mounts):
                unmounted &= subprocess.run(["umount", "-l", target]).returncode == 0
    finally:
        # Never remove a root whose /dev is still the host's, bound in.
        if unmounted:
            shutil.rmtree(work, ignore_errors=True)
        else:
            print(f"deb_e2e: could not unmount inside {root}; left in place")


def inside(root, *command, env=None):
    environment = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "HOME": "/root", "LANG": "C.UTF-8"}
    environment.update(env or {})
    return subprocess.run(["chroot", root, *command], capture_output=True, text=True, timeout=300, env=environment)


def check(root, version):
    # 1. No Swift in the root, and none loaded.
    swift = inside(root, "sh", "-c", "find / -xdev -name 'libswiftCore*' 2>/dev/null; command -v swift swiftc || true")
    if swift.stdout.strip():
        fail(f"the clean root has Swift in it: {swift.stdout.strip()}")
    loaded = inside(root, "sh", "-c", "ldd /usr/bin/destinations")
    if loaded.returncode != 0 or "not found" in loaded.stdout or "swift" in loaded.stdout.lower():
        fail(f"the programs' libraries: {loaded.stdout}{loaded.stderr}")
    libraries = sorted({line.split()[0] for line in loaded.stdout.splitlines() if "=>" in line})
    print(f"deb_e2e: a clean bookworm root, no Swift in it; the programs load {len(libraries)} libraries, all Debian's")
    # 2. The programs answer.
    said = inside(root, "destinations", "--version")
    if said.returncode != 0 or said.stdout.strip() != version:
        fail(f"destinations --version: status {said.returncode}, {said.stdout!r} {said.stderr!r} (the package is {version})")
    # 3. A headless scenario over the bundled posts, as installed.
    run = inside(root, "destinations", "--scenario", "fling", "--duration", "1", "--report", "json", env={"TERM": "xterm-256color"})
    if run.returncode != 0:
        fail(f"the headless scenario: status {run.returncode}: {run.stderr[-1500:]}")
    report = json.loads(run.stdout)
    frames = report.get("frames")
    if not frames or not report.get("posts"):
        fail(f"the headless scenario drew no frames or found no posts: {run.stdout[:800]}")
    if run.stderr.strip():
        fail(f"the headless scenario said something on standard error: {run.stderr[-800:]}")
    print(f"deb_e2e: destinations {version} --scenario fling: exit 0, {frames} frames")
    # 4. The manual page and the completions.
    page = inside(root, "man", "-P", "cat", "destinations", env={"MANWIDTH": "80"})
    if page.returncode != 0 or "--refresh-rate" not in page.stdout:
        fail(f"man destinations: status {page.returncode}: {page.stdout[:300]} {page.stderr[-300:]}")
    completion = os.path.join(root, "usr/share/bash-completion/completions/destinations")
    if not os.path.exists(completion) or "destinations" not in open(completion).read():
        fail("no bash completion in /usr/share/bash-completion/completions")
    print(f"deb_e2e: man destinations shows {len(page.stdout.splitlines())} lines; completions for bash, zsh and fish installed")
    print("deb_e2e: PASS")


if __name__ == "__main__":
    main()
