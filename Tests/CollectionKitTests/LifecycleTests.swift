import CellCanvas
import CollectionKit
import DiffableData
import RenderLoop
import Testing

final class TextCell: CollectionViewCell {
    var text = ""
    var reuses = 0
    override func prepareForReuse() { reuses += 1; text = "" }
    override func draw(in canvas: inout Canvas, frame: Rect, clip: Rect) {
        canvas.draw(text, at: Point(x: frame.x, y: frame.y), width: frame.width, clip: clip)
    }
}

final class PrefetchRecorder: CollectionViewPrefetching {
    var batches: [[Int]] = []
    var cancels: [[Int]] = []
    func prefetchItems(at indexPaths: [ItemPath]) { batches.append(indexPaths.map(\.item)) }
    func cancelPrefetching(at indexPaths: [ItemPath]) { cancels.append(indexPaths.map(\.item)) }
}

/// A list of `count` rows, 7 visible, like the UITableView of seed 003.
final class ListFixture {
    let clock = VirtualClock()
    let registration = CellRegistration<TextCell, Int> { cell, _, item in cell.text = "row \(item)" }
    let recorder = PrefetchRecorder()
    var view: CollectionView<Int, Int>!
    var canvas = Canvas(columns: 20, rows: 7)
    var time: Duration = .zero
    var configurations = 0

    init(count: Int = 100, cellCost: Duration = .zero, layout: any CollectionLayout = ListLayout(itemHeight: 1), rows: Int = 7) {
        canvas = Canvas(columns: 20, rows: rows)
        view = CollectionView(layout: layout, clock: clock) { [unowned self] view, path, item in
            configurations += 1
            clock.advance(by: cellCost)
            return view.dequeueConfiguredReusableCell(using: registration, for: path, item: item)
        }
        view.prefetchDataSource = recorder
        view.lifecycleLog = []
        var snapshot = Snapshot<Int, Int>()
        snapshot.appendSections([0])
        snapshot.appendItems(Array(0..<count))
        view.reloadData(snapshot)
        view.setViewport(Rect(x: 0, y: 0, width: 20, height: rows))
    }

    func frame(_ action: ((CollectionView<Int, Int>, Duration) -> Void)? = nil) {
        action?(view, time)
        time += .milliseconds(500)  // long enough for any step animation to finish
        view.commit(at: time, into: &canvas)
    }

    func events() -> [String] {
        defer { view.lifecycleLog = [] }
        return view.lifecycleLog!.map(\.description)
    }
}

@Suite struct Seed003LifecycleTests {
    @Test func firstLoadPreparesTheVisibleRowsThenOnePrefetchBatch() {
        let list = ListFixture()
        list.frame()
        let events = list.events()
        let expectedCells = (0..<7).map { "cellForItemAt \($0)" }
        #expect(events.filter { $0.hasPrefix("cellForItemAt") } == expectedCells)
        #expect(list.recorder.batches.count == 1)
        let batch = list.recorder.batches[0]
        #expect(batch.first == 7 && batch == Array(7..<(7 + batch.count)), "nearest first: \(batch)")
        #expect((10...11).contains(batch.count), "about 1.5 screens ahead: \(batch)")
        #expect(list.canvas.rowTexts.first == "row 0" + String(repeating: " ", count: 15))
    }

    @Test func slowScrollingPrefetchesOneRowAheadPerRow() {
        let list = ListFixture()
        list.frame()
        list.frame { view, t in view.scroll(byRows: 1, at: t) }  // the first scroll widens the range once
        list.recorder.batches.removeAll()
        _ = list.events()
        for step in 0..<5 {
            list.frame { view, t in view.scroll(byRows: 1, at: t) }
            let events = list.events()
            #expect(events.contains("cellForItemAt \(8 + step)"), "\(events)")
            #expect(list.recorder.batches.last?.count == 1, "one path per row: \(list.recorder.batches)")
        }
        #expect(list.recorder.batches.count == 5)
        let lasts = list.recorder.batches.map { $0[0] }
        #expect(lasts == Array(lasts[0]..<(lasts[0] + 5)), "consecutive rows at the far edge")
    }

    @Test func fastScrollingBatchesThePrefetches() {
        let list = ListFixture()
        list.frame()
        list.frame { view, t in view.scroll(byRows: 3, at: t) }
        list.recorder.batches.removeAll()
        for _ in 0..<4 { list.frame { view, t in view.scroll(byRows: 3, at: t) } }
        #expect(list.recorder.batches.count == 4)
        #expect(list.recorder.batches.allSatisfy { $0.count == 3 }, "\(list.recorder.batches)")
    }

    @Test func reversingCancelsFarPathsAndPrefetchesTheOtherWayNearestFirst() {
        let list = ListFixture()
        list.frame()
        for _ in 0..<10 { list.frame { view, t in view.scroll(byRows: 2, at: t) } }
        list.recorder.cancels.removeAll()
        list.recorder.batches.removeAll()
        list.frame { view, t in view.scroll(byRows: -1, at: t) }
        #expect(!list.recorder.cancels.isEmpty, "far paths ahead are cancelled")
        let cancelled = list.recorder.cancels.flatMap { $0 }
        #expect(cancelled.allSatisfy { $0 > 26 }, "only paths beyond the viewport's bottom: \(cancelled)")
        let batch = list.recorder.batches.last ?? []
        #expect(!batch.isEmpty && batch == batch.sorted(by: >), "upward, nearest first: \(batch)")
        #expect(batch.allSatisfy { $0 < 19 })
    }

    @Test func aCellRetainedBehindIsShownAgainWithoutReconfiguration() {
        let list = ListFixture()
        list.frame()
        list.frame { view, t in view.scroll(byRows: 2, at: t) }
        let configured = list.configurations
        list.frame { view, t in view.scroll(byRows: -2, at: t) }
        #expect(list.configurations == configured, "rows 0 and 1 waited, prepared, behind the viewport")
        #expect(list.events().contains("willDisplay 0"))
    }
}

@Suite struct ReuseTests {
    @Test func liveCellsStayBoundedAndNeverShowTwoItemsOverAMillionRows() {
        let list = ListFixture(count: 1_000_000, layout: GridLayout(minimumItemWidth: 5, itemHeight: 2, spacing: 0), rows: 10)
        list.view.lifecycleLog = nil
        list.frame()
        var maxLive = 0
        for _ in 0..<300 {
            list.frame { view, t in view.fling(speed: 2_000, at: t) }
            maxLive = max(maxLive, list.view.liveCellCount)
        }
        // Around the final position, every live cell is configured for its own item only.
        let top = Int(list.view.physics.offset) / 2 * 4
        var owners = Set<ObjectIdentifier>()
        for item in max(0, top - 200)..<min(1_000_000, top + 200) {
            guard let cell = list.view.cell(for: item) else { continue }
            #expect(cell.configuredItem == AnyHashable(item))
            #expect(owners.insert(ObjectIdentifier(cell)).inserted, "one cell for two items")
        }
        #expect(!owners.isEmpty)
        // 4 columns × 5 visible rows; prepared 1 screen ahead, retained ½ behind: ≤ 2.5 screens.
        #expect(maxLive <= 4 * 5 * 3, "live cells \(maxLive)")
        #expect(list.view.pooledCellCount > 0)
        #expect(list.configurations > 1000, "cells were configured again and again while flinging")
    }

    @Test func everyLiveCellShowsTheItemItWasConfiguredFor() {
        let list = ListFixture(count: 5_000)
        list.frame()
        for step in 0..<200 {
            list.frame { view, t in step % 37 < 30 ? view.scroll(byRows: 2, at: t) : view.scroll(byRows: -3, at: t) }
            for item in 0..<5_000 {
                guard let cell = list.view.cell(for: item) as? TextCell else { continue }
                #expect(cell.configuredItem == AnyHashable(item))
                #expect(cell.text == "row \(item)")
            }
        }
        #expect(list.view.pooledCellCount + list.view.liveCellCount < 60)
    }
}

/// The seeds' claim through the real scheduler, on a virtual clock: at 120 Hz a cell
/// that costs 1.2 frames hitches when it is prepared in the commit, not when prefetched.
@Suite struct CellPrefetchHitchTests {
    final class Driver: FrameDelegate {
        let list: ListFixture
        init(list: ListFixture) { self.list = list }
        func commit(_ frame: FrameInfo) {
            list.clock.advance(by: .microseconds(300))
            list.view.commit(at: frame.presentationTime, into: &list.canvas)
        }
    }

    func run(idleWork: Bool, preparedLeading: Double = 1) -> (HitchReport, CollectionView<Int, Int>) {
        let rate = RefreshRate.hz120
        let list = ListFixture(count: 10_000, cellCost: rate.period * 6 / 5, layout: .list(itemHeight: 3), rows: 12)
        list.view.lifecycleLog = nil
        list.view.ranges.preparedLeading = preparedLeading
        let scheduler = FrameScheduler(refreshRate: rate, clock: list.clock)
        scheduler.idleWork = list.view
        scheduler.isIdleWorkEnabled = idleWork
        let driver = Driver(list: list)
        scheduler.run(frames: 10, driver)  // first screen
        list.view.fling(speed: 0, at: list.clock.now)
        scheduler.resetMeter()
        // A steady scroll of one row every 3 frames (a new 3-row cell every 9 frames).
        for _ in 0..<200 {
            list.view.scroll(byRows: 1, at: scheduler.nextTick)
            scheduler.run(frames: 3, driver)
        }
        return (scheduler.meter.report(), list.view)
    }

    @Test func hitchesWithoutCellPrefetchNoneWithIt() {
        let (without, plain) = run(idleWork: false)
        let (with, prefetching) = run(idleWork: true)
        #expect(without.hitches > 20 && plain.cellsPreparedInCommit > 20)
        #expect(with.hitches == 0, "\(with.hitches) hitches with cell prefetch")
        #expect(prefetching.cellsPreparedIdle > 20)
    }

    /// Regression: with only the next row prepared, the cell idle work made just below the
    /// viewport was outside the kept range, retired, and made again every frame.
    @Test func theNextRowPreparedInIdleTimeIsKeptNotChurned() {
        let (report, view) = run(idleWork: true, preparedLeading: 0)
        #expect(report.hitches == 0)
        // 200 rows scrolled = about 67 new 3-row cells; each prepared once (plus the first screen's neighbours).
        #expect(view.cellsPreparedIdle < 80, "prepared \(view.cellsPreparedIdle) cells in idle time")
    }
}
