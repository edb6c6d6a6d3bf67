#!/usr/bin/env python3
"""The grid in Debian's kitty (0.26.5: kitty graphics without Unicode placeholders), under Xvfb.

    scripts/kitty_e2e.py .build/debug/destinations [--feed-server .build/debug/destinations-feed] [--keep DIR]

Starts Xvfb and kitty (software OpenGL) running the app with its default `--graphics auto`, so
the app must learn from kitty's answers (its graphics query and XTVERSION) that placeholders are
missing and place the images directly. The app runs under `script`, which relays every byte to
kitty and keeps a copy, so the test reads what kitty was sent as well as what it drew. Then:
  1. what kitty was sent holds direct placements (`a=p`) and not one placeholder character
     (U+10EEEE), and the header says kitty-placement;
  2. the first screen holds photo pixels: hundreds of cells with 16 or more distinct colours, ten
     times what the same app shows with --graphics symbols (run first, as the yardstick);
  3. after `j j j j` scrolls the grid, a band of a thumbnail from the first screenshot appears
     again, pixel for pixel, a whole number of text rows higher, and the screen still holds
     photo pixels (placements moved with the text, or placed again);
  4. after `J` (a fling) and its settling, photo pixels again (after the scroll and after the
     fling: at least four fifths of the first screen's photo cells);
  5. `q` quits with status 0, and the screen the shell gets back holds no photo pixel (below
     the line the shell prints);
  6. with --feed-server: over a feed (destinations-feed on loopback, 60 posts), the first
     screen holds photo pixels too, from direct placements (a feed's photos once came out as
     symbols whatever the terminal could show, D-065), and `q` quits with status 0.
Needs kitty, xvfb, x11-apps (xwd), netpbm (xwdtopnm), xdotool and script (bsdutils); exits 2
naming what is missing, or when kitty cannot open a window at all (no OpenGL). Times nothing: it polls the screen until it settles (or 60 s pass).
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

import xvfb
from feedserver import FeedServer

# Runs keep their likes and place apart from the person's, and start fresh (issue 26).
os.environ["XDG_STATE_HOME"] = tempfile.mkdtemp(prefix="destinations-state-")

COLUMNS, ROWS = 160, 48
SCREEN = "1600x1000x24"
TOOLS = ["Xvfb", "kitty", "xwd", "xwdtopnm", "xdotool", "script"]
PLACEHOLDER = "\U0010EEEE".encode()


def fail(message):
    print(f"kitty_e2e: FAIL: {message}")
    sys.exit(1)


def settle(env, cell, want_photo_cells, deadline):
    """Screenshots until two in a row are equal and the screen has enough photo cells."""
    last = None
    while time.monotonic() < deadline:
        # kitty smooths the edges of symbol glyphs, so a mosaic cell can show 8 or more
        # colours: 16 tell photo pixels apart (every other pixel row read).
        shot = xvfb.Shot(xvfb.screenshot(env), cell, COLUMNS, ROWS, photo_colours=16, row_step=2)
        if last is not None and shot.rgb == last.rgb and len(shot.photo_cells()) >= want_photo_cells:
            return shot
        last = shot
        time.sleep(0.5)
    return last


def start_app(env, binary, args, work, name):
    """kitty at 160x48 cells, top-left, no padding, running a shell line that records the
    window's size in pixels, runs the app under `script` (which logs what it sends), then
    prints a line and waits, so the screen after the app is there to read."""
    status, log, size = (os.path.join(work, f"{name}.{what}") for what in ("status", "typescript", "size"))
    sizer = ("import fcntl,termios,struct,sys; r,c,w,h=struct.unpack('HHHH',fcntl.ioctl(0,termios.TIOCGWINSZ,b'\\0'*8)); "
             f"open('{size}','w').write('%d %d %d %d' % (c,r,w,h))")
    app = " ".join([binary] + args)
    line = (f"python3 -c \"{sizer}\"; script -qfe -c '{app}' {log} >/dev/null 2>&1 </dev/tty >/dev/tty; "
            f"echo $? > {status}; clear; echo the app has quit; sleep 600")
    command = ["kitty", "--config", "NONE", "-o", f"initial_window_width={COLUMNS}c", "-o", f"initial_window_height={ROWS}c",
               "-o", "placement_strategy=top-left", "-o", "window_padding_width=0",
               "sh", "-c", line]
    child_env = dict(env, HOME=work, XDG_CACHE_HOME=os.path.join(work, "cache"),
                     LIBGL_ALWAYS_SOFTWARE="1", COLORTERM="truecolor")
    process = subprocess.Popen(command, env=child_env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while not os.path.exists(size) and time.monotonic() < deadline:
        time.sleep(0.2)
    if not os.path.exists(size):
        # Before the app runs: kitty itself could not open its window (no OpenGL here).
        print("kitty_e2e: kitty did not start (no window within 30 s: no OpenGL on this display?)")
        sys.exit(2)
    time.sleep(0.2)
    columns, rows, width, height = (int(v) for v in open(size).read().split())
    if (columns, rows) != (COLUMNS, ROWS) or width == 0:
        fail(f"kitty's window is {columns}x{rows} cells, {width}x{height} pixels; wanted {COLUMNS}x{ROWS}")
    return process, (width // columns, height // rows), status, log


def keys(env, *names):
    subprocess.run(["xdotool", "mousemove", "200", "200"], env=env, check=True)
    subprocess.run(["xdotool", "key", "--delay", "150", *names], env=env, check=True)


def wait_for(path, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if os.path.exists(path) and open(path).read().strip():
            return open(path).read().strip()
        time.sleep(0.2)
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binary")
    parser.add_argument("--keep", help="save the screenshots' pixels here")
    parser.add_argument("--feed-server", help="destinations-feed: also browse a feed of it (step 6)")
    options = parser.parse_args()
    xvfb.require(TOOLS, "kitty_e2e", "Debian: kitty xvfb x11-apps netpbm xdotool bsdutils")
    binary = os.path.abspath(options.binary)
    # A display of its own for each run: a closed kitty window can leave its last picture
    # on a display with no window manager to repaint it.
    server, env = xvfb.start(SCREEN)
    work = tempfile.mkdtemp(prefix="kitty-e2e-")
    shots = {}
    try:
        # The yardstick: 24-bit symbols show few cells of 8 colours.
        kitty, cell, status, _ = start_app(env, binary, ["--graphics", "symbols", "--hud", "off"], work, "symbols")
        symbols = settle(env, cell, 0, time.monotonic() + 60)
        shots["symbols"] = symbols
        keys(env, "q")
        if wait_for(status, 20) != "0":
            fail(f"the symbols run ended with {wait_for(status, 1)}")
        kitty.terminate()
        kitty.wait(timeout=10)
        symbol_cells = len(symbols.photo_cells())
        server.terminate()
        server.wait(timeout=10)
        server, env = xvfb.start(SCREEN)

        kitty, cell, status, log = start_app(env, binary, ["--hud", "off"], work, "auto")
        # Two equal screenshots half a second apart can come while kitty is still taking
        # megabytes of images (the app had sent 32 placements, kitty showed a few): wait
        # for the screen the check below asks for, ten times the symbols' photo cells.
        first = settle(env, cell, max(300, symbol_cells * 10), time.monotonic() + 60)
        shots["first"] = first
        photo = first.photo_cells()
        def sent_so_far():
            # What the app had sent kitty by then: tells "not sent" from "not drawn".
            sent = open(log, "rb").read() if os.path.exists(log) else b""
            return (f"the app had sent {sent.count(b'a=T') + sent.count(b'a=t,')} transmissions and {sent.count(b'a=p,')} placements "
                    f"({len(sent)} bytes)")
        if len(photo) < 300:
            fail(f"first screen: {len(photo)} photo cells (symbols: {symbol_cells}); kitty images not drawn; {sent_so_far()}")
        if symbol_cells * 10 > len(photo):
            fail(f"the measure does not tell them apart: symbols {symbol_cells} photo cells, kitty {len(photo)}; {sent_so_far()}")
        keys(env, "j", "j", "j", "j")
        # Thumbnails come back as pixels once the motion settles: most of the first screen's.
        enough = len(photo) * 4 // 5
        second = settle(env, cell, enough, time.monotonic() + 60)
        shots["second"] = second
        found = xvfb.moved_band(first, second, photo, cell[0])
        if second.rgb == first.rgb:
            fail("the screen did not change after j j j j")
        if not found:
            fail("no thumbnail band of the first screen is found, moved up, in the second")
        keys(env, "J")
        flung = settle(env, cell, enough, time.monotonic() + 60)
        shots["flung"] = flung
        flung_cells = len(flung.photo_cells())
        if flung_cells < enough:
            fail(f"after a fling: {flung_cells} photo cells (the first screen had {len(photo)})")
        keys(env, "q")
        code = wait_for(status, 20)
        if code != "0":
            fail(f"the app exited with {code}")
        after = settle(env, cell, 0, time.monotonic() + 30)
        shots["after"] = after
        # Row 0 holds the shell's line (antialiased text, many greys); the rest must be empty.
        left = len({(c, r) for (c, r) in after.photo_cells() if r > 0})
        if left > 0:
            fail(f"after the app quit, {left} cells of photo pixels are left on the screen")
        sent = open(log, "rb").read()
        if PLACEHOLDER in sent:
            fail(f"kitty was sent {sent.count(PLACEHOLDER)} Unicode placeholder characters")
        placements = sent.count(b"\x1b_Ga=p,")
        if placements == 0:
            fail("kitty was sent no direct placement (a=p)")
        if b"kitty-placement" not in sent:
            fail("the header does not say kitty-placement")
        feed_note = ""
        if options.feed_server:
            kitty.terminate()
            kitty.wait(timeout=10)
            server.terminate()
            server.wait(timeout=10)
            server, env = xvfb.start(SCREEN)
            with FeedServer(os.path.abspath(options.feed_server), "--posts", "60") as feed:
                kitty, cell, status, log = start_app(env, binary, ["--hud", "off", "--feed", feed.timeline], work, "feed")
                over_feed = settle(env, cell, max(300, symbol_cells * 10), time.monotonic() + 60)
                shots["feed"] = over_feed
                feed_cells = len(over_feed.photo_cells())
                if feed_cells < max(300, symbol_cells * 10):
                    fail(f"over a feed: {feed_cells} photo cells on the first screen (kitty: {len(photo)}, symbols: {symbol_cells}); {sent_so_far()}")
                keys(env, "q")
                code = wait_for(status, 20)
                if code != "0":
                    fail(f"over a feed, the app exited with {code}")
                feed_placements = open(log, "rb").read().count(b"\x1b_Ga=p,")
                if feed_placements == 0:
                    fail("over a feed, kitty was sent no direct placement (a=p)")
                feed_note = f"; over a feed, {feed_cells} photo cells from {feed_placements} placements"
        print(f"kitty_e2e: PASS: --graphics auto chose kitty-placement; {placements} placements and no placeholder sent; "
              f"{len(photo)} photo cells on the first screen (symbols mode: {symbol_cells}); after j j j j the thumbnail "
              f"band of text row {found[0]} is at row {found[0] - found[1]}, pixel for pixel; {flung_cells} photo cells "
              f"after a fling; none after quitting (cell {cell[0]}x{cell[1]} px){feed_note}")
    finally:
        if options.keep:
            os.makedirs(options.keep, exist_ok=True)
            for name, shot in shots.items():
                shot.save(os.path.join(options.keep, name + ".ppm"))
        # `script` and the app under it outlive a killed kitty (the app's terminal is
        # script's own pseudo-terminal): ended by their command line, which names `work`.
        subprocess.run(["pkill", "-f", work], capture_output=True)
        xvfb.stop(server, "kitty", work)


if __name__ == "__main__":
    main()
