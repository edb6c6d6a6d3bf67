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
    /// Colours the terminal offers (0 when it has none or `NO_COLOR` is set).
    public private(set) var colorCount = 0

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
        if has_colors() && getenv("NO_COLOR") == nil {
            start_color()
            use_default_colors()
            colorCount = Int(cnc_colors())
            for (index, color) in TerminalColor.allCases.enumerated() {
                init_pair(Int16(index + 1), Int16(color.rawValue), -1)
            }
        }
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

    /// Replaces the screen with `lines` (clipped to the screen) and shows it.
    public func draw(_ lines: [StyledLine]) {
        let (rows, columns) = size
        werase(cnc_stdscr())
        for (row, line) in lines.prefix(rows).enumerated() {
            var column = 0
            for span in line.spans where column < columns {
                let attributes = attributes(for: span.style)
                wattr_on(cnc_stdscr(), attributes, nil)
                let text = String(span.text.prefix(columns - column))
                mvwaddstr(cnc_stdscr(), Int32(row), Int32(column), text)
                wattr_off(cnc_stdscr(), attributes, nil)
                column += text.count
            }
        }
        wrefresh(cnc_stdscr())
    }

    private func attributes(for style: TextStyle) -> attr_t {
        var value = cnc_a_normal()
        if style.bold { value |= cnc_a_bold() }
        if style.reverse { value |= cnc_a_reverse() }
        if style.dim { value |= cnc_a_dim() }
        if let color = style.color, colorCount > 0, let index = TerminalColor.allCases.firstIndex(of: color) {
            value |= attr_t(COLOR_PAIR(Int32(index + 1)))
        }
        return value
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

/// The eight standard terminal colours, the ones every colour terminal has.
public enum TerminalColor: Int, CaseIterable, Sendable {
    case black = 0, red, green, yellow, blue, magenta, cyan, white
}

public struct TextStyle: Hashable, Sendable {
    public var color: TerminalColor?
    public var bold = false
    public var reverse = false
    public var dim = false

    public init(color: TerminalColor? = nil, bold: Bool = false, reverse: Bool = false, dim: Bool = false) {
        self.color = color
        self.bold = bold
        self.reverse = reverse
        self.dim = dim
    }

    public static let plain = TextStyle()
}

/// A row of text made of styled spans.
public struct StyledLine: Sendable {
    public var spans: [(text: String, style: TextStyle)]

    public init(_ text: String = "", _ style: TextStyle = .plain) {
        spans = text.isEmpty ? [] : [(text, style)]
    }

    public mutating func append(_ text: String, _ style: TextStyle = .plain) {
        spans.append((text, style))
    }
}
