import CollectionKit
import DestinationsModel
import DiffableData
import Dispatch
import FeedFormat

/// The posts behind the grid: the catalogue, the query engine that filters and orders it,
/// and the data source that carries each result to the collection view. Queries are built
/// and diffed on the data source's background queue; the main thread only commits the
/// finished changeset, once a frame (``applyFinishedUpdates(at:)``). Main thread only.
final class GridPosts {
    /// Grows while a photo folder is still being read, and with a feed's pages.
    private(set) var catalogue: Catalogue
    private(set) var postCount: Int
    let source: DiffableDataSource<Int, Int>
    private let queries = PostQueryEngine()
    /// Whether the whole list has arrived once (false while the first full snapshot is
    /// still being built behind the first screen).
    private(set) var hasLoadedAll: Bool

    /// Posts the first snapshot holds, so that the first screen never waits for a million:
    /// the whole list follows from the background a few frames later.
    static let initialPosts = 1024

    init(catalogue: Catalogue, postCount: Int, collection: CollectionView<Int, Int>, execution: BackgroundExecution) {
        self.catalogue = catalogue
        self.postCount = postCount
        hasLoadedAll = postCount <= Self.initialPosts
        source = DiffableDataSource(collectionView: collection, initial: Self.snapshot(Array(1...min(postCount, Self.initialPosts))),
                                    execution: execution)
        if case .serialQueue = execution {
            // The search index, built before the first key of a filter needs it.
            let queries = queries, catalogue = catalogue, postCount = postCount
            DispatchQueue.global(qos: .utility).async { queries.prepare(catalogue, postCount: postCount) }
        }
    }

    static func snapshot(_ ids: [Int]) -> Snapshot<Int, Int> {
        var snapshot = Snapshot<Int, Int>()
        snapshot.appendSections([0])
        snapshot.appendItems(ids)
        return snapshot
    }

    /// Computes the posts `query` shows, and the diff, on the data source's background
    /// queue; a newer query supersedes one still running.
    func requery(_ query: PostQuery, animated: Bool) {
        let queries = queries, postCount = postCount
        guard !query.isEveryPostInOrder else {
            // Without the catalogue: a closure holding it while a feed's next page is
            // appended made that append copy every post on the main thread.
            source.applyInBackground(animatingDifferences: animated) { _ in Self.snapshot(queries.everyPost(postCount: postCount)) }
            return
        }
        let catalogue = catalogue
        source.applyInBackground(animatingDifferences: animated) { isSuperseded in
            queries.run(query, over: catalogue, postCount: postCount, isCancelled: isSuperseded).map(Self.snapshot)
        }
    }

    /// A photo folder's catalogue with more photos read (one post per photo); the caller requeries.
    func replaceCatalogue(_ newer: Catalogue) {
        catalogue = newer
        postCount = newer.baseCount
    }

    /// A feed's page: its posts join the catalogue at the end, in place — a copy of the
    /// catalogue per page grew with the feed (a hitch a page at 100,000 posts). Returns the
    /// ids added; the caller requeries (once for a frame's pages).
    func appendFeedPosts(_ posts: [FeedPost]) -> Range<Int> {
        let before = catalogue.baseCount
        catalogue.appendFeedPosts(posts)
        postCount = catalogue.baseCount
        return (before + 1)..<(postCount + 1)
    }

    /// Hides a warned post behind its warning or shows it as it is (the model decided);
    /// returns whether its text changed, so a filter in force must run again.
    @discardableResult
    func setHidden(_ hidden: Bool, id: Int) -> Bool {
        let before = catalogue.textRevision
        catalogue.setHidden(hidden, ofPost: id - 1)
        return catalogue.textRevision != before
    }

    /// Every warned post hidden (false) or shown as it is, and the posts of pages still to
    /// come the same (`X`); returns the posts whose text changed.
    func setShowsSensitive(_ shown: Bool) -> [Int] {
        catalogue.setShowsSensitive(shown).map { $0 + 1 }
    }

    /// True while a query is being computed or waits for the next commit.
    var isQuerying: Bool { source.hasBackgroundWork }

    /// Hands the view what finished since the last frame (queries, reconfigured items):
    /// once a frame, before the view's commit. Returns whether the posts shown may have changed.
    func applyFinishedUpdates(at time: Duration) -> Bool {
        let changed = source.applyFinishedUpdates(at: time)
        if !hasLoadedAll && !isQuerying { hasLoadedAll = true }
        return changed
    }

    /// The key a post's like and place are kept under: a feed's status id, else its number.
    func stateKey(of id: Int) -> String { catalogue.statusID(ofPost: id - 1) ?? String(id) }

    /// The post a state key names, if the catalogue has it (`isFeed`: keys are status ids).
    func post(forStateKey key: String, isFeed: Bool) -> Int? {
        if isFeed { return catalogue.post(withStatusID: key).map { $0 + 1 } }
        guard let id = Int(key), id >= 1, id <= postCount else { return nil }
        return id
    }

    /// Whether post `id` is in the order shown now.
    func isShown(_ id: Int) -> Bool { source.indexPath(for: id) != nil }
}

/// The posts a data source shows, as ``GridModel`` may read them: their order, nothing else.
struct ShownPosts: GridContents {
    let source: DiffableDataSource<Int, Int>
    let columns: Int
    let catalogue: Catalogue
    var count: Int { source.numberOfItems }
    func index(of id: Int) -> Int? { source.indexPath(for: id)?.item }
    /// The data source answers nil outside the order shown.
    func identifier(at index: Int) -> Int? { source.itemIdentifier(for: ItemPath(item: index, section: 0)) }
    func isFavourited(_ id: Int) -> Bool { catalogue.isFavourited(ofPost: id - 1) }
    func hasWarning(_ id: Int) -> Bool { catalogue.hasWarning(ofPost: id - 1) }
    func pictureCount(_ id: Int) -> Int { catalogue.pictureCount(ofPost: id - 1) }
}
