/// How a request's priority is written: a number, lower sooner. Visible cells use their
/// distance from the top of the viewport in rows; prefetches the same plus
/// ``prefetchBase``, so every visible request comes before every prefetch, and a prefetch
/// whose cell becomes visible is promoted by lowering its number.
public enum RequestPriority {
    /// The detail view's original: before everything.
    public static let detail = -1
    /// Added to a prefetch's distance: above every visible request's number.
    public static let prefetchBase = 1 << 20
    /// The priority of a visible cell `distance` rows from the viewport's top.

    public static func visible(distance: Int) -> Int { max(0, min(distance, prefetchBase - 1)) }
    /// The priority of a prefetch `distance` rows from the viewport.
    public static func prefetch(distance: Int) -> Int { prefetchBase + max(0, distance) }
    /// Whether `priority` is a prefetch's.
    public static func isPrefetch(_ priority: Int) -> Bool { priority >= prefetchBase }
}

/// What the network's transfers may do at once.
public struct TransferPolicy: Sendable, Hashable {
    /// Transfers in flight at once. Nuke allows 6; at 80 ms of latency that is at most about
    /// 50 images a second, and a 120 Hz fling over the feed showed half its cell-frames as
    /// placeholders (time to image p95 1.7 s, nearly all of it waiting in the queue). 16 (the
    /// simulated network's transfer threads) brought that to 3–5 % (D-044). 24 since D-055:
    /// a 160×48 screen shows about 20 photos, and with 16 slots the last few of a first
    /// screen waited for the first ones — two latencies instead of one.
    public var connections = 24
    /// Of those, at most half prefetches, so a fling's prefetches never take the slots
    /// visible cells need (Nuke PR #981: prefetch filled every slot).
    public var prefetchConnections = 12
    /// Transfers started per second, sustained: a fling that passes hundreds of cells asks
    /// for what it will show, not all it passed (cells it passed are cancelled before their
    /// transfer starts). Nuke's 80/s, burst 25, held prefetches back: a prefetch's time
    /// from its ask to its image p95 was 310–320 ms, 170–190 ms at 160/s, burst 50; the
    /// server's load is the same either way, about 55 starts a second over a fling (D-055).
    public var startsPerSecond = 160.0
    /// Starts that may happen at once after a quiet spell (the bucket's size).
    public var burst = 50.0

    /// A folder's policy: `connections` at once, prefetches included, and no rate (nothing
    /// on the other side to spare); the simulated network's transfers (``ImageLoader/defaultTransfers``).
    public static func local(connections: Int = ImageLoader.defaultTransfers) -> TransferPolicy {
        TransferPolicy(connections: connections, prefetchConnections: connections, startsPerSecond: 1e9, burst: 1e9)
    }

    /// A policy; the defaults are the measured ones (D-044).
    public init(connections: Int = 24, prefetchConnections: Int = 12, startsPerSecond: Double = 160, burst: Double = 50) {
        precondition(connections > 0 && (0...connections).contains(prefetchConnections), "TransferPolicy: bad connection counts")
        precondition(startsPerSecond > 0 && burst >= 1, "TransferPolicy: bad rate")
        self.connections = connections
        self.prefetchConnections = prefetchConnections
        self.startsPerSecond = startsPerSecond
        self.burst = burst
    }
}

/// Which waiting transfer starts next: the policies of the network's loading pipeline as a
/// pure value with the time passed in, so every rule is exact on a virtual clock.
///
/// - The waiting transfer with the lowest priority number starts first (ties: the oldest).
/// - At most ``TransferPolicy/connections`` run, at most ``TransferPolicy/prefetchConnections``
///   of them prefetches; a visible transfer may always take a free slot.
/// - Starts draw from a token bucket (``TransferPolicy/startsPerSecond``, ``TransferPolicy/burst``).
/// - A priority may change while waiting (promotion, demotion) or running (a running
///   prefetch promoted to visible no longer counts against the prefetch cap).
public struct TransferQueue<Key: Hashable & Sendable>: Sendable {
    /// The limits it applies.
    public let policy: TransferPolicy
    private var waiting: [Key: (priority: Int, order: Int)] = [:]
    private var running: [Key: Int] = [:]
    private var order = 0
    private var tokens: Double
    private var refilledAt: Duration
    /// Waiting prefetches promoted to visible so far.
    public private(set) var promoted = 0

    /// An empty queue whose bucket is full at `now`.
    public init(policy: TransferPolicy = TransferPolicy(), now: Duration) {
        self.policy = policy
        tokens = policy.burst
        refilledAt = now
    }

    /// Transfers waiting to start.
    public var waitingCount: Int { waiting.count }
    /// Transfers running.
    public var runningCount: Int { running.count }
    /// Running transfers that are prefetches.
    public var runningPrefetches: Int { running.values.count(where: RequestPriority.isPrefetch) }
    /// Whether `key` waits to start.
    public func isWaiting(_ key: Key) -> Bool { waiting[key] != nil }
    /// Whether `key` is running.
    public func isRunning(_ key: Key) -> Bool { running[key] != nil }
    /// The priority of `key`, waiting or running; nil when it is neither.
    public func priority(of key: Key) -> Int? { waiting[key]?.priority ?? running[key] }

    /// Queues `key` (a key already waiting or running only has its priority updated).
    public mutating func add(_ key: Key, priority: Int) {
        if waiting[key] != nil || running[key] != nil {
            update(key, priority: priority)
            return
        }
        waiting[key] = (priority, order)
        order += 1
    }

    /// A new priority for a waiting or running transfer.
    public mutating func update(_ key: Key, priority: Int) {
        if let entry = waiting[key] {
            if RequestPriority.isPrefetch(entry.priority) && !RequestPriority.isPrefetch(priority) { promoted += 1 }
            waiting[key] = (priority, entry.order)
        } else if running[key] != nil {
            running[key] = priority
        }
    }

    /// Takes `key` out (cancelled): returns whether it was waiting (it never started).
    @discardableResult
    public mutating func remove(_ key: Key) -> Bool {
        running[key] = nil
        return waiting.removeValue(forKey: key) != nil
    }

    /// A running transfer ended (done, failed or cancelled): its slot is free.
    public mutating func finished(_ key: Key) { running[key] = nil }

    /// The next transfer to start now, if the slots and the rate allow one; it counts as
    /// running from here on. Call until nil.
    /// - Complexity: O(waiting).
    public mutating func nextToStart(at now: Duration) -> Key? {
        guard running.count < policy.connections, !waiting.isEmpty else { return nil }
        refill(at: now)
        guard tokens >= 1 else { return nil }
        let prefetchFull = runningPrefetches >= policy.prefetchConnections
        var best: (key: Key, priority: Int, order: Int)?
        for (key, entry) in waiting {
            if prefetchFull && RequestPriority.isPrefetch(entry.priority) { continue }
            if let current = best, (entry.priority, entry.order) >= (current.priority, current.order) { continue }
            best = (key, entry.priority, entry.order)
        }
        guard let best else { return nil }
        waiting[best.key] = nil
        running[best.key] = best.priority
        tokens -= 1
        return best.key
    }

    /// A started transfer made no request (a kept copy served it): its start goes back to
    /// the bucket, so reading from a disk cache is never held to the server's rate.
    public mutating func refundStart() { tokens = min(policy.burst, tokens + 1) }

    /// When a token will be there for a waiting transfer held back by the rate alone (nil:
    /// none is, or slots hold them back, which a finishing transfer frees).
    public func nextStartTime(at now: Duration) -> Duration? {
        guard !waiting.isEmpty, running.count < policy.connections else { return nil }
        var copy = self
        copy.refill(at: now)
        guard copy.tokens < 1 else { return nil }
        return now + .seconds((1 - copy.tokens) / policy.startsPerSecond)
    }

    private mutating func refill(at now: Duration) {
        let elapsed = max(.zero, now - refilledAt)
        tokens = min(policy.burst, tokens + Double(elapsed.components.seconds) * policy.startsPerSecond
            + Double(elapsed.components.attoseconds) / 1e18 * policy.startsPerSecond)
        refilledAt = now
    }
}
