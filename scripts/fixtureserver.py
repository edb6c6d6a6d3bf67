"""A fixture timeline served on loopback, for the end-to-end tests: one JSON page of
Tests/Fixtures/Fediverse as `GET /api/v1/timelines/public` (`/home` for a `-home` fixture), every media URL in it pointed
at this server, which answers with a real picture of the same kind (the bundled photos for
JPEG, the test WebP and GIF for .webp and .gif), so the app draws what it would from the
real server.

    with FixtureServer("Tests/Fixtures/Fediverse/mastodon-home.json") as server:
        server.timeline   # http://127.0.0.1:PORT/api/v1/timelines/public
"""
import glob
import http.server
import json
import os
import re
import threading

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PHOTOS = sorted(glob.glob(os.path.join(ROOT, "Assets/photos/*.jpg")))
WEBP = os.path.join(ROOT, "Tests/ImagePipelineTests/Fixtures/quadrants-800.webp")
GIF = os.path.join(ROOT, "Tests/ImagePipelineTests/Fixtures/animated.gif")


class FixtureServer:
    def __init__(self, fixture):
        # A home timeline's fixture is served as one: the person's filters apply by context.
        self.context = "home" if "-home" in os.path.basename(fixture) else "public"
        self.statuses = json.load(open(fixture, encoding="utf-8"))
        self.media = {}
        self.httpd = None

    def _rewrite(self, base):
        def local(url):
            if not isinstance(url, str) or not url.startswith("http"):
                return url
            kind = "webp" if url.endswith(".webp") else "gif" if url.endswith(".gif") else "jpg"
            name = f"{len(self.media)}.{kind}"
            self.media[name] = WEBP if kind == "webp" else GIF if kind == "gif" else PHOTOS[len(self.media) % len(PHOTOS)]
            return f"{base}/media/{name}"

        def walk(status):
            for attachment in status.get("media_attachments") or []:
                for key in ("url", "preview_url", "remote_url"):
                    if key in attachment:
                        attachment[key] = local(attachment[key])
            if isinstance(status.get("reblog"), dict):
                walk(status["reblog"])

        for status in self.statuses:
            walk(status)
        return json.dumps(self.statuses).encode()

    def __enter__(self):
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                if self.path.startswith("/api/v1/timelines/"):
                    body, kind = server.page, "application/json; charset=utf-8"
                else:
                    match = re.match(r"/media/(\d+\.(jpg|webp|gif))$", self.path)
                    if not match or match.group(1) not in server.media:
                        self.send_error(404)
                        return
                    body = open(server.media[match.group(1)], "rb").read()
                    kind = {"jpg": "image/jpeg", "webp": "image/webp", "gif": "image/gif"}[match.group(2)]
                self.send_response(200)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.httpd.server_address[1]
        self.page = self._rewrite(f"http://127.0.0.1:{self.port}")
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc):
        self.httpd.shutdown()
        self.httpd.server_close()

    @property
    def timeline(self):
        return f"http://127.0.0.1:{self.port}/api/v1/timelines/{self.context}"
