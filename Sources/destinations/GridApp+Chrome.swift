import CellCanvas
import CoreKit
import RenderLoop

/// Header, footer, HUD and help: what surrounds the grid.
extension GridApp {
    /// The header, the footer, and the HUD, detail view and help when they are open.
    func drawChrome(into canvas: inout Canvas, frame: FrameInfo) {
        drawBars(into: &canvas, frame: frame)
        if screen.state.showsHUD { drawHUD(into: &canvas, frame: frame) }
        if let detail = screen.detail { detail.draw(into: &canvas, post: screen.catalogue.post(detail.id - 1), likes: screen.likes(of: detail.id),
                                                     isLiked: screen.isLiked(detail.id), theme: theme) }
        if screen.state.showsHelp { drawHelp(into: &canvas) }
    }

    /// How many posts are shown, and whether a query is still being computed.
    private var postsText: String {
        let text = postsAndStatus
        guard let personal = personal?.status(at: clock.now) else { return text }
        return text + " · " + personal
    }

    private var postsAndStatus: String {
        let shown = screen.source.numberOfItems, total = screen.postCount
        if let feed {
            let status = feed.status(posts: total, now: clock.now)
            return shown == total || screen.isQuerying ? status : "\(shown) shown of " + status
        }
        if !screen.catalogue.isComplete { return "\(total) photos so far, reading the folder…" }
        if screen.isQuerying {
            let doing = !screen.hasLoadedAll ? "loading" : screen.state.filter.isEmpty ? "sorting" : "filtering"
            return "\(doing) \(total) posts…"
        }
        return shown == total ? "\(total) posts" : "\(shown) of \(total) posts"
    }

    private func drawBars(into canvas: inout Canvas, frame: FrameInfo) {
        let bar = CellStyle(reverse: true)
        canvas.fill(Rect(x: 0, y: 0, width: canvas.columns, height: 1), with: Cell(" ", style: bar))
        let state = screen.state, skippedFiles = screen.catalogue.skippedFiles
        let skipped = skippedFiles.isEmpty ? "" : "  (\(skippedFiles.count) files skipped)"
        let cost = options.cellCost > .zero ? "  cell cost \(fixed(options.cellCost.milliseconds, 1)) ms" : ""
        let scenarioText = scenario.map { "  scenario \($0.kind.rawValue)" } ?? ""
        canvas.draw(" destinations  \(frame.refreshRate)  prefetch \(scheduler.isIdleWorkEnabled ? "on" : "off")  images \(state.imageMode.rawValue) as \(state.imageMode == .sync ? "symbols" : graphics.label)\(cost)  \(postsText)\(skipped)\(scenarioText)",
                    at: Point(x: 0, y: 0), style: bar)
        let footer = canvas.rows - 1
        canvas.fill(Rect(x: 0, y: footer, width: canvas.columns, height: 1), with: Cell(" ", style: bar))
        let hints = state.isEditingFilter ? " filter: \(state.filter)▏  Enter keep  Esc clear"
            : " arrows/hjkl select  Enter open  PgUp/PgDn page  J/K fling  / filter\(state.filter.isEmpty ? "" : " '\(state.filter)'")  s sort (\(state.sortOrder.rawValue))  L like  ? help  q quit"
        canvas.draw(hints, at: Point(x: 0, y: footer), style: bar)
    }

    /// Under the grid, full width (so scrolled rows stay whole lines the terminal can
    /// move): commit times against the deadline, the hitch ratio in its band's colour, and
    /// what the pipeline is doing.
    private func drawHUD(into canvas: inout Canvas, frame: FrameInfo) {
        let height = Self.hudRows + 2
        let box = Rect(x: 0, y: canvas.rows - Self.footerRows - height, width: canvas.columns, height: height)
        let panel = theme.panel
        canvas.fill(box, with: Cell(" ", style: panel))
        canvas.box(box, style: theme.panelBorder)
        // Counters only, and percentiles over the last second: never a sort of the whole run.
        let meter = scheduler.meter
        let period = frame.refreshRate.period
        let band: Color = switch meter.band { case .good: theme.good; case .warning: theme.warning; case .critical: theme.critical }
        let width = box.width - 4
        var x = box.x + 2
        // A late commit that only waited for a core (D-070) is the machine's, not the app's.
        let waited = meter.commitHitchesFromWaiting > 0 ? " (\(meter.commitHitchesFromWaiting) waited for a core)" : ""
        x += canvas.draw("hitches \(meter.commitHitches) commit\(waited) \(meter.terminalHitches) terminal  ", at: Point(x: x, y: box.y + 1), style: panel)
        x += canvas.draw("\(fixed(meter.hitchRatio, 2)) ms/s \(meter.band.rawValue)", at: Point(x: x, y: box.y + 1),
                         style: CellStyle(foreground: band, background: panel.background, bold: true))
        let recentP99 = meter.recentCommitPercentile(0.99, last: Int(frame.refreshRate.hertz.rounded()))
        canvas.draw("  commit p99 (last second) \(fixed(recentP99.milliseconds, 2)) ms of \(fixed(period.milliseconds, 2)) ms  \(terminal.bytesInLastFrame) bytes/frame  \(terminal.outputStatistics.coalescedFrames) coalesced",
                    at: Point(x: x, y: box.y + 1), width: box.maxX - 2 - x, style: panel)
        CommitSparkline.draw(scheduler.meter, width: width, period: period, at: Point(x: box.x + 2, y: box.y + 2),
                             background: panel.background, colors: (theme.good, theme.warning, theme.critical), into: &canvas)
        let store = screen.store, view = screen.view
        let cache = store.cacheCounters, loads = store.counters
        canvas.draw("cells prepared: in commit \(view.cellsPreparedInCommit)  in idle time \(view.cellsPreparedIdle)  live \(view.liveCellCount)   prefetch batches \(view.prefetchBatches)  cancels \(view.cancelBatches)",
                    at: Point(x: box.x + 2, y: box.y + 3), width: width, style: panel)
        canvas.draw("cache \(cache.hits) hits  \(cache.misses) misses  \(cache.evictions) evicted  \(cache.bytes >> 10) KiB of \(store.cacheLimit >> 20) MiB   downloads \(store.pendingCount) pending  \(loads.prepared) prepared  \(loads.failed) failed (\(store.retries) asked again)",
                    at: Point(x: box.x + 2, y: box.y + 4), width: width, style: panel)
    }

    static let helpLines: [(String, String)] = [
        ("arrows  h j k l", "move the selection"),
        ("PgDn  PgUp  Space", "page down / up"),
        ("J  K", "fling down / up (again: faster)"),
        ("Ctrl-E  Ctrl-Y  wheel", "scroll by rows"),
        ("g  G  Home  End", "top / bottom"),
        ("Enter", "open the post large (Esc back)"),
        ("/", "filter as you type (Enter keep, Esc clear)"),
        ("s", "sort: catalogue, title, region, likes"),
        ("L  +", "like the selected post, or take the like back"),
        ("p", "prefetch in idle frame time on / off"),
        ("r", "refresh rate 60 / 120 Hz"),
        ("i", "images async / sync (decode in the commit)"),
        ("H", "hitch HUD on / off"),
        ("Ctrl-L", "redraw"),
        ("q", "quit and print the summary"),
    ]

    private func drawHelp(into canvas: inout Canvas) {
        let width = min(canvas.columns - 2, 64), height = min(canvas.rows - 2, Self.helpLines.count + 4)
        let box = Rect(x: (canvas.columns - width) / 2, y: (canvas.rows - height) / 2, width: width, height: height)
        let panel = theme.help
        canvas.fill(box, with: Cell(" ", style: panel))
        canvas.box(box, style: theme.helpBorder)
        canvas.draw(" Keys ", at: Point(x: box.x + 2, y: box.y), style: theme.helpBorder)
        for (index, line) in Self.helpLines.prefix(height - 4).enumerated() {
            let y = box.y + 2 + index
            canvas.draw(line.0, at: Point(x: box.x + 2, y: y), width: 22, style: theme.helpKey)
            canvas.draw(line.1, at: Point(x: box.x + 25, y: y), width: width - 27, style: panel)
        }
        canvas.draw("any key closes", at: Point(x: box.x + 2, y: box.maxY - 2), style: theme.helpDim)
    }
}
