// Section mutations; each traps on misuse, each has a throwing `try` twin.
extension Snapshot {
    /// - Complexity: O(k) for k sections.
    public mutating func appendSections(_ identifiers: [SectionID]) {
        do { try tryAppendSections(identifiers) } catch { preconditionFailure(error.description) }
    }

    /// - Complexity: O(k).
    public mutating func tryAppendSections(_ identifiers: [SectionID]) throws(SnapshotError) {
        try insertSections(identifiers, at: sectionIDs.count, "appendSections(_:)")
    }

    /// - Complexity: O(k + sections + items in the sections after the anchor).
    public mutating func insertSections(_ identifiers: [SectionID], beforeSection anchor: SectionID) {
        do { try tryInsertSections(identifiers, beforeSection: anchor) } catch { preconditionFailure(error.description) }
    }

    /// - Complexity: O(k + sections + items in the sections after the anchor).
    public mutating func tryInsertSections(_ identifiers: [SectionID], beforeSection anchor: SectionID) throws(SnapshotError) {
        let operation = "insertSections(_:beforeSection:)"
        try insertSections(identifiers, at: try requireSectionIndex(anchor, operation), operation)
    }

    /// - Complexity: O(k + sections + items in the sections after the anchor).
    public mutating func insertSections(_ identifiers: [SectionID], afterSection anchor: SectionID) {
        do { try tryInsertSections(identifiers, afterSection: anchor) } catch { preconditionFailure(error.description) }
    }

    /// - Complexity: O(k + sections + items in the sections after the anchor).
    public mutating func tryInsertSections(_ identifiers: [SectionID], afterSection anchor: SectionID) throws(SnapshotError) {
        let operation = "insertSections(_:afterSection:)"
        try insertSections(identifiers, at: try requireSectionIndex(anchor, operation) + 1, operation)
    }

    /// Deletes sections with all their items.
    /// - Complexity: O(sections + items of the deleted sections and of those after them).
    public mutating func deleteSections(_ identifiers: [SectionID]) {
        do { try tryDeleteSections(identifiers) } catch { preconditionFailure(error.description) }
    }

    /// - Complexity: O(sections + items of the deleted sections and of those after them).
    public mutating func tryDeleteSections(_ identifiers: [SectionID]) throws(SnapshotError) {
        var doomed = Set<Int>()
        for identifier in identifiers { doomed.insert(try requireSectionIndex(identifier, "deleteSections(_:)")) }
        guard let first = doomed.min() else { return }
        var removedItems = Set<ItemID>()
        for index in doomed {
            for item in items[index] {
                pathByItem[item] = nil
                removedItems.insert(item)
            }
            sectionIndexByID[sectionIDs[index]] = nil
        }
        let removedSections = Set(identifiers)
        for index in doomed.sorted(by: >) {
            sectionIDs.remove(at: index)
            items.remove(at: index)
        }
        reloadedItems.remove(where: removedItems.contains)
        reconfiguredItems.remove(where: removedItems.contains)
        reloadedSections.remove(where: removedSections.contains)
        reindexSections(from: first)
    }

    /// - Complexity: O(sections + items of the sections between the two positions).
    public mutating func moveSection(_ section: SectionID, beforeSection anchor: SectionID) {
        do { try tryMoveSection(section, beforeSection: anchor) } catch { preconditionFailure(error.description) }
    }

    /// - Complexity: O(sections + items of the sections between the two positions).
    public mutating func tryMoveSection(_ section: SectionID, beforeSection anchor: SectionID) throws(SnapshotError) {
        try moveSection(section, relativeTo: anchor, offset: 0, "moveSection(_:beforeSection:)")
    }

    /// - Complexity: O(sections + items of the sections between the two positions).
    public mutating func moveSection(_ section: SectionID, afterSection anchor: SectionID) {
        do { try tryMoveSection(section, afterSection: anchor) } catch { preconditionFailure(error.description) }
    }

    /// - Complexity: O(sections + items of the sections between the two positions).
    public mutating func tryMoveSection(_ section: SectionID, afterSection anchor: SectionID) throws(SnapshotError) {
        try moveSection(section, relativeTo: anchor, offset: 1, "moveSection(_:afterSection:)")
    }

    /// Marks sections whose every cell is replaced on apply.
    /// - Complexity: O(k).
    public mutating func reloadSections(_ identifiers: [SectionID]) {
        do { try tryReloadSections(identifiers) } catch { preconditionFailure(error.description) }
    }

    /// - Complexity: O(k).
    public mutating func tryReloadSections(_ identifiers: [SectionID]) throws(SnapshotError) {
        for identifier in identifiers { _ = try requireSectionIndex(identifier, "reloadSections(_:)") }
        for identifier in identifiers { reloadedSections.insert(identifier) }
    }

    // MARK: Shared steps

    func requireSectionIndex(_ section: SectionID, _ operation: String) throws(SnapshotError) -> Int {
        guard let index = sectionIndexByID[section] else {
            throw .sectionNotFound(section: SnapshotError.name(section), operation: operation)
        }
        return index
    }

    mutating func insertSections(_ identifiers: [SectionID], at position: Int, _ operation: String) throws(SnapshotError) {
        var fresh = Set<SectionID>()
        for identifier in identifiers where sectionIndexByID[identifier] != nil || !fresh.insert(identifier).inserted {
            throw .duplicateSection(section: SnapshotError.name(identifier), operation: operation)
        }
        sectionIDs.insert(contentsOf: identifiers, at: position)
        items.insert(contentsOf: Array(repeating: [], count: identifiers.count), at: position)
        reindexSections(from: position)
    }

    mutating func moveSection(_ section: SectionID, relativeTo anchor: SectionID, offset: Int, _ operation: String) throws(SnapshotError) {
        let from = try requireSectionIndex(section, operation)
        _ = try requireSectionIndex(anchor, operation)
        guard section != anchor else {
            throw .anchorIsSubject(identifier: "section \(SnapshotError.name(section))", operation: operation)
        }
        let moved = items.remove(at: from)
        sectionIDs.remove(at: from)
        let to = sectionIDs.firstIndex(of: anchor)! + offset
        sectionIDs.insert(section, at: to)
        items.insert(moved, at: to)
        reindexSections(from: min(from, to))
    }
}
