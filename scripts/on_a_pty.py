#!/usr/bin/env python3
"""Runs a command with its standard output on a pseudo-terminal that says it is COLUMNS x
ROWS cells of WIDTH x HEIGHT pixels (TIOCGWINSZ), raw, and copies what it writes to our
standard output. For tools that size their pictures from the terminal's cells, as chafa
does (`destinations-bench sixel` compares its sixel with the app's at the app's cell size).

    python3 scripts/on_a_pty.py COLUMNS ROWS WIDTH HEIGHT COMMAND [ARGUMENT…]
"""
import fcntl
import os
import pty
import struct
import subprocess
import sys
import termios
import tty

columns, rows, width, height = map(int, sys.argv[1:5])
master, slave = pty.openpty()
fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, columns * width, rows * height))
tty.setraw(slave)
child = subprocess.Popen(sys.argv[5:], stdout=slave, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
os.close(slave)
while True:
    try:
        data = os.read(master, 65536)
    except OSError:  # EIO: the child closed its end
        break
    if not data:
        break
    sys.stdout.buffer.write(data)
sys.exit(child.wait())
