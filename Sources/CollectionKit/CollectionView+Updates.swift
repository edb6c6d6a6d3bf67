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
    ///
    /// Only live cells are visited, never the whole changeset: a filter that takes a
    /// million items down to three (and back) costs what the screen shows. Animated moves
    /// and fades are for live cells; everything else jumps.
    /// - Complexity: O(live cells + reloaded and reconfigured items).
    func applyUpdate(_ new: Snapshot<SectionID, ItemID>, changes: Changeset<SectionID, ItemID>, animated: Bool, at time: Duration) {
        let old = snapshot
        applied.letGo.append(old)
        let oldFrames = animated ? cells.live.mapValues { layout.frame(for: $0.indexPath) } : [:]
        for (item, entry) in cells.live where !new.contains(item: item) {
            cells.live[item] = nil
            retire(entry, endDisplay: entry.isVisible)
        }
        let kept = anchor()
        snapshot = new.clearingUpdateMarks()
        relayout()
        if changes.hasStructuralChanges { restore(kept) }
        for update in changes.itemReloads {
            guard let entry = cells.live[update.item] else { continue }
            retire(entry, endDisplay: entry.isVisible)
            let cell = makeCell(at: update.to, item: update.item, idle: false)
            cells.live[update.item] = LiveCell(cell: cell, indexPath: update.to, isVisible: false)
        }
        for update in changes.itemReconfigures {
            guard let entry = cells.live[update.item] else { continue }
            cells.reconfiguring = entry.cell
            let cell = cellProvider(self, update.to, update.item)
            cells.reconfiguring = nil
            precondition(cell === entry.cell, "reconfigureItems: the cell provider must dequeue with the registration that made the cell for \(update.item)")
        }
        applied.glides = [:]
        applied.dimmedUntil = nil
        if let replaced = applied.insertedSince { applied.letGo.append(replaced) }
        applied.insertedSince = nil
        guard animated else { return }
        for (item, from) in oldFrames where cells.live[item] != nil {
            if let path = snapshot.indexPath(for: item), layout.frame(for: path) != from { applied.glides[item] = Glide(from: from, start: time) }
        }
        applied.insertedSince = old
        applied.dimmedUntil = time + Self.updateAnimationDuration
    }

    /// Re-runs the registration's handler on the live cells of `items` (those without a
    /// cell have nothing to update: they are configured when they next get one). No
    /// snapshot is copied or diffed, so the cost does not grow with the data.
    /// - Complexity: O(items).
    func reconfigure(_ items: [ItemID]) {
        for item in items {
            guard let entry = cells.live[item] else { continue }
            cells.reconfiguring = entry.cell
            let cell = cellProvider(self, entry.indexPath, item)
            cells.reconfiguring = nil
            precondition(cell === entry.cell, "reconfigureItems: the cell provider must dequeue with the registration that made the cell for \(item)")
        }
    }

    /// Where a live cell is drawn at `time`: its layout frame, or on its way there.
    func presentedFrame(of item: ItemID, at path: ItemPath, time: Duration) -> Rect {
        let target = layout.frame(for: path)
        guard let glide = applied.glides[item] else { return target }
        let progress = (time - glide.start) / Self.updateAnimationDuration
        if progress >= 1 {
            applied.glides[item] = nil
            return target
        }
        let eased = 1 - (1 - max(progress, 0)) * (1 - max(progress, 0))
        func mix(_ a: Int, _ b: Int) -> Int { a + Int((Double(b - a) * eased).rounded()) }
        return Rect(x: mix(glide.from.x, target.x), y: mix(glide.from.y, target.y), width: target.width, height: target.height)
    }

    /// True while an animated apply is still moving or fading cells.
    public var isAnimatingUpdate: Bool { !applied.glides.isEmpty || applied.dimmedUntil != nil }
}
