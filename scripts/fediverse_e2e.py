#!/usr/bin/env python3
"""Real timelines as a careful client shows them (issue 45), in tmux at 160x48.

    scripts/fediverse_e2e.py .build/debug/destinations .build/debug/destinations-feed

destinations-feed serves `--shapes fediverse` (content warnings, sensitive media, the
person's filters, galleries, GIFs, a video, boosts); the test reads the same first page
itself and checks the screen against it:
1. No hidden post's words reach the screen before `x`: for every status of the first
   screen that is warned, sensitive or filtered "warn", its content and alt text are absent
   and its warning is shown; a "hide" filter's statuses are absent, and the header counts
   them ("filtered out"), as it counts the video ("without a picture").
2. Galleries say `1/4` and `1/2`, a GIF says `GIF`, a boost says `♺ Rover`.
3. `x` on a warned post shows its words; `x` again hides them.
4. The detail view of a four-picture post pages with → to `2/4` (that picture has no alt
   text, and says so) and stops at `4/4`. `X` shows every warned post (the header says so),
   the next run starts that way (the choice is kept), and `X` again hides them.
5. The grid never moves: every cell row has its borders in the same columns as the first.
6. Every fixture of Tests/Fixtures/Fediverse (real servers' shapes, every script and emoji
   sequence in names, content and alt text), served by scripts/fixtureserver.py: the first
   screen's borders line up, and no warned post's words are on it — in tmux, and in a real
   xterm (-ti vt340) under Xvfb, read back through xterm's own screen dump (its widths, not
   a table's).
7. `destinations login 127.0.0.1:PORT` as a person runs it: the authorization page it prints
   shows a code, pasted on its standard input; the token is kept in a file of mode 0600;
   `--feed home@…` opens the home timeline with it; `logout` revokes it (the home timeline
   then answers 401) and forgets it.
Times nothing: it polls until what it waits for is there (or 30 s pass).
"""
import concurrent.futures
import html
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

from e2etmux import Tmux
from feedserver import FeedServer
from fixtureserver import FixtureServer
from screencheck import misaligned_cells, misaligned_rows
from xtermscreen import XtermScreen, text_of
import xvfb


def fail(message):
    print(f"fediverse_e2e: FAIL: {message}")
    sys.exit(1)


tmux = Tmux("fediverse-e2e", fail)



def plain(content):
    """The words of a status's HTML, roughly as the app shows them (for looking them up)."""
    text = re.sub(r"<[^>]+>", " ", content or "")
    return " ".join(html.unescape(text).split())


def grid_part(text):
    """The screen above the HUD and the footer: the cells."""
    lines = text.splitlines()
    return "\n".join(lines[1:36])


def main():
    app, server = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    with FeedServer(server, "--posts", "120", "--shapes", "fediverse") as feed, tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as scratch:
        with urllib.request.urlopen(f"{feed.timeline}?limit=40", timeout=10) as response:
            statuses = json.load(response)
        shown, hidden_words, warnings, filtered = [], [], set(), []
        for status in statuses:
            inner = status.get("reblog") or status
            pictures = [m for m in inner["media_attachments"] if m["type"] in ("image", "gifv")]
            actions = [f["filter"]["filter_action"] for f in inner.get("filtered") or []]
            if "hide" in actions:
                filtered.append(plain(inner["content"]))
                continue
            if not pictures:
                continue
            warned = bool(inner.get("spoiler_text")) or inner.get("sensitive") or "warn" in actions
            shown.append((inner, warned))
            if warned:
                hidden_words.append(plain(inner["content"]))
                warnings.add(inner.get("spoiler_text") or ("filtered: " + inner["filtered"][0]["filter"]["title"] if actions else "sensitive"))
        tmux.stop()
        command = (f"env XDG_CACHE_HOME={scratch}/cache XDG_STATE_HOME={scratch}/state {app} --feed {feed.timeline} --hud off; sleep 60")
        tmux.start(command)
        try:
            first = tmux.wait_for(lambda text: "♥" in text and "posts ·" in text, "no feed on screen")
            top = grid_part(first)
            # 1. Hidden words: the statuses on the first screen (the first 15 posts shown).
            on_screen = shown[:15]
            for inner, warned in on_screen:
                words = plain(inner["content"])
                if warned and words in top:
                    fail(f"a hidden post's words are on screen: {words!r}")
                for media in inner["media_attachments"]:
                    alt = media.get("description")
                    if warned and alt and alt in top and alt != words:
                        fail(f"a hidden post's alt text is on screen: {alt!r}")
            seen_warnings = [w for w in warnings if w in top]
            if not seen_warnings:
                fail(f"no warning shown (expected some of {warnings})")
            if "filtered out" not in first.splitlines()[0] or "without a picture" not in first.splitlines()[0]:
                fail(f"the header does not count what it left out: {first.splitlines()[0]!r}")
            for words in filtered:
                if words in top:
                    fail(f"a status a 'hide' filter hides is on screen: {words!r}")
            # 2. Marks.
            for mark in ["1/4", "GIF", "♺ Rover", "sensitive · x shows", "content warning · x shows"]:
                if mark not in top:
                    fail(f"{mark!r} is not on the first screen")
            print(f"fediverse_e2e: first screen: {len([w for _, w in on_screen if w])} hidden posts, their words absent; "
                  f"warnings shown: {sorted(seen_warnings)}; marks 1/4, GIF, ♺ Rover present")
            # 5. Alignment.
            bad = misaligned_rows(top)
            if bad:
                fail(f"cells out of alignment:\n" + "\n".join(bad))
            # 3. x on the second post (a warned one in the fediverse shapes).
            second, second_warned = shown[1]
            if not second_warned:
                fail("the fediverse shapes' second post is not warned")
            words = plain(second["content"])
            tmux.keys("l", "x")
            tmux.wait_for(lambda text: words in grid_part(text), f"x did not show {words!r}")
            tmux.keys("x")
            tmux.wait_for(lambda text: words not in grid_part(text), f"x again did not hide {words!r}")
            print(f"fediverse_e2e: x showed {words!r} and hid it again")
            # 4. The gallery (the third post: four pictures).
            tmux.keys("l", "Enter")
            tmux.wait_for(lambda text: "1/4 ←/→" in text, "the detail view of the gallery does not say 1/4")
            tmux.keys("Right")
            at_two = tmux.wait_for(lambda text: "2/4 ←/→" in text, "→ did not turn to the second picture")
            if "has no alt text" not in at_two:
                fail("the second picture (without alt text) does not say so")
            tmux.keys("Right", "Right", "Right", "Right")
            tmux.wait_for(lambda text: "4/4 ←/→" in text, "→ did not stop at the fourth picture")
            print("fediverse_e2e: the gallery pages 1/4 → 2/4 (no alt text, said) → 4/4 and stops")
            # 4b. X: every warned post shown, said in the header, and remembered by the next run.
            tmux.keys("Escape", "X")
            shown_all = tmux.wait_for(lambda text: "warned posts shown (X hides)" in text.splitlines()[0] and "x shows" not in grid_part(text),
                                      "X did not show every warned post")
            absent = [plain(inner["content"]) for inner, warned in on_screen[:10] if warned and plain(inner["content"]) not in shown_all]
            if absent:
                fail(f"after X, warned posts' words still absent: {absent}")
            tmux.keys("q")
            tmux.stop(feed.timeline)
            tmux.start(command)
            tmux.wait_for(lambda text: "warned posts shown (X hides)" in text.splitlines()[0] and words in grid_part(text),
                          "the next run did not start with every warned post shown")
            tmux.keys("X")
            tmux.wait_for(lambda text: "warned posts shown" not in text.splitlines()[0] and words not in grid_part(text),
                          "X again did not hide them")
            print("fediverse_e2e: X showed every warned post, the next run started so, X again hid them")
            tmux.keys("q")
        finally:
            tmux.stop(feed.timeline)
    fixtures(app)
    fixtures_in_xterm(app)
    login(app, server)
    print("fediverse_e2e: PASS")


def login(app, server):
    with FeedServer(server, "--posts", "100") as feed, tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as config:
        environment = dict(os.environ, XDG_CONFIG_HOME=config, XDG_STATE_HOME=config + "/state")
        environment.pop("DISPLAY", None)
        environment.pop("WAYLAND_DISPLAY", None)
        name = f"127.0.0.1:{feed.port}"
        process = subprocess.Popen([app, "login", name], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   text=True, env=environment)
        said = ""
        while "code: " not in said:
            character = process.stderr.read(1)
            if not character:
                fail(f"login ended before asking for the code: {said}")
            said += character
        match = re.search(r"(http://127\.0\.0\.1:\d+/oauth/authorize\S+)", said)
        if not match:
            fail(f"login printed no authorization page: {said}")
        with urllib.request.urlopen(match.group(1), timeout=10) as response:
            code = re.search(r'oauth-code">(\w+)<', response.read().decode()).group(1)
        out, err = process.communicate(code + "\n", timeout=60)
        if process.returncode != 0 or "logged in" not in out:
            fail(f"login: status {process.returncode}: {out} {err}")
        kept = os.path.join(config, "destinations/accounts", f"127.0.0.1_{feed.port}.json")
        mode = os.stat(kept).st_mode & 0o777
        if mode != 0o600:
            fail(f"the token file is mode {oct(mode)}")
        run = subprocess.run([app, "--feed", f"home@{name}", "--scenario", "fling", "--duration", "1", "--report", "json"],
                             capture_output=True, text=True, timeout=120, env=environment)
        if run.returncode != 0 or json.loads(run.stdout)["network"]["pages"] < 1:
            fail(f"home@ with the kept token: {run.returncode} {run.stderr}")
        out = subprocess.run([app, "logout", name], capture_output=True, text=True, timeout=60, env=environment)
        if out.returncode != 0 or os.path.exists(kept):
            fail(f"logout: {out.returncode} {out.stdout} {out.stderr}")
        after = subprocess.run([app, "--feed", f"home@{name}", "--scenario", "fling", "--duration", "1"],
                               capture_output=True, text=True, timeout=120, env=environment)
        if after.returncode == 0 or "401" not in after.stderr:
            fail(f"after logout the home timeline still opened: {after.returncode} {after.stderr}")
        print(f"fediverse_e2e: login: code pasted, token kept (mode 600), home@ paged, logout revoked it (then: {after.stderr.strip()})")


def fixture_files():
    folder = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "Tests/Fixtures/Fediverse")
    return [os.path.join(folder, name) for name in sorted(f for f in os.listdir(folder) if f.endswith(".json"))]


def hidden_words(server):
    """The first words of every status of a fixture that must not be on screen: warned,
    sensitive, or caught by a filter that applies where the fixture is served."""
    hidden = []
    for status in server.statuses:
        inner = status.get("reblog") or status
        filters = [f["filter"] for f in (inner.get("filtered") or []) + ((status.get("filtered") or []) if inner is not status else [])]
        applying = [f for f in filters if server.context in (f.get("context") or [server.context])]
        if inner.get("spoiler_text") or inner.get("sensitive") or applying:
            words = plain(inner.get("content"))
            if len(words) >= 12:
                hidden.append(words[:24])
    return hidden


def judge(where, name, hidden, top, bad, whole):
    """One fixture's screen, read in tmux or in xterm: every row of cells aligned (`bad` lists
    those that are not) and none of the warned posts' words in the grid part `top`."""
    if bad:
        fail(f"{name}: cells out of alignment in {where}:\n" + "\n".join(bad) + "\n" + whole)
    leaked = [words for words in hidden if words in top]
    if leaked:
        fail(f"{name}: hidden words on {where}'s screen: {leaked}")
    rows = len([line for line in top.splitlines() if "♥" in line])
    print(f"fediverse_e2e: {where}: {name}: {rows} rows of cells aligned, {len(hidden)} warned posts' words absent")


def each_fixture(check):
    """`check(index, path)` for every fixture, three at a time: each has its own server,
    folders and tmux server or xterm window, and most of a check is waiting (for the first
    screen, then a second for the thumbnails), 18 checks one after another took 36 s. A
    failure in any (`fail` raises SystemExit in its thread) fails the test once all have ended."""
    files = fixture_files()
    with concurrent.futures.ThreadPoolExecutor(max_workers=3) as pool:
        list(pool.map(check, range(len(files)), files))


def fixtures(app):
    def check(index, path):
        name = os.path.basename(path)
        session = Tmux(f"fediverse-e2e-fixture-{index}", fail)
        with FixtureServer(path) as server, tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as scratch:
            hidden = hidden_words(server)
            command = f"env XDG_CACHE_HOME={scratch}/cache XDG_STATE_HOME={scratch}/state {app} --feed {server.timeline} --hud off; sleep 60"
            session.start(command)
            try:
                text = session.wait_for(lambda t: "♥" in t and "posts ·" in t, f"{name}: no feed on screen")
                time.sleep(1.0)  # the thumbnails that arrive redraw their cells
                text = session.screen()
                top = grid_part(text)
                judge("tmux", name, hidden, top, misaligned_rows(top), text)
            finally:
                session.stop(server.timeline)
    each_fixture(check)


def fixtures_in_xterm(app):
    """The same screens in a real xterm (-ti vt340: its thumbnails are sixel pixels), read
    back through xterm's own screen dump: where xterm put every border, by its widths."""
    missing = [tool for tool in ("Xvfb", "xterm") if shutil.which(tool) is None]
    if missing:
        print(f"fediverse_e2e: xterm: skipped, missing {', '.join(missing)} (make deps-e2e)")
        return
    display, env = xvfb.start("1920x1080x24")

    def check(index, path):
        name = os.path.basename(path)
        with FixtureServer(path) as server, tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as scratch:
            hidden = hidden_words(server)
            command = f"env XDG_CACHE_HOME={scratch}/cache XDG_STATE_HOME={scratch}/state {app} --feed {server.timeline} --hud off"
            with XtermScreen(dict(env, HOME=scratch), scratch, command) as xterm:
                xterm.wait_for(lambda rows: "♥" in text_of(rows) and "posts ·" in text_of(rows), f"{name}: no feed in xterm", fail)
                time.sleep(1.0)  # the thumbnails that arrive redraw their cells
                rows = xterm.cells()
                if rows is None:
                    fail(f"{name}: xterm wrote no screen dump")
                top = rows[1:36]
                judge("xterm", name, hidden, text_of(top), misaligned_cells(top), text_of(rows))
    try:
        each_fixture(check)
    finally:
        display.terminate()
        display.wait(timeout=10)

if __name__ == "__main__":
    main()
