import ArgumentParser
import DestinationsModel
import ImagePipeline
import RenderLoop
import TerminalFront

/// `bench --headroom-clock virtual`: whether the cells' cost fits the frames is a property
/// of the scheduling, not of the machine, so the headroom search can run the grid
/// in-process on a ``VirtualClock`` with an in-memory terminal: cells cost exactly
/// `--cell-cost` of virtual time and nothing else costs any, thumbnails (placeholder
/// mosaics, no decoding) arrive at the simulated network's seeded times. Every probe is
/// exact, so the search gives the same answer on every run and every machine (the tests'
/// `GridSimulation` is the same set-up).
enum VirtualRun {
    static func report(_ options: GridOptions, rows: Int = 48, columns: Int = 160) throws -> GridReport {
        let loaded = try options.loadCatalogue()
        let backend = TestBackend(rows: rows, columns: columns, capability: .palette256)
        let colorMode = GridLaunch.colorMode(for: backend.capability)
        let placeholders = (try? PlaceholderCatalog(contentsOf: GridLaunch.assetsFolder.appendingPathComponent("placeholders.json"))) ?? PlaceholderCatalog()
        let app = GridLoop(options: options, loaded: loaded, terminal: backend, clock: VirtualClock(),
                          images: .scripted(prepare: { key in
                              .success(placeholders.placeholder(for: key.asset, columns: key.columns, rows: key.rows, colorMode: colorMode))
                          }), showsHUD: false)
        return app.runToEnd()
    }
}

/// Which clock the headroom search runs on.
enum HeadroomClock: String, ExpressibleByArgument, CaseIterable, Sendable {
    case real, virtual
}
