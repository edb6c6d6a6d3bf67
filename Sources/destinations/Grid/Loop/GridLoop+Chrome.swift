import CellCanvas
import RenderLoop

/// The facts the chrome needs gathered from the sources, and the chrome drawn from them
/// and the model.
extension GridLoop {
    func drawChrome(into canvas: inout Canvas, frame: FrameInfo) {
        let facts = GridChrome.HeaderFacts(refreshRate: frame.refreshRate, graphicsLabel: graphics.label, cellCost: options.cellCost,
                                           posts: postsText, skippedFiles: view.catalogue.skippedFiles.count,
                                           scenario: sources.scenario?.kind.rawValue)
        GridChrome.drawBars(model, facts, into: &canvas)
        if model.showsHUD {
            let output = terminal.outputStatistics
            HUDPanel.draw(meter: scheduler.meter, period: frame.refreshRate.period, hertz: frame.refreshRate.hertz,
                          output: (terminal.bytesInLastFrame, output.coalescedFrames), figures: view.figures, theme: view.theme, into: &canvas)
        }
        if model.showsHelp { HelpPanel.draw(theme: view.theme, into: &canvas) }
    }

    /// How many posts are shown, whether a query is still being computed, and what the
    /// feed and the outbox are doing.
    private var postsText: String {
        let text = postsAndStatus
        guard let personal = sources.personal?.status(at: clock.now) else { return text }
        return text + " · " + personal
    }

    private var postsAndStatus: String {
        let posts = view.posts
        let shown = posts.source.numberOfItems, total = posts.postCount
        if let feed = sources.feed {
            var status = feed.status(posts: total, now: clock.now)
            // Said while it holds: a saved `X` outlasts the run, and a warned post shown
            // looks like any other.
            if model.sensitive.showsAll { status += " · warned posts shown (X hides)" }
            return shown == total || posts.isQuerying ? status : "\(shown) shown of " + status
        }
        if !posts.catalogue.isComplete { return "\(total) photos so far, reading the folder…" }
        if posts.isQuerying {
            let doing = !posts.hasLoadedAll ? "loading" : model.filter.isEmpty ? "sorting" : "filtering"
            return "\(doing) \(total) posts…"
        }
        return shown == total ? "\(total) posts" : "\(shown) of \(total) posts"
    }
}
