import CellCanvas
@testable import CollectionKit
import DiffableData
import Foundation
import RenderLoop
import Testing

/// A list whose cells show `label(item)`, driven through a DiffableDataSource.
final class SourceFixture {
    let clock = VirtualClock()
    var labels: [Int: String] = [:]
    var view: CollectionView<Int, Int>!
    var source: DiffableDataSource<Int, Int>!
    var canvas = Canvas(columns: 16, rows: 6)
    var time: Duration = .zero
    var dequeues = 0
    var onConfigure: ((TextCell, Int) -> Void)?
    lazy var registration = CellRegistration<TextCell, Int> { [unowned self] cell, _, item in
        cell.text = labels[item] ?? "post \(item)"
        onConfigure?(cell, item)
    }

    init(items: [Int]) {
        view = CollectionView(layout: .list(itemHeight: 1), clock: clock) { [unowned self] view, path, item in
            dequeues += 1
            return view.dequeueConfiguredReusableCell(using: registration, for: path, item: item)
        }
        view.lifecycleLog = []
        view.setViewport(Rect(x: 0, y: 0, width: 16, height: 6))
        source = DiffableDataSource(collectionView: view)
        source.apply(Self.snapshot(items), animatingDifferences: false)
        frame()
    }

    static func snapshot(_ items: [Int]) -> Snapshot<Int, Int> {
        var snapshot = Snapshot<Int, Int>()
        snapshot.appendSections([0])
        snapshot.appendItems(items)
        return snapshot
    }

    func frame(advance: Duration = .milliseconds(16)) {
        time += advance
        source.applyFinishedUpdates(at: time)
        view.commit(at: time, into: &canvas)
    }

    var rows: [String] { canvas.rowTexts.map { $0.trimmingCharacters(in: .whitespaces) } }
}

@Suite struct DataSourceTests {
    @Test func reconfigureRunsTheHandlerOnTheSameCellAndReloadDequeues() {
        let fixture = SourceFixture(items: Array(0..<20))
        let cell = fixture.view.cell(for: 3) as! TextCell
        let dequeues = fixture.dequeues
        fixture.labels[3] = "Cusco (photo)"
        var snapshot = fixture.source.snapshot()
        snapshot.reconfigureItems([3])
        fixture.source.apply(snapshot)
        fixture.frame()
        #expect(fixture.view.cell(for: 3) === cell, "reconfigure keeps the cell")
        #expect(cell.text == "Cusco (photo)" && cell.reuses == 0)
        #expect(fixture.rows[3] == "Cusco (photo)")
        #expect(fixture.dequeues == dequeues + 1, "the provider ran once, on the existing cell")
        #expect(!fixture.view.lifecycleLog!.contains(.prepareForReuse))

        fixture.labels[4] = "Lucia (photo)"
        var reload = fixture.source.snapshot()
        reload.reloadItems([4])
        fixture.source.apply(reload)
        fixture.frame()
        #expect(fixture.view.lifecycleLog!.contains(.prepareForReuse), "reload dequeues from the pool")
        #expect(fixture.rows[4] == "Lucia (photo)")
    }

    /// The data source's own `reconfigureItems`: the same effect as a snapshot with the
    /// item marked, applied, without the snapshot copy and diff, and in order with applies.
    @Test func directReconfigureKeepsTheCellAndTheOrderOfUpdates() {
        let fixture = SourceFixture(items: Array(0..<20))
        let cell = fixture.view.cell(for: 3) as! TextCell
        fixture.labels[3] = "Cusco (photo)"
        fixture.source.reconfigureItems([3, 999])  // 999 is not in the data: ignored
        // An apply after it that moves 3 to the top: the reconfigure still lands on 3.
        fixture.source.apply(SourceFixture.snapshot([3] + Array(0..<3) + Array(4..<20)), animatingDifferences: false)
        fixture.frame()
        #expect(fixture.view.cell(for: 3) === cell && cell.reuses == 0)
        #expect(fixture.rows[0] == "Cusco (photo)")
        // An item without a live cell is configured when it gets one.
        fixture.labels[19] = "far away"
        fixture.source.reconfigureItems([19])
        fixture.frame()
        #expect(fixture.view.cell(for: 19) == nil)
        #expect(fixture.source.contains(19) && !fixture.source.contains(999))
    }

    /// Seeds 000/001: writing a download's result into the cell captured by the handler
    /// shows it on whatever post the cell shows by then; reconfiguring never does.
    @Test func theWrongAsyncUpdateShowsAnotherPostAndReconfigureDoesNot() {
        let wrong = SourceFixture(items: Array(0..<200))
        var downloads: [(item: Int, cell: TextCell)] = []
        wrong.onConfigure = { cell, item in downloads.append((item, cell)) }  // "start a download"
        var snapshot = wrong.source.snapshot()
        snapshot.reconfigureItems([0, 1, 2])
        wrong.source.apply(snapshot, animatingDifferences: false)
        wrong.frame()
        // Scroll until a cell captured by one of those downloads is on screen again,
        // reused for another post (which cell the pool hands out first is not fixed).
        var victim: (item: Int, cell: TextCell)?
        for _ in 0..<60 where victim == nil {
            wrong.view.scroll(byRows: 6, at: wrong.time)
            wrong.frame(advance: .milliseconds(400))
            victim = downloads.first { download in
                guard download.item < 3, let shown = download.cell.configuredItem as? Int else { return false }
                return shown != download.item && wrong.rows.contains("post \(shown)")
            }
        }
        guard let victim else {
            Issue.record("no captured cell came back on screen")
            return
        }
        // The download finishes now; the wrong way writes into the captured cell.
        victim.cell.text = "photo of \(victim.item)"
        wrong.frame()
        let misplaced = wrong.rows.filter { $0.hasPrefix("photo of") }
        #expect(misplaced == ["photo of \(victim.item)"], "post \(victim.cell.configuredItem!) shows post \(victim.item)'s photo: \(wrong.rows)")

        let right = SourceFixture(items: Array(0..<200))
        for _ in 0..<10 { right.view.scroll(byRows: 6, at: right.time); right.frame(advance: .milliseconds(400)) }
        for item in 0..<3 { right.labels[item] = "photo of \(item)" }  // completions update the model...
        var update = right.source.snapshot()
        update.reconfigureItems([0, 1, 2])                             // ...and reconfigure the items
        right.source.apply(update)
        right.frame()
        #expect(right.rows.allSatisfy { !$0.hasPrefix("photo of") }, "off-screen posts are not shown anywhere")
        right.view.scrollToTop()
        right.frame()
        #expect(Array(right.rows.prefix(3)) == ["photo of 0", "photo of 1", "photo of 2"])
    }

    @Test func deletedVisibleItemsEndDisplayAndReturnToThePool() {
        let fixture = SourceFixture(items: Array(0..<20))
        var snapshot = fixture.source.snapshot()
        snapshot.deleteItems([1, 2])
        fixture.source.apply(snapshot, animatingDifferences: false)
        fixture.frame()
        #expect(fixture.view.lifecycleLog!.contains(.didEndDisplaying(ItemPath(item: 1, section: 0))))
        #expect(fixture.rows.prefix(3) == ["post 0", "post 3", "post 4"])
        #expect(fixture.view.cell(for: 1) == nil)
    }

    @Test func deletingItemsAboveKeepsTheFirstVisibleItemInPlace() {
        let fixture = SourceFixture(items: Array(0..<50))
        fixture.view.scroll(byRows: 10, at: fixture.time)
        fixture.frame(advance: .milliseconds(400))
        #expect(fixture.rows.first == "post 10")
        var snapshot = fixture.source.snapshot()
        snapshot.deleteItems([2, 3, 4])
        fixture.source.apply(snapshot, animatingDifferences: false)
        fixture.frame()
        #expect(fixture.rows.first == "post 10")
    }

    @Test func animatedMovesGlideThenMatchTheUnanimatedResult() {
        let order = [5, 1, 2, 3, 4, 0] + Array(6..<20)
        let animated = SourceFixture(items: Array(0..<20))
        let plain = SourceFixture(items: Array(0..<20))
        plain.source.apply(SourceFixture.snapshot(order), animatingDifferences: false)
        plain.frame()
        animated.source.apply(SourceFixture.snapshot(order), animatingDifferences: true)
        animated.frame(advance: .milliseconds(60))
        #expect(animated.view.isAnimatingUpdate)
        #expect(animated.canvas != plain.canvas, "mid-glide the picture differs")
        #expect(!animated.rows.contains("post 5") || animated.rows.firstIndex(of: "post 5") != 0, "post 5 is on its way up")
        animated.frame(advance: .milliseconds(300))
        #expect(!animated.view.isAnimatingUpdate)
        #expect(animated.canvas == plain.canvas)
        #expect(animated.rows.first == "post 5")
    }

    @Test func insertedItemsFadeIn() {
        let fixture = SourceFixture(items: [1, 2, 3])
        fixture.source.apply(SourceFixture.snapshot([1, 9, 2, 3]))
        fixture.frame()
        fixture.frame(advance: .milliseconds(150))  // the rows below have glided out of the way
        #expect(fixture.rows[1] == "post 9")
        #expect(fixture.canvas[0, 1].style.dim && !fixture.canvas[0, 0].style.dim)
        fixture.frame(advance: .milliseconds(300))
        #expect(!fixture.canvas[0, 1].style.dim)
        #expect(fixture.rows.prefix(4) == ["post 1", "post 9", "post 2", "post 3"])
    }

    @Test func backgroundAppliesCommitInOrderOnTheMainThread() {
        let view = CollectionView<Int, Int>(layout: .list(itemHeight: 1), clock: VirtualClock()) { view, path, item in
            view.dequeueConfiguredReusableCell(using: CellRegistration<TextCell, Int> { cell, _, item in cell.text = "post \(item)" }, for: path, item: item)
        }
        view.setViewport(Rect(x: 0, y: 0, width: 10, height: 4))
        let source = DiffableDataSource(collectionView: view)
        for step in 1...5 { source.applyInBackground(SourceFixture.snapshot(Array((0..<10).map { $0 * step })), animatingDifferences: false) }
        let end = Date().addingTimeInterval(10)
        while source.hasBackgroundWork && Date() < end {
            var canvas = Canvas(columns: 10, rows: 4)
            source.applyFinishedUpdates(at: .zero)
            view.commit(at: .zero, into: &canvas)
            usleep(1000)
        }
        var canvas = Canvas(columns: 10, rows: 4)
        source.applyFinishedUpdates(at: .zero)
        view.commit(at: .zero, into: &canvas)
        #expect(view.snapshot.itemIdentifiers == (0..<10).map { $0 * 5 })
        #expect(canvas.rowTexts[1].hasPrefix("post 5"))
    }

    /// The selected cell's centre is the canvas's focus (a front draws pictures nearest it
    /// first, issue 46); with no selection on screen, there is none.
    @Test func theSelectedCellIsTheCanvasFocus() {
        let view = CollectionView<Int, Int>(layout: .list(itemHeight: 3), clock: VirtualClock()) { view, path, item in
            view.dequeueConfiguredReusableCell(using: CellRegistration<TextCell, Int> { cell, _, item in cell.text = "post \(item)" }, for: path, item: item)
        }
        view.setViewport(Rect(x: 2, y: 1, width: 10, height: 9))
        let source = DiffableDataSource(collectionView: view)
        source.apply(SourceFixture.snapshot(Array(0..<10)), animatingDifferences: false)
        var canvas = Canvas(columns: 12, rows: 10)
        source.applyFinishedUpdates(at: .zero)
        view.commit(at: .zero, into: &canvas, selection: 1)
        #expect(canvas.focus == Point(x: 7, y: 5), "item 1: rows 4-6 of the canvas, columns 2-11: \(canvas.rowTexts)")
        canvas.reset(columns: 12, rows: 10)
        view.commit(at: .zero, into: &canvas, selection: 8)
        #expect(canvas.focus == nil, "item 8 is below the viewport")
    }

    @Test func mixingMainThreadAndBackgroundAppliesIsRefused() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let view = CollectionView<Int, Int>(layout: .list(itemHeight: 1), clock: VirtualClock()) { _, _, _ in CollectionViewCell() }
            let source = DiffableDataSource(collectionView: view)
            source.apply(SourceFixture.snapshot([1]))
            source.applyInBackground(SourceFixture.snapshot([2]))
        }
        let text = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(text.contains("has been applied from the main thread; always apply the same way"))
    }
}
