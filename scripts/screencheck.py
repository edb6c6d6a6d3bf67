"""Whether a captured screen's cells line up: every cell row has its borders in the same
columns as the first, counted in the terminal's columns (tmux's capture prints a wide
character once; glibc's wcwidth, which tmux uses, says how many columns it took)."""
import ctypes
import locale

_libc = ctypes.CDLL("libc.so.6")
_libc.wcwidth.restype = ctypes.c_int
_libc.wcwidth.argtypes = [ctypes.c_wchar]
locale.setlocale(locale.LC_CTYPE, "C.UTF-8")


def width(character):
    w = _libc.wcwidth(character)
    return max(0, w)


def border_columns(line):
    """The columns of the box characters of `line`, as the terminal placed them."""
    columns, column = [], 0
    for character in line:
        if character in "│┌┐└┘":
            columns.append(column)
        column += width(character)
    return columns


def misaligned_rows(text):
    """Rows whose borders are not where the widest row of boxes has them (a row may hold
    fewer cells, the last of a feed: its borders must be the first ones), with the row.
    Only the rows where a border can be told from a picture are read: the boxes' top and
    bottom edges and the three text rows (title, author, likes; the likes row has the
    heart) — a thumbnail drawn in symbols may hold box-drawing characters itself."""
    lines = text.splitlines()
    rows = [line for line in lines if line.strip().startswith(("┌", "└"))]
    for index, line in enumerate(lines):
        if "♥" in line and line.strip().startswith("│"):
            rows += [lines[i] for i in (index - 2, index - 1, index) if i >= 0]
    if not rows:
        return []
    expected = max((border_columns(line) for line in rows), key=len)
    bad = []
    for line in rows:
        found = border_columns(line)
        if found != expected[:len(found)] or len(found) % 2:
            bad.append(f"borders at {found}, expected {expected}: {line}")
    return bad
