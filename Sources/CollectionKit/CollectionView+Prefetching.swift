import CellCanvas
import DiffableData
import RenderLoop

/// Working ahead of the scroll: data prefetch (step 4 of the commit) and the cells idle
/// time prepares in the scroll direction.
extension CollectionView {
    // MARK: Data prefetch

    /// Asks for the index paths entering the preload range in one batch, nearest first, and
    /// cancels those that left it (a reversal) before they were shown, in one batch.
    func updatePrefetching(top: Int, visiblePaths: [ItemPath]) {
        guard let prefetchDataSource = observers.prefetchDataSource else { return }
        let range = lookahead.hasScrolled
            ? rowRange(leading: ranges.preloadLeading, trailing: ranges.preloadTrailing, top: top)
            : rowRange(leading: ranges.initialPreloadLeading, trailing: 0, top: top)
        let visible = Set(visiblePaths)
        let wanted = layout.indexPaths(inRows: range.lowerBound, range.upperBound).filter { !visible.contains($0) }
        let wantedSet = Set(wanted)
        lookahead.shown.formUnion(visible)
        lookahead.shown = lookahead.shown.filter { wantedSet.contains($0) || visible.contains($0) }
        lookahead.prefetched.subtract(visible)
        let leaving = lookahead.prefetched.filter { !wantedSet.contains($0) }
        if !leaving.isEmpty {
            let ordered = leaving.sorted(by: scrollDirection >= 0 ? (>) : (<))
            tally.cancelBatches += 1
            log(.cancelPrefetching(ordered))
            prefetchDataSource.cancelPrefetching(at: ordered)
        }
        lookahead.prefetched.subtract(leaving)
        let center = Double(top) + Double(viewport.height) / 2
        let fresh = wanted.filter { !lookahead.prefetched.contains($0) && !lookahead.shown.contains($0) }.sorted { a, b in
            let da = abs(Double(layout.frame(for: a).y) - center), db = abs(Double(layout.frame(for: b).y) - center)
            return da != db ? da < db : (scrollDirection >= 0 ? a < b : a > b)
        }
        guard !fresh.isEmpty else { return }
        lookahead.prefetched.formUnion(fresh)
        tally.prefetchBatches += 1
        log(.prefetch(fresh))
        prefetchDataSource.prefetchItems(at: fresh)
    }

    // MARK: Idle work

    /// The next unprepared item in the scroll direction inside the prepared range.
    @_specialize(exported: true, where SectionID == Int, ItemID == Int)  // as commit
    public func nextIdleJob(for frame: FrameInfo) -> IdleJob? {
        guard let (path, item) = nextUnpreparedItem() else { return nil }
        return IdleJob(kind: "cell") { [self] in
            let cell = makeCell(at: path, item: item, idle: true)
            cells.live[item] = LiveCell(cell: cell, indexPath: path, isVisible: false)
            tally.cellsPreparedIdle += 1
        }
    }

    /// Whether idle time would be used (a cell in the prepared range is not prepared yet):
    /// a loop that wants to sleep while nothing moves asks this first.
    public var hasIdleWork: Bool {
        @_specialize(exported: true, where SectionID == Int, ItemID == Int)
        get { nextUnpreparedItem() != nil }
    }

    @_specialize(where SectionID == Int, ItemID == Int)  // called from nextIdleJob's specialisation, which did not specialise it
    private func nextUnpreparedItem() -> (ItemPath, ItemID)? {
        let top = Int(physics.offset.rounded(.down))
        let leading = lookahead.hasScrolled ? ranges.preparedLeading : 0
        let range = rowRange(leading: leading, trailing: 0, top: top)
        let extra = layout.rowPitch  // at least the next row
        let rows = scrollDirection >= 0 ? (top + viewport.height)..<max(range.upperBound, top + viewport.height + extra)
                                        : min(range.lowerBound, top - extra)..<top
        var candidates = layout.indexPaths(inRows: rows.lowerBound, rows.upperBound)
        if scrollDirection < 0 { candidates.reverse() }
        for path in candidates {
            if let item = snapshot.itemIdentifier(at: path), cells.live[item] == nil { return (path, item) }
        }
        return nil
    }
}
