// The one C edge for ncurses. Package.swift does not ask pkg-config (its ncursesw flags are
// -D_DEFAULT_SOURCE -D_XOPEN_SOURCE=600 only, which SwiftPM refuses), so the wide-character
// API is switched on here; macros and C globals Swift cannot use are wrapped as functions.
#ifndef CNCURSESW_SHIM_H
#define CNCURSESW_SHIM_H

#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#define NCURSES_WIDECHAR 1

#include <locale.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>
#include <wchar.h>
#include <ncursesw/ncurses.h>
#include <ncursesw/term.h>

static inline WINDOW *cnc_stdscr(void) { return stdscr; }
static inline WINDOW *cnc_curscr(void) { return curscr; }
static inline int cnc_lines(void) { return LINES; }
static inline int cnc_cols(void) { return COLS; }
static inline int cnc_colors(void) { return COLORS; }
static inline int cnc_color_pairs(void) { return COLOR_PAIRS; }

static inline int cnc_key_resize(void) { return KEY_RESIZE; }
static inline int cnc_key_up(void) { return KEY_UP; }
static inline int cnc_key_down(void) { return KEY_DOWN; }
static inline int cnc_key_left(void) { return KEY_LEFT; }
static inline int cnc_key_right(void) { return KEY_RIGHT; }
static inline int cnc_key_npage(void) { return KEY_NPAGE; }
static inline int cnc_key_ppage(void) { return KEY_PPAGE; }
static inline int cnc_key_home(void) { return KEY_HOME; }
static inline int cnc_key_end(void) { return KEY_END; }
static inline int cnc_key_enter(void) { return KEY_ENTER; }
static inline int cnc_key_backspace(void) { return KEY_BACKSPACE; }
static inline int cnc_key_mouse(void) { return KEY_MOUSE; }
static inline int cnc_key_code_yes(void) { return KEY_CODE_YES; }
static inline int cnc_err(void) { return ERR; }

static inline attr_t cnc_a_bold(void) { return A_BOLD; }
static inline attr_t cnc_a_reverse(void) { return A_REVERSE; }
static inline attr_t cnc_a_dim(void) { return A_DIM; }
static inline attr_t cnc_a_underline(void) { return A_UNDERLINE; }
static inline attr_t cnc_a_normal(void) { return A_NORMAL; }
static inline attr_t cnc_a_invis(void) { return A_INVIS; }

/// Puts one cell: `text` is a NUL-terminated wide string (one character and any combining
/// marks); `pair` is an extended pair number (setcchar takes it through its opts pointer).
static inline int cnc_put_cell(WINDOW *window, int y, int x, const wchar_t *text, attr_t attributes, int pair) {
    cchar_t cell;
    if (setcchar(&cell, text, attributes, 0, &pair) != OK) return ERR;
    return mvwadd_wch(window, y, x, &cell);
}

/// Asks for mouse-wheel reports only (clicks stay with the terminal where it can).
static inline void cnc_enable_wheel(void) {
    mousemask(BUTTON4_PRESSED | BUTTON5_PRESSED, NULL);
    mouseinterval(0);
}

/// After KEY_MOUSE: -1 for wheel up, +1 for wheel down, 0 for anything else.
static inline int cnc_wheel_direction(void) {
    MEVENT event;
    if (getmouse(&event) != OK) return 0;
    if (event.bstate & BUTTON4_PRESSED) return -1;
#ifdef BUTTON5_PRESSED
    if (event.bstate & BUTTON5_PRESSED) return 1;
#endif
    return 0;
}

/// The interactive screen, like initscr() but for the terminfo entry `term` (which may
/// differ from TERM: a direct-colour variant), with its output on `out_fd` (a descriptor of the terminal, which
/// TerminalSession later points at a capture file: ncurses then writes each update into
/// memory, and the frame loop hands it to the terminal without blocking) and its input on
/// standard input. Unlike initscr(), fails with 0 instead of exiting.
static inline int cnc_start_interactive_on(const char *term, int out_fd) {
    FILE *out = fdopen(out_fd, "w");
    if (!out) return 0;
    SCREEN *screen = newterm(term, out, stdin);
    if (!screen) return 0;
    set_term(screen);
    return 1;
}

/// True when terminfo has an entry named `name`; loads it to check, then lets it go (call
/// before any screen exists).
static inline int cnc_terminfo_exists(const char *name) {
    int status = 0;
    if (setupterm(name, STDOUT_FILENO, &status) != OK) return 0;
    del_curterm(cur_term);
    return 1;
}

/// A screen whose output goes to `out_fd` and whose input comes from `in_fd` (headless
/// runs: /dev/null both ways), sized explicitly. Returns 0 on failure.
static inline int cnc_start_detached(const char *term, int out_fd, int in_fd, int height, int width) {
    FILE *out = fdopen(out_fd, "w");
    FILE *in = fdopen(in_fd, "r");
    if (!out || !in) return 0;
    SCREEN *screen = newterm(term, out, in);
    if (!screen) return 0;
    set_term(screen);
    resizeterm(height, width);
    return 1;
}

/// The character ncurses holds for the window at (y, x), for checking what it will show.
static inline wchar_t cnc_glyph_at(WINDOW *window, int y, int x) {
    cchar_t cell;
    wchar_t text[CCHARW_MAX + 1] = {0};
    attr_t attributes;
    short pair;
    if (mvwin_wch(window, y, x, &cell) != OK) return 0;
    if (getcchar(&cell, text, &attributes, &pair, NULL) == ERR) return 0;
    return text[0];
}

/// The colours ncurses will show the window's cell at (y, x) in: its colour pair's
/// definition *now* (a pair redefined since the cell was written shows the new colours).
/// Returns 0 when the cell or the pair cannot be read.
static inline int cnc_colors_at(WINDOW *window, int y, int x, int *foreground, int *background) {
    cchar_t cell;
    wchar_t text[CCHARW_MAX + 1] = {0};
    attr_t attributes;
    short pair;
    int extended = 0;
    if (mvwin_wch(window, y, x, &cell) != OK) return 0;
    if (getcchar(&cell, text, &attributes, &pair, &extended) == ERR) return 0;
    if (extended == 0 && pair > 0) extended = pair;
    if (extended == 0) { *foreground = -1; *background = -1; return 1; }
    return extended_pair_content(extended, foreground, background) == OK;
}

/// True when terminfo says the terminal takes 24-bit colours as colour numbers (xterm-direct).
static inline int cnc_has_direct_color(void) {
    return tigetflag("RGB") > 0 || COLORS >= 0x1000000;
}

/// Restores the terminal, then lets the signal do what it would have done: a crash in our
/// code must not leave the shell in raw mode on the alternate screen. endwin() is not on
/// the async-signal-safe list, but the process is about to die and a broken terminal is
/// the worse outcome.
/// For atexit: restores only a screen that is still active (a second endwin() would move
/// the cursor over what the app printed after the first).
static void cnc_endwin_if_active(void) {
    if (!isendwin()) endwin();
}

#endif
