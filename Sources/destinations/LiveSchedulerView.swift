#if canImport(Glibc)
import Glibc
#endif
import RenderLoop
import TerminalFront


/// The live terminal view of the frame scheduler: figures, a commit-time sparkline
/// against the deadline, and keys to change rate, prefetch and cell cost while it runs.
final class LiveSchedulerView: FrameDelegate {
    let options: RunOptions
    let demo: SchedulerDemo
    let terminal = TerminalSession()
    private var quit = false

    init(options: RunOptions) {
        self.options = options
        demo = SchedulerDemo(options: options)
    }

    func run() throws {
        let signals = TerminationSignals()
        do { try terminal.start() } catch { throw AppError(description: error.description, status: 2) }
        let end = options.duration.map { demo.clock.now + $0 }
        var hungUp = false
        demo.scheduler.run(self) {
            if demo.scheduler.meter.frames % 16 == 0 && terminal.isHungUp { hungUp = true }
            return !quit && !hungUp && signals.signal == nil && end.map { demo.clock.now < $0 } ?? true
        }
        terminal.end()
        if hungUp { throw AppError(description: "the terminal went away", status: 128 + SIGHUP) }
        try demo.summary(options: options).printAndTrace(records: demo.scheduler.meter.records)
        if let signal = signals.signal { throw AppError(description: "stopped by signal \(signal)", status: 128 + signal) }
    }

    func commit(_ frame: FrameInfo) {
        while let key = terminal.nextKey() { handle(key) }
        demo.workload.commit(frame)
        terminal.draw(screen(frame))
    }

    private func handle(_ key: Key) {
        let scheduler = demo.scheduler
        switch key {
        case .character("q"), .character("Q"), .escape: quit = true
        case .character("p"): scheduler.isIdleWorkEnabled.toggle()
        case .character("r"):
            scheduler.changeRefreshRate(to: scheduler.refreshRate == .hz60 ? .hz120 : .hz60)
            demo.restartWorkload(cellCost: demo.workload.cellCost)
        case .character("+"), .character("="), .up:
            demo.workload.cellCost = min(demo.workload.cellCost + .milliseconds(1), .seconds(1))
        case .character("-"), .down:
            demo.workload.cellCost = max(demo.workload.cellCost - .milliseconds(1), .zero)
        case .character("0"):
            scheduler.resetMeter()
        default: break
        }
    }

    private func screen(_ frame: FrameInfo) -> [StyledLine] {
        let scheduler = demo.scheduler
        let meter = scheduler.meter
        let period = frame.refreshRate.period
        let (rows, columns) = terminal.size
        guard rows >= 12, columns >= 60 else {
            return [StyledLine("Terminal too small (\(columns)×\(rows)); need 60×12.", TextStyle(color: .yellow, bold: true))]
        }
        let report = meter.report()
        let bandColor: TerminalColor = switch report.band { case .good: .green; case .warning: .yellow; case .critical: .red }

        var title = StyledLine(" destinations ", TextStyle(bold: true, reverse: true))
        title.append("  frame scheduler  ")
        title.append("\(scheduler.refreshRate)", TextStyle(color: .cyan, bold: true))
        title.append("   prefetch ")
        title.append(scheduler.isIdleWorkEnabled ? "on" : "off", TextStyle(color: scheduler.isIdleWorkEnabled ? .green : .red, bold: true))
        title.append("   cell cost \(fixed(demo.workload.cellCost.milliseconds, 1)) ms (\(fixed(demo.workload.cellCost / period, 2)) frames)")

        var hitchLine = StyledLine(" frames \(report.frames)   hitches \(report.hitches)   hitch time \(fixed(report.totalHitchTime.milliseconds, 1)) ms   ratio ")
        hitchLine.append("\(fixed(report.hitchRatio, 2)) ms/s \(report.band.rawValue)", TextStyle(color: bandColor, bold: true))

        let sparkWidth = columns - 2
        let recent = meter.records.suffix(sparkWidth)
        var spark = StyledLine(" ")
        let levels = Array("▁▂▃▄▅▆▇█")
        for record in recent {
            let fraction = min(record.commitDuration / (period * 2), 1)
            let glyph = String(levels[min(Int(fraction * Double(levels.count)), levels.count - 1)])
            spark.append(glyph, TextStyle(color: record.isHitch ? .red : (record.commitDuration > period / 2 ? .yellow : .green)))
        }

        return [
            title,
            StyledLine(),
            hitchLine,
            StyledLine(" commit  p50 \(fixed(report.commitP50.milliseconds, 2))  p95 \(fixed(report.commitP95.milliseconds, 2))  p99 \(fixed(report.commitP99.milliseconds, 2))  max \(fixed(report.commitMax.milliseconds, 2)) ms   deadline \(fixed(period.milliseconds, 2)) ms"),
            StyledLine(" cells   prepared in commit \(demo.workload.preparedInCommit)   in idle time \(demo.workload.preparedIdle)   idle jobs \(report.idleJobs)   skipped ticks \(report.skippedTicks)"),
            StyledLine(),
            StyledLine(" commit time per frame, newest right (full height = 2 deadlines; red = hitch)", TextStyle(dim: true)),
            spark,
            StyledLine(),
            StyledLine(" A steady scroll brings a new cell every 3 frames. Prefetch prepares it in idle time;", TextStyle(dim: true)),
            StyledLine(" without it the cell is prepared inside the commit and, past the deadline, hitches.", TextStyle(dim: true)),
            StyledLine(),
            StyledLine(" q quit   p prefetch on/off   r 60/120 Hz   +/- cell cost 1 ms   0 reset counters", TextStyle(reverse: true)),
        ]
    }
}

extension LiveSchedulerView {
    var catchUpWorkInLastCommit: Duration { demo.workload.catchUpWorkInLastCommit }
}
