import CellCanvas
import DiffableData
import RenderLoop

/// A scrolling grid of cells in a terminal, with UIKit's cell lifecycle.
///
/// A cell is *in a pool*, *prepared* (configured, waiting) or *visible*. Each commit:
/// 1. advances scroll physics to the frame's time;
/// 2. asks the layout what the viewport shows; a visible item with a prepared cell is
///    shown at once (`willDisplay`), one without is prepared inside the commit (the cost
///    prefetching exists to avoid);
/// 3. items that scrolled off get `didEndDisplaying` and wait, prepared, while they stay in
///    the retained range behind the viewport; outside every range cells return to their
///    registration's pool;
/// 4. data prefetch: index paths entering the preload range are requested in one batch,
///    nearest first; those leaving it (a reversal) are cancelled in one batch;
/// 5. visible cells draw into the canvas.
/// As an `IdleWorkSource` it prepares the next cells in the scroll direction within the
/// prepared range, one per job, in the frame's idle time. Main thread only.
public final class CollectionView<SectionID: Hashable & Sendable, ItemID: Hashable & Sendable>: IdleWorkSource {
    /// Makes the cell for an item: call ``dequeueConfiguredReusableCell(using:for:item:)`` with a registration made once.
    public typealias CellProvider = (CollectionView, ItemPath, ItemID) -> CollectionViewCell

    /// Where items sit: a ``GridLayout``, a ``ListLayout`` or a layout of your own.
    public var layout: any CollectionLayout
    /// Where the content is scrolled to and how it moves (read it; scroll with the methods below).
    public private(set) var physics = ScrollPhysics()
    /// What the view shows (it lags the data source's truth until the next commit);
    /// read the data source, not this.
    var snapshot = Snapshot<SectionID, ItemID>()
    /// The prepared, retained and preload ranges, in screens.
    public var ranges = RangeTuning()
    /// Where on the canvas the view draws.
    public private(set) var viewport = Rect(x: 0, y: 0, width: 0, height: 0)

    let cellProvider: CellProvider
    let clock: any FrameClock
    var cells = Cells()
    var lookahead = Lookahead()
    var applied = AppliedUpdates()
    var observers = Observers()
    var tally = Tally()

    /// Told when cells come on screen and leave it (held weakly).
    public var delegate: (any CollectionViewDelegate)? {
        get { observers.delegate }
        set { observers.delegate = newValue }
    }
    /// Told which items to load ahead, and which to stop loading (held weakly).
    public var prefetchDataSource: (any CollectionViewPrefetching)? {
        get { observers.prefetchDataSource }
        set { observers.prefetchDataSource = newValue }
    }
    /// When set, every lifecycle call is appended (`--trace-lifecycle`).
    public var lifecycleLog: [LifecycleEvent]? {
        get { tally.lifecycleLog }
        set { tally.lifecycleLog = newValue }
    }
    /// Cells made inside a commit because idle time had not prepared them (what prefetching avoids), since the start.
    public var cellsPreparedInCommit: Int { tally.cellsPreparedInCommit }
    /// Cells prepared ahead in idle frame time, since the start.
    public var cellsPreparedIdle: Int { tally.cellsPreparedIdle }
    /// Calls of ``CollectionViewPrefetching/prefetchItems(at:)`` so far.
    public var prefetchBatches: Int { tally.prefetchBatches }
    /// Calls of ``CollectionViewPrefetching/cancelPrefetching(at:)`` so far.
    public var cancelBatches: Int { tally.cancelBatches }
    /// Time the last commit spent preparing cells that were not prefetched.
    public var catchUpTimeInLastCommit: Duration { tally.catchUpTimeInLastCommit }

    /// A view placing items with `layout`, timing its work on `clock` (the frame loop's), making cells with `cellProvider`.
    /// Feed it through a ``DiffableDataSource``, whose ``DiffableDataSource/applyFinishedUpdates(at:)``
    /// the owner calls once a frame, before ``commit(at:into:selection:)``.
    public init(layout: some CollectionLayout, clock: any FrameClock, cellProvider: @escaping CellProvider) {
        self.layout = layout
        self.clock = clock
        self.cellProvider = cellProvider
    }

    // MARK: Cells

    /// A cell from `registration`'s pool (after `prepareForReuse`) or a new one, configured
    /// for `item` by the registration's handler. Call it from the cell provider.
    public func dequeueConfiguredReusableCell<Cell, Item: Hashable>(using registration: CellRegistration<Cell, Item>,
                                                                     for indexPath: ItemPath, item: Item) -> Cell {
        let cell: Cell
        if let existing = cells.reconfiguring as? Cell, existing.registration == registration.id {
            // Reconfigure: the same cell, configured again; no dequeue, no prepareForReuse.
            existing.configuredItem = AnyHashable(item)
            registration.handler(existing, indexPath, item)
            return existing
        }
        if let reused = cells.pools[registration.id]?.popLast() as? Cell {
            log(.prepareForReuse)
            reused.prepareForReuse()
            cell = reused
        } else {
            cell = Cell()
        }
        cell.registration = registration.id
        cell.configuredItem = AnyHashable(item)
        registration.handler(cell, indexPath, item)
        return cell
    }

    /// Live cells (prepared and visible): bounded by the viewport and the ranges.
    public var liveCellCount: Int { cells.live.count }

    /// Calls `body` with every live cell (on screen, prepared ahead, kept behind).
    public func forEachLiveCell(_ body: (CollectionViewCell) -> Void) {
        for entry in cells.live.values { body(entry.cell) }
    }
    /// The items that have a live cell (on screen, prepared ahead, kept behind), in no
    /// particular order: what to reconfigure when something every cell shows has changed.
    public var liveItems: [ItemID] { Array(cells.live.keys) }
    /// Cells on screen.
    public var visibleCellCount: Int {
        @_specialize(exported: true, where SectionID == Int, ItemID == Int)
        get { cells.live.values.count { $0.isVisible } }
    }
    /// The cells on screen, in no particular order (for per-frame statistics).
    public var visibleCells: [CollectionViewCell] {
        @_specialize(exported: true, where SectionID == Int, ItemID == Int)
        get { cells.live.values.compactMap { $0.isVisible ? $0.cell : nil } }
    }
    /// Cells configured and waiting off screen (ahead, or kept behind).
    public var preparedCellCount: Int { cells.live.values.count { !$0.isVisible } }
    /// Cells waiting in their registrations' pools for reuse.
    public var pooledCellCount: Int { cells.pools.values.reduce(0) { $0 + $1.count } }

    /// The cell showing or waiting for `item`, if any.
    public func cell(for item: ItemID) -> CollectionViewCell? { cells.live[item]?.cell }

    // MARK: Data and geometry

    /// Replaces the data without diffing (the initial load). Live cells are dropped.
    public func reloadData(_ snapshot: Snapshot<SectionID, ItemID>) {
        for (_, entry) in cells.live { retire(entry, endDisplay: entry.isVisible) }
        cells.live = [:]
        lookahead.prefetched = []
        lookahead.shown = []
        self.snapshot = snapshot
        relayout()
    }

    /// Sets where the view draws (initially and on every resize). The first visible item
    /// stays where it was on screen, however the columns reflow.
    public func setViewport(_ rect: Rect) {
        let kept = anchor()
        viewport = rect
        relayout(reconfiguringResized: true)
        restore(kept)
    }

    /// The visible items with their distance from the viewport's top, topmost first.
    func anchor() -> [(item: ItemID, delta: Double)] {
        guard viewport.height > 0 else { return [] }
        let top = Int(physics.offset.rounded(.down))
        return layout.indexPaths(inRows: top, top + viewport.height).compactMap { path in
            snapshot.itemIdentifier(at: path).map { ($0, Double(layout.frame(for: path).y) - physics.offset) }
        }
    }

    /// Scrolls so that the first anchored item still present is at the same screen row.
    func restore(_ anchors: [(item: ItemID, delta: Double)]) {
        guard physics.offset > 0 || anchors.first?.delta ?? 0 < 0 else { return }
        for anchor in anchors {
            guard let path = snapshot.indexPath(for: anchor.item) else { continue }
            physics.jump(to: Double(layout.frame(for: path).y) - anchor.delta)
            return
        }
    }

    /// Lays the items out again (a new width, or new data). After a new viewport, live cells
    /// whose size changed are configured again, since what they show may depend on it (a
    /// thumbnail is made for its cell's size: kept, it would be cut, and a pixel image cut is
    /// not drawn). An apply does not: an item that moves to a column one cell wider or
    /// narrower is only drawn at its new frame (a reconfigure per moved cell made a
    /// million-post filter's commits 1 ms longer at p99).
    @_specialize(where SectionID == Int, ItemID == Int)
    func relayout(reconfiguringResized: Bool = false) {
        let sizes = reconfiguringResized ? cells.live.mapValues { layout.frame(for: $0.indexPath) } : [:]
        layout.prepare(width: viewport.width, sectionCounts: snapshot.sectionIdentifiers.map { snapshot.numberOfItems(inSection: $0) })
        physics.setSizes(content: layout.contentHeight, viewport: viewport.height)
        var resized: [ItemID] = []
        for (item, entry) in cells.live {
            guard let path = snapshot.indexPath(for: item) else {
                retire(entry, endDisplay: entry.isVisible)
                cells.live[item] = nil
                continue
            }
            cells.live[item]?.indexPath = path
            let now = layout.frame(for: path)
            if let before = sizes[item], before.width != now.width || before.height != now.height { resized.append(item) }
        }
        if !resized.isEmpty { reconfigure(resized) }
    }

    // MARK: Scrolling

    /// Scrolls by `rows` (negative: up), animated over a few frames from `time`.
    public func scroll(byRows rows: Double, at time: Duration) { lookahead.hasScrolled = true; physics.step(by: rows, at: time) }
    /// Scrolls by `pages` screens (less one row, so a row stays in view), animated.
    public func scrollPage(_ pages: Int, at time: Duration) { scroll(byRows: Double(pages * max(1, viewport.height - 1)), at: time) }
    /// Flings at `speed` rows a second (negative: up), slowing as UIScrollView does (0.998 a millisecond).
    public func fling(speed: Double, at time: Duration) { lookahead.hasScrolled = true; physics.fling(speed: speed, at: time) }
    /// A mouse-wheel notch: adds `rows` a second of velocity.
    public func wheel(rows: Double, at time: Duration) { lookahead.hasScrolled = true; physics.wheel(rows: rows, at: time) }
    /// Jumps to the first row.
    public func scrollToTop() { lookahead.hasScrolled = true; physics.jump(to: 0) }
    /// Jumps to the last screen.
    public func scrollToBottom() { lookahead.hasScrolled = true; physics.jump(to: physics.maximumOffset) }

    /// The direction of the last movement (down before any): orients the ranges.
    var scrollDirection: Int { lookahead.lastDirection }

    /// Remembers which way the view is moving; a view at rest keeps its last direction.
    func noteDirection() {
        if physics.direction != 0 { lookahead.lastDirection = physics.direction }
    }

    // MARK: The commit

    /// Steps 1–5 of the class comment, for the frame presented at `time`; `selection`'s cell
    /// is drawn selected (``CellState``). What was applied to the data source since the last
    /// frame is shown once the owner has called ``DiffableDataSource/applyFinishedUpdates(at:)``:
    /// once a frame, before this.
    /// - Complexity: O(visible + prepared + changes in the preload range).
    ///
    /// Specialized here for integer identifiers (what the app uses): called from another
    /// module, the generic commit looked up dictionary and snapshot metadata at run time
    /// on every frame (about 10 % of a fling's main thread; commit p50 0.89 → 0.79 ms).
    @_specialize(exported: true, where SectionID == Int, ItemID == Int)
    public func commit(at time: Duration, into canvas: inout Canvas, selection: ItemID? = nil) {
        tally.catchUpTimeInLastCommit = .zero
        noteDirection()
        physics.advance(to: time)
        let top = Int(physics.offset.rounded(.down))
        let visiblePaths = layout.indexPaths(inRows: top, top + viewport.height)
        var nowVisible = Set<ItemID>()
        for path in visiblePaths {
            guard let item = snapshot.itemIdentifier(at: path) else { continue }
            nowVisible.insert(item)
            if cells.live[item] == nil {
                let start = clock.now
                let cell = makeCell(at: path, item: item, idle: false)
                cells.live[item] = LiveCell(cell: cell, indexPath: path, isVisible: false)
                tally.cellsPreparedInCommit += 1
                tally.catchUpTimeInLastCommit += clock.now - start
            }
            if cells.live[item]?.isVisible == false {
                cells.live[item]?.isVisible = true
                log(.willDisplay(path))
                observers.delegate?.willDisplay(cells.live[item]!.cell, at: path)
            }
        }
        let keep = rowRange(leading: ranges.preparedLeading, trailing: ranges.retainedTrailing, top: top,
                            minimumLeadingRows: layout.rowPitch)
        for (item, entry) in cells.live where !nowVisible.contains(item) {
            if entry.isVisible {
                cells.live[item]?.isVisible = false
                log(.didEndDisplaying(entry.indexPath))
                observers.delegate?.didEndDisplaying(entry.cell, at: entry.indexPath)
            }
            let frame = layout.frame(for: entry.indexPath)
            if frame.maxY <= keep.lowerBound || frame.y >= keep.upperBound {
                retire(entry, endDisplay: false)
                cells.live[item] = nil
            }
        }
        updatePrefetching(top: top, visiblePaths: visiblePaths)
        draw(into: &canvas, top: top, visible: visiblePaths, time: time, selection: selection)
    }

    private func draw(into canvas: inout Canvas, top: Int, visible: [ItemPath], time: Duration, selection: ItemID?) {
        canvas.fill(viewport)
        if let until = applied.dimmedUntil, time >= until {
            applied.dimmedUntil = nil
            // Glides start with the fade and last as long. Cleared here, not only when their
            // cell is drawn: a live cell kept off screen (prepared ahead, retained behind)
            // would otherwise keep its glide, and the view would never stop animating.
            applied.glides = [:]
            if let old = applied.insertedSince { applied.letGo.append(old) }
            applied.insertedSince = nil
        }
        for path in visible {
            guard let item = snapshot.itemIdentifier(at: path), let entry = cells.live[item] else { continue }
            let frame = presentedFrame(of: item, at: path, time: time).offsetBy(dx: viewport.x, dy: viewport.y - top)
            entry.cell.draw(in: &canvas, frame: frame, clip: viewport, state: CellState(isSelected: item == selection))
            if item == selection {
                let shown = frame.intersection(viewport)
                if !shown.isEmpty { canvas.focus = Point(x: shown.x + shown.width / 2, y: shown.y + shown.height / 2) }
            }
            if let old = applied.insertedSince, !old.contains(item: item) { dim(frame.intersection(viewport), in: &canvas) }
        }
    }

    /// The terminal's fade-in: an inserted cell is drawn dim until the animation ends.
    private func dim(_ rect: Rect, in canvas: inout Canvas) {
        guard !rect.isEmpty else { return }
        for y in rect.y..<rect.maxY {
            for x in rect.x..<rect.maxX { canvas[x, y].style.dim = true }
        }
    }

    /// Content rows covered by `leading` screens ahead and `trailing` behind the viewport
    /// (at least `minimumLeadingRows` ahead: the next row idle work prepares must be kept).
    func rowRange(leading: Double, trailing: Double, top: Int, minimumLeadingRows: Int = 0) -> Range<Int> {
        let screen = Double(viewport.height)
        let ahead = max(Int((leading * screen).rounded(.up)), minimumLeadingRows), behind = Int((trailing * screen).rounded(.up))
        let (before, after) = scrollDirection >= 0 ? (behind, ahead) : (ahead, behind)
        return (top - before)..<(top + viewport.height + after)
    }

    // MARK: Helpers

    func makeCell(at path: ItemPath, item: ItemID, idle: Bool) -> CollectionViewCell {
        log(.cellForItem(path, prefetched: idle))
        return cellProvider(self, path, item)
    }

    func retire(_ entry: LiveCell, endDisplay: Bool) {
        if endDisplay {
            log(.didEndDisplaying(entry.indexPath))
            observers.delegate?.didEndDisplaying(entry.cell, at: entry.indexPath)
        }
        entry.cell.configuredItem = nil
        if let registration = entry.cell.registration { cells.pools[registration, default: []].append(entry.cell) }
    }

    func log(_ event: LifecycleEvent) { tally.lifecycleLog?.append(event) }
}
