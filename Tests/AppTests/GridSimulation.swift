import CellCanvas
@testable import destinations
import DestinationsModel
import Foundation
import ImagePipeline
import RenderLoop
import TerminalFront

/// The whole grid in-process: a ``TestBackend`` for the terminal, a ``VirtualClock`` for
/// time, and thumbnails that arrive after the simulated network's seeded delay (prepared
/// as their placeholder colours, so no decoding runs). Work costs virtual time only where
/// `--cell-cost` says, so every figure of a run is exact and the same on any machine.
struct GridSimulation {
    let app: GridLoop
    let backend: TestBackend
    let clock: VirtualClock

    static let placeholders = (try? PlaceholderCatalog(contentsOf: GridLaunch.assetsFolder.appendingPathComponent("placeholders.json"))) ?? PlaceholderCatalog()

    /// With `options.graphics` `.kitty` (and `capability` `.direct`), thumbnails are kitty
    /// images of one small PNG; with `.kittyPlacement`, the same PNG placed row by row; with
    /// `.sixel`, pixel images of tiny strips; otherwise placeholder mosaics. With
    /// `interruptedAttempts` N, each photo's first N attempts fail as a server's 500 would
    /// (``ImageError/interrupted(path:reason:)``).
    init(_ options: GridOptions, rows: Int = 48, columns: Int = 160, showsHUD: Bool = false, capability: ColorCapability = .palette256,
         interruptedAttempts: Int = 0, personal: PersonalState? = nil) throws {
        let loaded = try options.loadCatalogue()
        backend = TestBackend(rows: rows, columns: columns, capability: capability)
        clock = VirtualClock()
        let colorMode = GridLaunch.colorMode(for: backend.capability)
        let kitty = options.graphics == .kitty, sixel = options.graphics == .sixel, placement = options.graphics == .kittyPlacement
        var attempts: [PreparedImageKey: Int] = [:]
        app = GridLoop(options: options, loaded: loaded, terminal: backend, clock: clock,
                      images: .scripted(prepare: { key in
                          attempts[key, default: 0] += 1
                          if attempts[key]! <= interruptedAttempts {
                              return .failure(.interrupted(path: key.asset.path, reason: "the server answered 500"))
                          }
                          if sixel {
                              // One tiny strip per row, and the placeholder mosaic as the fallback.
                              let mosaic = Self.placeholders.placeholder(for: key.asset, columns: key.columns, rows: key.rows, colorMode: colorMode)
                              return .success(CellImage(pixelImage: KittyGraphics.nextID(), columns: key.columns,
                                                        strips: (0..<key.rows).map { _ in Array("\u{1B}Pq#0~\u{1B}\\".utf8) },
                                                        fallback: mosaic.cells, reachesBelowItsRow: true))
                          }
                          if placement {
                              // A kitty image sent once, a placement per row, the mosaic as the fallback.
                              let id = KittyGraphics.nextID()
                              let mosaic = Self.placeholders.placeholder(for: key.asset, columns: key.columns, rows: key.rows, colorMode: colorMode)
                              return .success(CellImage(pixelImage: id, columns: key.columns,
                                                        strips: KittyGraphics.placements(id: id, columns: key.columns, rows: key.rows, cellPixels: (10, 20)),
                                                        fallback: mosaic.cells, reachesBelowItsRow: false, lingers: true,
                                                        transmission: KittyGraphics.transmissionOnly(png: Self.smallPNG, id: id), pixels: 2))
                          }
                          guard kitty else {
                              return .success(Self.placeholders.placeholder(for: key.asset, columns: key.columns, rows: key.rows, colorMode: colorMode))
                          }
                          let id = KittyGraphics.nextID()
                          return .success(CellImage(kittyImage: id, columns: key.columns, rows: key.rows, pixels: 2,
                                                    transmission: KittyGraphics.transmission(png: Self.smallPNG, id: id, columns: key.columns, rows: key.rows)))
                      }), showsHUD: showsHUD, personal: personal)
    }

    static let smallPNG = (try? PNGCodec.encode(PixelBuffer(width: 2, height: 1, bytes: [200, 0, 0, 255, 0, 200, 0, 255]))) ?? []

    /// Options for a scripted run of `seconds` of virtual time.
    static func options(_ scenario: ScenarioKind?, seconds: Double = 3, posts: Int = 10_000, rate: RefreshRate = .hz120,
                        prefetch: Bool = true, cellCost: Double = 0, seed: UInt64 = 1) -> GridOptions {
        var options = GridOptions()
        options.scenario = scenario
        options.duration = .milliseconds(seconds * 1000)
        options.posts = posts
        options.refreshRate = rate
        options.prefetch = prefetch
        options.cellCost = .milliseconds(cellCost)
        options.seed = seed
        return options
    }

    /// Runs to the options' duration and reports.
    static func run(_ options: GridOptions, rows: Int = 48, columns: Int = 160) throws -> (report: GridReport, simulation: GridSimulation) {
        let simulation = try GridSimulation(options, rows: rows, columns: columns)
        return (simulation.app.runToEnd(), simulation)
    }

    /// Runs `count` frames.
    func frames(_ count: Int) { app.scheduler.run(frames: count, app) }

    /// Runs frames (and quiet waits) until the virtual clock reads `time`.
    func run(until time: Duration) {
        while clock.now < time { frames(1) }
    }

    /// Types `keys`, then runs frames until the screen settles (no cell changed for a
    /// few frames, as animations and deliveries finish, nothing moves, and the terminal
    /// has taken everything) or `limit` frames have run.
    func press(_ keys: Key..., limit: Int = 600) {
        backend.type(keys)
        settle(limit: limit)
    }

    func settle(limit: Int = 600) {
        var quiet = 0
        for _ in 0..<limit where quiet < 10 {
            frames(1)
            let still = backend.cellsWrittenInLastFrame == 0 && !backend.isOutputBehind && !app.view.collection.physics.isMoving
            quiet = still ? quiet + 1 : 0
        }
    }

    var screen: String { backend.text }

    /// Visible post cells that still show a placeholder.
    var placeholdersOnScreen: Int { app.view.collection.visibleCells.count { ($0 as? PostCell)?.isPlaceholder ?? false } }
}

/// The figures two runs must agree on (everything but wall-clock and memory readings).
struct ExactFigures: Equatable {
    let frames, hitches, cellsInCommit, cellsIdle, batches, cancels, bytes, scrollFrames: Int
    let hitchTime: Duration
    let placeholderPct: Double

    init(_ report: GridReport) {
        frames = report.hitch.frames
        hitches = report.hitch.hitches
        hitchTime = report.hitch.totalHitchTime
        cellsInCommit = report.cellsPreparedInCommit
        cellsIdle = report.cellsPreparedIdle
        batches = report.prefetchBatches
        cancels = report.prefetchCancels
        bytes = report.bytesWritten
        scrollFrames = report.scrollFrames
        placeholderPct = report.placeholderCellFramesPct
    }
}
