import CoreKit

/// What the server did, counted where it happened: the tests and benchmarks read it (as
/// JSON at `/_feed/stats`) to check the client from the other end of the wire, where its
/// own counters cannot lie — bytes a cancelled transfer still cost, transfers of the same
/// URL at once (coalescing failed), requests made while nothing moved.
public final class ServerStats: Sendable {
    public struct Snapshot: Sendable, Codable, Hashable {
        public var requests = 0
        public var timelineRequests = 0
        public var previewRequests = 0
        public var originalRequests = 0
        public var favouriteRequests = 0
        /// Body bytes written, all routes.
        public var bodyBytes = 0
        public var previewBytes = 0
        public var originalBytes = 0
        /// Responses whose client went away before the body was whole, and their bytes.
        public var abandoned = 0
        public var abandonedBytes = 0
        public var status304 = 0
        public var status206 = 0
        public var status500 = 0
        public var stalls = 0
        public var resets = 0
        /// Idempotency keys seen again (answered without acting twice).
        public var replays = 0
        /// Favourite and un-favourite requests that named a boost's own id, not the boosted
        /// status's (a client that does so cannot take its like back on Mastodon).
        public var favouritesByBoostID = 0
        /// The most transfers of one media URL in flight at the same time.
        public var mostConcurrentSameURL = 0
        /// Transfers of a media URL started while another of the same URL was in flight.
        public var overlappingSameURL = 0
        /// The first few of those URLs' paths, to look for in the client's log.
        public var overlappingPaths: [String] = []
        /// Of those overlaps, the ones where both bodies were sent whole: the client took the
        /// same photo twice at once (coalescing failed). An overlap where the earlier body
        /// was abandoned is a photo asked for again after the client cancelled it, while
        /// the server had not yet noticed the cancel — bytes lost, but not a duplicate.
        public var duplicateTransfers = 0
        /// The most media bodies being sent at the same time, all URLs: how many transfers
        /// the client really runs at once (a client-side queue in front of the wire shows here).
        public var mostConcurrentMedia = 0
    }

    /// What is in flight, by path (each transfer's number), and the overlaps whose outcome
    /// is not known yet (both numbers) with how each transfer that is in one ended.
    private struct Flight {
        var snapshot = Snapshot()
        var inFlight: [String: [Int]] = [:]
        var mediaInFlight = 0
        var next = 0
        var openOverlaps: [(Int, Int)] = []
        var endings: [Int: Bool] = [:]
        var duplicated: Set<Int> = []
    }

    private let state = Lock<Flight>(Flight())

    public init() {}

    public var snapshot: Snapshot { state.withLock { $0.snapshot } }

    func update(_ change: (inout Snapshot) -> Void) { state.withLock { change(&$0.snapshot) } }

    /// A media transfer of `path` starts; returns its number, for ``mediaEnded(_:transfer:whole:)``.
    func mediaStarted(_ path: String) -> Int {
        state.withLock { state in
            state.next += 1
            let transfer = state.next
            let others = state.inFlight[path] ?? []
            if !others.isEmpty {
                state.snapshot.overlappingSameURL += 1
                if state.snapshot.overlappingPaths.count < 10 { state.snapshot.overlappingPaths.append(path) }
                for other in others { state.openOverlaps.append((other, transfer)) }
            }
            state.inFlight[path] = others + [transfer]
            state.snapshot.mostConcurrentSameURL = max(state.snapshot.mostConcurrentSameURL, others.count + 1)
            state.mediaInFlight += 1
            state.snapshot.mostConcurrentMedia = max(state.snapshot.mostConcurrentMedia, state.mediaInFlight)
            return transfer
        }
    }

    /// Media bodies being written now.
    var mediaInFlight: Int { state.withLock { $0.mediaInFlight } }

    /// Transfer `transfer` of `path` ended: `whole` when its body was all sent.
    func mediaEnded(_ path: String, transfer: Int, whole: Bool) {
        state.withLock { state in
            let left = (state.inFlight[path] ?? []).filter { $0 != transfer }
            state.inFlight[path] = left.isEmpty ? nil : left
            state.mediaInFlight -= 1
            guard state.openOverlaps.contains(where: { $0.0 == transfer || $0.1 == transfer }) else { return }
            state.endings[transfer] = whole
            state.openOverlaps.removeAll { pair in
                guard let first = state.endings[pair.0], let second = state.endings[pair.1] else { return false }
                // Counted once per later transfer, as overlaps are.
                if first && second && state.duplicated.insert(pair.1).inserted { state.snapshot.duplicateTransfers += 1 }
                return true
            }
            let open = Set(state.openOverlaps.flatMap { [$0.0, $0.1] })
            state.endings = state.endings.filter { open.contains($0.key) }
        }
    }
}
