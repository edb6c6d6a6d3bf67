#!/usr/bin/env python3
"""Every public symbol of the toolkit's library products has a doc comment.

Reads the symbol graphs the DocC plugin extracted for `make docs` (or those in a folder
given) and lists every public or open symbol of the products' modules without one (a
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


def graphs(module, folder):
    """The symbol graph files of `module`: in `folder` when given, else where the DocC
    plugin extracted them for `make docs` (public symbols, one folder per target) — no
    second build, and no test module's graph asked for (`swift package dump-symbol-graph`
    wanted those, so `make docs` failed on a checkout whose tests were not built)."""
    if folder:
        places = [folder]
    else:
        places = glob.glob(f".build/*/extracted-symbols/*/{module}")
    return [path for place in places
            for path in glob.glob(os.path.join(place, f"{module}.symbols.json")) + glob.glob(os.path.join(place, f"{module}@*.symbols.json"))]


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else None
    missing, counted = [], Counter()
    for module in PRODUCTS:
        found = graphs(module, folder)
        if not found:
            print(f"check_docs: FAIL: no symbol graph of {module} (make docs extracts them)")
            sys.exit(1)
        for path in found:
            graph = json.load(open(path))
            for symbol in graph["symbols"]:
                if symbol.get("accessLevel") not in ("public", "open"):
                    continue
                if symbol["kind"]["identifier"] == "swift.extension":
                    continue  # a type of another module extended here: its members are checked
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
    site_ok = check_site(SITE) if os.path.isdir(SITE) else True
    sys.exit(1 if missing or not site_ok else 0)


# Where `make docs` writes the static site (one combined archive, every product).
SITE = ".build/docs"


def check_site(site):
    """The static site a reader opens (`make docs-serve`): served over HTTP from loopback,
    its landing page and every product's page answer, and each product's page data is there."""
    import http.server
    import threading
    import urllib.request
    handler = lambda *args: http.server.SimpleHTTPRequestHandler(*args, directory=site)
    http.server.SimpleHTTPRequestHandler.log_message = lambda *args: None
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    failed = []
    try:
        base = f"http://127.0.0.1:{server.server_address[1]}"
        for page in ["documentation/"] + [f"documentation/{module.lower()}/" for module in PRODUCTS] \
                + [f"data/documentation/{module.lower()}.json" for module in PRODUCTS]:
            try:
                with urllib.request.urlopen(f"{base}/{page}", timeout=10) as answer:
                    if answer.status != 200 or not answer.read(64):
                        failed.append(page)
            except OSError as error:
                failed.append(f"{page} ({error})")
    finally:
        server.shutdown()
    for page in failed:
        print(f"check_docs: FAIL: the static site in {site} does not serve {page}")
    if not failed:
        print(f"check_docs: the static site in {site} serves its landing page and the {len(PRODUCTS)} products' pages (make docs-serve)")
    return not failed


if __name__ == "__main__":
    main()
