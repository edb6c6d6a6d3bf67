import RenderLoop

/// A `FrameDelegate` that draws into a terminal: the frame loop hands the terminal each
/// committed frame right after the commit, keeps handing it what it takes while waiting for
/// the next tick, and counts a tick at which the terminal had not taken the last frame as a
/// terminal hitch. Conform, implement `commit(_:)` (read keys, draw, `present`), and run it
/// with ``TerminalRunLoop/run(_:_:terminal:signals:beforeEnd:until:)``. It is its own
/// `FrameOutput` (RenderLoop): the three ways of the frame to the terminal have defaults here.
public protocol TerminalFrameDelegate: FrameDelegate, FrameOutput {
    /// The terminal the frames go to.
    var terminal: any TerminalBackend { get }
}

extension TerminalFrameDelegate {
    /// The frames go to the terminal.
    public var output: (any FrameOutput)? { self }

    /// Hands the committed frame to the terminal without waiting for it (D-039).
    public func deliverCommittedFrame() { terminal.deliverOutput() }

    /// Keeps handing the terminal what it takes of the last frame until the tick.
    public func waitForTick(_ tick: Duration, on clock: any FrameClock) {
        terminal.waitForOutput(until: tick) { clock.now }
        clock.sleep(until: tick)
    }

    /// The terminal has not yet taken what earlier frames sent: a terminal hitch.
    public func isOutputBehind(at tick: Duration) -> Bool { terminal.observeOutput(at: tick) }
}

/// Runs a frame loop in a terminal until it is done, and restores the terminal on every way
/// out: the end the app chose, a termination signal (`SIGINT`, `SIGTERM`, `SIGHUP`) or a
/// terminal that went away. Ctrl-Z suspends between two frames and repaints on `fg`.
public enum TerminalRunLoop {
    /// How a run ended.
    public enum Stop: Equatable, Sendable {
        /// `done()` said so.
        case finished
        /// A termination signal arrived (its number); exit with `128 + signal`.
        case signal(Int32)
        /// The terminal went away (a closed window, a dropped SSH link).
        case hungUp
    }

    /// Runs frames until `done()`, a termination signal or a hang-up, then calls
    /// `beforeEnd` (unless the terminal is gone) and restores the terminal.
    public static func run(_ scheduler: FrameScheduler, _ delegate: some FrameDelegate, terminal: any TerminalBackend,
                           signals: TerminationSignals, beforeEnd: () -> Void = {}, until done: () -> Bool) -> Stop {
        var hungUp = false
        scheduler.run(delegate) {
            if signals.takeSuspendRequest() {
                terminal.suspend()
                scheduler.resumeAfterPause()
            }
            if scheduler.meter.frames % 16 == 0 && terminal.isHungUp { hungUp = true }
            return !done() && !hungUp && signals.signal == nil
        }
        if !hungUp { beforeEnd() }
        terminal.end()
        if hungUp { return .hungUp }
        return signals.signal.map(Stop.signal) ?? .finished
    }
}
