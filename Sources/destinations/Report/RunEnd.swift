import TerminalFront

/// How the app ends after a terminal run (``TerminalRunLoop``): shared by the grid and the
/// scheduler view so that every exit path reports the same way.
enum TerminalLoop {
    /// Before the summary: a lost terminal prints nothing more.
    static func checkTerminal(_ stop: TerminalRunLoop.Stop) throws {
        if case .hungUp = stop { throw AppError(description: "the terminal went away", status: 128 + Platform.hangUpSignal) }
    }

    /// After the summary: a signal ends with 128 + its number.
    static func checkSignal(_ stop: TerminalRunLoop.Stop) throws {
        if case .signal(let number) = stop { throw AppError(description: "stopped by signal \(number)", status: 128 + number) }
    }
}

