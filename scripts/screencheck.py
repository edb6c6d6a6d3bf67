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


BOXES = "│┌┐└┘"


def border_columns(line):
    """The columns of the box characters of `line`, as the terminal placed them."""
    columns, column = [], 0
    for character in line:
        if character in BOXES:
            columns.append(column)
        column += width(character)
    return columns


def misaligned_rows(text):
    """Rows of a tmux capture whose borders are not where the widest row of boxes has
    them, with the row (``misaligned``)."""
    return misaligned([(line, border_columns(line)) for line in text.splitlines()])


def misaligned_cells(rows):
    """The same for a screen read cell by cell (xtermscreen.py: each row a list of cells,
    so a border's column is where the terminal put it, with no width table involved)."""
    return misaligned([("".join(row), [i for i, cell in enumerate(row) if cell and cell in BOXES]) for row in rows])


def misaligned(lines):
    """`lines`: (text, border columns) of each screen row. Rows whose borders are not where
    the widest row of boxes has them (a row may hold fewer cells, the last of a feed: its
    borders must be the first ones), with the row. Only the rows where a border can be told
    from a picture are read: the boxes' top and bottom edges and the three text rows (title,
    author, likes; the likes row has the heart) — a thumbnail drawn in symbols may hold
    box-drawing characters itself."""
    rows = [entry for entry in lines if entry[0].strip().startswith(("┌", "└"))]
    for index, (line, _) in enumerate(lines):
        if "♥" in line and line.strip().startswith("│"):
            rows += [lines[i] for i in (index - 2, index - 1, index) if i >= 0]
    if not rows:
        return []
    expected = max((columns for _, columns in rows), key=len)
    bad = []
    for line, found in rows:
        if found != expected[:len(found)] or len(found) % 2:
            bad.append(f"borders at {found}, expected {expected}: {line}")
    return bad
