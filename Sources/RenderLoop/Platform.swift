#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The C library calls of RenderLoop, in one place: the monotonic clock and the absolute
/// sleep behind ``MonotonicClock``. No other file of the target imports libc.
enum Platform {
    /// `CLOCK_MONOTONIC` now, since an arbitrary fixed point (boot).
    static func monotonicNow() -> Duration {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return .seconds(ts.tv_sec) + .nanoseconds(ts.tv_nsec)
    }

    /// One absolute `clock_nanosleep` to `deadline` on the monotonic clock (as
    /// ``monotonicNow()`` counts); a signal's EINTR sleeps again until it really passed.
    static func sleepUntilMonotonic(_ deadline: Duration) {
        let (seconds, attoseconds) = deadline.components
        var target = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &target, nil) == EINTR {}
    }
}
