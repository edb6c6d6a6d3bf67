import CTerminalRestore

/// A wait before the screen is taken, that a person can see and end (issue 43): what the
/// app does while a feed's first page is awaited. One status line on standard error,
/// rewritten in place; keys read one at a time without echo, so `q`, Esc or Ctrl-C ends the
/// wait at once; a signal (Ctrl-C, `kill`, the terminal closing) puts the terminal's modes
/// back before it ends the process as it would have.
///
/// ```swift
/// let wait = StartupWait()                      // nil without a terminal: nothing to show
/// while !done {
///     guard wait?.poll(status: "waiting for example.org (3 s)") ?? true else { break }  // the person quit
/// }
/// wait?.end()
/// ```
public final class StartupWait {
    private let input: Int32
    private let output: Int32
    private var lastLine: String?
    private var ended = false

    /// A wait on standard input and error; nil when standard input, output or error is not
    /// a terminal.
    public init?() {
        guard Platform.standardStreamsAreTerminals, Platform.isTerminal(2), terminal_wait_begin(0) == 0 else { return nil }
        input = 0
        output = 2
    }

    deinit { end() }

    /// Shows `status` (when it changed) and waits up to `milliseconds` for a key; false once
    /// the person pressed `q`, Esc or Ctrl-C (a Ctrl-C that reached the process as a byte).
    public func poll(status: String, milliseconds: Int32 = 100) -> Bool {
        if status != lastLine {
            lastLine = status
            _ = Platform.writeAll(Array("\r\(status)\u{1B}[K".utf8), to: output)
        }
        guard let ready = Platform.poll([input], milliseconds: milliseconds), ready.readable.contains(input) else { return true }
        let keys = Platform.readAvailable(input, capacity: 64)
        return !keys.contains { $0 == UInt8(ascii: "q") || $0 == UInt8(ascii: "Q") || $0 == 0x1B || $0 == 0x03 }
    }

    /// Clears the status line and puts the terminal's modes back (the screen is the app's
    /// from here). Called again, it does nothing.
    public func end() {
        guard !ended else { return }
        ended = true
        if lastLine != nil { _ = Platform.writeAll(Array("\r\u{1B}[K".utf8), to: output) }
        terminal_wait_end()
    }
}
