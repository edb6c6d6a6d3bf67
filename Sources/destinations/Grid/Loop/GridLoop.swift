import CellCanvas
import CollectionKit
import CoreKit
import DestinationsModel
import FeedClient
import ImagePipeline
import RenderLoop
import TerminalFront

/// The destinations grid's frame loop, and only that: the frame delegate. Each frame it
/// drains what the world sent (thumbnails and a folder's or a feed's posts go to the view;
/// the outbox's rollbacks, the saved place and the feed's end become events), turns keys
/// into events, runs them through ``GridModel/update(_:in:)``,
/// has the effects carried out (`GridLoop+Effects`), commits the ``GridView`` and the
/// chrome into a kept canvas and presents it. The same object runs a person's session in
/// a terminal and a scripted scenario headless; it sleeps while nothing would change
/// (`GridLoop+Quiet`).
final class GridLoop: TerminalFrameDelegate {
    let options: GridOptions
    let terminal: any TerminalBackend
    let clock: any FrameClock
    let scheduler: FrameScheduler
    /// The app's state: changed only by ``send(_:at:)``.
    private(set) var model: GridModel
    /// The grid as drawn.
    let view: GridView
    /// What feeds the grid besides keys: a feed, a folder being read, what lasts, a scenario.
    var sources: GridSources
    var measure: RunMeasure
    /// Ends a quiet wait: workers post through it, signals ring it.
    let wake: WakeSignal
    /// Symbols or pixel images, and why (the header says).
    let graphics: GraphicsChoice
    /// What this frame has seen happen: the next frame is needed; a relayout is due.
    var flags = FrameFlags()
    /// The frame being drawn, kept and reset every frame (no allocation in the steady state).
    private var canvas = Canvas(columns: 0, rows: 0)

    /// A key, a delivery, a resize or a wake-up since the last quiet check: draw again. A
    /// resize asks for one layout, after the frame's keys, at the terminal's last size,
    /// however many resizes a window drag sent (issue 28).
    struct FrameFlags {
        var somethingHappened = true
        var needsRelayout = false
    }

    /// How thumbnails are prepared.
    enum ImageLoading {
        /// Worker threads behind the simulated network: the app.
        case workers
        /// No threads: request *n* completes after the simulated network's delay for *n*,
        /// measured on `clock`, prepared by `prepare`; queries run inline. With a
        /// ``VirtualClock`` a whole run is exact and repeatable (tests, simulations).
        case scripted(prepare: (PreparedImageKey) -> Result<CellImage, ImageError>)
    }

    /// A grid on `terminal`, its frames timed by `clock`; the first frame is drawn by the
    /// first `scheduler.runFrame`. `environment` is what the launch read (nothing, for tests).
    init(options: GridOptions, loaded: LoadedCatalogue, terminal: any TerminalBackend,
         clock: any FrameClock, images: ImageLoading = .workers, showsHUD: Bool = true, wake: WakeSignal = WakeSignal(),
         environment: LaunchEnvironment = LaunchEnvironment(), personal: PersonalState? = nil) {
        self.options = options
        self.wake = wake
        self.terminal = terminal
        self.clock = clock
        scheduler = FrameScheduler(refreshRate: options.refreshRate, clock: clock,
                                   tracedFrameLimit: options.traceFrames ? HitchMeter.defaultRetainedRecordLimit : 0)
        scheduler.keepsLaunchFrameApart = true
        graphics = GraphicsChoice.resolve(options.graphics ?? environment.graphics ?? .auto, probed: terminal.probed,
                                          capability: terminal.capability, size: terminal.size,
                                          insideTmux: environment.insideTmux, headless: terminal.isHeadless,
                                          terminalProgram: environment.terminalProgram)
        if graphics.output.drawsPixelCells { terminal.enablePixelImages() }
        let store = GridLaunch.assetStore(options: options, images: images, clock: clock, wake: wake,
                                          colorMode: GridLaunch.colorMode(for: terminal.capability), output: graphics.output, feed: loaded.feed)
        model = GridModel(showsHUD: showsHUD, imageMode: options.images, prefetch: options.prefetch, refreshRate: options.refreshRate,
                          showsSensitive: options.showsSensitive)
        let execution: BackgroundExecution = if case .scripted = images { .inline } else { .serialQueue }
        view = GridView(model: model, catalogue: loaded.catalogue, postCount: loaded.posts, store: store, clock: clock,
                        theme: Theme.resolve(options.theme, background: terminal.probed.background), cellCost: options.cellCost,
                        execution: execution)
        let scenario = options.scenario.map { ScenarioDriver(kind: $0, seed: options.seed, words: GridLaunch.searchWords(from: loaded.catalogue)) }
        sources = GridSources(feed: loaded.feed, photoScan: loaded.scan, personal: personal, scenario: scenario)
        measure = RunMeasure(duration: options.duration, startedAt: clock.now)
        if options.traceLifecycle { view.traceLifecycle() }
        scheduler.idleWork = view.idleWork
        scheduler.isIdleWorkEnabled = options.prefetch
        if let first = loaded.feed?.takeFirstPage() {
            view.addPlaceholders(first.placeholders)
            applySavedLikes(to: 1..<(view.posts.postCount + 1), pageFetchedAt: first.fetchedAt)
        }
        restoreSaved()
        relayout()
    }

    /// Runs `event` through the model, hands the view the new model, and carries out the
    /// effects: the one way the app's state changes.
    func send(_ event: GridEvent, at time: Duration) {
        let effects = model.update(event, in: view.contents)
        view.show(model)
        for effect in effects { perform(effect, at: time) }
    }

    /// Whether the run is over: `q`, or the scenario's duration has passed.
    var isDone: Bool { model.quit || runEnd.map { clock.now >= $0 } ?? false }

    /// When the run ends: its duration after the start; for `--scenario idle`, after the
    /// first screen is complete (the idle time measured is the duration asked for, however
    /// long the thumbnails took on a loaded machine), or 20 s past the duration if it never
    /// completes.
    var runEnd: Duration? {
        guard let duration = options.duration else { return nil }
        guard sources.scenario?.kind == .idle else { return measure.startedAt + duration }
        return measure.idleMeasurement.map { $0.startedAt + duration } ?? measure.startedAt + duration + .seconds(20)
    }

    /// Runs until `q`, the duration, a signal or a hang-up; the terminal is restored
    /// before it returns.
    func run(signals: TerminationSignals) -> (stop: TerminalRunLoop.Stop, report: GridReport) {
        let stop = TerminalRunLoop.run(scheduler, self, terminal: terminal, signals: signals, beforeEnd: {
            measureFullPaint()
            // The terminal keeps kitty images until told: it is told, on the way out.
            if graphics.output.isKitty { terminal.sendGraphics(KittyGraphics.deletionOfAll) }
        }) { isDone }
        sources.photoScan?.stop()
        sources.personal?.finish(place: model.seeking.place == nil ? currentPlace : nil)
        let report = makeReport()
        sources.feed?.end()
        return (stop, report)
    }

    /// Runs frames until `q` or the duration (on any clock; a test's is virtual), then
    /// measures the full paint and reports. The terminal is left to the caller.
    func runToEnd() -> GridReport {
        precondition(options.duration != nil, "runToEnd needs a duration")
        scheduler.run(self) { !isDone }
        measureFullPaint()
        return makeReport()
    }

    private func measureFullPaint() {
        guard canvas.rows > 0 else { return }
        measure.fullPaintBytesPerRow = Double(terminal.measureFullPaint(canvas)) / Double(canvas.rows)
    }

    /// Lays the grid out for the terminal's size and the HUD.
    func relayout() {
        measure.relayouts += 1
        let (rows, columns) = terminal.size
        view.setViewport(GridChrome.gridArea(rows: rows, columns: columns, showsHUD: model.showsHUD))
        terminal.invalidate()
    }

    // MARK: Frames

    func drainMailbox(for frame: FrameInfo) {
        // Whether the next frame is needed is decided by what happens from here on (a
        // delivery, a key, a scripted key; see GridLoop+Quiet).
        flags.somethingHappened = false
        if view.deliverImages(limit: deliveryLimit(for: frame), to: terminal, hertz: frame.refreshRate.hertz) { flags.somethingHappened = true }
        if view.retryInterruptedImages(now: clock.now) { flags.somethingHappened = true }
        drainSources(at: clock.now)
    }

    /// How many image completions this frame can take: each reconfigures a cell inside
    /// the commit, so what fits before the deadline at the measured configure cost, with
    /// half a frame kept for the rest of the commit. A frame that starts on time takes at
    /// least one (so images always keep arriving); one that starts late (idle work ran
    /// past the tick, as the scheduler allows when the next commit looks cheap) takes
    /// only what fits, possibly none: a delivery there would make the cheap commit long.
    private func deliveryLimit(for frame: FrameInfo) -> Int {
        guard let cost = view.configureCost.estimate, cost > .zero else { return .max }
        let period = frame.refreshRate.period
        let budget = frame.deadline - clock.now - period / 2
        let fits = budget > .zero ? Int(budget / cost) : 0
        let startedOnTime = clock.now - frame.tick < period / 4
        return max(startedOnTime ? 1 : 0, fits)
    }

    /// Measured when the frame really starts (a frame may start after its tick).
    func isOutputBehind(at tick: Duration) -> Bool { terminal.observeOutput(at: clock.now) }

    /// After the commit: the frame goes to the terminal (``TerminalFrameDelegate``'s part),
    /// then the transfers its cells asked for start, best first, so that the threads they
    /// wake cannot take the frame loop's core mid-commit (D-055). While the terminal has not
    /// read or parsed all of it, and a little after, the decoders leave it a core (D-083).
    func deliverCommittedFrame() {
        terminal.deliverOutput()
        let busy = terminal.isOutputBehind
        if busy { measure.stats.terminalBusyFrames += 1 }
        view.startQueuedImageWork(terminalBusy: busy)
    }

    /// Drain → events → update → apply → commit: keys (and a scenario's) become events, the
    /// finished queries are handed to the view once, the view commits with the model, the
    /// chrome is drawn from the model, and the frame is presented.
    func commit(_ frame: FrameInfo) {
        let time = frame.presentationTime
        measure.lastFrameTick = frame.tick
        measure.noteSettled(at: time, outputBehind: terminal.isOutputBehind)
        view.noteDetailProgress { path in sources.feed?.loader?.progress(of: path) }
        readKeys(at: time)
        if flags.needsRelayout {
            flags.needsRelayout = false
            relayout()
        }
        noteIdleScenario()
        let (rows, columns) = terminal.size
        // Drawn in a local that owns the kept storage (swapped out and back), so nothing
        // else refers to it while it is mutated: no copy on write, no allocation.
        var canvas = Canvas(columns: 0, rows: 0)
        swap(&canvas, &self.canvas)
        defer { swap(&canvas, &self.canvas) }
        canvas.reset(columns: columns, rows: rows)
        guard GridChrome.fits(rows: rows, columns: columns) else {
            GridChrome.drawTooSmall(into: &canvas)
            terminal.present(canvas)
            return
        }
        let topBefore = view.topRow
        if !measure.filterKeysWaiting.isEmpty && view.posts.isQuerying {
            // A filter key this frame: a small query finishes in well under a millisecond, so
            // wait for it (half the frame at most) and show its result in this frame,
            // not the next (keystroke to result: two frames at 120 Hz before, issue 23).
            view.waitForQuery(timeout: frame.refreshRate.period / 2)
        }
        if view.takeFinishedUpdates(at: time) { send(.postsShownChanged, at: time) }
        if !measure.filterKeysWaiting.isEmpty && !view.posts.isQuerying { measure.filterShown(at: time) }
        view.commit(at: time, into: &canvas)
        drawChrome(into: &canvas, frame: frame)
        view.handImages(to: terminal)
        let moved = view.topRow - topBefore
        terminal.pixelBytesPerFrame = terminal.optionalBytesPerFrame(hertz: frame.refreshRate.hertz, ceiling: graphics.pixelBytesPerSecond)
        terminal.isScrolling = view.isMoving
        terminal.present(canvas, scrolled: moved == 0 ? nil : (view.viewportRows, moved))
        noteFrame(at: time, scrolledRows: abs(moved))
        if measure.stats.frames == 2, let signal = TerminalSession.requestedCrash { TerminalSession.crash(with: signal) }
    }

    /// The person's keys, then a scenario's, as events.
    private func readKeys(at time: Duration) {
        while let key = terminal.nextKey() { press(key, at: time) }
        guard var driver = sources.scenario else { return }
        let keys = driver.keys(at: time - measure.startedAt, atTop: view.isAtTop, atBottom: view.isAtBottom)
        sources.scenario = driver
        for key in keys { press(key, at: time) }
    }

    private func press(_ key: Key, at time: Duration) {
        flags.somethingHappened = true
        let filter = model.filter, readAt = clock.now  // the key's time, before its effects run
        send(.key(key), at: time)
        if model.filter != filter { measure.filterKeysWaiting.append(readAt) }
    }

    /// What this frame showed and sent, for the run's statistics and the settle time.
    private func noteFrame(at time: Duration, scrolledRows: Int) {
        let countsShownImages = sources.feed != nil
        let cells = view.visibleCells(notingShown: countsShownImages) { measure.stats.shownImages.insert($0) }
        measure.stats.note(FrameSample(elapsed: clock.now - measure.startedAt, visibleCells: cells.visible, placeholderCells: cells.placeholders,
                                       scrolledRows: min(scrolledRows, view.screenRows), bytes: terminal.bytesInLastFrame))
        measure.noteSettling(at: time, moving: view.isMoving, placeholders: cells.placeholders, pixelsHeldBack: terminal.hasDeferredPixels)
    }

    /// `--scenario idle`: starts measuring once the first screen is complete.
    private func noteIdleScenario() {
        guard sources.scenario?.kind == .idle, measure.idleMeasurement == nil, measure.stats.frames > 0, view.isComplete else { return }
        measure.idleMeasurement = IdleMeasurement(at: clock.now, bytesWritten: terminal.bytesWritten)
    }
}

/// What feeds the grid besides the person's keys.
struct GridSources {
    /// A feed being browsed: each page grows the catalogue.
    let feed: FeedSession?
    /// A photo folder still being read: each update is a bigger catalogue.
    let photoScan: PhotoFolderScan?
    /// Likes, their outbox and the place, kept between runs (nil: `--no-state`, a scenario).
    let personal: PersonalState?
    var scenario: ScenarioDriver?
}
