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
    private let origin: Duration

    /// A clock whose time 0 is now.
    public init(strategy: SleepStrategy = .absolute) {
        self.strategy = strategy
        origin = Platform.monotonicNow()
    }

    public var now: Duration { Platform.monotonicNow() - origin }

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
        Platform.sleepUntilMonotonic(origin + deadline)
    }
}

extension SleepStrategy {
    /// The strategy the app uses, chosen by `destinations-bench ticks` (DECISIONS.md, D-002).
    public static let recommended: SleepStrategy = .absolute
}
