#!/usr/bin/env python3
"""The grid in a real sixel terminal, headless: xterm -ti vt340 under Xvfb, screenshots read back.

    scripts/sixel_e2e.py .build/debug/destinations [--feed-server .build/debug/destinations-feed] [--keep DIR]

Starts Xvfb and an xterm emulating a VT340 (sixel graphics) running the app with its default
`--graphics auto`, so the app has to find sixel by asking the terminal. Then, from screenshots
(`xwd -root | xwdtopnm`):
  1. the first screen holds photo pixels: hundreds of 6x13-pixel cells with 8 or more distinct
     colours (a symbol mosaic has at most 2 per cell; the same app with --graphics symbols is
     run first to show the measure tells them apart);
  2. after `j j j` moves the selection past the screen's edge and the grid scrolls, a band of a
     thumbnail from the first screenshot appears again, pixel for pixel, a whole number of
     text rows higher (moved by the terminal's scrolling or drawn again at its new place);
  3. after the window is made smaller (xdotool windowsize: a resize the app relays out for),
     the thumbnails come back as photo pixels at their new size (a cut thumbnail row is
     never drawn as pixels, so a grid that kept its old thumbnails would show mosaics);
  4. `q` quits with status 0, and its report (`--report json`) says xterm answered the parse
     requests (D-078) and that the answered batches but the first reached the fit of their
     costs (D-081; the first is its own shortest round trip, not fitted);
  5. with --feed-server: the same over a feed (destinations-feed on loopback, 60 posts): the
     first screen holds photo pixels too (a feed's photos once came out as symbols whatever
     the terminal could show, D-065), and `q` quits with status 0.
Needs xterm, xvfb, x11-apps (xwd), netpbm (xwdtopnm), xfonts-base and xdotool; exits 2 naming
what is missing. Times nothing: it polls the screen until it settles (or 30 s pass).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import xvfb
from feedserver import FeedServer

# Runs keep their likes and place apart from the person's, and start fresh (issue 26).
os.environ["XDG_STATE_HOME"] = tempfile.mkdtemp(prefix="destinations-state-")

CELL_W, CELL_H = 6, 13          # xterm's default "fixed" font
BORDER = 2                      # xterm's internal border
COLUMNS, ROWS = 160, 48
TOOLS = ["Xvfb", "xterm", "xwd", "xwdtopnm", "xdotool"]


def fail(message):
    print(f"sixel_e2e: FAIL: {message}")
    sys.exit(1)


def settle(env, want_photo_cells, deadline):
    """Screenshots until two in a row are equal and the screen has enough photo cells."""
    last = None
    while time.monotonic() < deadline:
        shot = xvfb.Shot(xvfb.screenshot(env), (CELL_W, CELL_H), COLUMNS, ROWS, border=BORDER)
        if last is not None and shot.rgb == last.rgb and len(shot.photo_cells()) >= want_photo_cells:
            return shot
        last = shot
        time.sleep(0.5)
    return last


def start_app(env, binary, args, home):
    command = ["xterm", "-ti", "vt340", "-geometry", f"{COLUMNS}x{ROWS}+0+0", "-e", binary] + args
    child_env = dict(env, HOME=home, XDG_CACHE_HOME=os.path.join(home, "cache"))
    child_env.pop("COLORTERM", None)
    return subprocess.Popen(command, env=child_env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def keys(env, *names):
    subprocess.run(["xdotool", "mousemove", "400", "300"], env=env, check=True)
    subprocess.run(["xdotool", "key", "--delay", "120", *names], env=env, check=True)


def quit_app(env, app, what):
    """`q`, and the app (with its xterm) must end with status 0."""
    keys(env, "q")
    status = app.wait(timeout=10)
    if status != 0:
        fail(f"{what}xterm (and the app) exited with {status}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binary")
    parser.add_argument("--keep", help="save the screenshots' pixels here")
    parser.add_argument("--feed-server", help="destinations-feed: also browse a feed of it (step 5)")
    options = parser.parse_args()
    xvfb.require(TOOLS, "sixel_e2e", "Debian: xterm xvfb x11-apps netpbm xfonts-base xdotool")
    binary = os.path.abspath(options.binary)
    server, env = xvfb.start()
    home = tempfile.mkdtemp(prefix="sixel-e2e-")
    try:
        if subprocess.run(["xdotool", "getmouselocation"], env=env, capture_output=True).returncode != 0:
            fail("Xvfb did not start")

        # The measure first: symbols show (almost) no cell of 8 colours.
        app = start_app(env, binary, ["--graphics", "symbols", "--hud", "off"], home)
        symbols = settle(env, 0, time.monotonic() + 30)
        keys(env, "q")
        app.wait(timeout=10)
        symbol_cells = len(symbols.photo_cells())

        report = os.path.join(home, "report.json")
        app = start_app(env, binary, ["--hud", "off", "--report", "json", "--report-file", report], home)
        first = settle(env, 300, time.monotonic() + 30)
        photo = first.photo_cells()
        if len(photo) < 300:
            fail(f"first screen: {len(photo)} photo cells (symbols: {symbol_cells}); sixel not detected or not drawn")
        if symbol_cells * 10 > len(photo):
            fail(f"the measure does not tell them apart: symbols {symbol_cells} photo cells, sixel {len(photo)}")
        keys(env, "j", "j", "j")
        second = settle(env, 300, time.monotonic() + 30)
        # A band one text row tall across the photo cells of some row of the first screen,
        # looked for a whole number of rows higher in the second.
        found = xvfb.moved_band(first, second, photo, CELL_W, border=BORDER)
        if options.keep:
            os.makedirs(options.keep, exist_ok=True)
            for name, shot in [("symbols", symbols), ("first", first), ("second", second)]:
                shot.save(os.path.join(options.keep, name + ".ppm"))
        if second.rgb == first.rgb:
            fail("the screen did not change after j j j")
        if not found:
            fail("no thumbnail band of the first screen is found, moved up, in the second")
        window = subprocess.run(["xdotool", "search", "--class", "xterm"], env=env, capture_output=True, text=True).stdout.split()
        if not window:
            fail("the xterm window is not found")
        subprocess.run(["xdotool", "windowsize", window[0], "700", "500"], env=env, check=True)
        resized = settle(env, 300, time.monotonic() + 30)
        resized_cells = len(resized.photo_cells())
        if options.keep:
            resized.save(os.path.join(options.keep, "resized.ppm"))
        if resized_cells < 300:
            fail(f"after the window was made smaller: {resized_cells} photo cells (thumbnails not redrawn at their new size)")
        quit_app(env, app, "")
        # xterm answers the parse requests (D-078), and the answered batches but the first
        # reached the fit of their costs with their bytes and images (D-081).
        with open(report) as file:
            parse = json.load(file)["terminal"]["parse_round_trip_ms"]
        if not parse["answered"] or not 1 <= parse["batches_fitted"] <= parse["answered"]:
            fail(f"parse requests: {parse['answered']} answered, {parse['batches_fitted']} batches fitted; the answers do not reach the pacing or its fit")
        feed_note = ""
        if options.feed_server:
            with FeedServer(os.path.abspath(options.feed_server), "--posts", "60") as feed:
                app = start_app(env, binary, ["--hud", "off", "--feed", feed.timeline], home)
                over_feed = settle(env, 300, time.monotonic() + 60)
                feed_cells = len(over_feed.photo_cells())
                if options.keep:
                    over_feed.save(os.path.join(options.keep, "feed.ppm"))
                if feed_cells < 300:
                    fail(f"over a feed: {feed_cells} photo cells on the first screen (sixel: {len(photo)}); the feed's photos are not drawn as sixel")
                quit_app(env, app, "over a feed: ")
                feed_note = f"; over a feed, {feed_cells} photo cells"
        print(f"sixel_e2e: PASS: {len(photo)} photo cells on the first screen (symbols mode: {symbol_cells}); "
              f"after j j j the thumbnail band of text row {found[0]} is at row {found[0] - found[1]}, pixel for pixel; "
              f"{len(second.photo_cells())} photo cells after the scroll, {resized_cells} after the window was made smaller; "
              f"{parse['answered']} parse requests answered, {parse['batches_fitted']} fitted{feed_note}")
    finally:
        xvfb.stop(server, "xterm", home)


if __name__ == "__main__":
    main()
