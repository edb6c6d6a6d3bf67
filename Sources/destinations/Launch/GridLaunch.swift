import CellCanvas
import CoreKit
import DestinationsModel
import FeedClient
import Foundation
import ImagePipeline
import RenderLoop
import SavedState
import TerminalFront

/// Starting a grid: the terminal (live or headless), the image store, the bundled assets
/// and what the environment says.
enum GridLaunch {
    /// The grid with ncurses: in the terminal, or headless into /dev/null at
    /// COLUMNS×LINES (160×48 when unset), with its worker threads and the real clock.
    static func runInTerminal(options: GridOptions, headless: Bool) throws -> (stop: TerminalRunLoop.Stop, report: GridReport, app: GridLoop) {
        let wake = WakeSignal()
        let environment = LaunchEnvironment.read()
        let store = try options.stateFolder.map { folder throws(AppError) -> StateStore in
            let store: StateStore
            do { store = try StateStore(folder: folder) } catch { throw AppError(description: "\(error)", status: 1) }
            for repair in store.repairs { printError("destinations: \(repair)") }
            return store
        }
        var options = options
        // `X` in an earlier run: warned posts start shown (`--show-sensitive` does it for one run).
        if store?.value(of: .showSensitive) == true { options.showsSensitive = true }
        let loaded = try options.loadCatalogue(wake: wake)
        let personal = store.map { store in
            let outbox = loaded.feed.map { LikeOutbox(feedURL: $0.url, store: store, fetcher: $0.fetcher, wake: wake) }
            return PersonalState(store: store, scope: options.stateScope, fresh: options.fresh, outbox: outbox)
        }
        let signals = TerminationSignals(wake: wake)
        let terminal: NcursesBackend
        do {
            if headless {
                let size = environment.headlessSize
                terminal = try .startHeadless(rows: size.rows, columns: size.columns)
            } else {
                terminal = try .start(delivery: options.outputWriter)
            }
        } catch { throw AppError(description: error.description, status: 2) }
        let app = GridLoop(options: options, loaded: loaded, terminal: terminal,
                          clock: MonotonicClock(strategy: .recommended, wakeSlice: options.wakeSlice, runSlice: options.frameSlice), showsHUD: options.hud ?? !headless, wake: wake,
                          environment: environment, personal: personal)
        // On the thread that runs the frames, before the stress threads start (threads made
        // after it keep the kernel's default).
        if let slice = options.frameSlice { FrameLoopScheduling.requestSlice(slice) }
        let stress = StressLoad(threads: options.stress)
        defer { stress.stop() }
        let outcome = app.run(signals: signals)
        return (outcome.stop, outcome.report, app)
    }

    /// The image store: worker threads behind the simulated network, or a scripted loader
    /// on the caller's clock.
    static func assetStore(options: GridOptions, images: GridLoop.ImageLoading, clock: any FrameClock, wake: WakeSignal,
                           colorMode: CellColorMode, output: ImageOutput = .symbols, feed: FeedSession? = nil) -> AssetStore {
        let placeholders = (try? PlaceholderCatalog(contentsOf: assetsFolder.appendingPathComponent("placeholders.json"))) ?? PlaceholderCatalog()
        let network = SimulatedNetworkSource(latency: options.latency, jitter: options.latency / 2, seed: options.seed)
        switch images {
        case .workers where feed != nil:
            let loader = feed!.makeLoader(workers: options.workers, priority: options.workerPriority, wake: wake, colorMode: colorMode, output: output)
            // A real server: photo retries jittered, so a server back from a failure is not
            // asked for every photo at the same instant (issue 43).
            return AssetStore(cache: PreparedImageCache(limit: options.cacheBytes), loader: loader, colorMode: colorMode, placeholders: placeholders,
                              output: output, retries: .photos)
        case .workers:
            // The desktop's thumbnails serve your own photos; the bundled ones are decoded
            // every time on purpose (their decode cost is what the benchmarks measure).
            let thumbnails = options.photos != nil && options.thumbnailCache ? ThumbnailCache.user() : nil
            return AssetStore(source: network, cacheLimit: options.cacheBytes, workers: options.workers, priority: options.workerPriority,
                              wake: wake, colorMode: colorMode, placeholders: placeholders, thumbnails: thumbnails, output: output)
        case .scripted(let prepare):
            let loader = ScriptedAssetLoader(now: { [clock] in clock.now }, latency: network.delay(forRequest:), prepare: prepare)
            return AssetStore(cache: PreparedImageCache(limit: options.cacheBytes), loader: loader, colorMode: colorMode, placeholders: placeholders,
                              output: output)
        }
    }

    /// Words a search scenario types: the first word of the first titles, lowercased.
    static func searchWords(from catalogue: Catalogue) -> [String] {
        (0..<min(catalogue.baseCount, 12)).compactMap { catalogue.post($0).title.split(separator: " ").first.map { String($0.prefix(5)).lowercased() } }
    }

    /// The bundled Assets folder (``BundledAssets/folder``).
    static var assetsFolder: URL { BundledAssets.folder }

    /// How symbol thumbnails are coloured. With 24-bit colour they still use the 240-colour
    /// palette: ncurses draws colours through at most 65,536 pairs, and a photo mosaic in
    /// 24-bit colour brings new fg/bg pairs faster than that lasts; redefining a pair makes
    /// ncurses scan the whole screen (`_nc_change_pair`), so a 120 Hz fling hitched (4 (9)
    /// hitches, commit p99 7.3 (9.4) ms, D-033). 240 colours make at most 57,600 pairs,
    /// defined once. Real 24-bit thumbnails are kitty images (`--graphics kitty`).
    static func colorMode(for capability: ColorCapability) -> CellColorMode {
        switch capability {
        case .direct: .palette240
        case .palette256: .palette240
        case .palette16: .palette16
        case .palette8: .palette8
        case .none: .monochrome
        }
    }
}
