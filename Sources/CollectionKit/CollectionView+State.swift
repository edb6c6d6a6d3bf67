import DiffableData

/// The view's state, in parts that change together: the class holds one of each.
extension CollectionView {
    /// A cell with an item: on screen or prepared off it.
    struct LiveCell {
        let cell: CollectionViewCell
        var indexPath: ItemPath
        var isVisible: Bool
    }

    /// Every cell the view made: live ones by item, the rest pooled by registration.
    struct Cells {
        var live: [ItemID: LiveCell] = [:]
        var pools: [ObjectIdentifier: [CollectionViewCell]] = [:]
        /// The cell being configured again: the next dequeue for its registration returns it.
        var reconfiguring: CollectionViewCell?
    }

    /// Which way the ranges lead, and what data prefetch has asked for.
    struct Lookahead {
        /// Requested from the prefetch data source and not displayed since: cancellable.
        var prefetched: Set<ItemPath> = []
        /// Displayed while inside the preload range: loaded, so neither requested nor cancelled
        /// again until they leave the range.
        var shown: Set<ItemPath> = []
        /// Until the first scroll, preload reaches ``RangeTuning/initialPreloadLeading`` ahead and only the next row is prepared.
        var hasScrolled = false
        /// The direction of the last movement (down before any).
        var lastDirection = 1
    }

    /// What applies leave behind: moved cells gliding, inserted ones fading in, snapshots let go of.
    struct AppliedUpdates {
        var glides: [ItemID: Glide] = [:]
        /// While an animated apply fades items in: the snapshot before it (an item it lacks
        /// was inserted and is drawn dim). O(1) to keep, O(1) to ask, whatever was inserted.
        var insertedSince: Snapshot<SectionID, ItemID>?
        var dimmedUntil: Duration?
        /// Snapshots the view has let go of (replaced, or kept for a fade that ended), for the
        /// data source to free off the main thread (``DiffableDataSource/applyFinishedUpdates(at:)``
        /// takes them). The view does not know its data source: updates go one way.
        var letGo: [Snapshot<SectionID, ItemID>] = []
    }

    /// Whom the view tells about its cells, held weakly (their owners keep them alive).
    struct Observers {
        weak var delegate: (any CollectionViewDelegate)?
        weak var prefetchDataSource: (any CollectionViewPrefetching)?
    }

    /// What the view has done, behind its public counters: counts since the start, and the lifecycle log.
    struct Tally {
        var cellsPreparedInCommit = 0
        var cellsPreparedIdle = 0
        var prefetchBatches = 0
        var cancelBatches = 0
        var catchUpTimeInLastCommit: Duration = .zero
        var lifecycleLog: [LifecycleEvent]?
    }
}
