extension Changeset {
    /// Replays the changeset on rows laid out like the old snapshot, step by step as a
    /// collection view updates its cells, and returns the new layout.
    ///
    /// Order: remove deleted and moved-out items (old paths), remove deleted and moved
    /// sections (old indices), insert sections (new indices, moved ones with their
    /// remaining rows), insert items (new paths; moved rows are carried, not rebuilt),
    /// then reload (`reload` replaces the row) and reconfigure (`reconfigure` edits the row
    /// in place) at their new paths. A row that is both moved and updated is the old row,
    /// moved, then updated.
    /// - Parameters:
    ///   - oldSections: the sections before, in order.
    ///   - oldRows: each section's rows before.
    ///   - rowID: the identifier a row shows (needed for section reloads).
    ///   - makeRow: a row for an inserted item.
    ///   - reload: a new row for a reloaded item.
    ///   - reconfigure: edits a reconfigured item's row in place.
    /// - Complexity: O(n + c log c) for n rows and c changes.
    public func apply<Row>(
        sections oldSections: [SectionID], rows oldRows: [[Row]],
        rowID: (Row) -> ItemID, makeRow: (ItemID) -> Row,
        reload: (ItemID, Row) -> Row, reconfigure: (ItemID, inout Row) -> Void
    ) -> (sections: [SectionID], rows: [[Row]]) {
        precondition(oldSections.count == oldRows.count, "apply: \(oldSections.count) sections but \(oldRows.count) row arrays")
        var removed = [Set<Int>](repeating: [], count: oldRows.count)
        var carried: [ItemID: Row] = [:]
        for delete in itemDeletes { removed[delete.indexPath.section].insert(delete.indexPath.item) }
        for move in itemMoves {
            removed[move.from.section].insert(move.from.item)
            carried[move.item] = oldRows[move.from.section][move.from.item]
        }
        let keptRows = oldRows.enumerated().map { section, rows in
            removed[section].isEmpty ? rows : rows.enumerated().filter { !removed[section].contains($0.offset) }.map(\.element)
        }

        var goneSections = Set(sectionDeletes.map(\.index))
        var carriedSections: [Int: [Row]] = [:]
        for move in sectionMoves {
            goneSections.insert(move.from)
            carriedSections[move.to] = keptRows[move.from]
        }
        let staying = oldSections.indices.filter { !goneSections.contains($0) }
        var sectionAdditions = sectionInserts.map { (at: $0.index, element: ($0.section, [Row]())) }
        sectionAdditions += sectionMoves.map { (at: $0.to, element: ($0.section, carriedSections[$0.to]!)) }
        sectionAdditions.sort { $0.at < $1.at }
        var layout = mergeAdditions(sectionAdditions, into: staying.map { (oldSections[$0], keptRows[$0]) })

        var additionsBySection: [Int: [(at: Int, element: Row)]] = [:]
        for insert in itemInserts {
            additionsBySection[insert.indexPath.section, default: []].append((insert.indexPath.item, makeRow(insert.item)))
        }
        for move in itemMoves {
            additionsBySection[move.to.section, default: []].append((move.to.item, carried[move.item]!))
        }
        for (section, additions) in additionsBySection {
            layout[section].1 = mergeAdditions(additions.sorted { $0.at < $1.at }, into: layout[section].1)
        }

        for reloadSection in sectionReloads {
            layout[reloadSection.to].1 = layout[reloadSection.to].1.map { reload(rowID($0), $0) }
        }
        for update in itemReloads {
            layout[update.to.section].1[update.to.item] = reload(update.item, layout[update.to.section].1[update.to.item])
        }
        for update in itemReconfigures {
            reconfigure(update.item, &layout[update.to.section].1[update.to.item])
        }
        return (layout.map(\.0), layout.map(\.1))
    }
}

extension Snapshot {
    /// Builds a snapshot from sections and their items, checking every identifier, for
    /// data that comes from outside (a catalogue file, user input).
    /// - Complexity: O(n).
    public init(validating sections: [(SectionID, [ItemID])]) throws(SnapshotError) {
        self.init()
        try tryAppendSections(sections.map(\.0))
        for (section, sectionItems) in sections { try tryAppendItems(sectionItems, toSection: section) }
    }
}
