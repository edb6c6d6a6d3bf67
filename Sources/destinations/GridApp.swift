#if canImport(Glibc)
import CoreKit
import Glibc
#endif
import CellCanvas
import CollectionView
import DestinationsModel
import DiffableData
import Foundation
import ImagePipeline
import RenderLoop
import TerminalFront

/// Ours, not Foundation's: the app imports both.
typealias IndexPath = DiffableData.IndexPath

/// The destinations grid: posts with photo thumbnails, prepared off the main thread and
/// delivered by `reconfigureItems`, downloads started by data prefetching.
final class GridApp: FrameDelegate, CollectionViewPrefetching {
    let terminal = TerminalSession()
    let clock = MonotonicClock(strategy: .recommended)
    let scheduler: FrameScheduler
    let catalogue: Catalogue
    let postCount: Int
    var store: AssetStore!
    var view: CollectionView<Int, Int>!
    var source: DiffableDataSource<Int, Int>!
    var presenter: CanvasPresenter!
    var downloads: [Int: Cancellable] = [:]
    var selected = 1
    var quit = false
    /// Likes added in this session, by post id (the catalogue itself is read-only).
    var addedLikes: [Int: Int] = [:]
    var sortOrder = SortOrder.catalogue
    /// The filter being typed after `/` (nil: not filtering).
    var filterText: String?
    var appliedFilter = ""
    var showsHUD = true
    var prefetchEnabled = true
    var imageMode = ImageMode.async
    var cellCost: Duration = .zero
    /// The main thread's own preparer, for `--images sync` (the seeds' wrong way).
    lazy var mainThreadPreparer = ImagePreparer(colorMode: store.colorMode)
    static let hudRows = 4

    enum SortOrder: String, CaseIterable {
        case catalogue, title, region, likes
        var next: SortOrder { Self.allCases[(Self.allCases.firstIndex(of: self)! + 1) % Self.allCases.count] }
    }
    let latency: Duration
    lazy var registration = CellRegistration<PostCell, Int> { [unowned self] cell, path, id in configure(cell, at: path, id: id) }

    static let headerRows = 1, footerRows = 1

    init(catalogue: Catalogue, posts: Int, refreshRate: RefreshRate, latency: Duration) {
        self.catalogue = catalogue
        postCount = posts
        self.latency = latency
        scheduler = FrameScheduler(refreshRate: refreshRate, clock: clock)
    }

    func run() throws {
        let signals = TerminationSignals()
        do { try terminal.start() } catch { throw AppError(description: error.description, status: 2) }
        presenter = CanvasPresenter(capability: terminal.capability)
        let placeholders = (try? PlaceholderCatalog(contentsOf: Self.assetsFolder.appendingPathComponent("placeholders.json"))) ?? PlaceholderCatalog()
        store = AssetStore(source: SimulatedNetworkSource(latency: latency, jitter: latency / 2), colorMode: Self.colorMode(for: terminal.capability), placeholders: placeholders)
        view = CollectionView(layout: GridLayout(minimumItemWidth: 28, itemHeight: PostCell.height, spacing: 1), clock: clock) { [unowned self] view, path, id in
            view.dequeueConfiguredReusableCell(using: registration, for: path, item: id)
        }
        view.prefetchDataSource = self
        source = DiffableDataSource(collectionView: view)
        var snapshot = Snapshot<Int, Int>()
        snapshot.appendSections([0])
        snapshot.appendItems(Array(1...postCount))
        source.apply(snapshot, animatingDifferences: false)
        resize()
        scheduler.idleWork = view
        scheduler.isIdleWorkEnabled = prefetchEnabled
        let stop = TerminalLoop.run(scheduler, self, terminal: terminal, signals: signals) { quit }
        try TerminalLoop.checkTerminal(stop)
        let report = scheduler.meter.report()
        print("destinations: \(report.frames) frames at \(scheduler.refreshRate), \(report.hitches) hitches, hitch ratio \(fixed(report.hitchRatio, 2)) ms/s (\(report.band.rawValue)); cells prepared in commit \(view.cellsPreparedInCommit), in idle time \(view.cellsPreparedIdle)")
        try TerminalLoop.checkSignal(stop)
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
        view.setViewport(Rect(x: 0, y: Self.headerRows, width: columns, height: max(0, rows - Self.headerRows - Self.footerRows)))
        presenter.invalidate()
    }

    // MARK: Cells and images

    func key(for id: Int, width: Int) -> PreparedImageKey {
        let size = PostCell.thumbnailSize(width: width)
        return PreparedImageKey(asset: catalogue.post(id - 1).asset, columns: size.columns, rows: size.rows)
    }

    func configure(_ cell: PostCell, at path: IndexPath, id: Int) {
        let post = catalogue.post(id - 1)
        cell.title = post.title
        cell.region = post.region
        cell.likes = likes(of: id)
        cell.isSelected = id == selected
        if cellCost > .zero { clock.spin(for: cellCost) }
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
            var snapshot = source.snapshot()
            guard snapshot.contains(item: id) else { return }
            snapshot.reconfigureItems([id])
            source.apply(snapshot)
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

    // MARK: Data: like, sort, filter

    /// The posts to show, filtered and sorted.
    func visibleIDs() -> [Int] {
        var ids = Array(1...postCount)
        if !appliedFilter.isEmpty {
            let needle = appliedFilter.lowercased()
            ids = ids.filter { let post = catalogue.post($0 - 1); return post.title.lowercased().contains(needle) || post.region.lowercased().contains(needle) }
        }
        switch sortOrder {
        case .catalogue: break
        case .title: ids.sort { (catalogue.post($0 - 1).title, $0) < (catalogue.post($1 - 1).title, $1) }
        case .region: ids.sort { (catalogue.post($0 - 1).region, $0) < (catalogue.post($1 - 1).region, $1) }
        case .likes: ids.sort { (likes(of: $0), $1) > (likes(of: $1), $0) }
        }
        return ids
    }

    /// A new snapshot from the current filter and order, applied with animation.
    func refreshData(animated: Bool = true) {
        var snapshot = Snapshot<Int, Int>()
        snapshot.appendSections([0])
        snapshot.appendItems(visibleIDs())
        source.apply(snapshot, animatingDifferences: animated)
        if !snapshot.contains(item: selected), let first = snapshot.itemIdentifiers.first { selected = first }
    }

    func like(_ id: Int) {
        addedLikes[id, default: 0] += 1
        var snapshot = source.snapshot()
        snapshot.reconfigureItems([id])
        source.apply(snapshot)
    }

    /// Moves the selection by `delta` items (±1 across, ±columns down), reconfiguring the
    /// two cells whose border changes, and scrolls it into view.
    func moveSelection(by delta: Int, at time: Duration) {
        let snapshot = source.snapshot()
        guard let index = snapshot.indexOfItem(selected) else { return }
        let target = min(max(index + delta, 0), snapshot.numberOfItems - 1)
        guard target != index else { return }
        let old = selected
        selected = snapshot.itemIdentifiers(inSection: 0)[target]
        var update = snapshot
        update.reconfigureItems([old, selected])
        source.apply(update)
        let frame = view.layout.frame(for: IndexPath(item: target, section: 0))
        let top = view.physics.offset, height = Double(view.viewport.height)
        if Double(frame.y) < top { view.scroll(byRows: Double(frame.y) - top, at: time) }
        if Double(frame.maxY) > top + height { view.scroll(byRows: Double(frame.maxY) - top - height, at: time) }
    }

    // MARK: Frames

    func drainMailbox(for frame: FrameInfo) { store.deliverCompletions() }

    var catchUpWorkInLastCommit: Duration { view.catchUpTimeInLastCommit }

    func commit(_ frame: FrameInfo) {
        while let key = terminal.nextKey() { handle(key, at: frame.presentationTime) }
        let (rows, columns) = terminal.size
        var canvas = Canvas(columns: columns, rows: rows)
        guard rows >= PostCell.height + 2, columns >= 30 else {
            canvas.draw("Terminal too small (\(columns)×\(rows)); need 30×\(PostCell.height + 2).", at: Point(x: 0, y: 0), style: CellStyle(foreground: .yellow, bold: true))
            presenter.present(canvas)
            return
        }
        view.commit(at: frame.presentationTime, into: &canvas)
        drawChrome(into: &canvas, frame: frame)
        if showsHUD { drawHUD(into: &canvas, frame: frame) }
        presenter.present(canvas)
    }

    func drawChrome(into canvas: inout Canvas, frame: FrameInfo) {
        let report = scheduler.meter.report()
        let bar = CellStyle(reverse: true)
        canvas.fill(Rect(x: 0, y: 0, width: canvas.columns, height: 1), with: Cell(" ", style: bar))
        canvas.draw(" destinations  \(frame.refreshRate)  prefetch \(scheduler.isIdleWorkEnabled ? "on" : "off")  images \(imageMode.rawValue)\(cellCost > .zero ? "  cell cost \(fixed(cellCost.milliseconds, 1)) ms" : "")  \(postCount) posts  hitches \(report.hitches)  \(fixed(report.hitchRatio, 1)) ms/s \(report.band.rawValue)",
                    at: Point(x: 0, y: 0), style: bar)
        let footer = canvas.rows - 1
        canvas.fill(Rect(x: 0, y: footer, width: canvas.columns, height: 1), with: Cell(" ", style: bar))
        let hints = filterText.map { " filter: \($0)▏  Enter keep  Esc clear" }
            ?? " arrows/hjkl select  PgUp/PgDn page  g/G ends  L like  s sort (\(sortOrder.rawValue))  / filter\(appliedFilter.isEmpty ? "" : " '\(appliedFilter)'")  p prefetch  r rate  H HUD  q quit"
        canvas.draw(hints, at: Point(x: 0, y: footer), style: bar)
    }

    /// Commit times against the deadline, the hitch ratio in its band's colour, and what
    /// the pipeline is doing: cells prepared in commits and in idle time, cache, downloads.
    func drawHUD(into canvas: inout Canvas, frame: FrameInfo) {
        let width = min(canvas.columns, 64), height = Self.hudRows + 2
        let box = Rect(x: canvas.columns - width, y: canvas.rows - 1 - height, width: width, height: height)
        let panel = CellStyle(background: .palette(235))
        canvas.fill(box, with: Cell(" ", style: panel))
        canvas.box(box, style: CellStyle(foreground: .palette(244), background: .palette(235)))
        let report = scheduler.meter.report()
        let period = frame.refreshRate.period
        let band: Color = switch report.band { case .good: .green; case .warning: .yellow; case .critical: .red }
        var x = box.x + 2
        x += canvas.draw("hitches \(report.hitches)  ", at: Point(x: x, y: box.y + 1), style: panel)
        x += canvas.draw("\(fixed(report.hitchRatio, 2)) ms/s \(report.band.rawValue)", at: Point(x: x, y: box.y + 1),
                         style: CellStyle(foreground: band, background: .palette(235), bold: true))
        canvas.draw("  p99 \(fixed(report.commitP99.milliseconds, 2)) ms / \(fixed(period.milliseconds, 2))", at: Point(x: x, y: box.y + 1), style: panel)
        CommitSparkline.draw(scheduler.meter.records.suffix(width - 4), period: period, at: Point(x: box.x + 2, y: box.y + 2),
                             background: .palette(235), into: &canvas)
        let cache = store.cache.counters
        canvas.draw("cells: commit \(view.cellsPreparedInCommit) idle \(view.cellsPreparedIdle)  live \(view.liveCellCount)  prefetch \(view.prefetchBatches)/\(view.cancelBatches)",
                    at: Point(x: box.x + 2, y: box.y + 3), width: width - 4, style: panel)
        canvas.draw("cache: \(cache.hits) hits \(cache.misses) misses \(cache.evictions) evicted \(cache.bytes / 1024) KB  downloads \(downloads.count)",
                    at: Point(x: box.x + 2, y: box.y + 4), width: width - 4, style: panel)
    }

    func handle(_ key: Key, at time: Duration) {
        if filterText != nil { return handleFilter(key) }
        let columns = view.layout.columns
        switch key {
        case .character("q"): quit = true
        case .escape where !appliedFilter.isEmpty:
            appliedFilter = ""
            refreshData()
        case .escape: quit = true
        case .character("j"), .down: moveSelection(by: columns, at: time)
        case .character("k"), .up: moveSelection(by: -columns, at: time)
        case .character("l"), .right: moveSelection(by: 1, at: time)
        case .character("h"), .left: moveSelection(by: -1, at: time)
        case .character("L"), .character("+"): like(selected)
        case .character("s"):
            sortOrder = sortOrder.next
            refreshData()
        case .character("/"): filterText = appliedFilter
        case .character("H"): showsHUD.toggle()
        case .character("p"): scheduler.isIdleWorkEnabled.toggle()
        case .character("r"): scheduler.changeRefreshRate(to: scheduler.upcomingRefreshRate == .hz60 ? .hz120 : .hz60)
        case .pageDown, .character(" "): view.scrollPage(1, at: time)
        case .pageUp: view.scrollPage(-1, at: time)
        case .character("g"), .home: view.scrollToTop()
        case .character("G"), .end: view.scrollToBottom()
        case .resize: resize()
        default: break
        }
    }

    /// Typing after `/`: every keystroke filters (a new snapshot, animated); Enter keeps
    /// the filter, Esc clears it.
    func handleFilter(_ key: Key) {
        switch key {
        case .enter: filterText = nil
        case .escape:
            filterText = nil
            appliedFilter = ""
            refreshData()
        case .backspace:
            if var text = filterText, !text.isEmpty {
                text.removeLast()
                filterText = text
            }
            appliedFilter = filterText ?? ""
            refreshData()
        case .character(let character):
            filterText?.append(character)
            appliedFilter = filterText ?? ""
            refreshData()
        default: break
        }
    }
}
