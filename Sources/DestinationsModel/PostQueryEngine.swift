import CoreKit

/// Runs post queries on the data source's background queue, one after the other: builds
/// the catalogue's ``PostIndex`` at the first query (off the main thread), and remembers
/// the last finished result so that a query narrowing it (one more letter typed) scans
/// only its matches.
///
/// Its lock is taken only by the background queue: the main thread never waits on it.
public final class PostQueryEngine: Sendable {
    private let catalogue: Catalogue
    private let postCount: Int
    private let state = Lock<(index: PostIndex?, last: (query: PostQuery, ids: [Int])?)>((nil, nil))

    public init(catalogue: Catalogue, postCount: Int) {
        self.catalogue = catalogue
        self.postCount = postCount
    }

    /// The ids `query` shows, in its order, or nil when cancelled midway.
    public func run(_ query: PostQuery, isCancelled: () -> Bool = { false }) -> [Int]? {
        let (index, previous) = state.withLock { state in
            if state.index == nil { state.index = PostIndex(catalogue: catalogue, postCount: postCount) }
            return (state.index!, state.last)
        }
        guard let ids = index.ids(for: query, narrowing: previous, isCancelled: isCancelled) else { return nil }
        state.withLock { $0.last = (query, ids) }
        return ids
    }
}
