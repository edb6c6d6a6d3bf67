// The C library's wcwidth(3) under the C.UTF-8 locale, for a whole table at once: Swift's
// Glibc module does not export wcwidth (it needs _XOPEN_SOURCE), and the table must come
// from the same function ncurses and tmux ask, whatever locale the process runs in.
#ifndef TERMINAL_WIDTH_H
#define TERMINAL_WIDTH_H

/// Fills `widths[v]` with wcwidth(v) for every v below `count` (negative answers, for
/// controls and unassigned code points, become 0), asked under C.UTF-8 on the calling
/// thread only. Returns 0, or -1 when the system has no UTF-8 locale (nothing written).
int terminal_width_table(unsigned char *widths, unsigned int count);

#endif
