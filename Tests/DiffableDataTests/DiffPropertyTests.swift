import CoreKit
import DiffableData
import Testing
import TestSupport

/// Random old/new snapshots (seeded, so a failure names its seed and repeats).
@Suite struct DiffPropertyTests {
    static func randomSnapshot(_ rng: inout SplitMix64, itemPool: Int = 40, sectionPool: Int = 6) -> Snapshot<Int, Int> {
        var snapshot = Snapshot<Int, Int>()
        let sections = Array(0..<sectionPool).shuffled(using: &rng).prefix(1 + rng.below(sectionPool))
        snapshot.appendSections(Array(sections))
        for item in Array(0..<itemPool).shuffled(using: &rng).prefix(rng.below(itemPool + 1)) {
            snapshot.appendItems([item], toSection: sections[sections.startIndex + rng.below(sections.count)])
        }
        return snapshot
    }

    /// A new snapshot made from `old` by the operations an app performs.
    static func edited(_ old: Snapshot<Int, Int>, _ rng: inout SplitMix64) -> Snapshot<Int, Int> {
        var new = old
        for _ in 0..<(1 + rng.below(12)) {
            let items = new.itemIdentifiers
            let sections = new.sectionIdentifiers
            switch rng.below(8) {
            case 0 where !items.isEmpty: new.deleteItems([items[rng.below(items.count)]])
            case 1: try? new.tryAppendItems([100 + rng.below(50)], toSection: sections[rng.below(sections.count)])
            case 2 where items.count > 1:
                let a = items[rng.below(items.count)], b = items[rng.below(items.count)]
                if a != b { rng.below(2) == 0 ? new.moveItem(a, beforeItem: b) : new.moveItem(a, afterItem: b) }
            case 3 where sections.count > 1:
                let a = sections[rng.below(sections.count)], b = sections[rng.below(sections.count)]
                if a != b { new.moveSection(a, afterSection: b) }
            case 4 where sections.count > 1: new.deleteSections([sections[rng.below(sections.count)]])
            case 5: try? new.tryInsertSections([10 + rng.below(5)], beforeSection: sections[rng.below(sections.count)])
            case 6 where !items.isEmpty: new.reconfigureItems([items[rng.below(items.count)]])
            case 7 where !items.isEmpty: new.reloadItems([items[rng.below(items.count)]])
            default: break
            }
        }
        return new
    }

    @Test(arguments: 0..<8)
    func replayingTheChangesetGivesTheNewSnapshotWithMinimalMoves(batch: Int) {
        for round in 0..<150 {
            let seed = UInt64(batch * 1000 + round)
            var rng = SplitMix64(seed: seed)
            let old = Self.randomSnapshot(&rng)
            let new = rng.below(3) == 0 ? Self.randomSnapshot(&rng) : Self.edited(old, &rng)
            let changes = old.changeset(to: new)
            let problems = ChangesetChecker.problems(old: old, new: new, changeset: changes)
            #expect(problems.isEmpty, "seed \(seed): \(problems)\nold \(old)\nnew \(new)")
            if !problems.isEmpty { return }
        }
    }

    /// The summary of a change too large to list says what the full changeset says of
    /// sections, structure, reloads and reconfigures, and lists no item.
    @Test func aSummaryAgreesWithTheFullChangeset() {
        for seed in UInt64(0)..<600 {
            var rng = SplitMix64(seed: seed)
            let old = Self.randomSnapshot(&rng)
            let new = rng.below(3) == 0 ? Self.randomSnapshot(&rng) : Self.edited(old, &rng)
            let full = old.changeset(to: new), summary = old.summaryChangeset(to: new)
            let sameItems = old.sectionIdentifiers == new.sectionIdentifiers
                && old.sectionIdentifiers.allSatisfy { old.itemIdentifiers(inSection: $0) == new.itemIdentifiers(inSection: $0) }
            #expect(summary.hasUnlistedItemChanges == !sameItems, "seed \(seed)")
            #expect(summary.hasStructuralChanges == (full.hasStructuralChanges || !sameItems), "seed \(seed)")
            #expect(summary.isEmpty == full.isEmpty, "seed \(seed)")
            #expect(summary.sectionDeletes == full.sectionDeletes && summary.sectionInserts == full.sectionInserts && summary.sectionMoves == full.sectionMoves)
            #expect(summary.itemReloads == full.itemReloads && summary.itemReconfigures == full.itemReconfigures, "seed \(seed)")
            #expect(summary.itemDeletes.isEmpty && summary.itemInserts.isEmpty && summary.itemMoves.isEmpty)
        }
    }

    /// Dense integers (the direct-index table), sparse integers and strings (the hash
    /// table) must give the same answers.
    @Test(arguments: [1, 1_000_003_000_001, -7])
    func flatDiffMovesAreNMinusLIS(spread: Int) {
        var rng = SplitMix64(seed: 77)
        for _ in 0..<300 {
            let old = Array(0..<rng.below(60)).shuffled(using: &rng).map { $0 &* spread }
            var new = old.filter { _ in rng.below(4) != 0 } + (100..<(100 + rng.below(10))).map { $0 &* spread }
            new.shuffle(using: &rng)
            let strings = ArrayDiff(from: old.map(String.init), to: new.map(String.init))
            #expect(strings.apply(to: old.map(String.init)) == new.map(String.init))
            let diff = ArrayDiff(from: old, to: new)
            #expect(diff.apply(to: old) == new)
            let oldIndex = Dictionary(uniqueKeysWithValues: old.enumerated().map { ($1, $0) })
            let kept = new.compactMap { oldIndex[$0] }
            #expect(diff.moves.count == kept.count - ChangesetChecker.quadraticLIS(kept))
            #expect(diff.deletes.count == old.count - kept.count)
            #expect(diff.inserts.count == new.count - kept.count)
            #expect(strings.moves.count == diff.moves.count && strings.deletes == diff.deletes && strings.inserts == diff.inserts)
        }
    }
}
