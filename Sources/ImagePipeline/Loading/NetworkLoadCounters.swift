/// What a network loader did, for the report's `network` figures.
public struct NetworkLoadCounters: Sendable, Hashable {
    /// Transfers started.
    public var transfers = 0
    /// Of those, served by a kept copy without a request (``ImageSource/keptImage(at:)``).
    public var keptCopies = 0
    /// Requests that joined a transfer of the same URL under way.
    public var coalesced = 0
    /// Transfers whose every request went away before they started (no byte moved).
    public var cancelledBeforeStart = 0
    /// Transfers stopped mid-body because every request went away.
    public var cancelledInFlight = 0
    /// Transfers whose last request went away when they had most of their body: finished anyway.
    public var keptNearlyDone = 0
    /// Image bytes received in all.
    public var bytes = 0
    /// Image bytes received, by URL (every transfer, whole or cut short).
    public var bytesByURL: [String: Int] = [:]
    /// Bytes that still arrived after a transfer was cancelled (what was in flight).
    public var bytesAfterCancel = 0
    /// Transfers that failed (an HTTP error, a dropped connection that could not resume).
    public var failed = 0
    /// Waiting prefetches whose cell became visible.
    public var promoted = 0
    /// From a request to its prepared image, each delivered request, in ms: a prefetch's
    /// counts from its ask, however far ahead of the viewport that was.
    public var timeToImage: [Double] = []
    /// What a person waited, in ms: from the moment a cell on screen wanted the photo (a
    /// request made for a visible cell, or a prefetch seen promoted at a frame) to its
    /// prepared image, each delivered request a visible cell waited for. A prefetch prepared
    /// before its cell showed is not counted: nobody waited for it.
    public var visibleTimeToImage: [Double] = []
    /// Its parts: waiting in the queue (request → transfer start), the transfer (start →
    /// last byte), and the preparation (last byte → prepared, waiting for a worker included).
    public var queueWait: [Double] = []
    /// See ``queueWait``.
    public var transferTime: [Double] = []
    /// See ``queueWait``.
    public var prepareTime: [Double] = []

    /// All zero.
    public init() {}

    /// Image bytes received for URLs not in `shown`: prefetches nobody scrolled to, transfers
    /// cut short, photos prepared and evicted before a cell showed them.
    /// - Complexity: O(URLs transferred).
    public func bytesNeverShown(shown: Set<String>) -> Int {
        bytesByURL.reduce(0) { total, entry in shown.contains(entry.key) ? total : total + entry.value }
    }
}
