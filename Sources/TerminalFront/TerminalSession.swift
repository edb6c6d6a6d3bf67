import CNcursesw
import CTerminalRestore
import CoreKit
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
/// frame loop through ``TerminationSignals``), `exit()` anywhere (an `atexit` hook), and a
/// crash or SIGQUIT: an async-signal-safe handler writes a reset sequence, puts the saved
/// termios back, names the signal, then hands it on (to Swift's backtracer, or the default
/// action). Ctrl-Z is
/// ncurses' own business: it restores on suspend and redraws on `fg`.
/// Main thread only.
public final class TerminalSession {
    public private(set) var isActive = false
    /// What colours the terminal shows (`.none` without colour or with `NO_COLOR` set).
    public private(set) var capability = ColorCapability.none
    /// Headless: writing into /dev/null for measurement, no input.
    public private(set) var isHeadless = false
    /// Frames are wrapped in DEC mode 2026 so the terminal shows each one whole.
    /// Probed at start (DECRQM); `DESTINATIONS_SYNC_OUTPUT=1` or `0` overrides.
    public private(set) var supportsSynchronizedOutput = false
    /// Where ncurses writes.
    public private(set) var outputDescriptor: Int32 = STDOUT_FILENO

    public init() {}

    /// Takes over the terminal: locale, raw-ish input, no cursor, alternate screen, wheel.
    public func start() throws(TerminalError) {
        guard isatty(STDOUT_FILENO) == 1, isatty(STDIN_FILENO) == 1 else { throw .notATerminal }
        Self.useUTF8Locale()
        Self.unblockTerminalSignals()
        let environment = getenv("DESTINATIONS_SYNC_OUTPUT").map { String(cString: $0) }
        supportsSynchronizedOutput = environment.map { $0 == "1" } ?? SyncOutputProbe.query()
        set_escdelay(25)
        terminal_restore_save(STDOUT_FILENO)
        guard initscr() != nil else { throw .cannotInitialise(term: Self.termName ?? "unset") }
        isActive = true
        outputDescriptor = STDOUT_FILENO
        terminal_restore_install()
        atexit(cnc_endwin_if_active)
        cbreak()
        noecho()
        nonl()
        intrflush(cnc_stdscr(), false)
        keypad(cnc_stdscr(), true)
        nodelay(cnc_stdscr(), true)
        cnc_enable_wheel()
        configureScreen()
    }

    /// The same screen with no terminal: output to /dev/null (its bytes still counted by
    /// ``OutputMeter``), no input, a fixed size. TERM is used when it names a real terminal,
    /// else xterm-256color. Synchronized output is assumed, as a modern terminal has it.
    public func startHeadless(rows: Int, columns: Int) throws(TerminalError) {
        Self.useUTF8Locale()
        let term = Self.termName.flatMap { $0.isEmpty || $0 == "dumb" ? nil : $0 } ?? "xterm-256color"
        let output = open("/dev/null", O_WRONLY | O_CLOEXEC), input = open("/dev/null", O_RDONLY | O_CLOEXEC)
        guard output >= 0, input >= 0, cnc_start_detached(term, output, input, Int32(rows), Int32(columns)) != 0 else {
            throw .cannotInitialise(term: term)
        }
        isActive = true
        isHeadless = true
        outputDescriptor = output
        supportsSynchronizedOutput = true
        configureScreen()
    }

    private func configureScreen() {
        curs_set(0)
        // Lets ncurses move scrolled rows with the terminal's own scroll region instead of
        // rewriting them: a frame then sends little more than the newly exposed rows.
        idlok(cnc_stdscr(), true)
        scrollok(cnc_stdscr(), false)
        let noColor = getenv("NO_COLOR").map { $0.pointee != 0 } ?? false
        if has_colors() && !noColor {
            start_color()
            use_default_colors()
        }
        capability = CanvasPresenter.detectCapability(noColor: noColor)
    }

    private static var termName: String? { getenv("TERM").map { String(cString: $0) } }

    /// Wide characters need a UTF-8 locale; fall back to C.UTF-8 when the user's is not.
    private static func useUTF8Locale() {
        if setlocale(LC_ALL, "") == nil || !localeIsUTF8() {
            setlocale(LC_ALL, "C.UTF-8")
        }
    }

    /// `DESTINATIONS_CRASH=segv|bus|ill|trap|abrt|fpe|quit`: crashes that way (for tests of
    /// the crash restore). Nil when unset or unknown.
    public static var requestedCrash: Int32? {
        guard let name = getenv("DESTINATIONS_CRASH").map({ String(cString: $0) }) else { return nil }
        return ["segv": SIGSEGV, "bus": SIGBUS, "ill": SIGILL, "trap": SIGTRAP, "abrt": SIGABRT, "fpe": SIGFPE, "quit": SIGQUIT][name]
    }

    /// Crashes with `signal` as a real fault would (see ``requestedCrash``).
    public static func crash(with signal: Int32) -> Never {
        terminal_restore_crash_for_test(signal)
        fatalError("DESTINATIONS_CRASH: signal \(signal) did not end the process")
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
        if isHeadless { return false }
        var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, 0) > 0 else { return false }
        return descriptor.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0
    }

    /// Sleeps in `poll` on the terminal (not when headless) and `wake`, at most `timeout`
    /// (nil: no limit); a signal (SIGWINCH, SIGTSTP's return) also ends it. True unless it
    /// timed out. Empties `wake` before returning.
    public func waitForInput(wake: WakeSignal?, timeout: Duration?) -> Bool {
        var descriptors: [pollfd] = []
        if !isHeadless { descriptors.append(pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)) }
        if let wake { descriptors.append(pollfd(fd: wake.descriptor, events: Int16(POLLIN), revents: 0)) }
        let milliseconds: Int32 = timeout.map { timeout in
            let nanoseconds = max(timeout.nanoseconds, 0)
            return Int32(min((nanoseconds + 999_999) / 1_000_000, Int64(Int32.max)))
        } ?? -1
        let ready = poll(&descriptors, nfds_t(descriptors.count), milliseconds)
        wake?.clear()
        return ready != 0
    }

    /// Current size in cells.
    public var size: (rows: Int, columns: Int) {
        (Int(getmaxy(cnc_stdscr())), Int(getmaxx(cnc_stdscr())))
    }

    /// The next pending key, or nil when there is none (never blocks).
    public func nextKey() -> Key? {
        if isHeadless { return nil }
        var character: wint_t = 0
        let status = wget_wch(cnc_stdscr(), &character)
        if status == cnc_err() { return nil }
        if status == cnc_key_code_yes() {
            if Int32(character) == cnc_key_mouse() {
                let direction = cnc_wheel_direction()
                return direction == 0 ? .unknown(Int32(character)) : .wheel(Int(direction))
            }
            return Self.decode(functionKey: Int32(character))
        }
        return Self.decode(character: UInt32(character))
    }

    /// A parent may have started us with signals blocked (a thread pool's mask is
    /// inherited through exec); resize, suspend and quit must reach us all the same.
    private static func unblockTerminalSignals() {
        var set = sigset_t()
        sigemptyset(&set)
        for number in [SIGWINCH, SIGTSTP, SIGCONT, SIGINT, SIGTERM, SIGHUP, SIGQUIT] { sigaddset(&set, number) }
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
