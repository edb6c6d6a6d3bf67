import CoreKit
import CellCanvas
import RenderLoop
import TerminalFront

/// The live terminal view of the frame scheduler: figures, a commit-time sparkline
/// against the deadline, and keys to change rate, prefetch and cell cost while it runs.
final class LiveSchedulerView: FrameDelegate, FrameOutput {
    let options: RunOptions
    let demo: SchedulerDemo
    private var terminal: (any TerminalBackend)?
    private var quit = false

    init(options: RunOptions) {
        self.options = options
        demo = SchedulerDemo(options: options)
    }

    func run() throws {
        let signals = TerminationSignals()
        let terminal: NcursesBackend
        do { terminal = try .start() } catch { throw AppError(description: error.description, status: 2) }
        self.terminal = terminal
        let end = options.duration.map { demo.clock.now + $0 }
        let stop = TerminalRunLoop.run(demo.scheduler, self, terminal: terminal, signals: signals) {
            quit || end.map { demo.clock.now >= $0 } ?? false
        }
        try TerminalLoop.checkTerminal(stop)
        try demo.summary(options: options).printAndTrace(records: demo.scheduler.meter.records)
        try TerminalLoop.checkSignal(stop)
    }

    /// Its frames go to the terminal (once it is started).
    var output: (any FrameOutput)? { self }

    func isOutputBehind(at tick: Duration) -> Bool { false }

    /// The frame the commit queued goes to the terminal right after it; between ticks the
    /// terminal is handed what it takes (D-039).
    func deliverCommittedFrame() { terminal?.deliverOutput() }

    func waitForTick(_ tick: Duration, on clock: any FrameClock) {
        terminal?.waitForOutput(until: tick) { clock.now }
        clock.sleep(until: tick)
    }

    func commit(_ frame: FrameInfo) {
        guard let terminal else { return }
        while let key = terminal.nextKey() { handle(key) }
        demo.workload.commit(frame)
        terminal.present(screen(frame, size: terminal.size))
    }

    private func handle(_ key: Key) {
        let scheduler = demo.scheduler
        switch key {
        case .character("q"), .character("Q"), .escape: quit = true
        case .character("p"): scheduler.isIdleWorkEnabled.toggle()
        case .character("r"):
            scheduler.changeRefreshRate(to: scheduler.upcomingRefreshRate == .hz60 ? .hz120 : .hz60)
            demo.restartWorkload(cellCost: demo.workload.cellCost)
        case .character("+"), .character("="), .up:
            demo.workload.cellCost = min(demo.workload.cellCost + .milliseconds(1), .seconds(1))
        case .character("-"), .down:
            demo.workload.cellCost = max(demo.workload.cellCost - .milliseconds(1), .zero)
        case .character("0"):
            scheduler.resetMeter()
        case .resize, .control(12):  // Ctrl-L redraws everything
            terminal?.invalidate()
        default: break
        }
    }

    /// Writes styled pieces one after another along a row.
    private struct Row {
        let y: Int
        var x = 0

        mutating func write(_ text: String, _ style: CellStyle = .plain, into canvas: inout Canvas) {
            x += canvas.draw(text, at: Point(x: x, y: y), style: style)
        }
    }

    private func screen(_ frame: FrameInfo, size: (rows: Int, columns: Int)) -> Canvas {
        let scheduler = demo.scheduler
        let period = frame.refreshRate.period
        let (rows, columns) = size
        var canvas = Canvas(columns: columns, rows: rows)
        guard rows >= 12, columns >= 60 else {
            canvas.draw("Terminal too small (\(columns)×\(rows)); need 60×12.", at: Point(x: 0, y: 0), style: CellStyle(foreground: .yellow, bold: true))
            return canvas
        }
        // Live counters and the last second's percentiles: a full report sorts every commit
        // of the run, which a long session cannot afford every frame.
        let meter = scheduler.meter
        let second = Int(frame.refreshRate.hertz.rounded())
        let bandColor: Color = switch meter.band { case .good: .green; case .warning: .yellow; case .critical: .red }
        let dim = CellStyle(dim: true)

        var title = Row(y: 0)
        title.write(" destinations ", CellStyle(bold: true, reverse: true), into: &canvas)
        title.write("  frame scheduler  ", into: &canvas)
        title.write("\(scheduler.refreshRate)", CellStyle(foreground: .cyan, bold: true), into: &canvas)
        title.write("   prefetch ", into: &canvas)
        title.write(scheduler.isIdleWorkEnabled ? "on" : "off", CellStyle(foreground: scheduler.isIdleWorkEnabled ? .green : .red, bold: true), into: &canvas)
        title.write("   cell cost \(fixed(demo.workload.cellCost.milliseconds, 1)) ms (\(fixed(demo.workload.cellCost / period, 2)) frames)", into: &canvas)

        var hitches = Row(y: 2)
        hitches.write(" frames \(meter.frames)   hitches \(meter.hitches)   hitch time \(fixed(meter.totalHitchTime.milliseconds, 1)) ms   ratio ", into: &canvas)
        hitches.write("\(fixed(meter.hitchRatio, 2)) ms/s \(meter.band.rawValue)", CellStyle(foreground: bandColor, bold: true), into: &canvas)

        func last(_ p: Double) -> String { fixed(meter.recentCommitPercentile(p, last: second).milliseconds, 2) }
        canvas.draw(" commit (last second)  p50 \(last(0.5))  p95 \(last(0.95))  p99 \(last(0.99))  max \(last(1)) ms   deadline \(fixed(period.milliseconds, 2)) ms", at: Point(x: 0, y: 3))
        canvas.draw(" cells   prepared in commit \(demo.workload.preparedInCommit)   in idle time \(demo.workload.preparedIdle)   idle jobs \(meter.idleJobs)   skipped ticks \(meter.skippedTicks)", at: Point(x: 0, y: 4))
        canvas.draw(" commit time per frame, newest right (full height = 2 deadlines; red = hitch)", at: Point(x: 0, y: 6), style: dim)

        CommitSparkline.draw(scheduler.meter, width: columns - 2, period: period, at: Point(x: 1, y: 7), into: &canvas)

        canvas.draw(" A steady scroll brings a new cell every 3 frames. Prefetch prepares it in idle time;", at: Point(x: 0, y: 9), style: dim)
        canvas.draw(" without it the cell is prepared inside the commit and, past the deadline, hitches.", at: Point(x: 0, y: 10), style: dim)
        canvas.draw(" q quit   p prefetch on/off   r 60/120 Hz   +/- cell cost 1 ms   0 reset counters", at: Point(x: 0, y: 12), style: CellStyle(reverse: true))
        return canvas
    }
}
