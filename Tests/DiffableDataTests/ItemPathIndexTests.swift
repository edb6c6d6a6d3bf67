import CoreKit
@testable import DiffableData
import Testing

/// The snapshot's identifier → path index in its two layouts (a flat array for compact
/// `Int` ranges, a dictionary otherwise) against a plain dictionary as the model.
@Suite struct ItemPathsTests {
    @Test func compactIntegerIdentifiersTakeTheFlatLayout() {
        var paths = ItemPathIndex<Int>()
        let ids = Array(1...100_000)
        paths.reserve(for: ids)
        for (k, id) in ids.enumerated() { #expect(paths.updateValue(ItemPath(item: k, section: 0), forKey: id) == nil) }
        #expect(paths.isDense)
        #expect(paths.count == 100_000)
        #expect(paths[1] == ItemPath(item: 0, section: 0))
        #expect(paths[100_000] == ItemPath(item: 99_999, section: 0))
        #expect(paths[0] == nil && paths[100_001] == nil && paths[-5] == nil && paths[.max] == nil && paths[.min] == nil)
    }

    @Test func aKeyFarOutsideTheRangeMovesEveryPathIntoTheDictionary() {
        var paths = ItemPathIndex<Int>()
        paths.reserve(for: [10, 11, 12])
        for id in 10...12 { _ = paths.updateValue(ItemPath(item: id - 10, section: 1), forKey: id) }
        #expect(paths.isDense)
        _ = paths.updateValue(ItemPath(item: 3, section: 1), forKey: 1_000_000_000)
        #expect(!paths.isDense)
        #expect(paths.count == 4)
        for id in 10...12 { #expect(paths[id] == ItemPath(item: id - 10, section: 1)) }
        #expect(paths[1_000_000_000] == ItemPath(item: 3, section: 1))
    }

    @Test func sparseOrNonIntegerIdentifiersUseTheDictionary() {
        var sparse = ItemPathIndex<Int>()
        sparse.reserve(for: [0, 1 << 40])
        #expect(!sparse.isDense)
        var overflowing = ItemPathIndex<Int>()
        overflowing.reserve(for: [.min, .max])
        #expect(!overflowing.isDense)
        var strings = ItemPathIndex<String>()
        strings.reserve(for: ["a"])
        _ = strings.updateValue(ItemPath(item: 0, section: 0), forKey: "a")
        #expect(!strings.isDense && strings["a"] == ItemPath(item: 0, section: 0))
    }

    /// Random inserts (ascending, below the range, far away), overwrites, marker paths with
    /// negative parts, and removals: after every step every key the model knows, and keys
    /// around them, answer as the model does.
    @Test(arguments: 1...40) func agreesWithADictionaryUnderRandomOperations(seed: Int) {
        var rng = SplitMix64(seed: UInt64(seed))
        var paths = ItemPathIndex<Int>()
        var model: [Int: ItemPath] = [:]
        let base = rng.below(2) == 0 ? 0 : 1_000_000 * (rng.below(5) - 2)
        let first = (0..<(1 + rng.below(50))).map { base + $0 * (1 + rng.below(3)) }
        paths.reserve(for: Array(Set(first)))
        for step in 0..<400 {
            let key: Int
            switch rng.below(10) {
            case 0: key = base - rng.below(200)            // below the range: grows at the front
            case 1: key = base + rng.below(5_000)          // ahead of the range
            case 2 where step > 300: key = base + (1 << 33) + rng.below(3)  // far: spills
            default: key = base + rng.below(300)
            }
            if rng.below(4) == 0 {
                paths[key] = nil
                model[key] = nil
            } else {
                let path = ItemPath(item: rng.below(2) == 0 ? rng.below(1000) : -1 - rng.below(5), section: rng.below(3) - 1)
                #expect(paths.updateValue(path, forKey: key) == model.updateValue(path, forKey: key), "seed \(seed) step \(step)")
            }
            #expect(paths.count == model.count, "seed \(seed) step \(step)")
        }
        for (key, path) in model { #expect(paths[key] == path, "seed \(seed) key \(key)") }
        for probe in (base - 300)...(base + 400) { #expect(paths[probe] == model[probe], "seed \(seed) probe \(probe)") }
    }

    /// A run of keys at consecutive items (every post in order) keeps no array; whatever
    /// breaks the run — a key out of order, a path elsewhere, a removal inside — writes it,
    /// and from then on every key answers as a dictionary would. Random runs and breaks.
    @Test(arguments: 1...40) func aRunOfKeysIsComputedUntilSomethingBreaksIt(seed: Int) {
        var rng = SplitMix64(seed: UInt64(seed))
        var paths = ItemPathIndex<Int>()
        var model: [Int: ItemPath] = [:]
        let low = rng.below(3) == 0 ? -50 : rng.below(1_000), length = 1 + rng.below(500)
        let section = rng.below(3), firstItem = rng.below(4)
        paths.reserve(for: Array(low..<(low + length)))
        for k in 0..<length {
            let path = ItemPath(item: firstItem + k, section: section)
            #expect(paths.updateValue(path, forKey: low + k) == nil)
            model[low + k] = path
        }
        #expect(paths.isComputed, "seed \(seed): a run in order stores nothing")
        // Extending the run at its end, or taking its last key away, keeps it computed.
        for _ in 0..<rng.below(20) {
            let end = low + paths.count
            if rng.below(3) == 0, paths.count > 1 {
                paths[end - 1] = nil
                model[end - 1] = nil
            } else {
                let path = ItemPath(item: firstItem + paths.count, section: section)
                #expect(paths.updateValue(path, forKey: end) == nil)
                model[end] = path
            }
        }
        #expect(paths.isComputed && paths.count == model.count)
        for step in 0..<200 {
            let key = low - 20 + rng.below(length + 60)
            if rng.below(4) == 0 {
                paths[key] = nil
                model[key] = nil
            } else {
                let path = ItemPath(item: rng.below(3) == 0 ? -1 - rng.below(5) : rng.below(length + 10), section: rng.below(4) - 1)
                #expect(paths.updateValue(path, forKey: key) == model.updateValue(path, forKey: key), "seed \(seed) step \(step)")
            }
            #expect(paths.count == model.count, "seed \(seed) step \(step)")
            for probe in (low - 30)...(low + length + 70) where step % 20 == 0 {
                #expect(paths[probe] == model[probe], "seed \(seed) step \(step) probe \(probe)")
            }
        }
        for (key, path) in model { #expect(paths[key] == path, "seed \(seed) key \(key)") }
    }

    @Test func everyPostInOrderIsComputedAndAFilteredResultIsStored() {
        var all = Snapshot<Int, Int>()
        all.appendSections([0])
        all.appendItems(Array(1...1_000_000))
        #expect(all.pathByItem.isComputed && all.indexOfItem(654_321) == 654_320)
        all.appendItems([1_000_001, 1_000_002])   // a page more of a feed: still a run
        #expect(all.pathByItem.isComputed && all.indexOfItem(1_000_002) == 1_000_001)
        var filtered = Snapshot<Int, Int>()
        filtered.appendSections([0])
        filtered.appendItems(Array(stride(from: 3, through: 1_000_000, by: 3)))
        #expect(filtered.pathByItem.isDense && !filtered.pathByItem.isComputed)
        #expect(filtered.indexOfItem(6) == 1 && filtered.indexOfItem(7) == nil)
        // The diff between them sees every item where it is.
        let changes = all.changeset(to: filtered)
        #expect(changes.itemDeletes.count == 1_000_002 - filtered.numberOfItems)
    }

    /// The index a million-post app builds: one append, then the queries the grid makes.
    @Test func aMillionItemSnapshotAnswersEveryQueryFromTheFlatLayout() {
        var snapshot = Snapshot<Int, Int>()
        snapshot.appendSections([0, 1])
        snapshot.appendItems(Array(1...1_000_000), toSection: 0)
        snapshot.appendItems([2_000_000], toSection: 1)
        #expect(snapshot.pathByItem.isDense)  // twice the range: still within four slots a key
        snapshot.appendItems([10_000_000], toSection: 1)
        #expect(!snapshot.pathByItem.isDense)  // ten times: the dictionary takes over
        var compact = Snapshot<Int, Int>()
        compact.appendSections([0])
        compact.appendItems(Array(1...1_000_000))
        #expect(compact.pathByItem.isDense)
        #expect(compact.numberOfItems == 1_000_000)
        #expect(compact.indexOfItem(777_777) == 777_776)
        #expect(compact.indexPath(for: 1_000_000) == ItemPath(item: 999_999, section: 0))
        #expect(!compact.contains(item: 0) && !compact.contains(item: 1_000_001))
        compact.deleteItems([1, 500_000])
        #expect(compact.numberOfItems == 999_998)
        #expect(compact.indexOfItem(2) == 0 && compact.indexOfItem(500_001) == 499_998)
        #expect(snapshot.numberOfItems == 1_000_002 && snapshot.indexPath(for: 2_000_000) == ItemPath(item: 0, section: 1))
        #expect(snapshot.indexOfItem(10_000_000) == 1_000_001 && snapshot.indexOfItem(999_999) == 999_998)
    }

    /// A duplicate refused by an append leaves the snapshot (and its index) as it was, in
    /// the flat layout too.
    @Test func aRefusedAppendLeavesTheFlatIndexUntouched() {
        var snapshot = Snapshot<Int, Int>()
        snapshot.appendSections([0])
        snapshot.appendItems([1, 2, 3])
        #expect(throws: SnapshotError.self) { try snapshot.tryAppendItems([4, 5, 2]) }
        #expect(throws: SnapshotError.self) { try snapshot.tryAppendItems([6, 7, 6]) }
        #expect(snapshot.numberOfItems == 3)
        #expect(!snapshot.contains(item: 4) && !snapshot.contains(item: 6) && !snapshot.contains(item: 7))
        #expect(snapshot.indexOfItem(2) == 1)
    }
}
