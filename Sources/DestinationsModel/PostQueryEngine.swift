import CoreKit

/// Runs post queries on the data source's background queue, one after the other: builds
/// the catalogue's ``PostIndex`` at the first query (off the main thread), and remembers
/// the last finished result so that a query narrowing it (one more letter typed) scans
/// only its matches.
///
/// Its lock is taken only by the background queue: the main thread never waits on it.
public final class PostQueryEngine: Sendable {
    private let state = Lock<(index: PostIndex?, last: (query: PostQuery, ids: [Int])?)>((nil, nil))

    public init() {}

    /// The ids of `catalogue`'s first `postCount` posts that `query` shows, in its order,
    /// or nil when cancelled midway. The index is built again only when the catalogue grew
    /// (a photo folder still being read), the post count changed or a post's shown text
    /// did (a warned post revealed).
    /// No filter in the catalogue's order is every post as it is: no index is built or
    /// kept for it (a feed growing page by page rebuilt one, and held a copy of the
    /// catalogue that made every page's append copy it whole on the main thread).
    public func run(_ query: PostQuery, over catalogue: Catalogue, postCount: Int, isCancelled: () -> Bool = { false }) -> [Int]? {
        if query.isEveryPostInOrder { return everyPost(postCount: postCount) }
        let (index, previous) = indexAndLast(catalogue: catalogue, postCount: postCount)
        guard let ids = index.ids(for: query, narrowing: previous, isCancelled: isCancelled) else { return nil }
        state.withLock { $0.last = (query, ids) }
        return ids
    }

    /// The ids of the first `postCount` posts in order: what ``PostQuery/isEveryPostInOrder``
    /// shows. Takes no catalogue, so a caller need not hold one while it runs (a feed's
    /// next page is appended to the catalogue in place, and a copy held here made that
    /// append copy every post on the main thread).
    public func everyPost(postCount: Int) -> [Int] {
        let ids = postCount > 0 ? Array(1...postCount) : []
        state.withLock { $0.last = (PostQuery(), ids) }
        return ids
    }

    /// Builds the index for `catalogue` now, on the calling thread (a background one), so
    /// that the first key of a filter does not pay for it (it made that key's result a
    /// frame late).
    public func prepare(_ catalogue: Catalogue, postCount: Int) {
        _ = indexAndLast(catalogue: catalogue, postCount: postCount)
    }

    private func indexAndLast(catalogue: Catalogue, postCount: Int) -> (PostIndex, (query: PostQuery, ids: [Int])?) {
        state.withLock { state in
            if let index = state.index, index.postCount == postCount, index.entryCount == catalogue.baseCount,
               index.textRevision == catalogue.textRevision {
                return (index, state.last)
            }
            let index = PostIndex(catalogue: catalogue, postCount: postCount)
            state = (index, nil)
            return (index, nil)
        }
    }
}
