extension Snapshot {
    /// The changes that turn this snapshot into `new`, ready for a collection view.
    ///
    /// Works on identifiers only, through the position maps both snapshots already keep, so
    /// nothing is hashed twice and no item is compared by content. Reloads and
    /// reconfigures are taken from `new`'s marks; marks on items that `new` inserts are
    /// dropped (an inserted item gets a fresh cell anyway).
    /// - Complexity: O(n) lookups plus O(m log m) per section for the longest increasing
    ///   subsequence of its m kept items; O(n) when nothing moved.
    public func changeset(to new: Snapshot) -> Changeset<SectionID, ItemID> {
        var changes = Changeset<SectionID, ItemID>()
        diffSections(to: new, into: &changes)
        if sectionIDs != new.sectionIDs || items != new.items {
            diffItems(to: new, into: &changes)
        }
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

    private func diffItems(to new: Snapshot, into changes: inout Changeset<SectionID, ItemID>) {
        for (oldSection, sectionItems) in items.enumerated() {
            for (index, item) in sectionItems.enumerated() where new.pathByItem[item] == nil {
                changes.itemDeletes.append(.init(item: item, indexPath: IndexPath(item: index, section: oldSection)))
            }
        }
        changes.itemDeletes.reverse()

        var sources: [Int] = []
        var destinations: [Int] = []
        var sectionMoves: [Changeset<SectionID, ItemID>.ItemMove] = []
        for (newSection, sectionItems) in new.items.enumerated() {
            let oldSection = sectionIndexByID[new.sectionIDs[newSection]]
            sources.removeAll(keepingCapacity: true)
            destinations.removeAll(keepingCapacity: true)
            sectionMoves.removeAll(keepingCapacity: true)
            for (index, item) in sectionItems.enumerated() {
                let to = IndexPath(item: index, section: newSection)
                guard let from = pathByItem[item] else {
                    changes.itemInserts.append(.init(item: item, indexPath: to))
                    continue
                }
                if from.section == oldSection {
                    sources.append(from.item)
                    destinations.append(index)
                } else {
                    sectionMoves.append(.init(item: item, from: from, to: to))
                }
            }
            if let oldSection {
                let stays = LongestIncreasingSubsequence.membership(of: sources)
                for k in sources.indices where !stays[k] {
                    sectionMoves.append(.init(
                        item: sectionItems[destinations[k]],
                        from: IndexPath(item: sources[k], section: oldSection),
                        to: IndexPath(item: destinations[k], section: newSection)
                    ))
                }
            }
            sectionMoves.sort { $0.to.item < $1.to.item }
            changes.itemMoves += sectionMoves
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
