#!/usr/bin/env python3
"""What a Swift developer who adds the toolkit gets (issue 47): a package of its own, made in
a scratch folder, that depends on this repository by git URL (`file://` of this clone, at
its HEAD commit — what an outsider's `.package(url:…)` does) and uses every toolkit
product; `swift package resolve`, then its Package.resolved must name this repository and
swift-collections and nothing else.

    python3 scripts/check_dependents.py
"""
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PRODUCTS = ["CoreKit", "CellCanvas", "RenderLoop", "DiffableData", "CollectionKit", "ImagePipeline", "TerminalFront", "FeedFormat"]
ALLOWED = {"swift-collections"}


def main():
    # A package by URL is known by the URL's last path component (this clone's folder name).
    identity = os.path.basename(ROOT.rstrip("/")).lower()
    revision = subprocess.run(["git", "-C", ROOT, "rev-parse", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()
    with tempfile.TemporaryDirectory(prefix="outsider-") as folder:
        os.makedirs(os.path.join(folder, "Sources", "Outsider"))
        uses = ",\n        ".join(f'.product(name: "{name}", package: "{identity}")' for name in PRODUCTS)
        with open(os.path.join(folder, "Package.swift"), "w") as manifest:
            manifest.write(f"""// swift-tools-version: 6.1
import PackageDescription
let package = Package(
    name: "Outsider",
    platforms: [.macOS(.v15)],
    dependencies: [.package(url: "file://{ROOT}", revision: "{revision}")],
    targets: [.executableTarget(name: "Outsider", dependencies: [
        {uses}])]
)
""")
        with open(os.path.join(folder, "Sources", "Outsider", "main.swift"), "w") as source:
            source.write("import CollectionKit\nprint(\"outsider\")\n")
        run = subprocess.run(["swift", "package", "resolve"], cwd=folder, capture_output=True, text=True, timeout=600)
        if run.returncode != 0:
            print(f"check_dependents: FAIL: swift package resolve: {run.stderr[-2000:]}")
            sys.exit(1)
        pins = sorted(pin["identity"] for pin in json.load(open(os.path.join(folder, "Package.resolved")))["pins"])
    others = [pin for pin in pins if pin != identity]
    extra = sorted(set(others) - ALLOWED)
    if extra:
        print(f"check_dependents: FAIL: a package using {', '.join(PRODUCTS)} resolves {len(others)} packages besides this one: {others}")
        sys.exit(1)
    print(f"check_dependents: ok: a package that depends on this repository at {revision[:8]} by git URL and uses "
          f"{len(PRODUCTS)} products resolves {others} besides it")


if __name__ == "__main__":
    main()
