import CoreKit

/// When photos whose fetch was interrupted (``ImageError/interrupted(path:reason:)``) are
/// asked for again: per key, a backoff that doubles with each failure in a row and starts
/// over once the photo arrives (D-066). A value the ``AssetStore`` keeps; it has no clock of
/// its own, so a failure's wait is stamped at the first ``due(now:)`` after it.
struct InterruptedRetries {    /// The backoff, and where its random shares come from (seeded: a run is reproducible).
    private let policy: RetryPolicy
    private var random = SplitMix64(seed: 43)

    init(policy: RetryPolicy) {
        self.policy = policy
    }

    /// Failures in a row, by key, until one arrives.
    private var inARow: [PreparedImageKey: Int] = [:]
    /// Failures noted since the last ``due(now:)``, which stamps their time.
    private var unstamped: [PreparedImageKey] = []
    /// When each failure waiting is forgotten.
    private var retryAt: [PreparedImageKey: Duration] = [:]
    /// The first of `retryAt`, so a frame with nothing due costs one comparison.
    private(set) var earliest: Duration?

    /// Failures noted and not yet stamped: the frame loop must not sleep before it stamps them.
    var hasUnstamped: Bool { !unstamped.isEmpty }

    /// `key` failed in a way that may pass. Counted once however many requests shared the
    /// failure (delivered together, or while it waits).
    mutating func failed(_ key: PreparedImageKey) {
        guard retryAt[key] == nil, !unstamped.contains(key) else { return }
        inARow[key, default: 0] += 1
        unstamped.append(key)
    }

    /// `key` arrived: its next failure waits 2 s again.
    mutating func arrived(_ key: PreparedImageKey) {
        inARow[key] = nil
    }

    /// Stamps the failures noted since the last call (from `now`), then returns the keys
    /// whose wait is over and forgets their waits.
    mutating func due(now: Duration) -> [PreparedImageKey] {
        if !unstamped.isEmpty {
            for key in unstamped {
                let at = now + policy.delay(afterFailures: inARow[key, default: 1], unit: Double(random.next() >> 11) / Double(1 << 53))
                retryAt[key] = at
                earliest = min(earliest ?? at, at)
            }
            unstamped.removeAll(keepingCapacity: true)
        }
        guard let first = earliest, now >= first else { return [] }
        let due = retryAt.filter { $0.value <= now }.map(\.key)
        for key in due { retryAt[key] = nil }
        earliest = retryAt.values.min()
        return due
    }
}
