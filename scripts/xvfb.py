"""A private X display for the scripts that run the app in a real terminal (sixel_e2e.py,
xterm_bench.py): checks the tools, starts Xvfb on a free display, says when it is up."""
import os
import shutil
import subprocess
import sys
import time


def require(tools, name, packages):
    """Exits 2 naming the missing tools (the caller's test is then skipped, not failed)."""
    missing = [tool for tool in tools if shutil.which(tool) is None]
    if missing:
        print(f"{name}: missing {', '.join(missing)} ({packages})")
        sys.exit(2)


def start(size="1280x720x24"):
    """Xvfb on the first free display from :93; returns (server, environment with DISPLAY),
    once the display answers (xdotool, else a second's wait)."""
    display = next(f":{n}" for n in range(93, 200) if not os.path.exists(f"/tmp/.X11-unix/X{n}"))
    server = subprocess.Popen(["Xvfb", display, "-screen", "0", size, "-nolisten", "tcp"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    env = dict(os.environ, DISPLAY=display)
    if shutil.which("xdotool"):
        for _ in range(50):
            if subprocess.run(["xdotool", "getmouselocation"], env=env, capture_output=True).returncode == 0:
                return server, env
            time.sleep(0.1)
    else:
        time.sleep(1)
    return server, env


def screenshot(env):
    """The whole display as (width, height, rgb bytes), 8 bits a sample: `xwd -root` through
    `xwdtopnm` (which writes two bytes a sample for a 32-bit visual such as kitty's)."""
    xwd = subprocess.run(["xwd", "-root", "-silent"], env=env, capture_output=True, check=True).stdout
    ppm = subprocess.run(["xwdtopnm"], input=xwd, capture_output=True, check=True).stdout
    # P6 <w> <h> <max>\n<rgb bytes>
    fields, index = [], 0
    while len(fields) < 4:
        while ppm[index:index + 1].isspace():
            index += 1
        start = index
        while not ppm[index:index + 1].isspace():
            index += 1
        fields.append(ppm[start:index])
    width, height, maxval, data = int(fields[1]), int(fields[2]), int(fields[3]), ppm[index + 1:]
    if maxval > 255:
        data = data[0::2]  # the high byte of each sample
    return width, height, data


class Shot:
    """A screenshot read as a terminal's cells: `cell` (width, height) pixels each, from
    `border` pixels in; a cell of `photo_colours` or more distinct colours counts as photo
    pixels (reading every `row_step`-th pixel row)."""

    def __init__(self, shot, cell, columns, rows, border=0, photo_colours=8, row_step=1):
        self.width, self.height, self.rgb = shot
        self.cell_w, self.cell_h = cell
        self.columns, self.rows, self.border = columns, rows, border
        self.photo_colours, self.row_step = photo_colours, row_step

    def pixel(self, x, y):
        i = (y * self.width + x) * 3
        return self.rgb[i:i + 3]

    def cell_colours(self, column, row):
        x0, y0 = self.border + column * self.cell_w, self.border + row * self.cell_h
        return len({self.pixel(x, y) for y in range(y0, y0 + self.cell_h, self.row_step) for x in range(x0, x0 + self.cell_w)})

    def photo_cells(self):
        """Cells of photo pixels, by (column, row)."""
        return {(c, r) for r in range(self.rows) for c in range(self.columns) if self.cell_colours(c, r) >= self.photo_colours}

    def band(self, row, x0, x1):
        """The pixels of text row `row` from x0 to x1, as bytes (to find it again elsewhere)."""
        y0 = self.border + row * self.cell_h
        return b"".join(self.rgb[((y0 + dy) * self.width + x0) * 3:((y0 + dy) * self.width + x1) * 3] for dy in range(self.cell_h))

    def save(self, path):
        with open(path, "wb") as out:
            out.write(b"P6 %d %d 255\n" % (self.width, self.height) + self.rgb)


def moved_band(first, second, photo, cell_w, border=0):
    """A band 20 cells wide across the photo cells of some row of `first`, found a whole
    number of rows higher in `second`: (row, shift), or None."""
    for row in sorted({r for (_, r) in photo}):
        columns = sorted(c for (c, r) in photo if r == row)
        if len(columns) < 20:
            continue
        x0, x1 = border + columns[0] * cell_w, border + (columns[0] + 20) * cell_w
        band = first.band(row, x0, x1)
        for shift in range(1, row + 1):
            if second.band(row - shift, x0, x1) == band:
                return row, shift
    return None


def stop(server, terminal, folder):
    """Ends the terminals this process started (by name), the display, and removes `folder`."""
    subprocess.run(["pkill", "-P", str(os.getpid()), terminal], capture_output=True)
    server.terminate()
    server.wait(timeout=10)
    shutil.rmtree(folder, ignore_errors=True)
