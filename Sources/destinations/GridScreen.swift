import CellCanvas
import CoreKit
import CollectionKit
import DestinationsModel
import DiffableData
import FeedFormat
import Dispatch
import ImagePipeline
import RenderLoop

/// The grid as the person sees it: the state they chose, and the view, data source and
/// image store wired to show it. Cells are configured here from the catalogue and the
/// store; thumbnails are requested by data prefetching and when a cell shows a
/// placeholder, and arrive by `reconfigureItems`; the filter and the order run as
/// background applies. Main thread only; the frame loop (``GridApp``) drives it.
final class GridScreen: CollectionViewPrefetching, CollectionViewDelegate {
    /// What the person chose: the app changes it (``GridState/handle(_:in:)``), the screen
    /// only reads it.
    var state: GridState
    /// Grows while a photo folder is still being read (``replaceCatalogue(_:)``).
    private(set) var catalogue: Catalogue
    private(set) var postCount: Int
    let store: AssetStore
    let clock: any FrameClock
    /// Extra work per configured cell (`--cell-cost`), spun on the clock.
    let cellCost: Duration
    private(set) var detail: DetailView?
    /// The colours cells and the detail view draw with.
    var theme = Theme.dark
    /// `--images sync`: posts whose full-size decode waits for a later commit (at most
    /// ``syncDecodesPerCommit`` a commit, so the app keeps answering; issue 28).
    private var awaitingSyncDecode = Set<Int>()
    /// Full-size decodes in the current commit.
    private(set) var syncDecodesInCommit = 0
    /// The seeds' wrong way stays wrong (a photo decoded on the main thread at
    /// configuration: every new cell is a long commit), but a relayout or a page of new
    /// cells no longer decodes them all in one commit: keys are read between two decodes,
    /// so `q`, `?` or Ctrl-C act within one decode plus one frame.
    static let syncDecodesPerCommit = 1
    /// What configuring a cell costs, measured (sets the per-frame delivery limit).
    private(set) var configureCost = CostPredictor()
    private let queries: PostQueryEngine
    private let execution: BackgroundExecution

    /// Posts the first snapshot holds, so that the first screen never waits for a million:
    /// the whole list follows from the background a few frames later.
    static let initialPosts = 1024

    private(set) lazy var view = CollectionView<Int, Int>(layout: GridLayout(minimumItemWidth: 28, itemHeight: PostCell.height, spacing: 1),
                                                           clock: clock) { [unowned self] view, path, id in
        view.dequeueConfiguredReusableCell(using: registration, for: path, item: id)
    }
    private(set) lazy var source = DiffableDataSource(collectionView: view, initial: Self.snapshot(Array(1...min(postCount, Self.initialPosts))),
                                                      execution: execution)
    private lazy var registration = CellRegistration<PostCell, Int> { [unowned self] cell, path, id in configure(cell, at: path, id: id) }

    init(state: GridState, catalogue: Catalogue, postCount: Int, store: AssetStore, clock: any FrameClock,
         cellCost: Duration = .zero, execution: BackgroundExecution = .serialQueue) {
        self.state = state
        self.catalogue = catalogue
        self.postCount = postCount
        self.store = store
        self.clock = clock
        self.cellCost = cellCost
        self.execution = execution
        queries = PostQueryEngine()
        view.prefetchDataSource = self
        view.delegate = self
        if postCount > Self.initialPosts { requery(animated: false) }
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

    // MARK: Data

    /// Computes the posts the state's filter and order show, and the diff, on the data
    /// source's background queue; a newer query supersedes one still running. The main
    /// thread only commits the finished changeset.
    func requery(animated: Bool = true) {
        let query = state.query, queries = queries, postCount = postCount
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

    /// A photo folder's catalogue with more photos read: one post per photo, shown
    /// through a background apply like any query.
    func replaceCatalogue(_ newer: Catalogue) {
        catalogue = newer
        postCount = newer.baseCount
        requery(animated: false)
    }

    /// A feed's page: its posts join the catalogue at the end, in place — a copy of the
    /// catalogue per page grew with the feed (a hitch a page at 100,000 posts) — and are
    /// shown by the next ``requery(animated:)`` (once for a frame's pages). Returns the ids added.
    func appendFeedPosts(_ posts: [FeedPost]) -> Range<Int> {
        let before = catalogue.baseCount
        catalogue.appendFeedPosts(posts)
        postCount = catalogue.baseCount
        return (before + 1)..<(postCount + 1)
    }

    /// True while a query is being computed or waits for the next commit.
    var isQuerying: Bool { source.hasBackgroundWork }

    /// Whether the whole list has arrived once (false while the first full snapshot is
    /// still being built behind the first screen).
    private(set) lazy var hasLoadedAll = postCount <= Self.initialPosts

    /// Commits finished queries (before the view's commit, so that the state can keep the
    /// selection on a shown post and the border is right at once).
    func takeFinishedUpdates(at time: Duration) {
        syncDecodesInCommit = 0
        if state.imageMode != .sync {
            awaitingSyncDecode.removeAll()
        } else if let next = nearestAwaitingSyncDecode() {
            awaitingSyncDecode.remove(next)
            source.reconfigureItems([next])
        }
        source.applyFinishedUpdates(at: time)
        if !hasLoadedAll && !isQuerying { hasLoadedAll = true }
    }

    /// The posts shown, as the state reads them (``GridContents``).
    var contents: ShownPosts { ShownPosts(source: source, columns: view.layout.columns, catalogue: catalogue) }

    // MARK: What effects ask of the view (``GridApp/apply(_:at:)`` interprets them)

    /// Rows per second of a fling key (J/K): comes to rest 200 rows on.
    static let flingSpeed = 400.0

    /// A fling in `direction`; flinging again while moving the same way adds speed, as a
    /// second swipe does on a phone.
    func fling(_ direction: Double, at time: Duration) {
        let current = view.physics.velocity
        let speed = current * direction > 0 ? current + direction * Self.flingSpeed : direction * Self.flingSpeed
        view.fling(speed: speed, at: time)
    }

    /// The selection moved from `old` to `new` (the state moved it): the two cells whose
    /// border changes are configured again, and the new one is scrolled into view.
    func showSelection(from old: Int, to new: Int, at time: Duration) {
        source.reconfigureItems([old, new])
        guard let path = source.indexPath(for: new) else { return }
        let frame = view.layout.frame(for: path)
        let top = view.physics.offset, height = Double(view.viewport.height)
        if Double(frame.y) < top { view.scroll(byRows: Double(frame.y) - top, at: time) }
        if Double(frame.maxY) > top + height { view.scroll(byRows: Double(frame.maxY) - top - height, at: time) }
    }

    /// The kitty images the live cells and the detail view show (their deletion waits).
    var shownGraphicIDs: Set<UInt32> {
        var ids = Set<UInt32>()
        view.forEachLiveCell { cell in
            if let id = (cell as? PostCell)?.image?.graphicID { ids.insert(id) }
        }
        if let id = detail?.image?.graphicID { ids.insert(id) }
        return ids
    }

    /// Where the grid draws; the detail view covers the same area.
    func setViewport(_ rect: Rect) {
        view.setViewport(rect)
        if let detail, detail.resize(to: rect) { loadDetailImage(detail) }
    }

    // MARK: Cells and thumbnails

    /// The waiting post nearest the top of the viewport (what a person looks at first);
    /// posts no longer shown are forgotten.
    private func nearestAwaitingSyncDecode() -> Int? {
        var best: (id: Int, distance: Int)?
        for id in awaitingSyncDecode {
            guard let path = source.indexPath(for: id) else {
                awaitingSyncDecode.remove(id)
                continue
            }
            let distance = abs(view.layout.frame(for: path).y - Int(view.physics.offset))
            if best.map({ distance < $0.distance }) ?? true { best = (id, distance) }
        }
        return best?.id
    }

    func likes(of id: Int) -> Int { catalogue.likes(ofPost: id - 1) + state.likesAdded(to: id) }

    /// Whether the person likes post `id` now (their word, else the catalogue's).
    func isLiked(_ id: Int) -> Bool { state.liked[id] ?? catalogue.isFavourited(ofPost: id - 1) }

    /// One thumbnail size for every column (the narrowest's): an item that moves to a column
    /// one cell wider keeps its prepared thumbnail instead of needing another.
    private func thumbnailKey(for id: Int) -> PreparedImageKey {
        let size = PostCell.thumbnailSize(width: view.layout.narrowestItemWidth)
        return PreparedImageKey(asset: catalogue.post(id - 1).asset, columns: size.columns, rows: size.rows)
    }

    private func configure(_ cell: PostCell, at path: ItemPath, id: Int) {
        let started = clock.now
        defer { configureCost.record(clock.now - started) }
        let post = catalogue.post(id - 1)
        cell.title = post.title
        cell.region = post.region
        cell.likes = likes(of: id)
        cell.isLiked = isLiked(id)
        cell.isSelected = id == state.selected
        cell.theme = theme
        if cellCost > .zero { clock.spin(for: cellCost) }
        let key = thumbnailKey(for: id)
        // `--images sync`: decoded at full size, here, while the frame waits (one a commit).
        let decodesHere = state.imageMode == .sync && syncDecodesInCommit < Self.syncDecodesPerCommit
        if decodesHere { syncDecodesInCommit += 1 }
        let asset = decodesHere ? store.prepareOnThisThread(key) : store.asset(for: key)
        cell.image = asset.image
        cell.isPlaceholder = asset.isPlaceholder
        cell.assetPath = key.asset.path
        // Reconfigured cells keep their properties: a failure asked for again is cleared here.
        cell.failure = if case .failed(_, let error) = asset { error.shortLabel } else { nil }
        if case .placeholder = asset {
            if state.imageMode == .sync { awaitingSyncDecode.insert(id) } else { requestThumbnail(id, key: key, at: path) }
        }
    }

    /// Starts preparing a post's thumbnail unless it is under way (the store keeps that
    /// record); the completion reconfigures the item, never a captured cell.
    private func requestThumbnail(_ id: Int, key: PreparedImageKey, at path: ItemPath) {
        let frame = view.layout.frame(for: path), top = Int(view.physics.offset)
        let distance = abs(frame.y - top)
        let visible = frame.y + frame.height > top && frame.y < top + view.viewport.height
        store.downloadOnce(key, priority: visible ? RequestPriority.visible(distance: distance) : RequestPriority.prefetch(distance: distance)) { [unowned self] _ in
            source.reconfigureItems([id])  // O(1): no snapshot copy, no diff
        }
    }

    /// Photos whose fetch was interrupted (a 5xx, a timeout) and whose backoff is over are
    /// asked for again: the shown cells and the detail view that show one are configured
    /// anew, which drops the "will retry" mark and requests the photo; cells off screen ask
    /// when they are next configured. Returns whether anything shown changed.
    func retryInterruptedImages(now: Duration) -> Bool {
        let keys = store.retryInterrupted(now: now)
        guard !keys.isEmpty else { return false }
        let retried = Set(keys)
        let items = view.liveItems.filter { retried.contains(thumbnailKey(for: $0)) }
        if !items.isEmpty { source.reconfigureItems(items) }
        var detailRetried = false
        if let detail, retried.contains(detail.imageKey) {
            loadDetailImage(detail)
            detailRetried = true
        }
        return !items.isEmpty || detailRetried
    }

    func prefetchItems(at indexPaths: [ItemPath]) {
        guard state.imageMode == .async else { return }
        for path in indexPaths {
            guard let id = source.itemIdentifier(for: path) else { continue }
            let key = thumbnailKey(for: id)
            if case .placeholder = store.asset(for: key) { requestThumbnail(id, key: key, at: path) }
        }
    }

    /// A cell about to be shown that still shows a placeholder asks for its thumbnail again,
    /// at a visible cell's priority: a cell prepared ahead in idle time is not configured
    /// again when it appears, and its prefetch may have been cancelled since (it left the
    /// preload range), or dropped when it scrolled off (`didEndDisplaying`) and came back.
    /// A request still under way is only promoted (`downloadOnce` keeps one per key).
    func willDisplay(_ cell: CollectionViewCell, at indexPath: ItemPath) {
        guard state.imageMode == .async, let post = cell as? PostCell, post.isPlaceholder, post.failure == nil,
              let id = source.itemIdentifier(for: indexPath) else { return }
        let key = thumbnailKey(for: id)
        if case .placeholder = store.asset(for: key) {
            requestThumbnail(id, key: key, at: indexPath)
        } else {
            source.reconfigureItems([id])  // it arrived while the cell was hidden
        }
    }

    /// A cell scrolled off: its thumbnail request goes (UIKit's recipe), so that a fling's
    /// passed cells do not hold the queue with stale, high priorities; a person who turns
    /// back asks again, and a transfer nearly done finishes anyway (the loader's rule).
    func didEndDisplaying(_ cell: CollectionViewCell, at indexPath: ItemPath) {
        guard let id = source.itemIdentifier(for: indexPath) else { return }
        store.cancelDownload(of: thumbnailKey(for: id))
    }

    func cancelPrefetching(at indexPaths: [ItemPath]) {
        for path in indexPaths {
            guard let id = source.itemIdentifier(for: path) else { continue }
            store.cancelDownload(of: thumbnailKey(for: id))
        }
    }

    // MARK: Detail

    /// Opens `id` large (the state opened it, and checked it is shown): its placeholder at
    /// once, the photo prepared off the main thread at that size and swapped in when it
    /// arrives. The view follows ``GridState/detailID``; it never decides it.
    func openDetail(_ id: Int) {
        let post = catalogue.post(id - 1)
        let opened = DetailView(id: id, asset: post.original ?? post.asset, area: view.viewport)
        detail = opened
        loadDetailImage(opened)
    }

    private func loadDetailImage(_ shown: DetailView) {
        shown.download?.cancel()
        let key = shown.imageKey
        let asset = store.asset(for: key)
        shown.show(asset.image, placeholder: asset.isPlaceholder)
        shown.failure = if case .failed(_, let error) = asset { error.shortLabel } else { nil }
        guard case .placeholder = asset else { return }
        shown.download = store.download(key, priority: RequestPriority.detail) { [weak shown] result in
            guard let shown, shown.imageKey == key else { return }
            switch result {
            case .success(let image): shown.show(image, placeholder: false)
            case .failure(let error): shown.failure = error.shortLabel
            }
        }
    }

    func closeDetail() {
        detail?.download?.cancel()
        detail = nil
    }
}

/// The posts a data source shows, as ``GridState`` may read them: their order, nothing else.
struct ShownPosts: GridContents {
    let source: DiffableDataSource<Int, Int>
    let columns: Int
    let catalogue: Catalogue
    var count: Int { source.numberOfItems }
    func index(of id: Int) -> Int? { source.indexPath(for: id)?.item }
    func identifier(at index: Int) -> Int? {
        index >= 0 && index < count ? source.itemIdentifier(for: ItemPath(item: index, section: 0)) : nil
    }
    func isFavourited(_ id: Int) -> Bool { catalogue.isFavourited(ofPost: id - 1) }
}

extension GridScreen {
    /// Gives back what was freed since the grid last went quiet: the data source's big
    /// snapshots (D-056) and what the image workers freed since they last delivered (their
    /// arenas keep it otherwise). For a frame loop about to wait, never inside a frame.
    func returnFreedMemory() {
        source.returnFreedMemoryIfWanted()
        if store.takeMemoryToReturn() { MemoryReturn.toTheSystem() }
    }
}
