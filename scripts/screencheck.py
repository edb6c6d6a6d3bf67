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
    """Rows whose borders are not where the first row of boxes has them, with the row."""
    rows = [line for line in text.splitlines() if line.strip().startswith(("│", "┌", "└"))]
    if not rows:
        return []
    expected = border_columns(rows[0])
    bad = []
    for number, line in enumerate(rows):
        found = border_columns(line)
        if found and found != expected[:len(found)] and len(found) == len(expected):
            bad.append(f"row {number}: borders at {found}, expected {expected}: {line}")
        elif found and len(found) != len(expected) and line.strip().startswith("│"):
            bad.append(f"row {number}: {len(found)} borders, expected {len(expected)}: {line}")
    return bad
