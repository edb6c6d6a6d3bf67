// Giving the terminal back from a signal handler: what TerminalSession installs so that a
// crash, a Swift trap or SIGQUIT leaves the user's shell usable. A C target of its own
// because the handler's state must be real globals, defined once.
#ifndef TERMINAL_RESTORE_H
#define TERMINAL_RESTORE_H

/// Saves the terminal's modes (call before ncurses changes them).
void terminal_restore_save(int fd);

/// The descriptor frames are written to (not standard output): the handler silences it
/// before it restores the terminal (-1: none).
void terminal_restore_frames_fd(int fd);

/// Installs the handler for SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE and SIGQUIT,
/// remembering each signal's previous action to hand the signal on to.
void terminal_restore_install(void);

/// Catches SIGWINCH into a flag (before ncurses starts, so ncurses installs no handler of its
/// own: its handler asks the size of its output descriptor, which is a capture file).
void terminal_resize_install(void);

/// 1 once after each SIGWINCH since the last call, else 0.
int terminal_resize_take(void);

/// A file in memory for ncurses' output (`memfd_create`, which needs _GNU_SOURCE: defined
/// in this target's C file), or -1.
int terminal_capture_file(void);

/// Before the screen is taken (a feed's first page awaited): keys are read one at a time
/// without echo from `fd`, whose modes are saved here; SIGINT, SIGTERM, SIGHUP and SIGQUIT
/// put them back before they end the process as they would have. Returns 0, or -1 when `fd`
/// is not a terminal (nothing changed).
int terminal_wait_begin(int fd);

/// Puts the modes and the signals' actions back as they were before terminal_wait_begin.
void terminal_wait_end(void);

/// Crashes with `sig` the way a real fault of that kind would (tests of the restore).
void terminal_restore_crash_for_test(int sig);

#endif
