#!/usr/bin/env python3
"""A hostile Mastodon-style server on loopback, for issue 43's measurements.

Serves a timeline whose photos and titles attack the client, and counts every request it
gets, by second and by kind (GET /_stats answers them as JSON):

  --mix bombs      previews are 12-KB PNGs that decode to 100 megapixels, and 3-KB PNGs
                   that decode to 23 megapixels (just under the client's per-picture limit)
  --mix endless    previews are bodies that never end (no Content-Length)
  --mix zalgo      titles of 10,000 combining marks, and emoji ZWJ chains
  --mix all        the three at once
  --fail-after-first
                   the first page is served; then every request (pages, photos, likes)
                   answers 500, or 429 with Retry-After when --retry-after is given

Usage: hostile_feed.py [--port 0] [--mix all] [--pages 5] [--fail-after-first]
Prints "hostile_feed: http://127.0.0.1:PORT/api/v1/timelines/public" once listening.
"""
import argparse
import collections
import json
import struct
import threading
import time
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse


def png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def bomb(width, height):
    row = b"\x00" * (1 + (width + 7) // 8)
    deflate = zlib.compressobj(9)
    data = b"".join(deflate.compress(row) for _ in range(height)) + deflate.flush()
    ihdr = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", ihdr) + png_chunk(b"IDAT", data) + png_chunk(b"IEND", b"")


BOMB_100 = bomb(10_000, 10_000)
BOMB_23 = bomb(4_800, 4_800)
ZALGO = "Z" + "\u0301\u0302\u0303\u0304" * 2_500 + "algo"
CHAIN = "\U0001F468\u200d" * 2_000


class State:
    def __init__(self, options):
        self.options = options
        self.lock = threading.Lock()
        self.started = time.monotonic()
        self.by_second = collections.Counter()
        self.by_kind = collections.Counter()
        self.pages_served = 0

    def count(self, kind):
        with self.lock:
            self.by_second[int(time.monotonic() - self.started)] += 1
            self.by_kind[kind] += 1


def status(index, base, mix):
    kinds = {"bombs": ["bomb", "bomb23"], "endless": ["endless"], "zalgo": ["plain"], "all": ["bomb", "bomb23", "endless", "plain"]}[mix]
    kind = kinds[index % len(kinds)]
    title = ZALGO if mix in ("zalgo", "all") and index % 2 == 0 else (CHAIN if mix in ("zalgo", "all") else f"Post {index}")
    media = f"{base}/media/{kind}/{index}.png"
    return {
        "id": str(1_000_000 - index), "created_at": "2026-11-26T12:00:00.000Z", "content": f"<p>{title}</p>",
        "sensitive": False, "spoiler_text": "", "favourites_count": index, "favourited": False,
        "url": f"{base}/@hostile/{index}",
        "account": {"id": "1", "acct": "hostile", "display_name": title[:2000], "username": "hostile"},
        "media_attachments": [{"id": str(index), "type": "image", "url": media, "preview_url": media,
                               "description": title, "meta": {"small": {"width": 400, "height": 300}}}],
    }


def make_handler(state):
    options = state.options

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def send_body(self, code, body, content_type="application/json", extra=()):
            self.send_response(code)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            for name, value in extra:
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(body)

        def fail(self):
            if options.retry_after is not None:
                self.send_body(429, b'{"error":"slow down"}', extra=[("Retry-After", str(options.retry_after))])
            else:
                self.send_body(500, b'{"error":"failing everything"}')

        def do_POST(self):
            state.count("post")
            self.fail() if options.fail_after_first else self.send_body(404, b'{"error":"Record not found"}')

        def do_GET(self):
            url = urlparse(self.path)
            base = f"http://{self.headers.get('Host', '127.0.0.1')}"
            if url.path == "/_stats":
                with state.lock:
                    body = json.dumps({"by_second": dict(state.by_second), "by_kind": dict(state.by_kind)}).encode()
                return self.send_body(200, body)
            if url.path.startswith("/api/v1/timelines/"):
                state.count("page")
                if options.fail_after_first and state.pages_served >= 1:
                    return self.fail()
                page = int(parse_qs(url.query).get("page", ["0"])[0])
                state.pages_served += 1
                statuses = [status(page * 40 + i, base, options.mix) for i in range(40)]
                extra = [("Link", f'<{base}{url.path}?page={page + 1}>; rel="next"')] if page + 1 < options.pages else []
                return self.send_body(200, json.dumps(statuses).encode(), extra=extra)
            if url.path.startswith("/media/"):
                state.count("media")
                if options.fail_after_first:
                    return self.fail()
                kind = url.path.split("/")[2]
                if kind == "bomb":
                    return self.send_body(200, BOMB_100, "image/png")
                if kind == "bomb23":
                    return self.send_body(200, BOMB_23, "image/png")
                if kind == "endless":
                    self.send_response(200)
                    self.send_header("Content-Type", "image/jpeg")
                    self.send_header("Connection", "close")
                    self.end_headers()
                    chunk = b"\xff\xd8\xff" + b"\x00" * 65533
                    try:
                        while True:
                            self.wfile.write(chunk)
                    except OSError:
                        return
                return self.send_body(200, bomb(64, 48), "image/png")
            state.count("other")
            self.send_body(404, b'{"error":"Not found"}')

    return Handler


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--mix", choices=["bombs", "endless", "zalgo", "all"], default="all")
    parser.add_argument("--pages", type=int, default=5)
    parser.add_argument("--fail-after-first", action="store_true")
    parser.add_argument("--retry-after", type=int)
    options = parser.parse_args()
    if not options.host.startswith("127."):
        parser.error("loopback only")
    state = State(options)
    server = ThreadingHTTPServer((options.host, options.port), make_handler(state))
    server.daemon_threads = True
    print(f"hostile_feed: http://{options.host}:{server.server_address[1]}/api/v1/timelines/public", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
