/// A ``ImageLoader``'s bookkeeping: its transfers, the requests waiting for each,
/// and what its workers record. The transfers live under the loader's lock; the workers'
/// figures under a lock of their own (D-056).
extension ImageLoader {
    /// What the decoding workers record, under their own lock so the main thread never waits on one.
    struct WorkerFigures: Sendable {
        var timeToImage: [Double] = []
        var visibleTimeToImage: [Double] = []
        var prepareTime: [Double] = []
        /// The median of the last 32 times to image, kept as each arrives.
        var recentTimeToImage: Duration?
    }

    /// One URL's transfer, shared by every request for it.
    final class Transfer: @unchecked Sendable {  // only touched under `state`'s lock
        var interests: [Interest]
        var received = 0
        var expected: Int?
        var cancelled = false
        var task: Task<Void, Never>?
        var startedAt: Duration = .zero
        var endedAt: Duration = .zero
        /// Read from a kept copy, no request made: its start goes back to the rate limit.
        var fromKeptCopy = false
        /// Under way, and nobody waited for it at the last frame's look: cancelled after this
        /// frame's commit unless a request joins it there (a cell that left the range and
        /// came straight back, a prefetch whose cell asked again in the next layout).
        var orphaned = false
        /// Nobody waits, but it had most of its body: left to finish (counted once).
        var keptNearlyDone = false
        /// Asked for by the detail view: read up to the original's cap, not a preview's.
        var kind = PhotoKind.preview
        init(_ first: Interest) { interests = [first] }
    }

    /// A request waiting for a transfer: the size it wants prepared, and when it was asked.
    struct Interest: Sendable {
        let key: PreparedImageKey
        let request: Int
        let cancellation: Cancellable
        let askedAt: Duration
        /// When a visible cell first wanted it: the ask for a visible request, the first
        /// frame that saw a prefetch promoted; nil while it is a prefetch.
        var visibleSince: Duration?
    }

    /// What the loader's lock guards: the queue, the transfers by URL, and the network figures.
    struct State: Sendable {
        var queue: TransferQueue<String>
        var transfers: [String: Transfer] = [:]
        var counters = NetworkLoadCounters()
        var timerArmed = false
        /// Requests were queued since the last pump (``startQueuedWork()`` or the next frame starts them).
        var pumpWanted = false
    }
}
