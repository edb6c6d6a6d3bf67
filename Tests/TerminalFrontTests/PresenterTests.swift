import CellCanvas
import CNcursesw
import Testing
@testable import TerminalFront
#if canImport(Glibc)
import Glibc
#endif

/// The presenter on a headless screen (ncurses writing into /dev/null, bytes counted by
/// the kernel): what a frame sends is a count of bytes, exact and repeatable.
@Suite(.serialized) struct PresenterTests {
    static let rows = 30, columns = 80

    /// A screen whose rows 1...28 are distinct coloured lines `first`, `first + 1`, ….
    static func canvas(firstLine first: Int) -> Canvas {
        var canvas = Canvas(columns: columns, rows: rows)
        canvas.draw("header", at: Point(x: 0, y: 0), style: CellStyle(reverse: true))
        for y in 1..<(rows - 1) {
            let line = first + y - 1
            let text = "line \(line) " + String(repeating: "abcdefghij", count: 7)
            canvas.draw(text, at: Point(x: 0, y: y), style: CellStyle(foreground: .palette(UInt8(16 + line % 200)), background: .palette(UInt8(232 + line % 20))))
        }
        canvas.draw("footer", at: Point(x: 0, y: rows - 1), style: CellStyle(reverse: true))
        return canvas
    }

    static func screenText(row: Int) -> String {
        String((0..<columns).compactMap { x in Unicode.Scalar(UInt32(cnc_glyph_at(cnc_stdscr(), Int32(row), Int32(x)))).map(Character.init) })
    }

    /// A presenter on a headless xterm-256color screen of `rows` × `columns`, ended after `body`.
    static func withHeadlessPresenter(rows: Int, columns: Int, _ body: (CanvasPresenter) throws -> Void) throws {
        setenv("TERM", "xterm-256color", 1)
        let session = TerminalSession()
        try session.startHeadless(rows: rows, columns: columns)
        defer { session.end() }
        let presenter = CanvasPresenter(session: session)
        try body(presenter)
    }

    /// A presenter on a headless 12 × 80 screen of an 8-colour terminal (`TERM=xterm`: 64
    /// colour pairs), ended after `body`.
    static func withEightColourPresenter(_ body: (CanvasPresenter) throws -> Void) throws {
        setenv("TERM", "xterm", 1)
        let noColor = getenv("NO_COLOR").map { String(cString: $0) }
        unsetenv("NO_COLOR")  // swift test sets it (D-007)
        defer {
            setenv("TERM", "xterm-256color", 1)
            if let noColor { setenv("NO_COLOR", noColor, 1) }
        }
        let session = TerminalSession()
        try session.startHeadless(rows: 12, columns: 80)
        defer { session.end() }
        let presenter = CanvasPresenter(session: session)
        #expect(presenter.capability == .palette8)
        try body(presenter)
    }

    @Test func aScrolledFrameSendsAboutTheExposedRowsAndShowsTheRightScreen() throws {
        try Self.withHeadlessPresenter(rows: Self.rows, columns: Self.columns) { presenter in
            presenter.present(Self.canvas(firstLine: 0))
            let fullPaint = presenter.bytesInLastFrame
            #expect(fullPaint > 28 * 80, "every cell of the first frame is sent")

            // Three rows further down: rows 1...28 move up by three, three new rows appear.
            presenter.present(Self.canvas(firstLine: 3), scrolled: (1..<(Self.rows - 1), 3))
            let scrolled = presenter.bytesInLastFrame
            let perRow = Double(fullPaint) / 28
            #expect(Double(scrolled) < 1.5 * 3 * perRow, "a scroll by 3 rows sent \(scrolled) bytes; a row costs \(perRow)")
            #expect(presenter.cellsWritten <= 3 * Self.columns + Self.columns, "only the exposed rows are written (\(presenter.cellsWritten) cells)")
            #expect(Self.screenText(row: 1).hasPrefix("line 3 "))
            #expect(Self.screenText(row: 28).hasPrefix("line 30 "))
            #expect(Self.screenText(row: 0).hasPrefix("header") && Self.screenText(row: 29).hasPrefix("footer"))

            // A wrong hint costs bytes, never correctness.
            presenter.present(Self.canvas(firstLine: 4), scrolled: (1..<(Self.rows - 1), -2))
            #expect(Self.screenText(row: 1).hasPrefix("line 4 "))
            #expect(Self.screenText(row: 28).hasPrefix("line 31 "))

            // Nothing changed: almost nothing is sent (the synchronized-output brackets, 16
            // bytes, and at most a cursor move).
            presenter.present(Self.canvas(firstLine: 4))
            #expect(presenter.bytesInLastFrame < 32, "an unchanged frame sent \(presenter.bytesInLastFrame) bytes")
            #expect(presenter.bytesWritten > fullPaint)
        }
    }

    /// One diff for every backend (``ScreenDiff``): fed the same frames, with the same scroll
    /// hints (right, wrong, none) and a redraw, the test backend and the presenter send the
    /// same cells, and the test backend's screen is what ncurses shows.
    @Test func theTestBackendSendsExactlyTheCellsThePresenterSends() throws {
        try Self.withHeadlessPresenter(rows: Self.rows, columns: Self.columns) { presenter in
            let backend = TestBackend(rows: Self.rows, columns: Self.columns)
            let frames: [(first: Int, hint: (rows: Range<Int>, by: Int)?, redraw: Bool)] = [
                (0, nil, false), (3, (1..<29, 3), false), (3, nil, false), (5, (1..<29, -4), false),
                (1, (1..<29, -4), false), (40, nil, false), (41, (1..<29, 1), true), (38, (0..<30, -3), false),
            ]
            for (index, frame) in frames.enumerated() {
                if frame.redraw {
                    presenter.invalidate()
                    backend.invalidate()
                }
                presenter.present(Self.canvas(firstLine: frame.first), scrolled: frame.hint)
                backend.present(Self.canvas(firstLine: frame.first), scrolled: frame.hint)
                #expect(presenter.cellsWritten == backend.cellsWrittenInLastFrame, "frame \(index): \(presenter.cellsWritten) against \(backend.cellsWrittenInLastFrame)")
                for row in 0..<Self.rows {
                    #expect(Self.screenText(row: row) == backend.rowTexts[row], "frame \(index), row \(row)")
                }
            }
        }
    }

    /// An 8-colour terminal has 64 pairs. A screen needing more than that at once cannot
    /// show every combination: one round finds nothing to free (every pair is on this
    /// screen), and the cells past the supply take the nearest pair; every glyph is shown.
    /// The next frame writes those cells again, and once half the combinations are gone,
    /// each gets its own pair.
    @Test func runningOutOfColourPairsRecyclesInRounds() throws {
        try Self.withEightColourPresenter { presenter in
            var canvas = Canvas(columns: 80, rows: 12)
            for index in 0..<81 {  // every foreground × background of 8 colours and the default
                let colors: [Color] = [.default] + (0..<8).map { Color.palette(UInt8($0)) }
                canvas.draw("\(index % 10)", at: Point(x: index % 80, y: index / 80 * 2),
                            style: CellStyle(foreground: colors[index % 9], background: colors[index / 9]))
            }
            presenter.present(canvas)
            #expect(presenter.recycledPairs == 0, "no pair a cell of this screen shows is taken from it")
            #expect(presenter.pairRecyclingRounds == 1, "one fruitless round a frame, not one per cell")
            #expect(presenter.approximatedCells == 81 - 1 - 63, "the default pair and 63 defined: 17 cells in the nearest")
            presenter.present(canvas)
            #expect((17...34).contains(presenter.cellsWritten), "the next frame writes again the 17 cells drawn in a nearby pair (and at most their left neighbours), not the screen: \(presenter.cellsWritten)")
            #expect(Self.screenText(row: 0).hasPrefix("0123456789"))
            // Half the combinations gone: pairs are free, and every cell left gets its own.
            var half = Canvas(columns: 80, rows: 12)
            for index in 0..<81 where index % 2 == 0 {
                let colors: [Color] = [.default] + (0..<8).map { Color.palette(UInt8($0)) }
                half.draw("\(index % 10)", at: Point(x: index % 80, y: index / 80 * 2),
                          style: CellStyle(foreground: colors[index % 9], background: colors[index / 9]))
            }
            presenter.present(half)
            presenter.present(half)
            for index in 0..<81 where index % 2 == 0 {
                let (x, y) = (index % 80, index / 80 * 2)
                var foreground: Int32 = 0, background: Int32 = 0
                #expect(cnc_colors_at(cnc_stdscr(), Int32(y), Int32(x), &foreground, &background) == 1)
                let style = half[x, y].style
                #expect(foreground == presenter.capability.number(for: style.foreground) && background == presenter.capability.number(for: style.background),
                        "cell \(index) shows \(foreground) on \(background)")
            }
        }
    }

    /// A pair recycled while cells on screen still use it would show those cells in the new
    /// pair's colours: ncurses repaints every cell of a redefined pair at the next update,
    /// and an unchanged cell is not written again with its new number. Seen in xterm (8
    /// colours, 64 pairs) over a feed: every "♥ likes" line turned black on yellow once a
    /// fling's symbol mosaics had used up the pairs. Every cell must show its own colours
    /// after every frame, however many rounds the pairs went through.
    @Test func cellsOnScreenKeepTheirColoursWhenPairsAreRecycled() throws {
        try Self.withEightColourPresenter { presenter in
            let colors: [Color] = [.default] + (0..<8).map { Color.palette(UInt8($0)) }
            let steady = CellStyle(foreground: .palette(1))  // the likes line: never written again
            for frame in 0..<6 {
                var canvas = Canvas(columns: 80, rows: 12)
                canvas.draw("♥ 23634", at: Point(x: 0, y: 0), style: steady)
                canvas.draw("Sky", at: Point(x: 0, y: 1), style: CellStyle(foreground: .palette(4), background: .palette(3)))
                // 40 combinations a frame, a different half of the 81 each time: more than the
                // 63 pairs over two frames.
                for index in 0..<40 {
                    let combination = (index + frame * 41) % 81
                    canvas.draw("x", at: Point(x: index, y: 4),
                                style: CellStyle(foreground: colors[combination % 9], background: colors[combination / 9]))
                }
                presenter.present(canvas)
                for y in [0, 1, 4] {
                    for x in 0..<40 where canvas[x, y].style != CellStyle() || y == 4 {
                        var foreground: Int32 = 0, background: Int32 = 0
                        #expect(cnc_colors_at(cnc_stdscr(), Int32(y), Int32(x), &foreground, &background) == 1)
                        let style = canvas[x, y].style
                        let wanted = (presenter.capability.number(for: style.foreground), presenter.capability.number(for: style.background))
                        #expect(foreground == wanted.0 && background == wanted.1,
                                "frame \(frame), cell (\(x), \(y)): shows \(foreground) on \(background), wants \(wanted.0) on \(wanted.1)")
                    }
                }
            }
            #expect(presenter.pairRecyclingRounds > 0, "the frames must run out of pairs")
        }
    }

    @Test func synchronizedOutputRepliesAreRead() {
        func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
        let da1 = "\u{1B}[?62;22c"
        #expect(TerminalProbe.supportsMode2026(reply: bytes("\u{1B}[?2026;2$y" + da1)))
        #expect(TerminalProbe.supportsMode2026(reply: bytes("\u{1B}[?2026;1$y" + da1)))
        #expect(!TerminalProbe.supportsMode2026(reply: bytes("\u{1B}[?2026;0$y" + da1)), "0: not recognised")
        #expect(!TerminalProbe.supportsMode2026(reply: bytes("\u{1B}[?2026;4$y" + da1)), "4: permanently off")
        #expect(!TerminalProbe.supportsMode2026(reply: bytes(da1)), "no DECRPM: the terminal ignored the query")
        #expect(TerminalProbe.hasDeviceAttributes(bytes("\u{1B}[?2026;2$y" + da1)))
        #expect(!TerminalProbe.hasDeviceAttributes(bytes("\u{1B}[?2026;2$y")), "still waiting for DA1")
        #expect(!TerminalProbe.hasDeviceAttributes(bytes("\u{1B}[?62;2")), "a partial reply")
    }
}

@Suite struct TerminalProbeTests {
    func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func kittyAnswersItsGraphicsQuery() {
        let reply = bytes("\u{1B}[?2026;2$y\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[4;960;1600t\u{1B}[?62;22c")
        let answers = TerminalProbe.answers(in: reply)
        #expect(answers.synchronizedOutput && answers.kittyGraphics && !answers.sixel)
        #expect(answers.textAreaPixels?.width == 1600 && answers.textAreaPixels?.height == 960)
    }

    @Test func xtermVT340SaysSixelInDA1() {
        let answers = TerminalProbe.answers(in: bytes("\u{1B}[4;384;640t\u{1B}[?63;1;2;4;6;9;15;22c"))
        #expect(answers.sixel && !answers.kittyGraphics && !answers.synchronizedOutput)
        #expect(answers.textAreaPixels?.width == 640)
    }

    @Test func theLinuxConsoleAndMultiplexersAreNotAskedAboutGraphics() {
        func queries(_ term: String, tmux: Bool = false) -> String {
            String(decoding: TerminalProbe.queries(for: TerminalProbe.Venue(term: term, insideTmux: tmux)), as: UTF8.self)
        }
        #expect(!queries("linux").contains("\u{1B}_G") && !queries("linux").contains("\u{1B}]11"))
        #expect(queries("xterm-256color").contains("\u{1B}_G") && queries("xterm-256color").contains("\u{1B}[>q"))
        for (term, tmux) in [("xterm-256color", true), ("screen-256color", true), ("tmux-256color", true), ("screen-256color", false)] {
            let sent = queries(term, tmux: tmux)
            #expect(!sent.contains("\u{1B}_") && !sent.contains("\u{1B}[>q") && !sent.contains("\u{1B}[14t"), "\(term) in tmux \(tmux): no APC, no XTVERSION")
            #expect(sent.hasPrefix("\u{1B}[?2026$p") && sent.hasSuffix("\u{1B}[c"))
        }
        #expect(queries("tmux-256color", tmux: true).contains("\u{1B}]11;?"), "tmux answers OSC 11 itself")
        #expect(!queries("screen-256color").contains("\u{1B}]11"), "GNU screen is not asked")
        #expect(queries("xterm-256color").hasSuffix("\u{1B}[c"), "DA1 last: every terminal answers it")
    }

    @Test func theVersionAndTheBackgroundAreRead() {
        let kitty = TerminalProbe.answers(in: bytes("\u{1B}P>|kitty(0.26.5)\u{1B}\\\u{1B}]11;rgb:ffff/ffff/ffff\u{1B}\\\u{1B}[?62;c"))
        #expect(kitty.version == "kitty(0.26.5)")
        #expect(kitty.background == TerminalProbe.RGB(red: 1, green: 1, blue: 1))
        #expect(kitty.background?.isLight == true)
        let dark = TerminalProbe.answers(in: bytes("\u{1B}]11;rgb:1c/1c/1c\u{07}\u{1B}[?62;c"))
        #expect(dark.background?.isLight == false, "two hex digits a component, BEL-terminated")
        #expect(TerminalProbe.answers(in: bytes("\u{1B}]11;rgb:zz/00/00\u{1B}\\\u{1B}[?62;c")).background == nil)
    }

    @Test func aPlainTerminalSaysNothingOfGraphics() {
        let answers = TerminalProbe.answers(in: bytes("\u{1B}[?1;2c"))
        var plain = TerminalProbe.Answers()
        plain.deviceAttributes = true
        #expect(answers == plain, "it answered DA1 and said nothing else")
        #expect(!TerminalProbe.answers(in: bytes("\u{1B}[?2026;2$y")).deviceAttributes, "no DA1 answer")
        #expect(!TerminalProbe.answers(in: bytes("\u{1B}_Gi=31;ENOTSUPPORTED:x\u{1B}\\\u{1B}[?62;44c")).kittyGraphics, "an error is not OK")
        #expect(!TerminalProbe.answers(in: bytes("\u{1B}[?62;14c")).sixel, "14 is not 4")
    }
}
