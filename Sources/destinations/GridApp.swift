import CellCanvas
import CollectionKit
import CoreKit
import DestinationsModel
import FeedClient
import ImagePipeline
import RenderLoop
import TerminalFront

/// The destinations grid's frame loop: each frame delivers finished thumbnails, reads
/// keys into the ``GridState`` and carries out their effects, commits the ``GridScreen``
/// and its chrome into a kept canvas, and presents it. The same object runs a person's
/// session in a terminal and a scripted scenario headless; it sleeps while nothing would
/// change (`GridApp+Quiet`).
final class GridApp: TerminalFrameDelegate {
    let options: GridOptions
    let terminal: any TerminalBackend
    let clock: any FrameClock
    let scheduler: FrameScheduler
    let screen: GridScreen
    var scenario: ScenarioDriver?
    /// A photo folder still being read: each update is a bigger catalogue.
    let photoScan: PhotoFolderScan?
    /// A feed being browsed: each page grows the catalogue.
    let feed: FeedSession?
    /// Likes, their outbox and the place, kept between runs (nil: `--no-state`, a scenario).
    let personal: PersonalState?
    /// The saved place's post, until the grid shows it (``GridApp/restoreSaved()``).
    var placeToFind: String?
    /// When the place was last handed to be kept.
    var placeKeptAt: Duration = .zero
    var stats: RunStats
    let startedAt: Duration
    /// The frame being drawn, kept and reset every frame (no allocation in the steady state).
    private var canvas = Canvas(columns: 0, rows: 0)
    /// Ends a quiet wait: workers post through it, signals ring it.
    let wake: WakeSignal
    /// A key, a delivery, a resize or a wake-up since the last quiet check: draw again.
    var somethingHappened = true
    /// Symbols or kitty images, and why (the header says).
    let graphics: GraphicsChoice
    /// The chrome's colours for the terminal's background.
    let theme: Theme
    /// The tick of the last frame drawn (the HUD's quiet refresh counts from it).
    var lastFrameTick: Duration?
    /// `--scenario idle`: from when the first screen was complete, CPU time and bytes.
    var idleMeasurement: IdleMeasurement?
    /// Bytes of one row in a full repaint of the final screen, measured at the end.
    private(set) var fullPaintBytesPerRow = 0.0
    /// A key asked for a new layout (a resize): done once, after the frame's keys, at the
    /// terminal's last size, however many resizes a window drag sent (issue 28).
    private var needsRelayout = false
    /// Layouts done since the start.
    private(set) var relayouts = 0
    /// When each filter key whose result is not on screen yet was read.
    private var filterKeysWaiting: [Duration] = []
    /// The grid moved in the last frame; when it came to rest, if the screen is not yet
    /// whole (a thumbnail a placeholder, pixels held back, bytes still on their way).
    private var wasMoving = false
    /// Last frame's scroll offset, time and direction, for easing the prefetch distance.
    private var preloadEasing: (offset: Double, at: Duration, direction: Int)?
    private var restStartedAt: Duration?
    /// What the rest under way still waits for (see ``RunStats/interruptedRestsWaiting``).
    private var restWaitingOn = RestWait.placeholders

    static let headerRows = 1, footerRows = 1, hudRows = 4

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
        self.personal = personal
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
        theme = Theme.resolve(options.theme, background: terminal.probed.background)
        let store = GridLaunch.assetStore(options: options, images: images, clock: clock, wake: wake,
                                          colorMode: GridLaunch.colorMode(for: terminal.capability), output: graphics.output, feed: loaded.feed)
        feed = loaded.feed
        let first = loaded.feed?.takeFirstPage()
        if let first { Self.addPlaceholders(of: first, to: store) }
        let state = GridState(showsHUD: showsHUD, imageMode: options.images)
        let execution: BackgroundExecution = if case .scripted = images { .inline } else { .serialQueue }
        screen = GridScreen(state: state, catalogue: loaded.catalogue, postCount: loaded.posts, store: store, clock: clock,
                            cellCost: options.cellCost, execution: execution)
        photoScan = loaded.scan
        if options.traceLifecycle { screen.view.lifecycleLog = [] }
        if let kind = options.scenario {
            scenario = ScenarioDriver(kind: kind, seed: options.seed, words: GridLaunch.searchWords(from: loaded.catalogue))
        }
        stats = RunStats(duration: options.duration)
        screen.theme = theme
        scheduler.idleWork = screen.view
        scheduler.isIdleWorkEnabled = options.prefetch
        startedAt = clock.now
        if let first { applySavedLikes(to: 1..<(screen.postCount + 1), pageFetchedAt: first.fetchedAt) }
        restoreSaved()
        relayout()
    }

    /// Whether the run is over: `q`, or the scenario's duration has passed.
    var isDone: Bool { screen.state.quit || runEnd.map { clock.now >= $0 } ?? false }

    /// When the run ends: its duration after the start; for `--scenario idle`, after the
    /// first screen is complete (the idle time measured is the duration asked for, however
    /// long the thumbnails took on a loaded machine), or 20 s past the duration if it never
    /// completes.
    var runEnd: Duration? {
        guard let duration = options.duration else { return nil }
        guard scenario?.kind == .idle else { return startedAt + duration }
        return idleMeasurement.map { $0.startedAt + duration } ?? startedAt + duration + .seconds(20)
    }

    /// Runs until `q`, the duration, a signal or a hang-up; the terminal is restored
    /// before it returns.
    func run(signals: TerminationSignals) -> (stop: TerminalRunLoop.Stop, report: GridReport) {
        let stop = TerminalRunLoop.run(scheduler, self, terminal: terminal, signals: signals, beforeEnd: {
            measureFullPaint()
            // The terminal keeps kitty images until told: it is told, on the way out.
            if screen.store.output.isKitty { terminal.sendGraphics(KittyGraphics.deletionOfAll) }
        }) { isDone }
        photoScan?.stop()
        personal?.finish(place: placeToFind == nil ? currentPlace : nil)
        let report = makeReport()
        feed?.end()
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
        fullPaintBytesPerRow = Double(terminal.measureFullPaint(canvas)) / Double(canvas.rows)
    }

    /// Lays the grid out for the terminal's size and the HUD.
    private func relayout() {
        relayouts += 1
        let (rows, columns) = terminal.size
        let hud = screen.state.showsHUD ? Self.hudRows + 2 : 0
        screen.setViewport(Rect(x: 0, y: Self.headerRows, width: columns, height: max(0, rows - Self.headerRows - Self.footerRows - hud)))
        terminal.invalidate()
    }

    // MARK: Frames

    func drainMailbox(for frame: FrameInfo) {
        // Whether the next frame is needed is decided by what happens from here on (a
        // delivery, a key, a scripted key; see GridApp+Quiet).
        somethingHappened = false
        let transmissions = terminal.optionalBytesPerFrame(hertz: frame.refreshRate.hertz, ceiling: AssetStore.transmissionBytesPerSecond)
        if screen.store.deliverCompletions(limit: deliveryLimit(for: frame), transmissionBytes: transmissions) > 0 { somethingHappened = true }
        if screen.store.transmissionsHeldBack { terminal.noteOptionalBytesHeldBack() }
        if screen.retryInterruptedImages(now: clock.now) { somethingHappened = true }
        if let latest = photoScan?.updates.drainIfAvailable()?.last {
            screen.replaceCatalogue(latest)
            somethingHappened = true
        }
        if let feed { drainFeed(feed) }
        drainPersonal(at: clock.now)
    }

    /// A feed's pages that arrived become posts (applied from the background, as any
    /// query is), and the next page is asked for when fewer than two screens remain below.
    private func drainFeed(_ feed: FeedSession) {
        let failuresBefore = feed.failures
        let arrivals = feed.takeArrivals(now: clock.now)
        if feed.failures != failuresBefore { somethingHappened = true }  // the header says why
        if !arrivals.isEmpty {
            for arrival in arrivals {
                Self.addPlaceholders(of: arrival, to: screen.store)
                applySavedLikes(to: screen.appendFeedPosts(arrival.page.posts), pageFetchedAt: arrival.fetchedAt)
            }
            screen.requery(animated: false)
            somethingHappened = true
        }
        if feed.probeIfOffline(now: clock.now) {
            // The network is back: the photos that were unavailable are asked for again
            // (the cells shown now at once, the others when they are next configured).
            if screen.store.forgetUnavailable() > 0 { screen.source.reconfigureItems(screen.view.liveItems) }
            somethingHappened = true
        }
        let view = screen.view
        // The prefetch distance follows the scroll's speed and the network's measured time
        // to image (before the first image: Texture's fixed 2.5 screens).
        if let timeToImage = feed.loader?.recentTimeToImage {
            let target = RangeTuning.preloadAhead(speed: view.physics.velocity, timeToImage: timeToImage, viewportRows: view.viewport.height)
            let offset = view.physics.offset, now = clock.now
            if let last = preloadEasing, view.viewport.height > 0 {
                // Screens advanced in the direction the range leads (last frame's motion).
                let moved = (offset - last.offset) / Double(view.viewport.height)
                let advanced = last.direction == 0 ? abs(moved) : moved * Double(last.direction)
                view.ranges.preloadLeading = RangeTuning.easedPreloadAhead(previous: view.ranges.preloadLeading, target: target,
                                                                           advancedScreens: advanced, elapsed: now - last.at)
            } else {
                view.ranges.preloadLeading = target
            }
            let direction = preloadEasing.map { offset > $0.offset ? 1 : offset < $0.offset ? -1 : $0.direction } ?? 0
            preloadEasing = (offset, now, direction)
        }
        let rowsBelow = view.layout.contentHeight - Int(view.physics.offset) - view.viewport.height
        if screen.state.filter.isEmpty || feed.pagesToTheEnd { feed.pageIfNeeded(rowsBelow: rowsBelow, screenRows: view.viewport.height, now: clock.now) }
    }

    static func addPlaceholders(of arrival: FeedPageArrival, to store: AssetStore) {
        for (url, grid) in arrival.placeholders { store.addPlaceholder(columns: grid.width, rows: grid.height, rgb: grid.rgb, forURL: url) }
    }

    /// How many image completions this frame can take: each reconfigures a cell inside
    /// the commit, so what fits before the deadline at the measured configure cost, with
    /// half a frame kept for the rest of the commit. A frame that starts on time takes at
    /// least one (so images always keep arriving); one that starts late (idle work ran
    /// past the tick, as the scheduler allows when the next commit looks cheap) takes
    /// only what fits, possibly none: a delivery there would make the cheap commit long.
    private func deliveryLimit(for frame: FrameInfo) -> Int {
        guard let cost = screen.configureCost.estimate, cost > .zero else { return .max }
        let period = frame.refreshRate.period
        let budget = frame.deadline - clock.now - period / 2
        let fits = budget > .zero ? Int(budget / cost) : 0
        let startedOnTime = clock.now - frame.tick < period / 4
        return max(startedOnTime ? 1 : 0, fits)
    }

    var catchUpWorkInLastCommit: Duration { screen.view.catchUpTimeInLastCommit }

    /// Measured when the frame really starts (a frame may start after its tick).
    func isOutputBehind(at tick: Duration) -> Bool { terminal.observeOutput(at: clock.now) }

    /// After the commit: the frame goes to the terminal (``TerminalFrameDelegate``'s part),
    /// then the transfers its cells asked for start, best first, so that the threads they
    /// wake cannot take the frame loop's core mid-commit (D-055).
    func deliverCommittedFrame() {
        terminal.deliverOutput()
        screen.store.startQueuedWork()
    }

    func commit(_ frame: FrameInfo) {
        lastFrameTick = frame.tick
        noteSettled(at: frame.presentationTime)
        noteDetailProgress()
        while let key = terminal.nextKey() { handle(key, at: frame.presentationTime) }
        if var driver = scenario {
            let view = screen.view
            let keys = driver.keys(at: frame.presentationTime - startedAt, atTop: view.physics.offset <= 0,
                                   atBottom: view.physics.offset >= view.physics.maximumOffset)
            scenario = driver
            for key in keys { handle(key, at: frame.presentationTime) }
        }
        if needsRelayout {
            needsRelayout = false
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
        guard rows >= PostCell.height + 2, columns >= 30 else {
            canvas.draw("Terminal too small (\(columns)×\(rows)); need 30×\(PostCell.height + 2).", at: Point(x: 0, y: 0), style: CellStyle(foreground: .yellow, bold: true))
            terminal.present(canvas)
            return
        }
        let view = screen.view
        let topBefore = Int(view.physics.offset)
        if !filterKeysWaiting.isEmpty && screen.isQuerying {
            // A filter key this frame: a small query finishes in well under a millisecond, so
            // wait for it (half the frame at most) and show its result in this frame,
            // not the next (keystroke to result: two frames at 120 Hz before, issue 23).
            screen.source.waitForBackgroundWork(timeout: frame.refreshRate.period / 2)
        }
        screen.takeFinishedUpdates(at: frame.presentationTime)
        for effect in screen.state.keepSelectionShown(in: screen.contents) { apply(effect, at: frame.presentationTime) }
        if !filterKeysWaiting.isEmpty && !screen.isQuerying {
            // This frame shows the result of every filter key typed so far (or a newer one).
            for typed in filterKeysWaiting { stats.filterLatencies.append((frame.presentationTime - typed).milliseconds) }
            filterKeysWaiting.removeAll()
        }
        view.commit(at: frame.presentationTime, into: &canvas)
        drawChrome(into: &canvas, frame: frame)
        // Images the cells about to be shown name are in the terminal before the cells are.
        let shown = screen.store.output.keepsImagesByID ? screen.shownGraphicIDs : []
        terminal.sendGraphics(screen.store.takeTerminalOutput(keeping: shown))
        if screen.store.output.drawsPixelCells {
            let (defined, forgotten) = screen.store.takePixelImageChanges(keeping: shown)
            if !defined.isEmpty || !forgotten.isEmpty { terminal.updatePixelImages(defined: defined, forgotten: forgotten) }
        }
        let moved = Int(view.physics.offset) - topBefore
        terminal.pixelBytesPerFrame = terminal.optionalBytesPerFrame(hertz: frame.refreshRate.hertz, ceiling: graphics.pixelBytesPerSecond)
        terminal.present(canvas, scrolled: moved == 0 ? nil : (view.viewport.y..<view.viewport.maxY, moved))
        let frameSample = sample(scrolledRows: abs(moved))
        stats.note(frameSample)
        noteSettling(at: frame.presentationTime, placeholders: frameSample.placeholderCells)
        if stats.frames == 2, let signal = TerminalSession.requestedCrash { TerminalSession.crash(with: signal) }
    }

    /// A key: the state changes, and what it asks of the screen or the loop is done.
    private func handle(_ key: Key, at time: Duration) {
        somethingHappened = true
        let filter = screen.state.filter
        let effects = screen.state.handle(key, in: screen.contents)
        if screen.state.filter != filter { filterKeysWaiting.append(clock.now) }
        // A key pressed while the saved place is still sought (a sort being applied, a feed
        // paging on to it) wins: before the effects, which may page on themselves (`G`).
        if placeToFind != nil, effects.contains(where: \.actsOnTheShownGrid) { stopSeekingSavedPlace() }
        for effect in effects { apply(effect, at: time) }
    }

    /// The one interpreter of effects: what the state asked of the view, the data source,
    /// the scheduler or the terminal.
    func apply(_ effect: GridEffect, at time: Duration) {
        switch effect {
        case .relayout: needsRelayout = true
        case .repaint: terminal.invalidate()
        case .requery: screen.requery()
        case .selectionMoved(let old, let new): screen.showSelection(from: old, to: new, at: time)
        case .fling(let direction): screen.fling(direction, at: time)
        case .scroll(let rows): screen.view.scroll(byRows: Double(rows), at: time)
        case .wheel(let rows): screen.view.wheel(rows: Double(rows), at: time)
        case .page(let pages): screen.view.scrollPage(pages, at: time)
        case .scrollToTop:
            screen.view.scrollToTop()
            feed?.pagesToTheEnd = false
        case .scrollToBottom:
            screen.view.scrollToBottom()
            feed?.askForTheEnd()
        case .reconfigure(let ids): screen.source.reconfigureItems(ids)
        case .liked(let id, let liked): recordLike(liked, id: id)
        case .openDetail(let id): screen.openDetail(id)
        case .closeDetail: screen.closeDetail()
        case .toggleIdleWork: scheduler.isIdleWorkEnabled.toggle()
        case .toggleRefreshRate: scheduler.changeRefreshRate(to: scheduler.upcomingRefreshRate == .hz60 ? .hz120 : .hz60)
        }
    }

    /// What this frame showed and sent, for the run's statistics.
    private func sample(scrolledRows: Int) -> FrameSample {
        var visible = 0, placeholders = 0
        let countsShownImages = feed != nil
        for cell in screen.view.visibleCells {
            visible += 1
            guard let post = cell as? PostCell else { continue }
            if post.isPlaceholder {
                placeholders += 1
            } else if countsShownImages {
                stats.shownImages.insert(post.assetPath)
            }
        }
        if countsShownImages, let detail = screen.detail, !detail.isPlaceholder { stats.shownImages.insert(detail.imageKey.asset.path) }
        return FrameSample(elapsed: clock.now - startedAt, visibleCells: visible, placeholderCells: placeholders,
                           scrolledRows: min(scrolledRows, screen.view.viewport.height), bytes: terminal.bytesInLastFrame)
    }

    /// From the frame the grid comes to rest to the first tick at which the terminal has
    /// taken a frame that shows every visible thumbnail whole (no placeholder, no row of
    /// pixels held back): what a person waits for after a scroll. A rest cut short by more
    /// motion is counted apart. Called after each frame is presented; the terminal's part
    /// is judged at the next tick (``noteSettled(at:)``), since the frame just queued is
    /// always still on its way (with the HUD on, every frame sends bytes: measured at
    /// present time, a rest in xterm never settled).
    private func noteSettling(at time: Duration, placeholders: Int) {
        let moving = screen.view.physics.isMoving
        defer { wasMoving = moving }
        if wasMoving && !moving { (restStartedAt, restWaitingOn) = (time, .placeholders) }
        guard restStartedAt != nil else { return }
        if moving {
            restStartedAt = nil
            stats.interruptedRests += 1
            stats.interruptedRestsWaiting[restWaitingOn, default: 0] += 1
        } else {
            // What the rest still waits for, in the order a person sees it.
            restWaitingOn = placeholders > 0 ? .placeholders : terminal.hasDeferredPixels ? .pixels : .terminal
        }
    }

    /// Over a feed, the detail view's photo on its way: how far its transfer has come.
    private func noteDetailProgress() {
        guard let detail = screen.detail else { return }
        detail.progress = detail.isPlaceholder ? feed?.loader?.progress(of: detail.imageKey.asset.path) : nil
    }

    /// At a tick, before anything of the new frame: a rest whose last frame showed every
    /// thumbnail is settled once the terminal has taken everything sent.
    private func noteSettled(at time: Duration) {
        guard let start = restStartedAt, restWaitingOn == .terminal, !terminal.isOutputBehind else { return }
        stats.settleTimes.append((time - start).milliseconds)
        restStartedAt = nil
    }

    /// `--scenario idle`: starts measuring once the first screen is complete.
    private func noteIdleScenario() {
        guard scenario?.kind == .idle, idleMeasurement == nil, stats.frames > 0 else { return }
        let view = screen.view
        let complete = view.visibleCellCount > 0 && !view.visibleCells.contains { ($0 as? PostCell)?.isPlaceholder ?? false }
        guard complete, screen.store.pendingCount == 0, !view.physics.isMoving, !screen.isQuerying else { return }
        idleMeasurement = IdleMeasurement(at: clock.now, bytesWritten: terminal.bytesWritten)
    }
}

