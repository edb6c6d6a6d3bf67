#if canImport(Glibc)
import Glibc
#endif
import CellCanvas
import CollectionView
import CoreKit
import DestinationsModel
import DiffableData
import Foundation
import ImagePipeline
import RenderLoop
import TerminalFront

/// Ours, not Foundation's: the app imports both.
typealias IndexPath = DiffableData.IndexPath

/// The destinations grid: posts with photo thumbnails, prepared off the main thread and
/// delivered by `reconfigureItems`, downloads started by data prefetching. The same object
/// runs a person's session in a terminal and a scripted scenario headless.
final class GridApp: FrameDelegate, CollectionViewPrefetching {
    let options: GridOptions
    let terminal: any TerminalBackend
    let clock: any FrameClock
    let scheduler: FrameScheduler
    let catalogue: Catalogue
    let postCount: Int
    let store: AssetStore
    /// Made in `init` once `self` exists: their cell provider and completions call back.
    private(set) var view: CollectionView<Int, Int>!
    private(set) var source: DiffableDataSource<Int, Int>!
    var downloads: [Int: Cancellable] = [:]
    var selected = 1
    var quit = false
    /// Likes added in this session, by post id (the catalogue itself is read-only).
    var addedLikes: [Int: Int] = [:]
    var sortOrder = SortOrder.catalogue
    /// The filter being typed after `/` (nil: not filtering).
    var filterText: String?
    var appliedFilter = ""
    var showsHUD: Bool
    var showsHelp = false
    var detail: DetailView?
    var imageMode: ImageMode
    var scenario: ScenarioDriver?
    var stats = RunStats()
    var startedAt: Duration = .zero
    /// The frame being drawn, kept and reset every frame (no allocation in the steady
    /// state); after a frame, what was presented: repainted whole at the end as the
    /// yardstick for bytes.
    var canvas = Canvas(columns: 0, rows: 0)
    var fullPaintBytesPerRow = 0.0
    /// The first frame's record, taken out of the hitch statistics.
    var launchFrame: FrameRecord?
    /// Ends a quiet wait: workers post through it, signals ring it.
    let wake: WakeSignal
    /// A key, a delivery, a resize or a wake-up since the last quiet check: draw again.
    var somethingHappened = true
    /// The tick of the last frame drawn (the HUD's quiet refresh counts from it).
    var lastFrameTick: Duration?
    /// `--scenario idle`: from when the first screen was complete, CPU time and bytes.
    var idleMeasurement: IdleMeasurement?
    /// What configuring a cell costs, measured (sets the per-frame delivery limit).
    var configureCost = CostPredictor()
    /// The main thread's own preparer, for `--images sync` (the seeds' wrong way).
    lazy var mainThreadPreparer = ImagePreparer(colorMode: store.colorMode)
    lazy var registration = CellRegistration<PostCell, Int> { [unowned self] cell, path, id in configure(cell, at: path, id: id) }

    static let headerRows = 1, footerRows = 1, hudRows = 4
    /// Rows per second of a fling key (J/K): comes to rest 200 rows on.
    static let flingSpeed = 400.0

    enum SortOrder: String, CaseIterable {
        case catalogue, title, region, likes
        var next: SortOrder { Self.allCases[(Self.allCases.firstIndex(of: self)! + 1) % Self.allCases.count] }
    }

    /// How thumbnails are prepared.
    enum ImageLoading {
        /// Worker threads behind the simulated network: the app.
        case workers
        /// No threads: request *n* completes after the simulated network's delay for *n*,
        /// measured on `clock`, prepared by `prepare`. With a ``VirtualClock`` a whole run
        /// is exact and repeatable (tests, simulations).
        case scripted(prepare: (PreparedImageKey) -> Result<CellImage, ImageError>)
    }

    /// A grid on `terminal`, its frames timed by `clock`; the first frame is drawn by the
    /// first `scheduler.runFrame`.
    init(options: GridOptions, catalogue: Catalogue, postCount: Int, terminal: any TerminalBackend,
         clock: any FrameClock, images: ImageLoading = .workers, showsHUD: Bool = true, wake: WakeSignal = WakeSignal()) {
        self.options = options
        self.wake = wake
        self.catalogue = catalogue
        self.postCount = postCount
        self.terminal = terminal
        self.clock = clock
        self.showsHUD = showsHUD
        imageMode = options.images
        scheduler = FrameScheduler(refreshRate: options.refreshRate, clock: clock)
        let placeholders = (try? PlaceholderCatalog(contentsOf: Self.assetsFolder.appendingPathComponent("placeholders.json"))) ?? PlaceholderCatalog()
        let network = SimulatedNetworkSource(latency: options.latency, jitter: options.latency / 2, seed: options.seed)
        let colorMode = Self.colorMode(for: terminal.capability)
        switch images {
        case .workers:
            store = AssetStore(source: network, cacheLimit: options.cacheBytes, workers: options.workers, priority: options.workerPriority,
                               wake: wake, colorMode: colorMode, placeholders: placeholders)
        case .scripted(let prepare):
            let cache = PreparedImageCache(limit: options.cacheBytes)
            let loader = ScriptedAssetLoader(now: { [clock] in clock.now }, latency: network.delay(forRequest:), prepare: prepare)
            store = AssetStore(cache: cache, loader: loader, colorMode: colorMode, placeholders: placeholders)
        }
        view = CollectionView(layout: GridLayout(minimumItemWidth: 28, itemHeight: PostCell.height, spacing: 1), clock: clock) { [unowned self] view, path, id in
            view.dequeueConfiguredReusableCell(using: registration, for: path, item: id)
        }
        if options.traceLifecycle { view.lifecycleLog = [] }
        view.prefetchDataSource = self
        source = DiffableDataSource(collectionView: view)
        var snapshot = Snapshot<Int, Int>()
        snapshot.appendSections([0])
        snapshot.appendItems(Array(1...postCount))
        source.apply(snapshot, animatingDifferences: false)
        if let kind = options.scenario {
            scenario = ScenarioDriver(kind: kind, seed: options.seed, words: Self.searchWords(from: catalogue))
        }
        resize()
        scheduler.idleWork = view
        scheduler.isIdleWorkEnabled = options.prefetch
        startedAt = clock.now
    }

    /// Whether the run is over: `q`, or the scenario's duration has passed.
    var isDone: Bool { quit || options.duration.map { clock.now - startedAt >= $0 } ?? false }

    /// Runs until `q`, the duration, a signal or a hang-up; the terminal is restored
    /// before it returns.
    func run(signals: TerminationSignals) -> (stop: TerminalLoop.Stop, report: GridReport) {
        let stop = TerminalLoop.run(scheduler, self, terminal: terminal, signals: signals, beforeEnd: measureFullPaint) { isDone }
        return (stop, makeReport())
    }

    /// Runs frames until `q` or the duration (on any clock; a test's is virtual), then
    /// measures the full paint and reports. The terminal is left to the caller.
    func runToEnd() -> GridReport {
        precondition(options.duration != nil, "runToEnd needs a duration")
        scheduler.run(self) { !isDone }
        measureFullPaint()
        return makeReport()
    }

    /// The grid with ncurses: in the terminal, or headless into /dev/null at
    /// COLUMNS×LINES (160×48 when unset), with its worker threads and the real clock.
    static func runInTerminal(options: GridOptions, catalogue: Catalogue, postCount: Int, headless: Bool) throws
        -> (stop: TerminalLoop.Stop, report: GridReport, app: GridApp) {
        let wake = WakeSignal()
        let signals = TerminationSignals(wake: wake)
        let terminal: NcursesBackend
        do {
            if headless {
                let size = headlessSize()
                terminal = try .startHeadless(rows: size.rows, columns: size.columns)
            } else {
                terminal = try .start()
            }
        } catch { throw AppError(description: error.description, status: 2) }
        let app = GridApp(options: options, catalogue: catalogue, postCount: postCount, terminal: terminal,
                          clock: MonotonicClock(strategy: .recommended), showsHUD: options.hud ?? !headless, wake: wake)
        let stress = StressLoad(threads: options.stress)
        defer { stress.stop() }
        let outcome = app.run(signals: signals)
        return (outcome.stop, outcome.report, app)
    }

    func measureFullPaint() {
        guard canvas.rows > 0 else { return }
        fullPaintBytesPerRow = Double(terminal.measureFullPaint(canvas)) / Double(canvas.rows)
    }

    /// A headless screen's size: COLUMNS and LINES when set, else 160×48.
    static func headlessSize() -> (rows: Int, columns: Int) {
        func value(_ name: String, _ fallback: Int) -> Int {
            getenv(name).flatMap { Int(String(cString: $0)) }.map { min(max($0, 10), 1000) } ?? fallback
        }
        return (value("LINES", 48), value("COLUMNS", 160))
    }

    /// Words a search scenario types: the first word of the first titles, lowercased.
    static func searchWords(from catalogue: Catalogue) -> [String] {
        (0..<min(catalogue.baseCount, 12)).compactMap { catalogue.post($0).title.split(separator: " ").first.map { String($0.prefix(5)).lowercased() } }
    }

    /// The bundled Assets folder: `./Assets`, else the nearest `Assets` above the executable
    /// (the build folder sits inside the checkout).
    static var assetsFolder: URL {
        let fileManager = FileManager.default
        func hasCatalogue(_ url: URL) -> Bool { fileManager.fileExists(atPath: url.appendingPathComponent("catalog.json").path) }
        let here = URL(fileURLWithPath: fileManager.currentDirectoryPath).appendingPathComponent("Assets")
        if hasCatalogue(here) { return here }
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<8 {
            let candidate = directory.appendingPathComponent("Assets")
            if hasCatalogue(candidate) { return candidate }
            directory.deleteLastPathComponent()
        }
        return here
    }

    static func colorMode(for capability: ColorCapability) -> CellColorMode {
        switch capability {
        case .direct: .truecolor
        case .palette256: .palette240
        case .palette16: .palette16
        case .palette8: .palette8
        case .none: .monochrome
        }
    }

    func resize() {
        let (rows, columns) = terminal.size
        let hud = showsHUD ? Self.hudRows + 2 : 0
        view.setViewport(Rect(x: 0, y: Self.headerRows, width: columns, height: max(0, rows - Self.headerRows - Self.footerRows - hud)))
        terminal.invalidate()
        if let detail, detail.resize(to: detailArea) { loadDetailImage(detail) }
    }

    // MARK: Cells and images

    func key(for id: Int, width: Int) -> PreparedImageKey {
        let size = PostCell.thumbnailSize(width: width)
        return PreparedImageKey(asset: catalogue.post(id - 1).asset, columns: size.columns, rows: size.rows)
    }

    func configure(_ cell: PostCell, at path: IndexPath, id: Int) {
        let started = clock.now
        defer { configureCost.record(clock.now - started) }
        let post = catalogue.post(id - 1)
        cell.title = post.title
        cell.region = post.region
        cell.likes = likes(of: id)
        cell.isSelected = id == selected
        if options.cellCost > .zero { clock.spin(for: options.cellCost) }
        let key = key(for: id, width: view.layout.frame(for: path).width)
        if imageMode == .sync {
            // Decoded at full size, here, on the main thread, while the frame waits.
            do {
                cell.image = try mainThreadPreparer.prepare(key.asset, columns: key.columns, rows: key.rows, fullSize: true)
                cell.isPlaceholder = false
            } catch {
                cell.image = store.placeholders.placeholder(for: key.asset, columns: key.columns, rows: key.rows, colorMode: store.colorMode)
                cell.failure = error.shortLabel
            }
            return
        }
        let asset = store.asset(for: key)
        cell.image = asset.image
        cell.isPlaceholder = asset.isPlaceholder
        if case .failed(_, let error) = asset { cell.failure = error.shortLabel }
        if case .placeholder = asset { startDownload(id, at: path) }
    }

    /// Starts preparing a post's thumbnail unless it is under way; the completion
    /// reconfigures the item (never touches a captured cell).
    func startDownload(_ id: Int, at path: IndexPath) {
        guard downloads[id] == nil else { return }
        let top = Int(view.physics.offset)
        let distance = abs(view.layout.frame(for: path).y - top)
        downloads[id] = store.download(key(for: id, width: view.layout.frame(for: path).width), priority: distance) { [unowned self] _ in
            downloads[id] = nil
            source.reconfigureItems([id])  // O(1): no snapshot copy, no diff
        }
    }

    func prefetchItems(at indexPaths: [IndexPath]) {
        guard imageMode == .async else { return }
        for path in indexPaths {
            guard let id = view.snapshot.itemIdentifier(at: path) else { continue }
            if case .placeholder = store.asset(for: key(for: id, width: view.layout.frame(for: path).width)) { startDownload(id, at: path) }
        }
    }

    func cancelPrefetching(at indexPaths: [IndexPath]) {
        for path in indexPaths {
            guard let id = view.snapshot.itemIdentifier(at: path) else { continue }
            downloads.removeValue(forKey: id)?.cancel()
        }
    }

    func likes(of id: Int) -> Int { catalogue.post(id - 1).numberOfLikes + addedLikes[id, default: 0] }

    // MARK: Frames

    func drainMailbox(for frame: FrameInfo) {
        if launchFrame == nil, let first = scheduler.meter.records.first {
            // The launch frame (first layout, every visible cell configured, a full paint)
            // is reported on its own; hitches count from the next frame, as Apple's hitch
            // ratio counts frames while scrolling.
            launchFrame = first
            scheduler.resetMeter()
        }
        // Whether the next frame is needed is decided by what happens from here on (a
        // delivery, a key, a scripted key; see GridApp+Quiet).
        somethingHappened = false
        if store.deliverCompletions(limit: deliveryLimit(for: frame)) > 0 { somethingHappened = true }
    }

    /// How many image completions this frame can take: each reconfigures a cell inside
    /// the commit, so what fits before the deadline at the measured configure cost, with
    /// half a frame kept for the rest of the commit. A frame that starts on time takes at
    /// least one (so images always keep arriving); one that starts late (idle work ran
    /// past the tick, as the scheduler allows when the next commit looks cheap) takes
    /// only what fits, possibly none: a delivery there would make the cheap commit long.
    func deliveryLimit(for frame: FrameInfo) -> Int {
        guard let cost = configureCost.estimate, cost > .zero else { return .max }
        let period = frame.refreshRate.period
        let budget = frame.deadline - clock.now - period / 2
        let fits = budget > .zero ? Int(budget / cost) : 0
        let startedOnTime = clock.now - frame.tick < period / 4
        return max(startedOnTime ? 1 : 0, fits)
    }

    var catchUpWorkInLastCommit: Duration { view.catchUpTimeInLastCommit }

    func commit(_ frame: FrameInfo) {
        lastFrameTick = frame.tick
        while let key = terminal.nextKey() {
            handle(key, at: frame.presentationTime)
            somethingHappened = true
        }
        if var driver = scenario {
            let keys = driver.keys(at: frame.presentationTime - startedAt, atTop: view.physics.offset <= 0,
                                   atBottom: view.physics.offset >= view.physics.maximumOffset)
            scenario = driver
            for key in keys { handle(key, at: frame.presentationTime) }
            if !keys.isEmpty { somethingHappened = true }
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
        let topBefore = Int(view.physics.offset)
        view.commit(at: frame.presentationTime, into: &canvas)
        drawChrome(into: &canvas, frame: frame)
        if showsHUD { drawHUD(into: &canvas, frame: frame) }
        if let detail { detail.draw(into: &canvas, post: catalogue.post(detail.id - 1), likes: likes(of: detail.id)) }
        if showsHelp { drawHelp(into: &canvas) }
        let moved = Int(view.physics.offset) - topBefore
        terminal.present(canvas, scrolled: moved == 0 ? nil : (view.viewport.y..<view.viewport.maxY, moved))
        stats.noteFrame(app: self, scrolledRows: abs(moved))
        if stats.frames == 2, let signal = TerminalSession.requestedCrash { TerminalSession.crash(with: signal) }
    }
}
