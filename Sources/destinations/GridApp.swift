#if canImport(Glibc)
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
        var hungUp = false
        scheduler.run(self) {
            if scheduler.meter.frames % 16 == 0 && terminal.isHungUp { hungUp = true }
            return !quit && !hungUp && signals.signal == nil
        }
        terminal.end()
        if hungUp { throw AppError(description: "the terminal went away", status: 128 + SIGHUP) }
        let report = scheduler.meter.report()
        print("destinations: \(report.frames) frames at \(scheduler.refreshRate), \(report.hitches) hitches, hitch ratio \(fixed(report.hitchRatio, 2)) ms/s (\(report.band.rawValue)); cells prepared in commit \(view.cellsPreparedInCommit), in idle time \(view.cellsPreparedIdle)")
        if let signal = signals.signal { throw AppError(description: "stopped by signal \(signal)", status: 128 + signal) }
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
        cell.likes = post.numberOfLikes
        cell.isSelected = id == selected
        let asset = store.asset(for: key(for: id, width: view.layout.frame(for: path).width))
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
        presenter.present(canvas)
    }

    func drawChrome(into canvas: inout Canvas, frame: FrameInfo) {
        let report = scheduler.meter.report()
        let bar = CellStyle(reverse: true)
        canvas.fill(Rect(x: 0, y: 0, width: canvas.columns, height: 1), with: Cell(" ", style: bar))
        canvas.draw(" destinations  \(frame.refreshRate)  prefetch \(scheduler.isIdleWorkEnabled ? "on" : "off")  images async  \(postCount) posts  hitches \(report.hitches)  \(fixed(report.hitchRatio, 1)) ms/s \(report.band.rawValue)",
                    at: Point(x: 0, y: 0), style: bar)
        let footer = canvas.rows - 1
        canvas.fill(Rect(x: 0, y: footer, width: canvas.columns, height: 1), with: Cell(" ", style: bar))
        canvas.draw(" ↑↓/jk move  PgUp/PgDn/space page  g/G top/end  q quit", at: Point(x: 0, y: footer), style: bar)
    }

    func handle(_ key: Key, at time: Duration) {
        let pitch = Double(PostCell.height + view.layout.spacing)
        switch key {
        case .character("q"), .escape: quit = true
        case .character("j"), .down: view.scroll(byRows: pitch, at: time)
        case .character("k"), .up: view.scroll(byRows: -pitch, at: time)
        case .pageDown, .character(" "): view.scrollPage(1, at: time)
        case .pageUp: view.scrollPage(-1, at: time)
        case .character("g"), .home: view.scrollToTop()
        case .character("G"), .end: view.scrollToBottom()
        case .resize: resize()
        default: break
        }
    }
}
