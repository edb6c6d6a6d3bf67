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
        /// The most media bodies being sent at the same time, all URLs: how many transfers
        /// the client really runs at once (a client-side queue in front of the wire shows here).
        public var mostConcurrentMedia = 0
    }

    private let state = Lock<(snapshot: Snapshot, inFlight: [String: Int], mediaInFlight: Int)>((Snapshot(), [:], 0))

    public init() {}

    public var snapshot: Snapshot { state.withLock { $0.snapshot } }

    func update(_ change: (inout Snapshot) -> Void) { state.withLock { change(&$0.snapshot) } }

    /// A media transfer of `path` starts; returns how many are in flight for it now.
    func mediaStarted(_ path: String) {
        state.withLock { state in
            let now = (state.inFlight[path] ?? 0) + 1
            state.inFlight[path] = now
            if now > 1 {
                state.snapshot.overlappingSameURL += 1
                if state.snapshot.overlappingPaths.count < 10 { state.snapshot.overlappingPaths.append(path) }
            }
            state.snapshot.mostConcurrentSameURL = max(state.snapshot.mostConcurrentSameURL, now)
            state.mediaInFlight += 1
            state.snapshot.mostConcurrentMedia = max(state.snapshot.mostConcurrentMedia, state.mediaInFlight)
        }
    }

    /// Media bodies being written now.
    var mediaInFlight: Int { state.withLock { $0.mediaInFlight } }

    func mediaEnded(_ path: String) {
        state.withLock { state in
            let left = (state.inFlight[path] ?? 1) - 1
            state.inFlight[path] = left > 0 ? left : nil
            state.mediaInFlight -= 1
        }
    }
}
