#!/usr/bin/env python3
"""Screenshots of the examples from real runs: each example in xterm (256 colours) under
Xvfb, a few keys typed, the xterm window saved as Examples/<Name>/screenshot.png.

    python3 scripts/example_screenshots.py Examples/.build/debug

Needs xterm, xvfb, x11-apps (xwd), netpbm and xdotool (`make deps-e2e`); exits 2 naming what
is missing."""
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
import xvfb  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES = [
    # (folder, binary, arguments, keys typed before the screenshot, seconds to wait)
    ("HelloList", "hello-list", [], ["J"], 0.8),
    ("ProcessList", "process-list", [], [], 3.5),
    ("FileBrowser", "file-browser", [os.path.join(ROOT, "Assets", "photos")], [], 3.0),
]


def main():
    xvfb.require(["Xvfb", "xterm", "xwd", "xwdtopnm", "pnmtopng", "xdotool"], "example_screenshots",
                 "xterm xvfb x11-apps netpbm xdotool")
    binaries = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "Examples", ".build", "debug")
    server, env = xvfb.start("1280x800x24")
    try:
        for folder, binary, args, keys, wait in EXAMPLES:
            command = ["xterm", "-tn", "xterm-256color", "-fa", "DejaVu Sans Mono", "-fs", "10",
                       "-geometry", "110x32+0+0", "-e", os.path.join(binaries, binary)] + args
            app = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            time.sleep(0.5)
            if app.poll() is not None:
                sys.exit(f"example_screenshots: xterm running {binary} ended at once ({app.returncode})")
            window = subprocess.run(["xdotool", "search", "--sync", "--pid", str(app.pid)], env=env,
                                    capture_output=True, text=True, check=True).stdout.split()[0]
            time.sleep(1.5)
            # xterm ignores events sent to a window (allowSendEvents): type at the focus.
            subprocess.run(["xdotool", "mousemove", "300", "200"], env=env, check=True)
            load = subprocess.Popen(["sh", "-c", "exec yes > /dev/null"]) if binary == "process-list" else None
            if keys:
                subprocess.run(["xdotool", "key", "--delay", "150", *keys], env=env, check=True)
            time.sleep(wait)
            if load:
                load.kill()
            xwd = subprocess.run(["xwd", "-id", window, "-silent"], env=env, capture_output=True, check=True).stdout
            ppm = subprocess.run(["xwdtopnm"], input=xwd, capture_output=True, check=True).stdout
            png = subprocess.run(["pnmtopng"], input=ppm, capture_output=True, check=True).stdout
            target = os.path.join(ROOT, "Examples", folder, "screenshot.png")
            with open(target, "wb") as out:
                out.write(png)
            print(f"example_screenshots: {target} ({len(png)} bytes)")
            subprocess.run(["xdotool", "key", "q"], env=env)
            try:
                app.wait(timeout=5)
            except subprocess.TimeoutExpired:
                app.kill()
    finally:
        server.kill()


if __name__ == "__main__":
    main()
