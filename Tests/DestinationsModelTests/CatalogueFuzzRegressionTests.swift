@testable import DestinationsModel
import Foundation
import Testing

/// Every catalogue input `make fuzz` starts from or found a bug with: loaded or refused
/// with a `CatalogueError`, never a trap.
@Suite struct CatalogueFuzzRegressionTests {
    @Test func catalogueInputsLoadOrFailCleanly() throws {
        let fuzz = assets.deletingLastPathComponent().appendingPathComponent("Fuzz")
        var loaded = 0, refused = 0
        for kind in ["Seeds", "Regressions"] {
            let folder = fuzz.appendingPathComponent("\(kind)/catalogue")
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where !name.hasPrefix(".") {
                do {
                    let catalogue = try Catalogue(catalogue: Data(contentsOf: folder.appendingPathComponent(name)), folder: assets)
                    for index in 0..<min(catalogue.baseCount * 3, 300) { _ = catalogue.post(index) }
                    loaded += 1
                } catch is CatalogueError {
                    refused += 1
                }
            }
        }
        #expect(loaded >= 2 && refused >= 1, "loaded \(loaded), refused \(refused)")
    }
}
