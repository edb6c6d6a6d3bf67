import ArgumentParser
import DestinationsModel
import ImagePipeline
import SavedState
import CoreKit
import FeedFormat
import Foundation
import HTTPCache
import RenderLoop
import TerminalFront

/// How images reach cells.
enum ImageMode: String, ExpressibleByArgument, CaseIterable, Sendable {
    case async, sync
    var next: ImageMode { self == .async ? .sync : .async }
}

/// `destinations grid`: the photo grid of destination posts.
struct GridCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "grid", abstract: "Browse the destination posts: a scrolling grid of photo thumbnails (the default).",
        discussion: """
        Keys move the selection, page, fling, filter and sort (listed below, and by ? in the grid). \
        --posts 1000000 browses a million posts; --photos DIR your own photos. \
        Without a terminal, --scenario runs headless: the same front presents into a byte-counting \
        sink (TERM as set, or xterm-256color; 160 columns by 48 rows unless COLUMNS and LINES say otherwise) and the \
        run's report is printed.
        """)

    /// `--refresh-rate`, `--prefetch`, `--report`, `--trace-file`: declared once, for every loop.
    @OptionGroup var frame: FrameFlags

    @Option(help: ArgumentHelp("Number of posts, 1 to 1000000 (the catalogue repeats, each post a distinct crop). Default 1000, or one per photo with --photos.", valueName: "n"))
    var posts: Int?

    @Option(help: ArgumentHelp("Browse this folder's JPEG, PNG, WebP and GIF photos instead of the bundled Assets (other files are skipped and counted).", valueName: "dir"))
    var photos: String?

    @Option(help: ArgumentHelp("Browse a Mastodon-compatible timeline instead: a server (mastodon.social: its public pictures), @user@server, #tag@server, home@server, local@server, or a timeline's URL (destinations-feed's too). Pages follow its Link header as you scroll.", valueName: "feed"))
    var feed: String?

    @Flag(name: .customLong("show-sensitive"), help: "With --feed: show posts behind a content warning or marked sensitive as they are, for this run (by default they are hidden until you press x; X shows them all and remembers it).")
    var showSensitive = false

    @Option(help: ArgumentHelp("With --feed: sent as 'Authorization: Bearer' to the feed's own origin only. Other users can read it in the process list: prefer --token-file or DESTINATIONS_TOKEN.", valueName: "token"))
    var token: String?

    @Option(name: .customLong("token-file"), help: ArgumentHelp("With --feed: read the token from this file (its first line; a file others can read is refused).", valueName: "file"))
    var tokenFile: String?

    @Flag(name: .customLong("allow-http-token"), help: "With --feed: send the token over plain http to a host that is not loopback (anyone on the way can read it).")
    var allowHTTPToken = false

    @Option(name: .customLong("trust-certificate"), help: ArgumentHelp("With --feed: trust this PEM certificate besides the system's (a server of your own).", valueName: "file"))
    var trustCertificate: String?

    @Option(help: "Thumbnails as kitty images (kitty, Ghostty, WezTerm and others), as sixel (xterm -ti vt340, foot, mlterm, Windows Terminal and others), as iTerm2 inline images, or as symbols (any terminal, 24-bit where it has direct colour); auto asks the terminal. DESTINATIONS_GRAPHICS sets the default.")
    var graphics: GraphicsRequest?

    @Option(help: "Colours of the HUD, help and detail view for a light or a dark terminal background; auto asks the terminal (OSC 11) and takes dark when it does not say.")
    var theme: ThemeRequest = .auto

    @Flag(help: "With --photos: do not read or write the desktop's thumbnail cache ($XDG_CACHE_HOME/thumbnails, else ~/.cache/thumbnails).")
    var noThumbnailCache = false

    @Option(help: "async: placeholder, prepared off the main thread, reconfigured; sync: full-size decode on the main thread while configuring (the wrong way, for comparison).")
    var images: ImageMode = .async

    @Option(help: ArgumentHelp("Cost limit of the prepared-image cache in MiB, 1 to 4096.", valueName: "mib"))
    var cacheMb = 64

    @Option(name: .customLong("disk-cache-mb"), help: ArgumentHelp("With --feed: the HTTP disk cache's size in MiB, 0 to 65536 (0: none; default 512 in a terminal, none for a scenario). In $XDG_CACHE_HOME/destinations/http, else ~/.cache/destinations/http.", valueName: "mib"))
    var diskCacheMb: Int?

    @Flag(name: .customLong("no-state"), help: "Keep no likes, outbox or place between runs (a terminal run keeps them in $XDG_STATE_HOME/destinations, else ~/.local/state/destinations; a scenario never does).")
    var noState = false

    @Flag(help: "Start at the top, with no filter and the catalogue's order, instead of where you left this feed or these posts.")
    var fresh = false

    @Option(help: "Replay seeded input (fling, steady, pages, browse, skim, reverse, search, end, idle); headless without a terminal.")
    var scenario: ScenarioKind?

    @Option(help: ArgumentHelp("Write the summary to this file instead of standard output (a run inside a terminal that closes with it).", valueName: "file"))
    var reportFile: String?

    @Option(help: "The HUD under the grid: on or off (default: on in a terminal, off headless).")
    var hud: PrefetchMode?

    @Option(help: ArgumentHelp("Image decoding threads, 1 to 64 (default: one per core).", valueName: "n"))
    var workers: Int?

    @Option(help: "Scheduling priority of the image threads: normal, low (nice 10), idle (SCHED_IDLE), mixed (one low thread, the rest idle) or idle-rescue (all idle, and as many threads at nice 7 that take jobs only while the idle ones are starved by other work).")
    var workerPriority: WorkerPriority = .recommended

    @Option(help: "Who writes frames to the terminal: the frame loop's own non-blocking writes (the default), or a writer thread it hands them to (for comparison; D-039).")
    var outputWriter: TerminalWriter.Delivery = .recommended

    @Option(help: ArgumentHelp("The frame loop's time slice on Linux 6.12 and later, in microseconds (100 to 100000; 0, the default: the kernel's own). Shorter than the kernel's, the frame loop preempts a busy thread when it wakes, and its own long commits are cut at a tick; measured worse (D-058).", valueName: "us"))
    var frameSliceUs = GridOptions.defaultFrameSliceMicroseconds

    @Option(help: ArgumentHelp("The time slice the frame loop asks for while it sleeps until a tick, in microseconds (100 to 100000; 0: none), and gives back when it wakes: a short one preempts a busy thread at the tick without cutting the commit short (D-067).", valueName: "us"))
    var wakeSliceUs = GridOptions.defaultWakeSliceMicroseconds

    @Option(help: ArgumentHelp("Write every cell lifecycle call, one per line.", valueName: "file"))
    var traceLifecycle: String?

    /// `--latency`, `--seed`, `--stress` (shared with the benchmark) and `--cell-cost`,
    /// `--duration` (shared with the scheduler): declared once.
    @OptionGroup var simulation: SimulationFlags
    @OptionGroup var runLength: RunFlags

    func validate() throws {
        if feed != nil && (photos != nil || posts != nil) { throw ValidationError("--feed shows the feed's posts: it cannot be combined with --photos or --posts") }
        if feed == nil && (token != nil || tokenFile != nil || trustCertificate != nil || allowHTTPToken || showSensitive) {
            throw ValidationError("--token, --token-file, --allow-http-token, --trust-certificate and --show-sensitive go with --feed")
        }
        if token != nil && tokenFile != nil { throw ValidationError("--token and --token-file: give the token one way") }
        if let posts, !(1...1_000_000).contains(posts) { throw ValidationError("--posts must be between 1 and 1000000, got \(posts)") }
        guard (1...4096).contains(cacheMb) else { throw ValidationError("--cache-mb must be between 1 and 4096, got \(cacheMb)") }
        if let diskCacheMb, !(0...65_536).contains(diskCacheMb) { throw ValidationError("--disk-cache-mb must be between 0 and 65536, got \(diskCacheMb)") }
        if feed == nil && diskCacheMb != nil { throw ValidationError("--disk-cache-mb goes with --feed") }
        guard frameSliceUs == 0 || (100...100_000).contains(frameSliceUs) else {
            throw ValidationError("--frame-slice-us must be 0 or between 100 and 100000, got \(frameSliceUs)")
        }
        guard wakeSliceUs == 0 || (100...100_000).contains(wakeSliceUs) else {
            throw ValidationError("--wake-slice-us must be 0 or between 100 and 100000, got \(wakeSliceUs)")
        }
        if let workers, !(1...64).contains(workers) { throw ValidationError("--workers must be between 1 and 64, got \(workers)") }
    }

    func run() throws {
        let headless = !Platform.isInteractive
        if headless && scenario == nil {
            throw AppError(description: "standard output is not a terminal: run destinations in a terminal, or pass --scenario NAME for a headless run", status: 2)
        }
        let options = GridOptions(
            refreshRate: frame.refreshRate, prefetch: frame.prefetch == .on, images: images, cellCost: .milliseconds(runLength.cellCost ?? 0),
            posts: posts, photos: photos, feed: feed, token: try TokenSource.token(flag: token, file: tokenFile), allowHTTPToken: allowHTTPToken,
            showsSensitive: showSensitive, trustCertificate: trustCertificate, latency: .milliseconds(simulation.latency), cacheBytes: cacheMb << 20, scenario: scenario,
            duration: runLength.duration.map { .milliseconds($0 * 1000) } ?? (scenario != nil ? .seconds(5) : nil),
            seed: simulation.seed, graphics: graphics, thumbnailCache: !noThumbnailCache, traceFrames: frame.traceFile != nil, traceLifecycle: traceLifecycle != nil, stress: simulation.stress,
            workers: workers ?? ImageLoader.defaultWorkers, workerPriority: workerPriority, hud: hud.map { $0 == .on }, theme: theme,
            outputWriter: outputWriter, frameSlice: frameSliceUs > 0 ? .microseconds(frameSliceUs) : nil,
            wakeSlice: wakeSliceUs > 0 ? .microseconds(wakeSliceUs) : nil,
            diskCache: Self.diskCache(megabytes: diskCacheMb ?? (scenario == nil ? 512 : 0)),
            stateFolder: noState || scenario != nil ? nil : StateStore.defaultFolder(environment: ProcessInfo.processInfo.environment),
            fresh: fresh)
        let outcome = try GridLaunch.runInTerminal(options: options, headless: headless)
        try TerminalLoop.checkTerminal(outcome.stop)
        let summary = frame.report == .json ? outcome.report.json() : outcome.report.text()
        // The summary names files and hosts: terminal-safe wherever it goes (issue 43).
        if let reportFile { try write(summary + "\n", to: reportFile) } else { print(PlainText.cleanLines(summary)) }
        try writeTraces(outcome.app)
        try TerminalLoop.checkSignal(outcome.stop)
    }

    private func writeTraces(_ app: GridLoop) throws {
        if let traceFile = frame.traceFile {
            try write(ChromeTrace.json(for: app.scheduler.meter.records, refreshRate: app.scheduler.refreshRate), to: traceFile)
        }
        if let traceLifecycle {
            try write((app.view.lifecycleLog).map(\.description).joined(separator: "\n") + "\n", to: traceLifecycle)
        }
    }

    private func write(_ text: String, to path: String) throws { try Platform.writeFile(text, to: path) }
}

/// Everything a grid run needs, resolved from flags (or made up by `destinations bench`).
/// Where the HTTP disk cache lives and how large it may grow.
struct DiskCacheOptions: Sendable {
    var folder: String
    var bytes: Int
}

extension GridCommand {
    /// `$XDG_CACHE_HOME/destinations/http`, else `~/.cache/destinations/http`; nil for 0 MiB.
    static func diskCache(megabytes: Int) -> DiskCacheOptions? {
        guard megabytes > 0 else { return nil }
        let home = Platform.environment("XDG_CACHE_HOME").flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? ((Platform.environment("HOME") ?? "/tmp") + "/.cache")
        return DiskCacheOptions(folder: home + "/destinations/http", bytes: megabytes << 20)
    }
}

struct GridOptions: Sendable {
    var refreshRate: RefreshRate = .hz60
    var prefetch = true
    var images = ImageMode.async
    var cellCost: Duration = .zero
    var posts: Int?
    var photos: String?
    /// `--feed`: a timeline's URL; `token` and `trustCertificate` go with it.
    var feed: String?
    var token: String?
    /// `--allow-http-token`: the person accepts the token crossing a network in the clear.
    var allowHTTPToken = false
    /// `--show-sensitive`: warned posts shown as they are from the start.
    var showsSensitive = false
    var trustCertificate: String?
    var latency: Duration = .milliseconds(80)
    var cacheBytes = 64 << 20
    var scenario: ScenarioKind?
    var duration: Duration?
    var seed: UInt64 = 1
    /// With `photos`: read and fill the freedesktop thumbnail cache.
    /// `--graphics`; nil: `DESTINATIONS_GRAPHICS`, else auto.
    var graphics: GraphicsRequest?
    var thumbnailCache = true
    /// Keep the first frames' whole records for `--trace-file` (nothing kept otherwise).
    var traceFrames = false
    var traceLifecycle = false
    /// Busy threads at normal priority for the run.
    var stress = 0
    var workers = ImageLoader.defaultWorkers
    var workerPriority = WorkerPriority.recommended
    /// Nil: on in a terminal, off headless.
    var hud: Bool?
    var theme = ThemeRequest.auto
    /// `--output-writer`: who writes frames to the terminal.
    var outputWriter = TerminalWriter.Delivery.recommended
    /// `--frame-slice-us`: the time slice the frame loop asks of the kernel (nil: its default).
    var frameSlice: Duration? = nil
    /// `--wake-slice-us`: the slice asked for while the frame loop sleeps to a tick (nil: none).
    var wakeSlice: Duration? = nil
    /// 0: the kernel's own slice. Every shorter slice measured made commits' p99 worse (a
    /// commit longer than the slice is cut at the next 4 ms tick) without a consistent drop
    /// in hitches (D-019, D-058); the flag stays for measuring.
    static let defaultFrameSliceMicroseconds = 0
    /// 0: none (measured in D-067).
    static let defaultWakeSliceMicroseconds = 0
    /// `--disk-cache-mb` and where: the feed's HTTP responses kept between runs (nil: none).
    var diskCache: DiskCacheOptions?
    /// Where likes, their outbox and the place are kept (nil: `--no-state`, a scenario).
    var stateFolder: String?
    /// `--fresh`: do not go back to the saved place.
    var fresh = false

    /// Whose likes and place these are: the feed's URL, a photo folder, or the bundled posts.
    var stateScope: String {
        if let feed { return feed }
        if let photos { return "folder:" + URL(fileURLWithPath: photos).standardizedFileURL.path }
        return "bundled"
    }

    /// The catalogue to show and how many posts; a photo folder's skipped files are kept
    /// in the catalogue for the header and the report. A photo folder without `--posts`
    /// returns after its first screen's photos, the scan going on in the background and
    /// ringing `wake` with each batch; with `--posts` (posts repeat the photos, so all
    /// must be known) it is read whole first.
    func loadCatalogue(wake: WakeSignal? = nil) throws -> LoadedCatalogue {
        if let feed {
            var cache: DiskCache?
            if let diskCache {
                do {
                    cache = try DiskCache(folder: diskCache.folder, capacity: diskCache.bytes)
                    for repair in cache?.repairs ?? [] { printError("destinations: \(repair)") }
                } catch {
                    printError("destinations: no disk cache (\(diskCache.folder): \(error)); every response comes over the network")
                }
            }
            let session = try FeedSession(feed: feed, token: token, allowHTTPToken: allowHTTPToken, trust: trustCertificate, wake: wake, cache: cache,
                                          showsWait: scenario == nil)
            let catalogue = session.firstCatalogue(showsSensitive: showsSensitive)
            return LoadedCatalogue(catalogue: catalogue, posts: catalogue.baseCount, feed: session)
        }
        do {
            guard let photos else { return LoadedCatalogue(catalogue: try Catalogue(folder: GridLaunch.assetsFolder), posts: posts ?? 1000) }
            let folder = URL(fileURLWithPath: photos)
            if let posts { return LoadedCatalogue(catalogue: try Catalogue(photosIn: folder), posts: posts) }
            let (catalogue, scan) = try PhotoFolderScan.start(folder, wake: wake)
            return LoadedCatalogue(catalogue: catalogue, posts: catalogue.baseCount, scan: scan)
        } catch {
            throw AppError(description: error.description, status: 1)
        }
    }
}

/// The posts a grid starts with: a catalogue, how many posts, and the scan of a photo
/// folder still being read (its updates grow the catalogue).
struct LoadedCatalogue {
    var catalogue: Catalogue
    var posts: Int
    var scan: PhotoFolderScan? = nil
    /// A feed being browsed (`--feed`): its pages grow the catalogue.
    var feed: FeedSession? = nil
}

extension WorkerPriority: ExpressibleByArgument {}
extension TerminalWriter.Delivery: ExpressibleByArgument {}
