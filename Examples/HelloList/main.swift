// A million lines in a list, scrolled at 120 Hz, with the frame loop's hitch count on the
// last row. Keys: j/k or arrows, PageUp/PageDown, J to fling, g/G, q to quit.
import CellCanvas
import CollectionKit
import DiffableData
import RenderLoop
import TerminalFront

final class LineCell: CollectionViewCell {
    var text = ""
    override func draw(in canvas: inout Canvas, frame: Rect, clip: Rect) {
        canvas.draw(text, at: Point(x: frame.x + 1, y: frame.y), width: frame.width - 1, clip: clip)
    }
}

final class HelloList: TerminalFrameDelegate {
    let terminal: any TerminalBackend
    let scheduler = FrameScheduler(refreshRate: .hz120, clock: MonotonicClock())
    let lines = CellRegistration<LineCell, Int> { cell, _, number in cell.text = "Hello, line \(number + 1)" }
    lazy var view = CollectionView<Int, Int>(layout: .list(itemHeight: 1), clock: scheduler.clock) { [lines] view, path, item in
        view.dequeueConfiguredReusableCell(using: lines, for: path, item: item)
    }
    lazy var source = DiffableDataSource(collectionView: view)
    var done = false

    init(terminal: any TerminalBackend) {
        self.terminal = terminal
        var snapshot = Snapshot<Int, Int>()
        snapshot.appendSections([0])
        snapshot.appendItems(Array(0..<1_000_000))
        source.apply(snapshot, animatingDifferences: false)
        scheduler.idleWork = view  // cells for the next rows are prepared in idle frame time
        scheduler.keepsLaunchFrameApart = true  // the launch (a full paint) is reported apart
    }

    func commit(_ frame: FrameInfo) {
        let now = frame.presentationTime
        while let key = terminal.nextKey() {
            switch key {
            case .character("q"): done = true
            case .character("j"), .down: view.scroll(byRows: 1, at: now)
            case .character("k"), .up: view.scroll(byRows: -1, at: now)
            case .pageDown, .character(" "): view.scrollPage(1, at: now)
            case .pageUp: view.scrollPage(-1, at: now)
            case .character("J"): view.fling(speed: 400, at: now)
            case .character("g"): view.scrollToTop()
            case .character("G"): view.scrollToBottom()
            default: break
            }
        }
        let (rows, columns) = terminal.size
        var canvas = Canvas(columns: columns, rows: rows)
        if view.viewport != Rect(x: 0, y: 0, width: columns, height: rows - 1) { view.setViewport(Rect(x: 0, y: 0, width: columns, height: rows - 1)) }
        source.applyFinishedUpdates(at: now)  // what was applied since the last frame, once a frame
        view.commit(at: now, into: &canvas)
        let meter = scheduler.meter
        canvas.draw(" \(meter.frames) frames  hitches: \(meter.commitHitches) commit, \(meter.terminalHitches) terminal  (\(meter.band.rawValue))  q quits ", at: Point(x: 0, y: rows - 1), style: CellStyle(reverse: true))
        terminal.present(canvas)
    }
}

do {
    let terminal = try NcursesBackend.start()
    let app = HelloList(terminal: terminal)
    let stop = TerminalRunLoop.run(app.scheduler, app, terminal: terminal, signals: TerminationSignals()) { app.done }
    print("\(app.scheduler.meter.frames) frames, \(app.scheduler.meter.hitches) hitches (\(stop))")
} catch {
    print("hello-list: \(error)")
}
