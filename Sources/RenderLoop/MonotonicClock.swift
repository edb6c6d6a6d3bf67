#if canImport(Glibc)
import CoreKit
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
    public let strategy: SleepStrategy
    private let origin: timespec

    public init(strategy: SleepStrategy = .absolute) {
        self.strategy = strategy
        origin = Self.readMonotonic()
    }

    public var now: Duration {
        Self.elapsed(from: origin, to: Self.readMonotonic())
    }

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
        var target = origin
        let (seconds, attoseconds) = deadline.components
        target.tv_sec += Int(seconds)
        target.tv_nsec += Int(attoseconds / 1_000_000_000)
        if target.tv_nsec >= 1_000_000_000 {
            target.tv_sec += 1
            target.tv_nsec -= 1_000_000_000
        }
        // EINTR (a signal) returns early; loop until the deadline really passed.
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &target, nil) == EINTR {}
    }

    private static func readMonotonic() -> timespec {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return ts
    }

    private static func elapsed(from start: timespec, to end: timespec) -> Duration {
        .seconds(end.tv_sec - start.tv_sec) + .nanoseconds(end.tv_nsec - start.tv_nsec)
    }
}

extension SleepStrategy {
    /// The strategy the app uses, chosen by `destinations-bench ticks` (DECISIONS.md, D-002).
    public static let recommended: SleepStrategy = .absolute
}
