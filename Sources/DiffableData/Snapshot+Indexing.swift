// Keeping the identifier ↔ position maps current after a mutation.
extension Snapshot {
    /// Rewrites the paths of items `start...` of section `section`.
    /// - Complexity: O(items after `start` in that section).
    @_specialize(exported: true, where SectionID == Int, ItemID == Int)
    mutating func reindexItems(inSection section: Int, from start: Int) {
        let sectionItems = items[section]
        for index in start..<sectionItems.count {
            pathByItem[sectionItems[index]] = ItemPath(item: index, section: section)
        }
    }

    /// Rewrites section indices, item paths and starts of sections `start...`.
    /// - Complexity: O(sections + items from `start` on).
    mutating func reindexSections(from start: Int) {
        for index in start..<sectionIDs.count {
            sectionIndexByID[sectionIDs[index]] = index
            reindexItems(inSection: index, from: 0)
        }
        recomputeStarts(from: start)
    }

    /// - Complexity: O(sections from `start` on).
    mutating func recomputeStarts(from start: Int) {
        sectionStarts.removeSubrange(min(start, sectionStarts.count)...)
        for index in sectionStarts.count..<sectionIDs.count {
            sectionStarts.append(index == 0 ? 0 : sectionStarts[index - 1] + items[index - 1].count)
        }
    }

    func describeLocation(_ path: ItemPath) -> String {
        "in the snapshot (section \(SnapshotError.name(sectionIDs[path.section])), index \(path.item))"
    }
}
