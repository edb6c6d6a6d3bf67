import CoreKit
import Dispatch
import Synchronization

/// Turns SIGINT, SIGTERM and SIGHUP into a flag the frame loop polls, so that every way
/// of stopping the app goes through the same exit path that restores the terminal; and
/// SIGTSTP (Ctrl-Z) into a request the loop carries out between two frames
/// (``TerminalBackend/suspend()``).
///
/// The signals are ignored at the process level and delivered to dispatch sources on a
/// background queue (the main thread is busy running frames, and never runs the main
/// dispatch queue). Made before ncurses starts, so ncurses finds SIGTSTP taken and installs
/// no handler of its own: its handler called `endwin()` from the signal, wherever the main
/// thread was, and under load now and then froze the app in it (a thread in malloc).
public final class TerminationSignals {
    /// The signals that end a run: SIGINT, SIGTERM and SIGHUP.
    public static let handled: [Int32] = [Platform.interrupt, Platform.terminate, Platform.hangUp]

    /// Written by the dispatch handlers, read by the frame loop.
    private final class LastSignal: Sendable {
        let number = Atomic<Int32>(0)
    }

    private let received = LastSignal()
    private let suspendRequests = LastSignal()
    private let sources: [any DispatchSourceSignal]

    /// - Parameter wake: signalled with each signal, so that a frame loop asleep while
    ///   nothing moves notices at once.
    public init(wake: WakeSignal? = nil) {
        let queue = DispatchQueue(label: "destinations.signals")
        var made: [any DispatchSourceSignal] = []
        for number in Self.handled + [Platform.terminalStop] {
            Platform.ignore(number)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            made.append(source)
        }
        sources = made
        for (number, source) in zip(Self.handled + [Platform.terminalStop], sources) {
            source.setEventHandler { [received, suspendRequests] in
                if number == Platform.terminalStop {
                    suspendRequests.number.add(1, ordering: .relaxed)
                } else {
                    received.number.store(number, ordering: .relaxed)
                }
                wake?.signal()
            }
            source.resume()
        }
    }

    /// True once after each Ctrl-Z (SIGTSTP) since the last call.
    public func takeSuspendRequest() -> Bool {
        suspendRequests.number.exchange(0, ordering: .relaxed) > 0
    }

    /// The last signal received, or nil while none has been.
    public var signal: Int32? {
        let value = received.number.load(ordering: .relaxed)
        return value == 0 ? nil : value
    }

    /// The conventional exit status for a process stopped by `signal`: 128 + its number.
    public static func exitStatus(for signal: Int32) -> Int32 { 128 + signal }
}
