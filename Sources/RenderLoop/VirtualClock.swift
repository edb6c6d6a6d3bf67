/// A clock that moves only when told to, so frame timing in tests is exact.
///
/// Work that would take time in the app calls ``advance(by:)`` with its cost; sleeping
/// jumps straight to the deadline. Every result computed against it is repeatable to the
/// nanosecond, which is what lets hitch tests assert exact hitch times.
public final class VirtualClock: FrameClock {
    public private(set) var now: Duration
    /// How many times the loop slept, and for how long in all; lets tests see idle time.
    public private(set) var sleeps = 0
    /// The time those sleeps covered.
    public private(set) var sleptTime: Duration = .zero
    /// The time ``preempt(for:)`` let pass without work.
    public private(set) var preemptedTime: Duration = .zero
    private let start: Duration

    /// A clock at `start` that moves only when told (or slept on).
    public init(startingAt start: Duration = .zero) {
        now = start
        self.start = start
    }

    /// Time passes while the thread waits for a core that another thread holds (a
    /// preemption, a wake-up the kernel served late): no CPU is used.
    public func preempt(for duration: Duration) {
        precondition(duration >= .zero, "VirtualClock.preempt(for:) needs a duration >= 0, got \(duration)")
        now += duration
        preemptedTime += duration
    }

    /// Everything that was neither a sleep nor a ``preempt(for:)``.
    public var threadCPUTime: Duration { now - start - sleptTime - preemptedTime }

    /// Charges `cost` of simulated work to the clock.
    public func advance(by cost: Duration) {
        precondition(cost >= .zero, "VirtualClock.advance(by:) needs a cost >= 0, got \(cost)")
        now += cost
    }

    /// Synthetic work costs exactly its cost.
    public func spin(for cost: Duration) { advance(by: cost) }

    public func sleep(until deadline: Duration) {
        guard deadline > now else { return }
        sleeps += 1
        sleptTime += deadline - now
        now = deadline
    }
}
