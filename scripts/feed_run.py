#!/usr/bin/env python3
"""One run of the app over destinations-feed on loopback: the server started on a free port,
the app given `--feed` and the rest of its arguments, the server's own counters printed after.

    scripts/feed_run.py --server .build/release/destinations-feed --server-args "--posts 10000 --latency 80" \\
        [--preview-folder DIR] -- .build/release/destinations --scenario fling --report json

Prints the app's output, then a line `server: {…}` (the /_feed/stats JSON); exits with the
app's status. A preview folder kept between runs spares the server making previews while
it is measured (`make bench-feed` keeps one in .build/).
"""
import argparse
import atexit
import json
import shlex
import shutil
import subprocess
import sys

from feedserver import FeedServer
import os
import tempfile

# Runs keep their likes and place apart from the person's, and start fresh (issue 26).
os.environ["XDG_STATE_HOME"] = tempfile.mkdtemp(prefix="destinations-state-")
atexit.register(shutil.rmtree, os.environ["XDG_STATE_HOME"], True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", required=True)
    parser.add_argument("--server-args", default="")
    parser.add_argument("--preview-folder")
    parser.add_argument("app", nargs=argparse.REMAINDER)
    options = parser.parse_args()
    app = options.app[1:] if options.app and options.app[0] == "--" else options.app
    if not app:
        parser.error("the app's command line goes after --")
    with FeedServer(options.server, *shlex.split(options.server_args), preview_folder=options.preview_folder) as feed:
        run = subprocess.run([app[0], "--feed", feed.timeline] + app[1:], capture_output=True, text=True)
        sys.stdout.write(run.stdout)
        sys.stderr.write(run.stderr)
        print("server: " + json.dumps(feed.stats(), sort_keys=True))
    sys.exit(run.returncode)


if __name__ == "__main__":
    main()
