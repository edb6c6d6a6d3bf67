import CoreKit
import FeedFormat

/// The most requests a second the fetcher makes to one origin, whatever happens.
public struct RequestBound: Sendable {
    /// Requests a second, after the burst.
    public var perSecond: Double
    /// Requests at once after a quiet spell.
    public var burst: Double
    /// Monotonic time for the buckets (a test passes its own).
    public var clock: @Sendable () -> Duration

    public init(perSecond: Double = 200, burst: Double = 100, clock: (@Sendable () -> Duration)? = nil) {
        self.perSecond = perSecond
        self.burst = burst
        let start = ContinuousClock.now
        self.clock = clock ?? { ContinuousClock.now - start }
    }
}

/// What each origin may be sent (issue 43), consulted by the fetcher before every request
/// and every redirect hop:
/// - a token bucket per origin, the backstop under every retry policy: whatever a server
///   answers (and whatever bug of ours), at most ``RequestBound/perSecond`` requests a second
///   after a burst of ``RequestBound/burst``; far above what browsing needs (the photo
///   pipeline's own starts are 160 a second at most, `TransferPolicy`);
/// - a pause per origin that answered 429 or 503 with `Retry-After`: nothing is sent to it
///   until then, whoever asks (pages, photos and likes alike).
final class OriginGate: Sendable {
    let bound: RequestBound
    private let buckets = Lock<[Origin: TokenBucket]>([:])
    private let pauses = Lock<[Origin: (status: Int, until: ContinuousClock.Instant)]>([:])
    private let held = Lock(0)

    init(bound: RequestBound) {
        self.bound = bound
    }

    /// Requests that waited for the bound so far.
    var heldByBound: Int { held.withLock { $0 } }

    /// Waits for `url`'s origin to have a request to spare; fails at once, sending nothing,
    /// while the origin asked to be left alone.
    func admit(_ url: String) async throws(FetchError) {
        guard let origin = Origin(url: url) else { return }
        if let pause = pauses.withLock({ $0[origin] }) {
            let left = pause.until - ContinuousClock.now
            if left > .zero { throw .throttled(pause.status, retryAfter: left, message: "asked to wait") }
        }
        let now = bound.clock()
        let wait = buckets.withLock { buckets in
            var bucket = buckets[origin] ?? TokenBucket(rate: bound.perSecond, capacity: bound.burst, now: now)
            defer { buckets[origin] = bucket }
            return bucket.reserve(at: now)
        }
        guard wait > .zero else { return }
        held.withLock { $0 += 1 }
        do { try await Task.sleep(for: wait) } catch { throw .cancelled }
    }

    /// `url`'s origin answered `status` asking to wait `wait`: nothing goes to it until then
    /// (a longer pause already under way stands).
    func pause(_ url: String, status: Int, for wait: Duration) {
        guard let origin = Origin(url: url), wait > .zero else { return }
        let until = ContinuousClock.now + wait
        pauses.withLock { pauses in
            if let known = pauses[origin], known.until >= until { return }
            pauses[origin] = (status, until)
        }
    }
}
