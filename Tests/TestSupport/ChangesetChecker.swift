import DiffableData

/// Checks a changeset the way the collection view will use it: replays it on the old
/// snapshot's layout and compares with the new one, and checks every listed position.
public enum ChangesetChecker {
    /// The layout `changeset` produces from `old`, replayed with identifiers as rows.
    public static func replay<S, I>(_ changeset: Changeset<S, I>, on old: Snapshot<S, I>) -> (sections: [S], rows: [[I]]) {
        changeset.apply(
            sections: old.sectionIdentifiers,
            rows: old.sectionIdentifiers.map { old.itemIdentifiers(inSection: $0) },
            rowID: { $0 }, makeRow: { $0 }, reload: { id, _ in id }, reconfigure: { _, _ in }
        )
    }

    /// Every problem found, as text; empty when the changeset is right.
    public static func problems<S, I>(old: Snapshot<S, I>, new: Snapshot<S, I>, changeset: Changeset<S, I>) -> [String] {
        var problems: [String] = []
        let result = replay(changeset, on: old)
        if result.sections != new.sectionIdentifiers { problems.append("sections \(result.sections) != \(new.sectionIdentifiers)") }
        let expectedRows = new.sectionIdentifiers.map { new.itemIdentifiers(inSection: $0) }
        if result.rows != expectedRows { problems.append("rows \(result.rows) != \(expectedRows)") }

        for delete in changeset.itemDeletes where old.itemIdentifier(at: delete.indexPath) != delete.item || new.contains(item: delete.item) {
            problems.append("bad delete \(delete)")
        }
        for insert in changeset.itemInserts where new.itemIdentifier(at: insert.indexPath) != insert.item || old.contains(item: insert.item) {
            problems.append("bad insert \(insert)")
        }
        for move in changeset.itemMoves + changeset.itemReloads + changeset.itemReconfigures
        where old.itemIdentifier(at: move.from) != move.item || new.itemIdentifier(at: move.to) != move.item {
            problems.append("bad path pair \(move)")
        }
        let listed = changeset.itemDeletes.map(\.item) + changeset.itemInserts.map(\.item) + changeset.itemMoves.map(\.item)
        if Set(listed).count != listed.count { problems.append("an identifier is listed twice among deletes/inserts/moves") }
        if changeset.itemDeletes.map(\.indexPath) != changeset.itemDeletes.map(\.indexPath).sorted(by: >) { problems.append("deletes not highest first") }
        if changeset.itemInserts.map(\.indexPath) != changeset.itemInserts.map(\.indexPath).sorted() { problems.append("inserts not lowest first") }
        if changeset.itemMoves.map(\.to) != changeset.itemMoves.map(\.to).sorted() { problems.append("moves not by destination") }
        let minimal = minimalItemMoves(old: old, new: new)
        if changeset.itemMoves.count != minimal { problems.append("\(changeset.itemMoves.count) moves, minimal is \(minimal)") }
        return problems
    }

    /// The fewest item moves, computed independently of the library with the quadratic
    /// textbook LIS: items that changed section, plus per section the kept items minus a
    /// longest increasing subsequence of their old positions.
    public static func minimalItemMoves<S, I>(old: Snapshot<S, I>, new: Snapshot<S, I>) -> Int {
        var moves = 0
        for section in new.sectionIdentifiers {
            var sameSection: [Int] = []
            for item in new.itemIdentifiers(inSection: section) {
                guard let oldSection = old.sectionIdentifier(containingItem: item) else { continue }
                if oldSection == section {
                    sameSection.append(old.indexPath(for: item)!.item)
                } else {
                    moves += 1
                }
            }
            moves += sameSection.count - quadraticLIS(sameSection)
        }
        return moves
    }

    public static func quadraticLIS(_ values: [Int]) -> Int {
        var best = [Int](repeating: 1, count: values.count)
        for i in values.indices {
            for j in 0..<i where values[j] < values[i] { best[i] = max(best[i], best[j] + 1) }
        }
        return best.max() ?? 0
    }
}
