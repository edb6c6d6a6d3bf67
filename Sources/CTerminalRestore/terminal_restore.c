// Everything the handler does is async-signal-safe: it writes a reset sequence prepared in
// advance (synchronized output off, plain attributes, mouse reporting off, cursor shown,
// alternate screen left), puts the saved termios back with tcsetattr, writes one line
// naming the signal, then calls whoever had the signal before (Swift's runtime
// backtracer, which prints on the normal screen), and ends the process with the signal's
// default action, whether it came from a fault or from kill(2), so the exit status and any
// core dump stay honest. SIGQUIT (Ctrl-\) goes to the default action: one
// line, exit status 131, no backtrace. endwin() is not safe here: a crash inside ncurses
// or malloc would deadlock or garble it.
#define _GNU_SOURCE
#include "terminal_restore.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

static struct termios saved_termios;
static volatile sig_atomic_t have_saved_termios = 0;
static int terminal_fd = 1;
static volatile sig_atomic_t frames_fd = -1;
static struct sigaction previous_actions[65];
// CAN and ST first: the frame writer may have been in the middle of a sixel or kitty
// image (a DCS or APC string), whose parser would swallow the reset otherwise.
static const char reset_sequence[] = "\030\033\\\033[?2026l\033[0m\033[?1000l\033[?1002l\033[?1006l\033[?25h\033[?1049l\r\n";

static const char *line_for(int sig) {
    switch (sig) {
    case SIGSEGV: return "destinations: crashed (SIGSEGV, invalid memory access); the terminal was restored\n";
    case SIGBUS: return "destinations: crashed (SIGBUS, bad memory access); the terminal was restored\n";
    case SIGILL: return "destinations: crashed (SIGILL, a Swift runtime trap or an illegal instruction); the terminal was restored\n";
    case SIGTRAP: return "destinations: crashed (SIGTRAP, a Swift runtime trap); the terminal was restored\n";
    case SIGABRT: return "destinations: aborted (SIGABRT); the terminal was restored\n";
    case SIGFPE: return "destinations: crashed (SIGFPE, an arithmetic error); the terminal was restored\n";
    case SIGQUIT: return "destinations: quit (SIGQUIT); the terminal was restored\n";
    default: return "destinations: stopped by a signal; the terminal was restored\n";
    }
}

/// Calls whoever had `sig` before this handler was installed (Swift's runtime backtracer),
/// as a chained handler, on this same signal frame: it prints its backtrace on the normal
/// screen the reset left. Nothing when that was the default action or ignoring.
static void run_previous_action(int sig, siginfo_t *info, void *context) {
    const struct sigaction *previous = &previous_actions[sig];
    if (previous->sa_flags & SA_SIGINFO) {
        if (previous->sa_sigaction != NULL) previous->sa_sigaction(sig, info, context);
    } else if (previous->sa_handler != SIG_DFL && previous->sa_handler != SIG_IGN && previous->sa_handler != NULL) {
        previous->sa_handler(sig);
    }
}

static void handler(int sig, siginfo_t *info, void *context) {
    // The signal may be handled on a worker while the main thread goes on writing frames:
    // their descriptor is pointed at /dev/null first, so nothing lands after the reset.
    if (frames_fd >= 0) {
        int null_fd = open("/dev/null", O_WRONLY);
        if (null_fd >= 0) {
            dup2(null_fd, frames_fd);
            close(null_fd);
        }
    }
    ssize_t ignored = write(terminal_fd, reset_sequence, sizeof reset_sequence - 1);
    if (have_saved_termios) tcsetattr(terminal_fd, TCSANOW, &saved_termios);
    const char *line = line_for(sig);
    ignored = write(STDERR_FILENO, line, strlen(line));
    (void)ignored;
    // Ctrl-\ is a person quitting, not a crash: the default action (exit 131), without
    // Swift's backtracer and its report.
    if (sig != SIGQUIT) run_previous_action(sig, info, context);
    // Then the process ends with the signal, whoever sent it. The previous handler (Swift's
    // backtracer) returns once it has printed; a handler that returns from a fault sees it
    // happen again, but one that returns from a signal sent by kill(2) or raise(3) would
    // resume the program (issue 43: the app went back to its frame loop after `kill -SEGV`).
    // So the default action goes in place and the signal is raised again: pending while this
    // handler runs, it is delivered on return and ends the process (a fault that recurs on
    // return ends it the same way), with the signal's status and any core dump.
    struct sigaction default_action;
    memset(&default_action, 0, sizeof default_action);
    default_action.sa_handler = SIG_DFL;
    sigemptyset(&default_action.sa_mask);
    sigaction(sig, &default_action, NULL);
    raise(sig);
}

void terminal_restore_save(int fd) {
    terminal_fd = fd;
    have_saved_termios = tcgetattr(fd, &saved_termios) == 0;
}

void terminal_restore_frames_fd(int fd) {
    frames_fd = fd;
}

void terminal_restore_install(void) {
    const int signals[] = { SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE, SIGQUIT };
    for (unsigned i = 0; i < sizeof signals / sizeof signals[0]; i++) {
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_sigaction = handler;
        sigemptyset(&action.sa_mask);
        action.sa_flags = SA_SIGINFO | SA_ONSTACK;
        sigaction(signals[i], &action, &previous_actions[signals[i]]);
    }
}

static volatile sig_atomic_t resized = 0;

static void resize_handler(int sig) {
    (void)sig;
    resized = 1;
}

void terminal_resize_install(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = resize_handler;
    sigemptyset(&action.sa_mask);
    action.sa_flags = 0;  // no SA_RESTART: the frame loop's poll must wake
    sigaction(SIGWINCH, &action, NULL);
}

int terminal_resize_take(void) {
    if (!resized) return 0;
    resized = 0;
    return 1;
}

static struct termios wait_termios;
static volatile sig_atomic_t wait_fd = -1;
static const int wait_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
static struct sigaction wait_previous[4];

static void wait_handler(int sig) {
    if (wait_fd >= 0) tcsetattr(wait_fd, TCSANOW, &wait_termios);
    // The status line is cleared: the shell's prompt comes back in its place.
    ssize_t ignored = write(STDERR_FILENO, "\r\033[K", 4);
    (void)ignored;
    struct sigaction default_action;
    memset(&default_action, 0, sizeof default_action);
    default_action.sa_handler = SIG_DFL;
    sigemptyset(&default_action.sa_mask);
    sigaction(sig, &default_action, NULL);
    raise(sig);  // delivered on return: the status the signal would have given
}

int terminal_wait_begin(int fd) {
    struct termios modes;
    if (tcgetattr(fd, &modes) != 0) return -1;
    wait_termios = modes;
    wait_fd = fd;
    for (unsigned i = 0; i < sizeof wait_signals / sizeof wait_signals[0]; i++) {
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_handler = wait_handler;
        sigemptyset(&action.sa_mask);
        sigaction(wait_signals[i], &action, &wait_previous[i]);
    }
    modes.c_lflag &= ~(tcflag_t)(ICANON | ECHO);  // ISIG stays: Ctrl-C is still SIGINT
    modes.c_cc[VMIN] = 0;
    modes.c_cc[VTIME] = 0;
    if (tcsetattr(fd, TCSANOW, &modes) == 0) return 0;
    terminal_wait_end();  // nothing changed: the handlers go too
    return -1;
}

void terminal_wait_end(void) {
    if (wait_fd < 0) return;
    tcsetattr(wait_fd, TCSANOW, &wait_termios);
    wait_fd = -1;
    for (unsigned i = 0; i < sizeof wait_signals / sizeof wait_signals[0]; i++) sigaction(wait_signals[i], &wait_previous[i], NULL);
}

void terminal_restore_crash_for_test(int sig) {
    if (sig == SIGSEGV) {
        volatile int *nowhere = (volatile int *)16;
        *nowhere = 1;
    }
    if (sig == SIGFPE) {
        volatile int zero = 0, one = 1;
        one = one / zero;
    }
    raise(sig);
}

int terminal_capture_file(void) {
    return memfd_create("destinations-frames", MFD_CLOEXEC);
}
