import DiffableData
import Testing

enum Section: Hashable, Sendable { case main, favourites, other }

@Suite struct SnapshotQueryTests {
    func sample() -> Snapshot<Section, Int> {
        var snapshot = Snapshot<Section, Int>()
        snapshot.appendSections([.main, .favourites])
        snapshot.appendItems([1, 2, 3], toSection: .main)
        snapshot.appendItems([10, 11])  // the last section when none is named
        return snapshot
    }

    @Test func countsIdentifiersAndPositions() {
        let snapshot = sample()
        #expect(snapshot.numberOfItems == 5)
        #expect(snapshot.numberOfSections == 2)
        #expect(snapshot.sectionIdentifiers == [.main, .favourites])
        #expect(snapshot.itemIdentifiers == [1, 2, 3, 10, 11])
        #expect(snapshot.numberOfItems(inSection: .favourites) == 2)
        #expect(snapshot.itemIdentifiers(inSection: .main) == [1, 2, 3])
        #expect(snapshot.sectionIdentifier(containingItem: 11) == .favourites)
        #expect(snapshot.sectionIdentifier(containingItem: 99) == nil)
        #expect(snapshot.indexOfItem(10) == 3)
        #expect(snapshot.indexOfItem(99) == nil)
        #expect(snapshot.indexOfSection(.favourites) == 1)
        #expect(snapshot.indexOfSection(.other) == nil)
        #expect(snapshot.indexPath(for: 11) == ItemPath(item: 1, section: 1))
        #expect(snapshot.itemIdentifier(at: ItemPath(item: 2, section: 0)) == 3)
        #expect(snapshot.itemIdentifier(at: ItemPath(item: 5, section: 0)) == nil)
    }

    @Test func insertsAndMovesKeepEveryPositionCurrent() {
        var snapshot = sample()
        snapshot.insertItems([4, 5], beforeItem: 2)
        #expect(snapshot.itemIdentifiers(inSection: .main) == [1, 4, 5, 2, 3])
        snapshot.insertItems([6], afterItem: 3)
        #expect(snapshot.itemIdentifiers(inSection: .main) == [1, 4, 5, 2, 3, 6])
        snapshot.moveItem(1, afterItem: 11)  // across sections
        snapshot.moveItem(6, beforeItem: 4)
        #expect(snapshot.itemIdentifiers(inSection: .main) == [6, 4, 5, 2, 3])
        #expect(snapshot.itemIdentifiers(inSection: .favourites) == [10, 11, 1])
        assertPositionsConsistent(snapshot)
    }

    @Test func deletesKeepEveryPositionCurrent() {
        var snapshot = sample()
        snapshot.reloadItems([2, 10])
        snapshot.reconfigureItems([3])
        snapshot.deleteItems([2, 10, 2])
        #expect(snapshot.itemIdentifiers == [1, 3, 11])
        #expect(snapshot.reloadedItemIdentifiers == [])
        #expect(snapshot.reconfiguredItemIdentifiers == [3])
        assertPositionsConsistent(snapshot)
        snapshot.deleteAllItems()
        #expect(snapshot.numberOfItems == 0 && snapshot.numberOfSections == 0)
    }

    @Test func sectionMutations() {
        var snapshot = sample()
        snapshot.insertSections([.other], beforeSection: .favourites)
        snapshot.appendItems([20], toSection: .other)
        #expect(snapshot.sectionIdentifiers == [.main, .other, .favourites])
        #expect(snapshot.indexOfItem(10) == 4)
        snapshot.moveSection(.main, afterSection: .favourites)
        #expect(snapshot.sectionIdentifiers == [.other, .favourites, .main])
        #expect(snapshot.indexPath(for: 2) == ItemPath(item: 1, section: 2))
        snapshot.moveSection(.main, beforeSection: .other)
        #expect(snapshot.sectionIdentifiers == [.main, .other, .favourites])
        snapshot.reloadSections([.favourites])
        #expect(snapshot.reloadedSectionIdentifiers == [.favourites])
        snapshot.deleteSections([.other])
        #expect(snapshot.sectionIdentifiers == [.main, .favourites])
        #expect(!snapshot.contains(item: 20))
        snapshot.insertSections([.other], afterSection: .main)
        #expect(snapshot.sectionIdentifiers == [.main, .other, .favourites])
        assertPositionsConsistent(snapshot)
    }

    @Test func copiesAreIndependentValues() {
        let original = sample()
        var copy = original
        copy.appendItems([99], toSection: .main)
        copy.reconfigureItems([1])
        #expect(original.itemIdentifiers == [1, 2, 3, 10, 11])
        #expect(original.reconfiguredItemIdentifiers.isEmpty)
        #expect(copy.numberOfItems == 6)
        #expect(copy.clearingUpdateMarks().reconfiguredItemIdentifiers.isEmpty)
    }

    func assertPositionsConsistent(_ snapshot: Snapshot<Section, Int>, sourceLocation: SourceLocation = #_sourceLocation) {
        for (globalIndex, item) in snapshot.itemIdentifiers.enumerated() {
            let path = snapshot.indexPath(for: item)!
            #expect(snapshot.itemIdentifier(at: path) == item, sourceLocation: sourceLocation)
            #expect(snapshot.indexOfItem(item) == globalIndex, sourceLocation: sourceLocation)
            #expect(snapshot.sectionIdentifiers[path.section] == snapshot.sectionIdentifier(containingItem: item), sourceLocation: sourceLocation)
        }
        for (index, section) in snapshot.sectionIdentifiers.enumerated() {
            #expect(snapshot.indexOfSection(section) == index, sourceLocation: sourceLocation)
        }
    }
}

@Suite struct SnapshotErrorTests {
    @Test func duplicateItemNamesTheIdentifierTheOperationAndWhereItIs() {
        var snapshot = Snapshot<String, String>()
        snapshot.appendSections(["main"])
        snapshot.appendItems(["cusco", "saint-lucia"])
        let before = snapshot
        #expect(throws: SnapshotError.duplicateItem(item: "\"saint-lucia\"", operation: "appendItems(_:toSection:)", existing: "in the snapshot (section \"main\", index 1)")) {
            try snapshot.tryAppendItems(["kyoto", "saint-lucia"])
        }
        #expect(snapshot == before, "a refused mutation leaves the snapshot unchanged")
        do {
            try snapshot.tryAppendItems(["kyoto", "oslo", "kyoto"])
            Issue.record("expected a throw")
        } catch {
            #expect(error.description == "appendItems(_:toSection:): item identifier \"kyoto\" is already earlier in this call (position 0 of 3); item identifiers must be unique across all sections")
        }
        #expect(snapshot == before)
    }

    @Test func everyMisuseHasAPreciseMessage() {
        var snapshot = Snapshot<String, Int>()
        func message(_ body: (inout Snapshot<String, Int>) throws -> Void) -> String {
            do { try body(&snapshot); return "no error" } catch { return "\(error)" }
        }
        #expect(message { try $0.tryAppendItems([1]) } == "appendItems(_:toSection:): the snapshot has no section to append to; call appendSections(_:) first or name a section")
        #expect(message { try $0.tryAppendSections(["a", "b", "a"]) } == "appendSections(_:): section identifier \"a\" is already in the snapshot; section identifiers must be unique")
        #expect(snapshot.numberOfSections == 0)
        snapshot.appendSections(["a"])
        snapshot.appendItems([1, 2])
        #expect(message { try $0.tryAppendItems([3], toSection: "z") } == "appendItems(_:toSection:): section identifier \"z\" is not in the snapshot")
        #expect(message { try $0.tryInsertItems([3], beforeItem: 7) } == "insertItems(_:beforeItem:): item identifier 7 is not in the snapshot")
        #expect(message { try $0.tryInsertItems([3], afterItem: 7) } == "insertItems(_:afterItem:): item identifier 7 is not in the snapshot")
        #expect(message { try $0.tryDeleteItems([1, 9]) } == "deleteItems(_:): item identifier 9 is not in the snapshot")
        #expect(snapshot.itemIdentifiers == [1, 2], "a refused delete removes nothing")
        #expect(message { try $0.tryMoveItem(1, beforeItem: 1) } == "moveItem(_:beforeItem:): item 1 cannot be moved relative to itself")
        #expect(message { try $0.tryMoveItem(8, afterItem: 1) } == "moveItem(_:afterItem:): item identifier 8 is not in the snapshot")
        #expect(message { try $0.tryReloadItems([5]) } == "reloadItems(_:): item identifier 5 is not in the snapshot")
        #expect(message { try $0.tryReconfigureItems([5]) } == "reconfigureItems(_:): item identifier 5 is not in the snapshot")
        #expect(message { try $0.tryInsertSections(["b"], beforeSection: "q") } == "insertSections(_:beforeSection:): section identifier \"q\" is not in the snapshot")
        #expect(message { try $0.tryInsertSections(["a"], afterSection: "a") } == "insertSections(_:afterSection:): section identifier \"a\" is already in the snapshot; section identifiers must be unique")
        #expect(message { try $0.tryDeleteSections(["q"]) } == "deleteSections(_:): section identifier \"q\" is not in the snapshot")
        #expect(message { try $0.tryMoveSection("a", afterSection: "a") } == "moveSection(_:afterSection:): section \"a\" cannot be moved relative to itself")
        #expect(message { try $0.tryMoveSection("q", beforeSection: "a") } == "moveSection(_:beforeSection:): section identifier \"q\" is not in the snapshot")
        #expect(message { try $0.tryReloadSections(["q"]) } == "reloadSections(_:): section identifier \"q\" is not in the snapshot")
    }

    @Test func validatingInitializerRefusesUserDataWithDuplicates() throws {
        let good = try Snapshot<String, Int>(validating: [("a", [1, 2]), ("b", [3])])
        #expect(good.itemIdentifiers == [1, 2, 3])
        #expect(throws: SnapshotError.duplicateItem(item: "2", operation: "appendItems(_:toSection:)", existing: "in the snapshot (section \"a\", index 1)")) {
            _ = try Snapshot<String, Int>(validating: [("a", [1, 2]), ("b", [2])])
        }
    }

    @Test func trappingMutationStopsWithTheSameMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var snapshot = Snapshot<String, Int>()
            snapshot.appendSections(["main"])
            snapshot.appendItems([7, 7])
        }
        let text = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(text.contains("appendItems(_:toSection:): item identifier 7 is already earlier in this call"))
    }
}
