/// How long to wait before asking a server again after failures in a row: one policy for a
/// feed's pages, its photos and the likes' outbox (issue 43). The wait doubles from
/// ``first`` up to ``cap``; ``jitter`` takes a random share off it, so that clients that
/// failed together (a server that restarted) do not come back together; a server's own
/// `Retry-After` stands over it when longer.
public struct RetryPolicy: Sendable, Equatable {
    /// The wait after the first failure.
    public var first: Duration
    /// The longest wait.
    public var cap: Duration
    /// The share of each wait drawn at random, 0 to 1: the wait lies between
    /// `(1 − jitter) · d` and `d`. 0: exact (the virtual-clock tests).
    public var jitter: Double

    /// A policy waiting `first` after one failure, doubling up to `cap`, `jitter` of each
    /// wait drawn at random (0 to 1).
    public init(first: Duration, cap: Duration, jitter: Double = 0.5) {
        precondition(first > .zero && cap >= first && (0...1).contains(jitter), "RetryPolicy: bad values")
        self.first = first
        self.cap = cap
        self.jitter = jitter
    }

    /// A feed's pages and likes: 1, 2, 4 … 30 s, up to half of each drawn at random.
    public static let pages = RetryPolicy(first: .seconds(1), cap: .seconds(30))
    /// Photos: 2, 4, 8 … 60 s (a server that keeps failing costs one request a minute per
    /// photo someone looks at), up to half drawn at random.
    public static let photos = RetryPolicy(first: .seconds(2), cap: .seconds(60))

    /// The wait without jitter after `failures` in a row (1 or more): the longest it can be.
    public func ceiling(afterFailures failures: Int) -> Duration {
        var wait = first
        for _ in 1..<max(failures, 1) where wait < cap { wait = wait * 2 }
        return min(wait, cap)
    }

    /// The wait after `failures` in a row, `unit` a random number in 0..<1 (a test passes its
    /// own), and at least what the server asked for (`serverAsked`).
    public func delay(afterFailures failures: Int, unit: Double, serverAsked: Duration? = nil) -> Duration {
        let ceiling = ceiling(afterFailures: failures)
        let drawn = ceiling - ceiling * (jitter * min(max(unit, 0), 1))
        return max(drawn, serverAsked ?? .zero)
    }

    /// The same with the system's random numbers.
    public func delay(afterFailures failures: Int, serverAsked: Duration? = nil) -> Duration {
        delay(afterFailures: failures, unit: Double.random(in: 0..<1), serverAsked: serverAsked)
    }
}

/// A token bucket with time passed in: at most ``capacity`` events at once after a quiet
/// spell and ``rate`` a second after that, whatever asks. ``reserve(at:)`` never refuses: it
/// says how long the caller must wait for its turn (tokens may go below zero, so waiters
/// queue in order), and over any span of time the events it lets through are at most
/// `capacity + rate · span`.
public struct TokenBucket: Sendable {
    /// Events a second, after the burst.
    public let rate: Double
    /// Events at once after a quiet spell.
    public let capacity: Double
    private var tokens: Double
    private var last: Duration

    /// A full bucket at `now`.
    public init(rate: Double, capacity: Double, now: Duration) {
        precondition(rate > 0 && capacity >= 1, "TokenBucket: bad values")
        self.rate = rate
        self.capacity = capacity
        tokens = capacity
        last = now
    }

    /// Takes a token for an event at `now` and returns how long the event must wait for it
    /// (zero: at once).
    public mutating func reserve(at now: Duration) -> Duration {
        if now > last {
            tokens = min(capacity, tokens + (now - last) / .seconds(1) * rate)
            last = now
        }
        tokens -= 1
        return tokens >= 0 ? .zero : .seconds(-tokens / rate)
    }
}
