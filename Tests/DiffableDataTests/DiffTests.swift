import CoreKit
import DiffableData
import Testing
import TestSupport

@Suite struct DiffTests {
    typealias Snap = Snapshot<String, String>

    func snapshot(_ sections: [(String, [String])]) -> Snap {
        try! Snap(validating: sections)
    }

    @Test func handCaseListsEveryKindOfChangeInApplyOrder() {
        let old = snapshot([("a", ["1", "2", "3", "4"]), ("b", ["5", "6"]), ("c", ["7"])])
        var new = snapshot([("b", ["6", "5", "2"]), ("a", ["1", "4", "3", "8"]), ("d", ["9"])])
        new.reconfigureItems(["2", "4"])
        new.reloadItems(["8", "1"])  // 8 is inserted: its reload mark is dropped
        let changes = old.changeset(to: new)
        #expect(changes.sectionDeletes.map(\.section) == ["c"])
        #expect(changes.sectionInserts == [.init(section: "d", index: 2)])
        #expect(changes.sectionMoves.count == 1)
        #expect(changes.itemDeletes.map(\.item) == ["7"])
        #expect(changes.itemInserts.map(\.item) == ["8", "9"])
        // 2 changes section; in a, 1,4,3 keep 1 and one of 3/4; in b, one of 5/6.
        #expect(changes.itemMoves.count == 3)
        #expect(changes.itemMoves.contains { $0.item == "2" && $0.from == ItemPath(item: 1, section: 0) && $0.to == ItemPath(item: 2, section: 0) })
        #expect(changes.itemReconfigures.map(\.item) == ["2", "4"])
        #expect(changes.itemReloads.map(\.item) == ["1"])
        #expect(ChangesetChecker.problems(old: old, new: new, changeset: changes).isEmpty)
    }

    @Test func identicalSnapshotsGiveAnEmptyChangeset() {
        let old = snapshot([("a", ["1", "2"])])
        #expect(old.changeset(to: old).isEmpty)
        var marked = old
        marked.reconfigureItems(["2"])
        let changes = old.changeset(to: marked)
        #expect(!changes.hasStructuralChanges)
        #expect(changes.itemReconfigures == [.init(item: "2", from: ItemPath(item: 1, section: 0), to: ItemPath(item: 1, section: 0))])
    }

    @Test func movedAndUpdatedItemsKeepOrReplaceTheirRowCorrectly() {
        struct Row: Equatable { var id: String; var content: String; var generation: Int; var configured: Int }
        let old = snapshot([("a", ["1", "2", "3", "4"])])
        var new = snapshot([("a", ["4", "2", "1", "3"])])
        new.reconfigureItems(["4"])   // moved + reconfigured: same row, configured again
        new.reloadItems(["1"])        // moved + reloaded: a fresh row
        let changes = old.changeset(to: new)
        let result = changes.apply(
            sections: ["a"], rows: [old.itemIdentifiers.map { Row(id: $0, content: "old \($0)", generation: 0, configured: 1) }],
            rowID: \.id,
            makeRow: { Row(id: $0, content: "new \($0)", generation: 1, configured: 1) },
            reload: { id, _ in Row(id: id, content: "new \(id)", generation: 1, configured: 1) },
            reconfigure: { id, row in row.content = "new \(id)"; row.configured += 1 }
        )
        #expect(result.rows[0].map(\.id) == ["4", "2", "1", "3"])
        #expect(result.rows[0][0] == Row(id: "4", content: "new 4", generation: 0, configured: 2))
        #expect(result.rows[0][2] == Row(id: "1", content: "new 1", generation: 1, configured: 1))
        #expect(result.rows[0][1].content == "old 2" && result.rows[0][3].content == "old 3")
    }

    @Test func sectionReloadReplacesEveryRowOfThatSection() {
        let old = snapshot([("a", ["1"]), ("b", ["2", "3"])])
        var new = old
        new.reloadSections(["b"])
        let changes = old.changeset(to: new)
        #expect(changes.sectionReloads == [.init(section: "b", from: 1, to: 1)])
        let result = changes.apply(sections: ["a", "b"], rows: [["1"], ["2", "3"]], rowID: { $0 }, makeRow: { $0 },
                                   reload: { id, _ in id + "*" }, reconfigure: { _, _ in })
        #expect(result.rows == [["1"], ["2*", "3*"]])
    }

    // MARK: Seed 002's demos

    @Test func searchFilteringIsDeletesAndInsertsWithoutMoves() {
        let mountains = ["Aconcagua", "Annapurna", "Denali", "Elbrus", "Everest", "K2", "Kangchenjunga", "Kilimanjaro", "Lhotse", "Makalu", "Matterhorn", "Mont Blanc"]
        func filtered(_ query: String) -> Snapshot<Int, String> {
            var snapshot = Snapshot<Int, String>()
            snapshot.appendSections([0])
            snapshot.appendItems(mountains.filter { query.isEmpty || $0.lowercased().contains(query) })
            return snapshot
        }
        var current = filtered("")
        for query in ["m", "ma", "mat", "ma", "m", "", "k", "ka", "kan"] {
            let next = filtered(query)
            let changes = current.changeset(to: next)
            #expect(changes.itemMoves.isEmpty, "filtering keeps order: '\(query)'")
            #expect(ChangesetChecker.problems(old: current, new: next, changeset: changes).isEmpty)
            current = next
        }
        #expect(current.itemIdentifiers == ["Kangchenjunga"])
    }

    @Test func toggleCollapsesAndExpandsASection() {
        enum Setting: Hashable, Sendable { case wifiSwitch, network(String) }
        enum Group: Hashable, Sendable { case config, networks }
        func settings(wifiOn: Bool) -> Snapshot<Group, Setting> {
            var snapshot = Snapshot<Group, Setting>()
            snapshot.appendSections([.config])
            snapshot.appendItems([.wifiSwitch])
            if wifiOn {
                snapshot.appendSections([.networks])
                snapshot.appendItems(["Home", "Cafe", "Airport"].map(Setting.network))
            }
            return snapshot
        }
        let on = settings(wifiOn: true)
        let off = settings(wifiOn: false)
        let collapse = on.changeset(to: off)
        #expect(collapse.sectionDeletes.map(\.section) == [.networks])
        #expect(collapse.itemDeletes.count == 3)
        #expect(ChangesetChecker.problems(old: on, new: off, changeset: collapse).isEmpty)
        let expand = off.changeset(to: on)
        #expect(expand.sectionInserts.map(\.section) == [.networks])
        #expect(expand.itemInserts.count == 3)
        #expect(ChangesetChecker.problems(old: off, new: on, changeset: expand).isEmpty)
    }

    @Test func insertionSortStepByStepMovesOneItemPerStep() {
        var rng = SplitMix64(seed: 2019)
        var current = Snapshot<Int, Int>()
        current.appendSections([0])
        current.appendItems(Array(0..<24).shuffled(using: &rng))
        var steps = 0
        // Insertion sort on the current snapshot: take the next item, move it before the
        // first sorted item larger than it.
        for index in 1..<24 {
            let items = current.itemIdentifiers
            let value = items[index]
            guard let target = items[..<index].first(where: { $0 > value }) else { continue }
            var next = current
            next.moveItem(value, beforeItem: target)
            let changes = current.changeset(to: next)
            #expect(changes.itemMoves.count == 1)
            #expect(changes.itemInserts.isEmpty && changes.itemDeletes.isEmpty)
            #expect(ChangesetChecker.problems(old: current, new: next, changeset: changes).isEmpty)
            current = next
            steps += 1
        }
        #expect(current.itemIdentifiers == Array(0..<24))
        #expect(steps > 10)
    }

    @Test func arrayDiffFastPathsAndApply() {
        let source = Array(0..<1000)
        #expect(ArrayDiff(from: source, to: source).isEmpty)
        let reversed = Array(source.reversed())
        let diff = ArrayDiff(from: source, to: reversed)
        #expect(diff.moves.count == 999)
        #expect(diff.apply(to: source) == reversed)
        let edited = [-1] + source[0..<10] + source[500...] + [1000]
        let editDiff = ArrayDiff(from: source, to: Array(edited))
        #expect(editDiff.deletes.count == 490 && editDiff.inserts == [0, 511] && editDiff.moves.isEmpty)
        #expect(editDiff.apply(to: source) == Array(edited))
    }
}
