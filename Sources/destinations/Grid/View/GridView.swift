import CellCanvas
import CollectionKit
import CoreKit
import DestinationsModel
import DiffableData
import ImagePipeline
import RenderLoop

/// The grid as drawn: the collection view, the posts behind it and the image store, owned
/// here and nowhere else. It is driven through a few intents (``perform(_:at:)`` for what an
/// update asks, ``show(_:)`` for the model to draw, ``commit(at:into:)`` once a frame) and
/// answers questions; it never changes the app's state (the model does, in the loop).
/// Cells are configured from the catalogue, the model and the store; thumbnails are
/// requested by data prefetching and when a cell shows a placeholder, and arrive by
/// `reconfigureItems`. Main thread only.
final class GridView {
    /// The model as last shown: what cells, the selection and the detail view are drawn from.
    private(set) var model: GridModel
    let posts: GridPosts
    /// The image store: cells and the detail view ask it; the loop hands its deliveries
    /// and bytes to the terminal through `GridView+Images`.
    let store: AssetStore
    let clock: any FrameClock
    /// Extra work per configured cell (`--cell-cost`), spun on the clock.
    let cellCost: Duration
    /// The post shown large over the grid (``GridModel/detailID`` decides it; this draws it).
    var detail: DetailView?
    /// The colours cells and the detail view draw with.
    let theme: Theme
    /// What configuring a cell costs, measured (sets the per-frame delivery limit).
    var configureCost = CostPredictor()
    /// `--images sync`: full-size decodes waiting for a later commit.
    var syncDecodes = SyncDecodes()
    /// Last frame's scroll offset, time and direction, for easing the prefetch distance.
    var preloadEasing: (offset: Double, at: Duration, direction: Int)?

    /// The collection view: only this type touches it.
    let collection: CollectionView<Int, Int>

    /// The posts of `catalogue` (`postCount` of them) drawn with `theme`, thumbnails from `store`.
    init(model: GridModel, catalogue: Catalogue, postCount: Int, store: AssetStore, clock: any FrameClock, theme: Theme,
         cellCost: Duration = .zero, execution: BackgroundExecution = .serialQueue) {
        self.model = model
        self.store = store
        self.clock = clock
        self.theme = theme
        self.cellCost = cellCost
        // The registration is made once (its pool lives with it) and configures through the
        // view, which exists only once every property is set: hence the late reference.
        let configurer = LateReference<GridView>()
        let registration = CellRegistration<PostCell, Int> { cell, path, id in configurer.object?.configure(cell, at: path, id: id) }
        collection = CollectionView(layout: GridLayout(minimumItemWidth: 28, itemHeight: PostCell.height, spacing: 1), clock: clock) { view, path, id in
            view.dequeueConfiguredReusableCell(using: registration, for: path, item: id)
        }
        posts = GridPosts(catalogue: catalogue, postCount: postCount, collection: collection, execution: execution)
        configurer.object = self
        collection.prefetchDataSource = self
        collection.delegate = self
        if postCount > GridPosts.initialPosts { requery(animated: false) }
    }

    /// The model to draw from: the selection, likes and the image mode, at the next commit.
    func show(_ model: GridModel) { self.model = model }

    /// The posts shown, as the model reads them (``GridContents``).
    var contents: ShownPosts { ShownPosts(source: posts.source, columns: collection.layout.columns, catalogue: posts.catalogue) }

    var catalogue: Catalogue { posts.catalogue }

    /// Computes the posts the model's filter and order show, in the background.
    func requery(animated: Bool = true) { posts.requery(model.query, animated: animated) }

    // MARK: Intents

    /// Rows per second of a fling key (J/K): comes to rest 200 rows on.
    static let flingSpeed = 400.0

    /// Carries out what an update asked of the grid as drawn; the rest (the terminal, the
    /// feed, the scheduler, what lasts) is the loop's, which hands the view the others.
    func perform(_ effect: GridEffect, at time: Duration) {
        switch effect {
        case .requery: requery()
        case .requeryQuietly: requery(animated: false)
        case .selectionMoved(_, _, let index): reveal(ItemPath(item: index, section: 0), at: time)
        case .fling(let direction):
            // Flinging again while moving the same way adds speed, as a second swipe does on a phone.
            let current = collection.physics.velocity
            collection.fling(speed: current * direction > 0 ? current + direction * Self.flingSpeed : direction * Self.flingSpeed, at: time)
        case .scroll(let rows): collection.scroll(byRows: Double(rows), at: time)
        case .wheel(let rows): collection.wheel(rows: Double(rows), at: time)
        case .page(let pages): collection.scrollPage(pages, at: time)
        case .scrollToTop: collection.scrollToTop()
        case .scrollToBottom: collection.scrollToBottom()
        case .reconfigure(let ids): posts.source.reconfigureItems(ids)
        case .openDetail(let id): openDetail(id)
        case .closeDetail: closeDetail()
        case .showPicture(let index): showPicture(index)
        case .hidden(let id, let hidden):
            // The catalogue's text follows, so a filter finds a revealed post's words only now.
            if posts.setHidden(hidden, id: id), !model.filter.isEmpty { requery(animated: false) }
            posts.source.reconfigureItems([id])
            if detail?.id == id { showPicture(model.detailPicture) }
        case .sensitiveShown(let shown):
            let changed = posts.setShowsSensitive(shown)
            if !changed.isEmpty, !model.filter.isEmpty { requery(animated: false) }
            posts.source.reconfigureItems(changed)
            if let detail, changed.contains(detail.id) { showPicture(model.detailPicture) }
        case .relayout, .repaint, .liked, .idleWork, .refreshRate, .openPage: assertionFailure("\(effect) is the loop's")
        }
    }

    /// Scrolls the post at `path` into view (the selection moved to it).
    private func reveal(_ path: ItemPath, at time: Duration) {
        let frame = collection.layout.frame(for: path)
        let top = collection.physics.offset, height = Double(collection.viewport.height)
        if Double(frame.y) < top { collection.scroll(byRows: Double(frame.y) - top, at: time) }
        if Double(frame.maxY) > top + height { collection.scroll(byRows: Double(frame.maxY) - top - height, at: time) }
    }

    /// Where the grid draws; the detail view covers the same area.
    func setViewport(_ rect: Rect) {
        collection.setViewport(rect)
        if let detail, detail.resize(to: rect) { loadDetailImage(detail) }
    }

    // MARK: The frame

    /// What finished since the last frame (queries, reconfigured items, a sync decode) goes
    /// to the collection view: once a frame, before the model is told the posts shown
    /// changed and before the commit. Returns whether the posts shown may have changed.
    func takeFinishedUpdates(at time: Duration) -> Bool {
        syncDecodes.startCommit()
        if model.imageMode != .sync {
            syncDecodes.forgetAll()
        } else if let next = nearestAwaitingSyncDecode() {
            posts.source.reconfigureItems([next])
        }
        return posts.applyFinishedUpdates(at: time)
    }

    /// Draws the grid at `time` (the selection drawn as a cell state, nothing configured
    /// for it) and the detail view over it.
    func commit(at time: Duration, into canvas: inout Canvas) {
        collection.commit(at: time, into: &canvas, selection: model.selected)
        guard let detail else { return }
        let id = detail.id
        detail.draw(into: &canvas, post: posts.catalogue.post(id - 1), likes: likes(of: id), isLiked: isLiked(id), theme: theme)
    }

    func likes(of id: Int) -> Int { posts.catalogue.likes(ofPost: id - 1) + model.likesAdded(to: id) }

    /// Whether the person likes post `id` now (``GridModel/isLiked(_:favourited:)`` decides).
    func isLiked(_ id: Int) -> Bool { model.isLiked(id, favourited: posts.catalogue.isFavourited(ofPost: id - 1)) }
}

/// A reference set once its object exists (a closure made before it needs it).
final class LateReference<Object: AnyObject> {
    weak var object: Object?
}

/// `--images sync`: posts whose full-size decode waits for a later commit (at most
/// ``perCommit`` a commit, so the app keeps answering; issue 28).
struct SyncDecodes {
    /// The seeds' wrong way stays wrong (a photo decoded on the main thread at
    /// configuration: every new cell is a long commit), but a relayout or a page of new
    /// cells no longer decodes them all in one commit: keys are read between two decodes,
    /// so `q`, `?` or Ctrl-C act within one decode plus one frame.
    static let perCommit = 1
    var awaiting = Set<Int>()
    /// Full-size decodes in the current commit.
    private(set) var inCommit = 0

    mutating func startCommit() { inCommit = 0 }
    mutating func forgetAll() { awaiting.removeAll() }
    /// Whether one more decode fits in this commit (and counts it).
    mutating func takeOne() -> Bool {
        guard inCommit < Self.perCommit else { return false }
        inCommit += 1
        return true
    }
}
