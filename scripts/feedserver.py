"""destinations-feed on a free loopback port, for the end-to-end test and the benchmarks.

    with FeedServer(binary, "--posts", "300", "--latency", "30") as feed:
        feed.timeline        # http://127.0.0.1:PORT/api/v1/timelines/public
        feed.stats()         # the server's own counters (/_feed/stats)
"""
import json
import os
import re
import shutil
import ssl
import subprocess
import tempfile
import urllib.request


class FeedServer:
    def __init__(self, binary, *args, preview_folder=None, port=0):
        self.binary = binary
        self.requested_port = port
        self.args = list(args)
        self.own_folder = preview_folder is None
        self.preview_folder = preview_folder or tempfile.mkdtemp(prefix="feed-previews-")
        self.process = None
        self.port = None

    def __enter__(self):
        self.process = subprocess.Popen([self.binary, "--port", str(self.requested_port), "--preview-folder", self.preview_folder] + self.args,
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = self.process.stdout.readline()
        match = re.search(r"127\.0\.0\.1:(\d+)", line)
        if not match:
            self.__exit__(None, None, None)
            raise RuntimeError(f"destinations-feed did not start: {line!r}")
        self.port = int(match.group(1))
        return self

    def __exit__(self, *exc):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
        if self.own_folder:
            shutil.rmtree(self.preview_folder, ignore_errors=True)

    @property
    def base(self):
        scheme = "https" if "--tls-cert" in self.args else "http"
        return f"{scheme}://127.0.0.1:{self.port}"

    @property
    def timeline(self):
        return f"{self.base}/api/v1/timelines/public"

    def _get(self, path):
        # Our own server on loopback: its certificate (made for the run) is not checked here.
        context = ssl._create_unverified_context() if self.base.startswith("https") else None
        with urllib.request.urlopen(f"{self.base}{path}", timeout=10, context=context) as response:
            return json.load(response)

    def stats(self):
        return self._get("/_feed/stats")

    def favourites(self):
        """The favourited status ids, as the server holds them."""
        return self._get("/_feed/favourites")
