import CTerminalRestore
import CoreKit

/// Why the terminal could not be used; the text is what the app prints before exiting.
public enum TerminalError: Error, CustomStringConvertible, Equatable {
    /// Standard input or output is not a terminal (a pipe, a file, no terminal at all).
    case notATerminal
    /// ncurses could not start with this terminfo entry.
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
/// action). Ctrl-Z is carried out by the frame loop between two frames (``suspend()``,
/// D-034), never in a signal handler.
/// Main thread only.
public final class TerminalSession {
    /// Between a start and ``end()``.
    public private(set) var isActive = false
    /// What colours the terminal shows (`.none` without colour or with `NO_COLOR` set).
    public private(set) var capability = ColorCapability.none
    /// Headless: writing into /dev/null for measurement, no input.
    public private(set) var isHeadless = false
    /// Frames are wrapped in DEC mode 2026 so the terminal shows each one whole.
    /// Probed at start (DECRQM); `DESTINATIONS_SYNC_OUTPUT=1` or `0` overrides.
    public private(set) var supportsSynchronizedOutput = false
    /// The terminfo entry ncurses runs on: TERM's, or a `-direct` variant chosen for `COLORTERM`.
    public private(set) var terminfoEntry = ""
    /// What the terminal answered at start (nothing, headless).
    public private(set) var probed = TerminalProbe.Answers()
    /// Every byte for the terminal goes through it, without blocking the frame loop.
    public private(set) var writer = TerminalWriter(descriptor: nil)
    /// Who writes to the terminal once ``start()`` has run: the main thread's own
    /// non-blocking writes (the default) or a writer thread (D-039). Set before `start`.
    public var delivery = TerminalWriter.Delivery.recommended
    /// What ncurses writes (its descriptor refers to it while the session runs).
    private(set) var capture: UpdateCapture?
    /// ncurses' own descriptor: the terminal while ncurses starts and ends, the capture
    /// file in between. -1 when headless (ncurses writes into the capture file throughout).
    private var ncursesOutput: Int32 = -1
    /// How long quitting waits for the terminal to take what is pending (a slow link must
    /// not hold `q`; what is left is dropped, see ``TerminalWriter/finish(until:now:)``).
    public static let finishTimeout = Duration.milliseconds(400)

    /// A session not yet started (``start()`` or ``startHeadless(rows:columns:)``).
    public init() {}

    /// Takes over the terminal: locale, raw-ish input, no cursor, alternate screen, wheel.
    /// From here on ncurses writes into `capture` and every byte reaches the terminal
    /// through ``writer``, which never blocks (D-039).
    public func start() throws(TerminalError) {
        guard Platform.standardStreamsAreTerminals else { throw .notATerminal }
        Platform.useUTF8Locale()
        Platform.unblockTerminalSignals()
        let venue = TerminalProbe.Venue(term: Self.termName ?? "", insideTmux: Platform.environment("TMUX") != nil)
        probed = TerminalProbe.query(venue: venue)
        answersParseRequests = venue.graphics && probed.deviceAttributes && Platform.environment("DESTINATIONS_PARSE_PACING") != "0"
        if probed.textAreaPixels == nil { probed.textAreaPixels = Platform.windowPixels(of: Platform.standardOutput) }
        supportsSynchronizedOutput = Platform.environment("DESTINATIONS_SYNC_OUTPUT").map { $0 == "1" } ?? probed.synchronizedOutput
        terminal_restore_save(Platform.standardOutput)
        guard let term = Self.termName, !term.isEmpty else { throw .cannotInitialise(term: "unset") }
        let entry = Self.terminfoEntry(for: term)
        // Ours before ncurses': its SIGWINCH handler would ask the capture file for a size.
        terminal_resize_install()
        let ncursesOutput = Platform.duplicate(Platform.standardOutput)
        guard ncursesOutput >= 0, let capture = UpdateCapture(),
              Curses.startInteractive(term: entry, output: ncursesOutput) else { throw .cannotInitialise(term: term) }
        terminfoEntry = entry
        isActive = true
        terminal_restore_install()
        configureScreen()
        self.ncursesOutput = ncursesOutput
        self.capture = capture
        Platform.redirect(ncursesOutput, to: capture.descriptor)
        let frames = Platform.openTerminalForNonBlockingWrites() ?? Platform.duplicate(Platform.standardOutput)
        terminal_restore_frames_fd(frames)
        writer = TerminalWriter(descriptor: frames, delivery: delivery)
    }

    /// The same screen with no terminal: ncurses writes into the capture file and the
    /// writer is a sink that takes everything at once, so every frame's bytes are still
    /// counted exactly; no input, a fixed size. TERM is used when it names a real terminal,
    /// else xterm-256color. Synchronized output is assumed, as a modern terminal has it.
    public func startHeadless(rows: Int, columns: Int) throws(TerminalError) {
        Platform.useUTF8Locale()
        let term = Self.terminfoEntry(for: Self.termName.flatMap { $0.isEmpty || $0 == "dumb" ? nil : $0 } ?? "xterm-256color")
        terminfoEntry = term
        guard let capture = UpdateCapture(), let (_, input) = Platform.openNullDevice() else { throw .cannotInitialise(term: term) }
        let output = Platform.duplicate(capture.descriptor)
        guard output >= 0, Curses.startDetached(term: term, output: output, input: input, rows: rows, columns: columns) else {
            throw .cannotInitialise(term: term)
        }
        self.capture = capture
        writer = TerminalWriter(descriptor: nil)
        isActive = true
        isHeadless = true
        supportsSynchronizedOutput = true
        configureScreen()
    }

    private func configureScreen() {
        capability = Curses.configureScreen(noColor: Self.noColor)
    }

    private static var noColor: Bool { !(Platform.environment("NO_COLOR") ?? "").isEmpty }

    /// TERM's entry, or its direct-colour variant under `COLORTERM=truecolor` (see ``TerminfoChoice``).
    private static func terminfoEntry(for term: String) -> String {
        TerminfoChoice.entry(term: term, colorTerm: Platform.environment("COLORTERM"),
                             insideTmux: Platform.environment("TMUX") != nil, noColor: noColor,
                             exists: Curses.terminfoExists)
    }

    private static var termName: String? { Platform.environment("TERM") }

    /// `DESTINATIONS_CRASH=segv|bus|ill|trap|abrt|fpe|quit`: crashes that way (for tests of
    /// the crash restore). Nil when unset or unknown.
    package static var requestedCrash: Int32? {
        guard let name = Platform.environment("DESTINATIONS_CRASH") else { return nil }
        return ["segv": Platform.segmentationFault, "bus": Platform.busError, "ill": Platform.illegalInstruction, "trap": Platform.trap,
                "abrt": Platform.abort, "fpe": Platform.floatingPointError, "quit": Platform.quit][name]
    }

    /// Crashes with `signal` as a real fault would (see ``requestedCrash``).
    package static func crash(with signal: Int32) -> Never {
        terminal_restore_crash_for_test(signal)
        fatalError("DESTINATIONS_CRASH: signal \(signal) did not end the process")
    }

    /// Ctrl-Z, carried out between two frames: the terminal goes back to the shell as it
    /// was, the process stops, and once continued (`fg`) ncurses takes the terminal again;
    /// the caller repaints everything.
    public func suspend() {
        guard isActive, !isHeadless else { return }
        handTerminalBackToNcurses()
        Curses.end()
        Platform.stopLikeCtrlZ()
        Curses.resumeModes()
        if let capture { Platform.redirect(ncursesOutput, to: capture.descriptor) }
        Curses.resumeScreen()
    }

    /// Gives the terminal back exactly as it was. Safe to call more than once.
    public func end() {
        guard isActive else { return }
        isActive = false
        if !isHeadless { handTerminalBackToNcurses() }
        Curses.end()
    }

    /// Before ncurses restores the terminal itself (`endwin`): what it wrote since the last
    /// frame and everything pending reach the terminal within ``finishTimeout`` (the rest
    /// is dropped and a cut frame closed), then ncurses' descriptor is the terminal again.
    private func handTerminalBackToNcurses() {
        var stray: [UInt8] = []
        capture?.take(into: &stray)
        writer.enqueue(stray)
        let clock = ContinuousClock(), origin = clock.now
        let now = { clock.now - origin }
        writer.finish(until: now() + Self.finishTimeout, now: now)
        Platform.redirect(ncursesOutput, to: Platform.standardOutput)
    }

    /// A headless session's writer to `descriptor` instead of its sink (tests of a slow
    /// terminal: a pipe nobody reads is one). Before the first frame.
    func writeHeadlessFrames(to descriptor: Int32) {
        precondition(isHeadless, "only a headless session's output can be redirected")
        writer = TerminalWriter(descriptor: descriptor, delivery: delivery)
    }

    deinit { end() }

    /// True once the terminal has gone away (its window closed, the tmux server killed,
    /// the ssh link dropped): input reports a hang-up. A frame loop that keeps running
    /// then would spin forever writing into nothing, so the app stops as for SIGHUP.
    public var isHungUp: Bool {
        if isHeadless { return false }
        return Platform.poll([Platform.standardInput], milliseconds: 0)?.hungUp ?? false
    }

    /// Sleeps in `poll` on the terminal (not when headless) and `wake`, at most `timeout`
    /// (nil: no limit); a signal (SIGWINCH, SIGTSTP's return) also ends it. True unless it
    /// timed out. Empties `wake` before returning.
    public func waitForInput(wake: WakeSignal?, timeout: Duration?) -> Bool {
        if input.hasKeys { return true }
        var descriptors: [Int32] = []
        if !isHeadless { descriptors.append(Platform.standardInput) }
        if let wake { descriptors.append(wake.descriptor) }
        let milliseconds: Int32 = timeout.map { timeout in
            let nanoseconds = max(timeout.nanoseconds, 0)
            return Int32(min((nanoseconds + 999_999) / 1_000_000, Int64(Int32.max)))
        } ?? -1
        let ready = Platform.poll(descriptors, milliseconds: milliseconds) != nil
        wake?.clear()
        return ready
    }

    /// Current size in cells.
    public var size: (rows: Int, columns: Int) { Curses.size }

    /// The next pending key, or nil when there is none (never blocks). A window resize
    /// is read from the kernel (ncurses' descriptor is the capture file, which has no
    /// size), given to ncurses, and reported as one `.resize` however many signals came.
    public func nextKey() -> Key? {
        if isHeadless { return nil }
        if terminal_resize_take() != 0, let cells = Platform.windowCells(of: Platform.standardOutput) {
            Curses.resize(rows: cells.rows, columns: cells.columns)
            return .resize
        }
        // The terminal's answers are taken out (``ReplyFilter``).
        while let key = input.next(from: Curses.nextKey) {
            // ncurses queues one of its own after `resizeterm`: the size is applied already.
            if key != .resize { return key }
        }
        return nil
    }

    /// Reads what input is there now, without waiting, so that an answer to ``ParsePacing``'s
    /// request is counted when it comes rather than at the next frame's keys; the keys read
    /// are kept for ``nextKey()``.
    public func readInputAhead() {
        guard !isHeadless else { return }
        input.readAhead(from: Curses.nextKey)
    }

    /// Keys read ahead, and the terminal's answers taken out of them.
    private var input = ReplyFilter()
    /// Primary Device Attributes answers taken out of the input so far.
    public var deviceAttributesAnswers: Int { input.answers }

    /// The terminal's own answers to `CSI c` time its parsing: it answered the start-up
    /// probe's, the probe asked it directly (not a multiplexer, which answers for itself)
    /// and `DESTINATIONS_PARSE_PACING` is not `0`.
    public private(set) var answersParseRequests = false
}
