import CoreKit

/// Failures: the photos that could not be prepared show their placeholder with an error mark;
/// those that were unavailable offline or interrupted are forgotten later, so that cells ask
/// for them again.
extension AssetStore {
    /// The failures delivered, and when the interrupted ones are forgotten.
    struct Failures {
        /// Why each key failed, until it is forgotten and asked for again.
        var byKey: [PreparedImageKey: ImageError] = [:]
        /// When the failures that may pass (``ImageError/isTransient``) are forgotten.
        var interrupted: InterruptedRetries
        /// Interrupted failures forgotten so far, to be asked for again.
        var retries = 0
    }

    /// Interrupted failures forgotten so far, to be asked for again.
    public var retries: Int { failures.retries }

    /// Forgets the photos that were unavailable offline (``ImageError/unavailable(path:reason:)``),
    /// so that cells ask for them again: the network is back. Returns how many.
    @discardableResult
    public func forgetUnavailable() -> Int {
        let gone = failures.byKey.filter { if case .unavailable = $0.value { true } else { false } }
        for key in gone.keys { failures.byKey[key] = nil }
        return gone.count
    }

    /// `RetryPolicy.photos` (CoreKit) without jitter: 2, 4, 8 … 60 s exactly (the default, for the
    /// virtual clock).
    public static let exactRetries = RetryPolicy(first: .seconds(2), cap: .seconds(60), jitter: 0)

    /// The wait before an interrupted photo is asked for again, after `failures` in a row:
    /// 2 s, doubled each time, at most a minute (a server that keeps failing costs one
    /// request a minute per photo someone looks at).
    public static func retryDelay(afterFailures failures: Int) -> Duration {
        exactRetries.ceiling(afterFailures: failures)
    }

    /// Forgets the interrupted failures (``ImageError/interrupted(path:reason:)``) whose
    /// backoff is over by `now`, so that cells ask for them again, and returns their keys
    /// (the caller reconfigures the items that show them). A failure's backoff counts from
    /// the first call after it was delivered: call this every frame (it is O(1) while
    /// nothing is due).
    public func retryInterrupted(now: Duration) -> [PreparedImageKey] {
        let over = failures.interrupted.due(now: now)
        let due = over.filter { failures.byKey[$0]?.isTransient == true }
        for key in due { failures.byKey[key] = nil }
        failures.retries += due.count
        return due
    }
}
