import CollectionKit
import ImagePipeline
import RenderLoop

/// What the loop, the chrome and the report may ask of the grid as drawn: where it is,
/// whether it still has work, and its counters; and the few chores the loop hands it
/// (tracing, starting queued transfers, waiting for a quick query).
extension GridView {
    /// The grid's counters and the image store's, for the HUD and the report.
    struct Figures {
        var cellsPreparedInCommit: Int, cellsPreparedIdle: Int, liveCells: Int, prefetchBatches: Int, cancelBatches: Int
        var cache: PreparedImageCache.Counters, cacheLimit: Int
        var pendingDownloads: Int, loads: AssetLoadCounters, photoRetries: Int
        var thumbnailCache: ThumbnailCache.Counters?
    }

    var figures: Figures {
        Figures(cellsPreparedInCommit: collection.cellsPreparedInCommit, cellsPreparedIdle: collection.cellsPreparedIdle,
                liveCells: collection.liveCellCount, prefetchBatches: collection.prefetchBatches, cancelBatches: collection.cancelBatches,
                cache: store.cacheCounters, cacheLimit: store.cacheLimit, pendingDownloads: store.pendingCount, loads: store.counters,
                photoRetries: store.retries, thumbnailCache: store.thumbnails?.counters)
    }

    /// `--trace-lifecycle`: every lifecycle call of the collection view is kept from now on.
    func traceLifecycle() { collection.lifecycleLog = [] }
    /// The lifecycle calls kept (``traceLifecycle()``).
    var lifecycleLog: [LifecycleEvent] { collection.lifecycleLog ?? [] }

    /// The transfers the frame's cells asked for start, best first: after the frame went to
    /// the terminal, so that the threads they wake cannot take the loop's core mid-commit (D-055);
    /// while the terminal is `busy` with what it was sent, the decoders leave it a core (D-083).
    func startQueuedImageWork(terminalBusy busy: Bool) { store.startQueuedWork(terminalBusy: busy) }

    /// A filter key this frame: a small query finishes in well under a millisecond, so the
    /// frame may wait for it (at most `timeout`) and show its result at once.
    func waitForQuery(timeout: Duration) { posts.source.waitForBackgroundWork(timeout: timeout) }

    /// The cell-preparing work idle frame time takes (the scheduler's idle work).
    var idleWork: any IdleWorkSource { collection }
    var hasIdleWork: Bool { collection.hasIdleWork }
    /// Time the last commit spent preparing cells that were not prefetched.
    var catchUpTimeInLastCommit: Duration { collection.catchUpTimeInLastCommit }

    var isMoving: Bool { collection.physics.isMoving }
    var isAtTop: Bool { collection.physics.offset <= 0 }
    var isAtBottom: Bool { collection.physics.offset >= collection.physics.maximumOffset }
    /// The first row shown (the terminal scrolls by the change of it).
    var topRow: Int { Int(collection.physics.offset) }
    var viewportRows: Range<Int> { collection.viewport.y..<collection.viewport.maxY }
    var screenRows: Int { collection.viewport.height }
    /// Content rows below the viewport (a feed asks for its next page when few remain).
    var rowsBelow: Int { collection.layout.contentHeight - Int(collection.physics.offset) - collection.viewport.height }

    /// Whether the next frame would change something with no input: motion, an animation,
    /// thumbnails to deliver, a query or replaced snapshots to let go of.
    var hasWorkForNextFrame: Bool {
        isMoving || collection.isAnimatingUpdate || store.hasWorkForMainThread || posts.isQuerying
            || posts.source.holdsReplacedSnapshots
    }
    /// When the store next has something due (a retry's backoff, a scripted delivery).
    var nextDueTime: Duration? { store.nextDueTime }
    var isAnimatingUpdate: Bool { collection.isAnimatingUpdate }

    /// The visible cells and those still showing a placeholder; with `notingShown`, `shown`
    /// gets the asset of every visible thumbnail (and of the detail view's photo) that is whole.
    func visibleCells(notingShown: Bool = false, _ shown: (String) -> Void = { _ in }) -> (visible: Int, placeholders: Int) {
        var visible = 0, placeholders = 0
        for cell in collection.visibleCells {
            visible += 1
            guard let post = cell as? PostCell else { continue }
            if post.isPlaceholder { placeholders += 1 } else if notingShown { shown(post.assetPath) }
        }
        if notingShown, let detail, !detail.isPlaceholder { shown(detail.imageKey.asset.path) }
        return (visible, placeholders)
    }

    /// Every visible thumbnail is whole, nothing is on its way or moving: the first screen
    /// is complete (`--scenario idle` measures from here).
    var isComplete: Bool {
        let cells = visibleCells()
        return cells.visible > 0 && cells.placeholders == 0 && store.pendingCount == 0 && !isMoving && !posts.isQuerying
    }
}
