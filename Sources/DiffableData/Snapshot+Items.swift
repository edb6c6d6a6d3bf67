// Item mutations. Each public mutation traps on misuse with the message of the
// `SnapshotError` its `try` twin throws.
extension Snapshot {
    /// Appends `identifiers` to `section`, or to the last section when none is named.
    /// - Complexity: O(k) for k identifiers.
    @_specialize(exported: true, where SectionID == Int, ItemID == Int)
    public mutating func appendItems(_ identifiers: [ItemID], toSection section: SectionID? = nil) {
        do { try tryAppendItems(identifiers, toSection: section) } catch { preconditionFailure(error.description) }
    }

    /// ``appendItems(_:toSection:)`` that throws instead of trapping; on error the snapshot is unchanged.
    /// - Complexity: O(k).
    @_specialize(exported: true, where SectionID == Int, ItemID == Int)
    public mutating func tryAppendItems(_ identifiers: [ItemID], toSection section: SectionID? = nil) throws(SnapshotError) {
        let operation = "appendItems(_:toSection:)"
        let target: Int
        if let section {
            guard let index = sectionIndexByID[section] else {
                throw .sectionNotFound(section: SnapshotError.name(section), operation: operation)
            }
            target = index
        } else {
            guard !sectionIDs.isEmpty else { throw .noSection(operation: operation) }
            target = sectionIDs.count - 1
        }
        try insert(identifiers, section: target, at: items[target].count, operation)
    }

    /// - Complexity: O(k + items after the anchor in its section + sections).
    public mutating func insertItems(_ identifiers: [ItemID], beforeItem anchor: ItemID) {
        do { try tryInsertItems(identifiers, beforeItem: anchor) } catch { preconditionFailure(error.description) }
    }

    /// - Complexity: O(k + items after the anchor in its section + sections).
    public mutating func tryInsertItems(_ identifiers: [ItemID], beforeItem anchor: ItemID) throws(SnapshotError) {
        let path = try requireItem(anchor, "insertItems(_:beforeItem:)")
        try insert(identifiers, section: path.section, at: path.item, "insertItems(_:beforeItem:)")
    }

    /// - Complexity: O(k + items after the anchor in its section + sections).
    public mutating func insertItems(_ identifiers: [ItemID], afterItem anchor: ItemID) {
        do { try tryInsertItems(identifiers, afterItem: anchor) } catch { preconditionFailure(error.description) }
    }

    /// - Complexity: O(k + items after the anchor in its section + sections).
    public mutating func tryInsertItems(_ identifiers: [ItemID], afterItem anchor: ItemID) throws(SnapshotError) {
        let path = try requireItem(anchor, "insertItems(_:afterItem:)")
        try insert(identifiers, section: path.section, at: path.item + 1, "insertItems(_:afterItem:)")
    }

    /// Deletes items (an identifier named twice is deleted once).
    /// - Complexity: O(k + items of the sections touched + sections).
    public mutating func deleteItems(_ identifiers: [ItemID]) {
        do { try tryDeleteItems(identifiers) } catch { preconditionFailure(error.description) }
    }

    /// - Complexity: O(k + items of the sections touched + sections).
    public mutating func tryDeleteItems(_ identifiers: [ItemID]) throws(SnapshotError) {
        var doomed = Set<ItemID>(minimumCapacity: identifiers.count)
        var touched = Set<Int>()
        for identifier in identifiers {
            let path = try requireItem(identifier, "deleteItems(_:)")
            doomed.insert(identifier)
            touched.insert(path.section)
        }
        guard let first = touched.min() else { return }
        for section in touched {
            let firstIndex = items[section].firstIndex(where: doomed.contains) ?? 0
            items[section].removeAll(where: doomed.contains)
            reindexItems(inSection: section, from: firstIndex)
        }
        for identifier in doomed { pathByItem[identifier] = nil }
        reloadedItems.remove(where: doomed.contains)
        reconfiguredItems.remove(where: doomed.contains)
        recomputeStarts(from: first + 1)
    }

    /// Removes every item and every section, as UIKit's `deleteAllItems()` does.
    /// - Complexity: O(1) (storage is released, not walked).
    public mutating func deleteAllItems() {
        self = Snapshot()
    }

    /// Moves `item` just before `anchor`, across sections if need be.
    /// - Complexity: O(items of the two sections touched + sections).
    public mutating func moveItem(_ item: ItemID, beforeItem anchor: ItemID) {
        do { try tryMoveItem(item, beforeItem: anchor) } catch { preconditionFailure(error.description) }
    }

    /// - Complexity: O(items of the two sections touched + sections).
    public mutating func tryMoveItem(_ item: ItemID, beforeItem anchor: ItemID) throws(SnapshotError) {
        try move(item, relativeTo: anchor, offset: 0, "moveItem(_:beforeItem:)")
    }

    /// - Complexity: O(items of the two sections touched + sections).
    public mutating func moveItem(_ item: ItemID, afterItem anchor: ItemID) {
        do { try tryMoveItem(item, afterItem: anchor) } catch { preconditionFailure(error.description) }
    }

    /// - Complexity: O(items of the two sections touched + sections).
    public mutating func tryMoveItem(_ item: ItemID, afterItem anchor: ItemID) throws(SnapshotError) {
        try move(item, relativeTo: anchor, offset: 1, "moveItem(_:afterItem:)")
    }

    /// Marks items whose cells must be replaced by freshly dequeued ones on apply.
    /// - Complexity: O(k).
    public mutating func reloadItems(_ identifiers: [ItemID]) {
        do { try tryReloadItems(identifiers) } catch { preconditionFailure(error.description) }
    }

    /// - Complexity: O(k).
    public mutating func tryReloadItems(_ identifiers: [ItemID]) throws(SnapshotError) {
        for identifier in identifiers { _ = try requireItem(identifier, "reloadItems(_:)") }
        for identifier in identifiers { reloadedItems.insert(identifier) }
    }

    /// Marks items whose *existing* cells must be configured again on apply (no dequeue):
    /// the cheap update the seeds use when an image arrives.
    /// - Complexity: O(k).
    public mutating func reconfigureItems(_ identifiers: [ItemID]) {
        do { try tryReconfigureItems(identifiers) } catch { preconditionFailure(error.description) }
    }

    /// - Complexity: O(k).
    public mutating func tryReconfigureItems(_ identifiers: [ItemID]) throws(SnapshotError) {
        for identifier in identifiers { _ = try requireItem(identifier, "reconfigureItems(_:)") }
        for identifier in identifiers { reconfiguredItems.insert(identifier) }
    }

    // MARK: Shared steps

    func requireItem(_ item: ItemID, _ operation: String) throws(SnapshotError) -> ItemPath {
        guard let path = pathByItem[item] else {
            throw .itemNotFound(item: SnapshotError.name(item), operation: operation)
        }
        return path
    }

    /// Inserts `identifiers` at `position` of `section` after checking they are new and
    /// distinct; leaves the snapshot untouched when they are not.
    /// - Complexity: O(k + items after `position` in the section + sections).
    // Apps index by Int; without a specialisation visible to them, a million-item append
    // spent most of its time looking up generic metadata (perf: 35 % in getGenericMetadata).
    @_specialize(exported: true, where SectionID == Int, ItemID == Int)
    mutating func insert(_ identifiers: [ItemID], section: Int, at position: Int, _ operation: String) throws(SnapshotError) {
        guard !identifiers.isEmpty else { return }
        // Claim each identifier so that a clash tells an old item from one earlier in this
        // same call. Appending claims final paths (old items all sit before `position`), so
        // no second indexing pass is needed: a million-item append is one dictionary write
        // per item. Inserting elsewhere claims marker paths (section -1, item -1 - k), then
        // reindexes the section from `position`.
        let appending = position == items[section].count
        func claim(_ k: Int) -> ItemPath { appending ? ItemPath(item: position + k, section: section) : ItemPath(item: -1 - k, section: -1) }
        func claimedHere(_ path: ItemPath) -> Bool { appending ? path.section == section && path.item >= position : path.section == -1 }
        pathByItem.reserve(for: identifiers)
        for k in identifiers.indices {
            let identifier = identifiers[k]
            guard let previous = pathByItem.updateValue(claim(k), forKey: identifier) else { continue }
            let fromThisCall = claimedHere(previous)
            let existing = fromThisCall
                ? "earlier in this call (position \(appending ? previous.item - position : -1 - previous.item) of \(identifiers.count))"
                : describeLocation(previous)
            if !fromThisCall { pathByItem[identifier] = previous }
            for j in 0..<k where pathByItem[identifiers[j]].map(claimedHere) == true { pathByItem[identifiers[j]] = nil }
            throw .duplicateItem(item: SnapshotError.name(identifier), operation: operation, existing: existing)
        }
        if items[section].isEmpty {
            items[section] = identifiers  // shares the caller's buffer (a million ids: 8 MB not copied)
        } else {
            items[section].insert(contentsOf: identifiers, at: position)
        }
        if !appending { reindexItems(inSection: section, from: position) }
        recomputeStarts(from: section + 1)
    }

    mutating func move(_ item: ItemID, relativeTo anchor: ItemID, offset: Int, _ operation: String) throws(SnapshotError) {
        let from = try requireItem(item, operation)
        _ = try requireItem(anchor, operation)
        guard item != anchor else { throw .anchorIsSubject(identifier: "item \(SnapshotError.name(item))", operation: operation) }
        items[from.section].remove(at: from.item)
        reindexItems(inSection: from.section, from: from.item)
        let to = pathByItem[anchor]!
        items[to.section].insert(item, at: to.item + offset)
        reindexItems(inSection: to.section, from: to.item)
        recomputeStarts(from: min(from.section, to.section) + 1)
    }
}
