import ArgumentParser
import DestinationsModel
import Foundation
import RenderLoop
#if canImport(Glibc)
import Glibc
#endif

/// How images reach cells.
enum ImageMode: String, ExpressibleByArgument, CaseIterable, Sendable {
    case async, sync
}

/// `destinations grid`: the photo grid of destination posts.
struct GridCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "grid", abstract: "Browse the destination posts: a scrolling grid of photo thumbnails (the default).")

    @Option(name: .long, help: ArgumentHelp("Display refresh rate in Hz, 24 to 480.", valueName: "hz"),
            transform: { text in
                do { return try RefreshRate(parsing: text) } catch { throw ValidationError("\(error)") }
            })
    var refreshRate: RefreshRate = .hz60

    @Option(help: ArgumentHelp("Number of posts (the catalogue repeats with a distinct crop each), 1 to 1000000.", valueName: "n"))
    var posts = 1000

    @Option(help: ArgumentHelp("Simulated network latency per image in ms (jitter ±50 %).", valueName: "ms"))
    var latency: Double = 80

    @Option(help: "Prepare upcoming cells in idle frame time.")
    var prefetch: PrefetchMode = .on

    @Option(help: "async: placeholder, prepared off the main thread, reconfigured; sync: full-size decode on the main thread while configuring (the wrong way, for comparison).")
    var images: ImageMode = .async

    @Option(help: ArgumentHelp("Extra synthetic work per cell configuration, 0 to 1000 ms.", valueName: "ms"))
    var cellCost: Double = 0

    func validate() throws {
        guard cellCost.isFinite, (0...1000).contains(cellCost) else { throw ValidationError("--cell-cost must be between 0 and 1000 ms, got \(cellCost)") }
        guard (1...1_000_000).contains(posts) else { throw ValidationError("--posts must be between 1 and 1000000, got \(posts)") }
        guard latency.isFinite, (0...10_000).contains(latency) else { throw ValidationError("--latency must be between 0 and 10000 ms, got \(latency)") }
    }

    func run() throws {
        guard isatty(STDOUT_FILENO) == 1 && isatty(STDIN_FILENO) == 1 else {
            throw AppError(description: "standard output is not a terminal: run destinations in a terminal (destinations scheduler --duration S runs headless)", status: 2)
        }
        let catalogue: Catalogue
        do { catalogue = try Catalogue(folder: GridApp.assetsFolder) } catch { throw AppError(description: error.description, status: 1) }
        let app = GridApp(catalogue: catalogue, posts: posts, refreshRate: refreshRate, latency: .milliseconds(latency))
        app.prefetchEnabled = prefetch == .on
        app.imageMode = images
        app.cellCost = .milliseconds(cellCost)
        try app.run()
    }
}
