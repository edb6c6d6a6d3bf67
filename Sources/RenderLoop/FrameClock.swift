/// A source of monotonic time that the frame loop reads and sleeps on.
///
/// The scheduler never asks the system for the time directly, so the same loop runs
/// against the real clock in the app and against a ``VirtualClock`` in tests, where
/// work "costs" time by advancing the clock and nothing sleeps. Times are offsets from
/// the clock's own origin.
public protocol FrameClock: AnyObject {
    /// Time elapsed since the clock's origin; never decreases.
    var now: Duration { get }

    /// Returns no earlier than `deadline` (at once when `deadline` has passed).
    func sleep(until deadline: Duration)

    /// Spends `cost` of synthetic work: a real clock burns CPU until it has passed, a
    /// virtual one advances by it (spinning on it would never end).
    func spin(for cost: Duration)

    /// The CPU time the calling thread has used, on any origin. Beside ``now`` it tells a
    /// frame that worked too long from one that waited (for a core another thread held):
    /// ``FrameRecord/isHitchFromWaiting``. A clock that cannot tell answers ``now``, so that
    /// all elapsed time counts as work and no hitch is put down to waiting.
    var threadCPUTime: Duration { get }
}

extension FrameClock {
    /// Every elapsed moment counts as work (see the requirement).
    public var threadCPUTime: Duration { now }

    /// Burns CPU until `cost` has passed: synthetic work on a real clock.
    public func spin(for cost: Duration) {
        let end = now + cost
        while now < end {}
    }
}
