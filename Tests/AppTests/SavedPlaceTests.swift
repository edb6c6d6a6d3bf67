@testable import destinations
import DestinationsModel
import Foundation
import SavedState
import TerminalFront
import Testing

/// The place kept between runs (issue 26), as the grid goes back to it: once the saved order
/// is applied, the saved post is selected; a key the person presses before then wins, and the
/// grid does not jump away from what they just did.
@Suite struct SavedPlaceTests {
    static let savedPost = 500

    /// A state folder whose bundled scope was left on post 500 in region order.
    static func personal() throws -> (PersonalState, folder: String) {
        let folder = NSTemporaryDirectory() + "saved-place-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let store = try StateStore(folder: folder)
        try store.savePlace(StateStore.Place(post: String(savedPost), filter: "", sort: PostOrder.region.rawValue), in: "bundled")
        return (PersonalState(store: store, scope: "bundled", fresh: false, outbox: nil), folder)
    }

    @Test func theSavedPostIsSelectedOnceItsOrderIsShown() throws {
        let (personal, folder) = try Self.personal()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let simulation = try GridSimulation(GridSimulation.options(nil, posts: 1000), personal: personal)
        simulation.settle()
        #expect(simulation.app.model.sortOrder == .region)
        #expect(simulation.app.model.selected == Self.savedPost)
        #expect(simulation.app.model.seeking.place == nil)
    }

    /// The region order is built off the main thread, so the first frame cannot show the
    /// saved post yet; `j` in that frame moves on from the first screen's selection, and the
    /// search for the saved post ends: the selection stays where the key put it.
    @Test func aKeyPressedBeforeThePlaceIsFoundWins() throws {
        let (personal, folder) = try Self.personal()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let simulation = try GridSimulation(GridSimulation.options(nil, posts: 1000), personal: personal)
        let before = simulation.app.model.selected
        #expect(simulation.app.model.seeking.place == String(Self.savedPost))
        simulation.press(.character("j"))
        let selected = simulation.app.model.selected
        #expect(selected != Self.savedPost && selected != before, "selected \(selected)")
        #expect(simulation.app.model.seeking.place == nil)
        // And what is kept on the way out is where the person went, not the old place.
        #expect(simulation.app.currentPlace.post == String(selected))
    }
}
