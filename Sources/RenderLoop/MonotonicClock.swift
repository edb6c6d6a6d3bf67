import CoreKit

/// How the real clock waits for a tick; chosen by measurement (DECISIONS.md, D-002).
public enum SleepStrategy: Sendable, Hashable, CustomStringConvertible {
    /// One absolute `clock_nanosleep` to the deadline: no drift, no busy CPU, but wakes a
    /// little late (the kernel's timer slack and scheduling latency).
    case absolute
    /// Sleeps until `spin` before the deadline, then polls the clock: wakes on time at the
    /// price of spinning one core for up to `spin` each frame.
    case hybrid(spin: Duration)

    public var description: String {
        switch self {
        case .absolute: "absolute"
        case .hybrid(let spin): "hybrid(spin: \(spin.microseconds) µs)"
        }
    }
}

/// The system's monotonic clock (`CLOCK_MONOTONIC`), measured from the moment it was made.
public final class MonotonicClock: FrameClock {
    /// How it sleeps until a tick.
    public let strategy: SleepStrategy
    /// The time slice the thread asks for while it sleeps to a tick (nil: none asked):
    /// see ``init(strategy:wakeSlice:runSlice:)``.
    public let wakeSlice: Duration?
    /// The slice it asks for again once awake, when it asked for ``wakeSlice`` (nil: the
    /// kernel's default).
    public let runSlice: Duration?
    private let origin: Duration

    /// A clock whose time 0 is now.
    ///
    /// With `wakeSlice`, each sleep asks the kernel for that (short) slice first and for
    /// `runSlice` (nil: the default) once awake. Under EEVDF a waking thread's deadline is
    /// its slice ahead of it, and one whose deadline is earlier than the running thread's,
    /// with a shorter slice, preempts it at once (`PREEMPT_SHORT`); asking anew places the
    /// thread again with the running slice, so the commit that follows is not cut short
    /// (D-067). Two `sched_setattr` calls a sleep; no privilege needed.
    public init(strategy: SleepStrategy = .absolute, wakeSlice: Duration? = nil, runSlice: Duration? = nil) {
        self.strategy = strategy
        self.wakeSlice = wakeSlice
        self.runSlice = runSlice
        origin = Platform.monotonicNow()
    }

    public var now: Duration { Platform.monotonicNow() - origin }

    /// The calling thread's CPU clock (CoreKit's `ThreadCPUClock`).
    public var threadCPUTime: Duration { ThreadCPUClock.now }

    public func sleep(until deadline: Duration) {
        switch strategy {
        case .absolute:
            sleepAbsolute(until: deadline)
        case .hybrid(let spin):
            sleepAbsolute(until: deadline - spin)
            while now < deadline {}
        }
    }

    private func sleepAbsolute(until deadline: Duration) {
        guard deadline > now else { return }
        if let wakeSlice { FrameLoopScheduling.requestSlice(wakeSlice) }
        Platform.sleepUntilMonotonic(origin + deadline)
        if wakeSlice != nil { FrameLoopScheduling.requestSlice(runSlice ?? .zero) }
    }
}

extension SleepStrategy {
    /// The strategy the app uses, chosen by `destinations-bench ticks` (DECISIONS.md, D-002).
    public static let recommended: SleepStrategy = .absolute
}
