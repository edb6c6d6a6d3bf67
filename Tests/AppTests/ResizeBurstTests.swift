@testable import destinations
import TerminalFront
import Testing

/// A window dragged by its edge sends dozens of resizes a second (issue 28): they cost one
/// layout a frame, at the last size, and in `--images sync` the app keeps answering.
@Suite struct ResizeBurstTests {
    @Test func aBurstOfResizesIsOneLayoutAtTheLastSize() throws {
        let simulation = try GridSimulation(GridSimulation.options(nil, seconds: 60))
        simulation.settle()
        let before = simulation.app.measure.relayouts
        for step in 0..<12 { simulation.backend.resize(rows: 30 + step, columns: 100 + 5 * step) }
        simulation.frames(1)
        #expect(simulation.app.measure.relayouts == before + 1, "twelve resizes in a frame, one layout")
        #expect(simulation.app.view.collection.viewport.width == 155, "the last size: 100 + 5 × 11 columns")
        simulation.settle()
        #expect(simulation.backend.rowTexts.count == 41)
        #expect(simulation.app.measure.relayouts == before + 1, "nothing left over for later frames")
    }

    @Test func inSyncModeEachCommitDecodesOnePhotoAtMostAndKeysAreServedMeanwhile() throws {
        var options = GridSimulation.options(nil, seconds: 60)
        options.images = .sync
        let simulation = try GridSimulation(options)
        var decodes: [Int] = []
        for _ in 0..<3 {
            simulation.frames(1)
            decodes.append(simulation.app.view.syncDecodes.inCommit)
        }
        #expect(decodes.allSatisfy { $0 <= 1 }, "first screen: \(decodes)")
        // A burst of resizes, each of which would reconfigure every live cell, then `?`.
        for step in 0..<6 { simulation.backend.resize(rows: 40 + step, columns: 120 + 4 * step) }
        simulation.frames(1)
        #expect(simulation.app.view.syncDecodes.inCommit <= 1)
        simulation.backend.type(.character("?"))
        simulation.frames(1)
        #expect(simulation.app.model.showsHelp, "served in the next frame, not after every decode")
        #expect(simulation.app.view.syncDecodes.inCommit <= 1)
        // The decodes go on a frame at a time until every visible post shows its photo.
        simulation.backend.type(.escape)
        simulation.settle(limit: 400)
        #expect(simulation.placeholdersOnScreen == 0)
    }
}
