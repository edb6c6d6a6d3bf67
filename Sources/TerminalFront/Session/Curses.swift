import CellCanvas
import CNcursesw

/// Every ncurses call of the project, in one place: starting and ending a screen, its
/// size, reading keys, and what ``CanvasPresenter`` needs to put cells, scroll rows,
/// manage colour pairs and update the terminal. The rest of TerminalFront speaks in
/// cells, keys and rows; only this file knows ncurses (and its C shim).
enum Curses {
    // MARK: Screens

    /// Takes over the terminal ncurses-style with terminfo entry `term`, writing to
    /// `output` (a descriptor of the terminal): raw-ish input
    /// without echo, keypad and the mouse wheel decoded, reads that never block. False when
    /// the entry cannot be loaded.
    static func startInteractive(term: String, output: Int32) -> Bool {
        set_escdelay(Int32(escapeDelayMilliseconds))
        guard cnc_start_interactive_on(term, output) != 0 else { return false }
        atexit(cnc_endwin_if_active)
        cbreak()
        noecho()
        nonl()
        intrflush(cnc_stdscr(), false)
        keypad(cnc_stdscr(), true)
        nodelay(cnc_stdscr(), true)
        cnc_enable_wheel()
        return true
    }

    /// How long a lone ESC waits for the rest of an escape sequence before it is the Esc key.
    /// Keys are read inside the commit, so the wait is commit time: at 25 ms every Esc
    /// (closing the help or the detail view, clearing a filter) was a hitch of three ticks
    /// at 120 Hz. A terminal sends a key's sequence in one write, so its bytes are already
    /// there when ncurses looks (the wait costs nothing for them); 4 ms keeps a commit with
    /// an Esc under half of 120 Hz's period, and still joins a sequence split by a link.
    static let escapeDelayMilliseconds = 4

    /// True when terminfo has an entry called `name` (before any screen exists).
    static func terminfoExists(_ name: String) -> Bool { cnc_terminfo_exists(name) != 0 }

    /// A screen for terminal `term` on the given descriptors at a fixed size (headless).
    static func startDetached(term: String, output: Int32, input: Int32, rows: Int, columns: Int) -> Bool {
        cnc_start_detached(term, output, input, Int32(rows), Int32(columns)) != 0
    }

    /// No cursor, scrolled rows moved by the terminal (`idlok`), colours when the
    /// terminal has them and `noColor` is false; returns the colour capability.
    static func configureScreen(noColor: Bool) -> ColorCapability {
        curs_set(0)
        // Lets ncurses move scrolled rows with the terminal's own scroll region instead of
        // rewriting them: a frame then sends little more than the newly exposed rows.
        idlok(cnc_stdscr(), true)
        scrollok(cnc_stdscr(), false)
        if has_colors() && !noColor {
            start_color()
            use_default_colors()
        }
        return ColorCapability.detect(colors: has_colors() ? Int(cnc_colors()) : 0, directFlag: cnc_has_direct_color() != 0, noColor: noColor)
    }

    static func end() { endwin() }

    /// After ``end()``: back to the program's terminal modes (on ncurses' descriptor, which
    /// must be the terminal again).
    static func resumeModes() { reset_prog_mode() }

    /// After ``resumeModes()``: ncurses takes the screen again (the alternate screen, keypad
    /// mode, a repaint), written wherever its descriptor now points.
    static func resumeScreen() { refresh() }

    /// The terminal is `rows` × `columns` now (after SIGWINCH).
    static func resize(rows: Int, columns: Int) { resizeterm(Int32(rows), Int32(columns)) }

    static var size: (rows: Int, columns: Int) { (Int(getmaxy(cnc_stdscr())), Int(getmaxx(cnc_stdscr()))) }

    // MARK: Keys

    /// The next pending key, or nil when there is none (never blocks).
    static func nextKey() -> Key? {
        var character: wint_t = 0
        let status = wget_wch(cnc_stdscr(), &character)
        if status == cnc_err() { return nil }
        if status == cnc_key_code_yes() {
            if Int32(character) == cnc_key_mouse() {
                let direction = cnc_wheel_direction()
                return direction == 0 ? .unknown(Int32(character)) : .wheel(Int(direction))
            }
            return decode(functionKey: Int32(character))
        }
        return Key(character: UInt32(character))
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

    // MARK: Drawing

    /// Colour pairs the terminal offers (at least 2, at most 65,536).
    static var colorPairLimit: Int32 { max(2, min(cnc_color_pairs(), 65_536)) }

    static func definePair(_ number: Int32, foreground: Int32, background: Int32) {
        init_extended_pair(number, foreground, background)
    }

    /// Blanks ncurses' picture of the screen (the next update writes every cell).
    static func erase() { werase(cnc_stdscr()) }

    /// Moves `rows` up by `count` (down when negative) on the terminal, with a scroll region.
    static func scroll(rows: Range<Int>, by count: Int, screenRows: Int) {
        let window = cnc_stdscr()
        wsetscrreg(window, Int32(rows.lowerBound), Int32(rows.upperBound - 1))
        scrollok(window, true)
        wscrl(window, Int32(count))
        scrollok(window, false)
        wsetscrreg(window, 0, Int32(screenRows - 1))
    }

    /// A concealed (invisible) character: stands for a cell whose pixels are drawn apart,
    /// and differs from every ordinary cell, so ncurses writes over it when text comes back.
    static func putConcealed(_ character: UInt32, x: Int, y: Int) {
        withUnsafeTemporaryAllocation(of: wchar_t.self, capacity: 2) { text in
            text[0] = wchar_t(bitPattern: character)
            text[1] = 0
            _ = cnc_put_cell(cnc_stdscr(), Int32(y), Int32(x), text.baseAddress, cnc_a_invis(), 0)
        }
    }

    /// One cell through ncurses, its scalars in a stack buffer (no allocation per cell).
    static func put(_ cell: Cell, x: Int, y: Int, pair: Int32) {
        let attributes = attributes(cell.style)
        withUnsafeTemporaryAllocation(of: wchar_t.self, capacity: 16) { text in
            var count = 0
            cell.forEachScalar { scalar in
                if count < 15 {
                    text[count] = wchar_t(bitPattern: scalar)
                    count += 1
                }
            }
            text[count] = 0
            _ = cnc_put_cell(cnc_stdscr(), Int32(y), Int32(x), text.baseAddress, attributes, pair)
        }
    }

    private static func attributes(_ style: CellStyle) -> attr_t {
        var value = cnc_a_normal()
        if style.bold { value |= cnc_a_bold() }
        if style.dim { value |= cnc_a_dim() }
        if style.reverse { value |= cnc_a_reverse() }
        if style.underline { value |= cnc_a_underline() }
        return value
    }

    /// Copies what was put into ncurses' picture of the screen (nothing sent yet).
    static func stage() { wnoutrefresh(cnc_stdscr()) }

    /// Sends the differences to the terminal and flushes.
    static func update() { doupdate() }

    /// The next update repaints the whole terminal.
    static func repaintAllAtNextUpdate() { clearok(cnc_curscr(), true) }
}
