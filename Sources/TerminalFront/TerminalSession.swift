import CNcursesw
#if canImport(Glibc)
import Glibc
#endif

/// Why the terminal could not be used; the text is what the app prints before exiting.
public enum TerminalError: Error, CustomStringConvertible, Equatable {
    case notATerminal
    case cannotInitialise(term: String)

    public var description: String {
        switch self {
        case .notATerminal:
            "standard output is not a terminal"
        case .cannotInitialise(let term):
            "cannot start the terminal (TERM=\(term)); is its terminfo entry installed? (apt-get install ncurses-term)"
        }
    }
}

/// One ncurses screen, from start to guaranteed restore.
///
/// Every exit path ends in ``end()``: a normal quit, a termination signal (polled by the
/// frame loop through ``TerminationSignals``), `exit()` anywhere (an `atexit` hook) and a
/// crash in our own code (a fatal-signal handler restores, then re-raises). Ctrl-Z is
/// ncurses' own business: it restores on suspend and redraws on `fg`.
/// Main thread only.
public final class TerminalSession {
    public private(set) var isActive = false
    /// What colours the terminal shows (`.none` without colour or with `NO_COLOR` set).
    public private(set) var capability = ColorCapability.none

    public init() {}

    /// Takes over the terminal: locale, raw-ish input, no cursor, alternate screen.
    public func start() throws(TerminalError) {
        guard isatty(STDOUT_FILENO) == 1, isatty(STDIN_FILENO) == 1 else { throw .notATerminal }
        // Wide characters need a UTF-8 locale; fall back to C.UTF-8 when the user's is not.
        if setlocale(LC_ALL, "") == nil || !Self.localeIsUTF8() {
            setlocale(LC_ALL, "C.UTF-8")
        }
        Self.unblockTerminalSignals()
        set_escdelay(25)
        guard initscr() != nil else { throw .cannotInitialise(term: String(cString: getenv("TERM") ?? strdup("unset"))) }
        isActive = true
        cnc_install_fatal_handlers()
        atexit(cnc_endwin_if_active)
        cbreak()
        noecho()
        nonl()
        intrflush(cnc_stdscr(), false)
        keypad(cnc_stdscr(), true)
        nodelay(cnc_stdscr(), true)
        curs_set(0)
        let noColor = getenv("NO_COLOR").map { $0.pointee != 0 } ?? false
        if has_colors() && !noColor {
            start_color()
            use_default_colors()
        }
        capability = CanvasPresenter.detectCapability(noColor: noColor)
    }

    /// Gives the terminal back exactly as it was. Safe to call more than once.
    public func end() {
        guard isActive else { return }
        isActive = false
        endwin()
    }

    deinit { end() }

    /// True once the terminal has gone away (its window closed, the tmux server killed,
    /// the ssh link dropped): input reports a hang-up. A frame loop that keeps running
    /// then would spin forever writing into nothing, so the app stops as for SIGHUP.
    public var isHungUp: Bool {
        var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, 0) > 0 else { return false }
        return descriptor.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0
    }

    /// Current size in cells.
    public var size: (rows: Int, columns: Int) {
        (Int(getmaxy(cnc_stdscr())), Int(getmaxx(cnc_stdscr())))
    }

    /// The next pending key, or nil when there is none (never blocks).
    public func nextKey() -> Key? {
        var character: wint_t = 0
        let status = wget_wch(cnc_stdscr(), &character)
        if status == cnc_err() { return nil }
        if status == cnc_key_code_yes() { return Self.decode(functionKey: Int32(character)) }
        return Self.decode(character: UInt32(character))
    }

    /// A parent may have started us with signals blocked (a thread pool's mask is
    /// inherited through exec); resize, suspend and quit must reach us all the same.
    private static func unblockTerminalSignals() {
        var set = sigset_t()
        sigemptyset(&set)
        for number in [SIGWINCH, SIGTSTP, SIGCONT, SIGINT, SIGTERM, SIGHUP] { sigaddset(&set, number) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    private static func localeIsUTF8() -> Bool {
        guard let codeset = nl_langinfo(nl_item(CODESET)) else { return false }
        let name = String(cString: codeset).uppercased()
        return name == "UTF-8" || name == "UTF8"
    }

    static func decode(functionKey code: Int32) -> Key {
        switch code {
        case cnc_key_up(): .up
        case cnc_key_down(): .down
        case cnc_key_left(): .left
        case cnc_key_right(): .right
        case cnc_key_npage(): .pageDown
        case cnc_key_ppage(): .pageUp
        case cnc_key_home(): .home
        case cnc_key_end(): .end
        case cnc_key_enter(): .enter
        case cnc_key_backspace(): .backspace
        case cnc_key_resize(): .resize
        case 265...(265 + 63): .function(Int(code) - 264)  // KEY_F(n) = KEY_F0 + n, KEY_F0 = 264
        default: .unknown(code)
        }
    }

    static func decode(character value: UInt32) -> Key {
        switch value {
        case 13, 10: .enter
        case 27: .escape
        case 9: .tab
        case 8, 127: .backspace
        case 0..<32: .control(UInt8(value))
        default: Unicode.Scalar(value).map { .character(Character($0)) } ?? .unknown(Int32(bitPattern: value))
        }
    }
}
