import ArgumentParser
import CellCanvas
import CollectionKit
import DiffableData
import RenderLoop

/// How far ahead to prepare cells: a virtual-clock sweep (exact and repeatable) of the
/// prepared leading range against scroll speed, at 120 Hz with cells costing 1.2 frames.
struct RangeBench: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "ranges", abstract: "Prepared-range sweep on a virtual clock.")

    final class Driver: FrameDelegate {
        let view: CollectionView<Int, Int>
        let clock: VirtualClock
        var canvas = Canvas(columns: 40, rows: 30)
        init(view: CollectionView<Int, Int>, clock: VirtualClock) { self.view = view; self.clock = clock }
        func commit(_ frame: FrameInfo) {
            clock.advance(by: .microseconds(300))
            view.commit(at: frame.presentationTime, into: &canvas)
        }
    }

    func run() {
        let rate = RefreshRate.hz120
        print("Prepared leading range vs scroll speed (virtual clock; 120 Hz; 3-row cells costing 1.2 frames; 30-row viewport; 600 frames)")
        print("rows/frame  leading  hitches  in-commit  idle  peak-live")
        // Negative speed: a page down (a whole screen) every 60 frames instead of a steady scroll.
        for speed in [0.25, 0.5, 1.0, 2.0, -1] {
            for leading in [0.0, 0.5, 1.0, 2.0] {
                let clock = VirtualClock()
                let registration = CellRegistration<CollectionViewCell, Int> { _, _, _ in clock.advance(by: rate.period * 6 / 5) }
                let view = CollectionView<Int, Int>(layout: .list(itemHeight: 3), clock: clock) { view, path, item in
                    view.dequeueConfiguredReusableCell(using: registration, for: path, item: item)
                }
                view.ranges.preparedLeading = leading
                var snapshot = Snapshot<Int, Int>()
                snapshot.appendSections([0])
                snapshot.appendItems(Array(0..<100_000))
                view.reloadData(snapshot)
                view.setViewport(Rect(x: 0, y: 0, width: 40, height: 30))
                let scheduler = FrameScheduler(refreshRate: rate, clock: clock)
                scheduler.idleWork = view
                let driver = Driver(view: view, clock: clock)
                scheduler.run(frames: 30, driver)
                scheduler.resetMeter()
                let inCommitBefore = view.cellsPreparedInCommit, idleBefore = view.cellsPreparedIdle
                var peak = 0
                var owed = 0.0
                for frame in 0..<600 {
                    if speed < 0 {
                        if frame % 60 == 0 { view.scroll(byRows: 30, at: scheduler.nextTick) }
                        scheduler.runFrame(driver)
                        peak = max(peak, view.liveCellCount)
                        continue
                    }
                    owed += speed
                    let rows = owed.rounded(.down)
                    owed -= rows
                    if rows > 0 { view.scroll(byRows: rows, at: scheduler.nextTick) }
                    scheduler.runFrame(driver)
                    peak = max(peak, view.liveCellCount)
                }
                let report = scheduler.meter.report()
                print("\(pad(speed < 0 ? "page/0.5s" : Measure.format(speed, 2), 11)) \(pad(Measure.format(leading, 1), 8)) \(pad("\(report.hitches)", 8)) \(pad("\(view.cellsPreparedInCommit - inCommitBefore)", 10)) \(pad("\(view.cellsPreparedIdle - idleBefore)", 5)) \(peak)")
            }
        }
    }
}
