extension Snapshot {
    /// The changes that turn this snapshot into `new`, ready for a collection view.
    ///
    /// Works on identifiers only; no item is compared by content. Reloads and
    /// reconfigures are taken from `new`'s marks; marks on items that `new` inserts are
    /// dropped (an inserted item gets a fresh cell anyway).
    /// - Complexity: that of ``ArrayDiff`` on each section present in both (O(n) plus
    ///   O(m log m) for the m kept items outside the common prefix and suffix), plus one
    ///   lookup per insert and delete; O(n) comparisons when nothing changed.
    @_specialize(exported: true, where SectionID == Int, ItemID == Int)
    public func changeset(to new: Snapshot) -> Changeset<SectionID, ItemID> {
        var changes = Changeset<SectionID, ItemID>()
        diffSections(to: new, into: &changes)
        if sectionIDs != new.sectionIDs || items != new.items {
            diffItems(to: new, into: &changes)
        }
        collectUpdates(of: new, into: &changes)
        return changes
    }

    /// What a collection view needs of a change too large to list item by item (a filter
    /// over a million posts): the sections' changes, whether any item was inserted, deleted
    /// or moved (``Changeset/hasUnlistedItemChanges``, not which), and the items marked for
    /// reload or reconfigure, at their positions. The full ``changeset(to:)`` of a million
    /// items took most of a second; this compares the two item arrays.
    /// - Complexity: O(items) compared, O(marked items) looked up.
    public func summaryChangeset(to new: Snapshot) -> Changeset<SectionID, ItemID> {
        var changes = Changeset<SectionID, ItemID>()
        diffSections(to: new, into: &changes)
        changes.hasUnlistedItemChanges = sectionIDs != new.sectionIDs || items != new.items
        collectUpdates(of: new, into: &changes)
        return changes
    }

    private func diffSections(to new: Snapshot, into changes: inout Changeset<SectionID, ItemID>) {
        guard sectionIDs != new.sectionIDs else { return }
        let diff = ArrayDiff(from: sectionIDs, to: new.sectionIDs)
        changes.sectionDeletes = diff.deletes.reversed().map { .init(section: sectionIDs[$0], index: $0) }
        changes.sectionInserts = diff.inserts.map { .init(section: new.sectionIDs[$0], index: $0) }
        changes.sectionMoves = diff.moves.map { .init(section: sectionIDs[$0.from], from: $0.from, to: $0.to) }
    }

    /// Runs ``ArrayDiff`` on every section present in both snapshots, then looks up only
    /// the inserts and deletes: one whose item lives in another section on the other side
    /// is a cross-section move, not an insert or delete. So each section gets the fewest
    /// moves (its LIS), and the whole costs what the array diffs cost.
    private func diffItems(to new: Snapshot, into changes: inout Changeset<SectionID, ItemID>) {
        typealias Move = Changeset<SectionID, ItemID>.ItemMove
        var candidateDeletes: [ItemPath] = []
        for (oldSection, id) in sectionIDs.enumerated() where new.sectionIndexByID[id] == nil {
            candidateDeletes += items[oldSection].indices.map { ItemPath(item: $0, section: oldSection) }
        }
        for (newSection, sectionItems) in new.items.enumerated() {
            var sectionMoves: [Move] = []
            if let oldSection = sectionIndexByID[new.sectionIDs[newSection]] {
                let diff = ArrayDiff(from: items[oldSection], to: sectionItems)
                candidateDeletes += diff.deletes.map { ItemPath(item: $0, section: oldSection) }
                sectionMoves = diff.moves.map {
                    Move(item: sectionItems[$0.to], from: ItemPath(item: $0.from, section: oldSection), to: ItemPath(item: $0.to, section: newSection))
                }
                classifyInserts(diff.inserts, of: sectionItems, section: newSection, moves: &sectionMoves, into: &changes)
            } else {
                classifyInserts(Array(sectionItems.indices), of: sectionItems, section: newSection, moves: &sectionMoves, into: &changes)
            }
            sectionMoves.sort { $0.to.item < $1.to.item }
            changes.itemMoves += sectionMoves
        }
        for path in candidateDeletes.sorted(by: >) {
            let item = items[path.section][path.item]
            if new.pathByItem[item] == nil { changes.itemDeletes.append(.init(item: item, indexPath: path)) }
        }
    }

    private func classifyInserts(_ positions: [Int], of sectionItems: [ItemID], section: Int,
                                 moves: inout [Changeset<SectionID, ItemID>.ItemMove], into changes: inout Changeset<SectionID, ItemID>) {
        for position in positions {
            let item = sectionItems[position]
            let to = ItemPath(item: position, section: section)
            if let from = pathByItem[item] {
                moves.append(.init(item: item, from: from, to: to))
            } else {
                changes.itemInserts.append(.init(item: item, indexPath: to))
            }
        }
    }

    private func collectUpdates(of new: Snapshot, into changes: inout Changeset<SectionID, ItemID>) {
        func updates(_ marked: [ItemID]) -> [Changeset<SectionID, ItemID>.ItemMove] {
            marked.compactMap { item in
                guard let from = pathByItem[item], let to = new.pathByItem[item] else { return nil }
                return .init(item: item, from: from, to: to)
            }.sorted { $0.to < $1.to }
        }
        changes.itemReloads = updates(new.reloadedItems.elements)
        changes.itemReconfigures = updates(new.reconfiguredItems.elements)
        changes.sectionReloads = new.reloadedSections.elements.compactMap { section in
            guard let from = sectionIndexByID[section], let to = new.sectionIndexByID[section] else { return nil }
            return .init(section: section, from: from, to: to)
        }.sorted { $0.to < $1.to }
    }
}
