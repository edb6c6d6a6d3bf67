import CellCanvas
import CoreKit
import RenderLoop
import TerminalFront

/// The hitch HUD under the grid, full width (so scrolled rows stay whole lines the terminal
/// can move): commit times against the deadline, the hitch ratio in its band's colour, and
/// what the pipeline is doing.
enum HUDPanel {
    static func draw(meter: HitchMeter, period: Duration, hertz: Double, output: (bytesInLastFrame: Int, coalesced: Int),
                     figures: GridView.Figures, theme: Theme, into canvas: inout Canvas) {
        let height = GridChrome.hudRows + 2
        let box = Rect(x: 0, y: canvas.rows - GridChrome.footerRows - height, width: canvas.columns, height: height)
        let panel = theme.panel
        canvas.fill(box, with: Cell(" ", style: panel))
        canvas.box(box, style: theme.panelBorder)
        // Counters only, and percentiles over the last second: never a sort of the whole run.
        // The ratio is summed from the meter's totals: read once, its band from it.
        let ratio = meter.hitchRatio, band = HitchBand(ratioMillisecondsPerSecond: ratio)
        let bandColor: Color = switch band { case .good: theme.good; case .warning: theme.warning; case .critical: theme.critical }
        let width = box.width - 4
        var x = box.x + 2
        // A late commit that only waited for a core (D-070) is the machine's, not the app's.
        let waited = meter.commitHitchesFromWaiting > 0 ? " (\(meter.commitHitchesFromWaiting) waited for a core)" : ""
        x += canvas.draw("hitches \(meter.commitHitches) commit\(waited) \(meter.terminalHitches) terminal  ", at: Point(x: x, y: box.y + 1), style: panel)
        x += canvas.draw("\(fixed(ratio, 2)) ms/s \(band.rawValue)", at: Point(x: x, y: box.y + 1),
                         style: CellStyle(foreground: bandColor, background: panel.background, bold: true))
        let recentP99 = meter.recentCommitPercentile(0.99, last: Int(hertz.rounded()))
        canvas.draw("  commit p99 (last second) \(fixed(recentP99.milliseconds, 2)) ms of \(fixed(period.milliseconds, 2)) ms  \(output.bytesInLastFrame) bytes/frame  \(output.coalesced) coalesced",
                    at: Point(x: x, y: box.y + 1), width: box.maxX - 2 - x, style: panel)
        CommitSparkline.draw(meter, width: width, period: period, at: Point(x: box.x + 2, y: box.y + 2),
                             background: panel.background, colors: (theme.good, theme.warning, theme.critical), into: &canvas)
        let cache = figures.cache, loads = figures.loads
        canvas.draw("cells prepared: in commit \(figures.cellsPreparedInCommit)  in idle time \(figures.cellsPreparedIdle)  live \(figures.liveCells)   prefetch batches \(figures.prefetchBatches)  cancels \(figures.cancelBatches)",
                    at: Point(x: box.x + 2, y: box.y + 3), width: width, style: panel)
        canvas.draw("cache \(cache.hits) hits  \(cache.misses) misses  \(cache.evictions) evicted  \(cache.bytes >> 10) KiB of \(figures.cacheLimit >> 20) MiB   downloads \(figures.pendingDownloads) pending  \(loads.prepared) prepared  \(loads.failed) failed (\(figures.photoRetries) asked again)",
                    at: Point(x: box.x + 2, y: box.y + 4), width: width, style: panel)
    }
}

/// Commit times of the latest frames as bars, full height at two deadlines: green under
/// half a deadline, yellow above, red for a commit hitch, magenta where the terminal had
/// not taken the frame before (a terminal hitch).
enum CommitSparkline {
    /// The eight block heights, as scalars: single-width, so a bar is one cell written
    /// directly (through `Canvas.draw`, each bar measured its text twice, every frame).
    static let levels: [UInt32] = "▁▂▃▄▅▆▇█".unicodeScalars.map(\.value)

    static func draw(_ meter: HitchMeter, width: Int, period: Duration, at origin: Point,
                     background: Color = .default, colors: (fast: Color, slow: Color, hitch: Color) = (.green, .yellow, .red),
                     into canvas: inout Canvas) {
        guard origin.y >= 0, origin.y < canvas.rows, origin.x >= 0 else { return }
        var offset = 0
        meter.forEachRecent(width) { record in
            defer { offset += 1 }
            let x = origin.x + offset
            guard x < canvas.columns else { return }
            let commit = record.commitDuration
            let fraction = min(commit / (period * 2), 1)
            let color: Color = record.isHitch ? colors.hitch : record.terminalBehind ? .magenta : (commit > period / 2 ? colors.slow : colors.fast)
            let level = levels[min(Int(fraction * Double(levels.count)), levels.count - 1)]
            canvas[x, origin.y] = Cell(scalar: level, style: CellStyle(foreground: color, background: background))
        }
    }
}
