"""A real xterm's screen, read back cell by cell: the app runs in `xterm -ti vt340` under
Xvfb, and xterm itself writes what it shows, through its own screen dump (`CSI 11 i`, an
SVG file of every cell at its column), into the folder it was started in. The dump is
asked for by writing the sequence to the app's terminal from outside (the app is at rest,
so it lands between two of its frames).

This is xterm's own account of where every character went — its widths, not a table's:
what the alignment test of issue 45 compares, as tmux's capture is for tmux.

    with XtermScreen(env, folder, "destinations --feed …") as xterm:
        rows = xterm.wait_for(lambda rows: any("♥" in "".join(row) for row in rows), "posts")
"""
import glob
import os
import re
import shlex
import subprocess
import time

TEXT = re.compile(r"<text x='(\d+)' y='\d+'>(.*?)</text>", re.S)
ROW = re.compile(r"<!-- Row (\d+) -->")
VIEWBOX = re.compile(r"viewBox='0 0 (\d+) (\d+)'")
BORDER = 2  # xterm's internal border, in pixels


def unescape(text):
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"').replace("&apos;", "'").replace("&amp;", "&")


def parse_svg(svg, columns):
    """Rows of cells: each row a list of `columns` strings, the text xterm keeps in each cell
    (" " for a blank, "" for the second column of a wide character)."""
    width = int(VIEWBOX.search(svg).group(1))
    cell = (width - 2 * BORDER) // columns
    rows = []
    parts = ROW.split(svg)
    # parts: [before, "0", row 0's markup, "1", row 1's markup, …]
    for index in range(1, len(parts), 2):
        row = [" "] * columns
        for x, text in TEXT.findall(parts[index + 1]):
            column = (int(x) - BORDER) // cell
            if 0 <= column < columns:
                row[column] = unescape(text)
        rows.append(row)
    return rows


class XtermScreen:
    def __init__(self, env, folder, command, columns=160, rows=48):
        """`command`: a shell command line, run in `folder` (where the dumps land)."""
        self.env, self.folder, self.columns, self.rows = env, folder, columns, rows
        self.tty_file = os.path.join(folder, "tty")
        wrapped = f"tty > {shlex.quote(self.tty_file)}; {command}"
        # UTF-8 whatever the caller's locale (a CI job may have none): xterm's `-u8` and the
        # app's locale both.
        env = dict(env, LC_ALL="C.UTF-8")
        env.pop("COLORTERM", None)
        self.process = subprocess.Popen(["xterm", "-u8", "-ti", "vt340", "-geometry", f"{columns}x{rows}+0+0", "-e", "sh", "-c", wrapped],
                                        cwd=folder, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()

    def cells(self, timeout=5):
        """The screen now, as xterm holds it (``parse_svg``); None when xterm wrote no dump
        within `timeout` s."""
        if not os.path.exists(self.tty_file):
            return None
        for old in glob.glob(os.path.join(self.folder, "xterm.*.svg")):
            os.remove(old)
        tty = open(self.tty_file).read().strip()
        if not tty:
            return None  # the shell made the file; `tty` has not written it yet
        with open(tty, "w") as terminal:
            terminal.write("\033[11i")
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            dumps = glob.glob(os.path.join(self.folder, "xterm.*.svg"))
            if dumps:
                svg = open(dumps[0], encoding="utf-8", errors="replace").read()
                # Written in one go, but read only once it is whole.
                if svg.rstrip().endswith("</svg>"):
                    return parse_svg(svg, self.columns)
            time.sleep(0.1)
        return None

    def wait_for(self, predicate, what, fail, timeout=30):
        """The cells once `predicate(rows)` holds (polled every half second)."""
        deadline = time.monotonic() + timeout
        rows = None
        while time.monotonic() < deadline:
            rows = self.cells()
            if rows is not None and predicate(rows):
                return rows
            time.sleep(0.5)
        # Where no dump came, say why it could not: xterm gone, or its shell never wrote the tty.
        state = "running" if self.process.poll() is None else f"exited with {self.process.returncode}"
        tty = "present" if os.path.exists(self.tty_file) else "absent"
        fail(f"{what} (xterm {state}, tty file {tty}); xterm's screen:\n" + ("\n".join("".join(row) for row in rows) if rows else "(no dump)"))


def text_of(rows):
    """The screen as text (a wide character once, as tmux's capture prints it)."""
    return "\n".join("".join(row).rstrip() for row in rows)
