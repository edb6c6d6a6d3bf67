#!/usr/bin/env python3
"""Every public symbol of the toolkit's library products has a doc comment.

Reads the symbol graphs `swift package dump-symbol-graph --minimum-access-level public`
writes and lists every public or open symbol of the products' modules without one (a
member that implements a documented protocol requirement inherits that requirement's doc,
as DocC shows it). Exits 1 when any is missing.

    python3 scripts/check_docs.py [SYMBOLGRAPH_DIR]
"""
import glob
import json
import os
import sys
from collections import Counter

PRODUCTS = ["CoreKit", "CellCanvas", "RenderLoop", "DiffableData", "CollectionKit", "ImagePipeline", "TerminalFront"]


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else glob.glob(".build/*/symbolgraph")[0]
    missing, counted = [], Counter()
    for module in PRODUCTS:
        for path in glob.glob(os.path.join(folder, f"{module}.symbols.json")) + glob.glob(os.path.join(folder, f"{module}@*.symbols.json")):
            graph = json.load(open(path))
            for symbol in graph["symbols"]:
                if symbol.get("accessLevel") not in ("public", "open"):
                    continue
                counted[module] += 1
                if symbol.get("docComment", {}).get("lines"):
                    continue
                if "location" not in symbol:
                    continue  # synthesized by the compiler (Hashable's hash(into:)): DocC shows the protocol's doc
                location = symbol.get("location", {})
                where = f"{os.path.relpath(location.get('uri', '?').removeprefix('file://'))}:{location.get('position', {}).get('line', 0) + 1}"
                missing.append(f"{where}: {module}.{'.'.join(symbol['pathComponents'])} ({symbol['kind']['displayName']})")
    for line in sorted(missing):
        print(f"check_docs: no doc comment: {line}")
    total = sum(counted.values())
    print(f"check_docs: {total - len(missing)} of {total} public symbols of {', '.join(PRODUCTS)} documented")
    sys.exit(1 if missing else 0)


if __name__ == "__main__":
    main()
