@testable import destinations
import CellCanvas
import ImagePipeline
import Testing

/// The detail view's line under the photo while it is on its way: what a person on a slow
/// link reads instead of a bare "preparing…".
@Suite struct DetailViewTests {
    static func view() -> DetailView {
        DetailView(id: 1, asset: AssetID(path: "https://example.org/original/1.jpg"), area: Rect(x: 0, y: 0, width: 120, height: 40))
    }

    @Test func progressIsShownInPercentOfTheWholePhoto() {
        let detail = Self.view()
        let size = detail.imageSize
        #expect(detail.waitingText(size) == "preparing \(size.columns)×\(size.rows)…")
        detail.progress = (0, 266_240)
        #expect(detail.waitingText(size).hasPrefix("preparing"), "nothing in yet")
        detail.progress = (119_808, 266_240)
        #expect(detail.waitingText(size) == "downloading 45 % (117 of 260 KB)…")
        detail.progress = (300_000, 266_240)  // a photo that changed and started over
        #expect(detail.waitingText(size) == "downloading 100 % (260 of 260 KB)…")
        detail.progress = (51_200, nil)
        #expect(detail.waitingText(size) == "downloading 50 KB…", "no length from the server")
    }
}
