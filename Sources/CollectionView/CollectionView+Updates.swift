import CellCanvas
import DiffableData

/// A moved cell gliding from its old frame to its new one.
struct Glide {
    let from: Rect
    let start: Duration
}

extension CollectionView {
    /// How long moves glide and inserted cells stay dimmed when an apply animates.
    public static var updateAnimationDuration: Duration { .milliseconds(200) }

    /// Applies a changeset to live cells (at a frame boundary, from the data source):
    /// deleted items end display and return to the pool; moved items keep their cell (and
    /// glide when animating); reconfigured items re-run their registration's handler on
    /// the existing cell; reloaded items get a freshly dequeued cell; inserted items get
    /// cells when they become visible, like any other.
    func applyUpdate(_ new: Snapshot<SectionID, ItemID>, changes: Changeset<SectionID, ItemID>, animated: Bool, at time: Duration) {
        let oldFrames = animated ? live.mapValues { layout.frame(for: $0.indexPath) } : [:]
        let deleted = Set(changes.itemDeletes.map(\.item))
        for item in deleted {
            guard let entry = live.removeValue(forKey: item) else { continue }
            retire(entry, endDisplay: entry.isVisible)
        }
        let kept = anchor()
        snapshot = new.clearingUpdateMarks()
        relayout()
        if changes.hasStructuralChanges { restore(kept) }
        for update in changes.itemReloads {
            guard let entry = live[update.item] else { continue }
            retire(entry, endDisplay: entry.isVisible)
            live[update.item] = LiveCell(cell: makeCell(at: update.to, item: update.item, idle: false), indexPath: update.to, isVisible: false)
        }
        for update in changes.itemReconfigures {
            guard let entry = live[update.item] else { continue }
            reconfiguring = entry.cell
            let cell = cellProvider(self, update.to, update.item)
            reconfiguring = nil
            precondition(cell === entry.cell, "reconfigureItems: the cell provider must dequeue with the registration that made the cell for \(update.item)")
        }
        glides = [:]
        dimmedUntil = nil
        guard animated else { return }
        for move in changes.itemMoves {
            if let from = oldFrames[move.item] { glides[move.item] = Glide(from: from, start: time) }
        }
        for (item, from) in oldFrames where glides[item] == nil && live[item] != nil {
            if let path = snapshot.indexPath(for: item), layout.frame(for: path) != from { glides[item] = Glide(from: from, start: time) }
        }
        insertedItems = Set(changes.itemInserts.map(\.item))
        dimmedUntil = time + Self.updateAnimationDuration
    }

    /// Re-runs the registration's handler on the live cells of `items` (those without a
    /// cell have nothing to update: they are configured when they next get one). No
    /// snapshot is copied or diffed, so the cost does not grow with the data.
    /// - Complexity: O(items).
    func reconfigure(_ items: [ItemID]) {
        for item in items {
            guard let entry = live[item] else { continue }
            reconfiguring = entry.cell
            let cell = cellProvider(self, entry.indexPath, item)
            reconfiguring = nil
            precondition(cell === entry.cell, "reconfigureItems: the cell provider must dequeue with the registration that made the cell for \(item)")
        }
    }

    /// Where a live cell is drawn at `time`: its layout frame, or on its way there.
    func presentedFrame(of item: ItemID, at path: IndexPath, time: Duration) -> Rect {
        let target = layout.frame(for: path)
        guard let glide = glides[item] else { return target }
        let progress = (time - glide.start) / Self.updateAnimationDuration
        if progress >= 1 {
            glides[item] = nil
            return target
        }
        let eased = 1 - (1 - max(progress, 0)) * (1 - max(progress, 0))
        func mix(_ a: Int, _ b: Int) -> Int { a + Int((Double(b - a) * eased).rounded()) }
        return Rect(x: mix(glide.from.x, target.x), y: mix(glide.from.y, target.y), width: target.width, height: target.height)
    }

    /// True while an animated apply is still moving or fading cells.
    public var isAnimatingUpdate: Bool { !glides.isEmpty || dimmedUntil != nil }
}

/// The one truth of what the view shows: snapshots in, changesets out (seed 002).
///
/// `apply` diffs the new snapshot against the current one and hands the changeset to the
/// collection view, which updates its cells at the next frame boundary. Applying from a
/// background thread is supported through ``applyInBackground(_:animatingDifferences:)``;
/// mixing it with main-thread applies is refused with a message, as UIKit complains.
public final class DiffableDataSource<SectionID: Hashable & Sendable, ItemID: Hashable & Sendable> {
    public unowned let collectionView: CollectionView<SectionID, ItemID>
    private var pending: [PendingUpdate] = []
    private var current: Snapshot<SectionID, ItemID>
    private var mode: Mode?
    private let inbox = BackgroundApplies<SectionID, ItemID>()

    enum Mode { case main, background }

    /// What the next commit applies, in the order it was asked for.
    private enum PendingUpdate {
        case apply(snapshot: Snapshot<SectionID, ItemID>, changes: Changeset<SectionID, ItemID>, animated: Bool)
        case reconfigure([ItemID])
    }

    public init(collectionView: CollectionView<SectionID, ItemID>) {
        self.collectionView = collectionView
        current = collectionView.snapshot
        collectionView.dataSource = self
    }

    /// A copy of the current truth, without update marks: change it and apply it.
    /// - Complexity: O(1).
    public func snapshot() -> Snapshot<SectionID, ItemID> { current.clearingUpdateMarks() }

    /// Diffs `snapshot` against the current one now; the cells change at the next commit.
    /// - Complexity: that of `Snapshot.changeset(to:)`.
    public func apply(_ snapshot: Snapshot<SectionID, ItemID>, animatingDifferences: Bool = true) {
        claim(.main, "apply(_:animatingDifferences:)")
        pending.append(.apply(snapshot: snapshot, changes: current.changeset(to: snapshot), animated: animatingDifferences))
        current = snapshot.clearingUpdateMarks()
    }

    /// `snapshot.reconfigureItems(items)` then `apply`, without copying or diffing the
    /// snapshot: what an image that arrives, or a like, needs, in O(items) however large
    /// the data. Items not in the current snapshot are ignored. Ordered with the applies
    /// around it (the cells change at the next commit).
    public func reconfigureItems(_ items: [ItemID]) {
        claim(.main, "reconfigureItems(_:)")
        let present = items.filter { current.contains(item: $0) }
        guard !present.isEmpty else { return }
        pending.append(.reconfigure(present))
    }

    /// Whether the current snapshot holds `item`.
    /// - Complexity: O(1).
    public func contains(_ item: ItemID) -> Bool { current.contains(item: item) }

    /// Computes the diff on a background thread and commits it, in order, at a later frame
    /// boundary on the main thread. For data so large that the diff would cost a frame.
    public func applyInBackground(_ snapshot: Snapshot<SectionID, ItemID>, animatingDifferences: Bool = true) {
        claim(.background, "applyInBackground(_:animatingDifferences:)")
        inbox.enqueue(snapshot, animated: animatingDifferences)
    }

    /// True while background diffs are still being computed.
    public var hasBackgroundWork: Bool { inbox.isBusy }

    private func claim(_ wanted: Mode, _ operation: String) {
        if let mode, mode != wanted {
            preconditionFailure("DiffableDataSource.\(operation): this data source has been applied from the \(mode == .main ? "main thread" : "background"); always apply the same way (seed 002), or the order of updates is lost")
        }
        mode = wanted
    }

    /// Called by the collection view at the start of each commit.
    func flush(at time: Duration) {
        for update in inbox.takeFinished() { pending.append(.apply(snapshot: update.snapshot, changes: update.changes, animated: update.animated)) }
        for update in pending {
            switch update {
            case .apply(let snapshot, let changes, let animated):
                current = snapshot.clearingUpdateMarks()
                collectionView.applyUpdate(snapshot, changes: changes, animated: animated, at: time)
            case .reconfigure(let items):
                collectionView.reconfigure(items)
            }
        }
        pending.removeAll()
    }
}
